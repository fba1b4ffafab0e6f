"""What the run, sweep and fluid reports (python/dcqcn_run_report.py, dcqcn_sweep_report.py,
dcqcn_fluid_report.py) share, so that none of them imports another: the input-error exception and
the command-line plumbing, reading a CSV or summary.json, figure creation and saving in the chosen
formats, the HTML page around the figures, the confidence interval of a mean and the page style.
dcqcn tune's outputs use its confidence interval too. Importing it sets matplotlib to the Agg
backend (no display: figures go straight to files).

Pure Python: it loads without the compiled extension (see dcqcn/__init__.py), as the report
scripts need.
"""

import html
import json
import math
import os
import sys
import traceback

os.environ.setdefault("MPLBACKEND", "Agg")

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    import pandas as pd
except ImportError as e:  # e.g. run with a python3 that is not Debian's /usr/bin/python3
    sys.exit(f"error: {e} under {sys.executable}: the report needs Debian's python3-matplotlib, "
             "python3-numpy and python3-pandas under /usr/bin/python3 (run scripts/setup.sh)")

DPI = 110
FORMATS = ["png", "svg", "pdf"]  # figure formats, in the order index.html prefers them
NA = "\u2013"  # what a null (empty) statistic shows as


class ReportError(Exception):
    """Bad or missing input (exit code 1)."""


def run_cli(script, fn):
    """Runs fn() and returns the exit code of the dcqcn CLI: 0 ok, 1 bad input (the message on
    stderr), 3 a bug in `script` (with its traceback)."""
    try:
        fn()
    except ReportError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except Exception:  # noqa: BLE001 - anything else is a bug in the script
        traceback.print_exc()
        print(f"internal error in {script} (a bug: please report it)", file=sys.stderr)
        return 3
    return 0


def parse_formats(text):
    """["png", "svg"] from "png,svg" (the --format option); a ReportError for anything else."""
    formats = [f.strip().lower() for f in str(text).split(",") if f.strip()]
    bad = [f for f in formats if f not in FORMATS]
    if bad or not formats:
        raise ReportError(f"--format {text}: expected a comma-separated list of "
                          f"{', '.join(FORMATS)} (got {', '.join(bad) or 'nothing'})")
    return list(dict.fromkeys(formats))


def write_atomic(path, data):
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def save_figure(fig, report_dir, name, formats):
    """Writes `fig` as report_dir/name.<format> for each of `formats`, each file under a
    temporary name renamed when complete, and removes the figure's other formats (left by an
    earlier report, they would show older data)."""
    try:
        for fmt in formats:
            path = os.path.join(report_dir, f"{name}.{fmt}")
            tmp = f"{path}.tmp{os.getpid()}"
            try:
                fig.savefig(tmp, format=fmt, dpi=DPI, bbox_inches="tight")
                os.replace(tmp, path)
            finally:
                if os.path.exists(tmp):
                    os.remove(tmp)
    finally:
        plt.close(fig)
    for fmt in FORMATS:
        if fmt not in formats:
            remove_if_exists(os.path.join(report_dir, f"{name}.{fmt}"))


def draw_figures(report_dir, names, makers, data, formats):
    """Draws each figure of `names` with makers[name](data) -> (figure or None, text) into
    report_dir; a figure that cannot be drawn (None) is removed if an earlier report left it, and
    its text becomes a note. Returns ([(name, text)], [note])."""
    figures, notes = [], []
    for name in names:
        fig, text = makers[name](data)
        if fig is None:
            remove_figure(report_dir, name)  # stale, from an earlier report of this folder
            if text:
                notes.append(text)
            continue
        save_figure(fig, report_dir, name, formats)
        figures.append((name, text))
    return figures, notes


def remove_figure(report_dir, name):
    """Removes every format of a figure this report does not draw (stale, from an earlier one)."""
    for fmt in FORMATS:
        remove_if_exists(os.path.join(report_dir, f"{name}.{fmt}"))


def remove_if_exists(path):
    """Removes a stale output of an earlier report, if there is one."""
    if os.path.exists(path):
        os.remove(path)


def figure_html(name, caption, formats, escape):
    """A <figure>: the PNG embedded (an SVG when there is no PNG), links to the other formats."""
    shown = next((f for f in ("png", "svg") if f in formats), None)
    out = ["<figure>"]
    if shown:
        out.append(f'<img src="{name}.{shown}" alt="{escape(caption)}">')
    links = [f'<a href="{name}.{f}">{f.upper()}</a>' for f in formats if f != shown]
    text = escape(caption)
    if links:
        text += f' <span class="alt">({"also as " if shown else ""}{", ".join(links)})</span>'
    out.append(f"<figcaption>{text}</figcaption></figure>")
    return "".join(out)


def not_a_command(script):
    """What a report module says when run as a script: it is part of dcqcn_report.py, the one
    command line of the reports (a usage error, exit code 2)."""
    print(f"usage: dcqcn_report.py [--runs] [--format LIST] [--flows IDS] [--tags TAGS] [--quiet] "
          f"DIR\n{script} is a module of the report, not a command: run `dcqcn report DIR` or "
          "python/dcqcn_report.py DIR", file=sys.stderr)
    return 2


# ---------------------------------------------------------------------------------------------
# Reading


def read_csv(path, dtypes, optional=None):
    """The CSV at `path` with the columns of `dtypes` (other columns ignored), or None when the
    file is absent. `optional` maps further columns to a default for files written before they
    existed (e.g. flows.csv's tag)."""
    if not os.path.exists(path):
        return None
    optional = optional or {}
    wanted = set(dtypes) | set(optional)
    try:
        df = pd.read_csv(path, usecols=lambda c: c in wanted, engine="c",
                         dtype={**dtypes, **{c: str for c in optional}})
    except pd.errors.EmptyDataError:
        raise ReportError(f"{path}: empty file (expected a header line: {','.join(dtypes)})")
    except ValueError as e:
        raise ReportError(f"{path}: expected columns {','.join(dtypes)}: {e}")
    missing = [c for c in dtypes if c not in df.columns]
    if missing:
        raise ReportError(f"{path}: expected columns {','.join(dtypes)} (missing "
                          f"{','.join(missing)})")
    for c, default in optional.items():
        df[c] = df[c].fillna(default) if c in df.columns else default
    return df


def read_summary(folder):
    """folder/summary.json as a dict (a run's or a fluid folder's)."""
    path = os.path.join(folder, "summary.json")
    try:
        with open(path, encoding="utf-8") as f:
            summary = json.load(f)
    except (OSError, ValueError) as e:
        raise ReportError(f"{path}: {e}")
    if not isinstance(summary, dict):
        raise ReportError(f"{path}: expected a JSON object")
    return summary


MISSING = object()  # a key summary.json does not have (an older folder): its row is left out


def get(s, *path):
    """summary.json's value at `path`: None where it is null, MISSING where it is absent."""
    v = s
    for p in path:
        if not isinstance(v, dict) or p not in v:
            return MISSING
        v = v[p]
    return v


def fmt_num(v, spec, scale=1.0, suffix=""):
    """A number as text; NA for null; MISSING stays MISSING."""
    if v is MISSING or v is None:
        return v if v is MISSING else NA
    try:
        return format(v * scale if scale != 1 else v, spec) + suffix
    except (TypeError, ValueError):
        return str(v)


def fmt_kb(v):
    """Bytes as KB with one decimal ("1360.2 KB"): the one spelling of a queue or buffer size in
    the reports' legends and tables, so a value reads the same wherever it appears."""
    return fmt_num(v, ".1f", 1e-3, " KB")


# ---------------------------------------------------------------------------------------------
# Figures

STYLE = {"font.size": 10, "axes.titlesize": 12, "axes.titleweight": "bold"}


def subplots(*args, **kwargs):
    """plt.subplots in the reports' style: every figure of every report is made here."""
    plt.rcParams.update(STYLE)
    return plt.subplots(*args, **kwargs)


def legend_outside(ax, **kw):
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", frameon=False, **kw)


def line_colors(n):
    cmap = plt.get_cmap("tab10" if n <= 10 else "tab20")
    return lambda i: cmap(i % cmap.N)



# ---------------------------------------------------------------------------------------------
# The page


def page_html(title, heading, sub, body):
    """index.html: the page's title, its heading and the grey line under it, then `body` (a list
    of HTML fragments, one a line)."""
    e = html.escape
    return "\n".join(["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
                      f"<title>{e(title)}</title>", f"<style>{CSS}</style></head><body>",
                      f"<h1>{e(heading)}</h1>", f'<p class="sub">{e(sub)}</p>', *body,
                      "</body></html>\n"])


def sections_table_html(rows):
    """A two-column table of (section, label, text) rows, a header row per section; NA cells
    grey."""
    e = html.escape
    out = ["<table>"]
    section = None
    for sec, label, value in rows:
        if sec != section:
            out.append(f'<tr><th class="section" colspan="2">{e(sec)}</th></tr>')
            section = sec
        cls = "v na" if value == NA else "v"
        out.append(f'<tr><td>{e(label)}</td><td class="{cls}">{e(str(value))}</td></tr>')
    out.append("</table>")
    return "\n".join(out)


def figures_html(figures, notes, formats):
    """The figures ((name, caption) pairs) and then the notes, one paragraph each."""
    e = html.escape
    return ([figure_html(name, caption, formats, e) for name, caption in figures] +
            [f"<p>{e(note)}</p>" for note in notes])


# Student t quantiles t(0.975, df) for df = 1..30; larger df use the Cornish-Fisher expansion,
# which is within 1e-4 there (no SciPy: the report needs only matplotlib, numpy and pandas).
_T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
         2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
         2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t975(df):
    """The 97.5th percentile of Student's t with `df` degrees of freedom (a two-sided 95%
    interval)."""
    if df < 1:
        raise ValueError("t975 needs at least one degree of freedom")
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959964
    return (z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2) +
            (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3))


def mean_ci95(values):
    """(mean, half-width of its 95% confidence interval, n) of the finite values: Student t with
    n - 1 degrees of freedom; the half-width is NaN for fewer than two values."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if len(v) == 0:
        return math.nan, math.nan, 0
    if len(v) == 1:
        return float(v[0]), math.nan, 1
    return float(v.mean()), t975(len(v) - 1) * float(v.std(ddof=1)) / math.sqrt(len(v)), len(v)


CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1250px; color: #222;
       padding: 0 1em; }
h1 { margin-bottom: 0.2em; } .sub { color: #666; margin-top: 0; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { padding: 0.2em 0.9em; border-bottom: 1px solid #e4e4e4; text-align: left; }
th.section { background: #f3f3f3; }
td.v { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 2em 0; } figure img { max-width: 100%; border: 1px solid #eee; }
figcaption { color: #444; margin-top: 0.3em; }
.alt { color: #777; font-size: 90%; }
pre { background: #f7f7f7; padding: 1em; overflow-x: auto; font-size: 85%; }
summary { cursor: pointer; margin: 0.5em 0; }
div.wide { overflow-x: auto; }
table.sweep, table.tags { font-size: 85%; }
table.sweep th, table.tags th { background: #f3f3f3; vertical-align: bottom; padding: 0.3em 0.5em; }
table.sweep td { padding: 0.15em 0.5em; white-space: nowrap; }
table.sweep td.k { font-weight: 600; }
table.sweep tr:hover td { background: #fafae6; }
.na { color: #999; }
"""
