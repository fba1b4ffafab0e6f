"""dcqcn from Python: run scenarios and sweeps and get pandas DataFrames back.

    import dcqcn
    r = dcqcn.run("examples/incast_8to1.toml", set={"workload.senders": 4}, seed=2)
    r.summary["fct_slowdown"]["p99"]; r.flows.head(); r.timeseries["queue"]

A scenario is a path to a TOML file, TOML text, or a dict of tables ({"topology": {"type":
"star", "hosts": 5}, ...}). `set` overrides keys as `dcqcn run --set` does (a dict of dotted keys
to values, or a list of "key=value" strings). Input errors raise dcqcn.InputError with the
command line's message. Simulations run without the GIL; Ctrl-C stops a run and raises
KeyboardInterrupt. At interpreter exit, the calls still running in other threads (daemon
threads, or any left running after Ctrl-C) stop the same way, raise SystemExit in their thread
and leave nothing behind.
"""
import atexit
import contextlib
import numbers
import json
import os
import shutil
import tempfile
import threading
import tomllib
import warnings

import pandas as pd

from . import _dcqcn

InputError = _dcqcn.InputError
__version__ = _dcqcn.version
__all__ = ["run", "check", "buffer", "sweep", "fluid", "hpcc", "tune", "Result", "TuneResult",
           "InputError"]


def _toml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string is a JSON string
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise InputError(f"scenario: cannot write {value!r} ({type(value).__name__}) as TOML")


def _toml_text(table, path=""):
    """A dict of tables as TOML text: scalars first, then sub-tables, then arrays of tables."""
    lines, subtables = [], []
    for key, value in table.items():
        if isinstance(value, dict):
            subtables.append((key, value))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            subtables.append((key, value))
        else:
            lines.append(f"{key} = {_toml_value(value)}")
    text = "\n".join(lines) + ("\n" if lines else "")
    for key, value in subtables:
        name = f"{path}.{key}" if path else key
        if isinstance(value, dict):
            text += f"\n[{name}]\n" + _toml_text(value, name)
        else:
            for item in value:
                text += f"\n[[{name}]]\n" + _toml_text(item, name)
    return text


def _scenario(scenario):
    """(text or path, is_path) for the engine."""
    if isinstance(scenario, dict):
        return _toml_text(scenario), False
    if isinstance(scenario, os.PathLike):
        return os.fspath(scenario), True
    if isinstance(scenario, str):
        if "\n" in scenario or "=" in scenario or "[" in scenario:
            return scenario, False
        return scenario, True
    raise InputError("scenario: expected a path, TOML text or a dict")


def _scenario_file(scenario, folder):
    """A path to the scenario: its own, or a file in `folder` holding its text (for the commands
    that read a file)."""
    text, is_path = _scenario(scenario)
    if is_path:
        return text
    path = os.path.join(folder, "scenario.toml")
    with open(path, "w") as f:
        f.write(text)
    return path


# The engine calls in progress, in any thread, so that the exit hook can wait for them.
_calls = 0
_calls_changed = threading.Condition()
_exiting = False


@contextlib.contextmanager
def _engine_call():
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
def _scratch(prefix):
    """A temporary folder, removed afterwards: for outputs read and dropped, and scenario text."""
    tmp = tempfile.mkdtemp(prefix=prefix)
    try:
        yield tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _out_folder(out, tmp, name):
    """Where a command writes: `out` when given (kept), else a folder in the scratch one."""
    return os.fspath(out) if out is not None else os.path.join(tmp, name)


def _sets(set=None, seed=None):
    if set is None:
        sets = []
    elif isinstance(set, dict):
        sets = [f"{k}={_toml_value(v)}" for k, v in set.items()]
    else:
        sets = list(set)
    if seed is not None:
        # An integer, as the scenario's seed key: 1.9 or "2" must not become another seed.
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
            raise InputError(f"seed={seed!r}: expected an integer")
        sets.append(f"seed={seed}")
    return sets


class Result:
    """A run's output: summary (dict), flows (DataFrame), timeseries (dict of DataFrames, one
    per series the run recorded: rate, queue, pfc, throughput), resolved (dict: the scenario
    with every default), links (DataFrame), collectives (DataFrame of collectives.csv: one row per
    collective and iteration; None without [[collective]]) and out (the folder, or None when it
    was temporary)."""

    def __init__(self, folder, out):
        self.out = out
        with open(os.path.join(folder, "summary.json")) as f:
            self.summary = json.load(f)
        self.flows = pd.read_csv(os.path.join(folder, "flows.csv"), keep_default_na=True)
        self.links = pd.read_csv(os.path.join(folder, "links.csv"))
        collectives = os.path.join(folder, "collectives.csv")
        self.collectives = pd.read_csv(collectives) if os.path.exists(collectives) else None
        with open(os.path.join(folder, "resolved.toml"), "rb") as f:
            self.resolved = tomllib.load(f)
        self.timeseries = {}
        series = os.path.join(folder, "timeseries")
        if os.path.isdir(series):
            for name in sorted(os.listdir(series)):
                if name.endswith(".csv"):
                    self.timeseries[name[:-4]] = pd.read_csv(os.path.join(series, name))

    def __repr__(self):
        s = self.summary
        return (f"<dcqcn.Result {self.resolved.get('name', '')}: {s.get('flows_finished')} of "
                f"{s.get('flows_total')} flows finished{', in ' + self.out if self.out else ''}>")


def _threads(threads):
    if threads is None:
        return 0  # as the command line: every core from 256 hosts on, else one
    threads = int(threads)
    if threads < 1:
        raise ValueError(f"threads = {threads}: at least 1")
    return threads


def run(scenario, *, set=None, seed=None, out=None, force=False, progress=None, threads=None):
    """Runs a scenario; returns a Result. `out`: the output folder to write (kept); by default a
    temporary one, removed once read. `threads`: split the run over that many threads (racks);
    the results are the same for any number (default: every core from 256 hosts on, else one). `progress(d)` is called about twice a second with
    {time_ns, fraction, events, flows_done, flows_total, start_ns}: fraction is how far the run
    is (flows finished or time to its duration, whichever is further), start_ns the first flow's
    start."""
    text, is_path = _scenario(scenario)
    with _engine_call(), _scratch("dcqcn-") as tmp:
        folder = _out_folder(out, tmp, "run")
        _dcqcn.run(text, is_path, _sets(set, seed), folder, force, progress, _threads(threads))
        return Result(folder, folder if out is not None else None)


def check(scenario, *, set=None):
    """Validates a scenario (its network is built too) and returns it with every default filled
    in, as a dict; the buffer warnings `dcqcn check` prints are in its "warnings" list."""
    text, is_path = _scenario(scenario)
    resolved, warnings = _dcqcn.check(text, is_path, _sets(set))
    d = tomllib.loads(resolved)
    d["warnings"] = warnings
    return d


def buffer(**options):
    """The paper's switch-buffer thresholds (`dcqcn buffer`) as a dict, in bytes. Options as the
    command's: ports, buffer, rate, cable, mtu, headroom, beta, kmin (numbers or strings such as
    buffer="12MB")."""
    return _dcqcn.buffer({k: str(v) for k, v in options.items()})


def sweep(scenario, *, vary, set=None, seeds=0, out=None, jobs=1, threads=1, force=False,
          resume=False):
    """Runs a sweep (`dcqcn sweep`); returns sweep.csv as a DataFrame, with sweep_mean.csv (the
    mean and 95% confidence interval over seeds) as its .attrs["mean"] when seeds are varied.
    `vary`: a dict {key: [values]} or a list of "key=v1,v2" strings. `jobs` runs at once, each
    split over `threads`."""
    if isinstance(vary, dict):
        vary = [f"{k}=" + ",".join(v if isinstance(v, str) else _toml_value(v) for v in vals)
                for k, vals in vary.items()]
    with _engine_call(), _scratch("dcqcn-sweep-") as tmp:
        path = _scenario_file(scenario, tmp)
        folder = _out_folder(out, tmp, "sweep")
        _dcqcn.sweep(path, list(vary), _sets(set), int(seeds), folder, int(jobs), _threads(threads),
                     force, resume)
        table = pd.read_csv(os.path.join(folder, "sweep.csv"))
        mean = os.path.join(folder, "sweep_mean.csv")
        if os.path.exists(mean):
            table.attrs["mean"] = pd.read_csv(mean)
        return table


def fluid(scenario=None, *, set=None, flows=None, rate=None, delay=None, duration="100ms",
          out=None):
    """DCQCN's fluid model (`dcqcn fluid`): returns (summary dict, DataFrame of
    timeseries/fluid.csv). What the command warns about (parameters the model ignores) comes as
    Python warnings."""
    with _engine_call(), _scratch("dcqcn-fluid-") as tmp:
        path = "" if scenario is None else _scenario_file(scenario, tmp)
        folder = _out_folder(out, tmp, "fluid")
        summary, notes = _dcqcn.fluid(path, _sets(set), flows, None if rate is None else str(rate),
                                      None if delay is None else str(delay), str(duration),
                                      folder, False)
        for note in notes:
            warnings.warn(note, stacklevel=2)
        series = pd.read_csv(os.path.join(folder, "timeseries", "fluid.csv"))
        return json.loads(summary), series


def hpcc(config, *, set=None, out, model="hpcc", force=False, threads=None):
    """Runs an HPCC ns-3 config.txt (`dcqcn hpcc`, paths relative to the current folder) into
    `out`; returns a Result (with .fct_file and .pfc_file, HPCC's formats)."""
    with _engine_call():
        r = _dcqcn.hpcc(os.fspath(config), _sets(set), os.fspath(out), model, force,
                        _threads(threads))
    result = Result(r["out"], r["out"])
    result.fct_file, result.pfc_file = r["fct_file"], r["pfc_file"]
    return result


class TuneResult:
    """A tuning search's output: trials (DataFrame of trials.csv: one row per trial and seed),
    best (dict {key: value as --set takes it} of the chosen settings; None if no trial was
    complete and feasible), holdout (DataFrame of holdout.csv, or None), recommendation (the text
    of recommendation.md) and out (the folder, or None when it was temporary)."""

    def __init__(self, folder, out):
        self.out = out
        self.trials = pd.read_csv(os.path.join(folder, "trials.csv"))
        holdout = os.path.join(folder, "holdout.csv")
        self.holdout = pd.read_csv(holdout) if os.path.exists(holdout) else None
        with open(os.path.join(folder, "recommendation.md")) as f:
            self.recommendation = f.read()
        self.best = None
        best = os.path.join(folder, "best.json")
        if os.path.exists(best):
            with open(best) as f:
                self.best = json.load(f)["settings"]

    def __repr__(self):
        return f"<dcqcn.TuneResult: {self.trials['trial'].nunique()} trials, best {self.best}>"


def tune(scenario, *, param, minimize=(), maximize=(), constraint=(), trials=50, seeds=1,
         holdout=5, jobs=1, threads=1, seed=0, set=None, out=None, resume=False, force=False,
         prescreen=None, progress=None):
    """Searches the scenario's settings with real runs (`dcqcn tune`); returns a TuneResult.
    `param`: list of "KEY=LOW:HIGH[:log][:int]" or "KEY=V1,V2,..."; `minimize`/`maximize`:
    summary.json paths (one, or several for a Pareto front); `constraint`: "PATH <= X" texts.
    `trials` trials of `seeds` seeds each, `jobs` at once; the chosen and the scenario's own
    settings are then run on `holdout` new seeds. `out` keeps the folder (and allows `resume`);
    by default it is temporary. `progress(search, study, trial)` is called after each trial."""
    from .tune_search import Search
    as_list = lambda v: [v] if isinstance(v, str) else list(v)
    with _engine_call(), _scratch("dcqcn-tune-") as tmp:
        folder = _out_folder(out, tmp, "tune")
        search = Search(scenario, params=as_list(param), minimize=as_list(minimize),
                        maximize=as_list(maximize), constraints=as_list(constraint),
                        trials=trials, seeds=seeds, holdout=holdout, jobs=jobs, threads=threads,
                        seed=seed, set=set, out=folder, resume=resume, force=force,
                        prescreen=prescreen, progress=progress)
        folder = search.run()
        return TuneResult(folder, folder if out is not None else None)
