"""The report of a `dcqcn run` output folder: its figures and index.html (drawn for `dcqcn report
DIR` by dcqcn_report.py, the command line; with --runs, for each run of a sweep too).

Reads DIR/{summary.json, flows.csv, links.csv, resolved.toml, timeseries/*.csv} (any but
summary.json may be absent; a run with [[collective]] tables also gets their figures and table,
from summary.json's collectives) and writes DIR/report/index.html and
DIR/report/<figure>.<format>, each to a temporary name renamed when complete. The headline
numbers (FCT slowdown, flow throughput, Jain fairness, per tag too) are summary.json's: they are
defined once, in the simulator; this module only draws and lays out. It imports the shared helpers
(dcqcn/_report_common.py) and the unit parser (dcqcn/units.py), never the sweep or fluid
report.
"""

import html
import json
import os
import re
import sys

import matplotlib.ticker
import numpy as np
import pandas as pd

from dcqcn._report_common import (MISSING, NA, ReportError, draw_figures, fmt_kb, fmt_num, get,
                                  legend_outside, line_colors, not_a_command, page_html, plt,
                                  read_csv, read_summary, sections_table_html, figures_html,
                                  subplots, write_atomic)
from dcqcn.units import parse_size


# Plot budgets: a fat-tree run has millions of rows; a PNG a thousand pixels wide shows no more.
MAX_POINTS = 1500  # time bins per plotted series
MAX_POINTS_OVERLAID = 500  # fewer when many noisy lines overlap, so each stays legible
MAX_FLOW_LINES = 16  # more flows than this: a percentile band instead of one line each
MAX_RATE_FLOWS = 8  # rate traces drawn without a selection (evenly chosen by flow id)
MAX_QUEUE_PORTS = 8  # busiest ports drawn
MAX_PFC_ROWS = 40  # (node, port, priority) rows of the paused-fraction map, most paused kept
PFC_BINS = 200  # time bins of the paused-fraction map
MIN_FLOWS_FOR_CDF = 20
MAX_FLOW_BARS = 200  # FCT per flow of one size: more flows than this are grouped into as many bins
MAX_SIZE_BINS = 20  # FCT-vs-size bins (HPCC's fct_analysis.py uses 20 by default)
MIN_FLOWS_PER_SIZE_BIN = 25  # fewer bins for fewer flows, so each bin's p99 means something
LATE_TOLERANCE = 1.01  # a collective's late flows all within 1% of their ideal: nothing to draw

TIME_LABEL = "time since first flow start (ms)"

FIGURES = ["throughput", "rate", "queue", "pfc", "fct_cdf", "fct_size", "collective_iterations",
           "collective_late_flows", "job_timeline"]
# The job timeline's rows: at most this many ranks.
TIMELINE_RANKS = 16


# ---------------------------------------------------------------------------------------------
# Reading


def read_run(run_dir):
    """Everything the report needs from a run folder, as a dict."""
    if not os.path.isdir(run_dir):
        raise ReportError(f"{run_dir}: no such folder (expected a `dcqcn run` output folder)")
    summary_path = os.path.join(run_dir, "summary.json")
    if not os.path.isfile(summary_path):
        raise ReportError(f"{run_dir}: no summary.json or sweep.csv (expected the output folder "
                          "of `dcqcn run` or `dcqcn sweep`)")
    summary = read_summary(run_dir)

    resolved = ""
    resolved_path = os.path.join(run_dir, "resolved.toml")
    if os.path.isfile(resolved_path):
        with open(resolved_path, encoding="utf-8", errors="replace") as f:
            resolved = f.read()

    ts = os.path.join(run_dir, "timeseries")
    collectives = summary.get("collectives")
    return {
        "dir": run_dir,
        "summary": summary,
        "collectives": [c for c in collectives if isinstance(c, dict)]
                       if isinstance(collectives, list) else [],
        "resolved": resolved,
        "config": parse_toml(resolved),
        "flows": read_csv(
            os.path.join(run_dir, "flows.csv"),
            {"flow_id": "int64", "src": "int64", "dst": "int64", "size_bytes": "float64",
             "start_ns": "float64", "finish_ns": "float64", "fct_ns": "float64",
             "ideal_fct_ns": "float64", "slowdown": "float64"},
            optional={"tag": "", "src_node": "", "dst_node": ""}),
        **read_links(os.path.join(run_dir, "links.csv")),
        "throughput": read_csv(os.path.join(ts, "throughput.csv"),
                               {"time_ns": "float64", "flow_id": "int64", "gbps": "float64"}),
        "rate": read_csv(os.path.join(ts, "rate.csv"),
                         {"time_ns": "float64", "flow_id": "int64", "rc_gbps": "float64",
                          "rt_gbps": "float64", "alpha": "float64"}),
        "queue": read_csv(os.path.join(ts, "queue.csv"),
                          {"time_ns": "float64", "switch": "category", "port": "int64",
                           "queue_bytes": "float64", "tx_gbps": "float64"}),
        "pfc": read_pfc(os.path.join(ts, "pfc.csv")),
        "job_timeline": read_csv(
            os.path.join(run_dir, "job_timeline.csv"),
            {"job": "str", "iteration": "int64", "rank": "int64", "stage": "int64",
             "micro_batch": "int64", "phase": "str", "start_ns": "float64",
             "end_ns": "float64"}),
        "jobs": read_csv(os.path.join(run_dir, "jobs.csv"),
                         {"job": "str", "iteration": "int64", "rank": "int64",
                          "start_ns": "float64", "end_ns": "float64"}),
    }


def read_pfc(path):
    return read_csv(path, {"time_ns": "float64", "node": "category", "port": "int64",
                           "priority": "int64", "paused": "int64"})


def read_links(path):
    """{"links": {(node, port): peer}, "node_ids": {node: its HPCC node id}, "utilisation":
    {(node, port): share of its line rate it sent}} from links.csv; the ids only from an HPCC
    topology file (links.csv's node_id column), the utilisation where the file has it, all empty
    when the file is absent (older folders)."""
    df = read_csv(path, {"node": str, "port": "int64", "peer": str},
                  optional={"node_id": "", "utilisation": ""})
    if df is None:
        return {"links": {}, "node_ids": {}, "utilisation": {}}
    util = pd.to_numeric(df["utilisation"], errors="coerce")
    return {"links": {(n, int(p)): peer for n, p, peer in zip(df["node"], df["port"], df["peer"])},
            "node_ids": {n: i for n, i in zip(df["node"], df["node_id"]) if i != ""},
            "utilisation": {(n, int(p)): float(u) for n, p, u in zip(df["node"], df["port"], util)
                            if pd.notna(u)}}


def node_label(run, node):
    """"h185", or from an HPCC topology file "h185 (node 187)": the name our files use and the
    id of that simulator's topology, flow, FCT and PFC files."""
    node_id = run["node_ids"].get(str(node)) if run else None
    return f"{node} (node {node_id})" if node_id else str(node)


def parse_toml(text):
    if not text:
        return {}
    try:
        import tomllib  # Python 3.11 (Debian bookworm's /usr/bin/python3)
        return tomllib.loads(text)
    except Exception:  # an older Python or a file we cannot parse: ECN lines are optional
        return {}



def select_flows(flows, flow_ids, tags):
    """The flow ids that --flows and --tags choose (their union, sorted), or None when neither
    was given. Unknown ids or tags are an input error naming what the run has."""
    if not flow_ids and not tags:
        return None
    if flows is None:
        raise ReportError("--flows and --tags need the run's flows.csv, and there is none")
    known = set(int(i) for i in flows["flow_id"])
    unknown = [i for i in flow_ids or [] if i not in known]
    if unknown:
        raise ReportError(f"--flows: no flow {', '.join(map(str, unknown))} in this run (flow ids "
                          f"{min(known)}\u2013{max(known)})" if known else "--flows: no flows")
    run_tags = sorted(set(flows["tag"]) - {""})
    missing = [t for t in tags or [] if t not in run_tags]
    if missing:
        raise ReportError(f"--tags: no flow tagged {', '.join(missing)} in this run (its tags: "
                          f"{', '.join(run_tags) or 'none'})")
    chosen = set(flow_ids or []) | set(flows.loc[flows["tag"].isin(tags or []), "flow_id"])
    return sorted(int(i) for i in chosen)


# ---------------------------------------------------------------------------------------------
# Shaping data for plots


def time_range_ns(run):
    """(start, end) of every time axis: the first flow's start (summary.json's active_start_ns;
    HPCC inputs start at 2 s) to the simulated time, or to the last sample if later."""
    s = run["summary"]
    end = float(s.get("sim_time_ns") or 0)
    for name in ("throughput", "rate", "queue", "pfc"):
        df = run[name]
        if df is not None and len(df):
            end = max(end, float(df["time_ns"].max()))
    start = float(s.get("active_start_ns") or 0)
    return min(start, end), end


def rel_ms(run, t_ns):
    """Time since the first flow's start, in ms."""
    return (t_ns - run["t0_ns"]) / 1e6


def add_time_bins(df, max_points=MAX_POINTS):
    """Adds a `bin` column that groups the rows' sample times into at most `max_points` bins (one
    bin per sample time when there are few enough)."""
    t = df["time_ns"].to_numpy()
    if df["time_ns"].nunique() <= max_points:
        df["bin"] = t
        return df
    t0, t1 = float(t.min()), float(t.max())
    width = (t1 - t0) / max_points
    df["bin"] = np.minimum(((t - t0) / width).astype(np.int64), max_points - 1)
    return df


def downsample(df, keys, values, how="mean", keep_bin=False, max_points=MAX_POINTS):
    """One row per (keys..., time bin): `values` aggregated with `how`, time the bin's mean."""
    df = add_time_bins(df[["time_ns", *keys, *values]].copy(), max_points)
    agg = {"time_ns": "mean", **{v: how for v in values}}
    out = df.groupby([*keys, "bin"], sort=True, observed=True).agg(agg).reset_index()
    return out if keep_bin else out.drop(columns="bin")


def pause_intervals(pfc, end_ns):
    """Paused intervals per (node, port, priority) from PFC frames: an interval runs from a pause
    (paused=1) to the next resume at the same (node, port, priority); repeated pauses while
    paused (refreshes) extend it; a pause with no resume after it lasts to `end_ns`. Returns a
    DataFrame node, port, priority, start_ns, end_ns sorted by key and start."""
    cols = ["node", "port", "priority", "start_ns", "end_ns"]
    if pfc is None or len(pfc) == 0:
        return pd.DataFrame({c: pd.Series(dtype="float64") for c in cols})
    df = pfc.assign(seq=np.arange(len(pfc)))  # frames at equal times keep their file order
    df = df.sort_values(["node", "port", "priority", "time_ns", "seq"]).reset_index(drop=True)
    node = df["node"].astype(str).to_numpy()
    port = df["port"].to_numpy()
    prio = df["priority"].to_numpy()
    t = df["time_ns"].to_numpy(dtype=np.float64)
    paused = df["paused"].to_numpy() != 0
    n = len(df)

    new_key = np.ones(n, dtype=bool)
    new_key[1:] = (node[1:] != node[:-1]) | (port[1:] != port[:-1]) | (prio[1:] != prio[:-1])
    group = np.cumsum(new_key)
    was_paused = np.zeros(n, dtype=bool)
    was_paused[1:] = paused[:-1]
    was_paused[new_key] = False
    start_pos = np.flatnonzero(paused & ~was_paused)
    end_pos = np.flatnonzero(~paused & was_paused)
    # Starts and ends alternate within a key, so a start's end is the first end after it, if
    # that end belongs to the same key.
    j = np.searchsorted(end_pos, start_pos)
    has_end = j < len(end_pos)
    has_end[has_end] = group[end_pos[j[has_end]]] == group[start_pos[has_end]]
    ends = np.full(len(start_pos), float(end_ns))
    ends[has_end] = t[end_pos[j[has_end]]]
    ends = np.maximum(ends, t[start_pos])
    return pd.DataFrame({"node": node[start_pos], "port": port[start_pos],
                         "priority": prio[start_pos], "start_ns": t[start_pos],
                         "end_ns": ends})


def paused_fraction(starts, ends, edges):
    """The share of each time bin [edges[i], edges[i+1]) covered by the intervals of one key
    (sorted, not overlapping, as pause_intervals returns them)."""
    s = np.asarray(starts, dtype=float)
    e = np.asarray(ends, dtype=float)
    t = np.asarray(edges, dtype=float)
    # Paused time up to each edge: the intervals that ended before it plus the one it is in.
    done = np.concatenate([[0.0], np.cumsum(e - s)])
    k = np.searchsorted(e, t, side="right")
    covered = done[k]
    if len(s):
        sk = s[np.minimum(k, len(s) - 1)]
        covered = covered + np.where((k < len(s)) & (sk < t), t - sk, 0.0)
    return np.diff(covered) / np.diff(t)


def natural_key(name):
    """Sort key for node names: h2 before h10, hosts before switches."""
    m = re.fullmatch(r"([A-Za-z_]*)(\d+)", str(name))
    return (m.group(1), int(m.group(2)), "") if m else (str(name), -1, str(name))


def link_label(run, node, port):
    """"s0 port 3 \u2192 h2": the port and, from links.csv, what it sends to (with HPCC node ids,
    node_label)."""
    peer = run["links"].get((str(node), int(port)))
    return f"{node_label(run, node)} port {port}" + (
        f" \u2192 {node_label(run, peer)}" if peer else "")


def flow_label(flow_id, flows):
    """"flow 3 (h1\u2192h0)"; from an HPCC topology file "flow 3 (node 2\u2192node 1)", the ids
    of its flow file (flows.csv's src_node, dst_node)."""
    if flows is not None and flow_id in flows.index:
        row = flows.loc[flow_id]
        tag = f", {row['tag']}" if row.get("tag") else ""
        if row.get("src_node") and row.get("dst_node"):
            return f"flow {flow_id} (node {row['src_node']}\u2192node {row['dst_node']}{tag})"
        return f"flow {flow_id} (h{int(row['src'])}\u2192h{int(row['dst'])}{tag})"
    return f"flow {flow_id}"


def bin_note(df, max_points):
    """", averaged over 40 µs" when add_time_bins would merge samples, else ""."""
    if df["time_ns"].nunique() <= max_points:
        return ""
    width_us = (df["time_ns"].max() - df["time_ns"].min()) / max_points / 1e3
    return f", averaged over {width_us:.3g} \u00b5s bins"


def plural(n, word):
    return f"{n} {word}" + ("" if n == 1 else "s")


def pick_evenly(ids, k):
    ids = sorted(ids)
    if len(ids) <= k:
        return ids
    return [ids[i] for i in np.linspace(0, len(ids) - 1, k).round().astype(int)]


def fmt_bytes(v):
    """A size tick: 1000 -> "1KB", 2.5e6 -> "2.5MB" (decimal units, as the scenarios write)."""
    for scale, unit in ((1e9, "GB"), (1e6, "MB"), (1e3, "KB")):
        if v >= scale:
            return f"{v / scale:g}{unit}"
    return f"{v:g}B"


def time_unit(ns):
    """(ns per unit, unit) in which a duration of `ns` reads well: ms from 1 ms, else µs."""
    return (1e6, "ms") if ns >= 1e6 else (1e3, "\u00b5s")


def fmt_duration(ns):
    """"1.487 ms", "211.3 \u00b5s"; NA for null."""
    if not isinstance(ns, (int, float)) or isinstance(ns, bool):
        return NA
    scale, unit = time_unit(abs(ns))
    return f"{ns / scale:.4g} {unit}"


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and np.isfinite(v)


def collective_label(c):
    """"collective0 (allreduce, ring, 8 ranks, 8MB)": summary.json's collective by its tag."""
    ranks = c.get("ranks")
    what = [str(c[k]) for k in ("op", "algorithm") if c.get(k)]
    if isinstance(ranks, list):
        what.append(plural(len(ranks), "rank"))
    if is_number(c.get("size_bytes")):
        what.append(fmt_bytes(c["size_bytes"]))
    return f"{c.get('tag', '?')} ({', '.join(what)})" if what else str(c.get("tag", "?"))


def busiest_hop(run, path):
    """(node, port, utilisation) of the most utilised port on a flow's path (summary.json's
    "node:port" list of the ports that send its data), by links.csv; None when links.csv gives
    none of them a utilisation."""
    best = None
    for hop in path or []:
        node, _, port = str(hop).rpartition(":")
        try:
            key = (node, int(port))
        except ValueError:
            continue
        u = run["utilisation"].get(key)
        if u is not None and (best is None or u > best[2]):
            best = (node, key[1], u)
    return best


def finished_flows(run):
    flows = run["flows"]
    if flows is None:
        return None
    done = flows[flows["finish_ns"].notna() & flows["fct_ns"].notna()]
    return done if len(done) else None


def slowdown_by_size(done):
    """FCT slowdown percentiles per flow-size bin, as HPCC's fct_analysis.py computes them: the
    flows sorted by size and cut into bins of equal flow count, each bin placed at its largest
    size. The number of bins grows with the flows (MIN_FLOWS_PER_SIZE_BIN each, at most
    MAX_SIZE_BINS). Flows of one size stay in one bin (the first they reach), so no two bins
    share an x; when there are no more distinct sizes than MAX_SIZE_BINS, simply one bin per
    size. Returns (DataFrame size, count, p50, p95, p99 sorted by size, "equal" or "size")."""
    d = done[["size_bytes", "slowdown"]].dropna().sort_values("size_bytes", kind="stable")
    n = len(d)
    bins = min(MAX_SIZE_BINS, max(1, n // MIN_FLOWS_PER_SIZE_BIN))
    if d["size_bytes"].nunique() <= MAX_SIZE_BINS:
        key, how = d["size_bytes"].to_numpy(), "size"
    else:
        equal = pd.Series(np.arange(n) * bins // max(n, 1), index=d.index)
        key, how = equal.groupby(d["size_bytes"]).transform("min").to_numpy(), "equal"
    g = d.groupby(key, sort=True)
    sd = g["slowdown"]
    out = pd.DataFrame({"size": g["size_bytes"].max(), "count": sd.size(),
                        "p50": sd.quantile(0.50), "p95": sd.quantile(0.95),
                        "p99": sd.quantile(0.99)}).reset_index(drop=True)
    return out, how


# ---------------------------------------------------------------------------------------------
# Figures. Each returns (figure, caption), or (None, a note saying why there is none, or None).


def style_time_axis(ax, run, label=False):
    span_ms = (run["end_ns"] - run["t0_ns"]) / 1e6
    ax.set_xlim(0, span_ms if span_ms > 0 else None)
    ax.grid(True, alpha=0.3)
    if label:
        ax.set_xlabel(TIME_LABEL)


def fig_throughput(run):
    tp = run["throughput"]
    if tp is None or len(tp) == 0:
        return None, None
    flows = run["flows_by_id"]
    all_ids = sorted(tp["flow_id"].unique())
    selection = run["selection"]
    per = tp if selection is None else tp[tp["flow_id"].isin(selection)]
    ids = sorted(per["flow_id"].unique())
    title = (f"Delivered throughput per flow ({plural(len(all_ids), 'flow')})" if selection is None
             else f"Delivered throughput of {plural(len(ids), 'selected flow')}")
    if len(all_ids) == 1:  # the aggregate would repeat the flow
        fig, ax = subplots(figsize=(11, 4.5))
        ax.set_title(title)
    else:
        fig, (ax_agg, ax) = subplots(2, 1, figsize=(11, 6.5), sharex=True,
                                         gridspec_kw={"height_ratios": [1, 2]})
        total = tp.groupby("time_ns", sort=True)["gbps"].sum().reset_index()
        total = downsample(total, [], ["gbps"])
        ax_agg.plot(rel_ms(run, total["time_ns"]), total["gbps"], color="black", lw=1.2,
                    label="all flows")
        peak = float(total["gbps"].max())
        # The selected tags' sums beside the total: e.g. what the victims get next to an incast.
        for i, tag in enumerate(run["tags"]):
            tag_ids = flows.index[flows["tag"] == tag]
            part = tp[tp["flow_id"].isin(tag_ids)].groupby("time_ns", sort=True)["gbps"].sum()
            part = downsample(part.reset_index(), [], ["gbps"])
            ax_agg.plot(rel_ms(run, part["time_ns"]), part["gbps"], lw=1.1,
                        color=plt.get_cmap("Set1")(i % 9), label=f"tag {tag}")
        ax_agg.set_ylabel("aggregate (Gb/s)")
        # Room above the peak: a flat line at line rate would otherwise sit on the frame.
        ax_agg.set_ylim(0, 1.15 * max(peak, 1e-9))
        ax_agg.set_title(title)
        legend_outside(ax_agg)
        style_time_axis(ax_agg, run)

    points = MAX_POINTS_OVERLAID if len(ids) > 1 else MAX_POINTS
    if not ids:
        ax.text(0.5, 0.5, "none of the selected flows delivered data", ha="center",
                transform=ax.transAxes, color="gray")
        what = "no line: the selected flows delivered nothing"
    elif len(ids) <= MAX_FLOW_LINES:
        per_flow = downsample(per, ["flow_id"], ["gbps"], max_points=points)
        color = line_colors(len(ids))
        for i, (fid, g) in enumerate(per_flow.groupby("flow_id", sort=True)):
            ax.plot(rel_ms(run, g["time_ns"]), g["gbps"], lw=1.0, color=color(i),
                    label=flow_label(fid, flows))
        legend_outside(ax, ncol=1)
        what = "one line per flow" if selection is None else "one line per selected flow"
    else:
        per_flow = downsample(per, ["flow_id"], ["gbps"], keep_bin=True, max_points=points)
        grouped = per_flow.groupby("bin", sort=True)
        t = rel_ms(run, grouped["time_ns"].mean().to_numpy())
        q = grouped["gbps"].quantile([0.05, 0.25, 0.5, 0.75, 0.95]).unstack()
        ax.fill_between(t, q[0.05], q[0.95], color="tab:blue", alpha=0.2, lw=0,
                        label="5th\u201395th percentile")
        ax.fill_between(t, q[0.25], q[0.75], color="tab:blue", alpha=0.4, lw=0,
                        label="25th\u201375th percentile")
        ax.plot(t, q[0.5], color="tab:blue", lw=1.2, label="median")
        ax.plot(t, grouped["gbps"].max().to_numpy(), color="tab:red", lw=0.7, ls=":",
                label="fastest flow")
        legend_outside(ax, title="across active flows" if selection is None
                       else "across selected flows")
        what = ("percentiles across the flows active at each time" if selection is None
                else "percentiles across the selected flows active at each time")
    ax.set_ylabel("per-flow throughput (Gb/s)")
    ax.set_ylim(bottom=0)
    style_time_axis(ax, run, label=True)
    if len(all_ids) == 1:
        caption = f"Delivered throughput of the run's one flow over time{bin_note(tp, points)}."
    else:
        tags = "".join(f", of the flows tagged {t}" for t in run["tags"])
        caption = (f"Delivered throughput over time: the sum of all {len(all_ids)} flows{tags} "
                   f"(top) and {what} (bottom{bin_note(tp, points)}).")
    return fig, caption


def fig_rate(run):
    algo = (run["summary"].get("cc") or {}).get("algorithm", "")
    if algo == "none":
        return None, ("No rate figure: congestion control is off (cc.algorithm = none), so "
                      "every sender runs at line rate.")
    rate = run["rate"]
    if rate is None or len(rate) == 0:
        return None, None
    flows = run["flows_by_id"]
    all_ids = rate["flow_id"].unique()
    selection = run["selection"]
    if selection is None:
        candidates, limit = all_ids, MAX_RATE_FLOWS
    else:
        candidates, limit = [i for i in selection if i in set(all_ids)], MAX_FLOW_LINES
        if not candidates:
            return None, "No rate figure: rate.csv has no samples of the selected flows."
    ids = pick_evenly(candidates, limit)
    sub = rate[rate["flow_id"].isin(ids)]
    sub = downsample(sub, ["flow_id"], ["rc_gbps", "rt_gbps", "alpha"])
    fig, (ax, ax_alpha) = subplots(2, 1, figsize=(11, 6.5), sharex=True,
                                       gridspec_kw={"height_ratios": [2, 1]})
    color = line_colors(len(ids))
    for i, (fid, g) in enumerate(sub.groupby("flow_id", sort=True)):
        tm = rel_ms(run, g["time_ns"])
        ax.plot(tm, g["rc_gbps"], color=color(i), lw=1.1, drawstyle="steps-post",
                label=flow_label(fid, flows))
        ax.plot(tm, g["rt_gbps"], color=color(i), lw=0.9, ls="--", alpha=0.7,
                drawstyle="steps-post")
        ax_alpha.plot(tm, g["alpha"], color=color(i), lw=1.0, drawstyle="steps-post")
    # A legend entry for the two line styles, after the per-flow entries.
    ax.plot([], [], color="black", lw=1.1, label="Rc, current rate (solid)")
    ax.plot([], [], color="black", lw=0.9, ls="--", label="Rt, target rate (dashed)")
    what = "flows" if selection is None else "selected flows"
    shown = (f"{len(ids)} of {len(candidates)} {what}" if len(ids) < len(candidates)
             else plural(len(ids), what[:-1]))
    ax.set_title(f"Congestion-control rate state ({shown}" + (f", {algo}" if algo else "") + ")")
    ax.set_ylabel("rate (Gb/s)")
    ax.set_ylim(bottom=0)
    legend_outside(ax)
    style_time_axis(ax, run)
    ax_alpha.set_ylabel("alpha")
    ax_alpha.set_ylim(-0.03, 1.03)
    style_time_axis(ax_alpha, run, label=True)
    caption = (f"Sender rate state of {shown}: current rate Rc (solid) and target rate Rt "
               "(dashed) on top, DCQCN's congestion estimate alpha below.")
    if selection is None and len(ids) < len(candidates):
        caption += " dcqcn report --flows or --tags chooses which flows are drawn."
    return fig, caption


def fig_queue(run):
    q = run["queue"]
    if q is None or len(q) == 0:
        return None, None
    peak = q.groupby(["switch", "port"], observed=True)["queue_bytes"].max()
    peak = peak[peak > 0].sort_values(ascending=False, kind="stable")
    if len(peak) == 0:
        return None, None
    # Congested: within 5% of the deepest queue's peak; at most MAX_QUEUE_PORTS of them.
    chosen = peak[peak >= 0.05 * peak.iloc[0]].iloc[:MAX_QUEUE_PORTS]
    keys = set(chosen.index)
    mask = pd.Series(list(zip(q["switch"].astype(str), q["port"])), index=q.index).isin(
        {(str(s), p) for s, p in keys})
    sub = q[mask]
    qmax = downsample(sub, ["switch", "port"], ["queue_bytes"], how="max")
    tx = downsample(sub, ["switch", "port"], ["tx_gbps"], how="mean")
    fig, (ax, ax_tx) = subplots(2, 1, figsize=(11, 6.5), sharex=True,
                                    gridspec_kw={"height_ratios": [2, 1]})
    colors = plt.get_cmap("tab10")
    order = {k: i for i, k in enumerate(chosen.index)}
    for (sw, port), g in sorted(qmax.groupby(["switch", "port"], observed=True),
                                key=lambda kv: order[kv[0]]):
        c = colors(order[(sw, port)] % 10)
        ax.plot(rel_ms(run, g["time_ns"]), g["queue_bytes"] / 1e3, color=c, lw=1.1,
                # The samples' peak: summary.json's max queue (the table) is the exact one.
                label=f"{link_label(run, sw, port)} (sampled peak {fmt_kb(peak[(sw, port)])})")
        gt = tx[(tx["switch"] == sw) & (tx["port"] == port)]
        ax_tx.plot(rel_ms(run, gt["time_ns"]), gt["tx_gbps"], color=c, lw=1.0)
    ymax = float(chosen.iloc[0]) / 1e3
    ecn = run["config"].get("switch", {}).get("ecn", {})
    if ecn.get("enabled", True):
        for key, ls in (("kmin", ":"), ("kmax", "--")):
            level = parse_size(ecn.get(key, ""))
            if level is not None and level / 1e3 <= 1.2 * ymax:
                ax.axhline(level / 1e3, color="gray", ls=ls, lw=0.9,
                           label=f"ECN {key.capitalize()} {level / 1e3:g} KB")
    more = len(peak) - len(chosen)
    if len(chosen) == 1:
        title = f"Egress queue length at {link_label(run, *chosen.index[0])}"
    else:
        title = f"Egress queue length of the {len(chosen)} most congested ports"
    ax.set_title(title + (f" ({plural(more, 'other port')} queued less)" if more else ""))
    ax.set_ylabel("queue (KB)")
    ax.set_ylim(bottom=0)
    legend_outside(ax)
    style_time_axis(ax, run)
    ax_tx.set_ylabel("egress rate (Gb/s)")
    ax_tx.set_ylim(bottom=0)
    style_time_axis(ax_tx, run, label=True)
    where = (f"switch egress {link_label(run, *chosen.index[0])}" if len(chosen) == 1
             else f"the {len(chosen)} most congested switch egress ports (port \u2192 the node "
                  "it sends to)")
    caption = (f"Bytes queued at {where} (the peak within each time bin) and the rate it "
               "transmitted at.")
    return fig, caption


def fig_pfc(run):
    """The share of time each port was paused, per time bin: intervals drawn one by one merge
    into solid bars on long runs, a fraction does not."""
    pfc = run["pfc"]
    if pfc is None or len(pfc) == 0:
        return None, None
    t0, end = run["t0_ns"], run["end_ns"]
    if end <= t0:
        return None, None
    iv = pause_intervals(pfc, end)
    if len(iv) == 0:
        return None, None
    iv = iv.assign(start_ns=iv["start_ns"].clip(t0, end), end_ns=iv["end_ns"].clip(t0, end))
    iv = iv.assign(dur=iv["end_ns"] - iv["start_ns"])
    total = iv.groupby(["node", "port", "priority"], sort=False)["dur"].sum()
    top = total.sort_values(ascending=False, kind="stable").iloc[:MAX_PFC_ROWS]
    rows = sorted(top.index, key=lambda k: (natural_key(k[0]), k[1], k[2]))
    edges = np.linspace(t0, end, PFC_BINS + 1)
    grid = np.zeros((len(rows), PFC_BINS))
    by_key = {k: g for k, g in iv.groupby(["node", "port", "priority"], sort=False)}
    for r, k in enumerate(rows):
        g = by_key[k]
        grid[r] = paused_fraction(g["start_ns"], g["end_ns"], edges)

    prios = sorted({k[2] for k in rows})
    labels = []
    for k in rows:
        prio = f" prio {k[2]}" if len(prios) > 1 else ""
        labels.append(f"{link_label(run, k[0], k[1])}{prio} ({100 * total[k] / (end - t0):.0f}%)")
    fig, ax = subplots(figsize=(11, min(1.8 + 0.3 * len(rows), 14.0)))
    span_ms = (end - t0) / 1e6
    image = ax.imshow(grid, aspect="auto", interpolation="nearest", cmap="Reds", vmin=0, vmax=1,
                      extent=(0, span_ms, len(rows) - 0.5, -0.5))
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(labels, fontsize="small" if len(rows) <= 20 else "x-small")
    ax.set_xlabel(TIME_LABEL)
    ax.set_xlim(0, span_ms)
    ax.grid(True, axis="x", alpha=0.3)
    bar = fig.colorbar(image, ax=ax, pad=0.01, fraction=0.04 if len(rows) > 4 else 0.08)
    bar.set_label("paused share of the bin")
    more = len(total) - len(rows)
    what = "priority" if len(prios) > 1 else f"priority {prios[0]}"
    ax.set_title(f"PFC: paused share of time per port and {what} ({len(rows)} paused" +
                 (f", {more} less paused not shown)" if more else ")"))
    bin_us = (end - t0) / PFC_BINS / 1e3
    caption = (f"Share of each {bin_us:.3g} \u00b5s bin during which the port could not send "
               "because it had received a PFC PAUSE (from the pause to the next RESUME); each "
               "row is a sending port and the node it sends to, and the percentage is its share "
               "of the whole run spent paused.")
    return fig, caption


def fig_fct_cdf(run):
    done = finished_flows(run)
    if done is None or len(done) < MIN_FLOWS_FOR_CDF:
        return None, None
    sd = done["slowdown"].dropna()
    sd = sd[sd > 0]
    if len(sd) < MIN_FLOWS_FOR_CDF:
        return None, None
    fig, ax = subplots(figsize=(9, 5.5))

    def cdf(values, **kw):
        v = np.sort(values.to_numpy())
        ax.step(v, np.arange(1, len(v) + 1) / len(v), where="post", **kw)

    cdf(sd, color="black", lw=1.6, label=f"all flows ({len(sd)})")
    # Size classes of the usual datacenter workloads, when the sizes vary enough to have them.
    sizes = done.loc[sd.index, "size_bytes"]
    classes = [("< 100 KB", sizes < 1e5), ("100 KB \u2013 1 MB", (sizes >= 1e5) & (sizes < 1e6)),
               ("\u2265 1 MB", sizes >= 1e6)]
    classes = [(name, m) for name, m in classes if m.sum() >= MIN_FLOWS_FOR_CDF]
    if len(classes) > 1:
        for (name, m), c in zip(classes, ["tab:blue", "tab:orange", "tab:red"]):
            cdf(sd[m], color=c, lw=1.1, label=f"{name} ({int(m.sum())})")
    for p, ls in ((50, ":"), (99, "--")):
        v = float(np.percentile(sd, p))
        ax.axvline(v, color="gray", ls=ls, lw=0.9, label=f"p{p} = {v:.2f}")
    ax.set_xscale("log")
    ax.set_xlabel("FCT slowdown (FCT / ideal FCT, log scale)")
    ax.set_ylabel("fraction of finished flows")
    ax.set_ylim(0, 1.01)
    ax.grid(True, which="both", alpha=0.3)
    ax.set_title(f"FCT slowdown CDF ({len(sd)} finished flows)")  # always >= 20
    ax.legend(loc="lower right", fontsize="small")
    caption = ("Distribution of flow-completion-time slowdown (1 = as fast as alone on an idle "
               "network), with the median and 99th percentile marked.")
    return fig, caption


def fig_fct_size(run):
    """Slowdown percentiles against size: the ideal FCT depends on the path, so a line of ideal
    FCT against size would zig-zag; slowdown already divides it out."""
    done = finished_flows(run)
    if done is None:
        return None, None
    unfinished = len(run["flows"]) - len(done)
    if done["size_bytes"].nunique() == 1:
        return fct_per_flow(done, unfinished)
    bins, how = slowdown_by_size(done)
    fig, ax = subplots(figsize=(9, 5.5))
    many = len(done) > 2000
    ax.scatter(done["size_bytes"], done["slowdown"], s=4 if many else 12,
               alpha=0.2 if many else 0.35, color="gray", lw=0, rasterized=many,
               label="each flow", zorder=1)
    for col, color, name in (("p50", "tab:blue", "median"), ("p95", "tab:orange", "95th pct"),
                             ("p99", "tab:red", "99th pct")):
        ax.plot(bins["size"], bins[col], color=color, marker="o", ms=4, lw=1.4, label=name,
                zorder=3)
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: fmt_bytes(v)))
    positive = done["slowdown"][done["slowdown"] > 0]
    log_y = len(positive) and positive.max() / positive.min() > 10
    if log_y:
        ax.set_yscale("log")
        ax.yaxis.set_major_locator(matplotlib.ticker.LogLocator(subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    else:
        ax.set_ylim(bottom=0)
    ax.set_xlabel("flow size (log scale)")
    ax.set_ylabel("FCT slowdown (FCT / ideal FCT" + (", log scale)" if log_y else ")"))
    ax.grid(True, which="both", alpha=0.3)
    ax.set_title(f"FCT slowdown vs flow size ({plural(len(done), 'finished flow')}" +
                 (f", {unfinished} unfinished not shown)" if unfinished else ")"))
    legend_outside(ax)
    if how == "size":
        made = f"one bin per flow size ({plural(len(bins), 'size')})"
    else:
        made = (f"the finished flows sorted by size and cut into bins of equal flow count "
                f"(as HPCC's fct_analysis.py does; {len(bins)} bins of about "
                f"{len(done) // len(bins)} flows, flows of one size kept in one bin), each "
                "drawn at its largest size")
    caption = (f"Median, 95th and 99th percentile FCT slowdown per size bin: {made}; grey dots "
               "are single flows (1 = as fast as alone on an idle network).")
    if unfinished:
        caption += f" {plural(unfinished, 'flow')} did not finish."
    return fig, caption


def fct_per_flow(done, unfinished):
    """The FCT figure when every flow has the same size: one bar per flow (a size axis would be
    a single column of dots), or beyond MAX_FLOW_BARS flows, flows grouped by id into that many
    bins, each drawn as its median and its fastest-to-slowest range: a collective's tens of
    thousands of flows cost as much as a few hundred."""
    fig, ax = subplots(figsize=(9, 5.5))
    size = float(done["size_bytes"].iloc[0])
    d = done.sort_values("flow_id")
    binned = len(d) > MAX_FLOW_BARS
    many = len(d) > 64
    fct_ms = d["fct_ns"].to_numpy(dtype=float) / 1e6
    ids = d["flow_id"].to_numpy()
    if binned:
        # Consecutive flows by id, as equal in count as can be: edges at each bin's first flow.
        starts = np.linspace(0, len(d), MAX_FLOW_BARS + 1).astype(int)[:-1]
        low = np.minimum.reduceat(fct_ms, starts)
        high = np.maximum.reduceat(fct_ms, starts)
        median = np.array([np.median(part) for part in np.split(fct_ms, starts[1:])])
        edges = np.append(ids[starts], ids[-1] + 1).astype(float)
        ax.fill_between(edges, np.append(low, low[-1]), np.append(high, high[-1]), step="post",
                        color="tab:blue", alpha=0.3, lw=0, label="fastest to slowest in the bin")
        ax.step(edges, np.append(median, median[-1]), where="post", color="tab:blue", lw=1.4,
                label="median of the bin")
        ax.set_xlim(edges[0], edges[-1])
    else:
        x = np.arange(len(d))
        ax.bar(x, fct_ms, width=1.0 if many else 0.7, color="tab:blue", label="measured FCT")
        if not many:
            ax.set_xticks(x)
            ax.set_xticklabels([str(i) for i in ids],
                               fontsize="small" if len(d) <= 32 else "x-small")
        ax.set_xlim(-0.6, len(d) - 0.4)
    ideal = d["ideal_fct_ns"].dropna()
    if len(ideal):
        ax.axhline(float(ideal.min()) / 1e6, color="black", lw=1.2,
                   label="ideal FCT (alone, idle network)")
    ax.set_xlabel("flow id")
    ax.set_ylabel("flow completion time (ms)")
    ax.grid(True, axis="y", alpha=0.3)
    size_text = f"{size / 1e6:g} MB" if size >= 1e6 else f"{size / 1e3:g} KB"
    ax.set_title(f"FCT per flow ({plural(len(d), 'finished flow')} of {size_text}" +
                 (f", in {MAX_FLOW_BARS} bins by flow id)" if binned else ")"))
    ax.set_ylim(0, 1.18 * float(d["fct_ns"].max()) / 1e6)  # room for the legend
    ax.legend(loc="upper right", fontsize="small", framealpha=0.9, ncol=2)
    if binned:
        caption = (f"Completion time of the finished flows (all {size_text}) against the ideal "
                   f"FCT: the flows in order of id, cut into {MAX_FLOW_BARS} bins of about "
                   f"{len(d) // MAX_FLOW_BARS} flows, each drawn as its median and the range "
                   "from its fastest to its slowest flow; the flows share one size, so this "
                   "replaces the slowdown vs size figure.")
    else:
        caption = (f"Completion time of each finished flow (all {size_text}) against the ideal "
                   "FCT; the flows share one size, so this replaces the slowdown vs size figure.")
    if unfinished:
        caption += f" {plural(unfinished, 'flow')} did not finish."
    return fig, caption


def fig_collective_iterations(run):
    """Each iteration's time against the collective's ideal: a slow iteration stands out, and its
    distance from the dashed line is what the network cost it."""
    colls = run["collectives"]
    if not colls:
        return None, None
    done = []  # per collective: [(iteration, time_ns)] of its finished iterations
    unfinished = 0
    for c in colls:
        its = [it if isinstance(it, dict) else {} for it in c.get("iterations") or []]
        done.append([(i, float(it["time_ns"])) for i, it in enumerate(its)
                     if is_number(it.get("time_ns"))])
        unfinished += len(its) - len(done[-1])
    if not any(done):
        return None, ("No collective iteration finished within the simulated time, so there is "
                      "no iteration-time figure.")
    ideals = [float(c["ideal_time_ns"]) if is_number(c.get("ideal_time_ns")) and
              c["ideal_time_ns"] > 0 else None for c in colls]
    values = np.array([t for d in done for _, t in d] + [v for v in ideals if v], dtype=float)
    scale, unit = time_unit(float(values.max()))
    fig, ax = subplots(figsize=(9, 5.5))
    color = line_colors(len(colls))
    for i, (c, d, ideal) in enumerate(zip(colls, done, ideals)):
        if d:
            x, t = zip(*d)
            ax.plot(x, np.array(t) / scale, color=color(i), marker="o", ms=5, lw=1.3,
                    label=collective_label(c))
        if ideal:
            ax.axhline(ideal / scale, color=color(i), ls="--", lw=1.0,
                       label=f"{c.get('tag', '?')} ideal ({fmt_duration(ideal)})")
    positive = values[values > 0]
    # Collectives of very different sizes: a log axis keeps the small one off the floor.
    log_y = len(positive) > 1 and positive.max() / positive.min() > 30
    if log_y:
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    else:
        ax.set_ylim(0, 1.15 * float(values.max()) / scale)  # room for the legend
    iterations = max(len(c.get("iterations") or []) for c in colls)
    ax.set_xlim(-0.5, max(iterations, 1) - 0.5)
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.set_xlabel("iteration (0 = the first)")
    ax.set_ylabel(f"iteration time ({unit}" + (", log scale)" if log_y else ")"))
    ax.grid(True, alpha=0.3)
    ax.set_title("Collective iteration time against the ideal" if len(colls) > 1 else
                 f"Iteration time of {collective_label(colls[0])}")
    legend_outside(ax)
    caption = ("Time of each iteration of each collective, from its first flow's start to its "
               "last flow's delivery (summary.json's collectives), against the collective's "
               "ideal time (dashed: the same iteration alone on an idle network).")
    if unfinished:
        caption += f" {plural(unfinished, 'iteration')} did not finish and are not drawn."
    return fig, caption


def fig_collective_late_flows(run):
    """The latest flows of each collective's slowest iteration, each named with the busiest port
    its data crosses: where that iteration lost its time."""
    colls = run["collectives"]
    panels, on_time = [], []
    for c in colls:
        slow = c.get("slowest_iteration")
        if not isinstance(slow, dict):
            continue  # no finished iteration: the iteration figure says so
        late = [f for f in slow.get("late_flows") or []
                if isinstance(f, dict) and is_number(f.get("slowdown"))]
        if late and max(f["slowdown"] for f in late) > LATE_TOLERANCE:
            panels.append((c, slow.get("iteration"), late))
        else:
            on_time.append(f"iteration {slow.get('iteration', '?')} of {c.get('tag', '?')}")
    whose = "its collective's" if len(on_time) == 1 else "each collective's"
    on_time_text = (f"no flow of {' or '.join(on_time)} ({whose} slowest) took more than 1% "
                    "longer than its ideal")
    if not panels:
        return None, f"No late-flow figure: {on_time_text}." if on_time else None
    heights = [1.2 + 0.32 * len(late) for _, _, late in panels]
    fig, axes = subplots(len(panels), 1, figsize=(11, sum(heights) + 0.6), squeeze=False,
                         gridspec_kw={"height_ratios": heights})
    for ax, (c, k, late) in zip(axes[:, 0], panels):
        labels = []
        for f in late:
            label = f"flow {f.get('flow_id', '?')} h{f.get('src', '?')}\u2192h{f.get('dst', '?')}"
            hop = busiest_hop(run, f.get("path"))
            if hop:
                label += f" on {link_label(run, hop[0], hop[1])} ({100 * hop[2]:.0f}%)"
            elif f.get("path") == []:
                label += " (NVLink only)"
            labels.append(label)
        sd = np.array([f["slowdown"] for f in late], dtype=float)
        y = np.arange(len(late))
        ax.barh(y, sd, height=0.7, color="tab:red", alpha=0.8)
        for yi, v in zip(y, sd):
            ax.text(v, yi, f" {v:.2f}", va="center", fontsize="small")
        ax.axvline(1.0, color="black", ls=":", lw=1.0)
        ax.set_yticks(y)
        ax.set_yticklabels(labels, fontsize="small")
        ax.invert_yaxis()  # the latest on top
        ax.set_xlim(0, 1.12 * float(sd.max()))
        ax.grid(True, axis="x", alpha=0.3)
        its = c.get("iterations") or []
        it = its[k] if isinstance(k, int) and 0 <= k < len(its) and isinstance(its[k], dict) else {}
        took = (f", {fmt_duration(it['time_ns'])}" if is_number(it.get("time_ns")) else "") + (
            f", {it['slowdown']:.2f}\u00d7 its ideal" if is_number(it.get("slowdown")) else "")
        ax.set_title(f"{collective_label(c)}: slowest iteration {k}{took}", fontsize="medium")
    axes[-1, 0].set_xlabel("flow slowdown (start to delivery / ideal on an idle network)")
    caption = ("The flows that were latest against their own ideal in each collective's slowest "
               "iteration (summary.json's slowest_iteration, at most 10 per collective): the "
               "time from a flow's start to its delivery over what it would take alone on an "
               "idle network (1 = on time, the dotted line). Each flow is named with the most "
               "utilised port its data crosses (\"node port \u2192 the node it sends to\") and "
               "that port's utilisation over the whole run (links.csv).")
    if on_time:
        caption += f" {on_time_text[0].upper()}{on_time_text[1:]}."
    return fig, caption


def timeline_ranks(ranks, stages):
    """At most TIMELINE_RANKS of `ranks` (sorted), spread over the stages: every stage's first
    ranks in turn, so a pipeline's stages all show."""
    by_stage = {}
    for r, s in zip(ranks, stages):
        by_stage.setdefault(s, []).append(r)
    chosen = []
    for k in range(max(len(v) for v in by_stage.values())):
        for s in sorted(by_stage):
            if k < len(by_stage[s]) and len(chosen) < TIMELINE_RANKS:
                chosen.append(by_stage[s][k])
    return sorted(chosen)


def fig_job_timeline(run):
    """One iteration of the first training job, a row per rank: its compute by phase, and
    between them what it waited for (exposed communication, or the pipeline's bubble)."""
    tl, jobs = run.get("job_timeline"), run.get("jobs")
    if tl is None or jobs is None or len(tl) == 0:
        return None, None
    name = tl["job"].iloc[0]
    tl, jobs = tl[tl["job"] == name], jobs[jobs["job"] == name]
    # The last iteration every rank finished (a later one has no start-up), else the first.
    finished = jobs.dropna(subset=["end_ns"]).groupby("iteration")["rank"].count()
    ranks_total = jobs["rank"].nunique()
    full = finished[finished == ranks_total]
    it = int(full.index.max()) if len(full) else int(jobs["iteration"].min())
    rows = jobs[jobs["iteration"] == it]
    t0 = float(rows["start_ns"].min())
    tasks = tl[tl["iteration"] == it]
    stage_of = tasks.groupby("rank")["stage"].first()
    ranks = timeline_ranks(list(stage_of.index), list(stage_of.values))
    end = float(np.nanmax(rows["end_ns"])) if rows["end_ns"].notna().any() else float(
        tasks["end_ns"].max())
    scale, unit = time_unit(end - t0)
    colors = {"forward": "tab:blue", "input_grad": "tab:orange", "weight_grad": "tab:green"}
    fig, ax = subplots(figsize=(11, 1.2 + 0.35 * len(ranks)))
    for y, r in enumerate(ranks):
        mine = tasks[tasks["rank"] == r]
        row = rows[rows["rank"] == r]
        if len(row):
            s, e = float(row["start_ns"].iloc[0]), row["end_ns"].iloc[0]
            e = float(e) if pd.notna(e) else end
            ax.broken_barh([((s - t0) / scale, (e - s) / scale)], (y - 0.4, 0.8),
                           color="0.9", zorder=0)
        for phase, color in colors.items():
            p = mine[mine["phase"] == phase]
            if len(p):
                ax.broken_barh(list(zip((p["start_ns"] - t0) / scale,
                                        (p["end_ns"] - p["start_ns"]) / scale)),
                               (y - 0.4, 0.8), color=color, label=phase if y == 0 else None)
    ax.set_yticks(range(len(ranks)))
    ax.set_yticklabels([f"rank {r} (stage {int(stage_of[r])})" for r in ranks],
                       fontsize="small")
    ax.invert_yaxis()
    ax.set_xlim(0, (end - t0) / scale)
    ax.set_xlabel(f"time from the iteration's start ({unit})")
    ax.grid(True, axis="x", alpha=0.3)
    ax.set_title(f"Job {name}, iteration {it}: compute per rank")
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        legend_outside(ax)
    shown = (f"{len(ranks)} of its {ranks_total} ranks, spread over the stages"
             if len(ranks) < ranks_total else f"its {ranks_total} ranks")
    caption = (f"Iteration {it} of job {name} ({shown}; job_timeline.csv): each rank's compute "
               "tasks, by phase (forward, input gradient, weight gradient). The grey band is "
               "the rank's iteration (jobs.csv); where it shows between the tasks, the rank "
               "waited: for a blocking collective or its weight gradients (exposed "
               "communication), or for a pipeline neighbour (bubble); jobs.csv has each part's "
               "time.")
    return fig, caption


FIGURE_MAKERS = {"throughput": fig_throughput, "rate": fig_rate, "queue": fig_queue,
                 "pfc": fig_pfc, "fct_cdf": fig_fct_cdf, "fct_size": fig_fct_size,
                 "collective_iterations": fig_collective_iterations,
                 "collective_late_flows": fig_collective_late_flows,
                 "job_timeline": fig_job_timeline}


# ---------------------------------------------------------------------------------------------
# Output

def fmt_min_mean_max(tp, spec=".2f", suffix=""):
    if not isinstance(tp, dict):
        return NA if tp is None else MISSING
    return " / ".join(fmt_num(tp.get(k), spec) for k in ("min", "mean", "max")) + suffix


def headline_rows(s, run=None):
    """(section, label, text) rows of summary.json's headline numbers: a null shows as NA, an
    absent key (an older folder) leaves its row out. `run` (load_run's) names ports with HPCC
    node ids where links.csv has them."""
    rows = []

    def add(section, label, value):
        if value is not MISSING:
            rows.append((section, label, value))

    ft, ff = get(s, "flows_total"), get(s, "flows_finished")
    add("Run", "flows finished", f"{ff} of {ft}" if ft is not MISSING else ff)
    add("Run", "flows active", fmt_num(get(s, "flows_active"), ","))
    # One time origin, the first flow's start, as the CLI's summary line and the time axes. Whole
    # ns divided by 1e6 (not times 1e-6) round as the CLI's figures do.
    def ms(v):
        return fmt_num(v / 1e6 if isinstance(v, (int, float)) else v, ".3f", 1, " ms")

    start, end = get(s, "active_start_ns"), get(s, "sim_time_ns")
    if start not in (MISSING, None, 0):
        add("Run", "first flow start", ms(start))
        if isinstance(end, (int, float)) and isinstance(start, (int, float)):
            add("Run", "simulated time from the first flow's start", ms(end - start))
        add("Run", "end of the run", ms(end))
    else:
        add("Run", "simulated time", ms(end))
    add("Run", "wall time", fmt_num(get(s, "wall_time_s"), ".2f", 1, " s"))
    add("Run", "events", fmt_num(get(s, "events"), ","))
    add("Network", "busiest link utilisation",
        fmt_num(get(s, "max_link_utilisation"), ".1f", 100, " %"))
    for label, key in (("busiest port", "busiest_port"),
                       ("bottleneck port (largest mean queue)", "bottleneck")):
        port = get(s, key)
        if isinstance(port, dict) and "switch" in port:
            peer = f" \u2192 {node_label(run, port['peer'])}" if port.get("peer") else ""
            add("Network", label,
                f"{node_label(run, port['switch'])} port {port.get('port', '?')}{peer}")
    add("Network", "aggregate goodput", fmt_num(get(s, "aggregate_goodput_gbps"), ".2f", 1,
                                                " Gb/s"))
    add("Network", "max queue", fmt_kb(get(s, "max_queue_bytes")))
    add("Network", "drops (packets)", fmt_num(get(s, "drops"), ","))
    add("Network", "PFC PAUSE frames", fmt_num(get(s, "pfc_pause_frames"), ","))
    add("Network", "PFC RESUME frames", fmt_num(get(s, "pfc_resume_frames"), ","))
    add("Network", "ECN-marked packets", fmt_num(get(s, "ecn_marked_packets"), ","))
    add("Network", "CNPs", fmt_num(get(s, "cnps"), ","))
    add("Network", "retransmitted packets", fmt_num(get(s, "retransmitted_packets"), ","))
    add("Network", "timeouts", fmt_num(get(s, "timeouts"), ","))
    sd = get(s, "fct_slowdown")
    if isinstance(sd, dict):
        for k in ("p50", "p95", "p99", "max"):
            add("Flows", f"FCT slowdown {k}", fmt_num(sd.get(k), ".2f"))
    tp = get(s, "flow_throughput_gbps")
    count = f" over {plural(tp['count'], 'active flow')}" if isinstance(tp, dict) and isinstance(
        tp.get("count"), int) else ""
    add("Flows", "flow throughput min / mean / max", fmt_min_mean_max(tp, suffix=f" Gb/s{count}"))
    add("Flows", "Jain fairness", fmt_num(get(s, "jain_fairness"), ".4f"))
    # Jain's 1 = equal shares is the fair target only when the max-min fair shares are equal.
    add("Flows", "Jain fairness of the max-min fair shares",
        fmt_num(get(s, "max_min_jain_fairness"), ".4f"))
    add("Flows", "Jain fairness of throughput / max-min share",
        fmt_num(get(s, "normalised_jain_fairness"), ".4f"))
    add("Flows", "convergence time", fmt_num(get(s, "convergence_time_ns"), ".3f", 1e-6, " ms"))
    cc = get(s, "cc")
    if isinstance(cc, dict):
        for k, v in cc.items():
            add("Congestion control", k.replace("_", " "),
                fmt_num(v, ",") if isinstance(v, int) and not isinstance(v, bool) else str(v))
    return rows


TAG_COLUMNS = [  # (header, text of a by_tag entry)
    ("flows", lambda m: fmt_num(m.get("flows"), ",")),
    ("finished", lambda m: fmt_num(m.get("finished"), ",")),
    ("FCT slowdown p50", lambda m: fmt_num((m.get("fct_slowdown") or {}).get("p50"), ".2f")),
    ("FCT slowdown p99", lambda m: fmt_num((m.get("fct_slowdown") or {}).get("p99"), ".2f")),
    ("throughput min / mean / max (Gb/s)",
     lambda m: fmt_min_mean_max(m.get("flow_throughput_gbps") or {})),
    ("Jain fairness", lambda m: fmt_num(m.get("jain_fairness"), ".4f")),
]


def tag_table_html(s):
    """summary.json's by_tag as a table, one row per tag; "" when no flow has a tag."""
    by_tag = s.get("by_tag")
    if not isinstance(by_tag, dict) or not by_tag:
        return ""
    e = html.escape
    out = ['<table class="tags"><tr><th>tag</th>']
    out += [f"<th>{e(h)}</th>" for h, _ in TAG_COLUMNS]
    out.append("</tr>")
    for tag, m in by_tag.items():
        cells = [f"<td>{e(str(tag))}</td>"]
        for _, fn in TAG_COLUMNS:
            text = fn(m if isinstance(m, dict) else {})
            text = NA if text is MISSING else text
            cls = "v na" if text == NA else "v"
            cells.append(f'<td class="{cls}">{e(text)}</td>')
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def _mean(c, key, spec):
    mean = c.get("mean")
    return fmt_num(mean.get(key), spec) if isinstance(mean, dict) else NA


def _finished(c):
    done = c.get("finished_iterations")
    return f"{done} of {len(c.get('iterations') or [])}" if isinstance(done, int) else NA


COLLECTIVE_COLUMNS = [  # (header, text of a summary.json collective, whether a number)
    ("op", lambda c: str(c.get("op", NA)), False),
    ("algorithm", lambda c: str(c.get("algorithm", NA)), False),
    ("ranks", lambda c: str(len(c["ranks"])) if isinstance(c.get("ranks"), list) else NA, True),
    ("size", lambda c: fmt_bytes(c["size_bytes"]) if is_number(c.get("size_bytes")) else NA,
     True),
    ("iterations finished", _finished, True),
    ("mean time", lambda c: fmt_duration((c.get("mean") or {}).get("time_ns")), True),
    ("ideal time", lambda c: fmt_duration(c.get("ideal_time_ns")), True),
    ("mean busbw (Gb/s)", lambda c: _mean(c, "busbw_gbps", ".2f"), True),
    ("mean slowdown", lambda c: _mean(c, "slowdown", ".3f"), True),
]


def collective_table_html(run):
    """summary.json's collectives as a table, one row per collective; "" when there are none."""
    if not run["collectives"]:
        return ""
    e = html.escape
    out = ['<table class="tags collectives"><tr><th>collective</th>']
    out += [f"<th>{e(h)}</th>" for h, _, _ in COLLECTIVE_COLUMNS]
    out.append("</tr>")
    for c in run["collectives"]:
        cells = [f"<td>{e(str(c.get('tag', '?')))}</td>"]
        for _, fn, number in COLLECTIVE_COLUMNS:
            text = fn(c)
            cls = "v na" if text == NA else "v" if number else ""
            cells.append(f'<td class="{cls}">{e(text)}</td>' if cls else f"<td>{e(text)}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def index_html(run, figures, notes, formats):
    s = run["summary"]
    name = str(s.get("scenario", os.path.basename(os.path.abspath(run["dir"]))))
    e = html.escape
    sub = [f"seed {s['seed']}" if "seed" in s else None,
           f"dcqcn {s['version']}" if "version" in s else None,
           f"run folder {os.path.abspath(run['dir'])}"]
    body = [sections_table_html(headline_rows(s, run))]
    tags = tag_table_html(s)
    if tags:
        body.append("<p>The flow metrics per tag (summary.json's by_tag):</p>")
        body.append(tags)
    collectives = collective_table_html(run)
    if collectives:
        body.append("<p>The collectives (summary.json's collectives; the means are over the "
                    "finished iterations, busbw is nccl-tests' bus bandwidth and the slowdown "
                    "the time over the ideal on an idle network):</p>")
        body.append(collectives)
    body.append(f"<p>A dash ({NA}) is a statistic with nothing to summarise: no finished flow "
                "for FCT slowdown, fewer than two flows active together for Jain fairness. Time "
                "axes start at the first flow's start.</p>")
    body += figures_html(figures, notes, formats)
    if run["resolved"]:
        body.append("<details><summary>resolved.toml (the scenario with every default; "
                    "<code>dcqcn run resolved.toml</code> reproduces the run)</summary>")
        body.append(f"<pre>{e(run['resolved'])}</pre></details>")
    body.append("<details><summary>summary.json</summary>")
    body.append(f"<pre>{e(json.dumps(s, indent=2))}</pre></details>")
    return page_html(f"dcqcn report: {name}", name, " \u00b7 ".join(x for x in sub if x), body)


def load_run(run_dir, flow_ids=None, tags=None):
    """read_run plus what the figures share: the time axis, flows by id and the selection."""
    run = read_run(run_dir)
    flows = run["flows"]
    run["flows_by_id"] = flows.set_index("flow_id") if flows is not None else None
    run["t0_ns"], run["end_ns"] = time_range_ns(run)
    run["selection"] = select_flows(flows, flow_ids, tags)
    run["tags"] = list(tags or [])
    return run


def build_report(run_dir, quiet=True, formats=("png",), flow_ids=None, tags=None):
    """Writes run_dir/report/{index.html, <figure>.<format>}; `flow_ids` and `tags` choose the
    flows of the rate and throughput figures. Returns the path of index.html."""
    run = load_run(run_dir, flow_ids, tags)
    report_dir = os.path.join(run_dir, "report")
    os.makedirs(report_dir, exist_ok=True)

    figures, notes = draw_figures(report_dir, FIGURES, FIGURE_MAKERS, run, formats)
    if run["pfc"] is not None and len(run["pfc"]) == 0:
        notes.append("No PFC frames were sent in this run (timeseries/pfc.csv is empty).")
    done = finished_flows(run)
    if run["flows"] is not None and done is None:
        notes.append("No flow finished within the simulated time, so there are no FCT figures.")
    if done is not None and len(done) < MIN_FLOWS_FOR_CDF:
        notes.append(f"The FCT slowdown CDF needs at least {MIN_FLOWS_FOR_CDF} finished flows "
                     f"(this run has {len(done)}).")
    cc_off = (run["summary"].get("cc") or {}).get("algorithm") == "none"
    missing = [n for n in ("throughput", "rate", "queue", "pfc")
               if run[n] is None and not (n == "rate" and cc_off)]
    if missing:
        notes.append("Time series not recorded: " + ", ".join(missing) +
                     " (add them to [output] timeseries in the scenario).")

    index = os.path.join(report_dir, "index.html")
    write_atomic(index, index_html(run, figures, notes, formats).encode("utf-8"))
    if not quiet:
        print(f"report: {index} ({len(figures)} figures: "
              f"{', '.join(n for n, _ in figures) or 'none'})")
    return index


if __name__ == "__main__":
    sys.exit(not_a_command("dcqcn_run_report.py"))
