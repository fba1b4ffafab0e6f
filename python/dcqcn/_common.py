"""What the module's API (dcqcn/__init__.py) and dcqcn tune (tune_search.py) both need, so that
neither imports the other for it: a scenario as the engine takes it (a path, or TOML text from a
dict), --set overrides as KEY=VALUE texts, the count of engine calls in progress (which the exit
hook waits for), scratch folders, and the check and fluid calls in their internal form (--set
texts in, nothing warned). It imports the compiled extension; the tune modules and the API import
it, and it imports neither.
"""
import atexit
import contextlib
import io
import json
import numbers
import os
import shutil
import signal
import tempfile
import threading
import tomllib

import pandas as pd

from . import _dcqcn

InputError = _dcqcn.InputError


def toml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string is a JSON string
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise InputError(f"scenario: cannot write {value!r} ({type(value).__name__}) as TOML")


def toml_text(table, path=""):
    """A dict of tables as TOML text: scalars first, then sub-tables, then arrays of tables."""
    lines, subtables = [], []
    for key, value in table.items():
        if isinstance(value, dict):
            subtables.append((key, value))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            subtables.append((key, value))
        else:
            lines.append(f"{key} = {toml_value(value)}")
    text = "\n".join(lines) + ("\n" if lines else "")
    for key, value in subtables:
        name = f"{path}.{key}" if path else key
        if isinstance(value, dict):
            text += f"\n[{name}]\n" + toml_text(value, name)
        else:
            for item in value:
                text += f"\n[[{name}]]\n" + toml_text(item, name)
    return text


def scenario_source(scenario):
    """(text or path, is_path) for the engine."""
    if isinstance(scenario, dict):
        return toml_text(scenario), False
    if isinstance(scenario, os.PathLike):
        return os.fspath(scenario), True
    if isinstance(scenario, str):
        if "\n" in scenario or "=" in scenario or "[" in scenario:
            return scenario, False
        return scenario, True
    raise InputError("scenario: expected a path, TOML text or a dict")


def scenario_file(scenario, folder):
    """A path to the scenario: its own, or a file in `folder` holding its text (for the commands
    that read a file)."""
    text, is_path = scenario_source(scenario)
    if is_path:
        return text
    path = os.path.join(folder, "scenario.toml")
    with open(path, "w") as f:
        f.write(text)
    return path


def sets(set=None, seed=None):
    """The --set texts ("key=value") of `set` (a dict of dotted keys to values, or a list of
    texts), and of `seed` as the scenario's seed key."""
    if set is None:
        texts = []
    elif isinstance(set, dict):
        texts = [f"{k}={toml_value(v)}" for k, v in set.items()]
    else:
        texts = list(set)
    if seed is not None:
        # An integer, as the scenario's seed key: 1.9 or "2" must not become another seed.
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
            raise InputError(f"seed={seed!r}: expected an integer")
        texts.append(f"seed={seed}")
    return texts


def thread_count(threads):
    if threads is None:
        return 0  # as the command line: every core from 256 hosts on, else one
    threads = int(threads)
    if threads < 1:
        raise ValueError(f"threads = {threads}: at least 1")
    return threads


# The engine calls in progress, in any thread, so that the exit hook can wait for them.
_calls = 0
_calls_changed = threading.Condition()
_exiting = False


@contextlib.contextmanager
def engine_call():
    """Counts a call in progress until it has returned and removed its temporary files."""
    global _calls
    with _calls_changed:
        _calls += 1
    try:
        yield
    except KeyboardInterrupt:
        if not _exiting:
            raise
        # Stopped by the exit hook: SystemExit ends the calling thread quietly.
        raise SystemExit("dcqcn: stopped at interpreter exit; no results written") from None
    finally:
        with _calls_changed:
            _calls -= 1
            _calls_changed.notify_all()


@atexit.register
def _stop_at_exit():
    """A daemon thread's run would otherwise be cut off midway by the exit, leaving its staged
    output and temporary folders (and C++ threads the finalizing interpreter aborts): stop every
    call still running and wait until each has cleaned up."""
    global _exiting
    _exiting = True
    _dcqcn.stop_all()
    with _calls_changed:
        _calls_changed.wait_for(lambda: _calls == 0, timeout=60)


@contextlib.contextmanager
def scratch(prefix):
    """A temporary folder, removed afterwards: for outputs read and dropped, and scenario text."""
    tmp = tempfile.mkdtemp(prefix=prefix)
    try:
        yield tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def out_folder(out, tmp, name):
    """Where a command writes: `out` when given (kept), else a folder in the scratch one."""
    return os.fspath(out) if out is not None else os.path.join(tmp, name)


def check(scenario, set_texts):
    """dcqcn.check with --set texts: the resolved scenario as a dict, with its "warnings"."""
    text, is_path = scenario_source(scenario)
    resolved, warnings = _dcqcn.check(text, is_path, set_texts)
    d = tomllib.loads(resolved)
    d["warnings"] = warnings
    return d


@contextlib.contextmanager
def interrupts_deferred():
    """Holds a Ctrl-C back until the block is done, then raises it as the handler before would.
    pandas' C parser turns a KeyboardInterrupt raised inside its read callbacks into a
    ParserError (pandas 1.5, "Calling read(nbytes) on source failed"), so a Ctrl-C must not land
    there. Signals reach only the main thread; elsewhere there is nothing to hold back."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught = []
    before = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(frame))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
    if caught and callable(before):
        before(signal.SIGINT, caught[0])
    elif caught and before == signal.SIG_DFL:
        signal.raise_signal(signal.SIGINT)


def read_csv(path, **kwargs):
    """pd.read_csv of a whole file, a Ctrl-C during the parse raised as itself afterwards."""
    with open(path, "rb") as f:
        data = f.read()
    with interrupts_deferred():
        return pd.read_csv(io.BytesIO(data), **kwargs)


def fluid(scenario, set_texts, *, flows=None, rate=None, delay=None, duration="100ms", out=None):
    """dcqcn.fluid with --set texts: (summary dict, DataFrame of timeseries/fluid.csv, the notes
    the command warns of), the notes left to the caller to warn of or not."""
    with engine_call(), scratch("dcqcn-fluid-") as tmp:
        path = "" if scenario is None else scenario_file(scenario, tmp)
        folder = out_folder(out, tmp, "fluid")
        summary, notes = _dcqcn.fluid(path, set_texts, flows, None if rate is None else str(rate),
                                      None if delay is None else str(delay), str(duration),
                                      folder, False)
        series = read_csv(os.path.join(folder, "timeseries", "fluid.csv"))
        return json.loads(summary), series, list(notes)
