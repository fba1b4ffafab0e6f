#!/usr/bin/python3
"""The flow-level model against the packet model, docs/flow-level.md's table: each AI example
of examples/ai/ run with model = "flow" and packet by packet under PFC alone and DCQCN (paper
profile), each an ordinary `dcqcn run`.

  python3 python/flow_level_table.py run OUT [--binary build/dcqcn] [--jobs 1]
      runs every (example, model) into OUT/<example>/<variant>/
  python3 python/flow_level_table.py table OUT
      prints the Markdown table: the mean iteration time of the example's collectives and jobs
      under each, flow / packet for both, and each run's wall time
  python3 python/flow_level_table.py update DOC OUT
      replaces DOC's <!-- table:flow-vs-packet --> block
  python3 python/flow_level_table.py scale OUT [--binary build/dcqcn] [--update-docs]
      bench/flow_level.sh: the 1 GB hierarchical AllReduce of bench/allreduce_512gpu.toml
      packet by packet on 512 GPUs (DCQCN as shipped, and PFC alone) and at flow level on 512
      to 8,192 GPUs, one run each under /usr/bin/time, into OUT/<run>/; prints the table (wall
      time, peak RSS, flows, the shares' computations, the AllReduce's time) and with
      --update-docs writes it into docs/performance.md's <!-- table:flow-level --> block

The examples' runs use them as shipped; only `model` and [cc] change (--set).
"""

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from collective_examples import run_one  # noqa: E402
from doc_tables import replace_block  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = ["ring_allreduce_16x8", "ecmp_collisions", "two_jobs", "moe_alltoall", "gpt_7b_job",
            "moe_job"]
# (folder, --set overrides).
VARIANTS = [
    ("flow", ["model=flow"]),
    ("pfc", ["cc.algorithm=none"]),
    ("dcqcn", ["cc.algorithm=dcqcn", "cc.profile=paper"]),
]


def cmd_run(a):
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        futures = [pool.submit(run_one, a.binary, e, v, sets, a.out)
                   for e in EXAMPLES for v, sets in VARIANTS]
        for f in futures:
            print(f.result(), flush=True)


def mean_iteration_us(summary):
    """The mean over every collective's and job's iterations, in microseconds."""
    times = [it["time_ns"] for c in summary.get("collectives", []) for it in c["iterations"]]
    times += [it["time_ns"] for j in summary.get("jobs", []) for it in j["iterations"]]
    return sum(times) / len(times) / 1e3


def table(out):
    rows = ["| example | flow (us) | PFC alone (us) | DCQCN (us) | flow / PFC alone | "
            "flow / DCQCN | wall: flow, PFC alone, DCQCN (s) |",
            "|---|---:|---:|---:|---:|---:|---|"]
    for e in EXAMPLES:
        s = {}
        for v, _ in VARIANTS:
            with open(os.path.join(out, e, v, "summary.json")) as f:
                s[v] = json.load(f)
        t = {v: mean_iteration_us(s[v]) for v in s}
        wall = ", ".join(f"{s[v]['wall_time_s']:.2f}" for v, _ in VARIANTS)
        rows.append(f"| {e} | {t['flow']:.1f} | {t['pfc']:.1f} | {t['dcqcn']:.1f} | "
                    f"{t['flow'] / t['pfc']:.3f} | {t['flow'] / t['dcqcn']:.3f} | {wall} |")
    return "\n".join(rows) + "\n"


# The scale runs: (name, model label, servers, --set overrides).
SCALE = [("packet_64", "packet, DCQCN", 64, []),
         ("pfc_64", "packet, PFC alone", 64, ["cc.algorithm=none"])] + [
    # The spines' ports grow with the leaves (8 per 32 servers): a buffer their headroom fits
    # in, which the flow level does not otherwise read.
    (f"flow_{n}", "flow", n, ["model=flow", f"topology.servers={n}", "switch.buffer=64MB"])
    for n in (64, 128, 256, 512, 1024)]


def cmd_scale(a):
    rows = []
    for name, label, servers, sets in SCALE:
        print(name, file=sys.stderr, flush=True)
        folder = os.path.join(a.out, name)
        timing = folder + ".time"
        args = ["/usr/bin/time", "-f", "%e %M", "-o", timing, a.binary, "run",
                os.path.join(REPO, "bench", "allreduce_512gpu.toml"), "--threads", "1", "--quiet",
                "--force",
                "--out", folder]
        for x in sets:
            args += ["--set", x]
        done = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(args)}: exit {done.returncode}\n{done.stderr}")
        with open(timing) as f:
            wall, kb = f.read().split()[-2:]
        with open(os.path.join(folder, "summary.json")) as f:
            s = json.load(f)
        it = s["collectives"][0]["iterations"][0]
        shares = (f"{s['model']['reshares']:,} / {s['model']['streams_reshared'] / 1e6:.1f} M"
                  if "model" in s else "-")
        rows.append(f"| {label} | {servers * 8:,} | {s['flows_total']:,} | {float(wall):.1f} s | "
                    f"{int(kb) / 1024:.0f} MB | {shares} | {it['time_ns'] / 1e6:.3f} ms | "
                    f"{it['slowdown']:.3f} |\n")
    text = ("| model | GPUs | flows | wall | peak RSS | shares computed / streams in them | "
            "AllReduce time | slowdown |\n|---|---:|---:|---:|---:|---:|---:|---:|\n" +
            "".join(rows))
    print(text, end="")
    if a.update_docs:
        replace_block(os.path.join(REPO, "docs", "performance.md"), "flow-level", text)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("out")
    r.add_argument("--binary", default=os.path.join(REPO, "build", "dcqcn"))
    r.add_argument("--jobs", type=int, default=1)
    t = sub.add_parser("table")
    t.add_argument("out")
    u = sub.add_parser("update")
    u.add_argument("doc")
    u.add_argument("out")
    sc = sub.add_parser("scale")
    sc.add_argument("out")
    sc.add_argument("--binary", default=os.path.join(REPO, "build", "dcqcn"))
    sc.add_argument("--update-docs", action="store_true")
    a = p.parse_args()
    if a.cmd == "run":
        cmd_run(a)
    elif a.cmd == "scale":
        cmd_scale(a)
    elif a.cmd == "table":
        print(table(a.out), end="")
    else:
        replace_block(a.doc, "flow-vs-packet", table(a.out))


if __name__ == "__main__":
    main()
