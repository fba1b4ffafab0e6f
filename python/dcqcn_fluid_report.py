"""The report of a `dcqcn fluid` output folder (summary.json, timeseries/fluid.csv): the queue and
per-flow Rc over time with the fixed point; of a `dcqcn fluid --map` folder (summary.json,
map.csv): the verdict grid over N and tau*, a panel per --map-param value. Drawn for `dcqcn
report DIR` by dcqcn_report.py, the command line; imports the shared helpers
(dcqcn/_report_common.py), never the run or sweep report.
"""

import html
import json
import os
import re
import sys

import matplotlib.colors
import matplotlib.patches
import numpy as np
import pandas as pd

from dcqcn._report_common import (MISSING, NA, ReportError, fmt_kb, fmt_num, get,
                                  legend_outside, line_colors, not_a_command, page_html, read_csv,
                                  read_summary, save_figure, sections_table_html, figures_html,
                                  subplots, write_atomic)

VERDICT_COLORS = {"steady": "#4e9a52", "decaying": "#e3b341", "oscillating": "#cf4b45"}


def is_fluid_run_dir(path):
    """A `dcqcn fluid` output folder: summary.json and timeseries/fluid.csv."""
    return (os.path.isfile(os.path.join(path, "summary.json")) and
            os.path.isfile(os.path.join(path, "timeseries", "fluid.csv")))


def is_fluid_map_dir(path):
    """A `dcqcn fluid --map` output folder: summary.json and map.csv."""
    return (os.path.isfile(os.path.join(path, "summary.json")) and
            os.path.isfile(os.path.join(path, "map.csv")))


def fluid_verdict_text(s):
    """"oscillating, period 2.30 ms" from a fluid summary.json."""
    osc = s.get("oscillation") or {}
    verdict = str(osc.get("verdict", NA))
    period = osc.get("period_ns")
    if verdict != "steady" and isinstance(period, (int, float)):
        verdict += f", period {period / 1e6:.2f} ms"
    return verdict


def fluid_origin(s, key):
    """Where N, C or tau* came from: "scenario FILE (how)", "--flows" or "default"."""
    o = get(s, "origin", key)
    if not isinstance(o, dict):
        return ""
    if o.get("from") == "scenario":
        return f" (scenario {o.get('scenario')}: {o.get('how')})"
    if o.get("from") == "flag":
        return f" (--{key})"
    return " (default)"


def fluid_rows(s):
    """(section, label, text) rows of a fluid run's summary.json."""
    rows = []

    def add(section, label, value):
        if value is not MISSING:
            rows.append((section, label, value))

    add("Model", "flows N", f"{get(s, 'flows')}{fluid_origin(s, 'flows')}")
    add("Model", "bottleneck C",
        fmt_num(get(s, "rate_gbps"), "g", 1, " Gb/s") + fluid_origin(s, "rate"))
    add("Model", "control-loop delay \u03c4*",
        fmt_num(get(s, "delay_ns"), ".4g", 1e-3, " \u00b5s") + fluid_origin(s, "delay"))
    add("Model", "packet", fmt_num(get(s, "packet_bytes"), "d", 1, " B"))
    add("Model", "integrated", fmt_num(get(s, "duration_ns"), "g", 1e-6, " ms"))
    add("Model", "step", fmt_num(get(s, "step_ns"), "g", 1, " ns"))
    for name in ("exact", "approx"):
        fp = get(s, "fixed_point", name)
        if isinstance(fp, dict):
            q = fp.get("queue_bytes")
            add("Fixed point", f"{name}: p*, q*",
                f"{fmt_num(fp.get('p'), '.4f', 100, ' %')}, "
                f"{fmt_kb(q) if q is not None else 'none (p* > Pmax)'}")
    add("Last half", "verdict", fluid_verdict_text(s))
    add("Last half", "queue mean / peak-to-peak",
        f"{fmt_num(get(s, 'queue_bytes', 'mean'), '.1f', 1e-3)} / "
        f"{fmt_num(get(s, 'queue_bytes', 'peak_to_peak'), '.1f', 1e-3)} KB")
    add("Last half", "Rc mean (fair share)",
        f"{fmt_num(get(s, 'rc_gbps_mean_of_flows', 'mean'), '.3f')} "
        f"({fmt_num(get(s, 'fair_share_gbps'), '.3f')}) Gb/s")
    add("Last half", "utilisation", fmt_num(get(s, "utilisation"), ".2f", 100, " %"))
    hs = get(s, "half_step_check")
    if isinstance(hs, dict):
        add("Numerics", "half-step check: max queue difference",
            fmt_num(hs.get("max_queue_difference_bytes"), ".3g", 1, " B"))
    add("Numerics", "wall time", fmt_num(get(s, "wall_time_s"), ".2f", 1, " s"))
    return rows


def fluid_index_html(title, sub, rows, figures, notes, formats, extra=""):
    body = [sections_table_html(rows), *figures_html(figures, notes, formats), extra]
    return page_html(f"dcqcn report: {title}", title, sub, body)


def fig_fluid_queue(s, df):
    """The queue over the whole run and over the verdict's window (the last half), where a
    start-up peak no longer sets the scale, with q* and the RED thresholds."""
    t = df["time_ns"] / 1e6
    q = get(s, "fixed_point", "exact", "queue_bytes")
    has_q = isinstance(q, (int, float))
    text = f"q* = {fmt_kb(q)}" if has_q else "no fixed point on the RED curve (p* > Pmax)"
    window_from = get(s, "window", "from_ns")
    window_from = window_from / 1e6 if isinstance(window_from, (int, float)) else float(t.max()) / 2
    fig, axes = subplots(2, 1, figsize=(10, 6.4))
    for ax, part in zip(axes, (t >= t.min(), t >= window_from)):
        tp, qp = t[part], df["queue_bytes"][part] / 1e3
        ax.plot(tp, qp, lw=1.0, color="#1f5fa8", label="queue")
        if has_q:
            ax.axhline(q / 1e3, color="#d2691e", ls="--", lw=1.2,
                       label=f"q* = {fmt_kb(q)} (exact fixed point)")
        top = max(float(qp.max()), q / 1e3 if has_q else 0.0)
        for key, label in (("kmin_bytes", "Kmin"), ("kmax_bytes", "Kmax")):
            k = get(s, "parameters", key)
            if isinstance(k, (int, float)) and 0 < k / 1e3 <= 1.1 * max(top, 1e-9):
                ax.axhline(k / 1e3, color="#888", ls=":", lw=1, label=f"{label} {k / 1e3:g} KB")
        ax.set_xlim(float(tp.min()), float(tp.max()))
        ax.set_ylim(0, 1.08 * max(top, 1e-3))
        ax.set_ylabel("queue (KB)")
        ax.grid(alpha=0.3)
        legend_outside(ax)
    axes[0].set_title(f"Queue: {fluid_verdict_text(s)}")
    axes[1].set_title("the last half (the verdict's window)", fontsize=10, fontweight="normal")
    axes[1].set_xlabel("time (ms)")
    fig.tight_layout()
    caption = (f"Bottleneck queue of the fluid model ({s.get('flows')} flows, "
               f"\u03c4* = {s.get('delay_ns', 0) / 1e3:.4g} \u00b5s), over the whole run and "
               f"over the last half; dashed: {text}; verdict over the last half: "
               f"{fluid_verdict_text(s)}.")
    return fig, caption


def fig_fluid_rate(s, df):
    t = df["time_ns"] / 1e6
    cols = sorted((c for c in df.columns if re.fullmatch(r"rc_gbps_\d+", c)),
                  key=lambda c: int(c.rsplit("_", 1)[1]))
    fig, ax = subplots(figsize=(10, 4.2))
    color = line_colors(len(cols))
    for i, c in enumerate(cols):
        ax.plot(t, df[c], lw=0.8, color=color(i), alpha=0.8, label=f"flow {c.rsplit('_', 1)[1]}")
    ax.plot(t, df["rc_gbps_mean"], lw=1.6, color="black", label="mean Rc")
    share = get(s, "fair_share_gbps")
    if isinstance(share, (int, float)):
        ax.axhline(share, color="#d2691e", ls="--", lw=1.2, label=f"Rc* = C/N = {share:.3g} Gb/s")
    ax.set_xlabel("time (ms)")
    ax.set_ylabel("Rc (Gb/s)")
    ax.set_xlim(float(t.min()), float(t.max()))
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.set_title("Per-flow rate Rc")
    if len(cols) + 2 <= 20:
        legend_outside(ax, ncol=1 if len(cols) <= 10 else 2)
    flows = s.get("flows")
    shown = f"the first {len(cols)} of {flows} flows" if flows and flows > len(cols) else \
        "every flow"
    return fig, (f"Rc of {shown} (fluid.csv holds up to 16), their mean and the fair share "
                 "C/N of the fixed point.")


def build_fluid_report(folder, quiet=True, formats=("png",)):
    """The report of a `dcqcn fluid` folder: queue and per-flow Rc over time with the fixed
    point. Returns the path of index.html."""
    s = read_summary(folder)
    path = os.path.join(folder, "timeseries", "fluid.csv")
    df = read_csv(path, {"time_ns": "float64", "queue_bytes": "float64",
                         "rc_gbps_mean": "float64"})
    if len(df) == 0:
        raise ReportError(f"{path}: no samples")
    df = pd.read_csv(path)  # every column: the per-flow ones are named rc_gbps_<i>
    report_dir = os.path.join(folder, "report")
    os.makedirs(report_dir, exist_ok=True)
    figures = []
    for name, maker in (("fluid_queue", fig_fluid_queue), ("fluid_rate", fig_fluid_rate)):
        fig, caption = maker(s, df)
        save_figure(fig, report_dir, name, formats)
        figures.append((name, caption))
    notes = []
    if get(s, "fixed_point", "note") not in (MISSING, None):
        notes.append(str(s["fixed_point"]["note"]))
    sub = (f"dcqcn fluid \u00b7 {s.get('model', '')} \u00b7 folder {os.path.abspath(folder)}")
    extra = ("<details><summary>summary.json</summary>"
             f"<pre>{html.escape(json.dumps(s, indent=2))}</pre></details>")
    index = os.path.join(report_dir, "index.html")
    title = f"fluid model: {s.get('flows')} flows, {fluid_verdict_text(s)}"
    write_atomic(index, fluid_index_html(title, sub, fluid_rows(s), figures, notes, formats,
                                         extra).encode("utf-8"))
    if not quiet:
        print(f"report: {index} ({len(figures)} figures: "
              f"{', '.join(n for n, _ in figures)}); verdict: {fluid_verdict_text(s)}")
    return index


def read_fluid_map(folder, s):
    """map.csv, and the third axis's key and values (None, [None] without one)."""
    path = os.path.join(folder, "map.csv")
    mp = s.get("map_param")
    key = mp.get("key") if isinstance(mp, dict) else None
    dtypes = {"flows": "int64", "delay_ns": "float64", "verdict": str}
    if key:
        dtypes[key] = str
    df = read_csv(path, dtypes)
    if len(df) == 0:
        raise ReportError(f"{path}: no cells")
    df = pd.read_csv(path, dtype={key: str} if key else None)
    values = [str(v) for v in mp.get("values", [])] if key else [None]
    if key:
        values += [v for v in dict.fromkeys(df[key]) if v not in values]
    return df, key, values


def fig_fluid_map(df, key, values):
    """The verdict grid over N (rows) and tau* (columns), one panel per third-axis value."""
    delays = sorted(df["delay_ns"].unique())
    ns = sorted(df["flows"].unique())
    panels = len(values)
    cols = min(panels, 3)
    rows = (panels + cols - 1) // cols
    width = max(4.0, 0.55 * len(delays) + 1.8)
    height = max(3.0, 0.38 * len(ns) + 1.5)
    fig, axes = subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False)
    codes = {"steady": 0, "decaying": 1, "oscillating": 2}
    cmap = matplotlib.colors.ListedColormap([VERDICT_COLORS[v] for v in codes])
    for i, ax in enumerate(axes.flat):
        if i >= panels:
            ax.set_visible(False)
            continue
        v = values[i]
        part = df if key is None else df[df[key] == v]
        grid = np.full((len(ns), len(delays)), np.nan)
        letters = {}
        for n, d, verdict in zip(part["flows"], part["delay_ns"], part["verdict"]):
            r, c = ns.index(n), delays.index(d)
            grid[r, c] = codes.get(verdict, np.nan)
            letters[(r, c)] = str(verdict)[:1].upper()
        ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, vmin=-0.5, vmax=2.5, aspect="auto",
                  origin="lower")
        for (r, c), letter in letters.items():
            ax.text(c, r, letter, ha="center", va="center", fontsize=9, color="white",
                    fontweight="bold")
        ax.set_xticks(range(len(delays)))
        ax.set_xticklabels([f"{d / 1e3:g}" for d in delays], rotation=0)
        ax.set_yticks(range(len(ns)))
        ax.set_yticklabels([str(n) for n in ns])
        ax.set_xlabel("\u03c4* (\u00b5s)")
        ax.set_ylabel("flows N")
        ax.set_title(f"{key} = {v}" if key else "stability map")
    handles = [matplotlib.patches.Patch(color=c, label=v) for v, c in VERDICT_COLORS.items()]
    fig.legend(handles=handles, loc="upper center", ncol=3, bbox_to_anchor=(0.5, 1.0),
               frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.93))
    return fig


def verdict_counts(df):
    counts = df["verdict"].value_counts()
    return ", ".join(f"{int(counts[v])} {v}" for v in ("steady", "decaying", "oscillating")
                     if v in counts)


def build_fluid_map_report(folder, quiet=True, formats=("png",)):
    """The report of a `dcqcn fluid --map` folder: the verdict grid over N and tau*, one panel
    per --map-param value, and map.csv as a table. Returns the path of index.html."""
    s = read_summary(folder)
    df, key, values = read_fluid_map(folder, s)
    report_dir = os.path.join(folder, "report")
    os.makedirs(report_dir, exist_ok=True)
    save_figure(fig_fluid_map(df, key, values), report_dir, "fluid_map", formats)
    counts = verdict_counts(df)
    caption = ("Verdict of every cell over the last half of the run (S steady, D decaying: still "
               "shrinking, run longer; O oscillating: a limit cycle)" +
               (f", one panel per value of {key}" if key else "") + f": {counts}.")
    rows = [("Map", "bottleneck C",
             fmt_num(get(s, "rate_gbps"), "g", 1, " Gb/s") + fluid_origin(s, "rate")),
            ("Map", "packet", fmt_num(get(s, "packet_bytes"), "d", 1, " B")),
            ("Map", "RED curve", f"{fmt_num(get(s, 'kmin_bytes'), 'g', 1e-3)} KB / "
                                 f"{fmt_num(get(s, 'kmax_bytes'), 'g', 1e-3)} KB / "
                                 f"{fmt_num(get(s, 'pmax'), 'g', 100)} %"),
            ("Map", "integrated per cell", fmt_num(get(s, "duration_ns"), "g", 1e-6, " ms")),
            ("Map", "cells", f"{len(df)}: {counts}")]
    if key:
        rows.append(("Map", "third axis", f"{key} = {', '.join(values)}"))
    e = html.escape
    table = ['<div class="wide"><table class="sweep"><tr>' +
             "".join(f"<th>{e(str(c))}</th>" for c in df.columns) + "</tr>"]
    for rec in df.itertuples(index=False):
        table.append("<tr>" + "".join(
            f"<td>{e(NA if isinstance(x, float) and np.isnan(x) else str(x))}</td>"
            for x in rec) + "</tr>")
    table.append("</table></div>")
    extra = ("<p>map.csv:</p>" + "\n".join(table) +
             "<details><summary>summary.json</summary>"
             f"<pre>{e(json.dumps(s, indent=2))}</pre></details>")
    index = os.path.join(report_dir, "index.html")
    sub = f"dcqcn fluid --map \u00b7 folder {os.path.abspath(folder)}"
    write_atomic(index, fluid_index_html("fluid model stability map", sub, rows,
                                         [("fluid_map", caption)], [], formats,
                                         extra).encode("utf-8"))
    if not quiet:
        print(f"report: {index} (1 figure: fluid_map); verdicts: {counts}")
    return index


if __name__ == "__main__":
    sys.exit(not_a_command("dcqcn_fluid_report.py"))
