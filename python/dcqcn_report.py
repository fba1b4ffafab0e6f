#!/usr/bin/python3
"""PNG figures and one index.html for a run or sweep output folder (`dcqcn report DIR`).

Usage: dcqcn_report.py DIR [--runs] [--quiet]
A run folder: reads DIR/{summary.json, flows.csv, resolved.toml, timeseries/*.csv} (any but
summary.json may be absent). A sweep folder (DIR/sweep.csv and no DIR/summary.json): the metrics
against the varied keys, drawn by dcqcn_sweep_report.py; with --runs each run's folder
(DIR/runs/NNN/) is reported too. Either way writes DIR/report/index.html and DIR/report/*.png,
each to a temporary name renamed when complete. Exit codes follow the dcqcn CLI: 0 ok, 1 bad
input, 3 a bug in this script.

Needs Debian's python3-matplotlib, python3-numpy and python3-pandas (scripts/setup.sh).
"""

import os

os.environ.setdefault("MPLBACKEND", "Agg")

import argparse  # noqa: E402
import html  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
import traceback  # noqa: E402

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    import pandas as pd
except ImportError as e:  # e.g. run with a python3 that is not Debian's /usr/bin/python3
    sys.exit(f"error: {e} under {sys.executable}: the report needs Debian's python3-matplotlib, "
             "python3-numpy and python3-pandas under /usr/bin/python3 (run scripts/setup.sh)")

# Plot budgets: a fat-tree run has millions of rows; a PNG a thousand pixels wide shows no more.
MAX_POINTS = 1500  # time bins per plotted series
MAX_POINTS_OVERLAID = 500  # fewer when many noisy lines overlap, so each stays legible
MAX_FLOW_LINES = 16  # more flows than this: a percentile band instead of one line each
MAX_RATE_FLOWS = 8  # rate traces drawn (evenly chosen by flow id when there are more)
MAX_QUEUE_PORTS = 8  # busiest ports drawn
MAX_PFC_ROWS = 40  # (node, port, priority) rows in the pause timeline, most paused first
MIN_FLOWS_FOR_CDF = 20

FIGURES = ["throughput", "rate", "queue", "pfc", "fct_cdf", "fct_size"]

# Shared with the sweep report (dcqcn_sweep_report.py).
from dcqcn_report_common import CSS, ReportError, save_figure, write_atomic  # noqa: E402


# ---------------------------------------------------------------------------------------------
# Reading


def read_csv(path, dtypes):
    """The CSV at `path` with exactly the columns of `dtypes` (other columns ignored), or None
    when the file is absent."""
    if not os.path.exists(path):
        return None
    try:
        return pd.read_csv(path, usecols=list(dtypes), dtype=dtypes, engine="c")
    except pd.errors.EmptyDataError:
        raise ReportError(f"{path}: empty file (expected a header line: {','.join(dtypes)})")
    except ValueError as e:
        raise ReportError(f"{path}: expected columns {','.join(dtypes)}: {e}")


def read_run(run_dir):
    """Everything the report needs from a run folder, as a dict."""
    if not os.path.isdir(run_dir):
        raise ReportError(f"{run_dir}: no such folder (expected a `dcqcn run` output folder)")
    summary_path = os.path.join(run_dir, "summary.json")
    if not os.path.isfile(summary_path):
        raise ReportError(f"{run_dir}: no summary.json (is this a `dcqcn run` output folder?)")
    try:
        with open(summary_path, encoding="utf-8") as f:
            summary = json.load(f)
    except (OSError, ValueError) as e:
        raise ReportError(f"{summary_path}: {e}")
    if not isinstance(summary, dict):
        raise ReportError(f"{summary_path}: expected a JSON object")

    resolved = ""
    resolved_path = os.path.join(run_dir, "resolved.toml")
    if os.path.isfile(resolved_path):
        with open(resolved_path, encoding="utf-8", errors="replace") as f:
            resolved = f.read()

    ts = os.path.join(run_dir, "timeseries")
    return {
        "dir": run_dir,
        "summary": summary,
        "resolved": resolved,
        "config": parse_toml(resolved),
        "flows": read_csv(
            os.path.join(run_dir, "flows.csv"),
            {"flow_id": "int64", "src": "int64", "dst": "int64", "size_bytes": "float64",
             "start_ns": "float64", "finish_ns": "float64", "fct_ns": "float64",
             "ideal_fct_ns": "float64", "slowdown": "float64"}),
        "throughput": read_csv(os.path.join(ts, "throughput.csv"),
                               {"time_ns": "float64", "flow_id": "int64", "gbps": "float64"}),
        "rate": read_csv(os.path.join(ts, "rate.csv"),
                         {"time_ns": "float64", "flow_id": "int64", "rc_gbps": "float64",
                          "rt_gbps": "float64", "alpha": "float64"}),
        "queue": read_csv(os.path.join(ts, "queue.csv"),
                          {"time_ns": "float64", "switch": "category", "port": "int64",
                           "queue_bytes": "float64", "tx_gbps": "float64"}),
        "pfc": read_pfc(os.path.join(ts, "pfc.csv")),
    }


def read_pfc(path):
    return read_csv(path, {"time_ns": "float64", "node": "category", "port": "int64",
                           "priority": "int64", "paused": "int64"})


def parse_toml(text):
    if not text:
        return {}
    try:
        import tomllib  # Python 3.11 (Debian bookworm's /usr/bin/python3)
        return tomllib.loads(text)
    except Exception:  # an older Python or a file we cannot parse: ECN lines are optional
        return {}


_SIZE_UNITS = {"B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "KiB": 1024, "MiB": 1024**2,
               "GiB": 1024**3}


def parse_size(text):
    """Bytes in a size string such as "200KB" (decimal) or "1MiB"; None if not a size."""
    m = re.fullmatch(r"\s*([0-9.eE+-]+)\s*([A-Za-z]+)\s*", str(text))
    if not m or m.group(2) not in _SIZE_UNITS:
        return None
    try:
        return float(m.group(1)) * _SIZE_UNITS[m.group(2)]
    except ValueError:
        return None


# ---------------------------------------------------------------------------------------------
# Shaping data for plots


def end_time_ns(run):
    """The end of the plotted time axis: the simulated time, or the last sample if later."""
    end = float(run["summary"].get("sim_time_ns") or 0)
    for name in ("throughput", "rate", "queue", "pfc"):
        df = run[name]
        if df is not None and len(df):
            end = max(end, float(df["time_ns"].max()))
    return end


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


def merge_close(iv, gap_ns):
    """Intervals of each key closer than `gap_ns` merged (nothing a pixel wide is lost)."""
    if len(iv) == 0:
        return iv
    iv = iv.sort_values(["node", "port", "priority", "start_ns"]).reset_index(drop=True)
    key_change = ((iv["node"] != iv["node"].shift()) | (iv["port"] != iv["port"].shift()) |
                  (iv["priority"] != iv["priority"].shift()))
    prev_end = iv.groupby(["node", "port", "priority"], sort=False)["end_ns"].cummax().shift()
    block = (key_change | (iv["start_ns"] - prev_end > gap_ns)).cumsum()
    return iv.groupby(block, sort=False).agg(
        node=("node", "first"), port=("port", "first"), priority=("priority", "first"),
        start_ns=("start_ns", "min"), end_ns=("end_ns", "max")).reset_index(drop=True)


def natural_key(name):
    """Sort key for node names: h2 before h10, hosts before switches."""
    m = re.fullmatch(r"([A-Za-z_]*)(\d+)", str(name))
    return (m.group(1), int(m.group(2)), "") if m else (str(name), -1, str(name))


def flow_label(flow_id, flows):
    if flows is not None and flow_id in flows.index:
        row = flows.loc[flow_id]
        return f"flow {flow_id} (h{int(row['src'])}\u2192h{int(row['dst'])})"
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


# ---------------------------------------------------------------------------------------------
# Figures. Each returns a one-line caption, or None when it has nothing to draw.


def style_time_axis(ax, end_ms):
    ax.set_xlim(0, end_ms if end_ms > 0 else None)
    ax.grid(True, alpha=0.3)


def legend_outside(ax, **kw):
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", frameon=False, **kw)


def fig_throughput(run, ax_end_ms):
    tp = run["throughput"]
    if tp is None or len(tp) == 0:
        return None, None
    flows = run["flows_by_id"]
    ids = sorted(tp["flow_id"].unique())
    title = f"Delivered throughput per flow ({plural(len(ids), 'flow')})"
    if len(ids) == 1:  # the aggregate would repeat the flow
        fig, ax = plt.subplots(figsize=(11, 4.5))
        ax.set_title(title)
    else:
        fig, (ax_agg, ax) = plt.subplots(2, 1, figsize=(11, 6.5), sharex=True,
                                         gridspec_kw={"height_ratios": [1, 2]})
        total = tp.groupby("time_ns", sort=True)["gbps"].sum().reset_index()
        total = downsample(total, [], ["gbps"])
        ax_agg.plot(total["time_ns"] / 1e6, total["gbps"], color="black", lw=1.2,
                    label="all flows")
        ax_agg.set_ylabel("aggregate (Gb/s)")
        # Room above the peak: a flat line at line rate would otherwise sit on the frame.
        ax_agg.set_ylim(0, 1.15 * max(float(total["gbps"].max()), 1e-9))
        ax_agg.set_title(title)
        legend_outside(ax_agg)
        style_time_axis(ax_agg, ax_end_ms)

    points = MAX_POINTS_OVERLAID if len(ids) > 1 else MAX_POINTS
    per_flow = downsample(tp, ["flow_id"], ["gbps"], keep_bin=True, max_points=points)
    if len(ids) <= MAX_FLOW_LINES:
        colors = plt.get_cmap("tab10" if len(ids) <= 10 else "tab20")
        for i, (fid, g) in enumerate(per_flow.groupby("flow_id", sort=True)):
            ax.plot(g["time_ns"] / 1e6, g["gbps"], lw=1.0, color=colors(i),
                    label=flow_label(fid, flows))
        legend_outside(ax, ncol=1)
        what = "one line per flow"
    else:
        grouped = per_flow.groupby("bin", sort=True)
        t = grouped["time_ns"].mean().to_numpy() / 1e6
        q = grouped["gbps"].quantile([0.05, 0.25, 0.5, 0.75, 0.95]).unstack()
        ax.fill_between(t, q[0.05], q[0.95], color="tab:blue", alpha=0.2, lw=0,
                        label="5th\u201395th percentile")
        ax.fill_between(t, q[0.25], q[0.75], color="tab:blue", alpha=0.4, lw=0,
                        label="25th\u201375th percentile")
        ax.plot(t, q[0.5], color="tab:blue", lw=1.2, label="median")
        ax.plot(t, grouped["gbps"].max().to_numpy(), color="tab:red", lw=0.7, ls=":",
                label="fastest flow")
        legend_outside(ax, title="across active flows")
        what = "percentiles across the flows active at each time"
    ax.set_ylabel("per-flow throughput (Gb/s)")
    ax.set_xlabel("time (ms)")
    ax.set_ylim(bottom=0)
    style_time_axis(ax, ax_end_ms)
    if len(ids) == 1:
        caption = f"Delivered throughput of the run's one flow over time{bin_note(tp, points)}."
    else:
        caption = (f"Delivered throughput over time: the sum of all {len(ids)} flows (top) and "
                   f"{what} (bottom{bin_note(tp, points)}).")
    return fig, caption


def fig_rate(run, ax_end_ms):
    rate = run["rate"]
    if rate is None or len(rate) == 0:
        return None, None
    flows = run["flows_by_id"]
    all_ids = rate["flow_id"].unique()
    ids = pick_evenly(all_ids, MAX_RATE_FLOWS)
    sub = rate[rate["flow_id"].isin(ids)]
    sub = downsample(sub, ["flow_id"], ["rc_gbps", "rt_gbps", "alpha"])
    fig, (ax, ax_alpha) = plt.subplots(2, 1, figsize=(11, 6.5), sharex=True,
                                       gridspec_kw={"height_ratios": [2, 1]})
    colors = plt.get_cmap("tab10")
    for i, (fid, g) in enumerate(sub.groupby("flow_id", sort=True)):
        tm = g["time_ns"] / 1e6
        c = colors(i % 10)
        ax.plot(tm, g["rc_gbps"], color=c, lw=1.1, drawstyle="steps-post",
                label=flow_label(fid, flows))
        ax.plot(tm, g["rt_gbps"], color=c, lw=0.9, ls="--", alpha=0.7, drawstyle="steps-post")
        ax_alpha.plot(tm, g["alpha"], color=c, lw=1.0, drawstyle="steps-post")
    # A legend entry for the two line styles, after the per-flow entries.
    ax.plot([], [], color="black", lw=1.1, label="Rc, current rate (solid)")
    ax.plot([], [], color="black", lw=0.9, ls="--", label="Rt, target rate (dashed)")
    shown = (f"{len(ids)} of {len(all_ids)} flows" if len(ids) < len(all_ids)
             else plural(len(ids), "flow"))
    algo = run["summary"].get("cc", {}).get("algorithm", "")
    ax.set_title(f"Congestion-control rate state ({shown}" + (f", {algo}" if algo else "") + ")")
    ax.set_ylabel("rate (Gb/s)")
    ax.set_ylim(bottom=0)
    legend_outside(ax)
    style_time_axis(ax, ax_end_ms)
    ax_alpha.set_ylabel("alpha")
    ax_alpha.set_xlabel("time (ms)")
    ax_alpha.set_ylim(-0.03, 1.03)
    style_time_axis(ax_alpha, ax_end_ms)
    caption = (f"Sender rate state of {shown}: current rate Rc (solid) and target rate Rt "
               "(dashed) on top, DCQCN's congestion estimate alpha below.")
    if algo == "none":
        caption += " With cc = none every sender runs at line rate."
    return fig, caption


def fig_queue(run, ax_end_ms):
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
    fig, (ax, ax_tx) = plt.subplots(2, 1, figsize=(11, 6.5), sharex=True,
                                    gridspec_kw={"height_ratios": [2, 1]})
    colors = plt.get_cmap("tab10")
    order = {k: i for i, k in enumerate(chosen.index)}
    for (sw, port), g in sorted(qmax.groupby(["switch", "port"], observed=True),
                                key=lambda kv: order[kv[0]]):
        c = colors(order[(sw, port)] % 10)
        ax.plot(g["time_ns"] / 1e6, g["queue_bytes"] / 1e3, color=c, lw=1.1,
                label=f"{sw} port {port} (peak {peak[(sw, port)] / 1e3:.0f} KB)")
        gt = tx[(tx["switch"] == sw) & (tx["port"] == port)]
        ax_tx.plot(gt["time_ns"] / 1e6, gt["tx_gbps"], color=c, lw=1.0)
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
        sw, port = chosen.index[0]
        title = f"Egress queue length at {sw} port {port}"
    else:
        title = f"Egress queue length of the {len(chosen)} most congested ports"
    ax.set_title(title + (f" ({plural(more, 'other port')} queued less)" if more else ""))
    ax.set_ylabel("queue (KB)")
    ax.set_ylim(bottom=0)
    legend_outside(ax)
    style_time_axis(ax, ax_end_ms)
    ax_tx.set_ylabel("egress rate (Gb/s)")
    ax_tx.set_xlabel("time (ms)")
    ax_tx.set_ylim(bottom=0)
    style_time_axis(ax_tx, ax_end_ms)
    where = (f"switch egress {chosen.index[0][0]} port {chosen.index[0][1]}" if len(chosen) == 1
             else f"the {len(chosen)} most congested switch egress ports")
    caption = (f"Bytes queued at {where} (the peak within each time bin) and the rate it "
               "transmitted at.")
    return fig, caption


def fig_pfc(run, ax_end_ms):
    pfc = run["pfc"]
    if pfc is None or len(pfc) == 0:
        return None, None
    end_ns = ax_end_ms * 1e6
    iv = pause_intervals(pfc, end_ns)
    if len(iv) == 0:
        return None, None
    iv = iv.assign(dur=iv["end_ns"] - iv["start_ns"])
    total = iv.groupby(["node", "port", "priority"], sort=False)["dur"].sum()
    top = total.sort_values(ascending=False, kind="stable").iloc[:MAX_PFC_ROWS]
    rows = sorted(top.index, key=lambda k: (natural_key(k[0]), k[1], k[2]))
    row_of = {k: i for i, k in enumerate(rows)}
    keep = pd.Series(list(zip(iv["node"], iv["port"], iv["priority"])), index=iv.index)
    iv = iv[keep.isin(row_of)]
    iv = merge_close(iv, gap_ns=end_ns / 3000.0)

    height = min(2.0 + 0.28 * len(rows), 14.0)
    fig, ax = plt.subplots(figsize=(11, height))
    prios = sorted({k[2] for k in rows})
    colors = plt.get_cmap("tab10")
    color_of = {p: colors(i % 10) for i, p in enumerate(prios)}
    for (node, port, prio), g in iv.groupby(["node", "port", "priority"], sort=False):
        y = row_of[(node, port, prio)]
        spans = np.column_stack([g["start_ns"] / 1e6, (g["end_ns"] - g["start_ns"]) / 1e6])
        ax.broken_barh(spans, (y - 0.4, 0.8), facecolors=color_of[prio], lw=0)
    labels = []
    for k in rows:
        frac = total[k] / end_ns if end_ns > 0 else 0
        labels.append(f"{k[0]} port {k[1]} prio {k[2]} ({100 * frac:.0f}%)")
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(labels, fontsize="small" if len(rows) <= 20 else "x-small")
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlabel("time (ms)")
    ax.set_xlim(0, ax_end_ms)
    ax.grid(True, axis="x", alpha=0.3)
    more = len(total) - len(rows)
    ax.set_title(f"PFC pause timeline: {len(rows)} paused (node, port, priority)" +
                 (f", {more} less paused not shown" if more else ""))
    if len(prios) > 1:
        for p in prios:
            ax.barh([], [], color=color_of[p], label=f"priority {p}")
        legend_outside(ax)
    caption = ("Intervals during which a port could not send the priority because it received a "
               "PFC PAUSE (pause to the next RESUME); the percentage is the share of the run "
               "spent paused.")
    return fig, caption


def finished_flows(run):
    flows = run["flows"]
    if flows is None:
        return None
    done = flows[flows["finish_ns"].notna() & flows["fct_ns"].notna()]
    return done if len(done) else None


def fig_fct_cdf(run, ax_end_ms):
    done = finished_flows(run)
    if done is None or len(done) < MIN_FLOWS_FOR_CDF:
        return None, None
    sd = done["slowdown"].dropna()
    sd = sd[sd > 0]
    if len(sd) < MIN_FLOWS_FOR_CDF:
        return None, None
    fig, ax = plt.subplots(figsize=(9, 5.5))

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


def fig_fct_size(run, ax_end_ms):
    done = finished_flows(run)
    if done is None:
        return None, None
    total = len(run["flows"])
    unfinished = total - len(done)
    fig, ax = plt.subplots(figsize=(9, 5.5))
    if done["size_bytes"].nunique() == 1:
        return fct_per_flow(fig, ax, done, unfinished)
    many = len(done) > 2000
    ax.scatter(done["size_bytes"], done["fct_ns"] / 1e3, s=4 if many else 14,
               alpha=0.35 if many else 0.8, color="tab:blue", lw=0, rasterized=many,
               label="measured FCT")
    ideal = done[["size_bytes", "ideal_fct_ns"]].dropna().sort_values("size_bytes")
    if len(ideal):
        ideal = ideal.groupby("size_bytes", sort=True)["ideal_fct_ns"].min()
        ax.plot(ideal.index, ideal.to_numpy() / 1e3, color="black", lw=1.0,
                marker="_" if len(ideal) == 1 else None, ms=20,
                label="ideal FCT (alone, idle network)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("flow size (bytes, log scale)")
    ax.set_ylabel("flow completion time (\u00b5s, log scale)")
    ax.grid(True, which="both", alpha=0.3)
    ax.set_title(f"FCT vs flow size ({plural(len(done), 'finished flow')}" +
                 (f", {unfinished} unfinished not shown)" if unfinished else ")"))
    ax.legend(loc="lower right", fontsize="small")  # points lie above the ideal line
    caption = "Completion time of every finished flow against its size, with the ideal FCT."
    if unfinished:
        caption += f" {plural(unfinished, 'flow')} did not finish."
    return fig, caption


def fct_per_flow(fig, ax, done, unfinished):
    """The FCT figure when every flow has the same size: one bar per flow (a scatter would be a
    single column of dots)."""
    size = float(done["size_bytes"].iloc[0])
    d = done.sort_values("flow_id")
    many = len(d) > 64
    x = np.arange(len(d))
    ax.bar(x, d["fct_ns"] / 1e6, width=1.0 if many else 0.7, color="tab:blue",
           label="measured FCT")
    ideal = d["ideal_fct_ns"].dropna()
    if len(ideal):
        ax.axhline(float(ideal.min()) / 1e6, color="black", lw=1.2,
                   label="ideal FCT (alone, idle network)")
    if not many:
        ax.set_xticks(x)
        ax.set_xticklabels([str(i) for i in d["flow_id"]],
                           fontsize="small" if len(d) <= 32 else "x-small")
    ax.set_xlim(-0.6, len(d) - 0.4)
    ax.set_xlabel("flow id")
    ax.set_ylabel("flow completion time (ms)")
    ax.grid(True, axis="y", alpha=0.3)
    size_text = f"{size / 1e6:g} MB" if size >= 1e6 else f"{size / 1e3:g} KB"
    ax.set_title(f"FCT per flow ({plural(len(d), 'finished flow')} of {size_text})")
    ax.set_ylim(0, 1.18 * float(d["fct_ns"].max()) / 1e6)  # room for the legend
    ax.legend(loc="upper right", fontsize="small", framealpha=0.9, ncol=2)
    caption = (f"Completion time of each finished flow (all {size_text}) against the ideal FCT; "
               "the flows share one size, so this replaces the FCT vs size scatter.")
    if unfinished:
        caption += f" {plural(unfinished, 'flow')} did not finish."
    return fig, caption


FIGURE_MAKERS = {"throughput": fig_throughput, "rate": fig_rate, "queue": fig_queue,
                 "pfc": fig_pfc, "fct_cdf": fig_fct_cdf, "fct_size": fig_fct_size}


# ---------------------------------------------------------------------------------------------
# Output


def fmt_num(v, spec):
    if v is None:
        return None
    try:
        return format(v, spec)
    except (TypeError, ValueError):
        return str(v)


def headline_rows(s):
    """(section, label, value) rows of summary.json's headline numbers; absent keys skipped."""
    def get(*path):
        v = s
        for p in path:
            if not isinstance(v, dict) or p not in v:
                return None
            v = v[p]
        return v

    rows = []

    def add(section, label, value):
        if value is not None:
            rows.append((section, label, value))

    ft, ff = get("flows_total"), get("flows_finished")
    add("Run", "flows finished", f"{ff} of {ft}" if ft is not None else ff)
    sim = get("sim_time_ns")
    add("Run", "simulated time", fmt_num(sim / 1e6, ".3f") + " ms" if sim is not None else None)
    wall = get("wall_time_s")
    add("Run", "wall time", fmt_num(wall, ".2f") + " s" if wall is not None else None)
    add("Run", "events", fmt_num(get("events"), ","))
    util = get("max_link_utilisation")
    add("Network", "busiest link utilisation",
        fmt_num(100 * util, ".1f") + " %" if util is not None else None)
    bn = get("bottleneck")
    if isinstance(bn, dict) and "switch" in bn:
        add("Network", "bottleneck port", f"{bn['switch']} port {bn.get('port', '?')}")
    gp = get("aggregate_goodput_gbps")
    add("Network", "aggregate goodput", fmt_num(gp, ".2f") + " Gb/s" if gp is not None else None)
    mq = get("max_queue_bytes")
    add("Network", "max queue", fmt_num(mq / 1e3, ".1f") + " KB" if mq is not None else None)
    add("Network", "drops (packets)", fmt_num(get("drops"), ","))
    add("Network", "PFC PAUSE frames", fmt_num(get("pfc_pause_frames"), ","))
    add("Network", "PFC RESUME frames", fmt_num(get("pfc_resume_frames"), ","))
    add("Network", "ECN-marked packets", fmt_num(get("ecn_marked_packets"), ","))
    add("Network", "CNPs", fmt_num(get("cnps"), ","))
    add("Network", "retransmitted packets", fmt_num(get("retransmitted_packets"), ","))
    add("Network", "timeouts", fmt_num(get("timeouts"), ","))
    sd = get("fct_slowdown")
    if isinstance(sd, dict):
        for k in ("p50", "p95", "p99", "max"):
            add("Flows", f"FCT slowdown {k}", fmt_num(sd.get(k), ".2f"))
    add("Flows", "Jain fairness", fmt_num(get("jain_fairness"), ".4f"))
    tp = get("flow_throughput_gbps")
    if isinstance(tp, dict) and all(k in tp for k in ("min", "mean", "max")):
        add("Flows", "flow throughput min / mean / max",
            f"{tp['min']:.2f} / {tp['mean']:.2f} / {tp['max']:.2f} Gb/s")
    cc = get("cc")
    if isinstance(cc, dict):
        for k, v in cc.items():
            add("Congestion control", k.replace("_", " "),
                fmt_num(v, ",") if isinstance(v, int) and not isinstance(v, bool) else str(v))
    return rows


def index_html(run, figures, notes):
    s = run["summary"]
    name = str(s.get("scenario", os.path.basename(os.path.abspath(run["dir"]))))
    e = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>dcqcn report: {e(name)}</title>", f"<style>{CSS}</style></head><body>",
           f"<h1>{e(name)}</h1>"]
    sub = [f"seed {s['seed']}" if "seed" in s else None,
           f"dcqcn {s['version']}" if "version" in s else None,
           f"run folder {os.path.abspath(run['dir'])}"]
    dot = " \u00b7 "
    out.append(f'<p class="sub">{e(dot.join(x for x in sub if x))}</p>')
    out.append("<table>")
    section = None
    for sec, label, value in headline_rows(s):
        if sec != section:
            out.append(f'<tr><th class="section" colspan="2">{e(sec)}</th></tr>')
            section = sec
        out.append(f'<tr><td>{e(label)}</td><td class="v">{e(str(value))}</td></tr>')
    out.append("</table>")
    for name_, caption in figures:
        out.append(f'<figure><img src="{name_}.png" alt="{e(caption)}">'
                   f"<figcaption>{e(caption)}</figcaption></figure>")
    for note in notes:
        out.append(f"<p>{e(note)}</p>")
    if run["resolved"]:
        out.append("<details><summary>resolved.toml (the scenario with every default; "
                   "<code>dcqcn run resolved.toml</code> reproduces the run)</summary>")
        out.append(f"<pre>{e(run['resolved'])}</pre></details>")
    out.append("<details><summary>summary.json</summary>")
    out.append(f"<pre>{e(json.dumps(s, indent=2))}</pre></details>")
    out.append("</body></html>\n")
    return "\n".join(out)


def build_report(run_dir, quiet=True):
    """Writes run_dir/report/{index.html, *.png}; returns the path of index.html."""
    run = read_run(run_dir)
    flows = run["flows"]
    run["flows_by_id"] = flows.set_index("flow_id") if flows is not None else None
    end_ms = end_time_ns(run) / 1e6
    report_dir = os.path.join(run_dir, "report")
    os.makedirs(report_dir, exist_ok=True)
    plt.rcParams.update({"font.size": 10, "axes.titlesize": 12, "axes.titleweight": "bold"})

    figures, notes = [], []
    for name in FIGURES:
        fig, caption = FIGURE_MAKERS[name](run, end_ms)
        path = os.path.join(report_dir, f"{name}.png")
        if fig is None:
            if os.path.exists(path):  # stale, from an earlier report of this folder
                os.remove(path)
            continue
        save_figure(fig, path)
        figures.append((name, caption))
    if run["pfc"] is not None and len(run["pfc"]) == 0:
        notes.append("No PFC frames were sent in this run (timeseries/pfc.csv is empty).")
    done = finished_flows(run)
    if run["flows"] is not None and done is None:
        notes.append("No flow finished within the simulated time, so there are no FCT figures.")
    if done is not None and len(done) < MIN_FLOWS_FOR_CDF:
        notes.append(f"The FCT slowdown CDF needs at least {MIN_FLOWS_FOR_CDF} finished flows "
                     f"(this run has {len(done)}).")
    missing = [n for n in ("throughput", "rate", "queue", "pfc") if run[n] is None]
    if missing:
        notes.append("Time series not recorded: " + ", ".join(missing) +
                     " (add them to [output] timeseries in the scenario).")

    index = os.path.join(report_dir, "index.html")
    write_atomic(index, index_html(run, figures, notes).encode("utf-8"))
    if not quiet:
        print(f"report: {index} ({len(figures)} figures: "
              f"{', '.join(n for n, _ in figures) or 'none'})")
    return index


def is_sweep_dir(path):
    """A `dcqcn sweep` output folder: sweep.csv and no summary.json of its own."""
    return (os.path.isfile(os.path.join(path, "sweep.csv")) and
            not os.path.isfile(os.path.join(path, "summary.json")))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dir", help="a `dcqcn run` or `dcqcn sweep` output folder")
    parser.add_argument("--runs", action="store_true",
                        help="for a sweep folder: also report every run (runs/NNN/report/)")
    parser.add_argument("--quiet", action="store_true", help="print nothing but errors")
    args = parser.parse_args(argv)
    try:
        if is_sweep_dir(args.dir):
            import dcqcn_sweep_report  # only sweeps need it
            dcqcn_sweep_report.build_sweep_report(args.dir, quiet=args.quiet,
                                                  with_runs=args.runs, run_report=build_report)
        elif args.runs and os.path.isfile(os.path.join(args.dir, "summary.json")):
            raise ReportError(f"{args.dir}: --runs is for a `dcqcn sweep` folder (with sweep.csv); "
                              "this is a run folder")
        else:
            build_report(args.dir, quiet=args.quiet)
    except ReportError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except Exception:  # noqa: BLE001 - anything else is a bug in this script
        traceback.print_exc()
        print("internal error in dcqcn_report.py (a bug: please report it)", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
