"""docs/tune.md's held-out tables: for each `dcqcn tune` output folder, the scenario's own and the
tuned settings on the held-out seeds, for the search's metrics and for what tuning them may cost
elsewhere (every flow's and the large flows' tail, PAUSE, goodput), with 95% intervals.

    PYTHONPATH=build/python /usr/bin/python3 -m dcqcn.tune_tables results/hpcc-websearch-tune ...
"""
import json
import os
import sys

from .tune_outputs import paired_intervals
from .tune_space import metric

ALSO = ["by_tag.background.fct_slowdown.p99", "by_tag.background.fct_slowdown_by_size.>=1MB.p99",
        "aggregate_goodput_gbps", "pfc_pause_frames", "collectives.0.mean.time_ns"]


def _values(folder, settings, path):
    out = {}
    base = os.path.join(folder, "holdout", settings)
    for seed in sorted(os.listdir(base)):
        with open(os.path.join(base, seed, "summary.json")) as f:
            summary = json.load(f)
        try:
            value = metric(summary, path, "table")
        except Exception:  # the metric is not in this kind of run (no collectives)
            return None
        if value is not None:
            out[seed] = value
    return out


def table(folder):
    with open(os.path.join(folder, "tune.json")) as f:
        settings = json.load(f)
    name = os.path.basename(os.path.normpath(folder))
    if not os.path.isdir(os.path.join(folder, "holdout")):
        return f"`{name}`: no held-out runs (no feasible trial, or --holdout 0)"
    paths = [p for _, p in settings["objectives"]]
    paths += [p for p in ALSO if p not in paths]
    lines = [f"`{name}` ({settings['trials']} trials x "
             f"{settings['seeds']} seeds; held out: {settings['holdout']} seeds)", "",
             "| metric | scenario's own | tuned | change, paired |", "|---|---|---|---|"]
    for path in paths:
        own, tuned = _values(folder, "scenario", path), _values(folder, "tuned", path)
        if not own or not tuned:
            continue
        cells = [f"{m:.4g} ± {h:.2g}" for m, h in paired_intervals(own, tuned)]
        mark = "**" if path in [p for _, p in settings["objectives"]] else ""
        lines.append(f"| {mark}`{path}`{mark} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 1
    print("\n\n".join(table(folder) for folder in argv))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
