#!/usr/bin/env python3
"""The packet-vs-fluid table of docs/fluid.md, from scripts/fluid-vs-packet.sh's results.

    fluid_vs_packet.py OUT_DIR [--out FILE] [--update-docs DOC]

OUT_DIR holds one folder per case (any name), each with
  fluid/summary.json                 a `dcqcn fluid` run
  packet/runs/*/summary.json         `dcqcn run` results (a `dcqcn sweep` over seeds), or
  packet/summary.json                a single run
The case's N, tau* and RED curve are read from the fluid summary. Per case, one row: the fluid
model's queue mean and peak-to-peak over its window, its verdict and utilisation; the packet
simulator's bottleneck mean queue and standard deviation (after its warm-up) and utilisation,
each the mean over the runs (seeds); the per-flow rate (fluid: mean Rc; packet: mean flow
throughput, payload); and (packet - fluid) / fluid of the mean queues.

Prints the Markdown table, writes it to --out, and with --update-docs replaces the block
between <!-- table:fluid-vs-packet --> and <!-- /table:fluid-vs-packet --> in DOC.
"""
import argparse
import json
import math
import sys
from pathlib import Path

import pandas as pd

BEGIN = "<!-- table:fluid-vs-packet -->"
END = "<!-- /table:fluid-vs-packet -->"
# A mean-queue difference above this is flagged (docs/fluid.md explains each flagged row).
FLAG = 0.20


def _load(path):
    with open(path) as f:
        return json.load(f)


def _packet_summaries(packet_dir):
    runs = sorted(packet_dir.glob("runs/*/summary.json"))
    if not runs and (packet_dir / "summary.json").is_file():
        runs = [packet_dir / "summary.json"]
    return [_load(p) for p in runs]


def _get(d, *keys):
    for k in keys:
        if d is None:
            return None
        d = d.get(k)
    return d


def _mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def collect(out_dir):
    """One dict per case folder that has both a fluid and a packet result."""
    rows = []
    for case in sorted(Path(out_dir).iterdir()):
        fluid_path = case / "fluid" / "summary.json"
        if not case.is_dir() or not fluid_path.is_file():
            continue
        packets = _packet_summaries(case / "packet")
        if not packets:
            continue
        f = _load(fluid_path)
        params = f["parameters"]
        rows.append({
            "case": case.name,
            "flows": int(f["flows"]),
            "delay_us": f["delay_ns"] / 1000.0,
            "kmin_kb": params["kmin_bytes"] / 1000.0,
            "kmax_kb": params["kmax_bytes"] / 1000.0,
            "pmax": params["pmax"],
            "fluid_qstar_kb": _kb(_get(f, "fixed_point", "exact", "queue_bytes")),
            "fluid_q_mean_kb": _kb(f["queue_bytes"]["mean"]),
            "fluid_q_p2p_kb": _kb(f["queue_bytes"]["peak_to_peak"]),
            "fluid_verdict": _get(f, "oscillation", "verdict"),
            "fluid_util": f.get("utilisation"),
            "fluid_rc_gbps": f["rc_gbps_mean_of_flows"]["mean"],
            "seeds": len(packets),
            "packet_q_mean_kb": _kb(_mean([_get(s, "bottleneck", "mean_queue_bytes") for s in packets])),
            "packet_q_std_kb": _kb(_mean([_get(s, "bottleneck", "std_queue_bytes") for s in packets])),
            "packet_util": _mean([_get(s, "bottleneck", "utilisation") for s in packets]),
            "packet_rate_gbps": _mean([_get(s, "flow_throughput_gbps", "mean") for s in packets]),
        })
    df = pd.DataFrame(rows)
    if df.empty:
        return df
    df["queue_diff"] = (df["packet_q_mean_kb"] - df["fluid_q_mean_kb"]) / df["fluid_q_mean_kb"]
    return df.sort_values(["kmax_kb", "pmax", "delay_us", "flows"]).reset_index(drop=True)


def _kb(v):
    return None if v is None else v / 1000.0


def _num(v, digits=1):
    if _missing(v):
        return "-"
    return f"{v:.{digits}f}"


def _curve(r):
    return f"{r.kmin_kb:g} KB / {r.kmax_kb:g} KB / {r.pmax * 100:g}%"


def _delay(us):
    return f"{us:g} us"


def _diff(v):
    if _missing(v) or math.isinf(v):
        return "-"
    s = f"{v * 100:+.0f}%"
    return f"**{s}**" if abs(v) > FLAG else s


COLUMNS = [
    "N", "τ*", "RED curve (Kmin / Kmax / Pmax)", "fluid q* (KB)", "fluid queue mean (KB)",
    "fluid queue p-p (KB)", "fluid verdict", "packet queue mean (KB)", "packet queue std (KB)",
    "util. fluid / packet (%)", "per-flow rate: fluid Rc / packet (Gb/s)",
    "mean queue Δ (packet vs fluid)",
]


def _missing(v):
    return v is None or (isinstance(v, float) and math.isnan(v))


def markdown(df):
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for r in df.itertuples():
        qstar = "none" if _missing(r.fluid_qstar_kb) else _num(r.fluid_qstar_kb)
        util = (f"{_num(None if _missing(r.fluid_util) else r.fluid_util * 100)} / "
                f"{_num(None if _missing(r.packet_util) else r.packet_util * 100)}")
        cells = [str(r.flows), _delay(r.delay_us), _curve(r), qstar, _num(r.fluid_q_mean_kb),
                 _num(r.fluid_q_p2p_kb), r.fluid_verdict or "-", _num(r.packet_q_mean_kb),
                 _num(r.packet_q_std_kb), util,
                 f"{_num(r.fluid_rc_gbps, 3)} / {_num(r.packet_rate_gbps, 3)}",
                 _diff(r.queue_diff)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def update_doc(doc_path, table):
    text = Path(doc_path).read_text()
    begin, end = text.find(BEGIN), text.find(END)
    if begin < 0 or end < begin:
        raise SystemExit(f"fluid_vs_packet: {doc_path} has no {BEGIN} ... {END} block")
    new = text[:begin] + BEGIN + "\n" + table + text[end:]
    if new != text:
        Path(doc_path).write_text(new)
    return new != text


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out_dir")
    ap.add_argument("--out", help="write the table to this file")
    ap.add_argument("--update-docs", metavar="DOC",
                    help="replace the table:fluid-vs-packet block in DOC")
    a = ap.parse_args(argv)
    if not Path(a.out_dir).is_dir():
        print(f"fluid_vs_packet: no folder {a.out_dir}", file=sys.stderr)
        return 1
    df = collect(a.out_dir)
    if df.empty:
        print(f"fluid_vs_packet: no case in {a.out_dir} has both fluid/summary.json and packet "
              "results", file=sys.stderr)
        return 1
    table = markdown(df)
    sys.stdout.write(table)
    if a.out:
        Path(a.out).write_text(table)
    if a.update_docs:
        changed = update_doc(a.update_docs, table)
        print(f"fluid_vs_packet: {a.update_docs} {'updated' if changed else 'unchanged'}",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
