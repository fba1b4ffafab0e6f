#!/usr/bin/python3
"""Compares dcqcn's HPCC-format FCT files with HPCC ns-3's own outputs: one Markdown table.

    validation_table.py OURS_DIR REFERENCE_DIR [--update DOC]

OURS_DIR holds our FCT files under the reference's file names (fct_*.txt, as `dcqcn ns3 --out`
writes them); REFERENCE_DIR the simulator's. Per flow the slowdown is fct / standalone, both
columns of the file (columns 7 and 8). For the 2:1 incast the table lists each flow's FCT and
standalone value; for the other cases the slowdown p50/p95/p99 per flow-size bucket and how
closely single flows agree (matched by addresses, ports, size and start). With
--update DOC the <!-- table:validation --> block of DOC is replaced.
"""
import argparse
import os
import sys

import numpy as np
import pandas as pd

from doc_tables import replace_block

COLUMNS = ["sip", "dip", "sport", "dport", "size", "start", "fct", "standalone"]
BUCKETS = [("all", 0, None), ("< 10 KB", 0, 10000), ("10-100 KB", 10000, 100000),
           ("100 KB-1 MB", 100000, 1000000), (">= 1 MB", 1000000, None)]
INCAST = "fct_topology_flow_dcqcn_nomon.txt"


def read_fct(path):
    t = pd.read_csv(path, sep=r"\s+", header=None, names=COLUMNS, dtype={"sip": str, "dip": str})
    t["slowdown"] = t["fct"] / t["standalone"]
    return t


def diff(ours, ref):
    return f"{(ours - ref) / ref * 100:+.1f}%"


def incast_rows(ours, ref):
    rows = []
    key = ["sip", "dip", "sport"]
    merged = ref.merge(ours, on=key, suffixes=("_ref", "_ours"))
    for _, r in merged.sort_values("sip").iterrows():
        flow = f"h{int(r['sip'][4:6], 16)} -> h{int(r['dip'][4:6], 16)}"
        rows.append(["2:1 incast", flow, "FCT (ns)", f"{r['fct_ref']:,}", f"{r['fct_ours']:,}",
                     diff(r["fct_ours"], r["fct_ref"])])
        rows.append(["2:1 incast", flow, "standalone (ns)", f"{r['standalone_ref']:,}",
                     f"{r['standalone_ours']:,}", diff(r["standalone_ours"], r["standalone_ref"])])
    return rows


def bucket_rows(case, ours, ref):
    rows = []
    for label, lo, hi in BUCKETS:
        sel = lambda t: t[(t["size"] >= lo) & ((t["size"] < hi) if hi else True)]
        a, b = sel(ours)["slowdown"].to_numpy(), sel(ref)["slowdown"].to_numpy()
        if len(a) == 0 or len(b) == 0:
            continue
        for p in (50, 95, 99):
            x, y = np.percentile(a, p), np.percentile(b, p)
            rows.append([case, f"{label} ({len(b)} flows)", f"slowdown p{p}", f"{y:.3f}",
                         f"{x:.3f}", diff(x, y)])
    return rows


def per_flow_rows(case, ours, ref):
    """How closely single flows agree (flows matched by addresses, ports, size and start):
    paths, ACK queueing and marking decide them, where the percentiles average."""
    m = ref.merge(ours, on=["sip", "dip", "sport", "size", "start"], suffixes=("_ref", "_ours"))
    if len(m) < 2:
        return []
    label = f"per flow ({len(m)} matched)"
    rel = (m["fct_ours"] - m["fct_ref"]).abs() / m["fct_ref"] * 100
    corr = np.corrcoef(np.log(m["slowdown_ref"]), np.log(m["slowdown_ours"]))[0, 1]
    return [[case, label, "same FCT to the ns", "-", f"{(m['fct_ours'] == m['fct_ref']).sum()}", ""],
            [case, label, "median FCT difference", "-", f"{np.median(rel):.2f}%", ""],
            [case, label, "correlation of log slowdown", "-", f"{corr:.3f}", ""]]


def table(ours_dir, ref_dir):
    rows = []
    for name in sorted(os.listdir(ref_dir)):
        if not name.startswith("fct_"):
            continue
        ours_path = os.path.join(ours_dir, name)
        if not os.path.isfile(ours_path):
            continue
        ours, ref = read_fct(ours_path), read_fct(os.path.join(ref_dir, name))
        case = name[len("fct_"):-len(".txt")]
        if name == INCAST:
            rows += incast_rows(ours, ref)
        else:
            rows += bucket_rows(case, ours, ref) + per_flow_rows(case, ours, ref)
    if not rows:
        raise SystemExit(f"validation_table: no FCT file of {ref_dir} has a counterpart in {ours_dir}")
    header = ["case", "flows", "metric", "HPCC ns-3", "dcqcn", "difference"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ours")
    parser.add_argument("reference")
    parser.add_argument("--update", metavar="DOC")
    args = parser.parse_args(argv)
    text = table(args.ours, args.reference)
    if args.update:
        replace_block(args.update, "validation", text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
