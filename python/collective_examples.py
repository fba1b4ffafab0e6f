#!/usr/bin/python3
"""The congestion-control comparison of docs/collectives.md: every example of examples/ai/ under
PFC alone, DCQCN (paper and mlx5 profiles), DCTCP and HPCC, each an ordinary `dcqcn run`.

  python3 python/collective_examples.py run OUT [--binary build/dcqcn] [--jobs 2]
      runs every (example, congestion control) into OUT/<example>/<cc>/
  python3 python/collective_examples.py table OUT
      prints the Markdown table (iteration time, busbw, slowdown, PAUSE frames, ECN marks:
      means over the iterations, from each run's summary.json)
  python3 python/collective_examples.py update DOC OUT
      replaces DOC's <!-- table:collectives-cc --> block and draws DOC's figure
      (docs/figures/collectives_cc.png beside DOC)

The runs use the examples as shipped; only [cc] changes (--set).
"""

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_tables import replace_block  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = ["ring_allreduce_16x8", "moe_alltoall", "two_jobs", "ecmp_collisions"]
# Congestion control: (folder, label, --set overrides).
CCS = [
    ("pfc", "PFC alone", ["cc.algorithm=none"]),
    ("dcqcn-paper", "DCQCN, paper", ["cc.algorithm=dcqcn", "cc.profile=paper"]),
    ("dcqcn-mlx5", "DCQCN, mlx5", ["cc.algorithm=dcqcn", "cc.profile=mlx5"]),
    ("dctcp", "DCTCP", ["cc.algorithm=dctcp"]),
    ("hpcc", "HPCC", ["cc.algorithm=hpcc"]),
]


def run_one(binary, example, cc, sets, out):
    folder = os.path.join(out, example, cc)
    args = [binary, "run", os.path.join(REPO, "examples", "ai", example + ".toml"), "--out",
            folder, "--force", "--threads", "1"]
    for s in sets:
        args += ["--set", s]
    done = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)}: exit {done.returncode}\n{done.stderr}")
    return folder


def cmd_run(a):
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        futures = [pool.submit(run_one, a.binary, e, cc, sets, a.out)
                   for e in EXAMPLES for cc, _, sets in CCS]
        for f in futures:
            print(f.result(), flush=True)


def results(out):
    """{(example, cc folder): summary.json} for every run."""
    found = {}
    for e in EXAMPLES:
        for cc, _, _ in CCS:
            path = os.path.join(out, e, cc, "summary.json")
            if not os.path.exists(path):
                raise SystemExit(f"{path}: missing (run `collective_examples.py run {out}` first)")
            with open(path) as f:
                found[(e, cc)] = json.load(f)
    return found


def table(out):
    rows = ["| example | congestion control | collective | iteration time (ms) | busbw (Gb/s) | "
            "slowdown | PAUSE frames | ECN marks |", "|---|---|---|---|---|---|---|---|"]
    for (e, cc), s in results(out).items():
        label = next(lbl for c, lbl, _ in CCS if c == cc)
        for c in s["collectives"]:
            m = c["mean"]
            if m is None:
                cells = ["unfinished", "", ""]
            else:
                cells = [f"{m['time_ns'] / 1e6:.3f}", f"{m['busbw_gbps']:.1f}",
                         f"{m['slowdown']:.2f}"]
            rows.append(f"| {e} | {label} | {c['tag']} | " + " | ".join(cells) +
                        f" | {s['pfc_pause_frames']} | {s['ecn_marked_packets']} |")
    return "\n".join(rows) + "\n"


def figure(out, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    found = results(out)
    fig, axes = plt.subplots(1, len(EXAMPLES), figsize=(4 * len(EXAMPLES), 3.6))
    for ax, e in zip(axes, EXAMPLES):
        tags = [c["tag"] for c in found[(e, CCS[0][0])]["collectives"]]
        width = 0.8 / len(tags)
        for k, tag in enumerate(tags):
            ys = []
            for cc, _, _ in CCS:
                c = next(c for c in found[(e, cc)]["collectives"] if c["tag"] == tag)
                ys.append(c["mean"]["time_ns"] / 1e6 if c["mean"] else 0)
            xs = [i + (k - (len(tags) - 1) / 2) * width for i in range(len(CCS))]
            ax.bar(xs, ys, width, label=tag)
        ideal = found[(e, CCS[0][0])]["collectives"][0]["ideal_time_ns"] / 1e6
        ax.axhline(ideal, color="k", linestyle="--", linewidth=1, label="ideal")
        ax.set_xticks(range(len(CCS)))
        ax.set_xticklabels([lbl for _, lbl, _ in CCS], rotation=30, ha="right", fontsize=8)
        ax.set_title(e, fontsize=10)
        ax.set_ylabel("mean iteration time (ms)")
        ax.legend(fontsize=7)
    fig.tight_layout()
    tmp = path + ".tmp.png"
    fig.savefig(tmp, dpi=110)
    os.replace(tmp, path)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("out")
    r.add_argument("--binary", default=os.path.join(REPO, "build", "dcqcn"))
    r.add_argument("--jobs", type=int, default=2)
    t = sub.add_parser("table")
    t.add_argument("out")
    u = sub.add_parser("update")
    u.add_argument("doc")
    u.add_argument("out")
    a = p.parse_args()
    if a.cmd == "run":
        cmd_run(a)
    elif a.cmd == "table":
        sys.stdout.write(table(a.out))
    else:
        replace_block(a.doc, "collectives-cc", table(a.out))
        figures = os.path.join(os.path.dirname(a.doc), "figures")
        os.makedirs(figures, exist_ok=True)
        figure(a.out, os.path.join(figures, "collectives_cc.png"))


if __name__ == "__main__":
    main()
