"""The report of a `dcqcn sweep` output folder (sweep.csv and no summary.json of its own): its
figures and index.html, drawn for `dcqcn report DIR` by dcqcn_report.py, the command line.

sweep.csv (src/run/sweep.cc) has one row per run: run, dir, one column per varied key
(`workload.senders`, `cc.algorithm`, ...; values as given to --vary, e.g. "40KB"), the metrics,
then error. The varied keys are sweep.json's (its --vary keys, and `seed` last with --seeds); the
metrics are the columns after them, per flow tag tag.<tag>.<metric> and per collective
collective.<tag>.<metric>: the table shows every one, and the figures draw those they know (a
figure whose metrics sweep.csv lacks is left out). Every
number drawn is the simulator's (sweep.csv's, or where sweep.csv has no column, the run folders':
summary.json's port names and Jain indices against the max-min shares, links.csv's per-port
utilisation, so that one port is compared across runs): the metrics are defined once, in the
simulator's summary.

The figures put the first varied key on the x axis (values with units parsed to numbers; log scale
when they span more than 20x), draw one coloured line per value of the second key and tell the
values of any further keys apart by line style and marker. When `seed` is a varied key it is not
an axis: each point is the mean over the seeds with its 95% confidence interval (Student t).
Writes DIR/report/{index.html, <figure>.<format>}; given a `run_report`, each run's own report
first (DIR/runs/NNN/report/, linked from the table). It imports the shared helpers
(dcqcn/_report_common.py) and the unit parser (dcqcn/units.py), never the run report: the
command line hands it the run report to call.
"""

import html
import json
import math
import os
import re
import sys

import numpy as np
import pandas as pd
from matplotlib import ticker
from matplotlib.lines import Line2D
from matplotlib.transforms import ScaledTranslation, blended_transform_factory

from dcqcn._report_common import (NA, ReportError, draw_figures, figures_html, mean_ci95,
                                  not_a_command, page_html, plt, subplots, write_atomic)
from dcqcn.units import UNITS, parse_quantity

# sweep.csv's frame around the varied keys and the metrics (SweepCsv() in
# src/run/sweep.cc): run,dir,<varied keys>,<metrics>,error. Which keys were varied is
# sweep.json's to say, and the metrics are whatever columns follow them: this module keeps no list
# of them, so a metric the simulator adds is in the table and one it drops is not.
LEADING_COLUMNS = ["run", "dir"]
ERROR_COLUMN = "error"  # the last column: a failed run's error (absent in folders before it)
TAG_PREFIX = "tag."  # tag.<tag>.<metric>: a metric of the flows of one tag (tags have no dot)
COLLECTIVE_PREFIX = "collective."  # collective.<tag>.<metric>: a metric of one collective
# A varied key that is the size of the N-th [[collective]] (--vary collective.N.size=...).
COLLECTIVE_SIZE_KEY = re.compile(r"collective\.(\d+)\.size")
SEED_KEY = "seed"  # a varied key that is averaged over rather than drawn as an axis

SWEEP_FIGURES = ["queue", "max_queue", "pfc", "utilisation", "fairness", "tag_throughput",
                 "convergence", "fct", "collective_busbw"]
MAX_PANEL_COLUMNS = 3  # per-tag panels per row

LOG_X_SPAN = 20  # a numeric x axis spanning more than this factor is drawn on a log scale
LOG_Y_SPAN = 100  # likewise for y, where a linear axis would flatten the small values
MAX_BANDS = 2  # more lines than this show their spread as (dodged) error bars
DODGE_POINTS = 24  # total sideways spread of dodged lines, in points
MAX_TICK_LABELS = 12  # numeric x values labelled one by one up to this many
LINE_STYLES = ["-", "--", ":", "-."]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]

_NUMBER = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"  # a --vary value without a unit


def axis_value(text):
    """(value, kind, unit) of a --vary value: a quantity with one of the simulator's units in its
    base unit (dcqcn.units: "40KB" -> (40000, "size", "KB")), or a plain number ("0.5" -> (0.5,
    "", "")); None when it is neither."""
    quantity = parse_quantity(text)
    if quantity is not None:
        return quantity
    m = re.fullmatch(rf"\s*({_NUMBER})\s*", str(text))
    return (float(m.group(1)), "", "") if m else None


def fmt_tick(v):
    """A tick label: 128 -> "128", 0.5 -> "0.5", 12000 -> "12,000"."""
    if v == 0:
        return "0"
    if abs(v) >= 1000 and float(v).is_integer():
        return f"{v:,.0f}"
    return f"{v:.4g}"


class Axis:
    """The values of one varied key in plotting order, and where each goes on an axis.

    Numeric when every value parses to a number of one kind (all plain, all sizes, all rates or
    all times): positions are the values in a display unit, sorted. Otherwise categorical:
    positions 0, 1, ... in the order the sweep ran them."""

    def __init__(self, key, labels):
        self.key = key
        self.unit = ""
        self.log = False
        labels = list(dict.fromkeys(labels))  # unique, in sweep order
        parsed = [axis_value(v) for v in labels]
        kinds = {p[1] for p in parsed if p is not None}
        self.numeric = bool(labels) and None not in parsed and len(kinds) == 1
        if not self.numeric:
            self.labels = labels
            self.positions = {v: float(i) for i, v in enumerate(labels)}
            return
        kind = kinds.pop()
        base = np.array([p[0] for p in parsed], dtype=float)
        scale = 1.0
        if kind:
            units = {p[2] for p in parsed}
            if len(units) == 1:  # the unit every value was given in
                self.unit = units.pop()
                scale = dict(UNITS[kind])[self.unit]
            else:  # mixed units: the largest decimal one in which the median is >= 1
                self.unit, scale = UNITS[kind][0]
                median = float(np.median(np.abs(base)))
                for u, s in UNITS[kind]:
                    if "i" not in u and median >= s:
                        self.unit, scale = u, s
        values = base / scale
        order = np.argsort(values, kind="stable")
        self.labels = [labels[i] for i in order]
        self.positions = {labels[i]: float(values[i]) for i in order}
        pos = values[values > 0]
        self.log = len(pos) == len(values) and len(values) > 1 and (
            pos.max() / pos.min() > LOG_X_SPAN)

    def label(self):
        return self.key + (f" ({self.unit})" if self.unit else "") + (
            ", log scale" if self.log else "")

    def style(self, ax):
        """Scale, ticks, limits and label of an x axis showing this key."""
        if not self.numeric:
            ax.set_xticks(range(len(self.labels)))
            ax.set_xticklabels(self.labels, rotation=30 if len(self.labels) > 6 else 0,
                               ha="right" if len(self.labels) > 6 else "center")
            ax.set_xlim(-0.5, len(self.labels) - 0.5)
        else:
            if self.log:
                ax.set_xscale("log")
            values = sorted(set(self.positions.values()))
            if len(values) <= MAX_TICK_LABELS:
                ax.xaxis.set_major_locator(ticker.FixedLocator(values))
                ax.xaxis.set_minor_locator(ticker.NullLocator())
            ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: fmt_tick(v)))
            if len(values) == 1:  # one value: centre it
                v = values[0]
                ax.set_xlim(v / 2, v * 2) if self.log or v > 0 else ax.set_xlim(v - 1, v + 1)
            elif self.log:
                lo, hi = values[0], values[-1]
                pad = (hi / lo) ** 0.07
                ax.set_xlim(lo / pad, hi * pad)
        ax.set_xlabel(self.label())


class Series:
    """One line: a value of the second key (colour) and of the further keys (line style)."""

    def __init__(self, color, ls, marker, color_value, style_values):
        self.color, self.ls, self.marker = color, ls, marker
        self.color_value, self.style_values = color_value, style_values


# ---------------------------------------------------------------------------------------------
# Reading


def tag_columns(cols, prefix=TAG_PREFIX):
    """{tag: {metric: column}} of sweep.csv's tag.<tag>.<metric> columns (or those of another
    prefix), tags in column order."""
    tags = {}
    for c in cols:
        tag, dot, m = c[len(prefix):].partition(".")
        if c.startswith(prefix) and tag and dot and m:
            tags.setdefault(tag, {})[m] = c
    return tags


def collective_columns(cols):
    """{tag: {metric: column}} of sweep.csv's collective.<tag>.<metric> columns."""
    return tag_columns(cols, COLLECTIVE_PREFIX)


def collective_size_keys(sweep):
    """{tag: the varied key that is that collective's size} of the collectives in sweep.csv: the
    key collective.N.size names the N-th [[collective]], whose tag the runs' summary.json say
    (its default, collectiveN, without them)."""
    out = {}
    for key in sweep["keys"]:
        m = COLLECTIVE_SIZE_KEY.fullmatch(key)
        if not m:
            continue
        n = int(m.group(1))
        tags = {c[n].get("tag") for c in (s.get("collectives") for s in
                                          sweep["summaries"].values())
                if isinstance(c, list) and n < len(c) and isinstance(c[n], dict)}
        if not tags:
            tags = {f"collective{n}"}
        if len(tags) == 1 and next(iter(tags)) in sweep["collectives"]:
            out[tags.pop()] = key
    return out


def metric(df, column):
    """A metric column of the table as numbers: all NaN (nothing drawn) when sweep.csv does not
    have it, NaN where a cell is not a number."""
    if column not in df:
        return pd.Series(np.nan, index=df.index, dtype=float)
    return pd.to_numeric(df[column], errors="coerce")


def read_varied_keys(sweep_dir):
    """The varied keys of a sweep, in sweep.csv's order, from its sweep.json (what `dcqcn sweep`
    writes to describe the sweep): each --vary KEY=V1,V2,... and, with --seeds N, `seed` last."""
    path = os.path.join(sweep_dir, "sweep.json")
    try:
        with open(path, encoding="utf-8") as f:
            meta = json.load(f)
    except FileNotFoundError:
        raise ReportError(f"{path}: no such file: the report reads the sweep's varied keys from "
                          "it (`dcqcn sweep` writes it beside sweep.csv; for a folder without "
                          'one, write e.g. {"vary": ["workload.senders=2,4"], "seeds": 0})')
    except (OSError, ValueError) as e:
        raise ReportError(f"{path}: {e}")
    vary = meta.get("vary", []) if isinstance(meta, dict) else None
    seeds = meta.get("seeds", 0) if isinstance(meta, dict) else None
    if (not isinstance(vary, list) or not all(isinstance(v, str) and "=" in v[1:] for v in vary)
            or not isinstance(seeds, int) or isinstance(seeds, bool) or seeds < 0):
        raise ReportError(f'{path}: expected {{"vary": ["KEY=V1,V2,...", ...], "seeds": N}} '
                          "(what `dcqcn sweep` writes)")
    keys = [v.split("=", 1)[0] for v in vary] + ([SEED_KEY] if seeds > 0 else [])
    if not keys:
        raise ReportError(f"{path}: no varied key (vary is empty and seeds is 0)")
    return keys


def read_sweep(sweep_dir):
    """sweep.csv as a dict: the table (metrics numeric, keys as text), the varied keys (from
    sweep.json), the metric columns (the columns after them), the x axis, the series and the
    summaries of the run folders that have one."""
    path = os.path.join(sweep_dir, "sweep.csv")
    try:
        df = pd.read_csv(path, dtype=str, keep_default_na=False)
    except pd.errors.EmptyDataError:
        raise ReportError(f"{path}: empty file (expected the table `dcqcn sweep` writes)")
    except (OSError, ValueError) as e:
        raise ReportError(f"{path}: {e}")
    cols = list(df.columns)
    if cols[:2] != LEADING_COLUMNS:
        raise ReportError(f"{path}: expected the columns run,dir,<varied keys>,<metrics> "
                          f"(got {','.join(cols[:4])}...)")
    keys = read_varied_keys(sweep_dir)
    got = cols[2:2 + len(keys)]
    if got != keys:
        raise ReportError(f"{path}: expected the varied-key columns {','.join(keys)} after "
                          f"run,dir, as sweep.json says (got {','.join(got) or 'none'})")
    if len(df) == 0:
        raise ReportError(f"{path}: no runs in the table")
    metrics = cols[2 + len(keys):]
    if metrics[-1:] == [ERROR_COLUMN]:
        metrics.pop()
    # Empty cells are null statistics (NaN): never drawn, shown as a dash. A column with text in
    # it stays text (shown as written, never drawn).
    for c in metrics:
        numbers = pd.to_numeric(df[c], errors="coerce")
        if not (numbers.isna() & (df[c] != "")).any():
            df[c] = numbers
    tags = tag_columns(metrics)

    summaries = {}
    for d in df["dir"]:
        s_path = os.path.join(sweep_dir, d, "summary.json")
        try:
            with open(s_path, encoding="utf-8") as f:
                summaries[d] = json.load(f)
        except (OSError, ValueError):
            pass  # a missing or unreadable run summary only loses the warm-up note and name

    reference_port = read_ports(sweep_dir, df, summaries)

    return {"dir": sweep_dir, "path": path, "table": df, "keys": keys, "metrics": metrics,
            "tags": tags, "collectives": collective_columns(metrics), "summaries": summaries,
            "reference_port": reference_port, **arrange(df, keys)}


def arrange(df, keys):
    """How the figures lay out the runs of `df` (the table) against the varied `keys`: the first
    key (not the seed) on the x axis, a colour per value of the second, a line style per
    combination of the further ones. Adds the columns _x (the x position) and _series (the line)
    to `df` and returns the layout that draw() and legend() read."""
    # Seeds are repetitions, not a parameter: the figures average over them.
    seeds = sorted(set(df[SEED_KEY]), key=lambda v: (len(v), v)) if SEED_KEY in keys else []
    plot_keys = [k for k in keys if k != SEED_KEY]
    if not plot_keys:  # only the seed varied: one point per figure
        df["_pooled"] = f"{len(seeds)} seeds"
        plot_keys = ["_pooled"]

    xaxis = Axis(plot_keys[0], df[plot_keys[0]])
    df["_x"] = df[plot_keys[0]].map(xaxis.positions)

    # Colours: the second key's values, in its axis order (numeric values sorted).
    color_values = Axis(plot_keys[1], df[plot_keys[1]]).labels if len(plot_keys) > 1 else [None]
    if len(color_values) <= 10:
        palette = [plt.get_cmap("tab10")(i) for i in range(len(color_values))]
    else:
        palette = [plt.get_cmap("viridis")(t) for t in np.linspace(0, 0.9, len(color_values))]
    color_of = dict(zip(color_values, palette))
    # Line styles: the combinations of the further keys, each key in its axis order.
    style_keys = plot_keys[2:]
    style_order = [Axis(k, df[k]).labels for k in style_keys]
    combos = sorted({tuple(row) for row in df[style_keys].itertuples(index=False)},
                    key=lambda c: [order.index(v) for order, v in zip(style_order, c)])
    if not combos:
        combos = [()]
    style_of = {c: (LINE_STYLES[i % len(LINE_STYLES)], MARKERS[i % len(MARKERS)])
                for i, c in enumerate(combos)}

    # One series per (second-key value, further-key combination) that occurs.
    row_keys = [(row[plot_keys[1]] if len(plot_keys) > 1 else None,
                 tuple(row[k] for k in style_keys)) for _, row in df.iterrows()]
    ordered = sorted(set(row_keys),
                     key=lambda k: (color_values.index(k[0]), combos.index(k[1])))
    series = [Series(color_of[cv] if cv is not None else "tab:blue", *style_of[sv], cv, sv)
              for cv, sv in ordered]
    number = {k: i for i, k in enumerate(ordered)}
    df["_series"] = [number[k] for k in row_keys]

    return {"plot_keys": plot_keys, "seeds": seeds, "pooled": plot_keys == ["_pooled"],
            "x": xaxis, "series": series, "color_values": color_values, "color_of": color_of,
            "style_keys": style_keys, "combos": combos, "style_of": style_of}


def port_name(port):
    """"s4 port 0 → s0" of summary.json's {"switch", "port", "peer"}; None when absent."""
    if not isinstance(port, dict) or "switch" not in port:
        return None
    peer = f" → {port['peer']}" if port.get("peer") else ""
    return f"{port['switch']} port {port.get('port', '?')}{peer}"


def read_ports(sweep_dir, df, summaries):
    """Adds to the table what each run measured where: the columns _bottleneck_port and
    _busiest_port (the ports summary.json's bottleneck and max_link_utilisation measure, named
    "s4 port 0 → s0"), _max_min_jain and _normalised_jain (summary.json's Jain indices
    against the max-min fair shares), and, when every run's links.csv gives each port's
    utilisation, _ref_util: the utilisation of one port, the same in every run, whose name it
    returns (None without).
    Runs differ in which port queues most or is busiest (under PFC alone the queue builds
    upstream of the congested port), so only one port compared across runs says how busy the
    network's bottleneck was. NaN or None where a run folder lacks the data (older folders)."""
    def of(d, key):
        v = summaries.get(d, {}).get(key) if d else None
        return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else math.nan

    df["_bottleneck_port"] = [port_name(summaries.get(d, {}).get("bottleneck")) for d in df["dir"]]
    df["_busiest_port"] = [port_name(summaries.get(d, {}).get("busiest_port")) for d in df["dir"]]
    df["_active_start_ns"] = [of(d, "active_start_ns") for d in df["dir"]]
    df["_max_min_jain"] = [of(d, "max_min_jain_fairness") for d in df["dir"]]
    df["_normalised_jain"] = [of(d, "normalised_jain_fairness") for d in df["dir"]]
    df["_ref_util"] = math.nan
    utils = {}  # dir -> {(switch, port): (peer, utilisation)}
    for d in df["dir"]:
        if not d:
            continue  # a failed run: no folder
        try:
            links = pd.read_csv(os.path.join(sweep_dir, d, "links.csv"), dtype={"node": str,
                                "peer": str})
        except (OSError, ValueError):
            return None
        if "utilisation" not in links or not {"node", "port", "peer"} <= set(links.columns):
            return None
        switch = links[links["node"].str.startswith("s") & links["utilisation"].notna()]
        utils[d] = {(n, int(p)): (peer, float(u)) for n, p, peer, u in
                    zip(switch["node"], switch["port"], switch["peer"], switch["utilisation"])}
    if not utils:
        return None
    # The port busiest on average over the runs; a port some run lacks is not comparable.
    common = set.intersection(*(set(u) for u in utils.values()))
    if not common:
        return None
    ref = max(sorted(common), key=lambda k: sum(u[k][1] for u in utils.values()))
    peers = {u[ref][0] for u in utils.values()}
    df["_ref_util"] = [utils[d][ref][1] if d in utils else math.nan for d in df["dir"]]
    return port_name(
        {"switch": ref[0], "port": ref[1], "peer": peers.pop() if len(peers) == 1 else None})


def runs_by_port(df, column):
    """"s1 port 9 → s4 in runs 000, 002; s4 port 0 → s0 in runs 001, 003" of a port
    column (a run's port per row); "" when the column names no port."""
    groups = {}
    for run, port in zip(df["run"], df[column]):
        if port:
            groups.setdefault(port, []).append(str(run).zfill(3))
    return "; ".join(f"{port} in run{'s' if len(runs) > 1 else ''} {', '.join(runs)}"
                     for port, runs in groups.items())


def is_sweep_dir(path):
    """A `dcqcn sweep` output folder: sweep.csv and no summary.json of its own."""
    return (os.path.isfile(os.path.join(path, "sweep.csv")) and
            not os.path.isfile(os.path.join(path, "summary.json")))


def sweep_name(sweep):
    """The scenario's name without the suffix `dcqcn sweep` appends to each run's name, else the
    folder's name."""
    first_key = sweep["keys"][0]
    for s in sweep["summaries"].values():
        name = str(s.get("scenario", ""))
        cut = name.find(f"_{first_key}=")
        if cut > 0:
            return name[:cut]
    return os.path.basename(os.path.abspath(sweep["dir"]))


def warmup_note(sweep):
    """", after the first 20 ms of warm-up" when the runs measured the bottleneck from then."""
    starts = {float(s.get("bottleneck", {}).get("from_ns") or 0)
              for s in sweep["summaries"].values() if isinstance(s.get("bottleneck"), dict)}
    if not starts or starts == {0.0}:
        return ""
    if len(starts) == 1:
        return f", measured after the first {starts.pop() / 1e6:g} ms of warm-up"
    return ", measured after each run's warm-up"


# ---------------------------------------------------------------------------------------------
# Drawing


def new_figure(sweep, panels=1, sharey=False):
    """A figure of `panels` side by side (at most MAX_PANEL_COLUMNS a row); returns (figure,
    the panels' axes), unused grid cells removed."""
    cols = min(panels, MAX_PANEL_COLUMNS)
    rows = math.ceil(panels / cols)
    width = 8.5 if cols == 1 else 4.5 + 4.5 * cols
    fig, axes = subplots(rows, cols, figsize=(width, 4.8 * rows), squeeze=False,
                             sharey=sharey)
    axes = list(axes.flat)
    for ax in axes[panels:]:
        fig.delaxes(ax)
    return fig, axes[:panels]


def plain_formatter():
    return ticker.FuncFormatter(lambda v, _: fmt_tick(v))


def scale_y(ax, values, span=LOG_Y_SPAN, floor_zero=True):
    """A log (or, with zeros, symlog) y axis when the positive values span more than `span`,
    else linear from 0; tick labels as plain numbers. Returns the scale's name. A log axis's
    limits are left to autoscaling (or set_log_ylim) once the lines are drawn."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    pos = v[v > 0]
    if len(pos) >= 2 and pos.max() / pos.min() > span and (v >= 0).all():
        if (v == 0).any():
            lin = 10 ** math.floor(math.log10(pos.min()))
            ax.set_yscale("symlog", linthresh=lin, linscale=0.4)
            ax.set_ylim(bottom=0, top=pos.max() * 2)
            scale = "symlog"
        else:
            ax.set_yscale("log")
            scale = "log"
        ax.yaxis.set_major_formatter(plain_formatter())
        ax.yaxis.set_minor_formatter(ticker.NullFormatter())
        return scale
    if floor_zero and (len(v) == 0 or (v >= 0).all()):
        top = v.max() if len(v) else 1.0
        ax.set_ylim(0, top * 1.08 if top > 0 else 1.0)
    ax.yaxis.set_major_formatter(plain_formatter())
    return "linear"


def set_log_ylim(ax, floor, top):
    """Limits of a log y axis whose bands were clipped at `floor`: from there to above `top`."""
    ax.set_ylim(floor, top * 1.6)


def use_band(sweep):
    """Spread as a shaded band on a numeric axis with 3 or more values and at most two lines
    (more bands would muddle into one another), else as error bars."""
    return (sweep["x"].numeric and len(sweep["x"].labels) >= 3 and
            len(sweep["series"]) <= MAX_BANDS)


def spread_text(sweep, own):
    """What a figure's spread shows: `own` (e.g. "the range from the slowest to the fastest
    flow"), or with seeds the confidence interval of the mean over them."""
    kind = "a shaded band" if use_band(sweep) else "error bars"
    if sweep["seeds"]:
        return f"its 95% confidence interval over the seeds as {kind}"
    return f"{own} as {kind}"


def line_points(sweep, i, y, lo, hi, keep):
    """(x, y, low, high) arrays of series i in x order, low and high None without a spread.
    With seeds, one point per x: the mean over the seeds and its 95% confidence interval
    (Student t; no interval from a single seed)."""
    df = sweep["table"]
    rows = df.index[(df["_series"] == i) & keep]
    if len(rows) == 0:
        return None
    if not sweep["seeds"]:
        rows = df.loc[rows].sort_values("_x").index
        x = df.loc[rows, "_x"].to_numpy(dtype=float)
        yy = y[rows].to_numpy(dtype=float)
        if lo is None or hi is None:
            return x, yy, None, None
        return x, yy, lo[rows].to_numpy(dtype=float), hi[rows].to_numpy(dtype=float)
    points = []
    for xv, idx in df.loc[rows].groupby("_x", sort=True).groups.items():
        mean, half, _ = mean_ci95(y[idx])
        half = 0.0 if math.isnan(half) else half
        points.append((xv, mean, mean - half, mean + half))
    x, yy, low, high = (np.array(c, dtype=float) for c in zip(*points))
    return x, yy, low, high


def draw(ax, sweep, y, lo=None, hi=None, mask=None, color=None):
    """One line per series of `y` (a Series aligned with the table) against the first key,
    with the spread lo..hi as a band or error bars; rows where y is NaN or `mask` is False are
    left out. With seeds the line is the mean over them and the spread its confidence interval
    (lo and hi are not used). `color` overrides the series' colour (to tell several quantities
    of a one-line sweep apart). Returns the points drawn.

    Lines of equal values would hide one another: the first colours are drawn thicker, with
    bigger markers, under the later ones; error bars of several lines are dodged sideways by a
    few points so that each stays visible."""
    keep = y.notna() if mask is None else (y.notna() & mask)
    spread = (lo is not None and hi is not None) or bool(sweep["seeds"])
    band = spread and use_band(sweep)
    n = len(sweep["series"])
    dodge = DODGE_POINTS / (n - 1) if spread and not band and n > 1 else 0.0
    colors = sweep["color_values"]
    log = ax.get_yscale() == "log"
    drawn = 0
    for i, s in enumerate(sweep["series"]):
        points = line_points(sweep, i, y, lo, hi, keep)
        if points is None:
            continue
        x, yy, low, high = points
        weight = (1 - colors.index(s.color_value) / (len(colors) - 1)
                  if 1 < len(colors) <= 6 else 0.4)
        trans = ax.transData
        if dodge:
            trans = trans + ScaledTranslation((i - (n - 1) / 2) * dodge / 72, 0,
                                              ax.figure.dpi_scale_trans)
        c = color or s.color
        ax.plot(x, yy, color=c, ls=s.ls, marker=s.marker, lw=1.3 + 1.3 * weight,
                ms=5 + 3 * weight, zorder=3, transform=trans, clip_on=False)
        if spread and low is not None:
            if log:  # an interval reaching 0 or below ends at the bottom of a log axis
                low = np.where(low > 0, low, yy / 10)
            if band:
                ax.fill_between(x, low, high, color=c, alpha=0.15, lw=0, zorder=2)
            else:
                ax.errorbar(x, yy, yerr=[np.maximum(yy - low, 0), np.maximum(high - yy, 0)],
                            fmt="none", ecolor=c, elinewidth=1.1, capsize=3, zorder=2,
                            transform=trans)
            top = float(np.nanmax(high))
            if not log and np.isfinite(top) and top > ax.get_ylim()[1]:
                ax.set_ylim(top=top * 1.04)  # scale_y saw the runs, not the intervals
        drawn += len(x)
    sweep["x"].style(ax)
    if sweep["pooled"]:
        ax.set_xlabel("")
    ax.grid(True, which="major", alpha=0.3)
    return drawn


def legend(fig, ax, sweep, extra=(), below=False):
    """Legend right of `ax` (or `below` it): a colour per value of the second key, a line style
    per combination of the further keys, then `extra` handles. Nothing for a one-key sweep
    without extras."""
    keys = sweep["plot_keys"]
    handles = []
    if len(keys) > 1:
        plain_style = len(sweep["combos"]) == 1
        for v in sweep["color_values"]:
            handles.append(Line2D([], [], color=sweep["color_of"][v], marker="o" if plain_style
                                  else None, lw=2, label=f"{keys[1]} = {v}"))
    if len(sweep["combos"]) > 1:
        for c in sweep["combos"]:
            ls, marker = sweep["style_of"][c]
            text = ", ".join(f"{k} = {v}" for k, v in zip(sweep["style_keys"], c))
            handles.append(Line2D([], [], color="dimgray", ls=ls, marker=marker, lw=1.4,
                                  label=text))
    handles.extend(extra)
    if handles:
        ax.legend(handles=handles, loc="upper left",
                  bbox_to_anchor=(0.0, -0.15) if below else (1.02, 1.0), fontsize="small",
                  frameon=False)


def title(sweep, what):
    if sweep["pooled"]:
        return f"{what}, mean over {len(sweep['seeds'])} seeds"
    return f"{what} vs {sweep['x'].key}"


def seed_caption(sweep, ci_said=False):
    """The sentence every figure's caption ends with when points are means over seeds (naming
    the interval unless the caption's spread_text did)."""
    if not sweep["seeds"]:
        return ""
    text = (f" Each point is the mean over the {len(sweep['seeds'])} seeds of runs that differ "
            "only in the seed")
    if ci_said:
        return text + " (Student t interval)."
    kind = "a shaded band" if use_band(sweep) else "error bars"
    return text + f", with its 95% confidence interval (Student t) as {kind}."


# ---------------------------------------------------------------------------------------------
# Figures. Each returns (figure, caption), or (None, a note saying why there is none, or None).


def fig_queue(sweep):
    df = sweep["table"]
    mean = metric(df, "bottleneck.mean_queue_bytes") / 1e3
    std = metric(df, "bottleneck.std_queue_bytes") / 1e3
    if mean.notna().sum() == 0:
        return None, "sweep.csv has no bottleneck queue statistics."
    fig, (ax,) = new_figure(sweep)
    std = std.fillna(0)
    scale = scale_y(ax, mean if sweep["seeds"] else pd.concat([mean, mean + std]))
    lo = (mean - std).clip(lower=0)
    floor = None
    if scale == "log":  # the band's lower edge stops at the axis floor
        floor = float(mean[mean > 0].min()) / 3
        lo = lo.clip(lower=floor)
    draw(ax, sweep, mean, lo, mean + std)
    if floor is not None:
        set_log_ylim(ax, floor, float((mean + std).max()))
    ax.set_ylabel("bottleneck queue (KB" + (", log scale)" if scale != "linear" else ")"))
    ax.set_title(title(sweep, "Bottleneck queue, mean" +
                       ("" if sweep["seeds"] else " \u00b1 std")))
    legend(fig, ax, sweep)
    spread = spread_text(sweep, "one standard deviation of the queue over time (a measure of "
                                "oscillation)")
    caption = (f"Mean bytes queued at each run's bottleneck (the switch egress port with the "
               f"largest mean queue){warmup_note(sweep)}, with {spread}.")
    ports = set(df["_bottleneck_port"].dropna())
    if len(ports) > 1:
        which = runs_by_port(df, "_bottleneck_port")
        caption += (f" The runs' bottlenecks are different ports ({which}): the figure compares "
                    "each run's worst queue, not one place in the network.")
    elif ports:
        caption += f" The bottleneck is {ports.pop()} in every run."
    if floor is not None:
        caption += " On the log axis the spread is cut at the bottom edge."
    return fig, caption + seed_caption(sweep, ci_said=True)


def fig_max_queue(sweep):
    df = sweep["table"]
    q = metric(df, "max_queue_bytes") / 1e3
    if q.notna().sum() == 0:
        return None, "sweep.csv has no max_queue_bytes."
    fig, (ax,) = new_figure(sweep)
    scale = scale_y(ax, q)
    draw(ax, sweep, q)
    ax.set_ylabel("max queue (KB" + (", log scale)" if scale != "linear" else ")"))
    ax.set_title(title(sweep, "Largest queue at any switch port"))
    legend(fig, ax, sweep)
    return fig, ("Peak bytes queued at any switch egress port during each run "
                 "(max_queue_bytes)." + seed_caption(sweep))


def fig_pfc(sweep):
    df = sweep["table"]
    p = metric(df, "pfc_pause_frames")
    if p.notna().sum() == 0:
        return None, "sweep.csv has no pfc_pause_frames."
    if (p.fillna(0) == 0).all():
        return None, "No run sent a PFC PAUSE frame, so there is no PFC figure."
    fig, (ax,) = new_figure(sweep)
    # Whether PAUSE returns at all matters: a few frames against thousands must not look like 0.
    scale = scale_y(ax, p, span=20)
    draw(ax, sweep, p)
    if scale == "symlog":
        lin = ax.yaxis.get_transform().linthresh
        ax.set_ylabel(f"PAUSE frames (log scale above {fmt_tick(lin)})")
    else:
        ax.set_ylabel("PAUSE frames" + (" (log scale)" if scale == "log" else ""))
    ax.set_title(title(sweep, "PFC PAUSE frames"))
    legend(fig, ax, sweep)
    caption = "PFC PAUSE frames sent in each run (pfc_pause_frames)."
    if scale == "symlog":
        caption += " The y axis is linear near 0 and logarithmic above, so zeros stay visible."
    return fig, caption + seed_caption(sweep)


def fig_utilisation(sweep):
    """The utilisation of one port, the same in every run (the port busiest on average over the
    runs, from each run's links.csv), beside each run's busiest port (max_link_utilisation). The
    bottleneck of the queue figure is not drawn: it is whichever port queued most in each run,
    and under PFC alone that is upstream of the congested port, idle while it waits."""
    df = sweep["table"]
    ref = sweep["reference_port"]
    ref_util = metric(df, "_ref_util") * 100
    busiest = metric(df, "max_link_utilisation") * 100
    if busiest.notna().sum() == 0 and ref_util.notna().sum() == 0:
        return None, "sweep.csv has no link utilisation."
    busiest_ports = set(df["_busiest_port"].dropna())
    same = ref is not None and busiest_ports == {ref} and df["_busiest_port"].notna().all()
    panels = [(ref_util, f"Utilisation of {ref}", f"utilisation of {ref}")] if ref else []
    if not same:  # else the busiest port is the reference port in every run: one panel says it
        panels.append((busiest, "Busiest port's utilisation",
                       "utilisation of the run's busiest port"))
    fig, axes = new_figure(sweep, panels=len(panels), sharey=True)
    values = pd.concat([u for u, _, _ in panels])
    low = float(values.min())
    for ax, (u, name, label) in zip(axes, panels):
        draw(ax, sweep, u)
        ax.set_ylim(max(0.0, math.floor((low - 5) / 10) * 10), max(102.0, float(values.max()) + 2))
        ax.axhline(100, color="gray", lw=0.8, ls="--", zorder=1)
        ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}%"))
        ax.yaxis.set_tick_params(labelleft=True)
        ax.set_ylabel(label)
        ax.set_title(title(sweep, name))
    legend(fig, axes[-1], sweep)
    caption = ("Share of its line rate that a switch egress port transmitted over each run's "
               "active interval (wire bytes; the dashed line is 100%)")
    if same:
        caption += (f": {ref}, the busiest port of every run (from each run's links.csv and "
                    "summary.json's busiest_port)")
    elif ref:
        caption += (f": left, {ref}, the same port in every run (the one busiest on average over "
                    "the runs, from each run's links.csv); right, each run's busiest port")
    else:
        caption += (": each run's busiest port (the runs' links.csv give no per-port "
                    "utilisation, so no one port is compared across them)")
    if not same and len(busiest_ports) > 1:
        caption += f" ({runs_by_port(df, '_busiest_port')})"
    elif not same and busiest_ports:
        caption += f" ({busiest_ports.pop()} in every run)"
    caption += "."
    if len(set(df["_bottleneck_port"].dropna())) > 1:
        caption += (" The queue figure's bottleneck (the port with the largest mean queue) is "
                    "not drawn: it is a different port in different runs, and a port that PFC "
                    "pauses queues most while it sends least.")
    return fig, caption + seed_caption(sweep)


def draw_throughput(ax, sweep, columns):
    """Mean per-flow throughput with the min..max range, from sweep.csv's columns {"min",
    "mean", "max"}; a log axis when the flows' shares span 30x. Returns the axis' scale."""
    df = sweep["table"]
    lo, mean, hi = (metric(df, columns[k]) for k in ("min", "mean", "max"))
    # Shares fall as 1/N with N flows: a log axis from a 30x span keeps the small ones apart.
    # (With seeds the spread drawn is the mean's interval, not the runs' min..max.)
    scale = scale_y(ax, mean if sweep["seeds"] else pd.concat([lo, hi]), span=30)
    floor = None
    if scale == "log":
        floor = float(lo[lo > 0].min()) / 2 if (lo > 0).any() else float(mean.min()) / 2
        lo = lo.clip(lower=floor)
    draw(ax, sweep, mean, lo, hi)
    if floor is not None:
        set_log_ylim(ax, floor, float(hi.max()))
    return scale


def fig_fairness(sweep):
    df = sweep["table"]
    jain = metric(df, "jain_fairness")
    mean = metric(df, "flow_throughput_gbps.mean")
    if jain.notna().sum() == 0 and mean.notna().sum() == 0:
        return None, ("No run has a flow throughput or a Jain fairness index (sweep.csv's "
                      "columns are empty), so there is no fairness figure.")
    fig, (ax_j, ax_t) = new_figure(sweep, panels=2)
    jain_text, jain = fairness_reading(sweep, jain)
    draw(ax_j, sweep, jain)
    low = float(jain.min()) if jain.notna().any() else 1.0
    ax_j.set_ylim(0 if low < 0.5 else min(0.9, math.floor((low - 0.02) * 20) / 20), 1.02)
    ax_j.axhline(1.0, color="gray", lw=0.8, ls="--", zorder=1)
    ax_j.set_ylabel(jain_text["ylabel"])
    ax_j.set_title(title(sweep, "Fairness"))
    scale = draw_throughput(ax_t, sweep, {k: f"flow_throughput_gbps.{k}"
                                          for k in ("min", "mean", "max")})
    ax_t.set_ylabel("per-flow throughput (Gb/s" + (", log scale)" if scale != "linear"
                                                    else ")"))
    ax_t.set_title(title(sweep, "Flow throughput" + ("" if sweep["seeds"] else
                                                     ", mean and min\u2013max")))
    legend(fig, ax_t, sweep)
    caption = (f"Left: {jain_text['caption']}. Right: the flows' mean throughput with "
               f"{spread_text(sweep, 'the range from the slowest to the fastest flow')}, "
               "from sweep.csv. A flow's throughput is the bytes it delivered over the "
               "time it was active (start to finish, or to the end of the run), so unfinished "
               "flows count too.")
    missing = int(jain.isna().sum())
    if missing:
        caption += (f" {missing} run(s) have no fairness index (fewer than two flows active "
                    "together) and are not drawn on the left.")
    return fig, caption + seed_caption(sweep, ci_said=True)


def fairness_reading(sweep, jain):
    """({"ylabel", "caption"}, the values to draw) of the fairness panel. Jain's index reads 1 as
    equal shares, which is the fair outcome only when the flows' max-min fair shares are equal
    (summary.json's max_min_jain_fairness is 1). Where they differ (the victim flow's share is
    twice an incast flow's), a fair run scores below 1 and an unfair one can score 1, so the
    panel draws the Jain index of throughput / max-min share instead (normalised_jain_fairness,
    Jain, Chiu and Hawe's normalised allocation): 1 = every flow got the same fraction of its
    fair share. Runs without it (older folders) keep the plain index, and the caption says
    whether it can be read as "1 = fair"."""
    df = sweep["table"]
    shares = df["_max_min_jain"]
    normalised = df["_normalised_jain"]
    have = jain.notna()
    unequal = df.index[have & (shares < 1 - 1e-9)]
    known = bool(have.any()) and bool(shares[have].notna().all())
    if known and len(unequal):
        runs = ", ".join(str(r).zfill(3) for r in df.loc[unequal, "run"])
        return ({"ylabel": "Jain index of throughput / max-min share (1 = fair)",
                 "caption": "Jain's fairness index of the flows' throughputs each divided by "
                            "its max-min fair share (normalised_jain_fairness: 1 when every flow "
                            "got the same fraction of its fair share)"
                            f". The fair shares are not equal in run(s) {runs} (Jain index of "
                            "the shares, max_min_jain_fairness, below 1), so the plain index "
                            "(jain_fairness, in the table), whose 1 means equal shares, would "
                            "call fair runs unfair there; the shares are the max-min allocation "
                            "of every active flow sending at once over its route"},
                normalised.where(have))
    if known:
        return ({"ylabel": "Jain fairness index (1 = equal shares = max-min fair)",
                 "caption": "Jain's fairness index of the flows' throughputs (the flows' max-min "
                            "fair shares are equal in every run, so 1 = equal shares is the fair "
                            "outcome)"}, jain)
    return ({"ylabel": "Jain fairness index (1 = equal shares)",
             "caption": "Jain's fairness index of the flows' throughputs (1 = equal shares; the "
                        "runs' summaries give no max-min fair shares, so whether equal shares "
                        "are the fair outcome is not known: it is not where flows cross "
                        "different bottlenecks)"}, jain)


def fig_tag_throughput(sweep):
    """Per-tag flow throughput: e.g. what the victim flows get against the incast flows as N
    grows. A one-line sweep draws the tags as coloured lines of one panel; otherwise the colours
    tell the sweep's lines apart and each tag gets a panel, the panels sharing their y axis."""
    tags = {t: c for t, c in sweep["tags"].items()
            if all(f"flow_throughput_gbps.{k}" in c for k in ("min", "mean", "max"))}
    if not tags:
        return None, None  # no flow had a tag: nothing to say
    df = sweep["table"]
    if all(df[c["flow_throughput_gbps.mean"]].isna().all() for c in tags.values()):
        return None, "No tagged flow was active in any run, so there is no per-tag figure."
    overlay = len(sweep["series"]) == 1
    fig, axes = new_figure(sweep, panels=1 if overlay else len(tags), sharey=True)
    spread = ("mean",) if sweep["seeds"] else ("min", "max")  # what the figure will show
    everything = pd.concat([df[c[f"flow_throughput_gbps.{k}"]] for c in tags.values()
                            for k in spread])
    scale = scale_y(axes[0], everything, span=30)
    palette = plt.get_cmap("Set1")
    for i, (tag, c) in enumerate(tags.items()):
        ax = axes[0] if overlay else axes[i]
        draw(ax, sweep, df[c["flow_throughput_gbps.mean"]], df[c["flow_throughput_gbps.min"]],
             df[c["flow_throughput_gbps.max"]], color=palette(i % 9) if overlay else None)
        ax.set_title(title(sweep, "Throughput per tag" if overlay else f"Tag {tag}"))
        ax.yaxis.set_tick_params(labelleft=True)
    axes[0].set_ylabel("per-flow throughput (Gb/s" + (", log scale)" if scale != "linear"
                                                       else ")"))
    extra = ([Line2D([], [], color=palette(i % 9), marker="o", lw=2, label=f"tag {tag}")
              for i, tag in enumerate(tags)] if overlay else [])
    legend(fig, axes[-1], sweep, extra)
    caption = ("Mean throughput of the flows of each tag (sweep.csv's "
               "tag.<tag>.flow_throughput_gbps.mean) with "
               f"{spread_text(sweep, 'the range from the slowest to the fastest flow of the tag')}"
               + ("." if overlay else "; the panels share their y axis."))
    return fig, caption + seed_caption(sweep, ci_said=True)


def fig_convergence(sweep):
    df = sweep["table"]
    c = metric(df, "convergence_time_ns") / 1e6
    end_ns = metric(df, "sim_time_ns")
    if c.notna().sum() == 0:
        return None, ("No run reports a convergence time (convergence_time_ns is empty: the "
                      "flows never settled within the run, or the run has no convergence "
                      "measure), so there is no convergence figure.")
    fig, (ax,) = new_figure(sweep)
    draw(ax, sweep, c)
    top = max(float(c.max()), float(end_ns.max() / 1e6) if end_ns.notna().any() else 0.0)
    ax.set_ylim(0, top * 1.12)
    # A cross on the top edge for each point none of whose runs converged.
    never = df.assign(_c=c).groupby(["_series", "_x"])["_c"].apply(lambda v: v.isna().all())
    never = never[never].index
    extra = []
    if len(never):
        trans = blended_transform_factory(ax.transData, ax.transAxes)
        for series, x in never:
            ax.plot([x], [0.96], transform=trans, marker="x", ms=8, mew=2,
                    color=sweep["series"][series].color, ls="none", clip_on=False, zorder=4)
        extra = [Line2D([], [], color="dimgray", marker="x", ms=8, mew=2, ls="none",
                        label="never converged\n(drawn on the top edge)")]
    if end_ns.notna().any() and end_ns.nunique() == 1:
        end = float(end_ns.dropna().iloc[0]) / 1e6
        ax.axhline(end, color="gray", lw=0.8, ls="--", zorder=1)
        ax.text(ax.get_xlim()[0], end, " end of run", va="bottom", ha="left", color="gray",
                fontsize="small")
    ax.set_ylabel("convergence time (ms)")
    ax.set_title(title(sweep, "Convergence time"))
    legend(fig, ax, sweep, extra)
    caption = ("Time from which the flows' throughputs stayed within the convergence criterion "
               "until the end of the run (convergence_time_ns).")
    unconverged = df.index[c.isna()]
    if len(unconverged):
        runs = ", ".join(df.loc[unconverged, "run"])
        caption += f" {len(unconverged)} of {len(df)} runs never converged (run {runs})"
        caption += (": points none of whose runs converged are marked \u00d7 on the top edge"
                    + (", the others average the seeds that converged." if sweep["seeds"]
                       else "."))
    return fig, caption + seed_caption(sweep)


def fig_fct(sweep):
    df = sweep["table"]
    if metric(df, "fct_slowdown.p50").notna().sum() == 0:
        return None, ("No flow finished in any run, so there is no FCT slowdown figure "
                      "(sweep.csv's slowdown columns are empty).")
    fig, (ax50, ax99) = new_figure(sweep, panels=2)
    for ax, col, name in ((ax50, "fct_slowdown.p50", "median"),
                          (ax99, "fct_slowdown.p99", "99th percentile")):
        y = metric(df, col)
        scale = scale_y(ax, y)
        draw(ax, sweep, y)
        ax.set_ylabel(f"FCT slowdown, {name}" + (" (log scale)" if scale != "linear" else ""))
        ax.set_title(title(sweep, f"FCT slowdown {col.split('.')[-1]}"))
    legend(fig, ax99, sweep)
    caption = ("Median (left) and 99th-percentile (right) flow-completion-time slowdown of the "
               "finished flows (FCT / ideal FCT; 1 = as fast as alone on an idle network).")
    finished = metric(df, "flows_finished")
    partial = df[(finished > 0) & (finished < metric(df, "flows_total"))]
    if len(partial):
        caption += f" In {len(partial)} run(s) some flows did not finish and are not counted."
    none = int(metric(df, "fct_slowdown.p50").isna().sum())
    if none:
        caption += f" {none} run(s) finished no flow and are not drawn."
    return fig, caption + seed_caption(sweep)


def fig_collective_busbw(sweep):
    """Bus bandwidth against size, nccl-tests' own plot: how near the network gets each
    collective to the links' rate as its messages grow. Each collective is drawn against its own
    size key, which need not be the sweep's first key: the layout is redone with it first."""
    size_keys = {tag: key for tag, key in collective_size_keys(sweep).items()
                 if "mean.busbw_gbps" in sweep["collectives"][tag]}
    if not size_keys:
        return None, None  # no collective's size was varied
    df = sweep["table"]
    if all(metric(df, sweep["collectives"][t]["mean.busbw_gbps"]).isna().all()
           for t in size_keys):
        return None, ("No collective iteration finished in any run, so there is no bus "
                      "bandwidth figure.")
    views = {}
    for tag, key in size_keys.items():
        view = dict(sweep, table=df.copy())
        view.update(arrange(view["table"], [key] + [k for k in sweep["keys"] if k != key]))
        x = view["x"]
        # Sizes double or grow tenfold from step to step: on a log axis each step is as wide.
        if x.numeric and len(x.labels) > 1 and min(x.positions.values()) > 0:
            x.log = True
        views[tag] = view
    fig, axes = new_figure(sweep, panels=len(views), sharey=True)
    everything = pd.concat([metric(v["table"], sweep["collectives"][t]["mean.busbw_gbps"])
                            for t, v in views.items()])
    scale = scale_y(axes[0], everything)
    for ax, (tag, view) in zip(axes, views.items()):
        draw(ax, view, metric(view["table"], sweep["collectives"][tag]["mean.busbw_gbps"]))
        ax.set_title(f"{tag}: bus bandwidth vs size" if len(views) > 1 else
                     f"Bus bandwidth of {tag} vs its size")
        ax.yaxis.set_tick_params(labelleft=True)
    axes[0].set_ylabel("mean bus bandwidth (Gb/s" + (", log scale)" if scale != "linear"
                                                      else ")"))
    first = next(iter(views.values()))
    # The panels share their lines unless each draws another collective's size as lines.
    if len({tuple(v["plot_keys"][1:]) for v in views.values()}) == 1:
        legend(fig, axes[-1], first)
    else:
        for ax, view in zip(axes, views.values()):
            legend(fig, ax, view, below=True)
    caption = ("Mean bus bandwidth of each collective's finished iterations (sweep.csv's "
               "collective.<tag>.mean.busbw_gbps: nccl-tests' busbw, the algorithm bandwidth "
               "times the op's bus factor, comparable with a link's rate) against its size: "
               + ", ".join(f"{size_keys[t]} for {t}" for t in views))
    if any(key != sweep["x"].key for key in size_keys.values()):
        caption += " on the x axis, in place of the other figures' " + sweep["x"].key
    caption += "."
    lines = first["plot_keys"][1:]
    if lines:
        caption += f" The lines are the values of {', '.join(lines)}."
    unfinished = sum(int(metric(df, sweep["collectives"][t].get("finished_iterations", "")).eq(0)
                         .sum()) for t in views)
    if unfinished:
        caption += f" {unfinished} run(s) finished no iteration of a collective: not drawn."
    return fig, caption + seed_caption(first)


FIGURE_MAKERS = {"queue": fig_queue, "max_queue": fig_max_queue, "pfc": fig_pfc,
                 "utilisation": fig_utilisation, "fairness": fig_fairness,
                 "tag_throughput": fig_tag_throughput, "convergence": fig_convergence,
                 "fct": fig_fct, "collective_busbw": fig_collective_busbw}


# ---------------------------------------------------------------------------------------------
# The page


def _num(v, spec, scale=1.0, suffix=""):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    return format(v * scale, spec) + suffix


def _min_mean_max(lo, mean, hi):
    """"0.50 / 1.20 / 3.00"; None when the mean is empty."""
    if _num(mean, ".2f") is None:
        return None
    return " / ".join(_num(v, ".2f") or NA for v in (lo, mean, hi))


def _of(part, whole):
    """"3 of 8"; None when `part` is empty."""
    if _num(part, ".0f") is None:
        return None
    return _num(part, ".0f") + (f" of {whole:.0f}" if _num(whole, ".0f") else "")


def _any(v):
    """A cell of a metric this page has no column of its own for: the number, or the text."""
    if isinstance(v, str):
        return v or None
    if v is None or math.isnan(v):
        return None
    return f"{v:,.0f}" if float(v).is_integer() else f"{v:.4g}"


# (header, the metric columns a table column shows, function of their values in a row -> text or
# None, shown as a grey dash): an empty cell of sweep.csv is a null statistic (no finished flow,
# flows never active together, ...). A table column is there when sweep.csv has any of its
# metrics; sweep.csv's other metric columns follow under their own names (table_columns).
TABLE_COLUMNS = [
    ("flows finished", ("flows_finished", "flows_total"), lambda v: _of(*v)),
    # From the first flow's start, as the run report and the CLI count it (HPCC inputs start
    # at 2 s): _active_start_ns is the run's summary.json's.
    ("simulated (ms)", ("sim_time_ns", "_active_start_ns"),
     lambda v: _num(v[0] - (0 if math.isnan(v[1]) else v[1]), ".3g", 1e-6)),
    ("bottleneck util.", ("bottleneck.utilisation",), lambda v: _num(v[0], ".1f", 100, " %")),
    ("busiest link util.", ("max_link_utilisation",), lambda v: _num(v[0], ".1f", 100, " %")),
    ("mean queue (KB)", ("bottleneck.mean_queue_bytes",), lambda v: _num(v[0], ",.1f", 1e-3)),
    ("std queue (KB)", ("bottleneck.std_queue_bytes",), lambda v: _num(v[0], ",.1f", 1e-3)),
    ("max queue (KB)", ("max_queue_bytes",), lambda v: _num(v[0], ",.1f", 1e-3)),
    ("PAUSE frames", ("pfc_pause_frames",), lambda v: _num(v[0], ",.0f")),
    ("drops", ("drops",), lambda v: _num(v[0], ",.0f")),
    ("ECN marks", ("ecn_marked_packets",), lambda v: _num(v[0], ",.0f")),
    ("CNPs", ("cnps",), lambda v: _num(v[0], ",.0f")),
    ("rate cuts", ("cc.rate_cuts",), lambda v: _num(v[0], ",.0f")),
    ("FCT slowdown p50", ("fct_slowdown.p50",), lambda v: _num(v[0], ".2f")),
    ("FCT slowdown p99", ("fct_slowdown.p99",), lambda v: _num(v[0], ".2f")),
    ("flow throughput min / mean / max (Gb/s)",
     ("flow_throughput_gbps.min", "flow_throughput_gbps.mean", "flow_throughput_gbps.max"),
     lambda v: _min_mean_max(*v)),
    ("Jain fairness", ("jain_fairness",), lambda v: _num(v[0], ".3f")),
    ("converged at (ms)", ("convergence_time_ns",), lambda v: _num(v[0], ".2f", 1e-6)),
    ("wall time (s)", ("wall_time_s",), lambda v: _num(v[0], ".2f")),
]
# The same for each tag's tag.<tag>.<metric> columns, the header prefixed with "<tag>: ".
TAG_TABLE_COLUMNS = [
    ("flows finished", ("finished", "flows"), lambda v: _of(*v)),
    ("FCT slowdown p50", ("fct_slowdown.p50",), lambda v: _num(v[0], ".2f")),
    ("FCT slowdown p99", ("fct_slowdown.p99",), lambda v: _num(v[0], ".2f")),
    ("throughput min / mean / max (Gb/s)",
     ("flow_throughput_gbps.min", "flow_throughput_gbps.mean", "flow_throughput_gbps.max"),
     lambda v: _min_mean_max(*v)),
    ("Jain fairness", ("jain_fairness",), lambda v: _num(v[0], ".3f")),
]
# The same for each collective's collective.<tag>.<metric> columns, the header prefixed with
# "<tag>: ".
COLLECTIVE_TABLE_COLUMNS = [
    ("iterations finished", ("finished_iterations",), lambda v: _num(v[0], ".0f")),
    ("mean time (ms)", ("mean.time_ns",), lambda v: _num(v[0], ".4g", 1e-6)),
    ("ideal time (ms)", ("ideal_time_ns",), lambda v: _num(v[0], ".4g", 1e-6)),
    ("mean busbw (Gb/s)", ("mean.busbw_gbps",), lambda v: _num(v[0], ".2f")),
    ("mean slowdown", ("mean.slowdown",), lambda v: _num(v[0], ".3f")),
]


def table_columns(sweep):
    """(header, function of a table row -> text or None) for every metric column of sweep.csv:
    TABLE_COLUMNS' that it has, its other headline metrics under their own names, then per tag
    TAG_TABLE_COLUMNS' and the tag's other metrics, then per collective COLLECTIVE_TABLE_COLUMNS'
    and its other metrics."""
    have = set(sweep["metrics"])
    shown = set()
    out = []

    def add(header, columns, fn):
        if have & set(columns):
            out.append((header, lambda r, cs=columns: fn([r.get(c, math.nan) for c in cs])))
            shown.update(columns)

    def add_own(header, column):
        out.append((header, lambda r, c=column: _any(r[c])))

    df = sweep["table"]

    def add_port(header, column):
        if df[column].notna().any():
            out.append((header, lambda r, c=column: r[c] or None))

    def add_number(header, column, spec, scale=1.0, suffix=""):
        if df[column].notna().any():
            out.append((header, lambda r, c=column: _num(r[c], spec, scale, suffix)))

    for header, columns, fn in TABLE_COLUMNS:
        add(header, columns, fn)
        if header == "bottleneck util.":
            add_port("bottleneck port (largest mean queue)", "_bottleneck_port")
        elif header == "busiest link util.":
            add_port("busiest port", "_busiest_port")
            ref = sweep["reference_port"]
            if ref:
                add_number(f"util. of {ref}", "_ref_util", ".1f", 100, " %")
        elif header == "Jain fairness":
            add_number("Jain of max-min shares", "_max_min_jain", ".3f")
            add_number("Jain of throughput / max-min share", "_normalised_jain", ".3f")
    by_tag = {c for groups in (sweep["tags"], sweep["collectives"])
              for columns in groups.values() for c in columns.values()}
    for c in sweep["metrics"]:
        if c not in shown and c not in by_tag:
            add_own(c, c)
    for prefix, groups, table in ((TAG_PREFIX, sweep["tags"], TAG_TABLE_COLUMNS),
                                  (COLLECTIVE_PREFIX, sweep["collectives"],
                                   COLLECTIVE_TABLE_COLUMNS)):
        for tag, columns in groups.items():
            for header, names, fn in table:
                add(f"{tag}: {header}", [f"{prefix}{tag}.{n}" for n in names], fn)
            for m, c in columns.items():
                if c not in shown:
                    add_own(f"{tag}: {m}", c)
    return out


def table_html(sweep, report_dir):
    """The sweep table, one row per run, with a link to each run's report where there is one."""
    e = html.escape
    df = sweep["table"]
    columns = table_columns(sweep)
    out = ['<div class="wide"><table class="sweep">', "<tr><th>run</th>"]
    out += [f"<th>{e(k)}</th>" for k in sweep["keys"]]
    out += [f"<th>{e(h)}</th>" for h, _ in columns]
    out.append("</tr>")
    reports = 0
    for _, r in df.iterrows():
        run_report = os.path.join(sweep["dir"], r["dir"], "report", "index.html")
        label = e(str(r["run"]).zfill(3))
        if r["dir"] and os.path.isfile(run_report):
            href = os.path.relpath(run_report, report_dir).replace(os.sep, "/")
            cell = f'<a href="{e(href)}" title="this run\'s report">{label}</a>'
            reports += 1
        else:
            cell = label
        cells = [f"<td>{cell}</td>"]
        cells += [f'<td class="k">{e(str(r[k]))}</td>' for k in sweep["keys"]]
        for _, fn in columns:
            try:
                text = fn(r)
            except (TypeError, ValueError, KeyError):
                text = None
            cells.append(f'<td class="v na">{NA}</td>' if text is None
                         else f'<td class="v">{e(text)}</td>')
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table></div>")
    return "\n".join(out), reports


def figure_key(sweep):
    """How to read the figures: which key is on the x axis and which tell the lines apart."""
    keys = sweep["plot_keys"]
    if sweep["pooled"]:
        text = "Only the seed varied: each figure shows one point"
    else:
        text = f"In the figures the x axis is {sweep['x'].label()}"
    if len(keys) > 1:
        text += f"; each colour is a value of {keys[1]}"
    if len(keys) == 3:
        text += f"; each line style a value of {keys[2]}"
    elif len(keys) > 3:
        text += f"; each line style a combination of {', '.join(keys[2:])}"
    text += "."
    if sweep["seeds"]:
        text += (f" The seed is not an axis: each point is the mean over the "
                 f"{len(sweep['seeds'])} seeds ({', '.join(sweep['seeds'])}) of the runs with "
                 "the same other values, and its error bar or band the 95% confidence interval "
                 "of that mean (Student t with one degree of freedom less than the seeds); the "
                 "table keeps one row per run.")
    return text


def index_html(sweep, figures, notes, report_dir, formats):
    e = html.escape
    df = sweep["table"]
    name = sweep_name(sweep)
    varied = "; ".join(f"{k} = {', '.join(Axis(k, df[k]).labels)}" for k in sweep["keys"])
    versions = {str(s["version"]) for s in sweep["summaries"].values() if "version" in s}
    sub = [f"varied: {varied}",
           f"dcqcn {versions.pop()}" if len(versions) == 1 else None,
           f"sweep folder {os.path.abspath(sweep['dir'])}"]
    table, reports = table_html(sweep, report_dir)
    csv_href = os.path.relpath(sweep["path"], report_dir).replace(os.sep, "/")
    body = [f'<p>One row per run, from <a href="{e(csv_href)}">sweep.csv</a>. '
            f"A dash ({NA}): a statistic with nothing to summarise (no finished flow, fewer "
            "than two flows active together, flows that never converged).</p>", table]
    failed = df[df[ERROR_COLUMN] != ""] if ERROR_COLUMN in df else df.iloc[:0]
    if len(failed):
        body.append(f"<p>{len(failed)} of {len(df)} runs failed (sweep.csv's error column); "
                    "their metrics are empty:</p><ul>" +
                    "".join(f"<li>run {e(str(r['run']).zfill(3))}: {e(r[ERROR_COLUMN])}</li>"
                            for _, r in failed.iterrows()) + "</ul>")
    runs = int((df["dir"] != "").sum())  # the runs with a folder (a failed run has none)
    if reports and reports == runs:
        body.append("<p>The run numbers link to each run's own report.</p>")
    elif reports:
        body.append(f"<p>{reports} of {runs} run numbers link to the run's own report; "
                    "<code>dcqcn report DIR --runs</code> reports every run.</p>")
    else:
        body.append("<p>Each run's folder is <code>runs/NNN/</code>; "
                    "<code>dcqcn report DIR --runs</code> also reports every run, with time "
                    "series figures where the scenario recorded them, and links them from this "
                    "table.</p>")
    if figures:
        body.append(f"<p>{e(figure_key(sweep))}</p>")
    body += figures_html(figures, notes, formats)
    first = next((d for d in sweep["table"]["dir"] if d), "")
    resolved = os.path.join(sweep["dir"], first, "resolved.toml")
    if first and os.path.isfile(resolved):
        with open(resolved, encoding="utf-8", errors="replace") as f:
            text = f.read()
        body.append(f"<details><summary>resolved.toml of {e(first)}/ (the other runs differ in "
                    "the varied keys)</summary>")
        body.append(f"<pre>{e(text)}</pre></details>")
    return page_html(f"dcqcn sweep report: {name}", f"{name} \u2014 sweep of {len(df)} runs",
                     " \u00b7 ".join(x for x in sub if x), body)


def build_sweep_report(sweep_dir, quiet=True, formats=("png",), run_report=None):
    """Writes sweep_dir/report/{index.html, <figure>.<format>}; given `run_report`, first each
    run's report through `run_report(run_dir, quiet=...)` (dcqcn_report.py passes the run
    report's build_report). Returns index.html's path."""
    if not os.path.isdir(sweep_dir):
        raise ReportError(f"{sweep_dir}: no such folder (expected a `dcqcn sweep` output folder)")
    if not os.path.isfile(os.path.join(sweep_dir, "sweep.csv")):
        raise ReportError(f"{sweep_dir}: no sweep.csv (expected a `dcqcn sweep` output folder; "
                          "`dcqcn report` also reports a run folder)")
    sweep = read_sweep(sweep_dir)
    if run_report is not None:
        for d in sweep["table"]["dir"]:
            if not d:
                continue  # a failed run: it has no folder
            run_dir = os.path.join(sweep_dir, d)
            if not os.path.isfile(os.path.join(run_dir, "summary.json")):
                raise ReportError(f"{run_dir}: no summary.json (sweep.csv lists this run)")
            try:
                run_report(run_dir, quiet=quiet)
            except ReportError as e:
                raise ReportError(f"run {d}: {e}")
    report_dir = os.path.join(sweep_dir, "report")
    os.makedirs(report_dir, exist_ok=True)

    figures, notes = draw_figures(report_dir, SWEEP_FIGURES, FIGURE_MAKERS, sweep, formats)

    index = os.path.join(report_dir, "index.html")
    write_atomic(index, index_html(sweep, figures, notes, report_dir, formats).encode("utf-8"))
    if not quiet:
        print(f"report: {index} ({len(sweep['table'])} runs, {len(figures)} figures: "
              f"{', '.join(n for n, _ in figures) or 'none'})")
    return index


if __name__ == "__main__":
    sys.exit(not_a_command("dcqcn_sweep_report.py"))
