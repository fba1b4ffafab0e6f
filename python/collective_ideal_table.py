#!/usr/bin/python3
"""The ideal-versus-simulated table of docs/collectives.md: one collective alone on an idle
non-blocking fabric, for n = 2..64 ranks and sizes 1 MB..1 GB, its simulated time against its
ideal_time_ns (summary.json), and its busbw against a host link's goodput.

  python3 python/collective_ideal_table.py run OUT [--binary build/dcqcn] [--jobs 2] [--quick]
      writes OUT/<case>/scenario.toml and runs it into OUT/<case>/run/
  python3 python/collective_ideal_table.py table OUT
      prints the Markdown table
  python3 python/collective_ideal_table.py update DOC OUT
      replaces DOC's <!-- table:collectives-ideal --> block

The fabric: a two-tier leaf-spine of 8 hosts per leaf with 8 spines at 100 Gb/s (a ring's one
cross-leaf hop per leaf pair never shares a link); halving-doubling, whose cross-leaf steps put
several flows between the same two leaves (which ECMP may hash onto one spine), runs on one
switch (a star) instead, where it is contention free. Congestion control: the default (DCQCN,
paper profile); it starts every flow at line rate.
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
RATE_GBPS = 100
# A data packet of 1000 payload bytes is a 1086-byte frame on the wire (with preamble and gap);
# the link also carries the ACK (84 bytes) of every 16th packet coming the other way.
GOODPUT_GBPS = RATE_GBPS * 1000 / (1086 + 84 / 16)
SIZES = ["1MB", "16MB", "256MB", "1GB"]
CASES = ([("allreduce", "ring", n) for n in (2, 4, 8, 16, 32, 64)] +
         [("allgather", "ring", n) for n in (2, 8, 64)] +
         [("reducescatter", "ring", n) for n in (8,)] +
         [("allreduce", "halving_doubling", n) for n in (4, 16, 64)] +
         [("allgather", "halving_doubling", n) for n in (8,)])


def scenario(op, algorithm, n, size, ack_interval):
    if algorithm == "ring":
        per_leaf = min(n, 8)
        topo = (f'type = "leaf_spine"\nleaves = {n // per_leaf}\nspines = 8\n'
                f'hosts_per_leaf = {per_leaf}\n')
    else:
        topo = f'type = "star"\nhosts = {n}\n'
    return (f'name = "{op}-{algorithm}-{n}-{size}"\nduration = "10s"\n[topology]\n{topo}'
            f'link_rate = "{RATE_GBPS}Gbps"\nlink_delay = "1us"\n'
            f'[host]\nack_interval = {ack_interval}\n'
            f'[[collective]]\nop = "{op}"\nalgorithm = "{algorithm}"\nsize = "{size}"\n')


def cases(quick):
    """(op, algorithm, n, size, ack_interval): every size with an ACK per 16 packets, as RoCE
    NICs coalesce them; up to 16 MB also with an ACK per packet (HPCC's setting, our default)."""
    sizes = SIZES[:2] if quick else SIZES
    return ([(op, a, n, s, 16) for op, a, n in CASES for s in sizes] +
            [(op, a, n, s, 1) for op, a, n in CASES for s in SIZES[:2]])


def name(case):
    return "-".join(str(x) for x in case)


def run_one(binary, out, case):
    folder = os.path.join(out, name(case))
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "scenario.toml")
    with open(path, "w") as f:
        f.write(scenario(*case))
    done = subprocess.run([binary, "run", path, "--out", os.path.join(folder, "run"), "--force"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{path}: exit {done.returncode}\n{done.stderr}")
    return folder


def error_of(out, case):
    """(ideal us, simulated us, error %, busbw) of a case's run, or None if it has not run."""
    path = os.path.join(out, name(case), "run", "summary.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        c = json.load(f)["collectives"][0]
    ideal, t = c["ideal_time_ns"], c["iterations"][0]["time_ns"]
    return ideal / 1e3, t / 1e3, 100 * (t - ideal) / ideal, c["iterations"][0]["busbw_gbps"]


def table(out):
    rows = ["| op | algorithm | n | size | ideal (us) | simulated (us) | error | busbw (Gb/s) | "
            "busbw / goodput | error, ACK per packet |", "|---|---|---|---|---|---|---|---|---|---|"]
    for op, a, n in CASES:
        for size in SIZES:
            coalesced = error_of(out, (op, a, n, size, 16))
            if coalesced is None:
                continue
            ideal, t, err, busbw = coalesced
            per_packet = error_of(out, (op, a, n, size, 1))
            rows.append(f"| {op} | {a} | {n} | {size} | {ideal:.1f} | {t:.1f} | {err:+.2f}% | "
                        f"{busbw:.1f} | {busbw / GOODPUT_GBPS:.3f} | " +
                        (f"{per_packet[2]:+.2f}%" if per_packet else "") + " |")
    return "\n".join(rows) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("out")
    r.add_argument("--binary", default=os.path.join(REPO, "build", "dcqcn"))
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--quick", action="store_true", help="only 1 MB and 16 MB")
    t = sub.add_parser("table")
    t.add_argument("out")
    u = sub.add_parser("update")
    u.add_argument("doc")
    u.add_argument("out")
    a = p.parse_args()
    if a.cmd == "run":
        # Largest first, so that the pool ends together.
        todo = sorted(cases(a.quick), key=lambda c: -c[2] * 4 ** SIZES.index(c[3]))
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            for f in [pool.submit(run_one, a.binary, a.out, c) for c in todo]:
                print(f.result(), flush=True)
    elif a.cmd == "table":
        sys.stdout.write(table(a.out))
    else:
        replace_block(a.doc, "collectives-ideal", table(a.out))


if __name__ == "__main__":
    main()
