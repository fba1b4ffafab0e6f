"""`dcqcn tune`: the settings to deploy, found by searching a scenario's parameters with real runs.

Every trial is an ordinary run of the scenario with the trial's settings set (`--set`), once per
seed 1..K; its objectives are the metrics' means over those seeds. Optuna chooses the settings
(TPE for one objective, NSGA-II for several, both seeded) and keeps the study in a journal file
in the output folder, so that an interrupted search resumes and ranks under mpirun share it.
The chosen settings and the scenario's own are then run on new seeds (the held-out check).

The folder is written as OUT.unfinished and renamed to OUT when the search is complete, as a
sweep's is, under the lock every writer of a result folder takes (output/output_lock.h). SIGINT,
SIGTERM and SIGHUP stop the search between two steps of Optuna's (never inside its journal) and
the runs in progress; --resume runs again the trials they cut short, with the sampler's random
state as it was before them, so that with --jobs 1 it finishes the same trials.
"""
import concurrent.futures
import contextlib
import json
import math
import numbers
import os
import pickle
import shutil
import signal
import threading
import time
import warnings

import numpy as np
import optuna

from . import _common, _dcqcn, tune_outputs
from ._common import InputError
from .tune_space import Constraint, Objective, Param, lookup, metric

_ABSENT = object()


class SearchStopped(KeyboardInterrupt):
    """The search stopped on a signal (SIGINT, SIGTERM or SIGHUP); OUT.unfinished can be
    resumed."""

    def __init__(self, signum, work):
        super().__init__(f"interrupted ({signal.Signals(signum).name})")
        self.signal, self.work = signum, work


class _TrialInterrupted(Exception):
    """A trial cut short by a stop: Optuna records it failed, --resume runs it again."""


_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _mpi_rank_size():
    """(rank, size) when started by mpirun (Open MPI's or a PMI launcher's variables)."""
    for rank, size in (("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"),
                       ("PMI_RANK", "PMI_SIZE")):
        if rank in os.environ and size in os.environ:
            return int(os.environ[rank]), int(os.environ[size])
    return 0, 1


class Search:
    """One tuning search: its settings (what tune.json records), its study and its runs."""

    def __init__(self, scenario, *, params, minimize=(), maximize=(), constraints=(), trials=50,
                 seeds=1, holdout=5, jobs=1, threads=None, seed=0, set=None, out=None,
                 resume=False, force=False, prescreen=None, progress=None):
        if not params:
            raise InputError("--param: give at least one parameter to search")
        self.params = [p if isinstance(p, Param) else Param(p) for p in params]
        keys = [p.key for p in self.params]
        for key in keys:
            if keys.count(key) > 1:
                raise InputError(f"--param {key}: given twice")
        self.objectives = ([Objective(p, False) for p in minimize] +
                           [Objective(p, True) for p in maximize])
        if not self.objectives:
            raise InputError("--minimize/--maximize: give at least one metric")
        paths = [o.path for o in self.objectives]
        for o in self.objectives:
            if paths.count(o.path) > 1:
                flags = sorted({x.flag() for x in self.objectives if x.path == o.path})
                raise InputError(f"{' and '.join(flags)} {o.path}: given twice" +
                                 (" (one metric cannot be both minimized and maximized)"
                                  if len(flags) > 1 else ""))
        self.constraints = [c if isinstance(c, Constraint) else Constraint(c)
                            for c in constraints]
        for name, value, least in (("--trials", trials, 1), ("--seeds", seeds, 1),
                                   ("--holdout", holdout, 0), ("--jobs", jobs, 1),
                                   ("--threads", 1 if threads is None else threads, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise InputError(f"{name} {value!r}: expected an integer >= {least}")
        # Any uint64, as a run's seed; Optuna's samplers take it modulo 2^32 (numpy's range).
        if (isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or
                not 0 <= seed < 2**64):
            raise InputError(f"--seed {seed!r}: expected an integer 0..{2**64 - 1}")
        if prescreen not in (None, "fluid"):
            raise InputError(f"--prescreen {prescreen!r}: the one prescreen is \"fluid\"")
        self.trials, self.seeds, self.holdout = trials, seeds, holdout
        self.jobs, self.threads, self.seed = jobs, threads, int(seed)
        self.prescreen = prescreen
        self.progress = progress
        self.base_sets = _common.sets(set)
        # A path stays a path, so that files it names resolve from where it lies.
        self.scenario = scenario
        self.scenario_arg, self.scenario_is_path = _common.scenario_source(scenario)
        if self.scenario_is_path:
            try:
                with open(self.scenario_arg) as f:
                    self.scenario_text = f.read()
            except OSError as e:
                raise InputError(f"{self.scenario_arg}: cannot read ({e.strerror})") from None
        else:
            self.scenario_text = self.scenario_arg
        self.scenario_name = (os.path.basename(self.scenario_arg) if self.scenario_is_path
                              else "the scenario")
        # Every key must be one --set accepts. A key the resolved scenario lacks is tried with
        # the range's low end (or first value), for the loader's message; a value that clashes
        # with other keys (kmin above kmax) is left to the trials, which mark it invalid.
        self.resolved = _common.check(scenario, self.base_sets)
        for p in self.params:
            if lookup(self.resolved, p.key) is not None:
                continue
            probe = p.choices[0] if p.choices is not None else p.set_text(p.low)
            try:
                _common.check(scenario, self.base_sets + [f"{p.key}={probe}"])
            except InputError as e:
                raise InputError(f"--param {p.key}: {e}") from None
        self.baseline = {p.key: lookup(self.resolved, p.key) for p in self.params}
        if prescreen == "fluid":
            self._check_prescreen()
        name = self.resolved.get("name") or "scenario"
        self.out = os.fspath(out) if out is not None else os.path.join("results", f"{name}-tune")
        self.work = self.out + ".unfinished"
        self.rank, self.ranks = _mpi_rank_size()
        self.resume, self.force = resume, force
        self._lock = threading.Lock()
        self.started = time.monotonic()
        self.done_here = 0
        self.stop_signal = 0  # the first stop signal received

    # --- the folder and the study -------------------------------------------------------------

    def settings(self):
        """What tune.json records, and what --resume must find unchanged."""
        return {"scenario": self.scenario_text, "set": self.base_sets,
                "params": [p.text for p in self.params],
                "objectives": [[o.direction(), o.path] for o in self.objectives],
                "constraints": [c.text for c in self.constraints], "trials": self.trials,
                "seeds": self.seeds, "holdout": self.holdout, "seed": self.seed,
                "prescreen": self.prescreen}

    def _prepare_folder(self):
        settings_file = os.path.join(self.work, "tune.json")
        if self.resume:
            if not os.path.isdir(self.work):
                raise InputError(f"--resume: {self.work} does not exist (nothing to resume)")
            before = _read_json(settings_file, "the search's settings", dict)
            changed = [k for k, v in self.settings().items() if before.get(k) != v]
            if changed:
                raise InputError(f"--resume: {', '.join(changed)} differ(s) from the search in "
                                 f"{self.work}; resume with the same arguments")
            return
        for path in (self.out, self.work):
            if os.path.exists(path):
                if not self.force:
                    raise InputError(f"--out {path}: exists; use --force to replace it"
                                     + (" or --resume to finish it" if path == self.work
                                        else ""))
                if os.listdir(path) and not os.path.exists(os.path.join(path, "tune.json")):
                    raise InputError(f"--out {path}: holds files that are not a `dcqcn tune` "
                                     "result; --force replaces only those")
        if self.force:
            shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(os.path.join(self.work, "trials"))
        tune_outputs.write_atomic(settings_file, json.dumps(self.settings(), indent=2) + "\n")

    def _study(self):
        warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
        optuna.logging.set_verbosity(optuna.logging.ERROR)  # failures: trials.csv
        self.storage = optuna.storages.JournalStorage(
            optuna.storages.JournalFileStorage(self._journal_path()))
        constraints = self._constraint_values if self.constraints else None
        # The sampler's own random draws continue where the study stands and differ between
        # ranks: a resumed search or a second rank replaying the first draws would repeat trials.
        try:
            before = len(self.storage.get_all_trials(
                self.storage.get_study_id_from_name("tune"), deepcopy=False))
        except KeyError:  # a new study
            before = 0
        seed = (self.seed + before + 7919 * self.rank) % 2**32
        if len(self.objectives) == 1:
            sampler = optuna.samplers.TPESampler(seed=seed, constraints_func=constraints)
        else:
            # A population of a fifth of the trials: a few generations even in a short search.
            sampler = optuna.samplers.NSGAIISampler(
                seed=seed, constraints_func=constraints,
                population_size=max(4, min(50, self.trials // 5)))
        if self.rank == 0:
            # Where rank 0's sampler stood after the last trial it finished (or at the start).
            state = self._sampler_state()
            if state is not None:
                for name, rng in _rngs(sampler):
                    if name in state["rngs"]:
                        rng.set_state(state["rngs"][name])
        study = optuna.create_study(study_name="tune", storage=self.storage, sampler=sampler,
                                    directions=[o.direction() for o in self.objectives],
                                    load_if_exists=True)
        if self.rank == 0 and before == 0:
            self._save_sampler_state(study)
        return study

    def _journal_path(self):
        return os.path.join(self.work, "study.journal")

    def _sampler_state_path(self):
        return os.path.join(self.work, "sampler.pickle")

    def _save_sampler_state(self, study):
        """The sampler's random state before the next trial draws its settings, and that
        trial's number: --resume draws a trial cut short again from there."""
        state = {"next": len(study.get_trials(deepcopy=False)),
                 "rngs": {name: rng.get_state() for name, rng in _rngs(study.sampler)}}
        path = self._sampler_state_path()
        with open(path + ".tmp", "wb") as f:
            pickle.dump(state, f)
        os.replace(path + ".tmp", path)

    def _sampler_state(self):
        try:
            with open(self._sampler_state_path(), "rb") as f:
                state = pickle.load(f)
            return state if isinstance(state, dict) and "rngs" in state else None
        except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ValueError):
            return None  # none (or damaged): the trials cut short are asked again as they were

    def _resume_study(self):
        """--resume, rank 0, before any other rank opens the study: the journal checked line by
        line (a damaged one is named, not left to fail inside Optuna), Optuna's own lock left by
        a killed process removed (the folder's lock is ours), and the journal written again
        without the trials a stop cut short, so that they cost none of --trials. With --jobs 1
        the one trial cut short is drawn again from the sampler's saved state, which gives it its
        number and settings again; otherwise the settings of each are asked again."""
        path = self._journal_path()
        _check_journal(path)
        if os.path.lexists(path + ".lock"):
            os.remove(path + ".lock")
        if not os.path.exists(path):
            return
        try:
            storage = optuna.storages.JournalStorage(optuna.storages.JournalFileStorage(path))
            study_id = storage.get_study_id_from_name("tune")
            trials = storage.get_all_trials(study_id, deepcopy=False)
            directions = storage.get_study_directions(study_id)
        except Exception as e:  # Optuna's own errors on a journal of valid lines
            raise InputError(f"{path}: damaged ({type(e).__name__}: {e}); {_START_AGAIN}"
                             ) from None
        cut = [t for t in trials if t.state in (optuna.trial.TrialState.RUNNING,
                                                optuna.trial.TrialState.WAITING)
               or t.user_attrs.get("interrupted")]
        if not cut:
            return
        numbers = {t.number for t in cut}
        keep = [t for t in trials if t.number not in numbers]
        state = self._sampler_state()
        redraw = (state is not None and len(cut) == 1 and
                  cut[0].number == state["next"] == len(trials) - 1)
        tmp = path + ".resumed"
        for name in (tmp, tmp + ".lock"):
            if os.path.lexists(name):
                os.remove(name)
        new = optuna.create_study(
            study_name="tune", directions=directions,
            storage=optuna.storages.JournalStorage(optuna.storages.JournalFileStorage(tmp)))
        for t in keep:
            new.add_trial(t)
        if not redraw:
            for t in cut:
                if t.params:
                    new.enqueue_trial(t.params)
        os.replace(tmp, path)
        # The kept trials' folders follow their numbers; the cut ones' go.
        folder = os.path.join(self.work, "trials")
        kept = {t.number for t in keep}
        for name in os.listdir(folder) if os.path.isdir(folder) else []:
            if not name.isdigit() or int(name) not in kept:
                shutil.rmtree(os.path.join(folder, name), ignore_errors=True)
        for number, t in enumerate(keep):
            old = os.path.join(folder, f"{t.number:04d}")
            if t.number != number and os.path.exists(old):
                os.rename(old, os.path.join(folder, f"{number:04d}"))

    def _constraint_values(self, frozen):
        return frozen.user_attrs.get("violations", [math.inf] * len(self.constraints))

    # --- runs ---------------------------------------------------------------------------------

    def _run(self, sets, seed, folder, strict=False):
        """One ordinary run: its summary's metrics {path: value, or None if the run recorded
        none or has no such number}, and the paths its summary.json lacks. `strict` (the
        scenario's own runs, the up-front check): a path it lacks is an InputError instead."""
        _dcqcn.run(self.scenario_arg, self.scenario_is_path,
                   self.base_sets + sets + _common.sets(None, seed), folder, True, None,
                   _common.thread_count(self.threads), self.jobs)
        with open(os.path.join(folder, "summary.json")) as f:
            summary = json.load(f)
        metrics, absent = {}, []
        for path, flag in self.metric_flags():
            # Some numbers appear only in some runs (pfc.spread: only when PAUSE was sent).
            if not strict and lookup(summary, path, _ABSENT) is _ABSENT:
                metrics[path] = None
                absent.append(path)
            else:
                metrics[path] = metric(summary, path, flag)
        return metrics, absent

    def metric_flags(self):
        """(path, the flag that named it) of every metric the search reads."""
        seen = {}
        for o in self.objectives:
            seen.setdefault(o.path, o.flag())
        for c in self.constraints:
            seen.setdefault(c.path, "--constraint")
        return list(seen.items())

    def _sets_of(self, values):
        return [f"{p.key}={p.set_text(values[p.key])}" for p in self.params]

    def _check_prescreen(self):
        """--prescreen fluid needs a scenario the fluid model reads (an incast, DCQCN with ECN
        marking): checked with the scenario's own settings before anything runs, rather than
        every trial rejected."""
        try:
            _common.fluid(self.scenario, self.base_sets)  # its notes are not warned of
        except InputError as e:
            raise InputError(f"--prescreen fluid: the fluid model cannot read the scenario: {e}"
                             ) from None

    def _fluid_oscillates(self, sets, folder):
        """--prescreen fluid: whether DCQCN's fluid model calls these settings oscillating."""
        start = time.monotonic()
        summary, _, _ = _common.fluid(self.scenario, self.base_sets + sets,
                                      out=os.path.join(folder, "fluid"))
        return summary["oscillation"]["verdict"] == "oscillating", time.monotonic() - start

    def _objective(self, trial):
        try:
            return self._trial(trial)
        except optuna.TrialPruned:
            raise
        except (_TrialInterrupted, KeyboardInterrupt):
            # A run stopped by the signal (KeyboardInterrupt), or a stop between two runs:
            # failed here, not counted and run again by --resume (_resume_study).
            trial.set_user_attr("error", "interrupted")
            trial.set_user_attr("interrupted", True)
            if not self.stop_signal:
                raise
            trial.study.stop()
            raise _TrialInterrupted() from None
        except Exception as e:
            # Optuna keeps a failed trial without its exception: the error is ours to record.
            if not trial.user_attrs.get("error"):
                trial.set_user_attr("error", f"{type(e).__name__}: {e}")
            raise

    def _stop_point(self):
        if self.stop_signal:
            raise _TrialInterrupted()

    def _trial(self, trial):
        self._stop_point()
        values = {p.key: p.suggest(trial) for p in self.params}
        self._stop_point()
        sets = self._sets_of(values)
        folder = os.path.join(self.work, "trials", f"{trial.number:04d}")
        os.makedirs(folder, exist_ok=True)
        trial.set_user_attr("sets", sets)
        if self.prescreen == "fluid":
            try:
                oscillates, took = self._fluid_oscillates(sets, folder)
            except InputError as e:
                self._invalid(trial, self._prescreen_rejects(sets, e))
            trial.set_user_attr("fluid_s", took)
            if oscillates:
                trial.set_user_attr("skipped", "the fluid model calls these settings oscillating")
                raise optuna.TrialPruned()
        runs, absent = [], {}
        try:
            for seed in range(1, self.seeds + 1):
                self._stop_point()
                start = time.monotonic()
                metrics, lacks = self._run(sets, seed, os.path.join(folder, f"seed{seed}"))
                runs.append({"seed": seed, "metrics": metrics,
                             "wall_s": round(time.monotonic() - start, 3)})
                for path in lacks:
                    absent.setdefault(path, []).append(seed)
        except InputError as e:
            self._invalid(trial, str(e))
        except _TrialInterrupted:
            raise
        except Exception:
            trial.set_user_attr("runs", runs)  # the seeds that ran; _objective records why
            raise
        trial.set_user_attr("runs", runs)
        if absent:
            # The scenario's own runs had these numbers: the metric failed, not the settings.
            flags = dict(self.metric_flags())
            message = "; ".join(
                f"{flags[path]} {path}: this run's summary.json has no such number (seed "
                f"{', '.join(map(str, seeds))}; it appears only in some runs)"
                for path, seeds in absent.items())
            trial.set_user_attr("error", message)
            raise RuntimeError(message)
        means = _means(runs)
        if self.constraints:
            trial.set_user_attr("violations", [
                c.violation(means[c.path]) if means[c.path] is not None else math.inf
                for c in self.constraints])
        missing = [o.path for o in self.objectives if means[o.path] is None]
        if missing:
            message = f"{', '.join(missing)}: null in this run's summary.json (nothing measured)"
            trial.set_user_attr("error", message)
            raise RuntimeError(message)
        return [means[o.path] for o in self.objectives]

    def _invalid(self, trial, message):
        """Settings the scenario rejects (kmin above kmax, say): pruned, which TPE ranks below
        every complete trial, so that it learns to avoid them."""
        trial.set_user_attr("invalid", message)
        raise optuna.TrialPruned() from None

    def _prescreen_rejects(self, sets, error):
        """Why the fluid prescreen cannot read a trial's settings: the loader's message, as a
        run would give it, if the scenario rejects them; else the fluid model's, flagged."""
        try:
            _common.check(self.scenario, self.base_sets + sets)
        except InputError as e:
            return str(e)
        return f"--prescreen fluid: {error}"

    def _after_trial(self, study, frozen):
        if self.stop_signal:
            study.stop()
        if frozen.user_attrs.get("interrupted"):
            return
        with self._lock:
            self.done_here += 1
            if self.rank == 0:
                self._save_sampler_state(study)
            if self.progress is not None and not self.stop_signal:
                self.progress(self, study, frozen)

    # --- the whole search ---------------------------------------------------------------------

    def finished_trials(self, study):
        return [t for t in study.get_trials(deepcopy=False) if t.state.is_finished()]

    def run(self):
        """Runs the search (or its rest), the held-out check, and writes OUT. Returns OUT, or
        None on a rank other than 0 under mpirun. Raises SearchStopped on SIGINT, SIGTERM or
        SIGHUP (in the main thread), once the runs in progress have stopped."""
        with self._stopping_on_signals():
            try:
                return self._run_locked()
            except KeyboardInterrupt:
                # A run the stop cut short (stop_runs), or a stop point.
                if self.stop_signal:
                    raise SearchStopped(self.stop_signal, self.work) from None
                raise

    @contextlib.contextmanager
    def _stopping_on_signals(self):
        """The stop signals set stop_signal and stop the runs in progress (in any thread),
        rather than raise KeyboardInterrupt wherever Python happens to be: inside Optuna, that
        leaves its journal or its trial half-told."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return

        def stop(signum, frame):
            if not self.stop_signal:
                self.stop_signal = signum
            _dcqcn.stop_runs(True)
        before = {s: signal.signal(s, stop) for s in _STOP_SIGNALS}
        _dcqcn.stop_runs(False)
        try:
            yield
        finally:
            for s, handler in before.items():
                signal.signal(s, handler if handler is not None else signal.SIG_DFL)
            _dcqcn.stop_runs(False)

    def _check_stop(self):
        if self.stop_signal:
            raise SearchStopped(self.stop_signal, self.work)

    def _run_locked(self):
        lock = None
        if self.rank == 0:
            try:
                # One writer of OUT at a time, as for runs and sweeps: taken before the folder
                # is looked at, released after it is renamed.
                os.makedirs(os.path.dirname(os.path.abspath(self.out)), exist_ok=True)
                lock = _dcqcn.OutputLock(self.out, self.out)
            except InputError as e:
                self._tell_ranks(f"error\n{e}")
                self._remove_status_file()
                raise
        try:
            return self._run_with_lock()
        finally:
            if lock is not None:
                lock.release()

    def _run_with_lock(self):
        if self.rank == 0:
            try:
                self._prepare_folder()
                if self.resume:
                    self._resume_study()
                try:
                    self._baseline()
                except InputError:
                    # A metric path the runs do not have: nothing was searched yet.
                    if not self.resume:
                        shutil.rmtree(self.work, ignore_errors=True)
                    raise
            except InputError as e:
                self._tell_ranks(f"error\n{e}")
                self._remove_status_file()
                raise
            self._tell_ranks("ready")
            self._check_stop()
        else:
            self._wait_for_rank_0()
            try:
                self._search()
            finally:
                # Rank 0 renames the folder only once every rank is out of the study.
                open(f"{self._status_file()}.done-{self.rank}", "w").close()
            return None
        study = self._search()
        self._check_stop()
        _wait_until(lambda: not any(t.state == optuna.trial.TrialState.RUNNING
                                    for t in study.get_trials(deepcopy=False)))
        results = tune_outputs.Results(self, study)
        results.holdout_runs = self._holdout(results)
        self._check_stop()
        results.write(self.work)
        self._wait_for_ranks("done", timeout=3600)
        self._check_stop()
        if os.path.exists(self.out):
            shutil.rmtree(self.out)
        os.rename(self.work, self.out)
        self._remove_status_file()
        return self.out

    def _search(self):
        """The trials left to run, on this rank; returns the study."""
        study = self._study()
        left = self.trials - len(self.finished_trials(study))
        if left > 0:
            self.started = time.monotonic()
            # Under mpirun every rank takes trials until the study has enough.
            stop = optuna.study.MaxTrialsCallback(self.trials, states=None)
            study.optimize(self._objective, n_trials=None if self.ranks > 1 else left,
                           n_jobs=self.jobs, catch=(Exception,),
                           callbacks=[self._after_trial] + ([stop] if self.ranks > 1 else []))
        return study

    # --- ranks under mpirun -------------------------------------------------------------------

    def _status_file(self):
        """Where rank 0 tells the others that the folder is ready (or why it is not): beside
        OUT, named by the mpirun job, so that an earlier job's file is never read."""
        job = os.environ.get("PMIX_NAMESPACE") or os.environ.get("OMPI_MCA_ess_base_jobid", "")
        return f"{self.out}.tune-job-{job}"

    def _tell_ranks(self, status):
        if self.ranks > 1:
            tune_outputs.write_atomic(self._status_file(), status)

    def _wait_for_rank_0(self):
        path = self._status_file()
        _wait_until(lambda: os.path.exists(path), timeout=3600)
        with open(path) as f:
            status = f.read()
        open(f"{path}.read-{self.rank}", "w").close()
        if status.startswith("error"):
            raise InputError(status.partition("\n")[2])

    def _rank_files(self, what):
        return [f"{self._status_file()}.{what}-{r}" for r in range(1, self.ranks)]

    def _wait_for_ranks(self, what, timeout):
        """Until every other rank has left its `what` file (read, done)."""
        if self.ranks > 1:
            _wait_until(lambda: all(os.path.exists(f) for f in self._rank_files(what)),
                        timeout=timeout)

    def _remove_status_file(self):
        """Once every rank has read it (waiting at most a minute for them)."""
        if self.ranks == 1:
            return
        try:
            self._wait_for_ranks("read", timeout=60)
        except RuntimeError:
            pass
        for name in [self._status_file()] + self._rank_files("read") + self._rank_files("done"):
            if os.path.exists(name):
                os.remove(name)

    def _baseline(self):
        """The scenario's own settings on the search's seeds (once): the reference the trials
        are plotted against, and the check that every metric path exists."""
        path = os.path.join(self.work, "baseline.json")
        if os.path.exists(path):
            _read_json(path, "the scenario's own runs", list)
            return
        runs = []
        for seed in range(1, self.seeds + 1):
            metrics, _ = self._run([], seed, os.path.join(self.work, "baseline", f"seed{seed}"),
                                   strict=True)
            runs.append({"seed": seed, "metrics": metrics})
        tune_outputs.write_atomic(path, json.dumps(runs, indent=1) + "\n")

    def _holdout(self, results):
        """The chosen settings and the scenario's own on seeds the search never used."""
        if results.best is None or self.holdout == 0:
            return []
        first = self.seeds + 1
        cases = [(name, sets, seed)
                 for name, sets in (("scenario", []), ("tuned", results.best.user_attrs["sets"]))
                 for seed in range(first, first + self.holdout)]

        def run(case):
            name, sets, seed = case
            folder = os.path.join(self.work, "holdout", name, f"seed{seed}")
            # A number this run lacks (pfc.spread where it sent no PAUSE) is an empty cell.
            metrics, _ = self._run(sets, seed, folder)
            return {"settings": name, "seed": seed, "metrics": metrics}
        # --jobs runs at once (the engine releases the GIL), listed in a fixed order.
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as pool:
            return list(pool.map(run, cases))


_START_AGAIN = "--force without --resume starts the search again"


def _read_json(path, what, kind):
    """A JSON file of the folder, or an InputError naming it (and the line) if it is missing or
    damaged."""
    try:
        with open(path, "rb") as f:
            value = json.loads(f.read())
    except FileNotFoundError:
        raise InputError(f"--resume: {path} is missing ({what}); {_START_AGAIN}") from None
    except OSError as e:
        raise InputError(f"--resume: {path}: cannot read ({e.strerror})") from None
    except json.JSONDecodeError as e:
        raise InputError(f"--resume: {path}:{e.lineno}: damaged ({e.msg}); {_START_AGAIN}"
                         ) from None
    except ValueError as e:  # not UTF-8
        raise InputError(f"--resume: {path}: damaged ({e}); {_START_AGAIN}") from None
    if not isinstance(value, kind):
        raise InputError(f"--resume: {path}: damaged (not {what}); {_START_AGAIN}")
    return value


def _check_journal(path):
    """Every line of the study's journal a whole JSON entry of Optuna's (an object with an
    op_code), or an InputError naming the file and the line."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return  # stopped before the study was made: a new one is
    except OSError as e:
        raise InputError(f"--resume: {path}: cannot read ({e.strerror})") from None
    lines = data.split(b"\n")
    for number, line in enumerate(lines[:-1], start=1):
        try:
            entry = json.loads(line)
        except ValueError:  # not JSON, or not UTF-8
            entry = None
        if not isinstance(entry, dict) or not isinstance(entry.get("op_code"), int):
            raise InputError(f"--resume: {path}:{number}: damaged (not an entry of Optuna's "
                             f"journal); {_START_AGAIN}")
    if lines[-1]:  # every entry ends its line
        raise InputError(f"--resume: {path}:{len(lines)}: damaged (the line is cut short); "
                         f"{_START_AGAIN}")


def _rngs(sampler, prefix=""):
    """(name, numpy RandomState) of a sampler and the samplers it holds."""
    for name, value in sorted(vars(sampler).items()):
        if isinstance(value, np.random.RandomState):
            yield prefix + name, value
        elif isinstance(value, optuna.samplers.BaseSampler):
            yield from _rngs(value, f"{prefix}{name}.")


def _means(runs):
    """Per metric, its mean over the runs (None if any run recorded none)."""
    means = {}
    for path in runs[0]["metrics"]:
        values = [r["metrics"][path] for r in runs]
        means[path] = None if any(v is None for v in values) else sum(values) / len(values)
    return means


def _wait_until(done, timeout=None):
    start = time.monotonic()
    while not done():
        if timeout is not None and time.monotonic() - start > timeout:
            raise RuntimeError("tune: waited too long for the other ranks")
        time.sleep(0.2)
