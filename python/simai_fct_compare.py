#!/usr/bin/python3
"""Compares two FCT files of one SimAI case, flow by flow (SimAI's and ours: `dcqcn simai`
writes the same format): the transfers inside a server (NVLink) and between servers (the NICs),
their mean and median completion times, the busiest NVLink pair's transfers against their wire
time, how each GPU's transfers follow the ACKs into it, the chain of transfers one GPU's last
transfer between servers waited for, and that GPU's transfers between servers step by step
(their starts and ends in each file).
It is how docs/validation.md tells where the TP 16 case's time goes.

    python/simai_fct_compare.py SIMAI_FCT OURS [--gpus-per-server 8] [--gpu 0]
    python/simai_fct_compare.py SIMAI_FCT --replay RESOLVED_TOML > replay.toml

A file may be gzipped. Rows: src dst sport dport size start_ns fct_ns standalone_fct_ns, the
hosts as IPs 0b00XX01 (node XX, hex), as HPCC's and SimAI's ns-3 write them; OURS may also be a
run's flows.csv. --replay writes a scenario that sends SimAI's transfers as [[flow]]s at SimAI's
own start times, without their dependencies, on the fabric of RESOLVED_TOML (a `dcqcn simai`
run's resolved.toml, its [[job]] left out): run it with `dcqcn run` and compare its flows.csv,
to tell the network's service of the same transfers from when they start.
"""
import argparse
import bisect
import csv
import gzip
import statistics
import sys
from collections import Counter

# Bytes a frame adds to its payload, and the largest payload (SimAI.conf's PACKET_PAYLOAD_SIZE):
# a transfer's wire time on a link of `gbps`.
HEADER_BYTES = 48
PAYLOAD_BYTES = 9000


def read_flows_csv(path):
    """A run's flows.csv as read_fct's rows (src, dst, size, start, fct; no dport)."""
    rows = []
    with open(path, newline="") as f:
        for number, r in enumerate(csv.DictReader(f), 2):
            try:
                rows.append((int(r["src"]), int(r["dst"]), int(r["size_bytes"]),
                             int(r["start_ns"]), int(r["fct_ns"])))
            except (KeyError, TypeError, ValueError) as e:
                sys.exit(f"{path}:{number}: expected flows.csv's src, dst, size_bytes, start_ns "
                         f"and fct_ns as whole numbers ({e})")
    if not rows:
        sys.exit(f"{path}: no flows")
    return rows


def read_fct(path, with_dport=False):
    """An FCT file's rows: (src, dst, size, start, fct), and the dport last if `with_dport`."""
    if path.endswith(".csv"):
        return read_flows_csv(path)
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
            rows.append((src, dst, size, start, fct) + ((int(fields[3]),) if with_dport else ()))
    if not rows:
        sys.exit(f"{path}: no flows")
    return rows


def wire_ns(size, gbps):
    frames = -(-size // PAYLOAD_BYTES)
    return (size + frames * HEADER_BYTES) * 8 / gbps


def ack_gaps(rows, before=300, after=100):
    """For each transfer, the gap from the nearest end (last ACK) of a transfer into its source
    GPU, within `before` ns before its start to `after` ns after, to its start: how a ring's next
    step follows the last one's ACK. A Counter of gaps (transfers with no such ACK: none)."""
    ends = {}
    for r in rows:
        ends.setdefault(r[1], []).append(r[3] + r[4])
    for v in ends.values():
        v.sort()
    gaps = Counter()
    for r in rows:
        v = ends.get(r[0], [])
        near = v[bisect.bisect_left(v, r[3] - before):bisect.bisect_right(v, r[3] + after)]
        if near:
            gaps[min((r[3] - e for e in near), key=abs)] += 1
    return gaps


def critical_chain(rows, gpu=0, gpus_per_server=8, within=100):
    """The chain of transfers that GPU `gpu`'s last transfer to another server waited for: from
    it back, each time the transfer into its source GPU whose end (last ACK) came last within
    `within` ns before its start, as a ring's step follows the previous one. In start order."""
    into = {}
    for r in rows:
        into.setdefault(r[1], []).append(r)
    outs = [r for r in rows if r[0] == gpu and r[1] // gpus_per_server != gpu // gpus_per_server]
    if not outs:
        return []
    chain = [max(outs, key=lambda r: r[3])]
    while True:
        start = chain[-1][3]
        before = [r for r in into.get(chain[-1][0], []) if start - within <= r[3] + r[4] <= start]
        if not before:
            break
        chain.append(max(before, key=lambda r: r[3] + r[4]))
    chain.reverse()
    return chain


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
    out.append("\nHow a GPU's transfers follow the ACKs of those into it: the gap from the nearest "
               "such ACK to each start (ns), the most common first:")
    for name, rows in runs.items():
        gaps = ack_gaps(rows)
        common = ", ".join(f"{g} ({n})" for g, n in gaps.most_common(4))
        out.append(f"  {name}: {sum(gaps.values())} transfers: {common}")
    out.append(f"\nWhat GPU {gpu}'s last transfer between servers waited for: the chain of "
               "transfers back from it, each the last to end before the next started:")
    for name, rows in runs.items():
        chain = critical_chain(rows, gpu, gpus_per_server)
        if not chain:
            out.append(f"  {name}: none")
            continue
        parts = []
        for label, v in (("NVLink", [r[4] for r in chain if inside(r)]),
                         ("between servers", [r[4] for r in chain if not inside(r)])):
            parts.append(f"{len(v)} {label}" + (f" ({statistics.mean(v):.0f} ns on average)"
                                                 if v else ""))
        out.append(f"  {name}: {len(chain)} transfers from {chain[0][3]} to "
                   f"{chain[-1][3] + chain[-1][4]} ns: {', '.join(parts)}")
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


def replay_scenario(rows, resolved):
    """The text of a scenario: `resolved` (a resolved.toml's text) without its [[job]] tables,
    then `rows` (read_fct's, with dport) as [[flow]]s in start order, each at its start."""
    out = []
    in_job = False
    for line in resolved.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            name = stripped.strip("[]").strip()
            in_job = name == "job" or name.startswith("job.")
        if not in_job:
            out.append(line)
    out.append("# SimAI's transfers at its own start times, without their dependencies.")
    for src, dst, size, start, _, dport in sorted(rows, key=lambda r: (r[3], r[0], r[1])):
        out.append(f'[[flow]]\nsrc = {src}\ndst = {dst}\nsize = "{size}B"\nstart = "{start}ns"\n'
                   f"dport = {dport}\n")
    return "\n".join(out)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("simai")
    p.add_argument("ours", nargs="?", help="our FCT file or flows.csv")
    p.add_argument("--replay", metavar="RESOLVED_TOML",
                   help="write a scenario of SimAI's transfers at its start times instead")
    p.add_argument("--gpus-per-server", type=int, default=8)
    p.add_argument("--gpu", type=int, default=0, help="the GPU whose cross-server steps to list")
    p.add_argument("--nvlink-gbps", type=float, default=2880)
    a = p.parse_args()
    if a.replay:
        with open(a.replay) as f:
            print(replay_scenario(read_fct(a.simai, with_dport=True), f.read()))
        return
    if a.ours is None:
        p.error("give our FCT file or flows.csv to compare, or --replay")
    runs = {"SimAI": read_fct(a.simai), "dcqcn": read_fct(a.ours)}
    print("\n".join(compare(runs, a.gpus_per_server, a.gpu, a.nvlink_gbps)))


if __name__ == "__main__":
    main()
