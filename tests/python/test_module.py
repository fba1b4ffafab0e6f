"""The Python module (import dcqcn), run by ctest with PYTHONPATH=build/python: results as
DataFrames that agree with the CLI's files, the three ways to give a scenario, errors as
dcqcn.InputError with the CLI's message, progress, the GIL released while simulating, Ctrl-C."""
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pandas as pd
import pytest

import dcqcn

BINARY = os.environ["DCQCN_BINARY"]
INCAST = """name = "py-incast"
duration = "5ms"
[topology]
type = "star"
hosts = 5
[workload]
type = "incast"
senders = 4
size = "300KB"
[output]
timeseries = ["rate", "queue", "pfc", "throughput"]
"""


def test_run_gives_dataframes_that_match_the_cli(tmp_path):
    scenario = tmp_path / "s.toml"
    scenario.write_text(INCAST)
    r = dcqcn.run(scenario, set={"workload.senders": 3}, seed=2)
    assert r.out is None
    assert isinstance(r.flows, pd.DataFrame) and len(r.flows) == 3
    assert r.summary["flows_finished"] == 3
    assert set(r.timeseries) == {"rate", "queue", "pfc", "throughput"}
    # resolved: every default filled in, the generated flows listed.
    assert r.resolved["seed"] == 2 and len(r.resolved["flow"]) == 3
    # The same run from the command line: the same flows.csv and counters.
    cli = tmp_path / "cli"
    subprocess.run([BINARY, "run", str(scenario), "--set", "workload.senders=3", "--seed", "2",
                    "--quiet", "--out", str(cli)], check=True)
    pd.testing.assert_frame_equal(r.flows, pd.read_csv(cli / "flows.csv"))
    with open(cli / "summary.json") as f:
        summary = json.load(f)
    for key in ("events", "packet_hops", "pfc_pause_frames", "ecn_marked_packets", "cnps"):
        assert r.summary[key] == summary[key], key


def test_a_scenario_is_a_path_text_or_dict(tmp_path):
    as_text = dcqcn.run(INCAST)
    as_dict = dcqcn.run({"name": "py-incast", "duration": "5ms",
                         "topology": {"type": "star", "hosts": 5},
                         "workload": {"type": "incast", "senders": 4, "size": "300KB"},
                         "output": {"timeseries": ["rate", "queue", "pfc", "throughput"]}})
    pd.testing.assert_frame_equal(as_text.flows, as_dict.flows)
    kept = dcqcn.run(INCAST, out=tmp_path / "kept")
    assert kept.out == str(tmp_path / "kept")
    assert (tmp_path / "kept" / "flows.csv").exists()


def test_collectives_come_as_a_dataframe():
    r = dcqcn.run({"topology": {"type": "star", "hosts": 4},
                   "collective": [{"op": "allreduce", "size": "1MB", "iterations": 2}]})
    assert list(r.collectives["iteration"]) == [0, 1]
    assert (r.collectives["slowdown"] > 0.98).all()
    assert r.summary["collectives"][0]["op"] == "allreduce"
    assert dcqcn.run(INCAST).collectives is None


def test_jobs_come_as_dataframes():
    layer = {"forward_compute": "10us", "weight_grad_compute": "30us",
             "weight_grad_comm": "allreduce", "weight_grad_size": "1MB"}
    r = dcqcn.run({"topology": {"type": "star", "hosts": 4},
                   "job": [{"iterations": 2, "layer": [layer]}]})
    assert list(r.jobs["iteration"]) == [0] * 4 + [1] * 4
    # Each rank's iteration is its compute, exposed communication and bubble.
    parts = r.jobs[[c for c in r.jobs.columns if c.startswith("exposed_")]].sum(axis=1)
    assert ((r.jobs["compute_ns"] + parts + r.jobs["bubble_ns"] - r.jobs["time_ns"]).abs()
            < 0.01).all()
    assert set(r.job_collectives["group"]) == {"dp"}
    # Two compute tasks per rank and iteration (forward and weight gradient; the input gradient's
    # 0 us too: three), each as long as its layer says.
    assert len(r.job_timeline) == 4 * 2 * 3
    forward = r.job_timeline[r.job_timeline["phase"] == "forward"]
    assert ((forward["end_ns"] - forward["start_ns"] - 10000).abs() < 0.01).all()
    assert r.summary["jobs"][0]["finished_iterations"] == 2
    assert dcqcn.run(INCAST).jobs is None


def test_input_errors_carry_the_clis_message(tmp_path):
    with pytest.raises(dcqcn.InputError, match=r"topology\.hosts: expected an integer"):
        dcqcn.run({"topology": {"type": "star", "hosts": "x"}})
    with pytest.raises(dcqcn.InputError, match="no_such_key"):
        dcqcn.run(INCAST, set={"switch.no_such_key": 1})
    # A seed is an integer: 1.9 or "2" must not quietly become another seed.
    for seed in (1.9, "2", True):
        with pytest.raises(dcqcn.InputError, match="seed=.*expected an integer"):
            dcqcn.run(INCAST, seed=seed)
    bad = tmp_path / "bad.toml"
    bad.write_text("[topology]\nhosts = 1\n")
    cli = subprocess.run([BINARY, "check", str(bad)], capture_output=True, text=True)
    with pytest.raises(dcqcn.InputError) as e:
        dcqcn.check(bad)
    assert cli.returncode == 1 and cli.stderr.strip() == f"error: {e.value}"


def test_check_buffer_sweep_and_fluid():
    resolved = dcqcn.check(INCAST)
    assert resolved["switch"]["buffer"] == "12MB" and isinstance(resolved["warnings"], list)
    b = dcqcn.buffer()  # the paper's testbed, as `dcqcn buffer` prints it
    cli = subprocess.run([BINARY, "buffer"], capture_output=True, text=True, check=True).stdout
    line = next(l for l in cli.splitlines() if l.startswith("t_ECN, dynamic threshold"))
    assert abs(b["t_ecn_dynamic_bytes"] - float(line.split()[4]) * 1000) < 10
    assert b["kmin_safe_dynamic"] and b["ports"] == 32
    with pytest.raises(dcqcn.InputError, match="--ports"):
        dcqcn.buffer(ports="many")
    table = dcqcn.sweep(INCAST, vary={"workload.senders": [2, 3]}, seeds=2)
    assert list(table["workload.senders"]) == [2, 2, 3, 3] and list(table["seed"]) == [1, 2, 1, 2]
    assert list(table.attrs["mean"]["seeds"]) == [2, 2]
    summary, series = dcqcn.fluid(flows=2, duration="2ms")
    assert summary and len(series) > 0


def test_progress_and_the_gil_is_released():
    # A run long enough to report progress (about 7 M events); a Python thread keeps counting
    # meanwhile.
    calls, ticks, done = [], [0], threading.Event()

    def count():
        while not done.is_set():
            ticks[0] += 1
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    while ticks[0] == 0:
        time.sleep(0.001)
    before = ticks[0]
    r = dcqcn.run(INCAST, set={"workload.size": "300MB", "duration": "500ms"}, progress=calls.append)
    during = ticks[0] - before
    done.set()
    t.join()
    assert r.summary["flows_finished"] == 4
    assert calls and {"time_ns", "fraction", "events", "flows_done", "flows_total"} <= set(calls[0])
    # With the GIL held throughout, the thread could count once or twice at most (a switch just
    # before or after the call); released, it counts through the whole run (hundreds of ms here,
    # tens on a machine ten times faster).
    assert during >= 20, f"the thread counted {during} times while the simulation ran"


def test_ctrl_c_stops_a_run_cleanly(tmp_path):
    script = f"""
import sys, dcqcn
try:
    dcqcn.run({INCAST!r}, set={{"workload.size": "10GB", "duration": "10s"}}, out={str(tmp_path / 'out')!r})
except KeyboardInterrupt as e:
    print("stopped:", e); sys.exit(3)
"""
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                         env=os.environ)
    time.sleep(2)
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=30)
    assert p.returncode == 3, out
    assert "interrupted" in out
    assert not (tmp_path / "out").exists()


def test_ctrl_c_always_stops_a_loop_of_short_runs(tmp_path):
    # Each run takes a few ms and mostly writes: a Ctrl-C that came after a run's last stop
    # check used to be swallowed, and the loop went on. Every one of five must stop it.
    script = f"""
import sys, dcqcn
print("started", flush=True)
try:
    for i in range(100000):
        dcqcn.run({INCAST!r}, out={str(tmp_path / 'out')!r} + str(i % 4), force=True)
except KeyboardInterrupt as e:
    print("stopped at", i, e); sys.exit(3)
"""
    for delay in (0.3, 0.45, 0.6, 0.75, 0.9):
        p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                             env=os.environ)
        assert p.stdout.readline() == "started\n"
        time.sleep(delay)
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=30)
        assert p.returncode == 3, out
        assert not [n for n in os.listdir(tmp_path) if n.startswith(".")], os.listdir(tmp_path)


def test_ctrl_c_stops_the_fluid_model_cleanly(tmp_path):
    script = f"""
import sys, dcqcn
try:
    dcqcn.fluid(flows=10, duration="60s", out={str(tmp_path / 'out')!r})
except KeyboardInterrupt as e:
    print("stopped:", e); sys.exit(3)
"""
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                         env=dict(os.environ, TMPDIR=str(tmp_path)))
    time.sleep(2)
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=30)
    assert p.returncode == 3, out
    assert "interrupted" in out
    assert os.listdir(tmp_path) == []  # neither the output, its staging nor a temporary folder


# A script that runs a long `dcqcn.<call>` in another thread while the main thread ends: it
# returns (interpreter exit) or waits in join() for a Ctrl-C. `started` is printed once the call
# runs.
THREAD_SCRIPT = """
import sys, threading, time, dcqcn
scenario, out, call, main = sys.argv[1:5]
started = threading.Event()
def work():
    if call == "run":
        dcqcn.run(scenario, out=out, progress=lambda d: started.set())
    elif call == "sweep":
        dcqcn.sweep(scenario, vary={"workload.senders": [2, 3]}, out=out)
    else:
        dcqcn.fluid(flows=10, duration="60s", out=out)
t = threading.Thread(target=work, daemon=True)
t.start()
started.wait(2)  # sweep and fluid report no progress: give them the time to start
print("started", flush=True)
if main == "join":
    t.join()
"""


def run_thread_script(tmp_path, call, main):
    """Runs THREAD_SCRIPT with its own TMPDIR; with main == "join", sends Ctrl-C once the call
    runs. Returns (process, stderr, what is left in tmp_path besides the empty TMPDIR)."""
    scenario = tmp_path / "s.toml"
    scenario.write_text(INCAST.replace('"5ms"', '"10s"').replace('"300KB"', '"10GB"'))
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    p = subprocess.Popen([sys.executable, "-c", THREAD_SCRIPT, str(scenario),
                          str(tmp_path / "out"), call, main],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=dict(os.environ, TMPDIR=str(tmp)))
    assert p.stdout.readline() == "started\n"
    if main == "join":
        time.sleep(0.5)
        p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    left = sorted(os.listdir(tmp_path)) + [f"tmp/{n}" for n in os.listdir(tmp)]
    return p, err, sorted(set(left) - {"s.toml", "tmp"})


@pytest.mark.parametrize("call", ["run", "sweep", "fluid"])
def test_a_call_in_a_daemon_thread_at_exit_stops_cleanly(tmp_path, call):
    # The exit stops the call (it would otherwise be cut off midway, and a C++ thread still
    # joinable aborted the interpreter) and waits until it removed its staged and temporary
    # folders.
    p, err, left = run_thread_script(tmp_path, call, "exit")
    assert p.returncode == 0 and "terminate called" not in err, err
    assert left == [], left


def test_ctrl_c_while_another_thread_runs_stops_cleanly(tmp_path):
    # Only the main thread sees Ctrl-C: it ends the script, and the exit stops the run.
    p, err, left = run_thread_script(tmp_path, "run", "join")
    assert p.returncode == -signal.SIGINT and "terminate called" not in err, err
    assert "KeyboardInterrupt" in err
    assert left == [], left


LEAF_SPINE = """name = "py-leaf-spine"
duration = "5ms"
[topology]
type = "leaf_spine"
leaves = 4
spines = 2
hosts_per_leaf = 4
link_rate = "40Gbps"
oversubscription = 2
[workload]
type = "incast"
senders = [4, 5, 8, 9, 12, 13]
receiver = 0
size = "500KB"
[output]
timeseries = ["rate", "queue", "pfc", "throughput"]
interval = "10us"
"""


def test_threads_split_a_run_and_give_the_same_results():
    one = dcqcn.run(LEAF_SPINE)
    for threads in (2, 3):
        split = dcqcn.run(LEAF_SPINE, threads=threads)
        pd.testing.assert_frame_equal(one.flows, split.flows)
        for name, series in one.timeseries.items():
            pd.testing.assert_frame_equal(series, split.timeseries[name])
        for key in ("events", "packet_hops", "pfc_pause_frames", "ecn_marked_packets", "cnps"):
            assert one.summary[key] == split.summary[key], key
    with pytest.raises(ValueError, match="threads = 0"):
        dcqcn.run(LEAF_SPINE, threads=0)


def test_placement_from_an_earlier_run_gives_the_same_results(tmp_path):
    first = dcqcn.run(LEAF_SPINE, threads=2, out=tmp_path / "first")
    assert (first.links["bytes"] > 0).any()
    placed = dcqcn.run(LEAF_SPINE, threads=2, placement_from=tmp_path / "first")
    pd.testing.assert_frame_equal(first.flows, placed.flows)
    with pytest.raises(ValueError, match="links.csv"):
        dcqcn.run(LEAF_SPINE, threads=2, placement_from=tmp_path / "none")


def test_a_ctrl_c_while_pandas_parses_is_raised_as_itself_afterwards():
    # pandas' C parser turns a KeyboardInterrupt raised in its read callback into a ParserError:
    # the module reads its CSV files with the Ctrl-C held back until the parse is done.
    from dcqcn import _common
    done = []
    with pytest.raises(KeyboardInterrupt):
        with _common.interrupts_deferred():
            signal.raise_signal(signal.SIGINT)
            done.append("parsed")
    assert done == ["parsed"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
