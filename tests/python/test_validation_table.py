"""python/validation_table.py on hand-made FCT files."""
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get("DCQCN_PYTHON_DIR") or os.path.join(HERE, "..", "..", "python"))
import doc_tables  # noqa: E402
import validation_table  # noqa: E402


def write(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


class ValidationTableTest(unittest.TestCase):
    def test_incast_rows_and_buckets(self):
        with tempfile.TemporaryDirectory() as d:
            ours, ref = os.path.join(d, "ours"), os.path.join(d, "ref")
            os.makedirs(ours)
            os.makedirs(ref)
            write(os.path.join(ref, validation_table.INCAST),
                  ["0b000201 0b000101 10000 100 200000000 2000000000 34000000 17000000"])
            write(os.path.join(ours, validation_table.INCAST),
                  ["0b000201 0b000101 10000 100 200000000 2000000000 35700000 17000000"])
            # Two 1 KB flows (slowdown 2 and 4 in the reference, 2 and 2 ours).
            write(os.path.join(ref, "fct_case.txt"),
                  ["0b000201 0b000101 10000 100 1000 2000000000 2000 1000",
                   "0b000301 0b000101 10000 100 1000 2000000000 4000 1000"])
            write(os.path.join(ours, "fct_case.txt"),
                  ["0b000201 0b000101 10000 100 1000 2000000000 2000 1000",
                   "0b000301 0b000101 10000 100 1000 2000000000 2000 1000"])
            text = validation_table.table(ours, ref)
            self.assertIn("| 2:1 incast | h2 -> h1 | FCT (ns) | 34,000,000 | 35,700,000 | +5.0% |",
                          text)
            self.assertIn("| 2:1 incast | h2 -> h1 | standalone (ns) | 17,000,000 | 17,000,000 "
                          "| +0.0% |", text)
            # p50 of [2, 4] is 3 (linear interpolation); ours 2.
            self.assertIn("| case | < 10 KB (2 flows) | slowdown p50 | 3.000 | 2.000 | -33.3% |", text)
            self.assertNotIn(">= 1 MB", text)  # an empty bucket has no row

    def test_update_replaces_the_block(self):
        with tempfile.TemporaryDirectory() as d:
            doc = os.path.join(d, "v.md")
            write(doc, ["intro", "<!-- table:validation -->", "old", "<!-- /table:validation -->",
                        "outro"])
            doc_tables.replace_block(doc, "validation", "| new |\n")
            with open(doc) as f:
                self.assertEqual(f.read(), "intro\n<!-- table:validation -->\n| new |\n"
                                           "<!-- /table:validation -->\noutro\n")


if __name__ == "__main__":
    unittest.main()
