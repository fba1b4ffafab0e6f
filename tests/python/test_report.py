"""`dcqcn report` end to end: run the built dcqcn on a small scenario with every time series,
report it and check the figures and index.html; the same for a small sweep (and --runs); the PFC
pause-interval logic on a synthetic pfc.csv; the sweep's axis parsing; error cases. ctest runs it
as report_test with DCQCN_BINARY (the built dcqcn) and DCQCN_PYTHON_DIR (python/) set; by hand,
from tests/python:

    DCQCN_BINARY=../../build/dcqcn /usr/bin/python3 -m unittest -v test_report
"""

import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.environ.get("DCQCN_PYTHON_DIR") or os.path.join(HERE, "..", "..", "python")
sys.path.insert(0, PYTHON_DIR)

import dcqcn_report  # noqa: E402
import dcqcn_sweep_report  # noqa: E402

BINARY = os.environ.get("DCQCN_BINARY") or os.path.join(HERE, "..", "..", "build", "dcqcn")

# 20 senders of 100 KB into h0 plus a 1 MB and a 20 KB flow elsewhere: 22 finished flows of three
# sizes (the CDF needs >= 20), a congested port and, with a 3 MB buffer, a few PFC pauses.
SCENARIO = """name = "report-test"
duration = "5ms"
[topology]
type = "star"
hosts = 22
[switch]
buffer = "3MB"
[workload]
type = "incast"
senders = 20
size = "100KB"
[[flow]]
src = 21
dst = 1
size = "1MB"
[[flow]]
src = 1
dst = 0
size = "20KB"
start = "50us"
[output]
timeseries = ["rate", "queue", "pfc", "throughput"]
interval = "5us"
"""

ALL_FIGURES = ["throughput", "rate", "queue", "pfc", "fct_cdf", "fct_size"]


def run(args, env=None):
    return subprocess.run(args, capture_output=True, text=True, env=env, timeout=240)


def png_size(path):
    """(width, height) of a PNG file; fails the caller's assertion if it is not one."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
    assert data[12:16] == b"IHDR", f"{path}: no IHDR chunk"
    assert data[-8:-4] == b"IEND", f"{path}: truncated (no IEND chunk)"
    return struct.unpack(">II", data[16:24])


def require_binary(test):
    if not os.path.exists(BINARY):
        if os.environ.get("DCQCN_BINARY"):
            test.fail(f"DCQCN_BINARY={BINARY} does not exist")
        test.skipTest(f"no dcqcn binary at {BINARY} (set DCQCN_BINARY)")


class ReportEndToEndTest(unittest.TestCase):
    """One simulated run, reported once; each test checks one aspect."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="dcqcn_report_test_")
        cls.run_dir = os.path.join(cls.tmp, "run")
        if not os.path.exists(BINARY):
            cls.result = None
            return
        scenario = os.path.join(cls.tmp, "s.toml")
        with open(scenario, "w") as f:
            f.write(SCENARIO)
        sim = run([BINARY, "run", scenario, "--out", cls.run_dir, "--quiet"])
        assert sim.returncode == 0, sim.stderr
        cls.result = run([BINARY, "report", cls.run_dir])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        require_binary(self)
        self.report = os.path.join(self.run_dir, "report")

    def test_exit_code_and_message(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        self.assertIn(os.path.join(self.run_dir, "report", "index.html"), self.result.stdout)

    def test_run_has_every_series(self):
        for name in ("queue", "pfc", "throughput", "rate"):
            self.assertTrue(os.path.exists(os.path.join(self.run_dir, "timeseries", f"{name}.csv")))
        with open(os.path.join(self.run_dir, "summary.json")) as f:
            summary = json.load(f)
        self.assertGreater(summary["pfc_pause_frames"], 0, "the scenario should trigger PFC")
        self.assertGreaterEqual(summary["flows_finished"], 20)

    def test_every_figure_is_a_real_png(self):
        for name in ALL_FIGURES:
            path = os.path.join(self.report, f"{name}.png")
            self.assertTrue(os.path.exists(path), f"{name}.png missing")
            self.assertGreater(os.path.getsize(path), 10_000, f"{name}.png suspiciously small")
            width, height = png_size(path)
            self.assertGreaterEqual(width, 600, name)
            self.assertGreaterEqual(height, 250, name)
            self.assertLess(width * height, 4000 * 4000, name)

    def test_index_html(self):
        with open(os.path.join(self.report, "index.html"), encoding="utf-8") as f:
            page = f.read()
        self.assertTrue(page.startswith("<!DOCTYPE html>"))
        self.assertIn("<h1>report-test</h1>", page)
        for name in ALL_FIGURES:
            self.assertIn(f'src="{name}.png"', page)
        self.assertEqual(page.count("<figcaption>"), len(ALL_FIGURES))
        for label in ("flows finished", "22 of 22", "PFC PAUSE frames", "ECN-marked packets",
                      "CNPs", "max queue", "FCT slowdown p99", "Jain fairness", "rate cuts"):
            self.assertIn(label, page)
        self.assertIn("<details><summary>resolved.toml", page)
        self.assertIn("[switch.ecn]", page)  # the resolved scenario is in the page

    def test_no_temporary_files_left(self):
        leftovers = [n for n in os.listdir(self.report) if ".tmp" in n]
        self.assertEqual(leftovers, [])

    def test_script_found_without_env(self):
        # A build-tree binary finds python/ through the source dir compiled into it.
        env = {k: v for k, v in os.environ.items() if k != "DCQCN_PYTHON_DIR"}
        out = os.path.join(self.tmp, "copy")
        shutil.copytree(self.run_dir, out, ignore=shutil.ignore_patterns("report"))
        r = run([BINARY, "report", out], env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(os.path.exists(os.path.join(out, "report", "index.html")))


# A sweep of 2 x 2 short runs: 8 senders of 100 KB (they all finish, so there are FCT figures),
# the ECN Kmax in two units on the x axis and cc.algorithm as the lines.
SWEEP_SCENARIO = """name = "sweep-test"
duration = "2ms"
[topology]
type = "star"
hosts = 9
[switch]
buffer = "3MB"
[workload]
type = "incast"
senders = 8
size = "100KB"
"""

SWEEP_ALWAYS = ["queue", "max_queue", "utilisation", "fairness", "fct"]


def read_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


class SweepReportTest(unittest.TestCase):
    """One `dcqcn sweep`, reported without and then with --runs."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="dcqcn_sweep_report_test_")
        cls.sweep_dir = os.path.join(cls.tmp, "sweep")
        if not os.path.exists(BINARY):
            return
        scenario = os.path.join(cls.tmp, "s.toml")
        with open(scenario, "w") as f:
            f.write(SWEEP_SCENARIO)
        sim = run([BINARY, "sweep", scenario, "--vary", "switch.ecn.kmax=40KB,1MB",
                   "--vary", "cc.algorithm=dcqcn,none", "--out", cls.sweep_dir, "--quiet"])
        assert sim.returncode == 0, sim.stderr
        cls.result = run([BINARY, "report", cls.sweep_dir])
        cls.page = read_text(os.path.join(cls.sweep_dir, "report", "index.html"))
        cls.pngs = sorted(n for n in os.listdir(os.path.join(cls.sweep_dir, "report"))
                          if n.endswith(".png"))
        cls.result_runs = run([BINARY, "report", cls.sweep_dir, "--runs"])
        cls.page_runs = read_text(os.path.join(cls.sweep_dir, "report", "index.html"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        require_binary(self)
        self.report = os.path.join(self.sweep_dir, "report")

    def test_exit_code_and_message(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        self.assertIn(os.path.join(self.sweep_dir, "report", "index.html"), self.result.stdout)
        self.assertEqual(self.result_runs.returncode, 0, self.result_runs.stderr)
        self.assertIn("runs/NNN/report", self.result_runs.stdout)

    def test_figures_are_real_pngs(self):
        for name in SWEEP_ALWAYS:
            self.assertIn(f"{name}.png", self.pngs)
        for png in self.pngs:
            name = png[:-len(".png")]
            self.assertIn(name, dcqcn_sweep_report.SWEEP_FIGURES)
            path = os.path.join(self.report, png)
            self.assertGreater(os.path.getsize(path), 10_000, f"{png} suspiciously small")
            width, height = png_size(path)
            self.assertGreaterEqual(width, 600, png)
            self.assertGreaterEqual(height, 300, png)
            self.assertLess(width * height, 3000 * 2000, png)

    def test_index_has_every_figure_and_the_table(self):
        page = self.page
        self.assertTrue(page.startswith("<!DOCTYPE html>"))
        self.assertIn("<h1>sweep-test \u2014 sweep of 4 runs</h1>", page)
        self.assertIn("switch.ecn.kmax = 40KB, 1MB; cc.algorithm = dcqcn, none", page)
        for png in self.pngs:
            self.assertIn(f'src="{png}"', page)
        self.assertEqual(page.count("<figcaption>"), len(self.pngs))
        # The table: a header and one row per run, each with its varied values.
        table = page[page.index('<table class="sweep">'):page.index("</table>")]
        self.assertEqual(table.count("<tr>"), 5)
        for header in ("switch.ecn.kmax", "cc.algorithm", "mean queue (KB)", "PAUSE frames",
                       "FCT slowdown p99", "Jain fairness"):
            self.assertIn(f"<th>{header}</th>", table)
        for run_id, kmax, algo in (("000", "40KB", "dcqcn"), ("001", "40KB", "none"),
                                   ("002", "1MB", "dcqcn"), ("003", "1MB", "none")):
            self.assertIn(f'<td>{run_id}</td><td class="k">{kmax}</td><td class="k">{algo}</td>',
                          table)
        self.assertIn('<td class="v">8 of 8</td>', table)
        self.assertNotIn("report/index.html", page)  # no run reports yet
        self.assertIn("--runs", page)

    def test_runs_flag_reports_and_links_every_run(self):
        for i in range(4):
            run_report = os.path.join(self.sweep_dir, "runs", f"{i:03}", "report", "index.html")
            self.assertTrue(os.path.exists(run_report), run_report)
            self.assertIn(f'<a href="../runs/{i:03}/report/index.html"', self.page_runs)
        self.assertIn("The run numbers link to each run's own report.", self.page_runs)
        self.assertEqual(self.page_runs.count("<figcaption>"), len(self.pngs))

    def test_axis_is_parsed_with_its_unit(self):
        # 40KB and 1MB are 40 and 1000 KB: a log axis (25x) labelled in KB.
        self.assertIn("switch.ecn.kmax (KB), log scale", self.page)

    def test_no_temporary_files_left(self):
        for folder in (self.report, os.path.join(self.sweep_dir, "runs", "000", "report")):
            self.assertEqual([n for n in os.listdir(folder) if ".tmp" in n], [], folder)

    def test_runs_flag_on_a_run_folder_is_an_error(self):
        r = run([BINARY, "report", os.path.join(self.sweep_dir, "runs", "000"), "--runs"])
        self.assertEqual(r.returncode, 1)
        self.assertIn("sweep", r.stderr)


class SweepAxisTest(unittest.TestCase):
    def axis(self, *values):
        return dcqcn_sweep_report.Axis("k", list(values))

    def test_units_are_parsed_and_labelled(self):
        a = self.axis("100Mbps", "5Mbps", "10Mbps", "40Mbps")
        self.assertTrue(a.numeric)
        self.assertEqual(a.unit, "Mbps")
        self.assertEqual(a.labels, ["5Mbps", "10Mbps", "40Mbps", "100Mbps"])  # sorted
        self.assertFalse(a.log)  # 20x is not more than 20x
        self.assertEqual(a.label(), "k (Mbps)")
        a = self.axis("55us", "300us")
        self.assertEqual((a.unit, a.positions["300us"]), ("us", 300.0))

    def test_mixed_units_and_log_scale(self):
        a = self.axis("40KB", "200KB", "1MB")
        self.assertEqual(a.unit, "KB")
        self.assertEqual(a.positions, {"40KB": 40.0, "200KB": 200.0, "1MB": 1000.0})
        self.assertTrue(a.log)
        self.assertEqual(a.label(), "k (KB), log scale")
        a = self.axis("2", "8", "32", "128")
        self.assertEqual((a.unit, a.log, a.positions["128"]), ("", True, 128.0))

    def test_categories_keep_the_sweep_order(self):
        a = self.axis("none", "dcqcn", "none")
        self.assertFalse(a.numeric)
        self.assertEqual(a.labels, ["none", "dcqcn"])
        self.assertEqual(a.positions, {"none": 0.0, "dcqcn": 1.0})
        self.assertFalse(self.axis("10KB", "1ms").numeric)  # two kinds: categories
        self.assertFalse(self.axis("1", "2x").numeric)
        self.assertIsNone(dcqcn_sweep_report.parse_quantity("true"))
        self.assertEqual(dcqcn_sweep_report.parse_quantity("1.5GiB"),
                         (1.5 * 1024**3, "size", "GiB"))


class PauseIntervalTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="dcqcn_pfc_test_")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def intervals(self, text, end_ns):
        path = os.path.join(self.tmp, "pfc.csv")
        with open(path, "w") as f:
            f.write("time_ns,node,port,priority,paused\n" + text)
        iv = dcqcn_report.pause_intervals(dcqcn_report.read_pfc(path), end_ns)
        return sorted((str(r.node), int(r.port), int(r.priority), float(r.start_ns),
                       float(r.end_ns)) for r in iv.itertuples())

    def test_pause_to_next_resume_per_key(self):
        # Rows interleave keys and are not in time order; refreshes while paused and a second
        # resume change nothing; a pause with no resume lasts to the end; a resume with no
        # pause before it is ignored; another priority on the same port is its own row.
        got = self.intervals(
            "20.0,h1,0,3,1\n"      # refresh of h1's pause at 10
            "5.0,s0,2,3,0\n"       # resume without a pause
            "10.0,h1,0,3,1\n"
            "7.5,s0,2,3,1\n"
            "30.0,h1,0,3,0\n"
            "35.0,h1,0,3,0\n"      # second resume
            "8.5,s0,2,3,0\n"
            "50.0,h1,0,3,1\n"      # never resumed
            "12.0,h1,0,4,1\n"
            "14.0,h1,0,4,0\n"
            "60.0,s0,2,3,1\n"
            "60.0,s0,2,3,0\n",     # same time: file order, so an empty interval
            end_ns=100.0)
        self.assertEqual(got, [
            ("h1", 0, 3, 10.0, 30.0),
            ("h1", 0, 3, 50.0, 100.0),
            ("h1", 0, 4, 12.0, 14.0),
            ("s0", 2, 3, 7.5, 8.5),
            ("s0", 2, 3, 60.0, 60.0),
        ])

    def test_open_pause_on_last_key_and_no_frames(self):
        self.assertEqual(self.intervals("1,h2,0,3,1\n2,h10,0,3,1\n3,h10,0,3,0\n", 9.0),
                         [("h10", 0, 3, 2.0, 3.0), ("h2", 0, 3, 1.0, 9.0)])
        self.assertEqual(self.intervals("", 9.0), [])
        self.assertEqual(self.intervals("1,h2,0,3,0\n", 9.0), [])

    def test_merge_close_joins_sub_pixel_gaps(self):
        path = os.path.join(self.tmp, "pfc.csv")
        with open(path, "w") as f:
            f.write("time_ns,node,port,priority,paused\n"
                    "0,h1,0,3,1\n10,h1,0,3,0\n11,h1,0,3,1\n20,h1,0,3,0\n40,h1,0,3,1\n"
                    "50,h1,0,3,0\n0,h2,0,3,1\n5,h2,0,3,0\n")
        iv = dcqcn_report.pause_intervals(dcqcn_report.read_pfc(path), 100.0)
        merged = dcqcn_report.merge_close(iv, gap_ns=2.0)
        got = sorted((r.node, r.start_ns, r.end_ns) for r in merged.itertuples())
        self.assertEqual(got, [("h1", 0.0, 20.0), ("h1", 40.0, 50.0), ("h2", 0.0, 5.0)])

    def test_report_of_a_folder_with_only_pfc(self):
        # Every time series may be absent: a folder with summary.json and pfc.csv gets the
        # timeline only, and a stale figure from an earlier report is removed.
        run_dir = os.path.join(self.tmp, "run")
        os.makedirs(os.path.join(run_dir, "timeseries"))
        os.makedirs(os.path.join(run_dir, "report"))
        with open(os.path.join(run_dir, "summary.json"), "w") as f:
            json.dump({"scenario": "pfc-only", "sim_time_ns": 1_000_000,
                       "pfc_pause_frames": 2}, f)
        with open(os.path.join(run_dir, "timeseries", "pfc.csv"), "w") as f:
            f.write("time_ns,node,port,priority,paused\n"
                    "100000,h1,0,3,1\n400000,h1,0,3,0\n500000.5,s0,1,3,1\n")
        with open(os.path.join(run_dir, "report", "queue.png"), "wb") as f:
            f.write(b"stale")
        index = dcqcn_report.build_report(run_dir)
        self.assertEqual(sorted(os.listdir(os.path.join(run_dir, "report"))),
                         ["index.html", "pfc.png"])
        png_size(os.path.join(run_dir, "report", "pfc.png"))
        with open(index, encoding="utf-8") as f:
            page = f.read()
        self.assertIn("pfc-only", page)
        self.assertIn('src="pfc.png"', page)
        self.assertIn("Time series not recorded: throughput, rate, queue", page)


class ErrorTest(unittest.TestCase):
    def setUp(self):
        require_binary(self)
        self.tmp = tempfile.mkdtemp(prefix="dcqcn_report_err_")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_missing_folder(self):
        missing = os.path.join(self.tmp, "no-such-run")
        r = run([BINARY, "report", missing])
        self.assertEqual(r.returncode, 1)
        self.assertIn(missing, r.stderr)
        self.assertIn("no such folder", r.stderr)

    def test_folder_without_summary(self):
        r = run([BINARY, "report", self.tmp])
        self.assertEqual(r.returncode, 1)
        self.assertIn("summary.json", r.stderr)
        self.assertIn("sweep.csv", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "report")))

    def test_bad_sweep_csv_names_the_file(self):
        with open(os.path.join(self.tmp, "sweep.csv"), "w") as f:
            f.write("run,dir,flows_total\n0,runs/000,2\n")  # no varied-key column
        r = run([BINARY, "report", self.tmp])
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("sweep.csv", r.stderr)
        self.assertIn("varied-key", r.stderr)

    def test_no_arguments_is_a_usage_error(self):
        self.assertEqual(run([BINARY, "report"]).returncode, 2)

    def test_bad_csv_names_the_file(self):
        os.makedirs(os.path.join(self.tmp, "timeseries"))
        with open(os.path.join(self.tmp, "summary.json"), "w") as f:
            f.write('{"scenario": "bad"}')
        with open(os.path.join(self.tmp, "timeseries", "queue.csv"), "w") as f:
            f.write("time,where\n1,2\n")
        r = run([BINARY, "report", self.tmp])
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("queue.csv", r.stderr)
        self.assertIn("queue_bytes", r.stderr)

    def test_python_without_matplotlib_says_run_setup(self):
        with open(os.path.join(self.tmp, "summary.json"), "w") as f:
            f.write('{"scenario": "x"}')
        env = dict(os.environ, DCQCN_PYTHON=os.path.join(self.tmp, "no-python"))
        r = run([BINARY, "report", self.tmp], env=env)
        self.assertEqual(r.returncode, 1)
        self.assertIn("scripts/setup.sh", r.stderr)

    def test_bad_script_dir_is_named(self):
        with open(os.path.join(self.tmp, "summary.json"), "w") as f:
            f.write('{"scenario": "x"}')
        env = dict(os.environ, DCQCN_PYTHON_DIR=os.path.join(self.tmp, "nowhere"))
        r = run([BINARY, "report", self.tmp], env=env)
        self.assertEqual(r.returncode, 1)
        self.assertIn("DCQCN_PYTHON_DIR", r.stderr)


if __name__ == "__main__":
    unittest.main()
