#!/usr/bin/python3
"""Compares two FCT files of one SimAI case, flow by flow (SimAI's and ours: `dcqcn simai`
writes the same format): the transfers inside a server (NVLink) and between servers (the NICs),
their mean and median completion times, the busiest NVLink pair's transfers against their wire
time, and one GPU's transfers between servers step by step (their starts and ends in each file).
It is how docs/validation.md tells where the TP 16 case's time goes.

    python/simai_fct_compare.py SIMAI_FCT OUR_FCT [--gpus-per-server 8] [--gpu 0]

A file may be gzipped. Rows: src dst sport dport size start_ns fct_ns standalone_fct_ns, the
hosts as IPs 0b00XX01 (node XX, hex), as HPCC's and SimAI's ns-3 write them.
"""
import argparse
import gzip
import statistics
import sys
from collections import Counter

# Bytes a frame adds to its payload, and the largest payload (SimAI.conf's PACKET_PAYLOAD_SIZE):
# a transfer's wire time on a link of `gbps`.
HEADER_BYTES = 48
PAYLOAD_BYTES = 9000


def read_fct(path):
    opener = gzip.open if path.endswith(".gz") else open
    rows = []
    with opener(path, "rt") as f:
        for number, line in enumerate(f, 1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) < 7:
                sys.exit(f"{path}:{number}: expected at least 7 fields, got {len(fields)}")
            src, dst = ((int(fields[i], 16) >> 8) & 0xFFFF for i in (0, 1))
            size, start, fct = (int(fields[i]) for i in (4, 5, 6))
            rows.append((src, dst, size, start, fct))
    if not rows:
        sys.exit(f"{path}: no flows")
    return rows


def wire_ns(size, gbps):
    frames = -(-size // PAYLOAD_BYTES)
    return (size + frames * HEADER_BYTES) * 8 / gbps


def compare(runs, gpus_per_server=8, gpu=0, nvlink_gbps=2880):
    """The report's lines, of `runs` {"SimAI": rows, "dcqcn": rows} (read_fct's)."""
    server = lambda node: node // gpus_per_server
    inside = lambda r: server(r[0]) == server(r[1])
    out = ["| file | NVLink transfers | mean fct (ns) | median | between servers | mean fct (ns) | median |",
           "|---|---:|---:|---:|---:|---:|---:|"]
    for name, rows in runs.items():
        cells = []
        for v in ([r[4] for r in rows if inside(r)], [r[4] for r in rows if not inside(r)]):
            cells.append(f"{len(v)} | {statistics.mean(v):.0f} | {statistics.median(v):.0f}"
                         if v else "0 | - | -")
        out.append(f"| {name} | {cells[0]} | {cells[1]} |")
    busiest = Counter((r[0], r[1]) for r in runs["SimAI"] if inside(r))
    if busiest:
        (src, dst), count = busiest.most_common(1)[0]
        out.append(f"\nBusiest NVLink pair {src} -> {dst}: {count} transfers")
        for name, rows in runs.items():
            pair = [r for r in rows if (r[0], r[1]) == (src, dst)]
            if not pair:
                out.append(f"  {name}: none")
                continue
            wire = sum(wire_ns(r[2], nvlink_gbps) for r in pair)
            first = min(r[3] for r in pair)
            last = max(r[3] + r[4] for r in pair)
            out.append(f"  {name}: {wire / 1e3:.1f} us of wire, from {first} to {last} ns: busy "
                       f"{wire / (last - first):.1%}")
    out.append(f"\nGPU {gpu}'s transfers between servers, in start order (ns):")
    out.append("| step | start SimAI | start dcqcn | later in SimAI | end SimAI | end dcqcn | "
               "later in SimAI |")
    out.append("|---:|---:|---:|---:|---:|---:|---:|")
    steps = {name: sorted((r[3], r[3] + r[4]) for r in rows
                          if r[0] == gpu and server(r[1]) != server(gpu))
             for name, rows in runs.items()}
    for i, (s, o) in enumerate(zip(steps["SimAI"], steps["dcqcn"])):
        out.append(f"| {i} | {s[0]} | {o[0]} | {s[0] - o[0]} | {s[1]} | {o[1]} | {s[1] - o[1]} |")
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("simai")
    p.add_argument("ours")
    p.add_argument("--gpus-per-server", type=int, default=8)
    p.add_argument("--gpu", type=int, default=0, help="the GPU whose cross-server steps to list")
    p.add_argument("--nvlink-gbps", type=float, default=2880)
    a = p.parse_args()
    runs = {"SimAI": read_fct(a.simai), "dcqcn": read_fct(a.ours)}
    print("\n".join(compare(runs, a.gpus_per_server, a.gpu, a.nvlink_gbps)))


if __name__ == "__main__":
    main()
