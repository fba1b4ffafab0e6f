"""What `dcqcn tune` hands back: trials.csv (every trial's settings and metrics per seed),
best.toml (the scenario with the chosen settings) and best.json (them alone), holdout.csv and recommendation.md (the
settings as scenario keys, NIC firmware parameters and switch ECN/WRED per port speed, with the
held-out check), pareto.csv for several objectives, and the report page."""
import csv
import io
import json
import math
import os

import optuna

from . import _dcqcn, units
from ._report_common import mean_ci95
from .tune_space import lookup

_STATE = {optuna.trial.TrialState.COMPLETE: "complete", optuna.trial.TrialState.FAIL: "failed",
          optuna.trial.TrialState.PRUNED: "skipped"}

# DCQCN's parameters as ConnectX firmware names them (docs/dcqcn.md): (scenario key, firmware
# name, unit, scenario value -> firmware value).
_US = ("time", 10**6, "us")
_MBPS = ("rate", 10**6, "Mbps")
NIC_FIRMWARE = [
    ("cc.g", "dce_tcp_g", "", lambda g: round(1024 * (1 - float(g)))),
    ("cc.initial_alpha", "initial_alpha_value", "", lambda a: round(1024 * float(a))),
    ("cc.alpha_period", "dce_tcp_rtt", _US, None),
    ("cc.rate_reduce_period", "rate_reduce_monitor_period", _US, None),
    ("cc.timer", "rpg_time_reset", _US, None),
    ("cc.byte_counter", "rpg_byte_reset", ("size", 1, "B"), None),
    ("cc.f", "rpg_threshold", "", int),
    ("cc.rai", "rpg_ai_rate", _MBPS, None),
    ("cc.rhai", "rpg_hai_rate", _MBPS, None),
    ("cc.min_rate", "rpg_min_rate", _MBPS, None),
    ("cc.min_dec_factor", "rpg_min_dec_fac", "%", lambda x: round(100 * float(x))),
    ("cc.clamp_target_rate", "clamp_tgt_rate", "", lambda b: int(bool(b))),
    ("cc.clamp_after_time_inc", "clamp_tgt_rate_after_time_inc", "", lambda b: int(bool(b))),
    ("cc.cnp_interval", "min_time_between_cnps", _US, None),
]


def write_atomic(path, text):
    """Writes `path` whole or not at all."""
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def paired_intervals(own, tuned):
    """(mean, 95% half-width) of the scenario's own values, the tuned ones and their change
    paired by seed, from {seed: value} of each (_report_common.mean_ci95)."""
    diffs = [tuned[k] - own[k] for k in tuned if k in own]
    return [mean_ci95(values)[:2] for values in (list(own.values()), list(tuned.values()), diffs)]


def _fmt(x):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:.4g}"


def _firmware_value(value, unit, convert):
    if convert is not None:
        return str(convert(value))
    if isinstance(unit, tuple):
        kind, scale, suffix = unit
        base, _ = units.parse(str(value), kind)
        if base is None:
            return str(value)
        return str(base // scale) if base % scale == 0 else f"{base / scale:.6g}"
    return str(value)


def dominates(a, b, maximize):
    """Whether objective vector a is at least as good as b everywhere and better somewhere."""
    better = False
    for x, y, up in zip(a, b, maximize):
        if (x < y) if up else (x > y):
            return False
        if x != y:
            better = True
    return better


class Results:
    """The finished search: every trial's state and runs, the feasible Pareto front and the
    chosen trial (best.toml's), and the held-out runs once run."""

    def __init__(self, search, study):
        self.search = search
        self.trials = sorted(search.finished_trials(study), key=lambda t: t.number)
        self.maximize = [o.maximize for o in search.objectives]
        self.feasible = [t for t in self.trials if self.state(t) == "complete"]
        self.front = [t for t in self.feasible
                      if not any(dominates(u.values, t.values, self.maximize)
                                 for u in self.feasible)]
        self.best = self._choose()
        self.holdout_runs = []
        with open(os.path.join(search.work, "baseline.json")) as f:
            self.baseline_runs = json.load(f)

    def state(self, t):
        """complete, infeasible (breaks a constraint), failed (its run failed), invalid (the
        scenario rejects its settings) or skipped (by the fluid prescreen)."""
        if t.state == optuna.trial.TrialState.PRUNED and "invalid" in t.user_attrs:
            return "invalid"
        state = _STATE.get(t.state, "failed")
        if state == "complete" and any(v > 0 for v in t.user_attrs.get("violations", [])):
            return "infeasible"
        return state

    def _choose(self):
        """One objective: the best mean (the earliest trial among equals). Several: the front's
        point nearest the ideal, each objective scaled to [0, 1] over the front."""
        if not self.front:
            return None
        if len(self.maximize) == 1:
            sign = -1 if self.maximize[0] else 1
            return min(self.front, key=lambda t: (sign * t.values[0], t.number))
        spans = []
        for i, up in enumerate(self.maximize):
            values = [t.values[i] for t in self.front]
            spans.append((min(values), max(values) - min(values) or 1.0, up))

        def distance(t):
            total = 0.0
            for v, (low, span, up) in zip(t.values, spans):
                scaled = (v - low) / span
                total += (1 - scaled if up else scaled) ** 2
            return (total, t.number)
        return min(self.front, key=distance)

    # --- files --------------------------------------------------------------------------------

    def write(self, folder):
        write_atomic(os.path.join(folder, "trials.csv"), self.trials_csv())
        if len(self.maximize) > 1:
            write_atomic(os.path.join(folder, "pareto.csv"), self.pareto_csv())
        if self.best is not None:
            write_atomic(os.path.join(folder, "best.toml"), self.best_toml())
            chosen = {"trial": self.best.number,
                      "settings": dict(s.split("=", 1) for s in self.best.user_attrs["sets"]),
                      "objectives": {o.path: v for o, v in zip(self.search.objectives,
                                                                self.best.values)}}
            write_atomic(os.path.join(folder, "best.json"), json.dumps(chosen, indent=2) + "\n")
        if self.holdout_runs:
            write_atomic(os.path.join(folder, "holdout.csv"), self.holdout_csv())
        write_atomic(os.path.join(folder, "recommendation.md"), self.recommendation())
        from . import tune_report
        tune_report.write(folder, self)

    def metric_paths(self):
        return [path for path, _ in self.search.metric_flags()]

    def trials_csv(self):
        params = self.search.params
        paths = self.metric_paths()
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["trial", "state", "seed"] + [p.column() for p in params] + paths +
                   ["wall_s", "error"])
        for t in self.trials:
            state = self.state(t)
            values = [p.column_value(t.params[p.key]) if p.key in t.params else ""
                      for p in params]
            runs = t.user_attrs.get("runs") or [{"seed": "", "metrics": {}, "wall_s": ""}]
            error = (t.user_attrs.get("error") or t.user_attrs.get("invalid") or
                     t.user_attrs.get("skipped", ""))
            for r in runs:
                metrics = ["" if r["metrics"].get(p) is None else r["metrics"][p] for p in paths]
                w.writerow([t.number, state, r["seed"]] + values + metrics +
                           [r.get("wall_s", ""), error])
        return out.getvalue()

    def pareto_csv(self):
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["trial", "chosen"] + [p.column() for p in self.search.params] +
                   [o.path for o in self.search.objectives])
        for t in sorted(self.front, key=lambda t: t.values):
            w.writerow([t.number, int(t is self.best)] +
                       [p.column_value(t.params[p.key]) for p in self.search.params] + t.values)
        return out.getvalue()

    def holdout_csv(self):
        paths = self.metric_paths()
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["settings", "seed"] + paths)
        for r in self.holdout_runs:
            w.writerow([r["settings"], r["seed"]] +
                       ["" if r["metrics"][p] is None else r["metrics"][p] for p in paths])
        return out.getvalue()

    def best_resolved(self):
        """The scenario with the chosen settings, every default filled in: (TOML text, dict,
        the warnings `dcqcn check best.toml` prints)."""
        s = self.search
        text, warnings = _dcqcn.check(s.scenario_arg, s.scenario_is_path,
                                      s.base_sets + self.best.user_attrs["sets"])
        import tomllib
        return text, tomllib.loads(text), list(warnings)

    def best_toml(self):
        text, _, _ = self.best_resolved()
        head = [f"# {self.search.scenario_name} with the settings `dcqcn tune` chose (trial "
                f"{self.best.number}); run it with `dcqcn run best.toml`.",
                "# Tuned: " + ", ".join(self.best.user_attrs["sets"])]
        return "\n".join(head) + "\n" + text

    # --- recommendation.md --------------------------------------------------------------------

    def recommendation(self):
        s = self.search
        counts = {k: sum(1 for t in self.trials if self.state(t) == k)
                  for k in ("complete", "infeasible", "failed", "invalid", "skipped")}
        goal = "; ".join(f"{o.direction()} `{o.path}`" for o in s.objectives)
        lines = [f"# Recommendation for {s.scenario_name}", "",
                 f"`dcqcn tune` ran {len(self.trials)} trials x {s.seeds} seed(s) (seeds 1-"
                 f"{s.seeds}) to {goal}"
                 + (" subject to " + ", ".join(f"`{c.text}`" for c in s.constraints)
                    if s.constraints else "") + ".",
                 f"Trials: {counts['complete']} complete, {counts['infeasible']} infeasible, "
                 f"{counts['failed']} failed, {counts['invalid']} with settings the scenario "
                 "rejects"
                 + (f", {counts['skipped']} skipped by the fluid prescreen" if s.prescreen
                    else "") + "."]
        lines += self._prescreen_savings()
        if self.best is None:
            lines += ["", "**No trial was complete and feasible: there is nothing to "
                      "recommend.** See trials.csv for the failures."]
            return "\n".join(lines) + "\n"
        _, best, warnings = self.best_resolved()
        lines += ["", f"The chosen settings are trial {self.best.number}'s"
                  + (" (the Pareto front's point nearest the ideal, each objective scaled over "
                     "the front; every front point is in pareto.csv)" if len(s.objectives) > 1
                     else "") + "."]
        if warnings:
            # The search optimises the metrics it is given, not the buffer rules: what
            # `dcqcn check best.toml` warns of is said here, not left for the reader to find.
            lines += ["", "## Warnings", "", "`dcqcn check best.toml` warns of the chosen "
                      "settings:", ""] + [f"- {w}" for w in warnings]
        lines += ["", "## Scenario keys", "",
                  "| key | scenario's own | tuned |", "|---|---|---|"]
        for p in s.params:
            own = s.baseline.get(p.key)
            lines.append(f"| `{p.key}` | {'-' if own is None else own} | "
                         f"{p.display(self.best.params[p.key])} |")
        lines += self._firmware(best) + self._switch_ecn(best) + self._holdout_section()
        return "\n".join(lines) + "\n"

    def _prescreen_savings(self):
        """What --prescreen fluid skipped and saved: the packet runs it spared, at the mean
        wall time of the trials that ran, less the fluid model's own time."""
        if self.search.prescreen is None:
            return []
        skipped = [t for t in self.trials if self.state(t) == "skipped"]
        fluid_s = sum(t.user_attrs.get("fluid_s", 0.0) for t in self.trials)
        walls = [sum(r["wall_s"] for r in t.user_attrs["runs"]) for t in self.trials
                 if t.user_attrs.get("runs")]
        trial_s = sum(walls) / len(walls) if walls else math.nan
        saved = len(skipped) * trial_s - fluid_s
        return ["", f"The fluid prescreen skipped {len(skipped)} of {len(self.trials)} trials "
                f"(settings the model calls oscillating). It took {fluid_s:.1f} s in all; a "
                f"trial's packet runs took {trial_s:.2f} s on average, so it saved about "
                f"{saved:.1f} s of {sum(walls) + fluid_s + len(skipped) * trial_s:.1f} s."]

    def _firmware(self, best):
        cc = best.get("cc", {})
        if cc.get("algorithm") != "dcqcn":
            return []
        tuned = {p.key for p in self.search.params}
        rows = []
        for key, name, unit, convert in NIC_FIRMWARE:
            value = lookup(best, key)
            if value is None:
                continue
            suffix = unit[2] if isinstance(unit, tuple) else unit
            mark = " (tuned)" if key in tuned else ""
            rows.append(f"| `{name}` | {_firmware_value(value, unit, convert)}"
                        f"{' ' + suffix if suffix else ''} | `{key}` = {value}{mark} |")
        return ["", "## NIC firmware (ConnectX DCQCN parameters)", "",
                "As `mlxconfig`/sysfs name them (docs/dcqcn.md). The model's `mode` and "
                "`stage_rule` have no firmware switch: firmware behaves as `sampled`/`hpcc`.", "",
                "| parameter | value | scenario key |", "|---|---|---|"] + rows

    def _switch_ecn(self, best):
        ecn = best.get("switch", {}).get("ecn", {})
        if not ecn:
            return []
        rates = self._port_rates()
        by_rate = {}
        for entry in ecn.get("by_rate", []):
            value, _ = units.parse(str(entry.get("rate")), "rate")
            by_rate[value] = entry
        rows = []
        for rate in rates or [None]:
            entry = by_rate.get(rate, {})
            name = f"{rate / 1e9:g} Gb/s" if rate is not None else "every port"
            pmax = entry.get("pmax", ecn.get("pmax"))
            rows.append(f"| {name} | {entry.get('kmin', ecn.get('kmin'))} | "
                        f"{entry.get('kmax', ecn.get('kmax'))} | "
                        f"{f'{pmax:.4g}' if isinstance(pmax, float) else pmax} |")
        return ["", "## Switch ECN (WRED) per port speed", "",
                "WRED on the lossless queue, ECN marking instead of dropping: minimum threshold "
                "(Kmin), maximum threshold (Kmax) and the marking probability at the maximum "
                f"(Pmax). ECN marking {'on' if ecn.get('enabled', True) else 'OFF'}.", "",
                "| port speed | min threshold | max threshold | probability at max |",
                "|---|---|---|---|"] + rows

    def _port_rates(self):
        """The switch ports' speeds (bit/s), from a run of the chosen settings."""
        folder = os.path.join(self.search.work, "trials", f"{self.best.number:04d}", "seed1")
        try:
            with open(os.path.join(folder, "links.csv")) as f:
                return sorted({round(float(r["rate_gbps"]) * 1e9) for r in csv.DictReader(f)
                               if not r["node"].startswith("h")})
        except (OSError, KeyError, ValueError):
            return []

    def _holdout_section(self):
        s = self.search
        if not self.holdout_runs:
            return ["", "## Held-out check", "", "Not run (--holdout 0)."]
        first, last = s.seeds + 1, s.seeds + s.holdout
        lines = ["", "## Held-out check", "",
                 f"The scenario's own settings and the tuned ones on seeds {first}-{last}, which "
                 "the search never saw; mean and 95% interval (Student's t), and the tuned "
                 "settings' change, paired by seed.", "",
                 "| metric | scenario's own | tuned | change (tuned - own) |",
                 "|---|---|---|---|"]
        for path in self.metric_paths():
            own = {r["seed"]: r["metrics"][path] for r in self.holdout_runs
                   if r["settings"] == "scenario" and r["metrics"][path] is not None}
            tuned = {r["seed"]: r["metrics"][path] for r in self.holdout_runs
                     if r["settings"] == "tuned" and r["metrics"][path] is not None}
            cells = [f"{_fmt(m)} ± {_fmt(h)}" for m, h in paired_intervals(own, tuned)]
            lines.append(f"| `{path}` | " + " | ".join(cells) + " |")
        lines += ["", "A change whose interval includes 0 is not shown to be a change on these "
                  "seeds: the scenario's own settings may already be as good."]
        return lines + self._holdout_breaks()

    def _holdout_breaks(self):
        """The held-out seeds on which the tuned settings break a constraint the search's seeds
        met: the search cannot promise it beyond the seeds it saw."""
        lines = []
        for c in self.search.constraints:
            broken = [(r["seed"], r["metrics"][c.path]) for r in self.holdout_runs
                      if r["settings"] == "tuned" and
                      (r["metrics"][c.path] is None or c.violation(r["metrics"][c.path]) > 0)]
            if not broken:
                continue
            seeds = ", ".join(str(seed) for seed, _ in broken)
            values = ", ".join(f"{c.path} = {_fmt(v)} on seed {seed}" for seed, v in broken)
            lines += ["", f"**The tuned settings break the constraint `{c.text}` on held-out "
                      f"seed{'s' if len(broken) > 1 else ''} {seeds}** ({values}), which the "
                      f"search's seeds 1-{self.search.seeds} met: the constraint is not shown "
                      "to hold beyond them. Search with more --seeds, or with a margin in the "
                      "constraint."]
        return lines
