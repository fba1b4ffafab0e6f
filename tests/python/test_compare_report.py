"""python/compare_report.py (examples/compare's figure and table) on hand-made run folders: the
table's numbers come from each run's summary.json, the figure and CSV are written, labels are
the folder names, and bad input is a clear error with exit code 1. From tests/python:

    /usr/bin/python3 -m unittest -v test_compare_report
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

import compare_report  # noqa: E402


def bucket(count, p50, p95, p99, min_bytes=0):
    return {"count": count, "p50": p50, "p95": p95, "p99": p99, "max": p99,
            "min_bytes": min_bytes}


class CompareReportTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="dcqcn_compare_test_")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def run_folder(self, name, buckets, finished=10):
        path = os.path.join(self.dir, name)
        os.makedirs(path)
        with open(os.path.join(path, "summary.json"), "w") as f:
            json.dump({"flows_finished": finished, "fct_slowdown_by_size": buckets,
                       "max_queue_bytes": 1500000, "pfc_pause_frames": 7, "drops": 0}, f)
        return path

    def main(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = compare_report.main(list(args))
        return code, out.getvalue(), err.getvalue()

    def test_table_figure_and_csv_from_each_summary(self):
        # Buckets by name are not in size order: the table puts them in size order.
        a = self.run_folder("dcqcn", {">= 1 MB": bucket(4, 1.5, 3.0, 5.0, 1000000),
                                      "< 10 KB": bucket(6, 1.0, 2.5, 4.25)})
        b = self.run_folder("hpcc", {"< 10 KB": bucket(6, 1.0, 1.125, 1.5),
                                     ">= 1 MB": bucket(0, None, None, None, 1000000)},
                            finished=6)
        out = os.path.join(self.dir, "out")
        code, printed, err = self.main(out, a, b)
        self.assertEqual(code, 0, err)
        self.assertIn("| dcqcn | 10 | < 10 KB | 6 | 1.000 | 2.500 | 4.250 |", printed)
        self.assertIn("| hpcc | 6 | 1.50 | 7 | 0 |", printed)
        self.assertIn("| hpcc | 6 | >= 1 MB | 0 | - | - | - |", printed)
        self.assertLess(printed.index("| dcqcn | 10 | < 10 KB"), printed.index("| dcqcn | 10 | >= 1 MB"))
        with open(os.path.join(out, "compare.md")) as f:
            self.assertEqual(f.read(), printed)
        with open(os.path.join(out, "compare.csv")) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[0], "run,bucket,count,p50,p95,p99")
        self.assertIn("hpcc,< 10 KB,6,1.0,1.125,1.5", lines)
        self.assertGreater(os.path.getsize(os.path.join(out, "fct_slowdown_by_size.png")), 1000)

    def test_bad_input_is_exit_one_naming_the_file(self):
        missing = os.path.join(self.dir, "missing")
        code, _, err = self.main(os.path.join(self.dir, "out"), missing)
        self.assertEqual(code, 1)
        self.assertIn(os.path.join(missing, "summary.json"), err)
        empty = self.run_folder("empty", {})
        code, _, err = self.main(os.path.join(self.dir, "out"), empty)
        self.assertEqual(code, 1)
        self.assertIn("no fct_slowdown_by_size", err)
        a = self.run_folder("x", {"< 10 KB": bucket(1, 1, 1, 1)})
        code, _, err = self.main(os.path.join(self.dir, "out"), a, a)
        self.assertEqual(code, 1)
        self.assertIn("same folder name", err)
        code, _, err = self.main(os.path.join(self.dir, "out"), a, "--format", "gif")
        self.assertEqual(code, 2)


if __name__ == "__main__":
    unittest.main()
