"""The report page of a `dcqcn tune` folder (report/index.html): the objective per trial, each
parameter against the objective, the parameters' importance (Optuna's fANOVA) and, with several
objectives, the Pareto front; then recommendation.md as text."""
import html
import math
import os
import warnings

import optuna

_COLORS = {"complete": "tab:blue", "infeasible": "tab:orange", "failed": "tab:red",
           "invalid": "tab:purple", "skipped": "tab:gray"}


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _baseline_mean(results, i):
    path = results.search.objectives[i].path
    values = [r["metrics"][path] for r in results.baseline_runs]
    return None if any(v is None for v in values) else sum(values) / len(values)


def _history(results, plt, path):
    o = results.search.objectives[0]
    fig, ax = plt.subplots(figsize=(7, 3.6))
    best, best_x, best_y = None, [], []
    for t in results.trials:
        state = results.state(t)
        if t.values is None:
            continue
        ax.scatter(t.number, t.values[0], s=18, color=_COLORS[state], label=state)
        if state == "complete":
            v = t.values[0]
            if best is None or (v > best if o.maximize else v < best):
                best = v
            best_x.append(t.number)
            best_y.append(best)
    if best_x:
        ax.step(best_x, best_y, where="post", color="black", lw=1, label="best so far")
    base = _baseline_mean(results, 0)
    if base is not None:
        ax.axhline(base, color="tab:green", ls="--", lw=1, label="scenario's own")
    handles, labels = ax.get_legend_handles_labels()
    unique = dict(zip(labels, handles))
    ax.legend(unique.values(), unique.keys(), fontsize=8)
    ax.set_xlabel("trial")
    ax.set_ylabel(o.path, fontsize=8)
    ax.set_title(f"{o.direction()} {o.path} (mean over seeds)", fontsize=9)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _params(results, plt, path):
    params = results.search.params
    o = results.search.objectives[0]
    cols = min(3, len(params))
    rows = math.ceil(len(params) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3.2 * rows), squeeze=False)
    for ax, p in zip(axes.flat, params):
        for t in results.trials:
            if t.values is None or p.key not in t.params:
                continue
            x = t.params[p.key]
            x = p.column_value(x) if p.choices is None else str(x)
            ax.scatter(x, t.values[0], s=14, color=_COLORS[results.state(t)])
        if p.choices is None and p.log:
            ax.set_xscale("log")
        ax.set_xlabel(p.column(), fontsize=8)
        ax.set_ylabel(o.path, fontsize=7)
    for ax in list(axes.flat)[len(params):]:
        ax.axis("off")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def importances(results):
    """{param key: importance} for the first objective over the complete trials (fANOVA), or
    None when there are too few trials for it."""
    trials = [t for t in results.trials if t.values is not None and
              results.state(t) in ("complete", "infeasible")]
    if len(trials) < 4 or len(results.search.params) < 2:
        return None
    study = optuna.create_study(directions=[o.direction() for o in results.search.objectives])
    study.add_trials(trials)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return optuna.importance.get_param_importances(
                study, target=lambda t: t.values[0],
                evaluator=optuna.importance.FanovaImportanceEvaluator(seed=0))
    except (ImportError, RuntimeError, ValueError):
        return None


def _importance(values, plt, path):
    keys = list(values)[::-1]
    fig, ax = plt.subplots(figsize=(6, 0.5 + 0.4 * len(keys)))
    ax.barh(keys, [values[k] for k in keys], color="tab:blue")
    ax.set_xlabel("importance for the first objective (fANOVA)")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _pareto(results, plt, path):
    o1, o2 = results.search.objectives[:2]
    fig, ax = plt.subplots(figsize=(5.5, 4.2))
    for t in results.trials:
        if t.values is not None:
            ax.scatter(t.values[0], t.values[1], s=14, color=_COLORS[results.state(t)])
    front = sorted(results.front, key=lambda t: t.values[0])
    ax.plot([t.values[0] for t in front], [t.values[1] for t in front], "k.-", lw=1,
            label="Pareto front (feasible)")
    if results.best is not None:
        ax.scatter(*results.best.values[:2], s=90, facecolors="none", edgecolors="tab:green",
                   label="chosen")
    ax.set_xlabel(f"{o1.path} ({o1.direction()})", fontsize=8)
    ax.set_ylabel(f"{o2.path} ({o2.direction()})", fontsize=8)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def write(folder, results):
    """Writes folder/report/: the figures and index.html."""
    plt = _plt()
    report = os.path.join(folder, "report")
    os.makedirs(report, exist_ok=True)
    figures = []
    if any(t.values is not None for t in results.trials):
        _history(results, plt, os.path.join(report, "history.png"))
        figures.append(("Objective per trial", "history.png"))
        _params(results, plt, os.path.join(report, "params.png"))
        figures.append(("Each parameter against the objective", "params.png"))
    values = importances(results)
    if values is not None:
        _importance(values, plt, os.path.join(report, "importance.png"))
        figures.append(("Parameter importance", "importance.png"))
    if len(results.search.objectives) > 1 and results.front:
        _pareto(results, plt, os.path.join(report, "pareto.png"))
        figures.append(("Pareto front", "pareto.png"))
    with open(os.path.join(folder, "recommendation.md")) as f:
        recommendation = f.read()
    parts = ["<!doctype html><meta charset='utf-8'><title>dcqcn tune</title>",
             "<style>body{font-family:sans-serif;max-width:60em;margin:auto}"
             "pre{white-space:pre-wrap;background:#f6f6f6;padding:1em}</style>",
             f"<h1>dcqcn tune: {html.escape(results.search.scenario_name)}</h1>",
             "<p>Colours: blue complete, orange infeasible, red failed, purple invalid settings, grey skipped. "
             "Every trial's runs are in trials.csv.</p>"]
    for title, name in figures:
        parts.append(f"<h2>{title}</h2><img src='{name}' alt='{title}'>")
    parts.append(f"<h2>Recommendation</h2><pre>{html.escape(recommendation)}</pre>")
    tmp = os.path.join(report, "index.html.tmp")
    with open(tmp, "w") as f:
        f.write("\n".join(parts) + "\n")
    os.replace(tmp, os.path.join(report, "index.html"))
