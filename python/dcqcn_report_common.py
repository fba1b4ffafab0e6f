"""What the run report (dcqcn_report.py) and the sweep report (dcqcn_sweep_report.py) share: the
input-error exception, atomic file writing and the page style. Imported after matplotlib has been
set to the Agg backend."""

import os

import matplotlib.pyplot as plt

DPI = 110


class ReportError(Exception):
    """Bad or missing input (exit code 1)."""


def write_atomic(path, data):
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def save_figure(fig, path):
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        fig.savefig(tmp, format="png", dpi=DPI, bbox_inches="tight")
        os.replace(tmp, path)
    finally:
        plt.close(fig)
        if os.path.exists(tmp):
            os.remove(tmp)


def remove_if_exists(path):
    """Removes a stale output of an earlier report, if there is one."""
    if os.path.exists(path):
        os.remove(path)


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
pre { background: #f7f7f7; padding: 1em; overflow-x: auto; font-size: 85%; }
summary { cursor: pointer; margin: 0.5em 0; }
div.wide { overflow-x: auto; }
table.sweep { font-size: 85%; }
table.sweep th { background: #f3f3f3; vertical-align: bottom; padding: 0.3em 0.5em; }
table.sweep td { padding: 0.15em 0.5em; white-space: nowrap; }
table.sweep td.k { font-weight: 600; }
table.sweep tr:hover td { background: #fafae6; }
.na { color: #999; }
"""
