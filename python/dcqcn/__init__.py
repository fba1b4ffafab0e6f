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
import importlib.util
import json
import os
import tomllib
import warnings

__all__ = ["run", "check", "buffer", "sweep", "fluid", "ns3", "hpcc", "tune", "Result",
           "TuneResult", "InputError"]

# The compiled extension. A copy of the package without it - the report scripts' (python/ in the
# source tree, share/dcqcn/python/ installed), or any build without pybind11 - still loads, for
# its pure-Python helpers (dcqcn.units, dcqcn._report_common): the API below is then removed and
# using it raises ImportError (__getattr__ at the end). pandas too is the API's alone, so that a
# report script run without it says what to install (dcqcn._report_common). An extension that is
# there but fails to load raises here, as before.
_HAS_EXTENSION = importlib.util.find_spec(f"{__name__}._dcqcn") is not None
if _HAS_EXTENSION:
    from . import _common, _dcqcn  # _common imports pandas

    InputError = _dcqcn.InputError
    __version__ = _dcqcn.version


_read_csv = _common.read_csv if _HAS_EXTENSION else None


def _read_csv_if_there(path):
    return _read_csv(path) if os.path.exists(path) else None


class Result:
    """A run's output: summary (dict), flows (DataFrame), timeseries (dict of DataFrames, one
    per series the run recorded: rate, queue, pfc, throughput), resolved (dict: the scenario
    with every default), links (DataFrame), collectives (DataFrame of collectives.csv: one row per
    collective and iteration; None without [[collective]]), jobs, job_collectives and
    job_timeline (DataFrames of jobs.csv, one row per job, iteration and rank, of
    job_collectives.csv, one row per group's collective and pipeline transfer, and of
    job_timeline.csv, one row per compute task with its start and end; None without [[job]]) and
    out (the folder, or None when it was temporary)."""

    def __init__(self, folder, out):
        self.out = out
        with open(os.path.join(folder, "summary.json")) as f:
            self.summary = json.load(f)
        self.flows = _read_csv(os.path.join(folder, "flows.csv"), keep_default_na=True)
        self.links = _read_csv(os.path.join(folder, "links.csv"))
        self.collectives = _read_csv_if_there(os.path.join(folder, "collectives.csv"))
        self.jobs = _read_csv_if_there(os.path.join(folder, "jobs.csv"))
        self.job_collectives = _read_csv_if_there(os.path.join(folder, "job_collectives.csv"))
        self.job_timeline = _read_csv_if_there(os.path.join(folder, "job_timeline.csv"))
        with open(os.path.join(folder, "resolved.toml"), "rb") as f:
            self.resolved = tomllib.load(f)
        self.timeseries = {}
        series = os.path.join(folder, "timeseries")
        if os.path.isdir(series):
            for name in sorted(os.listdir(series)):
                if name.endswith(".csv"):
                    self.timeseries[name[:-4]] = _read_csv(os.path.join(series, name))

    def __repr__(self):
        s = self.summary
        return (f"<dcqcn.Result {self.resolved.get('name', '')}: {s.get('flows_finished')} of "
                f"{s.get('flows_total')} flows finished{', in ' + self.out if self.out else ''}>")


def run(scenario, *, set=None, seed=None, out=None, force=False, progress=None, threads=None,
        placement_from=None):
    """Runs a scenario; returns a Result. `out`: the output folder to write (kept); by default a
    temporary one, removed once read. `threads`: split the run over that many threads (racks);
    the results are the same for any number (default: every core from 256 hosts on, else one).
    `placement_from`: the folder of an earlier run of the same topology, whose links' bytes
    place the nodes on the threads by the work each did (speed only). `progress(d)` is called about twice a second with
    {time_ns, fraction, events, flows_done, flows_total, start_ns}: fraction is how far the run
    is (flows finished or time to its duration, whichever is further), start_ns the first flow's
    start."""
    text, is_path = _common.scenario_source(scenario)
    with _common.engine_call(), _common.scratch("dcqcn-") as tmp:
        folder = _common.out_folder(out, tmp, "run")
        _dcqcn.run(text, is_path, _common.sets(set, seed), folder, force, progress,
                   _common.thread_count(threads),
                   placement_from=os.fspath(placement_from) if placement_from is not None else "")
        return Result(folder, folder if out is not None else None)


def check(scenario, *, set=None):
    """Validates a scenario (its network is built too; a collective's flows are counted, not
    built, as by `dcqcn check`) and returns it with every default filled in, as a dict; the
    buffer warnings `dcqcn check` prints are in its "warnings" list."""
    return _common.check(scenario, _common.sets(set))


def buffer(**options):
    """The paper's switch-buffer thresholds (`dcqcn buffer`) as a dict, in bytes. Options as the
    command's: ports, buffer, rate, cable, mtu, headroom, beta, kmin (numbers or strings such as
    buffer="12MB")."""
    return _dcqcn.buffer({k: str(v) for k, v in options.items()})


def sweep(scenario, *, vary, set=None, seeds=0, out=None, jobs=1, threads=None, force=False,
          resume=False):
    """Runs a sweep (`dcqcn sweep`); returns sweep.csv as a DataFrame, with sweep_mean.csv (the
    mean and 95% confidence interval over seeds) as its .attrs["mean"] when seeds are varied.
    `vary`: a dict {key: [values]} or a list of "key=v1,v2" strings. `jobs` runs at once, each
    split over `threads`."""
    if isinstance(vary, dict):
        vary = [f"{k}=" + ",".join(v if isinstance(v, str) else _common.toml_value(v)
                                   for v in vals)
                for k, vals in vary.items()]
    with _common.engine_call(), _common.scratch("dcqcn-sweep-") as tmp:
        path = _common.scenario_file(scenario, tmp)
        folder = _common.out_folder(out, tmp, "sweep")
        _dcqcn.sweep(path, list(vary), _common.sets(set), int(seeds), folder, int(jobs),
                     _common.thread_count(threads), force, resume)
        table = _read_csv(os.path.join(folder, "sweep.csv"))
        mean = os.path.join(folder, "sweep_mean.csv")
        if os.path.exists(mean):
            table.attrs["mean"] = _read_csv(mean)
        return table


def fluid(scenario=None, *, set=None, flows=None, rate=None, delay=None, duration="100ms",
          out=None):
    """DCQCN's fluid model (`dcqcn fluid`): returns (summary dict, DataFrame of
    timeseries/fluid.csv). What the command warns about (parameters the model ignores) comes as
    Python warnings."""
    summary, series, notes = _common.fluid(scenario, _common.sets(set), flows=flows, rate=rate,
                                           delay=delay, duration=duration, out=out)
    for note in notes:
        warnings.warn(note, stacklevel=2)
    return summary, series


def ns3(config, *, set=None, out, model="hpcc", force=False, threads=None):
    """Runs an HPCC ns-3 config.txt (`dcqcn ns3`, the drop-in for that simulator; paths relative
    to the current folder) into `out`; returns a Result (with .fct_file and .pfc_file, HPCC's
    formats). `hpcc` is its first name."""
    with _common.engine_call():
        r = _dcqcn.hpcc(os.fspath(config), _common.sets(set), os.fspath(out), model, force,
                        _common.thread_count(threads))
    result = Result(r["out"], r["out"])
    result.fct_file, result.pfc_file = r["fct_file"], r["pfc_file"]
    return result


hpcc = ns3


class TuneResult:
    """A tuning search's output: trials (DataFrame of trials.csv: one row per trial and seed),
    best (dict {key: value as --set takes it} of the chosen settings; None if no trial was
    complete and feasible), holdout (DataFrame of holdout.csv, or None), recommendation (the text
    of recommendation.md) and out (the folder, or None when it was temporary)."""

    def __init__(self, folder, out):
        self.out = out
        self.trials = _read_csv(os.path.join(folder, "trials.csv"))
        holdout = os.path.join(folder, "holdout.csv")
        self.holdout = _read_csv_if_there(holdout)
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
         holdout=5, jobs=1, threads=None, seed=0, set=None, out=None, resume=False, force=False,
         prescreen=None, progress=None):
    """Searches the scenario's settings with real runs (`dcqcn tune`); returns a TuneResult.
    `param`: list of "KEY=LOW:HIGH[:log][:int]" or "KEY=V1,V2,..."; `minimize`/`maximize`:
    summary.json paths (one, or several for a Pareto front); `constraint`: "PATH <= X" texts.
    `trials` trials of `seeds` seeds each, `jobs` at once; the chosen and the scenario's own
    settings are then run on `holdout` new seeds. `out` keeps the folder (and allows `resume`);
    by default it is temporary. `progress(search, study, trial)` is called after each trial."""
    # Imported here, not above: the search needs Optuna and matplotlib, which `import dcqcn`
    # does not. tune_search imports _common, never this module, so this is no cycle.
    from .tune_search import Search
    as_list = lambda v: [v] if isinstance(v, str) else list(v)
    with _common.engine_call(), _common.scratch("dcqcn-tune-") as tmp:
        folder = _common.out_folder(out, tmp, "tune")
        search = Search(scenario, params=as_list(param), minimize=as_list(minimize),
                        maximize=as_list(maximize), constraints=as_list(constraint),
                        trials=trials, seeds=seeds, holdout=holdout, jobs=jobs, threads=threads,
                        seed=seed, set=set, out=folder, resume=resume, force=force,
                        prescreen=prescreen, progress=progress)
        folder = search.run()
        return TuneResult(folder, folder if out is not None else None)


if not _HAS_EXTENSION:
    for _name in __all__:
        globals().pop(_name, None)
    del _name

    def __getattr__(name):
        if name in __all__ or name == "__version__":
            raise ImportError(
                f"dcqcn.{name}: this copy of the package ({os.path.dirname(__file__)}) has no "
                "compiled extension (_dcqcn), which the build makes when pybind11-dev and "
                "python3-dev are present (scripts/setup.sh): put build/python on PYTHONPATH, or "
                "install it (cmake --install)")
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
