"""What `dcqcn tune` searches and for what: the parameters (--param), the objectives (--minimize,
--maximize) and the constraints (--constraint), parsed from the command line's text, and the
metrics read out of a run's summary.json by dotted path."""
import difflib
import math
import re

from . import units
from ._common import InputError

_OPTIONS = ("log", "int")
_QUANTITY = re.compile(r"^\s*([+-]?[0-9.]+)\s*([A-Za-z]*)\s*$")


def _number_and_kind(text, flag, key):
    """(value in base units, kind or None) of a bound such as "5KB", "55us" or "0.2"."""
    m = _QUANTITY.match(text)
    if not m:
        raise InputError(f"{flag} {key}: {text!r} is not a number (or a number with a unit)")
    number, suffix = m.groups()
    if not suffix:
        try:
            return float(number), None
        except ValueError:
            raise InputError(f"{flag} {key}: {text!r} is not a number") from None
    kind = units.KIND_OF.get(suffix)
    if kind is None:
        suffixes = ", ".join(s for s in units.KIND_OF)
        raise InputError(f"{flag} {key}: unknown unit {suffix!r} in {text!r} (one of {suffixes})")
    value, why = units.parse(text.strip(), kind)
    if value is None:
        raise InputError(f"{flag} {key}: {text!r}: {why or 'not a ' + kind}")
    return value, kind


def _largest_exact_unit(value, kind):
    """`value` (base units) as text in the largest unit that holds it exactly: 55us, 12345B."""
    for suffix, scale in reversed(units.UNITS[kind]):
        if suffix.endswith("iB"):
            continue
        if value % scale == 0:
            return f"{value // scale}{suffix}"
    return f"{value}{units.UNITS[kind][0][0]}"


class Param:
    """One --param: a range LOW:HIGH (numbers or quantities of one kind, optionally :log and
    :int) or a list of values V1,V2,... (categorical, passed to --set as written)."""

    def __init__(self, text, flag="--param"):
        key, eq, spec = text.partition("=")
        key = key.strip()
        if not eq or not key or not spec.strip():
            raise InputError(f"{flag} {text!r}: expected KEY=LOW:HIGH[:log][:int] or "
                             "KEY=V1,V2,...")
        self.key = key
        self.text = text
        self.choices = None
        self.kind = None  # "time", "rate", "size" or None (a plain number)
        self.unit = ""    # the unit LOW was written in, for tables
        if ":" in spec:
            parts = [p.strip() for p in spec.split(":")]
            low, high, options = parts[0], parts[1], parts[2:]
            for option in options:
                if option not in _OPTIONS:
                    raise InputError(f"{flag} {key}: unknown option {option!r} (log or int)")
            self.log = "log" in options
            (self.low, low_kind), (self.high, high_kind) = (_number_and_kind(low, flag, key),
                                                          _number_and_kind(high, flag, key))
            if low_kind != high_kind:
                raise InputError(f"{flag} {key}: {low!r} and {high!r} are not of one kind")
            self.kind = low_kind
            # A quantity is an integer of its base unit (bytes, picoseconds, bit/s).
            self.integer = "int" in options or self.kind is not None
            if self.integer and self.kind is None:
                if self.low != int(self.low) or self.high != int(self.high):
                    raise InputError(f"{flag} {key}: :int needs integer bounds, not {low}:{high}")
            if not self.low < self.high:
                raise InputError(f"{flag} {key}: LOW {low} must be below HIGH {high}")
            if self.log and self.low <= 0:
                raise InputError(f"{flag} {key}: :log needs LOW > 0, not {low}")
            if self.kind is not None:
                self.unit = _QUANTITY.match(low).group(2)
        else:
            self.choices = [v.strip() for v in spec.split(",")]
            if len(self.choices) < 2 or any(not v for v in self.choices):
                raise InputError(f"{flag} {key}: expected two or more values V1,V2,... "
                                 f"(or a range LOW:HIGH), not {spec!r}")

    def suggest(self, trial):
        """The trial's value: base units for a quantity, a number, or a choice's text."""
        if self.choices is not None:
            return trial.suggest_categorical(self.key, self.choices)
        if self.integer:
            return trial.suggest_int(self.key, int(self.low), int(self.high), log=self.log)
        return trial.suggest_float(self.key, self.low, self.high, log=self.log)

    def set_text(self, value):
        """`value` as --set takes it."""
        if self.choices is not None:
            return str(value)
        if self.kind is not None:
            return _largest_exact_unit(int(value), self.kind)
        return str(int(value)) if self.integer else repr(float(value))

    def display(self, value):
        """`value` for people: in LOW's unit, four significant digits."""
        if value is None:
            return ""
        if self.choices is not None or self.integer and self.kind is None:
            return self.set_text(value)
        if self.kind is None:
            return f"{value:.4g}"
        scale = dict(units.UNITS[self.kind])[self.unit]
        return f"{value / scale:.4g}{self.unit}"

    def column(self):
        """The trials.csv column: the key, with the unit its numbers are in."""
        return f"{self.key} [{self.unit}]" if self.kind is not None else self.key

    def column_value(self, value):
        if self.kind is None:
            return value
        return value / dict(units.UNITS[self.kind])[self.unit]


class Objective:
    """--minimize PATH or --maximize PATH."""

    def __init__(self, path, maximize):
        self.path = path.strip()
        self.maximize = maximize
        if not self.path:
            raise InputError(f"{self.flag()}: expected a summary.json path")

    def flag(self):
        return "--maximize" if self.maximize else "--minimize"

    def direction(self):
        return "maximize" if self.maximize else "minimize"


class Constraint:
    """--constraint "PATH <= X" (or >=): a trial whose mean over seeds breaks it is infeasible."""

    # The last <= or >= is the operator: a path may hold one (fct_slowdown_by_size.>=1MB.p99).
    _FORM = re.compile(r"^\s*(\S+?)\s*(<=|>=)\s*([^<>=\s]+)\s*$")

    def __init__(self, text):
        m = self._FORM.match(text)
        if not m:
            raise InputError(f"--constraint {text!r}: expected \"METRIC <= X\" or "
                             "\"METRIC >= X\"")
        self.path, self.op, bound = m.groups()
        try:
            self.bound = float(bound)
        except ValueError:
            raise InputError(f"--constraint {text!r}: {bound!r} is not a number") from None
        # nan compares false with every value (every trial would pass or fail alike, and
        # Optuna refuses it); an infinite bound holds for every trial or for none.
        if not math.isfinite(self.bound):
            raise InputError(f"--constraint {text!r}: the bound {bound!r} is not a finite "
                             "number")
        self.text = f"{self.path} {self.op} {bound}"

    def violation(self, value):
        """Optuna's convention: <= 0 is feasible."""
        return value - self.bound if self.op == "<=" else self.bound - value


def metric_paths(summary, prefix=""):
    """Every dotted path to a number in a summary (lists by index)."""
    items = (summary.items() if isinstance(summary, dict) else
             enumerate(summary) if isinstance(summary, list) else ())
    paths = []
    for key, value in items:
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, (dict, list)):
            paths += metric_paths(value, path)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            paths.append(path)
    return paths


_MISSING = object()


def lookup(table, path, missing=None):
    """The value at dotted `path` of nested dicts and lists (lists by index): `missing` when
    there is none; None below a null (a table the run did not record)."""
    node = table
    for part in path.split("."):
        if node is None:
            return None
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return missing
    return node


def metric(summary, path, flag):
    """The number at dotted `path` of a summary; None when the run recorded none (null). An
    unknown path is an InputError naming `flag` and the nearest paths."""
    node = lookup(summary, path, _MISSING)
    if node is _MISSING:
        near = difflib.get_close_matches(path, metric_paths(summary), n=5, cutoff=0.5)
        hint = ("; nearest: " + ", ".join(near)) if near else ""
        raise InputError(f"{flag} {path}: no such number in summary.json{hint}")
    if node is None:
        return None
    if isinstance(node, bool) or not isinstance(node, (int, float)):
        raise InputError(f"{flag} {path}: not a number in summary.json (a "
                         f"{type(node).__name__}); give a path down to a number")
    return float(node)
