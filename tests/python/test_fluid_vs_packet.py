"""python/fluid_vs_packet.py (the packet-vs-fluid table of docs/fluid.md) on hand-made result
folders: what each column is read from, the mean over seeds, the relative difference and its
flag, a fluid run without a fixed point, the row order, cases that are skipped, and the
replacement of the doc's table block. Needs only pandas; from tests/python:

    /usr/bin/python3 -m unittest -v test_fluid_vs_packet
"""

import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.environ.get("DCQCN_PYTHON_DIR") or os.path.join(HERE, "..", "..", "python")
sys.path.insert(0, PYTHON_DIR)

import fluid_vs_packet  # noqa: E402


def fluid_summary(flows, delay_ns, kmax, pmax, q_mean, q_p2p, rc_mean, qstar, verdict="steady",
                  util=1.0):
    return {
        "flows": flows, "delay_ns": delay_ns, "utilisation": util,
        "parameters": {"kmin_bytes": 5000, "kmax_bytes": kmax, "pmax": pmax},
        "fixed_point": {"exact": {"queue_bytes": qstar, "p": 0.006}},
        "queue_bytes": {"mean": q_mean, "peak_to_peak": q_p2p},
        "rc_gbps_mean_of_flows": {"mean": rc_mean},
        "oscillation": {"verdict": verdict},
    }


def packet_summary(mean_q, std_q, util, rate):
    return {
        "bottleneck": {"mean_queue_bytes": mean_q, "std_queue_bytes": std_q, "utilisation": util},
        "flow_throughput_gbps": {"mean": rate},
    }


def write(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(obj, f)


class FluidVsPacketTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="fvp-test-")
        d = self.dir
        # N = 10 at 4 us, 200 KB / 1%: two seeds (a sweep), 40% below the fluid model.
        write(f"{d}/n10-4us-200KB/fluid/summary.json",
              fluid_summary(10, 4000.0, 200000, 0.01, 130000.0, 3000.0, 4.0, 130300.0))
        write(f"{d}/n10-4us-200KB/packet/runs/000/summary.json",
              packet_summary(70000.0, 60000.0, 0.99, 3.5))
        write(f"{d}/n10-4us-200KB/packet/runs/001/summary.json",
              packet_summary(86000.0, 70000.0, 0.98, 3.6))
        # N = 2 at 4 us: a single run (packet/summary.json), 10% below.
        write(f"{d}/n2-4us-200KB/fluid/summary.json",
              fluid_summary(2, 4000.0, 200000, 0.01, 20000.0, 500.0, 20.0, 20200.0))
        write(f"{d}/n2-4us-200KB/packet/summary.json",
              packet_summary(18000.0, 19000.0, 0.995, 17.7))
        # N = 64 at 85 us: no fixed point on the curve, oscillating, 30% above.
        write(f"{d}/n64-85us-200KB/fluid/summary.json",
              fluid_summary(64, 85000.0, 200000, 0.01, 100000.0, 400000.0, 0.54, None,
                            "oscillating", 0.865))
        write(f"{d}/n64-85us-200KB/packet/runs/000/summary.json",
              packet_summary(130000.0, 140000.0, 0.8, 0.46))
        # The other curve sorts after the first.
        write(f"{d}/n2-4us-2000KB/fluid/summary.json",
              fluid_summary(2, 4000.0, 2000000, 0.1, 21000.0, 700.0, 20.0, 21500.0))
        write(f"{d}/n2-4us-2000KB/packet/runs/000/summary.json",
              packet_summary(21000.0, 20000.0, 0.995, 17.8))
        # Skipped: no packet result; no fluid result; a stray file.
        write(f"{d}/n99-no-packet/fluid/summary.json",
              fluid_summary(99, 4000.0, 200000, 0.01, 1.0, 1.0, 1.0, 1.0))
        write(f"{d}/n98-no-fluid/packet/runs/000/summary.json", packet_summary(1.0, 1.0, 1.0, 1.0))
        with open(f"{d}/table.md", "w") as f:
            f.write("old\n")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_collect_reads_and_averages(self):
        df = fluid_vs_packet.collect(self.dir)
        self.assertEqual(list(zip(df.flows, df.delay_us, df.kmax_kb)),
                         [(2, 4.0, 200.0), (10, 4.0, 200.0), (64, 85.0, 200.0), (2, 4.0, 2000.0)])
        r = df.iloc[1]
        self.assertEqual(r.seeds, 2)
        self.assertAlmostEqual(r.packet_q_mean_kb, 78.0)
        self.assertAlmostEqual(r.packet_q_std_kb, 65.0)
        self.assertAlmostEqual(r.packet_util, 0.985)
        self.assertAlmostEqual(r.packet_rate_gbps, 3.55)
        self.assertAlmostEqual(r.fluid_q_mean_kb, 130.0)
        self.assertAlmostEqual(r.fluid_q_p2p_kb, 3.0)
        self.assertAlmostEqual(r.fluid_qstar_kb, 130.3)
        self.assertAlmostEqual(r.queue_diff, (78.0 - 130.0) / 130.0)
        self.assertEqual(df.iloc[0].seeds, 1)
        self.assertAlmostEqual(df.iloc[0].queue_diff, -0.1)

    def test_markdown(self):
        table = fluid_vs_packet.markdown(fluid_vs_packet.collect(self.dir))
        lines = table.splitlines()
        self.assertEqual(len(lines), 2 + 4)
        ncols = len(fluid_vs_packet.COLUMNS)
        for line in lines:
            self.assertEqual(line.count("|"), ncols + 1, line)
        self.assertEqual(
            lines[3],
            "| 10 | 4 us | 5 KB / 200 KB / 1% | 130.3 | 130.0 | 3.0 | steady | 78.0 | 65.0 "
            "| 100.0 / 98.5 | 4.000 / 3.550 | **-40%** |")
        self.assertIn("| 2 | 4 us | 5 KB / 200 KB / 1% |", lines[2])
        self.assertTrue(lines[2].endswith("| -10% |"), lines[2])
        self.assertIn("| 64 | 85 us | 5 KB / 200 KB / 1% | none | 100.0 | 400.0 | oscillating |",
                      lines[4])
        self.assertTrue(lines[4].endswith("| 86.5 / 80.0 | 0.540 / 0.460 | **+30%** |"), lines[4])
        self.assertIn("| 5 KB / 2000 KB / 10% |", lines[5])

    def test_main_writes_table_and_updates_doc(self):
        doc = os.path.join(self.dir, "fluid.md")
        with open(doc, "w") as f:
            f.write("# Fluid\n\nbefore\n\n<!-- table:fluid-vs-packet -->\n| old |\n"
                    "<!-- /table:fluid-vs-packet -->\n\nafter\n")
        out = os.path.join(self.dir, "table.md")
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            rc = fluid_vs_packet.main([self.dir, "--out", out, "--update-docs", doc])
        self.assertEqual(rc, 0)
        with open(out) as f:
            table = f.read()
        self.assertEqual(stdout.getvalue(), table)
        with open(doc) as f:
            text = f.read()
        self.assertEqual(text, "# Fluid\n\nbefore\n\n<!-- table:fluid-vs-packet -->\n" + table +
                         "<!-- /table:fluid-vs-packet -->\n\nafter\n")
        self.assertIn("updated", stderr.getvalue())
        # A second update changes nothing.
        self.assertFalse(fluid_vs_packet.update_doc(doc, table))

    def test_doc_without_block_and_empty_folder_fail(self):
        doc = os.path.join(self.dir, "plain.md")
        with open(doc, "w") as f:
            f.write("# no block\n")
        with self.assertRaises(SystemExit):
            fluid_vs_packet.update_doc(doc, "| x |\n")
        empty = os.path.join(self.dir, "empty")
        os.makedirs(empty)
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(fluid_vs_packet.main([empty]), 1)
            self.assertEqual(fluid_vs_packet.main([os.path.join(self.dir, "missing")]), 1)


if __name__ == "__main__":
    unittest.main()
