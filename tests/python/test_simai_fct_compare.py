"""python/simai_fct_compare.py on hand-made FCT files."""
import gzip
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.environ.get("DCQCN_PYTHON_DIR") or os.path.join(HERE, "..", "..", "python")
sys.path.insert(0, PYTHON_DIR)
import simai_fct_compare  # noqa: E402


def row(src, dst, size, start, fct):
    return f"0b00{src:02x}01 0b00{dst:02x}01 10000 100 {size} {start} {fct} {fct}"


class SimaiFctCompareTest(unittest.TestCase):
    def test_classes_busiest_pair_and_steps(self):
        # Two servers of 2 GPUs: 0 -> 1 inside server 0 (NVLink), 1 -> 2 between the servers.
        simai = [row(0, 1, 9000, 0, 100), row(0, 1, 9000, 100, 300), row(1, 2, 18000, 0, 1000),
                 row(1, 2, 18000, 1500, 1000)]
        ours = [row(0, 1, 9000, 0, 100), row(0, 1, 9000, 100, 100), row(1, 2, 18000, 0, 900),
                row(1, 2, 18000, 1000, 900)]
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, "simai.txt.gz"), os.path.join(d, "ours.txt")
            with gzip.open(a, "wt") as f:
                f.write("\n".join(simai) + "\n")
            with open(b, "w") as f:
                f.write("\n".join(ours) + "\n")
            runs = {"SimAI": simai_fct_compare.read_fct(a), "dcqcn": simai_fct_compare.read_fct(b)}
            lines = simai_fct_compare.compare(runs, gpus_per_server=2, gpu=1, nvlink_gbps=2880)
            self.assertIn("| SimAI | 2 | 200 | 200 | 2 | 1000 | 1000 |", lines)
            self.assertIn("| dcqcn | 2 | 100 | 100 | 2 | 900 | 900 |", lines)
            # 2 x (9000 + 48) B at 2880 Gb/s is 50.3 ns of wire: over 400 ns in SimAI, 200 ours.
            text = "\n".join(lines)
            self.assertIn("Busiest NVLink pair 0 -> 1: 2 transfers", text)
            self.assertIn("SimAI: 0.1 us of wire, from 0 to 400 ns: busy 12.6%", text)
            self.assertIn("dcqcn: 0.1 us of wire, from 0 to 200 ns: busy 25.1%", text)
            self.assertIn("| 1 | 1500 | 1000 | 500 | 2500 | 1900 | 600 |", lines)
            # A short line is an error naming the file and line.
            bad = os.path.join(d, "bad.txt")
            with open(bad, "w") as f:
                f.write(ours[0] + "\n0b000001 0b000101 1\n")
            r = subprocess.run([sys.executable, os.path.join(PYTHON_DIR, "simai_fct_compare.py"),
                                a, bad], capture_output=True, text=True)
            self.assertEqual(r.returncode, 1)
            self.assertIn("bad.txt:2: expected at least 7 fields, got 3", r.stderr)

    def test_ack_gaps(self):
        # 1 -> 2 starts 10 ns after the ACK of 0 -> 1 (at 100); 2 -> 3 starts 5 ns before the ACK
        # of 1 -> 2 (at 160), the nearest into GPU 2; 0 -> 1 has none into GPU 0.
        rows = [(0, 1, 9000, 0, 100), (1, 2, 9000, 110, 50), (2, 3, 9000, 155, 10)]
        self.assertEqual(simai_fct_compare.ack_gaps(rows), {10: 1, -5: 1})

    def test_critical_chain(self):
        # Servers of 2 GPUs. GPU 0's last transfer between servers (0 -> 2 at 500) waited for
        # 1 -> 0, whose ACK came last before it (at 490; 3 -> 0's at 300 came earlier), which
        # waited for 2 -> 1 (ACK at 280); what came into GPU 2 ended more than 100 ns before
        # 2 -> 1 started (0 -> 2's first, at 50).
        rows = [(2, 1, 9000, 200, 80), (1, 0, 9000, 290, 200), (3, 0, 9000, 100, 200),
                (0, 2, 9000, 500, 1000), (0, 2, 9000, 0, 50)]
        self.assertEqual(simai_fct_compare.critical_chain(rows, gpu=0, gpus_per_server=2),
                         [(2, 1, 9000, 200, 80), (1, 0, 9000, 290, 200), (0, 2, 9000, 500, 1000)])
        lines = simai_fct_compare.compare({"SimAI": rows, "dcqcn": rows}, gpus_per_server=2)
        self.assertIn("  SimAI: 3 transfers from 200 to 1500 ns: 1 NVLink (200 ns on average), "
                      "2 between servers (540 ns on average)", lines)
        self.assertEqual(simai_fct_compare.critical_chain(rows, gpu=1, gpus_per_server=2), [])

    def test_flows_csv_and_replay(self):
        # Our flows.csv reads as an FCT file's rows; a bad row names the file and line.
        with tempfile.TemporaryDirectory() as d:
            flows = os.path.join(d, "flows.csv")
            with open(flows, "w") as f:
                f.write("flow_id,src,dst,size_bytes,start_ns,fct_ns,tag\n0,1,2,18000,5,900,x\n")
            self.assertEqual(simai_fct_compare.read_fct(flows), [(1, 2, 18000, 5, 900)])
            with open(flows, "a") as f:
                f.write("1,1,2,,5,900,x\n")
            r = subprocess.run([sys.executable, os.path.join(PYTHON_DIR, "simai_fct_compare.py"),
                                flows, flows], capture_output=True, text=True)
            self.assertEqual(r.returncode, 1)
            self.assertIn("flows.csv:3: expected flows.csv's src", r.stderr)
        # The replay keeps the fabric, drops the job (and its layers), and sends SimAI's
        # transfers at its starts, with their dport, in start order.
        resolved = ('name = "x"\n[topology]\ntype = "simai_file"\n[[job]]\nname = "job0"\n'
                    '[[job.layer]]\nname = "l"\n[output]\ninterval = "10us"\n')
        rows = [(1, 2, 18000, 1500, 1000, 100), (0, 1, 9000, 0, 100, 100)]
        text = simai_fct_compare.replay_scenario(rows, resolved)
        self.assertNotIn("job", text)
        self.assertIn('[topology]\ntype = "simai_file"', text)
        self.assertIn('[output]\ninterval = "10us"', text)
        first = text.index('[[flow]]\nsrc = 0\ndst = 1\nsize = "9000B"\nstart = "0ns"\ndport = 100')
        self.assertLess(first, text.index('src = 1\ndst = 2\nsize = "18000B"\nstart = "1500ns"'))


if __name__ == "__main__":
    unittest.main()
