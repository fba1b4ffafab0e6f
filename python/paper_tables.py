#!/usr/bin/python3
"""The tables of docs/paper.md, made from the output folders of the commands the doc shows.

scripts/reproduce-paper.sh drives it; its subcommands are

  commands DOC OUT [--jobs N]  print the `dcqcn` commands shown in DOC's code blocks, one a line
                               as "CAPTURE<TAB>ARGS" (ARGS shell-quoted, without the leading
                               `dcqcn`, results/paper/ rewritten to OUT/; CAPTURE is the file
                               that gets the command's output: OUT/buffer/K.txt for the K-th
                               `dcqcn buffer`, whose output is a table of the doc)
  tables OUT                   write every table as Markdown to OUT/tables/<name>.md
  figures DOC OUT              print "RUN_DIR<TAB>FIGURE<TAB>DOC_FIGURE" for every figure DOC
                               shows: `dcqcn report RUN_DIR` draws RUN_DIR/report/FIGURE.png,
                               which the doc shows as figures/DOC_FIGURE
  update DOC OUT               replace every <!-- table:NAME --> ... <!-- /table:NAME --> block of
                               DOC by OUT/tables/NAME.md
  check DOC OUT                exit 1, naming them, when blocks of DOC differ from OUT/tables

The tables use the metrics as summary.json and sweep.csv define them (docs/metrics.md); only
per-flow shares come from flows.csv (avg_gbps) and per-phase shares from the sampled
timeseries/throughput.csv. Exit codes: 0 ok, 1 a table differs or an input is missing, 2 usage.
"""

import argparse
import json
import math
import os
import re
import shlex
import sys

import pandas as pd

# The prefix of every output folder in the doc's commands; the script puts them under OUT.
DOC_OUT_PREFIX = "results/paper/"
# The output folders the tables read (the --out of the doc's commands, under OUT).
STARTUP = {"DCQCN, paper": "startup-paper", "DCQCN, mlx5": "startup-mlx5",
           "DCQCN, hpcc": "startup-hpcc", "PFC alone": "startup-pfc"}
UNFAIRNESS = {"PFC alone": "unfairness-pfc", "DCQCN": "unfairness-dcqcn"}
VICTIM = "victim"
CONVERGENCE = "convergence"
INCAST = "incast"
STABILITY = {"default": "stability", "fix": "stability-fixed"}
CNP_LIMIT = "cnp-limit"
# The receiver NIC's CNP generator in the CNP-limit sweep: cc.cnp_service_time -> row label.
CNP_GENERATORS = {"0us": "unlimited", "250ns": "ConnectX-4, 0.25 us",
                  "2500ns": "ConnectX-3 Pro, 2.5 us", "5us": "ConnectX-3 Pro, 5 us"}
# Parameter sensitivity: (folder, knob, how a row's value is printed from its sweep.csv row).
SENSITIVITY = [
    ("sens-ecn", "Kmax / Pmax",
     lambda r: f"{r['switch.ecn.kmax']} / {_percent(r['switch.ecn.pmax'])}"),
    ("sens-kmin", "Kmin", lambda r: str(r["switch.ecn.kmin"])),
    ("sens-g", "g", lambda r: _fraction(r["cc.g"])),
    ("sens-timer", "timer T", lambda r: str(r["cc.timer"])),
    ("sens-rai", "R_AI", lambda r: str(r["cc.rai"])),
]
# The paper profile's values of the swept knobs, marked "(paper)" in the table.
PAPER_VALUES = {"Kmax / Pmax": "200KB / 1%", "Kmin": "5KB", "g": "1/256", "timer T": "55us",
                "R_AI": "40Mbps"}
# Every figure the doc shows: doc file name -> (output folder, {varied key: value} selecting a
# sweep's run or None for a run folder, figure of `dcqcn report`).
FIGURES = {
    "startup_rate.png": ("startup-paper", None, "rate"),
    "startup_queue.png": ("startup-paper", None, "queue"),
    "unfairness_pfc_throughput.png": ("unfairness-pfc", None, "throughput"),
    "unfairness_dcqcn_throughput.png": ("unfairness-dcqcn", None, "throughput"),
    "victim_pfc_throughput.png": (VICTIM, {"workload.senders": 8, "cc.algorithm": "none"},
                                  "throughput"),
    "victim_pfc_pauses.png": (VICTIM, {"workload.senders": 8, "cc.algorithm": "none"}, "pfc"),
    "victim_dcqcn_throughput.png": (VICTIM, {"workload.senders": 8, "cc.algorithm": "dcqcn"},
                                    "throughput"),
    "convergence_throughput.png": (CONVERGENCE, None, "throughput"),
    "convergence_rate.png": (CONVERGENCE, None, "rate"),
    "incast_sweep_queue.png": (INCAST, {}, "queue"),
    "incast_sweep_pauses.png": (INCAST, {}, "pfc"),
    "stability_n10_queue.png": ("stability", {"workload.senders": 10}, "queue"),
    "stability_n10_fixed_queue.png": ("stability-fixed", {"workload.senders": 10}, "queue"),
}
PHASE_TAIL_NS = 2e6  # per-phase shares: the mean of the samples in a phase's last 2 ms
TABLE_NAME = r"[A-Za-z0-9_-]+"


class InputError(Exception):
    pass


# ---------------------------------------------------------------- formatting


def _percent(x):
    return f"{float(x) * 100:g}%"


def _fraction(x):
    x = float(x)
    inv = 1 / x
    return f"1/{inv:.0f}" if abs(inv - round(inv)) < 1e-9 else f"{x:g}"


def _missing(x):
    return x is None or (isinstance(x, float) and math.isnan(x))


def num(x, digits=2):
    return "n/a" if _missing(x) else f"{float(x):,.{digits}f}"


def count(x):
    return "n/a" if _missing(x) else f"{int(x):,}"


def kb(x, digits=1):
    return "n/a" if _missing(x) else f"{float(x) / 1e3:,.{digits}f}"


def pct(x, digits=1):
    return "n/a" if _missing(x) else f"{float(x) * 100:.{digits}f}%"


def ms(ns, digits=1):
    return "n/a" if _missing(ns) else f"{float(ns) / 1e6:.{digits}f}"


def markdown(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- inputs


def folder(out, name):
    path = os.path.join(out, name)
    if not os.path.isdir(path):
        raise InputError(f"{path}: missing (does docs/paper.md still show a command with "
                         f"--out {DOC_OUT_PREFIX}{name}?)")
    return path


def summary(run_dir):
    path = os.path.join(run_dir, "summary.json")
    if not os.path.isfile(path):
        raise InputError(f"{path}: missing")
    with open(path) as f:
        return json.load(f)


def flows(run_dir):
    path = os.path.join(run_dir, "flows.csv")
    if not os.path.isfile(path):
        raise InputError(f"{path}: missing")
    return pd.read_csv(path, keep_default_na=False, na_values={"finish_ns": [""]})


def sweep(sweep_dir):
    path = os.path.join(sweep_dir, "sweep.csv")
    if not os.path.isfile(path):
        raise InputError(f"{path}: missing")
    return pd.read_csv(path)


def row(table, where, source):
    """The one row of a sweep table whose varied keys have the given values."""
    sel = pd.Series(True, index=table.index)
    for key, value in where.items():
        if key not in table.columns:
            raise InputError(f"{source}: no column {key}")
        sel &= table[key].astype(str) == str(value)
    if sel.sum() != 1:
        raise InputError(f"{source}: {sel.sum()} runs with {where}, expected one")
    return table[sel].iloc[0]


def column(r, name, source):
    if name not in r.index:
        raise InputError(f"{source}: no column {name}")
    return r[name]


# ---------------------------------------------------------------- tables


def buffer_output(out, k):
    """The output of the doc's k-th `dcqcn buffer` command (1-based) as a code block."""
    path = os.path.join(out, "buffer", f"{k}.txt")
    if not os.path.isfile(path):
        raise InputError(f"{path}: missing (the output of the doc's `dcqcn buffer` command "
                         f"number {k})")
    with open(path) as f:
        text = f.read().rstrip("\n")
    return "```\n" + text + "\n```\n"


def table_buffer(out):
    return buffer_output(out, 1)


def table_buffer_cable(out):
    return buffer_output(out, 2)


def table_startup(out):
    rows = []
    for label, name in STARTUP.items():
        d = folder(out, name)
        s = summary(d)
        lowest, reached = "n/a", "n/a"
        rate_csv = os.path.join(d, "timeseries", "rate.csv")
        if s["cc"]["algorithm"] != "none" and os.path.isfile(rate_csv):
            r = pd.read_csv(rate_csv)
            low = r.groupby("flow_id")["rc_gbps"].min()
            # When every flow had reached its lowest rate (the start-up cuts are over).
            first = r.merge(low.rename("low"), on="flow_id")
            first = first[first["rc_gbps"] <= first["low"]].groupby("flow_id")["time_ns"].min()
            lowest = num(low.min(), 3)
            reached = ms(first.max() - s["active_start_ns"], 2)
        rows.append([label, lowest, reached, ms(s["sim_time_ns"] - s["active_start_ns"], 2),
                     pct(s["max_link_utilisation"]), kb(s["max_queue_bytes"]),
                     count(s["pfc_pause_frames"]), num(s["flow_throughput_gbps"]["mean"])])
    return markdown(["8:1 incast of 1 MB", "lowest rate (Gb/s)", "all flows at it by (ms)",
                     "all finished at (ms)", "bottleneck busy", "peak queue (KB)",
                     "PAUSE frames", "flow throughput (Gb/s)"], rows)


def table_unfairness(out):
    rows, hosts = [], None
    for label, name in UNFAIRNESS.items():
        d = folder(out, name)
        s, f = summary(d), flows(d).sort_values("flow_id")
        these = [f"H{src}" for src in f["src"]]
        if hosts is not None and these != hosts:
            raise InputError(f"{d}/flows.csv: senders {these}, expected {hosts}")
        hosts = these
        rows.append([label] + [num(v) for v in f["avg_gbps"]] +
                    [num(s["flow_throughput_gbps"]["mean"]),
                     num(s["jain_fairness"], 3), count(s["pfc_pause_frames"])])
    return markdown(["Gb/s"] + hosts + ["mean", "Jain fairness", "PAUSE frames"], rows)


def table_victim(out):
    d = folder(out, VICTIM)
    t, src = sweep(d), os.path.join(d, "sweep.csv")
    senders = sorted(t["workload.senders"].unique())
    algos = [("none", "PFC alone"), ("dcqcn", "DCQCN")]
    lines = [("victim (Gb/s)", "tag.victim.flow_throughput_gbps.mean", num),
             ("each incast flow, mean (Gb/s)", "tag.incast.flow_throughput_gbps.mean", num),
             ("PAUSE frames", "pfc_pause_frames", count)]
    rows = []
    for label, col, fmt in lines:
        for algo, algo_label in algos:
            cells = [fmt(column(row(t, {"workload.senders": n, "cc.algorithm": algo}, src), col,
                                src)) for n in senders]
            rows.append([f"{label}, {algo_label}"] + cells)
    return markdown(["incast senders"] + [str(n) for n in senders], rows)


def _phases(f, end_ns):
    """(from, to, flow ids) of each period with a constant set of active flows."""
    stops = f["finish_ns"].fillna(end_ns)
    changes = sorted(set(f["start_ns"]) | set(stops) | {end_ns})
    out = []
    for a, b in zip(changes, changes[1:]):
        if a >= end_ns:
            break
        ids = [int(i) for i, s, e in zip(f["flow_id"], f["start_ns"], stops) if s <= a < e]
        if ids:
            out.append((a, b, ids))
    return out


def table_convergence_phases(out):
    d = folder(out, CONVERGENCE)
    s, f = summary(d), flows(d)
    path = os.path.join(d, "timeseries", "throughput.csv")
    if not os.path.isfile(path):
        raise InputError(f"{path}: missing (convergence.toml must record throughput)")
    ts = pd.read_csv(path)
    goodput = 40 * 1000 / 1086  # 40 Gb/s links, 1000-byte payloads in 1086-byte frames
    ids = sorted(int(i) for i in f["flow_id"])
    rows = []
    for a, b, active in _phases(f, float(s["sim_time_ns"])):
        tail = ts[(ts["time_ns"] > b - PHASE_TAIL_NS) & (ts["time_ns"] <= b)]
        means = tail.groupby("flow_id")["gbps"].mean()
        cells = [num(means.get(i)) if i in active else "" for i in ids]
        rows.append([f"{ms(a)}-{ms(b)}", str(len(active)), num(goodput / len(active))] + cells)
    return markdown(["phase (ms)", "flows", "fair share (Gb/s)"] + [f"f{i}" for i in ids], rows)


def table_convergence(out):
    d = folder(out, CONVERGENCE)
    s, f = summary(d), flows(d)
    c = s["convergence"]
    rows = [[f"f{int(r.flow_id)}", ms(r.start_ns), "" if _missing(r.finish_ns)
             else ms(r.finish_ns), num(r.avg_gbps)] for r in f.itertuples()]
    per_flow = markdown(["flow", "start (ms)", "finish (ms)", "avg_gbps"], rows)
    fields = markdown(
        ["measured period (ms)", "flows", "window", "tolerance", "convergence time (ms)",
         "status", "Jain fairness (whole run)"],
        [[f"{ms(c['period_from_ns'])}-{ms(c['period_to_ns'])}", c["flows"],
          f"{ms(c['window_ns'], 0)} ms", f"{c['tolerance'] * 100:g}%",
          ms(c["time_ns"]), c["status"], num(s["jain_fairness"], 3)]])
    return per_flow + "\n" + fields


def table_incast(out):
    d = folder(out, INCAST)
    t, src = sweep(d), os.path.join(d, "sweep.csv")
    rows = []
    for n in sorted(t["workload.senders"].unique()):
        dc = row(t, {"workload.senders": n, "cc.algorithm": "dcqcn"}, src)
        pf = row(t, {"workload.senders": n, "cc.algorithm": "none"}, src)
        rows.append([str(n), kb(dc["bottleneck.mean_queue_bytes"]),
                     kb(dc["bottleneck.std_queue_bytes"]), kb(dc["max_queue_bytes"], 0),
                     count(dc["pfc_pause_frames"]), _last_pause(d, dc),
                     pct(dc["bottleneck.utilisation"]),
                     kb(pf["bottleneck.mean_queue_bytes"], 0), count(pf["pfc_pause_frames"]),
                     pct(pf["bottleneck.utilisation"])])
    return markdown(["senders", "DCQCN mean queue (KB)", "DCQCN std (KB)",
                     "DCQCN max queue (KB)", "DCQCN PAUSE", "DCQCN last PAUSE (ms)",
                     "DCQCN utilisation", "PFC-only mean queue (KB)", "PFC-only PAUSE",
                     "PFC-only utilisation"], rows)


def _last_pause(sweep_dir, r):
    """When the last PAUSE frame was received (timeseries/pfc.csv); "" without any."""
    if _missing(r["pfc_pause_frames"]) or int(r["pfc_pause_frames"]) == 0:
        return ""
    path = os.path.join(sweep_dir, r["dir"], "timeseries", "pfc.csv")
    if not os.path.isfile(path):
        raise InputError(f"{path}: missing (the scenario must record pfc)")
    p = pd.read_csv(path)
    p = p[p["paused"] == 1]
    return ms(p["time_ns"].max(), 2) if len(p) else ""


def table_stability(out):
    tables = {k: (folder(out, v), sweep(folder(out, v))) for k, v in STABILITY.items()}
    rows = []
    senders = sorted(tables["default"][1]["workload.senders"].unique())
    for n in senders:
        r = {k: row(t, {"workload.senders": n}, os.path.join(d, "sweep.csv"))
             for k, (d, t) in tables.items()}
        rows.append([str(n)] + [f"{kb(r[k]['bottleneck.mean_queue_bytes'])} / "
                                f"{kb(r[k]['bottleneck.std_queue_bytes'])}" for k in STABILITY] +
                    [" / ".join(pct(r[k]["bottleneck.utilisation"]) for k in STABILITY),
                     " / ".join(num(r[k]["max_queue_bytes"] / 1e6) for k in STABILITY),
                     " / ".join(count(r[k]["pfc_pause_frames"]) for k in STABILITY)])
    return markdown(["N", "default: mean / std of queue (KB)", "fix: mean / std of queue (KB)",
                     "utilisation default / fix", "max queue default / fix (MB)",
                     "PAUSE default / fix"], rows)


def _first_cuts(run_dir, start_ns):
    """(flows in rate.csv, when the last of them was first cut below its starting rate, in ns
    after start_ns; None if one never was) from a run's timeseries/rate.csv."""
    path = os.path.join(run_dir, "timeseries", "rate.csv")
    if not os.path.isfile(path):
        raise InputError(f"{path}: missing (cnp_limit.toml must record rate)")
    r = pd.read_csv(path).sort_values(["flow_id", "time_ns"], kind="stable")
    start = r.groupby("flow_id")["rc_gbps"].transform("first")
    cut = r[r["rc_gbps"] < start].groupby("flow_id")["time_ns"].min()
    flows = r["flow_id"].nunique()
    return flows, (cut.max() - start_ns if len(cut) == flows and flows else None)


def _paused_share(run_dir, s, senders):
    """The mean share of the active interval that a sender's link was paused: each PAUSE frame
    a host received (timeseries/pfc.csv) pauses its (port, priority) until the RESUME that
    follows it, or until the end of the run."""
    path = os.path.join(run_dir, "timeseries", "pfc.csv")
    if not os.path.isfile(path):
        raise InputError(f"{path}: missing (cnp_limit.toml must record pfc)")
    p = pd.read_csv(path)
    p = p[p["node"].astype(str).str.startswith("h")]
    end, start = float(s["sim_time_ns"]), float(s["active_start_ns"])
    paused = 0.0
    for _, g in p.sort_values("time_ns", kind="stable").groupby(["node", "port", "priority"]):
        since = None
        for t, on in zip(g["time_ns"], g["paused"]):
            if on == 1 and since is None:
                since = t
            elif on == 0 and since is not None:
                paused += t - since
                since = None
        if since is not None:
            paused += end - since
    return paused / (senders * (end - start)) if senders and end > start else None


def table_cnp_limit(out):
    d = folder(out, CNP_LIMIT)
    t, src = sweep(d), os.path.join(d, "sweep.csv")
    rows = []
    for n in sorted(t["workload.senders"].unique()):
        for key, label in CNP_GENERATORS.items():
            r = row(t, {"workload.senders": n, "cc.cnp_service_time": key}, src)
            run_dir = os.path.join(d, r["dir"])
            s = summary(run_dir)
            flows, last_cut = _first_cuts(run_dir, float(s["active_start_ns"]))
            cut = "never" if last_cut is None else num(last_cut / 1e3, 0)
            rows.append([str(n), label, cut, count(r["cnps"]), num(r["max_queue_bytes"] / 1e6),
                         count(r["pfc_pause_frames"]), _last_pause(d, r),
                         pct(_paused_share(run_dir, s, int(n))),
                         pct(r["bottleneck.utilisation"])])
    return markdown(["senders", "CNP generator", "last flow's first cut (us)", "CNPs",
                     "peak queue (MB)", "PAUSE frames", "last PAUSE (ms)", "senders paused",
                     "bottleneck busy"], rows)


# summary.json convergence.status -> the table's short form.
STATUS_SHORT = {
    "not converged: the last window of the period is not fair": "no: last window unfair",
    "not converged: fair for less than two windows before the period ends":
        "no: fair < 2 windows",
}


def table_sensitivity(out):
    rows = []
    for name, knob, value in SENSITIVITY:
        d = folder(out, name)
        t = sweep(d)
        label = knob
        for _, r in t.iterrows():
            v = value(r)
            if PAPER_VALUES.get(knob) == v:
                v += " (paper)"
            conv = r["convergence_time_ns"]
            if _missing(conv):
                status = summary(os.path.join(d, r["dir"]))["convergence"]["status"]
                conv = STATUS_SHORT.get(status, status)
            else:
                conv = ms(conv)
            rows.append([label, v, kb(r["bottleneck.mean_queue_bytes"]),
                         kb(r["bottleneck.std_queue_bytes"]),
                         pct(r["bottleneck.utilisation"]), num(r["jain_fairness"], 3), conv])
            label = ""
    return markdown(["knob", "value", "mean queue (KB)", "std (KB)", "utilisation",
                     "Jain fairness", "convergence time (ms)"], rows)


TABLES = {
    "startup": table_startup,
    "buffer": table_buffer,
    "buffer-cable": table_buffer_cable,
    "unfairness": table_unfairness,
    "victim": table_victim,
    "convergence-phases": table_convergence_phases,
    "convergence": table_convergence,
    "incast": table_incast,
    "stability": table_stability,
    "sensitivity": table_sensitivity,
    "cnp-limit": table_cnp_limit,
}


# ---------------------------------------------------------------- the doc


def doc_commands(text):
    """The `dcqcn` commands in the doc's code blocks (indented or fenced, outside table blocks),
    continuation lines joined, in order."""
    commands, in_fence, in_table, pending = [], False, False, None
    for line in text.splitlines():
        stripped = line.strip()
        if re.fullmatch(rf"<!-- table:{TABLE_NAME} -->", stripped):
            in_table = True
        elif re.fullmatch(rf"<!-- /table:{TABLE_NAME} -->", stripped):
            in_table = False
        if in_table:
            continue
        if stripped.startswith("```"):
            in_fence = not in_fence
            continue
        code = in_fence or line.startswith("    ")
        if pending is not None:
            pending += " " + stripped.rstrip("\\").strip()
            if not stripped.endswith("\\"):
                commands.append(pending)
                pending = None
            continue
        if code and stripped.startswith("dcqcn "):
            if stripped.endswith("\\"):
                pending = stripped.rstrip("\\").strip()
            else:
                commands.append(stripped)
    if pending is not None:
        commands.append(pending)
    return commands


def rewrite(command, out, jobs, index=0):
    """(capture file, argv without `dcqcn`) of one doc command, its results under `out`;
    `index` numbers the doc's `dcqcn buffer` commands from 1."""
    argv = shlex.split(command)
    if argv[0] != "dcqcn" or len(argv) < 2:
        raise InputError(f"not a dcqcn command: {command}")
    sub = argv[1]
    if sub in ("run", "sweep"):
        if "--out" not in argv or not argv[argv.index("--out") + 1].startswith(DOC_OUT_PREFIX):
            raise InputError(f"`{command}`: give --out {DOC_OUT_PREFIX}NAME (the script puts "
                             "NAME under its output folder)")
    args = [os.path.join(out, a[len(DOC_OUT_PREFIX):]) if a.startswith(DOC_OUT_PREFIX) else a
            for a in argv[1:]]
    if sub == "sweep" and "--jobs" not in args:
        args += ["--jobs", str(jobs)]
    if sub == "buffer":
        capture = os.path.join(out, "buffer", f"{index}.txt")
    else:
        name = os.path.basename(args[args.index("--out") + 1]) if "--out" in args else sub
        capture = os.path.join(out, "logs", f"{name}.log")
    return capture, args


def blocks(text):
    """{name: content} of the doc's table blocks."""
    found = {}
    pattern = re.compile(rf"<!-- table:({TABLE_NAME}) -->\n(.*?)<!-- /table:\1 -->", re.S)
    for m in pattern.finditer(text):
        if m.group(1) in found:
            raise InputError(f"table {m.group(1)} appears twice in the doc")
        found[m.group(1)] = m.group(2)
    return found


def generated(out):
    d = os.path.join(out, "tables")
    result = {}
    for name in TABLES:
        path = os.path.join(d, name + ".md")
        if not os.path.isfile(path):
            raise InputError(f"{path}: missing (run the tables step first)")
        with open(path) as f:
            result[name] = f.read()
    return result


def write_tables(out):
    d = os.path.join(out, "tables")
    os.makedirs(d, exist_ok=True)
    for name, make in TABLES.items():
        text = make(out)
        tmp = os.path.join(d, f".{name}.md.tmp")
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, os.path.join(d, name + ".md"))
    return sorted(TABLES)


def differences(text, tables):
    """Names of the doc's tables that differ from the generated ones, and of tables missing on
    either side, each with a reason."""
    in_doc = blocks(text)
    problems = []
    for name in sorted(set(in_doc) | set(tables)):
        if name not in tables:
            problems.append(f"{name}: in the doc, but no such table is generated")
        elif name not in in_doc:
            problems.append(f"{name}: generated, but the doc has no <!-- table:{name} --> block")
        elif in_doc[name].strip() != tables[name].strip():
            problems.append(f"{name}: differs from the generated table")
    return problems


def update(text, tables):
    missing = [n for n in blocks(text) if n not in tables]
    if missing:
        raise InputError(f"the doc has blocks no table is generated for: {', '.join(missing)}")

    def replace(m):
        name = m.group(1)
        return f"<!-- table:{name} -->\n{tables[name].rstrip()}\n<!-- /table:{name} -->"

    return re.sub(rf"<!-- table:({TABLE_NAME}) -->\n(.*?)<!-- /table:\1 -->", replace, text,
                  flags=re.S)


def doc_figures(text):
    return re.findall(r"!\[[^\]]*\]\(figures/([^)]+)\)", text)


def figure_sources(text, out):
    """(run folder to report, report figure name, doc figure name) of every figure in the doc."""
    result = []
    for name in doc_figures(text):
        if name not in FIGURES:
            raise InputError(f"the doc shows figures/{name}, which python/paper_tables.py "
                             "does not know how to make (add it to FIGURES)")
        where, select, figure = FIGURES[name]
        d = folder(out, where)
        if select:
            t = sweep(d)
            d = os.path.join(d, row(t, select, os.path.join(d, "sweep.csv"))["dir"])
        result.append((d, figure, name))
    return result


# ---------------------------------------------------------------- command line


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("commands")
    p.add_argument("doc")
    p.add_argument("out")
    p.add_argument("--jobs", type=int, default=1)
    sub.add_parser("tables").add_argument("out")
    for name in ("figures", "update", "check"):
        p = sub.add_parser(name)
        p.add_argument("doc")
        p.add_argument("out")
    args = parser.parse_args(argv)
    try:
        if args.cmd == "tables":
            names = write_tables(args.out)
            print(f"tables: {', '.join(names)} in {os.path.join(args.out, 'tables')}")
            return 0
        with open(args.doc) as f:
            text = f.read()
        if args.cmd == "commands":
            buffers = 0
            for command in doc_commands(text):
                buffers += shlex.split(command)[1:2] == ["buffer"]
                capture, cargs = rewrite(command, args.out, args.jobs, buffers)
                print(f"{capture}\t{shlex.join(cargs)}")
        elif args.cmd == "figures":
            for d, figure, name in figure_sources(text, args.out):
                print(f"{d}\t{figure}\t{name}")
        elif args.cmd == "update":
            new = update(text, generated(args.out))
            problems = differences(new, generated(args.out))
            if problems:
                raise InputError("; ".join(problems))
            if new != text:
                tmp = args.doc + ".tmp"
                with open(tmp, "w") as f:
                    f.write(new)
                os.replace(tmp, args.doc)
                print(f"updated the tables of {args.doc}")
            else:
                print(f"{args.doc}: tables already up to date")
        elif args.cmd == "check":
            problems = differences(text, generated(args.out))
            for p in problems:
                print(f"{args.doc}: table {p}", file=sys.stderr)
            if problems:
                return 1
            print(f"{args.doc}: all {len(blocks(text))} tables match the generated ones")
        return 0
    except InputError as e:
        print(f"paper_tables: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
