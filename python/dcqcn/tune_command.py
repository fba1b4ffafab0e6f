"""`dcqcn tune`'s command line (`python3 -m dcqcn.tune_command`, which `dcqcn tune` runs): parses
the flags, prints progress with an ETA, and exits 1 on bad input."""
import argparse
import contextlib
import os
import sys
import time

from ._common import InputError
from .tune_search import Search, SearchStopped

EXAMPLE = """example (docs/tune.md, a):
  dcqcn tune examples/tune/incast_pause.toml --param switch.ecn.kmin=1KB:1MB:log \\
      --param switch.ecn.kmax=10KB:4MB:log --param switch.ecn.pmax=0.001:1:log \\
      --minimize bottleneck.mean_queue_bytes --constraint "pfc_pause_frames <= 0" \\
      --trials 40 --seeds 2

METRIC is a path into a run's summary.json, such as pfc_pause_frames,
by_tag.background.fct_slowdown.p99 or collectives.0.mean.time_ns (an unknown path lists the
nearest). Output: trials.csv, best.toml, best.json, holdout.csv, recommendation.md and
report/index.html in --out (written as OUT.unfinished until the search is done)."""


def _parser():
    p = argparse.ArgumentParser(
        prog="dcqcn tune", epilog=EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Search a scenario's settings with real runs (Optuna: TPE for one "
                    "objective, NSGA-II for several) and hand back the ones to deploy.")
    p.add_argument("scenario", help="scenario TOML file")
    p.add_argument("--param", action="append", default=[], metavar="KEY=LOW:HIGH[:log][:int]",
                   help="a key --set accepts, searched over a range or over values V1,V2,... "
                        "(repeatable)")
    p.add_argument("--minimize", action="append", default=[], metavar="METRIC")
    p.add_argument("--maximize", action="append", default=[], metavar="METRIC")
    p.add_argument("--constraint", action="append", default=[], metavar="'METRIC <= X'",
                   help="trials that break it are kept and marked infeasible (repeatable)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a scenario key in every run")
    p.add_argument("--trials", type=int, default=50)
    p.add_argument("--seeds", type=int, default=1, help="K: every trial runs seeds 1..K")
    p.add_argument("--holdout", type=int, default=5,
                   help="new seeds for the chosen and the scenario's own settings (0: none)")
    p.add_argument("--jobs", type=int, default=1, help="trials at once")
    p.add_argument("--threads", type=int, default=None,
                   help="threads per run (default: automatic, the cores shared among --jobs)")
    p.add_argument("--seed", type=int, default=0,
                   help="the search's own seed (reproducible with --jobs 1)")
    p.add_argument("--prescreen", choices=["fluid"],
                   help="skip settings DCQCN's fluid model calls oscillating (incast-shaped "
                        "scenarios)")
    p.add_argument("--out", help="output folder (default results/<name>-tune/)")
    p.add_argument("--resume", action="store_true", help="finish an interrupted search")
    p.add_argument("--force", action="store_true", help="replace an existing output folder")
    p.add_argument("--quiet", action="store_true", help="print nothing but errors")
    return p


def _clock(seconds):
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def _progress(search, study, trial):
    finished = search.finished_trials(study)
    done = len(finished)
    failed = sum(1 for t in finished if t.state.name == "FAIL")
    invalid = sum(1 for t in finished if "invalid" in t.user_attrs)
    skipped = sum(1 for t in finished if "skipped" in t.user_attrs)
    elapsed = time.monotonic() - search.started
    rate = search.done_here / elapsed if elapsed > 0 else 0
    eta = _clock((search.trials - done) / rate) if rate > 0 and done < search.trials else "-"
    value = ("failed: " + trial.user_attrs.get("error", "")[:80] if trial.state.name == "FAIL"
             else "invalid settings" if "invalid" in trial.user_attrs
             else "skipped" if trial.state.name == "PRUNED"
             else ", ".join(f"{v:.4g}" for v in trial.values))
    print(f"tune: trial {trial.number} {value} | {done}/{search.trials} done, {failed} failed"
          f"{f', {invalid} invalid' if invalid else ''}{f', {skipped} skipped' if skipped else ''}"
          f" | {_clock(elapsed)} elapsed, ETA {eta}", file=sys.stderr, flush=True)


def _caused_by_interrupt(e):
    """Whether `e` was raised while a KeyboardInterrupt was being handled."""
    seen = set()
    while e is not None and id(e) not in seen:
        if isinstance(e, KeyboardInterrupt):
            return True
        seen.add(id(e))
        e = e.__context__
    return False


def main(argv=None):
    args = _parser().parse_args(argv)
    search = None
    try:
        search = Search(args.scenario, params=args.param, minimize=args.minimize,
                        maximize=args.maximize, constraints=args.constraint,
                        trials=args.trials, seeds=args.seeds, holdout=args.holdout,
                        jobs=args.jobs, threads=args.threads, seed=args.seed, set=args.set,
                        out=args.out, resume=args.resume, force=args.force,
                        prescreen=args.prescreen, progress=None if args.quiet else _progress)
        out = search.run()
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except SearchStopped as e:
        # SIGINT, SIGTERM or SIGHUP: the runs stopped, Optuna's journal whole, the lock gone.
        # After SIGHUP the terminal may be gone too.
        with contextlib.suppress(OSError):
            print(f"tune: {e}; `dcqcn tune ... --resume` finishes it from {e.work}",
                  file=sys.stderr)
        return 128 + e.signal
    except BaseException as e:
        # Ctrl-C, or what it caused: inside optuna's journal lock, the lock's own error raised
        # while handling the KeyboardInterrupt (its release finds the lock file gone).
        if not _caused_by_interrupt(e):
            raise
        where = f" from {search.work}" if search is not None else ""
        print(f"tune: interrupted; `dcqcn tune ... --resume` finishes it{where}", file=sys.stderr)
        return 130
    if out is not None and not args.quiet:
        print(f"tune: done in {_clock(time.monotonic() - search.started)}: "
              f"{os.path.join(out, 'recommendation.md')}, {os.path.join(out, 'best.toml')}, "
              f"report in {os.path.join(out, 'report', 'index.html')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
