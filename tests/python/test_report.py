"""`dcqcn report` end to end: run the built dcqcn on a small scenario with every time series,
report it and check the figures and index.html; the same for small sweeps (and --runs, and a
sweep over seeds) and for a run and a sweep with a collective; the figures' data on hand-made run
and sweep folders (time axis, flow selection, PFC paused fraction, FCT slowdown per size bin, seed
means with confidence intervals, the metrics read from summary.json and sweep.csv); the PFC
pause-interval logic on a synthetic pfc.csv; the sweep's axis parsing; the unit parser against
tests/core/units_test.cc's cases; the report modules' structure (one command line, no import
between the run, sweep and fluid reports); the command line; error cases. ctest runs it as
report_test with DCQCN_BINARY (the built dcqcn) and DCQCN_PYTHON_DIR (python/) set; by hand, from
tests/python:

    DCQCN_BINARY=../../build/dcqcn /usr/bin/python3 -m unittest -v test_report
"""

import contextlib
import io
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

import dcqcn_fluid_report  # noqa: E402
import dcqcn_report  # noqa: E402
import dcqcn_run_report  # noqa: E402
import dcqcn_sweep_report  # noqa: E402
from dcqcn import _report_common as report_common  # noqa: E402
from dcqcn import units  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

BINARY = os.environ.get("DCQCN_BINARY") or os.path.join(HERE, "..", "..", "build", "dcqcn")

# 20 senders of 100 KB into h0 (tagged incast) plus a 1 MB flow tagged victim and a 20 KB flow:
# 22 finished flows of three sizes (the CDF needs >= 20), a congested port and, with a 3 MB
# buffer, a few PFC pauses.
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
tag = "victim"
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


# Only against a hang: no test here times anything, since a loaded machine (ctest -j, a build
# beside it) may take many times what it takes alone. Speed is measured in bench/.
HANG_SECONDS = 1800


def run(args, env=None):
    return subprocess.run(args, capture_output=True, text=True, env=env, timeout=HANG_SECONDS)


def png_size(path):
    """(width, height) of a PNG file; fails the caller's assertion if it is not one."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
    assert data[12:16] == b"IHDR", f"{path}: no IHDR chunk"
    assert data[-8:-4] == b"IEND", f"{path}: truncated (no IEND chunk)"
    return struct.unpack(">II", data[16:24])


def read_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


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

    def test_per_tag_metrics_from_summary(self):
        page = read_text(os.path.join(self.report, "index.html"))
        table = page[page.index('<table class="tags">'):]
        table = table[:table.index("</table>")]
        self.assertIn("<td>victim</td>", table)
        self.assertIn("<td>incast</td>", table)
        # One victim flow: no fairness index (null in summary.json), shown as a dash, not 0.
        victim = table[table.index("<td>victim</td>"):]
        victim = victim[:victim.index("</tr>")]
        self.assertTrue(victim.endswith('<td class="v na">\u2013</td>'), victim)
        with open(os.path.join(self.run_dir, "summary.json")) as f:
            s = json.load(f)
        self.assertIn(f"{s['jain_fairness']:.4f}", page)  # summary.json's, not recomputed

    def test_links_and_time_axis_in_captions(self):
        page = read_text(os.path.join(self.report, "index.html"))
        self.assertIn("s0 port 0 \u2192 h0", page)  # the congested port and where it sends
        self.assertIn("Time axes start at the first flow's start", page)
        fct_size = page[page.index('src="fct_size.png"'):]
        self.assertIn("one bin per flow size (3 sizes)", fct_size[:fct_size.index("</figure>")])

    def test_flows_tags_and_formats_through_dcqcn_report(self):
        out = os.path.join(self.tmp, "selected")
        shutil.copytree(self.run_dir, out, ignore=shutil.ignore_patterns("report"))
        r = run([BINARY, "report", out, "--flows", "1", "--tags", "victim",
                 "--format", "png,svg"])
        self.assertEqual(r.returncode, 0, r.stderr)
        report = os.path.join(out, "report")
        for name in ALL_FIGURES:
            self.assertTrue(os.path.exists(os.path.join(report, f"{name}.svg")), name)
        page = read_text(os.path.join(report, "index.html"))
        self.assertIn('<img src="rate.png"', page)
        self.assertIn('<a href="rate.svg">SVG</a>', page)
        self.assertIn("2 selected flows", page)  # flow 1 and the victim flow (flow 0)
        self.assertIn("tagged victim", page)
        # A bad selection is an input error that names what the run has.
        r = run([BINARY, "report", out, "--tags", "nope"])
        self.assertEqual(r.returncode, 1)
        self.assertIn("incast, victim", r.stderr)

    def test_no_collective_figures_without_collectives(self):
        page = read_text(os.path.join(self.report, "index.html"))
        for name in ("collective_iterations", "collective_late_flows"):
            self.assertFalse(os.path.exists(os.path.join(self.report, f"{name}.png")), name)
            self.assertNotIn(f'src="{name}.png"', page)
        self.assertNotIn('class="tags collectives"', page)

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
        self.assertNotIn("collective_busbw.png", self.pngs)  # no collective in this sweep
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


class VictimSweepPortsTest(unittest.TestCase):
    """The DCQCN paper's victim-flow sweep (examples/paper/victim_flow.toml), PFC alone against
    DCQCN: the port that queues most differs between them (s1's uplink under PFC alone, the
    spine's port towards R under DCQCN), and the flows' max-min shares are not equal (issue 28,
    item 9). The report must compare one port across runs and read Jain against the shares."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="dcqcn_victim_sweep_test_")
        cls.sweep_dir = os.path.join(cls.tmp, "sweep")
        if not os.path.exists(BINARY):
            return
        example = os.path.join(HERE, "..", "..", "examples", "paper", "victim_flow.toml")
        sim = run([BINARY, "sweep", example, "--vary", "workload.senders=2,4",
                   "--vary", "cc.algorithm=none,dcqcn", "--set", 'duration="4ms"',
                   "--set", "output.timeseries=[]", "--out", cls.sweep_dir, "--quiet"])
        assert sim.returncode == 0, sim.stderr
        cls.sweep = dcqcn_sweep_report.read_sweep(cls.sweep_dir)

    @classmethod
    def tearDownClass(cls):
        plt.close("all")
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        require_binary(self)

    def links_utilisation(self, run_dir, node, port):
        links = pd.read_csv(os.path.join(self.sweep_dir, run_dir, "links.csv"))
        row = links[(links["node"] == node) & (links["port"] == port)]
        return float(row["utilisation"].iloc[0])

    def test_utilisation_compares_one_named_port_across_runs(self):
        df = self.sweep["table"]
        # The queue's bottleneck is a different port under PFC alone and under DCQCN.
        self.assertEqual(set(df["_bottleneck_port"]), {"s1 port 9 \u2192 s4",
                                                      "s4 port 0 \u2192 s0"})
        self.assertEqual(self.sweep["reference_port"], "s4 port 0 \u2192 s0")
        fig, caption = dcqcn_sweep_report.fig_utilisation(self.sweep)
        self.assertIn("s4 port 0 \u2192 s0", fig.axes[0].get_title())
        self.assertIn("s4 port 0 \u2192 s0", caption)
        self.assertIn("different port in different runs", caption)
        # Every point is that port's utilisation from the run's links.csv: PFC alone keeps the
        # receiver's path at line rate.
        drawn = {}
        for line in fig.axes[0].get_lines():
            if line.get_marker() in (None, "None", ""):
                continue  # the 100% line
            for x, y in zip(line.get_xdata(), line.get_ydata()):
                drawn.setdefault(float(x), []).append(float(y))
        expected = {}
        for _, r in df.iterrows():
            expected.setdefault(float(r["_x"]), []).append(
                100 * self.links_utilisation(r["dir"], "s4", 0))
        self.assertEqual(sorted(drawn), sorted(expected))
        for x in drawn:
            np.testing.assert_allclose(sorted(drawn[x]), sorted(expected[x]))
        pfc_alone = df[df["cc.algorithm"] == "none"]
        self.assertTrue((pfc_alone["_ref_util"] > 0.99).all(), pfc_alone["_ref_util"])
        page = read_text(dcqcn_sweep_report.build_sweep_report(self.sweep_dir))
        for header in ("bottleneck port (largest mean queue)", "busiest port",
                       "util. of s4 port 0 \u2192 s0"):
            self.assertIn(f"<th>{header}</th>", page)

    def test_jain_is_read_against_the_max_min_shares(self):
        df = self.sweep["table"]
        four = df[df["workload.senders"] == "4"]
        # 4 incast flows at 10 Gb/s and the victim at 20: the shares' Jain index is 0.9.
        np.testing.assert_allclose(four["_max_min_jain"], [0.9, 0.9])
        fig, caption = dcqcn_sweep_report.fig_fairness(self.sweep)
        self.assertIn("max-min share", fig.axes[0].get_ylabel())
        self.assertNotIn("equal shares", fig.axes[0].get_ylabel())
        self.assertIn("not equal", caption)
        # What is drawn is throughput / share: PFC alone starves the victim, DCQCN does not.
        none = four[four["cc.algorithm"] == "none"]["_normalised_jain"].iloc[0]
        dcqcn = four[four["cc.algorithm"] == "dcqcn"]["_normalised_jain"].iloc[0]
        self.assertLess(none, dcqcn)
        ys = sorted(float(y) for line in fig.axes[0].get_lines() if line.get_marker() != "None"
                    for x, y in zip(line.get_xdata(), line.get_ydata()) if x == 4.0)
        np.testing.assert_allclose(ys, sorted([none, dcqcn]))


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
        self.assertIsNone(dcqcn_sweep_report.axis_value("true"))
        self.assertEqual(dcqcn_sweep_report.axis_value("1.5GiB"), (1.5 * 1024**3, "size", "GiB"))
        self.assertEqual(dcqcn_sweep_report.axis_value("0.5"), (0.5, "", ""))


class UnitsTest(unittest.TestCase):
    """dcqcn.units, the Python side's one unit parser, against tests/core/units_test.cc's cases
    (src/core/units.cc): values are exact integers in ps, bps and bytes."""

    G = 10**9

    def test_documented_examples(self):
        u = units
        self.assertEqual(u.parse_size("24.47KB"), 24470)
        self.assertEqual(u.parse_time("1.5us"), 1500000)
        self.assertEqual(u.parse_rate("40Gbps"), 40000000000)
        self.assertEqual(u.parse_size("12MB"), 12000000)
        self.assertEqual(u.parse_time("55us"), 55 * 10**6)
        self.assertEqual(u.parse_rate("10Mbps"), 10 * 10**6)

    def test_every_suffix(self):
        cases = {"time": [("7ps", 7), ("7ns", 7000), ("7us", 7 * 10**6), ("7ms", 7 * self.G),
                          ("7s", 7 * 10**12)],
                 "rate": [("7bps", 7), ("7Kbps", 7000), ("7Mbps", 7000000),
                          ("7Gbps", 7 * self.G), ("7Tbps", 7 * 10**12)],
                 "size": [("7B", 7), ("7KB", 7000), ("7MB", 7000000), ("7GB", 7 * self.G),
                          ("7KiB", 7 * 1024), ("7MiB", 7 * 1024**2), ("7GiB", 7 * 1024**3)]}
        for kind, table in cases.items():
            for text, value in table:
                self.assertEqual(units.parse(text, kind), (value, ""), text)
                self.assertEqual(units.parse_quantity(text), (value, kind, text[1:]))

    def test_decimals_round_to_the_nearest_base_unit(self):
        u = units
        self.assertEqual(u.parse_time("0.5ns"), 500)
        self.assertEqual(u.parse_time("0.0005ns"), 1)  # 0.5 ps rounds up
        self.assertEqual(u.parse_time("0.0004ns"), 0)
        self.assertEqual(u.parse_size("1.5B"), 2)
        self.assertEqual(u.parse_size(".5KB"), 500)
        self.assertEqual(u.parse_time("4.096us"), 4096000)
        self.assertEqual(u.parse_time("-1.5us"), -1500000)  # negatives parse; callers reject them
        # Exact where a float is not: 1e18 - 1 ps.
        self.assertEqual(u.parse_time("999999.999999999999s"), 10**18 - 1)

    def test_rejects_malformed_text(self):
        u = units
        for bad in ("5 kilobytes", "", "KB", "1..5us", "40Gbit", "5", "5kb", "5 KBs", "1e3us",
                    "us5", "--5us", ".us", "5us ", "0x10KB", "five KB"):
            for kind in ("time", "rate", "size"):
                self.assertEqual(u.parse(bad, kind), (None, ""), (bad, kind))
            self.assertIsNone(u.parse_quantity(bad), bad)
        # A suffix of the wrong kind.
        self.assertIsNone(u.parse_time("5KB"))
        self.assertIsNone(u.parse_size("5us"))
        self.assertIsNone(u.parse_rate("5MB"))
        self.assertIsNone(u.parse_rate("5Gb"))
        # Too large for 64 bits.
        self.assertIsNone(u.parse_time("100000000s"))
        self.assertIsNone(u.parse_size("9999999999999999999GB"))

    def test_bounds_and_why(self):
        u = units
        self.assertEqual(u.parse_time("1000000s"), 10**18)
        self.assertEqual(u.parse_time("-1000000s"), -10**18)
        self.assertEqual(u.parse_rate("1000Tbps"), 10**15)
        self.assertEqual(u.parse_size("1000000GB"), 10**15)
        self.assertEqual(u.parse("1000000.000000000001s", "time"), (None, "at most 1000000s"))
        self.assertEqual(u.parse("9223372036854775807ps", "time"), (None, "at most 1000000s"))
        self.assertEqual(u.parse("1001Tbps", "rate"), (None, "at most 1000Tbps"))
        self.assertEqual(u.parse("00000000000000000000001000001GB", "size"),
                         (None, "at most 1000000GB"))
        self.assertEqual(u.parse_size("0000000000000000000000005KB"), 5000)  # zeros: no magnitude
        self.assertEqual(u.parse("5KB", "time"), (None, ""))  # malformed: not a bound problem

    def test_canonical_text(self):
        # units_test.cc's FormatOfParseIsStableForCanonicalText, the parsing half.
        u = units
        for text, value in (("24.47KB", 24470), ("12MB", 12 * 10**6), ("1B", 1), ("5KB", 5000),
                            ("200KB", 200000), ("1.5MB", 1500000), ("1GB", self.G)):
            self.assertEqual(u.parse_size(text), value, text)
        for text, value in (("1.5us", 1500000), ("10ms", 10 * self.G), ("1s", 10**12),
                            ("123ps", 123), ("4.096us", 4096000), ("55us", 55 * 10**6)):
            self.assertEqual(u.parse_time(text), value, text)
        for text, value in (("40Gbps", 40 * self.G), ("100Gbps", 100 * self.G),
                            ("10Mbps", 10**7), ("1Tbps", 10**12), ("25.5Gbps", 25500000000)):
            self.assertEqual(u.parse_rate(text), value, text)

    def test_no_other_unit_table(self):
        """Only dcqcn/units.py spells the unit suffixes: a second table (there were two, in the run
        and the sweep report) would drift from units.cc."""
        import ast
        suffixes = {"KiB", "MiB", "GiB", "Kbps", "Tbps", "ps"}
        paths = [os.path.join(PYTHON_DIR, n) for n in os.listdir(PYTHON_DIR)]
        paths += [os.path.join(PYTHON_DIR, "dcqcn", n)
                  for n in os.listdir(os.path.join(PYTHON_DIR, "dcqcn"))]
        for path in paths:
            if not path.endswith(".py") or path == os.path.join(PYTHON_DIR, "dcqcn", "units.py"):
                continue
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read(), path)
            spelled = {n.value for n in ast.walk(tree)
                       if isinstance(n, ast.Constant) and n.value in suffixes}
            self.assertEqual(spelled, set(), f"{path} spells unit suffixes: use dcqcn.units")


REPORT_MODULES = ["dcqcn_run_report", "dcqcn_sweep_report", "dcqcn_fluid_report"]
HELPER_MODULES = ["dcqcn._report_common", "dcqcn.units"]


def project_modules():
    """{module name: file} of python/: the scripts (dcqcn_report, ...) and the package's modules
    (dcqcn for its __init__.py, dcqcn.units, ...; dcqcn._dcqcn, the compiled extension, without
    a file)."""
    modules = {n[:-3]: os.path.join(PYTHON_DIR, n) for n in os.listdir(PYTHON_DIR)
               if n.endswith(".py")}
    modules["dcqcn._dcqcn"] = None
    package = os.path.join(PYTHON_DIR, "dcqcn")
    for n in os.listdir(package):
        if n.endswith(".py"):
            name = "dcqcn" if n == "__init__.py" else f"dcqcn.{n[:-3]}"
            modules[name] = os.path.join(package, n)
    return modules


def sibling_imports(name):
    """The modules of python/ (see project_modules) that <name> imports anywhere (in functions
    too): `from dcqcn import units` and `from . import units` name dcqcn.units, and only a name
    that is no module names the package's __init__.py."""
    import ast
    modules = project_modules()
    if modules[name] is None:
        return set()
    with open(modules[name], encoding="utf-8") as f:
        tree = ast.parse(f.read())
    package = name if name == "dcqcn" else name.rpartition(".")[0]
    found = set()

    def add(dotted):
        # The module of python/ a dotted name lies in: its longest prefix that is one.
        parts = dotted.split(".")
        for i in range(len(parts), 0, -1):
            if ".".join(parts[:i]) in modules:
                found.add(".".join(parts[:i]))
                return

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                add(a.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module
            for a in node.names:  # a module of the package, or a name from `module`
                add(f"{module}.{a.name}")
    found.discard(name)
    return found


class ModuleStructureTest(unittest.TestCase):
    """One command line (dcqcn_report.py) over a run, a sweep and a fluid report module that
    share the helper modules (in the dcqcn package) and never import one another (the run and
    the sweep report used to import each other); no import cycle in python/, the package
    included (its __init__.py and dcqcn tune's modules used to import each other); the helpers
    load without the compiled extension."""

    def test_report_modules_import_only_the_helpers(self):
        for name in REPORT_MODULES:
            self.assertLessEqual(sibling_imports(name), set(HELPER_MODULES), name)
        self.assertEqual(sibling_imports("dcqcn._report_common"), set())
        self.assertEqual(sibling_imports("dcqcn.units"), set())
        self.assertEqual(sibling_imports("dcqcn_report"),
                         set(REPORT_MODULES) | {"dcqcn._report_common"})

    def test_no_import_cycle_in_python_dir(self):
        graph = {name: sibling_imports(name) for name in project_modules()}

        def visit(name, path):
            self.assertNotIn(name, path, f"import cycle: {' -> '.join(path + [name])}")
            for dep in sorted(graph[name]):
                visit(dep, path + [name])

        for name in graph:
            visit(name, [])

    def test_package_modules_share_common_not_init(self):
        """The package's modules take what the API shares (scenario text, --set texts, check,
        fluid) from dcqcn._common, never from its __init__.py."""
        for name in project_modules():
            if name.startswith("dcqcn."):
                self.assertNotIn("dcqcn", sibling_imports(name), name)
        self.assertIn("dcqcn._common", sibling_imports("dcqcn"))
        self.assertIn("dcqcn._common", sibling_imports("dcqcn.tune_search"))

    def test_each_report_module_loads_alone(self):
        """Imported in a fresh interpreter, a report module loads no other report module."""
        for name in REPORT_MODULES:
            code = (f"import json, sys; sys.path.insert(0, {PYTHON_DIR!r}); import {name}; "
                    "print(json.dumps(sorted(m for m in sys.modules if m.startswith('dcqcn'))))")
            r = run([sys.executable, "-c", code], env=dict(os.environ, MPLBACKEND="Agg"))
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(set(json.loads(r.stdout)) - set(HELPER_MODULES) - {"dcqcn"},
                             {name})

    def test_helpers_load_without_the_extension(self):
        """python/dcqcn/ has no compiled extension (the build puts it in build/python/dcqcn/): its
        helpers load all the same, as the report scripts need, and the API says what is
        missing."""
        code = (f"import sys; sys.path.insert(0, {PYTHON_DIR!r}); import dcqcn.units, "
                "dcqcn._report_common, importlib.util\n"
                "if importlib.util.find_spec('dcqcn._dcqcn'): print('extension'); sys.exit()\n"
                "assert 'dcqcn._common' not in sys.modules, sorted(sys.modules)\n"
                "try:\n    dcqcn.run\nexcept ImportError as e:\n    print(e)\n")
        r = run([sys.executable, "-c", code], env=dict(os.environ, MPLBACKEND="Agg"))
        self.assertEqual(r.returncode, 0, r.stderr)
        if r.stdout.strip() == "extension":
            self.skipTest(f"{PYTHON_DIR}/dcqcn has the compiled extension")
        self.assertIn("dcqcn.run: this copy of the package", r.stdout)
        self.assertIn("no compiled extension", r.stdout)


class PauseIntervalTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="dcqcn_pfc_test_")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def intervals(self, text, end_ns):
        path = os.path.join(self.tmp, "pfc.csv")
        with open(path, "w") as f:
            f.write("time_ns,node,port,priority,paused\n" + text)
        iv = dcqcn_run_report.pause_intervals(dcqcn_run_report.read_pfc(path), end_ns)
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

    def test_paused_fraction_per_bin(self):
        # Paused 0-15 and 25-30 (of bins 10 wide): bins 0-10 all, 10-20 half, 20-30 half,
        # 30-40 none.
        got = dcqcn_run_report.paused_fraction([0.0, 25.0], [15.0, 30.0], [0, 10, 20, 30, 40])
        self.assertEqual(list(got), [1.0, 0.5, 0.5, 0.0])
        # An interval within one bin, and one over the last edge.
        got = dcqcn_run_report.paused_fraction([2.0, 19.0], [4.0, 50.0], [0, 10, 20])
        self.assertEqual(list(got), [0.2, 0.1])
        self.assertEqual(list(dcqcn_run_report.paused_fraction([], [], [0, 5, 10])), [0.0, 0.0])

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
        index = dcqcn_run_report.build_report(run_dir)
        self.assertEqual(sorted(os.listdir(os.path.join(run_dir, "report"))),
                         ["index.html", "pfc.png"])
        png_size(os.path.join(run_dir, "report", "pfc.png"))
        with open(index, encoding="utf-8") as f:
            page = f.read()
        self.assertIn("pfc-only", page)
        self.assertIn('src="pfc.png"', page)
        self.assertIn("Time series not recorded: throughput, rate, queue", page)


# ---------------------------------------------------------------------------------------------
# Hand-made run folders: what each figure draws, checked on the figure objects themselves.

T0 = 2_000_000_000  # the first flow starts at 2 s, as in HPCC inputs
FLOWS_COLUMNS = ["flow_id", "src", "dst", "priority", "size_bytes", "start_ns", "finish_ns",
                 "fct_ns", "ideal_fct_ns", "slowdown", "delivered_bytes", "avg_gbps", "tag"]


def write_text(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def flows_frame(sizes, slowdowns, tags, start=T0):
    """flows.csv rows: flow i from h(i+1) to h0 of sizes[i] with slowdowns[i] (None:
    unfinished)."""
    rows = []
    for i, (size, sd, tag) in enumerate(zip(sizes, slowdowns, tags)):
        ideal = 1000.0 + size / 5.0
        fct = None if sd is None else ideal * sd
        rows.append({"flow_id": i, "src": i + 1, "dst": 0, "priority": 3, "size_bytes": size,
                     "start_ns": start, "finish_ns": None if fct is None else start + fct,
                     "fct_ns": fct, "ideal_fct_ns": ideal, "slowdown": sd,
                     "delivered_bytes": size, "avg_gbps": 1.0, "tag": tag})
    return pd.DataFrame(rows, columns=FLOWS_COLUMNS)


def make_run(root, n_flows=20, cc="dcqcn", summary_extra=None, tag_column=True):
    """A run folder whose flows start at T0 and whose run ends 1 ms later: flows 0-1 tagged
    victim, 2-17 incast, 18-19 untagged; every time series every 10 us; s0 port 3 (to h3) and
    h1 port 0 (to s0) paused."""
    tags = ["victim"] * 2 + ["incast"] * 16 + [""] * (n_flows - 18)
    flows = flows_frame([1e4 * (i + 1) for i in range(n_flows)], [1.0 + i for i in range(n_flows)],
                        tags[:n_flows])
    if not tag_column:
        flows = flows.drop(columns="tag")
    os.makedirs(root)
    flows.to_csv(os.path.join(root, "flows.csv"), index=False)
    summary = {"scenario": "fixture", "active_start_ns": T0, "sim_time_ns": T0 + 1_000_000,
               "flows_total": n_flows, "flows_finished": n_flows, "cc": {"algorithm": cc}}
    summary.update(summary_extra or {})
    write_text(os.path.join(root, "summary.json"), json.dumps(summary))
    links = ["node,port,peer,peer_port,rate_gbps,delay_ns"]
    for h in range(n_flows + 1):
        links.append(f"h{h},0,s0,{h},40,1000")
        links.append(f"s0,{h},h{h},0,40,1000")
    write_text(os.path.join(root, "links.csv"), "\n".join(links) + "\n")
    times = [T0 + k * 10_000 for k in range(101)]
    ts = os.path.join(root, "timeseries")
    write_text(os.path.join(ts, "rate.csv"), "time_ns,flow_id,rc_gbps,rt_gbps,alpha\n" + "".join(
        f"{t},{f},{40 - f},{40},0.5\n" for t in times for f in range(n_flows)))
    write_text(os.path.join(ts, "throughput.csv"), "time_ns,flow_id,gbps\n" + "".join(
        f"{t},{f},{1 + f}\n" for t in times for f in range(n_flows)))
    write_text(os.path.join(ts, "queue.csv"), "time_ns,switch,port,queue_bytes,tx_gbps\n" +
               "".join(f"{t},s0,0,{1000 * k},40\n" for k, t in enumerate(times)))
    write_text(os.path.join(ts, "pfc.csv"), "time_ns,node,port,priority,paused\n"
               f"{T0 + 100_000},s0,3,3,1\n{T0 + 600_000},s0,3,3,0\n"
               f"{T0 + 900_000},h1,0,3,1\n")
    return root


class FixtureRunTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="dcqcn_fixture_run_")
        self.dir = make_run(os.path.join(self.tmp, "run"))

    def tearDown(self):
        plt.close("all")
        shutil.rmtree(self.tmp, ignore_errors=True)

    def legend_texts(self, fig):
        return [t.get_text() for ax in fig.axes if ax.get_legend()
                for t in ax.get_legend().get_texts()]

    def test_time_axis_runs_over_the_active_interval(self):
        run = dcqcn_run_report.load_run(self.dir)
        for name in ("throughput", "rate", "queue", "pfc"):
            fig, _ = dcqcn_run_report.FIGURE_MAKERS[name](run)
            bottom = fig.axes[0] if name == "pfc" else fig.axes[-1]
            self.assertEqual(bottom.get_xlabel(), "time since first flow start (ms)", name)
            self.assertEqual(tuple(round(v, 9) for v in bottom.get_xlim()), (0.0, 1.0), name)
            for ax in fig.axes:
                for line in ax.get_lines():
                    x = np.asarray(line.get_xdata(), dtype=float)
                    if len(x) > 1:
                        self.assertGreaterEqual(x.min(), 0.0, name)
                        self.assertLessEqual(x.max(), 1.0 + 1e-9, name)

    def test_rate_and_throughput_show_the_selection(self):
        run = dcqcn_run_report.load_run(self.dir, flow_ids=[0, 3, 19])
        fig, caption = dcqcn_run_report.fig_rate(run)
        labels = self.legend_texts(fig)
        self.assertIn("flow 0 (h1\u2192h0, victim)", labels)
        self.assertIn("flow 3 (h4\u2192h0, incast)", labels)
        self.assertIn("flow 19 (h20\u2192h0)", labels)
        self.assertEqual(len([t for t in labels if t.startswith("flow ")]), 3)
        self.assertIn("3 selected flows", caption)
        fig, _ = dcqcn_run_report.fig_throughput(run)
        per_flow = [t for t in self.legend_texts(fig) if t.startswith("flow ")]
        self.assertEqual(len(per_flow), 3)
        # Tags add their flows to --flows, and their sums to the aggregate panel.
        run = dcqcn_run_report.load_run(self.dir, flow_ids=[5], tags=["victim"])
        self.assertEqual(run["selection"], [0, 1, 5])
        fig, caption = dcqcn_run_report.fig_throughput(run)
        self.assertIn("tag victim", self.legend_texts(fig))
        self.assertIn("tagged victim", caption)
        with self.assertRaisesRegex(report_common.ReportError, "incast, victim"):
            dcqcn_run_report.load_run(self.dir, tags=["nope"])
        with self.assertRaisesRegex(report_common.ReportError, "no flow 20"):
            dcqcn_run_report.load_run(self.dir, flow_ids=[20])

    def test_no_rate_figure_without_congestion_control(self):
        d = make_run(os.path.join(self.tmp, "none"), cc="none")
        os.makedirs(os.path.join(d, "report"))
        write_text(os.path.join(d, "report", "rate.png"), "stale")
        index = dcqcn_run_report.build_report(d)
        self.assertFalse(os.path.exists(os.path.join(d, "report", "rate.png")))
        page = read_text(index)
        self.assertNotIn('src="rate.png"', page)
        self.assertIn("congestion control is off (cc.algorithm = none)", page)

    def test_pfc_rows_are_links_with_their_paused_share(self):
        run = dcqcn_run_report.load_run(self.dir)
        fig, caption = dcqcn_run_report.fig_pfc(run)
        ax = fig.axes[0]
        labels = [t.get_text() for t in ax.get_yticklabels()]
        # The row is the port that received the PAUSE and stopped sending: s0 port 3 -> h3.
        self.assertEqual(labels, ["h1 port 0 \u2192 s0 (10%)", "s0 port 3 \u2192 h3 (50%)"])
        grid = ax.get_images()[0].get_array()
        self.assertEqual(grid.shape, (2, dcqcn_run_report.PFC_BINS))
        self.assertAlmostEqual(float(grid[1].mean()), 0.5)  # s0 port 3: paused 0.1-0.6 ms
        self.assertAlmostEqual(float(grid[0].mean()), 0.1)  # h1: from 0.9 ms to the end
        self.assertEqual(float(grid[1][0]), 0.0)
        self.assertEqual(float(grid[1][dcqcn_run_report.PFC_BINS // 2 - 1]), 1.0)
        self.assertIn("Share of each", caption)

    def test_queue_legend_names_the_link(self):
        run = dcqcn_run_report.load_run(self.dir)
        fig, caption = dcqcn_run_report.fig_queue(run)
        self.assertIn("s0 port 0 \u2192 h0 (sampled peak 100.0 KB)", self.legend_texts(fig))
        self.assertIn("s0 port 0 \u2192 h0", caption)

    def test_fct_slowdown_in_equal_count_size_bins(self):
        # 200 flows of 200 sizes: 8 bins of 25 (MIN_FLOWS_PER_SIZE_BIN), each at its largest
        # size, with numpy's (linear) percentiles of its slowdowns.
        sizes = [1000.0 * (i + 1) for i in range(200)]
        slowdowns = [1.0 + (i % 25) for i in range(200)]
        done = flows_frame(sizes, slowdowns, [""] * 200)
        bins, how = dcqcn_run_report.slowdown_by_size(done)
        self.assertEqual(how, "equal")
        self.assertEqual(list(bins["count"]), [25] * 8)
        self.assertEqual(list(bins["size"]), [25000.0 * (b + 1) for b in range(8)])
        self.assertEqual(list(bins["p50"]), [13.0] * 8)
        self.assertAlmostEqual(float(bins["p99"].iloc[0]), float(np.percentile(range(1, 26), 99)))
        # Fewer flows, fewer bins; a size never splits across bins.
        bins, _ = dcqcn_run_report.slowdown_by_size(done.iloc[:60])
        self.assertEqual(list(bins["count"]), [30, 30])
        dup = flows_frame([1e3] * 10 + [2e3 + i for i in range(40)], [2.0] * 50, [""] * 50)
        bins, _ = dcqcn_run_report.slowdown_by_size(dup)
        self.assertEqual(list(bins["count"]), [25, 25])  # the 10 equal sizes stay together
        # Few distinct sizes: one bin per size.
        few = flows_frame([1e3, 1e3, 1e6, 1e6, 1e6], [1, 3, 2, 2, 8], [""] * 5)
        bins, how = dcqcn_run_report.slowdown_by_size(few)
        self.assertEqual((how, list(bins["size"]), list(bins["p50"])), ("size", [1e3, 1e6],
                                                                         [2.0, 2.0]))

    def test_fct_size_figure(self):
        run = dcqcn_run_report.load_run(self.dir)
        fig, caption = dcqcn_run_report.fig_fct_size(run)
        ax = fig.axes[0]
        self.assertEqual(ax.get_xscale(), "log")
        self.assertEqual(self.legend_texts(fig), ["each flow", "median", "95th pct", "99th pct"])
        self.assertIn("one bin per flow size (20 sizes)", caption)
        median = [line for line in ax.get_lines() if line.get_label() == "median"][0]
        self.assertEqual(list(median.get_xdata()), [1e4 * (i + 1) for i in range(20)])

    def test_fct_of_flows_of_one_size_is_per_flow_or_in_a_bounded_number_of_bins(self):
        # One size: FCT against flow id, a bar per flow up to MAX_FLOW_BARS flows; beyond, the
        # drawing is bounded by bins, not flows (a collective's 65,024 flows drew 65,024 bars:
        # 95 s of CPU and 812 MB).
        limit = dcqcn_run_report.MAX_FLOW_BARS
        run = dcqcn_run_report.load_run(self.dir)
        for n in (30, limit, 50 * limit + 7):
            # Slowdown 1 + (i mod 10): each bin of the many flows holds 1 to 10, its median
            # 5 to 6.
            run["flows"] = flows_frame([1e6] * n, [1.0 + i % 10 for i in range(n)], [""] * n)
            fig, caption = dcqcn_run_report.fig_fct_size(run)
            ax = fig.axes[0]
            artists = len(ax.patches) + len(ax.collections) + len(ax.lines)
            vertices = sum(len(line.get_xdata()) for line in ax.lines) + sum(
                len(p.vertices) for c in ax.collections for p in c.get_paths())
            ideal_ms = (1000.0 + 1e6 / 5.0) / 1e6
            if n <= limit:
                self.assertEqual(len(ax.patches), n, n)  # one bar per flow
                self.assertIn("Completion time of each finished flow", caption)
                heights = sorted({round(p.get_height() / ideal_ms, 6) for p in ax.patches})
                self.assertEqual(heights, [float(k) for k in range(1, 11)])
            else:
                self.assertLessEqual(artists, 4)
                self.assertLessEqual(vertices, 10 * limit)
                self.assertIn(f"in {limit} bins by flow id", ax.get_title())
                self.assertIn(f"cut into {limit} bins of about 50 flows", caption)
                median = [line for line in ax.lines if line.get_label() == "median of the bin"][0]
                self.assertEqual(median.get_xdata()[0], 0)
                self.assertEqual(median.get_xdata()[-1], n)
                for v in median.get_ydata():
                    self.assertTrue(5 <= round(v / ideal_ms, 6) <= 6, v / ideal_ms)
                band = np.concatenate([p.vertices[:, 1] for p in ax.collections[0].get_paths()])
                self.assertAlmostEqual(band.min() / ideal_ms, 1)
                self.assertAlmostEqual(band.max() / ideal_ms, 10)
            plt.close(fig)

    def test_headline_table_reads_summary_and_shows_nulls_as_dashes(self):
        d = make_run(os.path.join(self.tmp, "nulls"), summary_extra={
            "flows_active": 20, "jain_fairness": None,
            "fct_slowdown": {"count": 0, "p50": None, "p95": None, "p99": None, "max": None},
            "flow_throughput_gbps": {"count": 20, "min": 1.5, "mean": 2.25, "max": 3.0},
            "by_tag": {"victim": {"flows": 2, "finished": 0,
                                  "fct_slowdown": {"count": 0, "p50": None, "p99": None},
                                  "flow_throughput_gbps": {"count": 2, "min": 7.0,
                                                           "mean": 7.5, "max": 8.0},
                                  "jain_fairness": 0.99}}})
        page = read_text(dcqcn_run_report.build_report(d))
        na = '<td class="v na">\u2013</td>'
        self.assertIn(f"<tr><td>Jain fairness</td>{na}</tr>", page)
        self.assertIn(f"<tr><td>FCT slowdown p50</td>{na}</tr>", page)
        # The throughput is summary.json's, not flows.csv's avg_gbps (1.0 for every flow).
        self.assertIn("1.50 / 2.25 / 3.00 Gb/s over 20 active flows", page)
        self.assertIn(f'<tr><td>victim</td><td class="v">2</td><td class="v">0</td>{na}{na}'
                      '<td class="v">7.00 / 7.50 / 8.00</td><td class="v">0.9900</td></tr>',
                      page)
        self.assertNotIn(">0.00<", page)

    def test_hpcc_run_names_node_ids_and_counts_time_from_the_first_start(self):
        # A run of an HPCC input (issue 28, item 10): links.csv and flows.csv carry that
        # topology file's node ids (its switch is node 0, our h<i> its node i + 1), and the
        # headline says the simulated time from the first flow's start, rounded as the CLI's
        # summary line ("12.062 ms simulated from the first flow's start at 2000.000 ms").
        d = make_run(os.path.join(self.tmp, "hpcc"), summary_extra={
            "sim_time_ns": T0 + 12_061_500,
            "busiest_port": {"switch": "s0", "port": 3, "peer": "h3", "utilisation": 0.9}})
        links = pd.read_csv(os.path.join(d, "links.csv"))
        node_id = {n: (0 if n == "s0" else int(n[1:]) + 1) for n in links["node"]}
        links["node_id"] = links["node"].map(node_id)
        links["peer_id"] = links["peer"].map(node_id)
        links.to_csv(os.path.join(d, "links.csv"), index=False)
        flows = pd.read_csv(os.path.join(d, "flows.csv"), dtype={"tag": str},
                            keep_default_na=False)
        flows["src_node"] = flows["src"] + 1
        flows["dst_node"] = flows["dst"] + 1
        flows.to_csv(os.path.join(d, "flows.csv"), index=False)
        run = dcqcn_run_report.load_run(d)
        self.assertEqual(dcqcn_run_report.link_label(run, "s0", 3),
                         "s0 (node 0) port 3 \u2192 h3 (node 4)")
        self.assertEqual(dcqcn_run_report.flow_label(0, run["flows_by_id"]),
                         "flow 0 (node 2\u2192node 1, victim)")
        page = read_text(dcqcn_run_report.build_report(d))
        self.assertIn("<tr><td>simulated time from the first flow&#x27;s start</td>"
                      '<td class="v">12.062 ms</td></tr>', page)
        self.assertIn('<tr><td>first flow start</td><td class="v">2000.000 ms</td></tr>', page)
        self.assertIn("<tr><td>busiest port</td>"
                      '<td class="v">s0 (node 0) port 3 \u2192 h3 (node 4)</td></tr>', page)
        self.assertIn("egress s0 (node 0) port 0 \u2192 h0 (node 1)", page)  # the queue figure

    def test_formats_and_stale_files(self):
        os.makedirs(os.path.join(self.dir, "report"))
        write_text(os.path.join(self.dir, "report", "queue.png"), "stale")
        index = dcqcn_run_report.build_report(self.dir, formats=["svg", "pdf"])
        names = os.listdir(os.path.join(self.dir, "report"))
        self.assertIn("queue.svg", names)
        self.assertIn("queue.pdf", names)
        self.assertNotIn("queue.png", names)  # an older format would show older data
        with open(os.path.join(self.dir, "report", "queue.pdf"), "rb") as f:
            self.assertEqual(f.read(5), b"%PDF-")
        page = read_text(index)
        self.assertIn('<img src="queue.svg"', page)
        self.assertIn('<a href="queue.pdf">PDF</a>', page)
        for bad in ("jpg", "", "png,tiff"):
            with self.assertRaises(report_common.ReportError):
                report_common.parse_formats(bad)
        self.assertEqual(report_common.parse_formats("PNG, svg,png"), ["png", "svg"])

    def test_flows_csv_without_tags_is_read(self):
        d = make_run(os.path.join(self.tmp, "old"), tag_column=False)
        run = dcqcn_run_report.load_run(d)
        self.assertEqual(set(run["flows"]["tag"]), {""})
        with self.assertRaisesRegex(report_common.ReportError, "its tags: none"):
            dcqcn_run_report.load_run(d, tags=["victim"])


class ScriptCommandLineTest(unittest.TestCase):
    """dcqcn_report.py, the one command line of the reports, run on its own: usage, errors and
    exit codes like the dcqcn CLI. One subprocess each (the scripts' __main__); the other cases
    call main() in this process."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="dcqcn_report_cli_")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def script(self, name, *args):
        env = dict(os.environ, MPLBACKEND="Agg")
        return run([sys.executable, os.path.join(PYTHON_DIR, name), *args], env=env)

    def main(self, module, *args):
        """(exit code, stdout, stderr) of module.main(args)."""
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = module.main(list(args))
            except SystemExit as e:  # argparse: --help and usage errors
                code = e.code
        return code, out.getvalue(), err.getvalue()

    def test_report_modules_are_not_commands(self):
        # They used to be scripts of their own (and one printed nothing and exited 0).
        for name in ("dcqcn_run_report.py", "dcqcn_sweep_report.py", "dcqcn_fluid_report.py"):
            r = self.script(name, self.tmp)
            self.assertEqual(r.returncode, 2, name)
            self.assertIn("usage: dcqcn_report.py", r.stderr)
            self.assertIn(f"{name} is a module of the report", r.stderr)
            self.assertFalse(os.path.exists(os.path.join(self.tmp, "report")))

    def test_sweep_folder(self):
        r = self.script("dcqcn_report.py")
        self.assertEqual(r.returncode, 2)
        self.assertIn("usage", r.stderr)
        sweep = make_sweep(os.path.join(self.tmp, "sweep"))
        r = self.script("dcqcn_report.py", sweep, "--format", "png,svg")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(os.path.join(sweep, "report", "index.html"), r.stdout)
        self.assertTrue(os.path.exists(os.path.join(sweep, "report", "fairness.svg")))

        module = dcqcn_report
        missing = os.path.join(self.tmp, "nope")
        code, out, err = self.main(module, missing)
        self.assertEqual((code, out), (1, ""))
        self.assertIn(f"{missing}: no such folder", err)
        self.assertEqual(self.main(module, sweep, "--quiet"), (0, "", ""))
        code, _, err = self.main(module, sweep, "--format", "gif")
        self.assertEqual(code, 1)
        self.assertIn("--format gif", err)
        code, _, err = self.main(module, sweep, "--tags", "victim")
        self.assertEqual(code, 1)
        self.assertIn("on a sweep folder they need --runs", err)

    def test_run_script(self):
        d = make_run(os.path.join(self.tmp, "run"))
        r = self.script("dcqcn_report.py", d, "--tags", "victim", "--flows", "4")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("report:", r.stdout)

        module = dcqcn_report
        code, out, _ = self.main(module, "--help")
        self.assertEqual(code, 0)
        for option in ("--runs", "--format", "--flows", "--tags", "--quiet"):
            self.assertIn(option, out)
        code, _, err = self.main(module, self.tmp)
        self.assertEqual(code, 1)
        self.assertIn("no summary.json or sweep.csv", err)
        code, _, err = self.main(module, d, "--flows", "1,x")
        self.assertEqual(code, 1)
        self.assertIn("--flows 1,x", err)
        code, _, err = self.main(module, d, "--runs")
        self.assertEqual(code, 1)
        self.assertIn("--runs is for a `dcqcn sweep` folder", err)


# ---------------------------------------------------------------------------------------------
# Hand-made sweep folders.

# The metric columns `dcqcn sweep` writes today (SweepColumns() and SweepTagColumns() in
# src/run/sweep.cc): the fixtures' data. The report itself takes them from sweep.csv.
SWEEP_METRICS = [
    "flows_total", "flows_finished", "sim_time_ns", "max_link_utilisation",
    "bottleneck.utilisation", "bottleneck.mean_queue_bytes", "bottleneck.std_queue_bytes",
    "max_queue_bytes", "pfc_pause_frames", "drops", "nacks", "retransmitted_packets",
    "out_of_order_packets", "ecn_marked_packets", "cnps", "cc.rate_cuts",
    "fct_slowdown.p50", "fct_slowdown.p99", "flow_throughput_gbps.min",
    "flow_throughput_gbps.mean", "flow_throughput_gbps.max", "jain_fairness",
    "convergence_time_ns", "wall_time_s"]
SWEEP_TAG_METRICS = [
    "flows", "finished", "flow_throughput_gbps.min", "flow_throughput_gbps.mean",
    "flow_throughput_gbps.max", "jain_fairness", "fct_slowdown.p50", "fct_slowdown.p99"]


def make_sweep(root, rows=None, keys=("workload.senders", "seed"), tags=("victim",),
               metrics=SWEEP_METRICS, tag_metrics=SWEEP_TAG_METRICS, seeds=0):
    """A sweep folder: sweep.csv with `rows` (dicts of key and metric values; missing metrics
    empty), its sweep.json (the keys as --vary lists, the last `seeds` as --seeds N when seeds is
    N > 0) and run folders whose flows.csv disagrees with sweep.csv (avg_gbps 100 for each
    flow), so a report that recomputed the metrics from it would draw other numbers."""
    if rows is None:
        rows = [{"workload.senders": n, "seed": seed, "flows_total": n, "flows_finished": 0,
                 "max_queue_bytes": 1000 * n + 100 * seed, "jain_fairness": 1.0 / seed,
                 "flow_throughput_gbps.min": 1, "flow_throughput_gbps.mean": 2 * seed,
                 "flow_throughput_gbps.max": 3 * seed,
                 "tag.victim.flow_throughput_gbps.min": 10 * seed,
                 "tag.victim.flow_throughput_gbps.mean": 10 * seed + 1,
                 "tag.victim.flow_throughput_gbps.max": 10 * seed + 2}
                for n in (2, 4) for seed in (1, 2, 3)]
    tag_cols = [f"tag.{t}.{m}" for t in tags for m in tag_metrics]
    header = ["run", "dir", *keys, *metrics, *tag_cols, "error"]
    lines = [",".join(header)]
    for i, r in enumerate(rows):
        values = {"run": str(i), "dir": f"runs/{i:03}", **{k: str(v) for k, v in r.items()}}
        lines.append(",".join(values.get(c, "") for c in header))
        flows = flows_frame([1e5, 1e5], [None, None], ["victim", ""])
        flows["avg_gbps"] = 100.0
        os.makedirs(os.path.join(root, "runs", f"{i:03}"))
        flows.to_csv(os.path.join(root, "runs", f"{i:03}", "flows.csv"), index=False)
    write_text(os.path.join(root, "sweep.csv"), "\n".join(lines) + "\n")
    listed = keys[:-1] if seeds else keys
    vary = [k + "=" + ",".join(dict.fromkeys(str(r[k]) for r in rows)) for k in listed]
    write_text(os.path.join(root, "sweep.json"), json.dumps(
        {"format": "dcqcn sweep 1", "vary": vary, "sets": [], "seeds": seeds, "runs": len(rows),
         "shard": 1, "shards": 1, "failed": {}}, indent=2))
    return root


class FixtureSweepTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="dcqcn_fixture_sweep_")
        self.dir = make_sweep(os.path.join(self.tmp, "sweep"))

    def tearDown(self):
        plt.close("all")
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_student_t_interval(self):
        t975 = report_common.t975
        self.assertEqual((t975(1), t975(2), t975(30)), (12.706, 4.303, 2.042))
        self.assertAlmostEqual(t975(60), 2.0003, places=3)
        self.assertAlmostEqual(t975(10**6), 1.96, places=3)
        mean, half, n = report_common.mean_ci95([1.0, 2.0, 3.0, float("nan")])
        self.assertEqual((mean, n), (2.0, 3))
        self.assertAlmostEqual(half, 4.303 * 1.0 / 3**0.5)
        self.assertEqual(report_common.mean_ci95([5.0])[:2][0], 5.0)

    def test_seed_is_averaged_not_an_axis(self):
        sweep = dcqcn_sweep_report.read_sweep(self.dir)
        self.assertEqual(sweep["x"].key, "workload.senders")
        self.assertEqual(sweep["seeds"], ["1", "2", "3"])
        self.assertEqual(len(sweep["series"]), 1)
        fig, caption = dcqcn_sweep_report.fig_max_queue(sweep)
        ax = fig.axes[0]
        self.assertEqual(ax.get_xlabel(), "workload.senders")
        line = ax.get_lines()[0]
        self.assertEqual(list(line.get_xdata()), [2.0, 4.0])
        # Max queue 1000 n + 100 seed KB/1e3: mean over seeds 1-3 is n + 0.2 (KB).
        np.testing.assert_allclose(line.get_ydata(), [2.2, 4.2])
        # Error bars (two x values: no band): mean +- t(0.975, 2) * sd / sqrt(3), sd = 0.1.
        half = 4.303 * 0.1 / 3**0.5
        segments = ax.collections[0].get_segments()
        np.testing.assert_allclose([s[:, 1] for s in segments],
                                   [[2.2 - half, 2.2 + half], [4.2 - half, 4.2 + half]])
        self.assertIn("mean over the 3 seeds", caption)
        self.assertIn("confidence interval", caption)
        page = read_text(dcqcn_sweep_report.build_sweep_report(self.dir))
        self.assertIn("The seed is not an axis", page)
        table = page[page.index('<table class="sweep">'):page.index("</table>")]
        self.assertEqual(table.count("<tr>"), 7)  # still one row per run

    def test_only_the_seed_varied(self):
        d = make_sweep(os.path.join(self.tmp, "seeds"), keys=("seed",), rows=[
            {"seed": s, "max_queue_bytes": 1000 * s, "flows_total": 1} for s in (1, 2, 3)])
        sweep = dcqcn_sweep_report.read_sweep(d)
        fig, _ = dcqcn_sweep_report.fig_max_queue(sweep)
        np.testing.assert_allclose(fig.axes[0].get_lines()[0].get_ydata(), [2.0])
        self.assertIn("mean over 3 seeds", fig.axes[0].get_title())

    def test_fairness_and_throughput_come_from_sweep_csv(self):
        sweep = dcqcn_sweep_report.read_sweep(self.dir)
        fig, caption = dcqcn_sweep_report.fig_fairness(sweep)
        self.assertIsNotNone(fig, caption)  # no flow finished: still a fairness figure
        jain, tput = fig.axes[0], fig.axes[1]
        # Means over seeds 1-3 of sweep.csv's 1/seed and 2 seed; flows.csv would give 1 and 100.
        np.testing.assert_allclose(jain.get_lines()[0].get_ydata(), [11 / 18, 11 / 18])
        np.testing.assert_allclose(tput.get_lines()[0].get_ydata(), [4.0, 4.0])
        page = read_text(dcqcn_sweep_report.build_sweep_report(self.dir))
        self.assertIn('<td class="v">1.00 / 2.00 / 3.00</td>', page)  # run 000, no finished flow
        self.assertIn('<td class="v">1.000</td>', page)

    def test_per_tag_throughput(self):
        sweep = dcqcn_sweep_report.read_sweep(self.dir)
        self.assertEqual(list(sweep["tags"]), ["victim"])
        fig, caption = dcqcn_sweep_report.fig_tag_throughput(sweep)
        np.testing.assert_allclose(fig.axes[0].get_lines()[0].get_ydata(), [21.0, 21.0])
        self.assertIn("tag.<tag>.flow_throughput_gbps.mean", caption)
        self.assertIn("tag victim", [t.get_text() for t in fig.axes[0].get_legend().get_texts()])
        page = read_text(dcqcn_sweep_report.build_sweep_report(self.dir))
        self.assertIn('src="tag_throughput.png"', page)
        self.assertIn("<th>victim: throughput min / mean / max (Gb/s)</th>", page)

    def test_nulls_are_skipped_not_zero(self):
        d = make_sweep(os.path.join(self.tmp, "nulls"), keys=("workload.senders",), rows=[
            {"workload.senders": 2, "flows_total": 2, "flows_finished": 0, "jain_fairness": 0.5,
             "flow_throughput_gbps.min": 1, "flow_throughput_gbps.mean": 2,
             "flow_throughput_gbps.max": 3},
            {"workload.senders": 4, "flows_total": 4, "flows_finished": 0},
            {"workload.senders": 8, "flows_total": 8, "flows_finished": 0, "jain_fairness": 0.25,
             "flow_throughput_gbps.min": 1, "flow_throughput_gbps.mean": 1.5,
             "flow_throughput_gbps.max": 2,
             "tag.victim.flow_throughput_gbps.min": 5, "tag.victim.flow_throughput_gbps.mean": 5,
             "tag.victim.flow_throughput_gbps.max": 5}])
        sweep = dcqcn_sweep_report.read_sweep(d)
        fig, _ = dcqcn_sweep_report.fig_fairness(sweep)
        self.assertEqual(list(fig.axes[0].get_lines()[0].get_xdata()), [2.0, 8.0])
        fig, _ = dcqcn_sweep_report.fig_tag_throughput(sweep)
        self.assertEqual(list(fig.axes[0].get_lines()[0].get_xdata()), [8.0])
        fig, note = dcqcn_sweep_report.fig_fct(sweep)
        self.assertIsNone(fig)
        self.assertIn("No flow finished", note)
        page = read_text(dcqcn_sweep_report.build_sweep_report(d))
        row = page[page.index('<td>001</td>'):]
        row = row[:row.index("</tr>")]
        self.assertIn('<td class="v na">\u2013</td>', row)
        self.assertNotIn("0.00", row)
        self.assertNotIn("nan", page)


class SweepColumnsTest(unittest.TestCase):
    """The sweep report takes its varied keys from sweep.json and its metrics from sweep.csv's
    header, not from a copy of the simulator's list: a metric the simulator adds (even before
    the ones it writes today) is in the table, one it drops is not, and a third varied key is an
    axis of the figures."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="dcqcn_sweep_columns_")
        # Three --vary keys and --seeds 2; a new metric first and one last, a new per-tag
        # metric, text in a metric column, and no cc.rate_cuts.
        self.metrics = ["events"] + [m for m in SWEEP_METRICS if m != "cc.rate_cuts"] + [
            "pfc_resume_frames", "convergence.status"]
        rows = [{"switch.ecn.kmin": kmin, "workload.senders": n, "cc.algorithm": algo,
                 "seed": seed, "events": 1000 * n + seed, "flows_total": n, "flows_finished": n,
                 "max_queue_bytes": 1000 * n, "pfc_resume_frames": 7 * seed,
                 "convergence.status": "never", "tag.victim.long_flow_throughput_gbps.mean": 2.5,
                 "tag.victim.flow_throughput_gbps.mean": 3}
                for kmin in ("5KB", "40KB") for n in (2, 4) for algo in ("dcqcn", "none")
                for seed in (1, 2)]
        self.dir = make_sweep(
            os.path.join(self.tmp, "sweep"), rows=rows, metrics=self.metrics,
            keys=("switch.ecn.kmin", "workload.senders", "cc.algorithm", "seed"), seeds=2,
            tag_metrics=SWEEP_TAG_METRICS + ["long_flow_throughput_gbps.mean"])

    def tearDown(self):
        plt.close("all")
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_keys_from_sweep_json_and_metrics_from_the_header(self):
        sweep = dcqcn_sweep_report.read_sweep(self.dir)
        self.assertEqual(sweep["keys"],
                         ["switch.ecn.kmin", "workload.senders", "cc.algorithm", "seed"])
        self.assertEqual(sweep["metrics"][:len(self.metrics)], self.metrics)
        self.assertEqual(sweep["metrics"][-1], "tag.victim.long_flow_throughput_gbps.mean")
        self.assertNotIn("error", sweep["metrics"])
        self.assertEqual(sweep["x"].key, "switch.ecn.kmin")
        self.assertEqual((sweep["x"].unit, sweep["x"].positions), ("KB", {"5KB": 5.0,
                                                                          "40KB": 40.0}))
        self.assertEqual(sweep["style_keys"], ["cc.algorithm"])
        self.assertEqual(sweep["seeds"], ["1", "2"])
        self.assertEqual(len(sweep["series"]), 4)  # 2 senders x 2 algorithms
        self.assertIn("long_flow_throughput_gbps.mean", sweep["tags"]["victim"])
        fig, _ = dcqcn_sweep_report.fig_max_queue(sweep)
        self.assertEqual([t.get_text() for t in fig.axes[0].get_legend().get_texts()],
                         ["workload.senders = 2", "workload.senders = 4",
                          "cc.algorithm = dcqcn", "cc.algorithm = none"])

    def test_table_has_every_metric_column(self):
        page = read_text(dcqcn_sweep_report.build_sweep_report(self.dir))
        table = page[page.index('<table class="sweep">'):page.index("</table>")]
        for header in ("switch.ecn.kmin", "workload.senders", "cc.algorithm", "seed", "events",
                       "pfc_resume_frames", "convergence.status", "max queue (KB)",
                       "victim: long_flow_throughput_gbps.mean", "victim: flows finished"):
            self.assertIn(f"<th>{header}</th>", table)
        self.assertNotIn("<th>rate cuts</th>", table)  # sweep.csv has no cc.rate_cuts
        self.assertNotIn("<th>flows_total</th>", table)  # shown in "flows finished"
        self.assertNotIn("<th>events</th><th>events</th>", table)
        row = table[table.index("<td>000</td>"):]
        row = row[:row.index("</tr>")]
        self.assertTrue(row.startswith('<td>000</td><td class="k">5KB</td><td class="k">2</td>'
                                       '<td class="k">dcqcn</td><td class="k">1</td>'), row)
        # flows finished, max queue (KB), events, pfc_resume_frames, convergence.status and the
        # victims' long_flow_throughput_gbps.mean.
        for cell in ("2 of 2", "2.0", "2,001", "7", "never", "2.5"):
            self.assertIn(f'<td class="v">{cell}</td>', row)

    def test_keys_must_match_sweep_json(self):
        meta = json.loads(read_text(os.path.join(self.dir, "sweep.json")))
        meta["vary"] = meta["vary"][1:]  # sweep.json without switch.ecn.kmin
        write_text(os.path.join(self.dir, "sweep.json"), json.dumps(meta))
        with self.assertRaisesRegex(report_common.ReportError,
                                    "expected the varied-key columns workload.senders,"
                                    "cc.algorithm,seed after run,dir, as sweep.json says "
                                    r"\(got switch.ecn.kmin,workload.senders,cc.algorithm\)"):
            dcqcn_sweep_report.read_sweep(self.dir)


class FailedRunSweepTest(unittest.TestCase):
    """A real sweep one of whose runs failed: its row has no folder and an error."""

    def setUp(self):
        require_binary(self)
        self.tmp = tempfile.mkdtemp(prefix="dcqcn_failed_sweep_")
        self.dir = os.path.join(self.tmp, "sweep")
        scenario = os.path.join(self.tmp, "s.toml")
        write_text(scenario, SWEEP_SCENARIO)
        # A buffer too small for the switch fails that run when its network is built (values
        # that fit no run at all stop the sweep before it starts instead).
        sim = run([BINARY, "sweep", scenario, "--vary", "switch.buffer=12MB,1KB", "--out",
                   self.dir, "--quiet"])
        self.assertEqual(sim.returncode, 1, sim.stderr)  # run 001 failed, the sweep finished

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_report_and_runs(self):
        for _ in range(2):  # the second time the sweep's own report exists
            r = run([BINARY, "report", self.dir, "--runs"])
            self.assertEqual(r.returncode, 0, r.stderr)
        page = read_text(os.path.join(self.dir, "report", "index.html"))
        self.assertIn("1 of 2 runs failed (sweep.csv's error column)", page)
        self.assertIn("<li>run 001: ", page)
        self.assertIn("switch.buffer", page)
        self.assertIn('<td><a href="../runs/000/report/index.html"', page)
        self.assertIn("<td>001</td>", page)  # no link: it has no folder
        self.assertIn("The run numbers link to each run's own report.", page)


class SeedSweepTest(unittest.TestCase):
    """A real `dcqcn sweep` over N and the seed, with a tagged victim flow."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="dcqcn_seed_sweep_")
        cls.sweep_dir = os.path.join(cls.tmp, "sweep")
        if not os.path.exists(BINARY):
            return
        scenario = os.path.join(cls.tmp, "s.toml")
        with open(scenario, "w") as f:
            f.write(SWEEP_SCENARIO + '[output]\ntimeseries = ["throughput"]\n'
                    '[[flow]]\nsrc = 8\ndst = 1\nsize = "1MB"\ntag = "victim"\n')
        sim = run([BINARY, "sweep", scenario, "--vary", "workload.senders=2,4",
                   "--vary", "seed=1,2", "--out", cls.sweep_dir, "--quiet"])
        assert sim.returncode == 0, sim.stderr
        cls.result = run([BINARY, "report", cls.sweep_dir, "--runs", "--tags", "victim"])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        require_binary(self)

    def test_report(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        csv = read_text(os.path.join(self.sweep_dir, "sweep.csv"))
        self.assertIn("tag.victim.flow_throughput_gbps.mean", csv)
        page = read_text(os.path.join(self.sweep_dir, "report", "index.html"))
        self.assertIn("mean over the 2 seeds", page)
        self.assertIn('src="tag_throughput.png"', page)
        self.assertIn("x axis is workload.senders", page)
        png_size(os.path.join(self.sweep_dir, "report", "tag_throughput.png"))
        run_page = read_text(os.path.join(self.sweep_dir, "runs", "000", "report",
                                          "index.html"))
        self.assertIn("tagged victim", run_page)  # --tags reached each run's report

    def test_tags_on_a_sweep_need_runs(self):
        r = run([BINARY, "report", self.sweep_dir, "--tags", "victim"])
        self.assertEqual(r.returncode, 1)
        self.assertIn("on a sweep folder they need --runs", r.stderr)


# An AllReduce over every host of a small leaf-spine, twice, tagged dp (not its default tag, so
# that the sweep report must read it from the runs' summaries).
# A ring whose every hop crosses between the two leaves over their one spine link: four flows
# share each direction of it, so its flows are late against their ideal (each alone).
COLLECTIVE_SCENARIO = """name = "collective-test"
duration = "20ms"
[topology]
type = "leaf_spine"
leaves = 2
spines = 1
hosts_per_leaf = 4
link_rate = "100Gbps"
link_delay = "1us"
[[collective]]
op = "allreduce"
size = "2MB"
iterations = 2
ranks = [0, 4, 1, 5, 2, 6, 3, 7]
tag = "dp"
"""


# A 2-stage pipeline of 4 ranks (tp 2) with 3 micro-batches: its timeline shows every rank.
JOB_SCENARIO = """name = "job-test"
duration = "20ms"
[topology]
type = "leaf_spine"
leaves = 2
spines = 1
hosts_per_leaf = 2
link_rate = "100Gbps"
link_delay = "1us"
[[job]]
tp = 2
pp = 2
micro_batches = 3
iterations = 2
pp_size = "64KB"
[[job.layer]]
name = "block"
repeat = 2
forward_compute = "20us"
input_grad_compute = "30us"
weight_grad_compute = "30us"
weight_grad_comm = "allreduce"
weight_grad_size = "256KB"
"""


class JobTimelineReportTest(unittest.TestCase):
    """A run with a training job: the timeline of its last finished iteration, a row per rank,
    its compute tasks drawn as job_timeline.csv gives them."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="dcqcn_job_report_test_")
        cls.run_dir = os.path.join(cls.tmp, "run")
        if not os.path.exists(BINARY):
            return
        scenario = os.path.join(cls.tmp, "s.toml")
        write_text(scenario, JOB_SCENARIO)
        sim = run([BINARY, "run", scenario, "--out", cls.run_dir, "--quiet"])
        assert sim.returncode == 0, sim.stderr

    @classmethod
    def tearDownClass(cls):
        plt.close("all")
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        require_binary(self)

    def test_timeline_draws_each_ranks_compute_of_the_last_iteration(self):
        page = read_text(dcqcn_run_report.build_report(self.run_dir))
        self.assertIn('src="job_timeline.png"', page)
        run_data = dcqcn_run_report.load_run(self.run_dir)
        fig, caption = dcqcn_run_report.fig_job_timeline(run_data)
        ax = fig.axes[0]
        self.assertEqual([t.get_text() for t in ax.get_yticklabels()],
                         ["rank 0 (stage 0)", "rank 1 (stage 0)", "rank 2 (stage 1)",
                          "rank 3 (stage 1)"])
        self.assertIn("Iteration 1", caption)
        tasks = pd.read_csv(os.path.join(self.run_dir, "job_timeline.csv"))
        last = tasks[tasks["iteration"] == 1]
        # One bar per task (by phase), and one grey band per rank.
        bars = sum(len(c.get_paths()) for c in ax.collections)
        self.assertEqual(bars, len(last) + 4)
        # 3 micro-batches x 1 layer per stage x 3 phases per rank.
        self.assertEqual(len(last), 4 * 3 * 3)

    def test_few_ranks_are_spread_over_the_stages(self):
        self.assertEqual(dcqcn_run_report.timeline_ranks(list(range(64)), [r // 16 for r in
                                                                            range(64)]),
                         [0, 1, 2, 3, 16, 17, 18, 19, 32, 33, 34, 35, 48, 49, 50, 51])


class CollectiveReportTest(unittest.TestCase):
    """A run with a collective: its iteration times against the ideal, the late flows of its
    slowest iteration with the busiest link each crossed, and its table; and a sweep of its size,
    its bus bandwidth against the size."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="dcqcn_collective_report_test_")
        cls.run_dir = os.path.join(cls.tmp, "run")
        cls.sweep_dir = os.path.join(cls.tmp, "sweep")
        if not os.path.exists(BINARY):
            return
        scenario = os.path.join(cls.tmp, "s.toml")
        write_text(scenario, COLLECTIVE_SCENARIO)
        sim = run([BINARY, "run", scenario, "--out", cls.run_dir, "--quiet"])
        assert sim.returncode == 0, sim.stderr
        # The size second: the bus bandwidth figure must put it on its x axis all the same.
        sim = run([BINARY, "sweep", scenario, "--vary", "cc.algorithm=dcqcn,none",
                   "--vary", "collective.0.size=1MB,2MB,4MB", "--out", cls.sweep_dir, "--quiet"])
        assert sim.returncode == 0, sim.stderr
        with open(os.path.join(cls.run_dir, "summary.json")) as f:
            cls.collective = json.load(f)["collectives"][0]

    @classmethod
    def tearDownClass(cls):
        plt.close("all")
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        require_binary(self)

    def test_figures_and_table(self):
        page = read_text(dcqcn_run_report.build_report(self.run_dir))
        report = os.path.join(self.run_dir, "report")
        for name in ("collective_iterations", "collective_late_flows"):
            width, height = png_size(os.path.join(report, f"{name}.png"))
            self.assertGreaterEqual(width, 600, name)
            self.assertGreaterEqual(height, 250, name)
            self.assertIn(f'src="{name}.png"', page)
        table = page[page.index('<table class="tags collectives">'):]
        table = table[:table.index("</table>")]
        c = self.collective
        row = table[table.index("<td>dp</td>"):]
        self.assertIn("<td>dp</td><td>allreduce</td><td>ring</td><td class=\"v\">8</td>"
                      '<td class="v">2MB</td><td class="v">2 of 2</td>', row)
        self.assertIn(f'<td class="v">{c["mean"]["busbw_gbps"]:.2f}</td>', row)
        self.assertIn(f'<td class="v">{c["mean"]["slowdown"]:.3f}</td>', row)

    def test_iteration_times_against_the_ideal(self):
        run_data = dcqcn_run_report.load_run(self.run_dir)
        fig, caption = dcqcn_run_report.fig_collective_iterations(run_data)
        ax = fig.axes[0]
        self.assertEqual(ax.get_ylabel(), "iteration time (ms)")  # 2 MB take about 2 ms
        lines = ax.get_lines()
        measured = [ln for ln in lines if ln.get_linestyle() == "-"]
        ideal = [ln for ln in lines if ln.get_linestyle() == "--"]
        self.assertEqual(len(measured), 1)
        np.testing.assert_allclose(measured[0].get_xdata(), [0, 1])
        np.testing.assert_allclose(measured[0].get_ydata(),
                                   [it["time_ns"] / 1e6 for it in self.collective["iterations"]])
        np.testing.assert_allclose(ideal[0].get_ydata(),
                                   [self.collective["ideal_time_ns"] / 1e6] * 2)
        self.assertIn("ideal", caption)

    def test_late_flows_name_their_busiest_link(self):
        run_data = dcqcn_run_report.load_run(self.run_dir)
        fig, caption = dcqcn_run_report.fig_collective_late_flows(run_data)
        self.assertIsNotNone(fig, caption)
        ax = fig.axes[0]
        late = self.collective["slowest_iteration"]["late_flows"]
        np.testing.assert_allclose([p.get_width() for p in ax.patches],
                                   [f["slowdown"] for f in late])
        links = pd.read_csv(os.path.join(self.run_dir, "links.csv"))
        labels = [t.get_text() for t in ax.get_yticklabels()]
        for f, label in zip(late, labels):
            self.assertTrue(label.startswith(f"flow {f['flow_id']} h{f['src']}\u2192h{f['dst']} "
                                             "on "), label)
            # The port of its path that links.csv says sent the largest share of its rate.
            hops = [(h.split(":")[0], int(h.split(":")[1])) for h in f["path"]]
            util = {(n, p): u for n, p, u in zip(links["node"], links["port"],
                                                 links["utilisation"])}
            node, port = max(hops, key=lambda k: util[k])
            self.assertIn(f" on {node} port {port} \u2192 ", label)
            self.assertTrue(label.endswith(f"({100 * util[(node, port)]:.0f}%)"), label)
        k = self.collective["slowest_iteration"]["iteration"]
        self.assertIn(f"slowest iteration {k}", ax.get_title())

    def test_no_late_flow_figure_when_every_flow_is_on_time(self):
        copy = os.path.join(self.tmp, "on_time")
        shutil.copytree(self.run_dir, copy, ignore=shutil.ignore_patterns("report"))
        path = os.path.join(copy, "summary.json")
        summary = json.loads(read_text(path))
        for f in summary["collectives"][0]["slowest_iteration"]["late_flows"]:
            f["slowdown"] = 1.005
        write_text(path, json.dumps(summary))
        page = read_text(dcqcn_run_report.build_report(copy))
        self.assertNotIn('src="collective_late_flows.png"', page)
        self.assertFalse(os.path.exists(os.path.join(copy, "report", "collective_late_flows.png")))
        k = summary["collectives"][0]["slowest_iteration"]["iteration"]
        self.assertIn(f"No late-flow figure: no flow of iteration {k} of dp (its collective&#x27;s "
                      "slowest) took more than 1% longer than its ideal.", page)
        self.assertIn('src="collective_iterations.png"', page)

    def test_bus_bandwidth_against_size(self):
        sweep = dcqcn_sweep_report.read_sweep(self.sweep_dir)
        self.assertEqual(sweep["x"].key, "cc.algorithm")  # the other figures' axis
        self.assertEqual(dcqcn_sweep_report.collective_size_keys(sweep),
                         {"dp": "collective.0.size"})
        fig, caption = dcqcn_sweep_report.fig_collective_busbw(sweep)
        ax = fig.axes[0]
        self.assertEqual(ax.get_xscale(), "log")
        self.assertEqual(ax.get_xlabel(), "collective.0.size (MB), log scale")
        self.assertIn("bus bandwidth (Gb/s)", ax.get_ylabel())
        df = sweep["table"]
        lines = [ln for ln in ax.get_lines() if ln.get_marker() not in (None, "None", "")]
        self.assertEqual(len(lines), 2)  # one per algorithm
        for line, algo in zip(lines, ("dcqcn", "none")):
            rows = df[df["cc.algorithm"] == algo]
            expected = dict(zip(rows["collective.0.size"],
                                rows["collective.dp.mean.busbw_gbps"]))
            np.testing.assert_allclose(line.get_xdata(), [1, 2, 4])
            np.testing.assert_allclose(line.get_ydata(),
                                       [expected[s] for s in ("1MB", "2MB", "4MB")])
        self.assertEqual([t.get_text() for t in ax.get_legend().get_texts()],
                         ["cc.algorithm = dcqcn", "cc.algorithm = none"])
        self.assertIn("in place of the other figures' cc.algorithm", caption)
        page = read_text(dcqcn_sweep_report.build_sweep_report(self.sweep_dir))
        self.assertIn('src="collective_busbw.png"', page)
        table = page[page.index('<table class="sweep">'):page.index("</table>")]
        for header in ("dp: iterations finished", "dp: mean busbw (Gb/s)", "dp: mean slowdown",
                       "dp: mean time (ms)"):
            self.assertIn(f"<th>{header}</th>", table)
        self.assertNotIn("<th>collective.dp.mean.busbw_gbps</th>", table)


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
        self.assertIn("sweep.json: no such file", r.stderr)  # which says the varied keys
        write_text(os.path.join(self.tmp, "sweep.json"), '{"vary": ["workload.senders=2"]}')
        r = run([BINARY, "report", self.tmp])
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("sweep.csv", r.stderr)
        self.assertIn("varied-key columns workload.senders", r.stderr)
        write_text(os.path.join(self.tmp, "sweep.json"), '{"vary": "workload.senders=2"}')
        r = run([BINARY, "report", self.tmp])
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn('sweep.json: expected {"vary": ["KEY=V1,V2,...", ...]', r.stderr)

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


# ---------------------------------------------------------------------------------------------
# `dcqcn fluid` folders, through the real CLI.

# A 4:1 incast at 40 Gb/s with 1 us links: N, C and tau* come from it.
FLUID_SCENARIO = """name = "fluid-report"
[topology]
type = "star"
hosts = 5
[workload]
type = "incast"
senders = 4
size = "1GB"
"""


class FluidReportTest(unittest.TestCase):
    """A short fluid run from a scenario and a tiny map with a third axis, each reported once."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="dcqcn_fluid_report_")
        cls.run_dir = os.path.join(cls.tmp, "run")
        cls.map_dir = os.path.join(cls.tmp, "map")
        if not os.path.exists(BINARY):
            return
        scenario = os.path.join(cls.tmp, "incast.toml")
        write_text(scenario, FLUID_SCENARIO)
        sim = run([BINARY, "fluid", scenario, "--duration", "20ms", "--no-check", "--quiet",
                   "--out", cls.run_dir])
        assert sim.returncode == 0, sim.stderr
        sim = run([BINARY, "fluid", "--map", "--map-flows", "2,10", "--map-delays", "4us,85us",
                   "--map-param", "cc.rai=10Mbps,40Mbps", "--duration", "20ms", "--packet",
                   "1000B", "--jobs", "2", "--quiet", "--out", cls.map_dir])
        assert sim.returncode == 0, sim.stderr
        cls.run_result = run([BINARY, "report", cls.run_dir])
        cls.map_result = run([BINARY, "report", cls.map_dir])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        require_binary(self)

    def summary(self, folder):
        with open(os.path.join(folder, "summary.json")) as f:
            return json.load(f)

    def assert_png(self, path):
        self.assertTrue(os.path.exists(path), f"{path} missing")
        self.assertGreater(os.path.getsize(path), 5_000, f"{path} suspiciously small")
        width, height = png_size(path)
        self.assertGreaterEqual(width, 400, path)
        self.assertGreaterEqual(height, 250, path)

    def test_run_figures(self):
        self.assertEqual(self.run_result.returncode, 0, self.run_result.stderr)
        self.assertIn(os.path.join(self.run_dir, "report", "index.html"), self.run_result.stdout)
        for name in ("fluid_queue", "fluid_rate"):
            self.assert_png(os.path.join(self.run_dir, "report", f"{name}.png"))
        # Not a packet run: none of its figures.
        self.assertFalse(os.path.exists(os.path.join(self.run_dir, "report", "queue.png")))

    def test_run_index_names_verdict_fixed_point_and_origins(self):
        s = self.summary(self.run_dir)
        page = read_text(os.path.join(self.run_dir, "report", "index.html"))
        self.assertIn(s["oscillation"]["verdict"], page)
        self.assertIn(f"{s['fixed_point']['exact']['queue_bytes'] / 1e3:.1f} KB", page)
        self.assertIn("s0 -&gt; h0", page)  # C from the scenario's bottleneck
        self.assertIn("4.475 \u00b5s", page)  # tau* from its path
        self.assertIn('src="fluid_queue.png"', page)

    def test_run_script_output_names_the_verdict(self):
        s = self.summary(self.run_dir)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = dcqcn_report.main([self.run_dir])
        self.assertEqual(code, 0)
        self.assertIn(f"verdict: {s['oscillation']['verdict']}", out.getvalue())
        self.assertIn("fluid_queue, fluid_rate", out.getvalue())

    def test_map_figure_and_table(self):
        self.assertEqual(self.map_result.returncode, 0, self.map_result.stderr)
        self.assert_png(os.path.join(self.map_dir, "report", "fluid_map.png"))
        page = read_text(os.path.join(self.map_dir, "report", "index.html"))
        self.assertIn("cc.rai = 10Mbps, 40Mbps", page)
        self.assertIn("<th>cc.rai</th>", page)  # map.csv's third-axis column in the table
        verdicts = {c["verdict"] for c in self.summary(self.map_dir)["cells"]}
        for v in verdicts:
            self.assertIn(v, page)

    def test_map_script_output_counts_the_verdicts(self):
        cells = self.summary(self.map_dir)["cells"]
        steady = sum(c["verdict"] == "steady" for c in cells)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = dcqcn_report.main([self.map_dir])
        self.assertEqual(code, 0)
        self.assertIn(f"verdicts: {steady} steady", out.getvalue())

    def test_one_panel_per_map_param_value(self):
        s = self.summary(self.map_dir)
        df, key, values = dcqcn_fluid_report.read_fluid_map(self.map_dir, s)
        self.assertEqual((key, values), ("cc.rai", ["10Mbps", "40Mbps"]))
        fig = dcqcn_fluid_report.fig_fluid_map(df, key, values)
        titles = [ax.get_title() for ax in fig.axes if ax.get_visible()]
        plt.close(fig)
        self.assertEqual(titles, ["cc.rai = 10Mbps", "cc.rai = 40Mbps"])

    def test_run_options_are_errors_on_a_fluid_folder(self):
        r = run([BINARY, "report", self.run_dir, "--tags", "incast"])
        self.assertEqual(r.returncode, 1)
        self.assertIn("dcqcn fluid", r.stderr)


if __name__ == "__main__":
    unittest.main()
