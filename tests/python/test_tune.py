"""`dcqcn tune` and dcqcn.tune (run by ctest with PYTHONPATH=build/python): what the search hands
back, that every trial is an ordinary run, reproducibility, failed, invalid and infeasible
trials, several objectives, bad input, resuming after Ctrl-C, the fluid prescreen, mpirun, and
docs/tune.md's example (a) against the paper's buffer rule."""
import json
import os
import shutil
import signal
import subprocess
import time

import pandas as pd
import pytest

import dcqcn
from dcqcn import units

BINARY = os.environ["DCQCN_BINARY"]
ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
LEAF_SPINE = os.path.join(ROOT, "examples", "leaf_spine.toml")
INCAST_PAUSE = os.path.join(ROOT, "examples", "tune", "incast_pause.toml")
STABILITY = os.path.join(ROOT, "examples", "paper", "stability.toml")
ECN = ["switch.ecn.kmin=1KB:100KB:log", "switch.ecn.kmax=50KB:2MB:log",
       "switch.ecn.pmax=0.01:1:log"]
P99 = "by_tag.incast.fct_slowdown.p99"


def small_search(out, **kw):
    args = dict(param=ECN, minimize=P99, trials=6, seeds=2, holdout=2, out=out)
    args.update(kw)
    return dcqcn.tune(LEAF_SPINE, **args)


def test_a_port_speeds_own_thresholds_are_searched_through_by_rate(tmp_path):
    # The fabric's 80 Gb/s ports get an entry of their own; the search moves its Kmin, and the
    # recommendation's 80 Gb/s row holds the chosen value.
    entry = 'switch.ecn.by_rate=[{rate = "80Gbps", kmin = "5KB", kmax = "200KB", pmax = 0.01}]'
    key = "switch.ecn.by_rate.0.kmin"
    pmax = "switch.ecn.by_rate.0.pmax"  # and its Pmax among values (categorical)
    r = small_search(tmp_path / "t", param=[f"{key}=1KB:100KB:log", f"{pmax}=0.05,0.5"],
                     set=[entry], trials=3, seeds=1, holdout=1)
    column = next(c for c in r.trials.columns if c.startswith(key))
    done = r.trials[r.trials.state == "complete"]
    assert len(done) == 3 and done[column].nunique() == 3
    assert set(done[pmax]) <= {0.05, 0.5}
    chosen = units.parse_size(r.best[key])
    assert 1000 <= chosen <= 100000
    row = next(line for line in r.recommendation.splitlines() if line.startswith("| 80 Gb/s |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert units.parse_size(cells[1]) == chosen, row
    assert float(cells[3]) == float(r.best[pmax]), row


def test_a_search_hands_back_every_output_and_best_toml_reruns_its_trial(tmp_path):
    out = tmp_path / "t"
    r = small_search(out)
    for name in ("trials.csv", "best.toml", "best.json", "holdout.csv", "recommendation.md",
                 "tune.json", "report/index.html", "report/history.png", "report/params.png",
                 "report/importance.png"):
        assert (out / name).exists(), name
    assert not (tmp_path / "t.unfinished").exists()
    # One row per trial and seed; every complete trial has its metric for both seeds.
    assert r.trials["trial"].nunique() == 6
    done = r.trials[r.trials.state == "complete"]
    assert set(done.seed) == {1, 2} and done[P99].notna().all()
    # Every trial is an ordinary run: best.toml run with seed 1 gives its trial's seed-1 result.
    best = json.loads((out / "best.json").read_text())
    rerun = dcqcn.run(str(out / "best.toml"), seed=1)
    trial = json.loads((out / "trials" / f"{best['trial']:04d}" / "seed1" /
                        "summary.json").read_text())
    assert rerun.summary["by_tag"]["incast"]["fct_slowdown"]["p99"] == \
        trial["by_tag"]["incast"]["fct_slowdown"]["p99"]
    # The chosen trial is the best complete one; held out: both settings on seeds 3 and 4.
    means = done.groupby("trial")[P99].mean()
    assert means.idxmin() == best["trial"] and means.min() == best["objectives"][P99]
    assert sorted(r.holdout.seed.unique()) == [3, 4]
    assert set(r.holdout.settings) == {"scenario", "tuned"}
    text = r.recommendation
    for section in ("## Scenario keys", "## NIC firmware", "`dce_tcp_g` | 1020",
                    "## Switch ECN (WRED) per port speed", "| 40 Gb/s |", "| 80 Gb/s |",
                    "## Held-out check", "seeds 3-4"):
        assert section in text, section


def test_the_same_seed_gives_the_same_search(tmp_path):
    a = small_search(tmp_path / "a", seed=7).trials.drop(columns="wall_s")
    b = small_search(tmp_path / "b", seed=7).trials.drop(columns="wall_s")
    c = small_search(tmp_path / "c", seed=8).trials.drop(columns="wall_s")
    pd.testing.assert_frame_equal(a, b)
    assert not a.equals(c)


def test_settings_the_scenario_rejects_are_kept_as_invalid_and_the_search_goes_on(tmp_path):
    # kmin above kmax in most of this space.
    r = small_search(tmp_path / "t", param=["switch.ecn.kmin=10KB:1MB:log",
                                            "switch.ecn.kmax=10KB:1MB:log"], trials=10)
    invalid = r.trials[r.trials.state == "invalid"]
    assert len(invalid) > 0 and invalid.error.str.contains("kmin <= kmax").all()
    assert (r.trials.state == "complete").any() and r.best is not None


def test_a_failing_run_is_recorded_with_its_error(tmp_path):
    # A metric that exists in the summary but is null (no flow of that size): the trial fails.
    r = small_search(tmp_path / "t", minimize="by_tag.incast.fct_slowdown_by_size.<10KB.p99",
                     trials=2, holdout=0)
    assert (r.trials.state == "failed").all()
    assert r.trials.error.str.contains("null in this run").all()
    assert r.best is None and "nothing to recommend" in r.recommendation
    assert not os.path.exists(tmp_path / "t" / "best.toml")


def test_an_error_of_any_type_is_recorded_with_its_type_and_message(tmp_path, monkeypatch):
    # Optuna keeps a failed trial without its exception: the search must record it.
    from dcqcn import tune_search
    run = tune_search.Search._run

    def flaky(self, sets, seed, folder, **kw):
        if os.path.join("trials", "0001") in folder:
            raise KeyError("by_tag")
        return run(self, sets, seed, folder, **kw)
    monkeypatch.setattr(tune_search.Search, "_run", flaky)
    r = small_search(tmp_path / "t", trials=3, holdout=0)
    failed = r.trials[r.trials.state == "failed"]
    assert list(failed.trial) == [1] and (failed.error == "KeyError: 'by_tag'").all()
    assert (r.trials[r.trials.trial != 1].state == "complete").all()


def test_a_number_only_some_runs_have_fails_the_metric_not_the_settings(tmp_path):
    # pfc.spread is in summary.json only when the run sent PAUSE: the file's settings do, low
    # Kmin does not. A trial without it failed its metric; its settings are valid.
    r = dcqcn.tune(INCAST_PAUSE, param="switch.ecn.kmin=10KB:1MB:log",
                   minimize="bottleneck.mean_queue_bytes",
                   constraint=["pfc.spread.max_hops <= 1"], trials=6, holdout=2, seed=1,
                   out=tmp_path / "t")
    assert "invalid" not in set(r.trials.state)
    lacking = r.trials[r.trials["pfc.spread.max_hops"].isna()]
    assert len(lacking) > 0 and (lacking.state == "failed").all()
    assert lacking.error.str.contains("--constraint pfc.spread.max_hops: this run's "
                                      "summary.json has no such number").all()
    assert (r.trials.state == "complete").any()


def test_a_constraint_splits_at_its_last_operator():
    from dcqcn.tune_space import Constraint
    c = Constraint("by_tag.x.fct_slowdown_by_size.>=1MB.p99<=7.5")
    assert (c.path, c.op, c.bound) == ("by_tag.x.fct_slowdown_by_size.>=1MB.p99", "<=", 7.5)
    assert c.violation(8.0) == 0.5 and Constraint("a >= 2").violation(3) == -1


def test_constraints_mark_trials_infeasible_and_the_best_is_feasible(tmp_path):
    r = small_search(tmp_path / "t", trials=8,
                     constraint=["bottleneck.mean_queue_bytes <= 150000"])
    states = set(r.trials.state)
    assert "infeasible" in states and "complete" in states
    best = r.trials[r.trials.trial == json.loads(
        (tmp_path / "t" / "best.json").read_text())["trial"]]
    assert best["bottleneck.mean_queue_bytes"].mean() <= 150000
    assert (r.trials[r.trials.state == "infeasible"].groupby("trial")[
        "bottleneck.mean_queue_bytes"].mean() > 150000).all()


def test_several_objectives_give_a_pareto_front_and_a_chosen_point_on_it(tmp_path):
    r = small_search(tmp_path / "t", trials=8, maximize="aggregate_goodput_gbps",
                     minimize="bottleneck.mean_queue_bytes")
    front = pd.read_csv(tmp_path / "t" / "pareto.csv")
    assert front.chosen.sum() == 1
    means = r.trials[r.trials.state == "complete"].groupby("trial")[
        ["bottleneck.mean_queue_bytes", "aggregate_goodput_gbps"]].mean()
    for _, p in front.iterrows():
        q, g = p["bottleneck.mean_queue_bytes"], p["aggregate_goodput_gbps"]
        dominated = ((means["bottleneck.mean_queue_bytes"] <= q) &
                     (means["aggregate_goodput_gbps"] >= g) &
                     ((means["bottleneck.mean_queue_bytes"] < q) |
                      (means["aggregate_goodput_gbps"] > g)))
        assert not dominated.any()
    assert (tmp_path / "t" / "report" / "pareto.png").exists()


def test_the_recommendation_says_which_held_out_seeds_break_a_constraint_and_what_check_warns(
        tmp_path):
    # A PAUSE too short to refresh: `dcqcn check` warns of it in any settings.
    quanta = "switch.pfc.pause_quanta=1"
    warned = dcqcn.check(LEAF_SPINE, set=[quanta])["warnings"]
    assert any("pause_quanta" in w for w in warned)
    search = dict(param=[ECN[0]], trials=1, seeds=1, holdout=3, set=[quanta])
    # One trial, met by seed 1 (its bound is seed 1's value) and broken by a held-out seed.
    first = small_search(tmp_path / "a", constraint=[f"{P99} <= 1e9"], **search)
    bound = first.trials[P99].iloc[0]
    tuned = first.holdout[first.holdout.settings == "tuned"]
    broken = sorted(tuned[tuned[P99] > bound].seed)
    assert broken, "no held-out seed above seed 1: choose another case"
    r = small_search(tmp_path / "b", constraint=[f"{P99} <= {bound!r}"], **search)
    assert (r.trials.state == "complete").all()
    seeds = ", ".join(map(str, broken))
    assert f"break the constraint `{P99} <= {bound!r}` on held-out seed" in r.recommendation
    assert f"seed{'s' if len(broken) > 1 else ''} {seeds}**" in r.recommendation
    for w in dcqcn.check(str(tmp_path / "b" / "best.toml"))["warnings"]:
        assert f"- {w}" in r.recommendation, w


@pytest.mark.parametrize("kw, message", [
    ({"param": ["switch.ecn.kmn=1KB:2KB"]}, "--param switch.ecn.kmn: "),
    ({"param": ["switch.ecn.kmin"]}, "expected KEY=LOW:HIGH"),
    ({"param": ["switch.ecn.kmin=5KB:1KB"]}, "LOW 5KB must be below HIGH 1KB"),
    ({"param": ["switch.ecn.kmin=0KB:1KB:log"]}, ":log needs LOW > 0"),
    ({"param": ["switch.ecn.kmin=1KB:2us"]}, "are not of one kind"),
    ({"param": ["switch.ecn.kmin=1KB:2KB:cube"]}, "unknown option 'cube'"),
    ({"param": ["cc.f=1.5:4:int"]}, ":int needs integer bounds"),
    ({"param": ["switch.ecn.pmax=0.1"]}, "two or more values"),
    ({"minimize": "pfc_pause_frame"}, "--minimize pfc_pause_frame: no such number in "
                                      "summary.json; nearest: pfc_pause_frames"),
    ({"minimize": "bottleneck"}, "--minimize bottleneck: not a number"),
    ({"constraint": ["pfc_pause_frames < 3"]}, "expected \"METRIC <= X\""),
    ({"trials": 0}, "--trials 0: expected an integer >= 1"),
    # One metric both ways is no search (issue 43, item 14); nor is one given twice.
    ({"minimize": P99, "maximize": P99}, f"--maximize and --minimize {P99}: given twice (one "
                                         "metric cannot be both minimized and maximized)"),
    ({"minimize": [P99, P99]}, f"--minimize {P99}: given twice"),
    # A bound every trial meets or none does, or that compares false with everything.
    ({"constraint": ["pfc_pause_frames <= nan"]}, "the bound 'nan' is not a finite number"),
    ({"constraint": ["pfc_pause_frames <= inf"]}, "the bound 'inf' is not a finite number"),
    ({"constraint": ["pfc_pause_frames >= -inf"]}, "the bound '-inf' is not a finite number"),
    ({"seed": -1}, "--seed -1: expected an integer 0..18446744073709551615"),
    ({"seed": 2**64}, "--seed 18446744073709551616: expected an integer 0..18446744073709551615"),
    ({"prescreen": "magic"}, "--prescreen 'magic'"),
])
def test_bad_input_names_the_flag_and_the_key_and_leaves_nothing(tmp_path, kw, message):
    with pytest.raises(dcqcn.InputError, match=None) as e:
        small_search(tmp_path / "t", **kw)
    assert message in str(e.value)
    assert not os.path.exists(tmp_path / "t") and not os.path.exists(tmp_path / "t.unfinished")


def test_any_uint64_seeds_the_search(tmp_path):
    # Optuna's samplers take numpy's 0..2^32 - 1: a larger --seed is taken modulo 2^32.
    r = small_search(tmp_path / "t", trials=2, seeds=1, holdout=0, seed=2**64 - 1)
    assert r.trials["trial"].nunique() == 2
    assert json.loads((tmp_path / "t" / "tune.json").read_text())["seed"] == 2**64 - 1


def test_an_existing_folder_needs_force(tmp_path):
    small_search(tmp_path / "t", trials=2, holdout=0)
    with pytest.raises(dcqcn.InputError, match="exists; use --force"):
        small_search(tmp_path / "t", trials=2, holdout=0)
    small_search(tmp_path / "t", trials=3, holdout=0, force=True)
    assert pd.read_csv(tmp_path / "t" / "trials.csv").trial.nunique() == 3
    # --force replaces a search, never a folder of something else.
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "thesis.tex").write_text("keep me")
    with pytest.raises(dcqcn.InputError, match="not a `dcqcn tune` result"):
        small_search(tmp_path / "other", trials=2, holdout=0, force=True)
    assert (tmp_path / "other" / "thesis.tex").exists()


def cli(*args, **kw):
    return subprocess.run([BINARY, "tune", *args], capture_output=True, text=True, **kw)


def test_the_command_line_runs_the_search_and_exits_1_on_bad_input(tmp_path):
    r = cli(LEAF_SPINE, "--param", "switch.ecn.kmin=1KB:9KB", "--minimize", "pfc_pause_frame",
            "--out", str(tmp_path / "t"))
    assert r.returncode == 1
    assert "error: --minimize pfc_pause_frame: no such number" in r.stderr
    r = cli("--help")
    assert r.returncode == 0 and "--constraint" in r.stdout
    r = cli(LEAF_SPINE, "--param", "switch.ecn.kmin=1KB:9KB", "--minimize", P99, "--trials",
            "3", "--holdout", "1", "--out", str(tmp_path / "t"))
    assert r.returncode == 0, r.stderr
    assert "tune: trial 2" in r.stderr and "ETA" in r.stderr
    assert "recommendation.md" in r.stdout


SHORT = [STABILITY, "--set", "duration=300ms", "--set", "output.warmup=5ms",
         "--set", "workload.senders=4", "--param", "cc.rai=5Mbps:80Mbps:log",
         "--minimize", "bottleneck.std_queue_bytes", "--trials", "6", "--holdout", "0",
         "--seed", "3"]


def start_search(out, *extra):
    """`dcqcn tune` in a session of its own, once it has finished its first trial."""
    p = subprocess.Popen([BINARY, "tune", *SHORT, *extra, "--out", str(out)],
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    for line in p.stderr:
        if "tune: trial 0 " in line:
            return p
    pytest.fail(f"no trial finished: {p.communicate(timeout=120)[1]}")


def left_behind(folder):
    """Staging folders and locks (ours or Optuna's) anywhere under `folder`."""
    return [os.path.join(d, n) for d, dirs, files in os.walk(folder) for n in dirs + files
            if ".partial" in n or n.endswith(".lock")]


def children(pid):
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                if int(f.read().rpartition(")")[2].split()[1]) == pid:
                    found.append(int(entry))
        except (OSError, ValueError, IndexError):
            pass
    return found


def gone(pid, timeout=120):
    """Whether process `pid` has ended (or is a zombie) within `timeout` s."""
    for _ in range(timeout * 10):
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rpartition(")")[2].split()[0] == "Z":
                    return True
        except OSError:
            return True
        time.sleep(0.1)
    return False


def test_ctrl_c_then_resume_finishes_the_same_trials_as_an_uninterrupted_search(tmp_path):
    p = start_search(tmp_path / "t")
    os.killpg(p.pid, signal.SIGINT)  # as Ctrl-C: to the whole group
    _, err = p.communicate(timeout=120)
    assert p.returncode == 130, err
    assert "--resume" in err and "Traceback" not in err
    assert os.path.isdir(tmp_path / "t.unfinished") and not (tmp_path / "t").exists()
    assert left_behind(tmp_path) == []
    r = cli(*SHORT, "--out", str(tmp_path / "t"), "--resume")
    assert r.returncode == 0, r.stderr
    # The trial cut short was run again, as the same trial: the same search as one never
    # interrupted, no trial lost to the interrupt.
    assert cli(*SHORT, "--out", str(tmp_path / "u")).returncode == 0
    resumed, whole = (pd.read_csv(tmp_path / n / "trials.csv").drop(columns="wall_s")
                      for n in ("t", "u"))
    pd.testing.assert_frame_equal(resumed, whole)
    # A finished search does not resume; a changed one does not either.
    assert cli(*SHORT, "--out", str(tmp_path / "t"), "--resume").returncode == 1


def test_an_interrupt_outside_a_run_costs_no_trial_and_resumes_the_same_search(
        tmp_path, monkeypatch):
    # SIGINT inside a trial but before its runs (right after its settings are drawn).
    from dcqcn.tune_search import Search
    sets_of = Search._sets_of

    def interrupt_at_trial_2(self, values):
        if len(os.listdir(os.path.join(self.work, "trials"))) == 2:  # 0000 and 0001
            signal.raise_signal(signal.SIGINT)
        return sets_of(self, values)
    monkeypatch.setattr(Search, "_sets_of", interrupt_at_trial_2)
    with pytest.raises(KeyboardInterrupt):
        small_search(tmp_path / "t", trials=4, holdout=0)
    monkeypatch.setattr(Search, "_sets_of", sets_of)
    resumed = small_search(tmp_path / "t", trials=4, holdout=0, resume=True)
    whole = small_search(tmp_path / "u", trials=4, holdout=0)
    assert (resumed.trials.state == "complete").all()
    pd.testing.assert_frame_equal(resumed.trials.drop(columns="wall_s"),
                                  whole.trials.drop(columns="wall_s"))


@pytest.mark.parametrize("sig, status", [(signal.SIGTERM, 143), (signal.SIGHUP, 129),
                                         (signal.SIGINT, 130)])
def test_a_signal_to_dcqcn_alone_stops_its_search_and_leaves_nothing_half_written(
        tmp_path, sig, status):
    # SIGTERM (kill), SIGHUP (a closed terminal, a dropped ssh session) or SIGINT to the dcqcn
    # process only, not its group: the Python search under it stops too.
    p = start_search(tmp_path / "t")
    search = children(p.pid)
    assert len(search) == 1
    p.send_signal(sig)
    _, err = p.communicate(timeout=120)
    assert p.returncode == status, err
    assert gone(search[0]), "the search outlived dcqcn"
    assert "Traceback" not in err and "--resume" in err
    assert left_behind(tmp_path) == []
    assert cli(*SHORT, "--out", str(tmp_path / "t"), "--resume").returncode == 0


def test_a_second_search_into_the_same_folder_is_refused_even_with_force(tmp_path):
    p = start_search(tmp_path / "t")
    os.killpg(p.pid, signal.SIGSTOP)  # mid-search, however fast the machine
    r = cli(*SHORT, "--out", str(tmp_path / "t"), "--force")
    assert r.returncode == 1 and "another dcqcn process is writing it" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
    os.killpg(p.pid, signal.SIGINT)
    os.killpg(p.pid, signal.SIGCONT)
    _, err = p.communicate(timeout=120)
    assert p.returncode == 130, err  # the first went on undisturbed until then
    assert (tmp_path / "t.unfinished" / "tune.json").exists() and left_behind(tmp_path) == []


def _cut_mid_line(work):
    journal = work / "study.journal"
    data = journal.read_bytes()
    journal.write_bytes(data[:len(data) - 20])
    return f"{journal}:{len(data.splitlines())}: damaged"


def _foreign_line(work):
    journal = work / "study.journal"
    lines = len(journal.read_bytes().splitlines())
    with open(journal, "ab") as f:
        f.write(b'{"hello": "world"}\n')
    return f"{journal}:{lines + 1}: damaged"


def _random_bytes(work):
    (work / "study.journal").write_bytes(bytes(range(256)) * 4)
    return f"{work / 'study.journal'}:1: damaged"


def _no_settings(work):
    (work / "tune.json").unlink()
    return f"{work / 'tune.json'} is missing"


@pytest.mark.parametrize("damage", [_cut_mid_line, _foreign_line, _random_bytes, _no_settings])
def test_resuming_a_damaged_folder_names_the_file(tmp_path, damage):
    args = [LEAF_SPINE, "--param", ECN[0], "--minimize", P99, "--trials", "2", "--holdout", "0",
            "--quiet", "--out", str(tmp_path / "t")]
    assert cli(*args).returncode == 0
    os.rename(tmp_path / "t", tmp_path / "t.unfinished")  # as if stopped before its rename
    message = damage(tmp_path / "t.unfinished")
    r = cli(*args, "--resume")
    assert r.returncode == 1, r.stderr
    assert r.stderr.startswith("error: --resume: " + message), r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.splitlines()) == 1


def test_the_fluid_prescreen_skips_oscillating_settings_and_says_what_it_saved(tmp_path):
    r = dcqcn.tune(STABILITY, set={"duration": "10ms", "output.warmup": "2ms",
                                   "workload.senders": 10},
                   param=["cc.rai=10Mbps:80Mbps:log", "switch.ecn.kmax=400KB:2000KB"],
                   minimize="bottleneck.std_queue_bytes", trials=8, holdout=0, seed=1,
                   prescreen="fluid", out=tmp_path / "t")
    skipped = r.trials[r.trials.state == "skipped"]
    ran = r.trials[r.trials.state == "complete"]
    assert len(skipped) > 0 and len(ran) > 0
    assert skipped["bottleneck.std_queue_bytes"].isna().all()
    # What the fluid model calls oscillating, at a skipped trial's settings.
    row = skipped.iloc[0]
    summary, _ = dcqcn.fluid(STABILITY, set={
        "duration": "10ms", "workload.senders": 10,
        "cc.rai": f"{round(row['cc.rai [Mbps]'] * 1e6)}bps",
        "switch.ecn.kmax": f"{round(row['switch.ecn.kmax [KB]'] * 1e3)}B"})
    assert summary["oscillation"]["verdict"] == "oscillating"
    assert f"The fluid prescreen skipped {len(skipped)} of 8 trials" in r.recommendation


def test_the_fluid_prescreen_keeps_settings_the_scenario_rejects_as_invalid(tmp_path):
    # kmin above kmax in much of this space: the fluid model's loader rejects them first.
    r = dcqcn.tune(STABILITY, set={"duration": "10ms", "output.warmup": "2ms",
                                   "workload.senders": 10},
                   param=["switch.ecn.kmin=10KB:1MB:log", "switch.ecn.kmax=10KB:1MB:log"],
                   minimize="bottleneck.std_queue_bytes", trials=6, holdout=0, seed=1,
                   prescreen="fluid", out=tmp_path / "t")
    invalid = r.trials[r.trials.state == "invalid"]
    assert len(invalid) > 0 and invalid.error.str.contains("expected kmin <= kmax").all()
    assert "failed" not in set(r.trials.state)


def test_the_fluid_prescreen_needs_a_scenario_the_fluid_model_reads(tmp_path):
    with pytest.raises(dcqcn.InputError) as e:
        small_search(tmp_path / "t", set={"switch.ecn.enabled": False}, prescreen="fluid")
    assert str(e.value).startswith("--prescreen fluid: the fluid model cannot read")
    assert "switch.ecn.enabled: the fluid model needs ECN marking" in str(e.value)
    assert not os.path.exists(tmp_path / "t") and not os.path.exists(tmp_path / "t.unfinished")


def test_ranks_under_mpirun_share_one_search(tmp_path):
    if shutil.which("mpirun") is None:
        pytest.skip("no mpirun")
    out = tmp_path / "t"
    r = subprocess.run(["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "2", BINARY,
                        "tune", LEAF_SPINE, "--param", ECN[0], "--minimize", P99, "--trials",
                        "6", "--holdout", "1", "--quiet", "--out", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    t = pd.read_csv(out / "trials.csv")
    assert t.trial.nunique() >= 6 and (t.state == "complete").all()
    assert (out / "best.toml").exists() and not (tmp_path / "t.unfinished").exists()
    assert sorted(os.listdir(tmp_path)) == ["t"]  # the ranks' status files are gone
    # Bad input that only rank 0 finds (a metric path) ends every rank, with exit code 1.
    r = subprocess.run(["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "2", BINARY,
                        "tune", LEAF_SPINE, "--param", ECN[0], "--minimize", "pfc_pause_frame",
                        "--out", str(tmp_path / "bad")], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode != 0 and "nearest: pfc_pause_frames" in r.stderr
    assert sorted(os.listdir(tmp_path)) == ["t"]


def test_example_a_removes_pause_inside_the_region_the_buffer_rule_allows(tmp_path):
    """examples/tune/incast_pause.toml's comment, asserted."""
    out = tmp_path / "a"
    r = cli(INCAST_PAUSE, "--param", "switch.ecn.kmin=1KB:1MB:log",
            "--param", "switch.ecn.kmax=10KB:4MB:log", "--param", "switch.ecn.pmax=0.001:1:log",
            "--minimize", "bottleneck.mean_queue_bytes",
            "--constraint", "pfc_pause_frames <= 0", "--trials", "40", "--seeds", "2",
            "--quiet", "--out", str(out))
    assert r.returncode == 0, r.stderr
    held = pd.read_csv(out / "holdout.csv")
    own, tuned = held[held.settings == "scenario"], held[held.settings == "tuned"]
    assert (own.pfc_pause_frames > 0).all() and own.pfc_pause_frames.mean() > 100
    assert (tuned.pfc_pause_frames == 0).all()
    # The search met PAUSE too (so this could fail), at larger Kmin.
    trials = pd.read_csv(out / "trials.csv")
    assert (trials.pfc_pause_frames > 0).any()
    # The rule: dcqcn check warns about the file's Kmin and not about the tuned one.
    warned = dcqcn.check(INCAST_PAUSE)["warnings"]
    assert any("not below the t_ECN bound 18.32 KB" in w for w in warned)
    assert not any("t_ECN" in w for w in dcqcn.check(str(out / "best.toml"))["warnings"])
