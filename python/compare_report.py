#!/usr/bin/env python3
"""Compares runs of one scenario under different congestion control on one axis.

    compare_report.py OUT RUN_DIR [RUN_DIR...] [--format png,svg,pdf] [--update DOC]

Each RUN_DIR is a `dcqcn run` folder; its label is the folder's name. Reads each run's
summary.json, where `fct_slowdown_by_size` holds the FCT slowdown p50/p95/p99 of the flows in
each size bucket (src/output/metrics.cc defines them), and writes to OUT:
  fct_slowdown_by_size.<format>  p50, p95 and p99 against flow size, one colour per run, one
                                 line style per percentile, as the HPCC paper's FCT figures;
  compare.csv                    the same numbers, one row per (run, bucket);
  compare.md                     a Markdown table of each run's flows, largest queue, PAUSE
                                 frames and drops, and one of those numbers.
With --update DOC, also replaces DOC's <!-- table:compare --> block with the table. It prints
the Markdown table. Exit codes: 0 ok, 1 bad input, 2 bad usage, 3 a bug.
"""
import argparse
import json
import os
import sys
import tempfile

from doc_tables import replace_block

PERCENTILES = ("p50", "p95", "p99")
STYLES = {"p50": ":", "p95": "--", "p99": "-"}
MARKERS = {"p50": "o", "p95": "s", "p99": "^"}


class InputProblem(Exception):
    pass


def read_run(run_dir):
    path = os.path.join(run_dir, "summary.json")
    try:
        with open(path) as f:
            summary = json.load(f)
    except OSError as e:
        raise InputProblem(f"{path}: cannot read ({e.strerror})")
    except json.JSONDecodeError as e:
        raise InputProblem(f"{path}: not JSON ({e})")
    buckets = summary.get("fct_slowdown_by_size")
    if not isinstance(buckets, dict) or not buckets:
        raise InputProblem(f"{path}: no fct_slowdown_by_size (not a dcqcn run summary)")
    # In size order (JSON keeps them by name).
    buckets = dict(sorted(buckets.items(), key=lambda kv: kv[1].get("min_bytes", 0)))
    label = os.path.basename(os.path.normpath(run_dir))
    return {"label": label, "flows": summary.get("flows_finished"), "buckets": buckets,
            "max_queue_bytes": summary.get("max_queue_bytes"),
            "pause_frames": summary.get("pfc_pause_frames"), "drops": summary.get("drops")}


def rows_of(runs):
    rows = []
    for run in runs:
        for bucket, values in run["buckets"].items():
            rows.append({"run": run["label"], "bucket": bucket, "count": values.get("count", 0),
                         **{p: values.get(p) for p in PERCENTILES}})
    return rows


def write_atomic(path, text):
    folder = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def fmt(v):
    return "-" if v is None else f"{v:.3f}"


def markdown(runs, rows):
    out = ["| run | flows finished | largest queue (MB) | PAUSE frames | drops |",
           "|---|---|---|---|---|"]
    for r in runs:
        queue = "-" if r["max_queue_bytes"] is None else f"{r['max_queue_bytes'] / 1e6:.2f}"
        out.append(f"| {r['label']} | {r['flows']} | {queue} | "
                   f"{'-' if r['pause_frames'] is None else r['pause_frames']} | "
                   f"{'-' if r['drops'] is None else r['drops']} |")
    out += ["", "| run | flows | size | count | p50 | p95 | p99 |", "|---|---|---|---|---|---|---|"]
    flows = {r["label"]: r["flows"] for r in runs}
    for row in rows:
        out.append(f"| {row['run']} | {flows[row['run']]} | {row['bucket']} | {row['count']} | "
                   + " | ".join(fmt(row[p]) for p in PERCENTILES) + " |")
    return "\n".join(out) + "\n"


def csv_text(rows):
    lines = ["run,bucket,count," + ",".join(PERCENTILES)]
    for row in rows:
        lines.append(f"{row['run']},{row['bucket']},{row['count']},"
                     + ",".join("" if row[p] is None else repr(row[p]) for p in PERCENTILES))
    return "\n".join(lines) + "\n"


def figure(runs, out, formats):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    buckets = list(runs[0]["buckets"].keys())
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    x = list(range(len(buckets)))
    for i, run in enumerate(runs):
        color = colors[i % len(colors)]
        for p in PERCENTILES:
            ys = [run["buckets"].get(b, {}).get(p) for b in buckets]
            pts = [(xi, y) for xi, y in zip(x, ys) if y is not None]
            if not pts:
                continue
            ax.plot([a for a, _ in pts], [b for _, b in pts], STYLES[p], marker=MARKERS[p],
                    color=color, label=f"{run['label']} {p}")
    ax.set_xticks(x)
    ax.set_xticklabels(buckets)
    ax.set_xlabel("flow size")
    ax.set_ylabel("FCT slowdown (FCT / ideal FCT)")
    ax.set_yscale("log")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=len(runs), loc="upper left")
    ax.set_title("FCT slowdown p50 (dotted), p95 (dashed), p99 (solid) by flow size", fontsize=9)
    fig.tight_layout()
    for f in formats:
        path = os.path.join(out, f"fct_slowdown_by_size.{f}")
        tmp = os.path.join(out, f".tmp-fct_slowdown_by_size.{f}")
        fig.savefig(tmp, format=f, dpi=120)
        os.replace(tmp, path)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument("runs", nargs="+")
    parser.add_argument("--format", default="png")
    parser.add_argument("--update", metavar="DOC")
    args = parser.parse_args(argv)
    formats = [f for f in args.format.split(",") if f]
    if not formats or any(f not in ("png", "svg", "pdf") for f in formats):
        print(f"compare_report: --format: expected png, svg or pdf, got {args.format}",
              file=sys.stderr)
        return 2
    try:
        runs = [read_run(r) for r in args.runs]
        labels = [r["label"] for r in runs]
        if len(set(labels)) != len(labels):
            raise InputProblem(f"two runs have the same folder name: {', '.join(labels)}")
        os.makedirs(args.out, exist_ok=True)
        rows = rows_of(runs)
        table = markdown(runs, rows)
        write_atomic(os.path.join(args.out, "compare.md"), table)
        write_atomic(os.path.join(args.out, "compare.csv"), csv_text(rows))
        figure(runs, args.out, formats)
        if args.update:
            replace_block(args.update, "compare", table)
    except InputProblem as e:
        print(f"compare_report: {e}", file=sys.stderr)
        return 1
    print(table, end="")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as e:  # a bug, not bad input
        print(f"compare_report: internal error: {e!r}", file=sys.stderr)
        sys.exit(3)
