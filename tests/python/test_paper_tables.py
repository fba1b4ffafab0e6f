"""python/paper_tables.py (the tables of docs/paper.md) on hand-made output folders: the doc's
commands and their rewriting, each table read from summary.json / sweep.csv / flows.csv with
null metrics, the figures' run selection, and the update / check of the doc's table blocks.
Needs only pandas and runs in well under a second; from tests/python:

    /usr/bin/python3 -m unittest -v test_paper_tables
"""

import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.environ.get("DCQCN_PYTHON_DIR") or os.path.join(HERE, "..", "..", "python")
sys.path.insert(0, PYTHON_DIR)

import paper_tables  # noqa: E402

DOC = textwrap.dedent("""\
    # Title

        scripts/reproduce-paper.sh --update-docs

    Buffer:

        dcqcn buffer --ports 32 --headroom 22.4KB

    <!-- table:buffer -->
    ```
    old output
    dcqcn buffer --not-a-command
    ```
    <!-- /table:buffer -->

        dcqcn buffer --cable 110m

    Prose mentioning `dcqcn run x.toml` inline is not a command.

        dcqcn run examples/paper/pfc_unfairness.toml --set cc.algorithm=none \\
            --out results/paper/unfairness-pfc
        dcqcn sweep examples/paper/victim_flow.toml --vary workload.senders=2,16 \\
            --vary cc.algorithm=none,dcqcn --out results/paper/victim

    <!-- table:victim -->
    | stale |
    <!-- /table:victim -->

    ![victim](figures/victim_pfc_throughput.png)
    """)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def write_json(path, value):
    write(path, json.dumps(value))


class PaperTablesTest(unittest.TestCase):
    def setUp(self):
        self.out = tempfile.mkdtemp(prefix="paper_tables_")

    def tearDown(self):
        shutil.rmtree(self.out)

    def victim_sweep(self):
        header = ("run,dir,workload.senders,cc.algorithm,pfc_pause_frames,"
                  "tag.incast.flow_throughput_gbps.mean,tag.victim.flow_throughput_gbps.mean\n")
        rows = ["0,runs/000,2,none,100,18.41,18.37", "1,runs/001,2,dcqcn,0,14.5,15.82",
                "2,runs/002,8,none,1000,4.6,4.64", "3,runs/003,8,dcqcn,0,4.18,12.26",
                "4,runs/004,16,none,1234,2.3,2.33", "5,runs/005,16,dcqcn,20,,11.79"]
        write(os.path.join(self.out, "victim", "sweep.csv"), header + "\n".join(rows) + "\n")

    def test_commands_are_the_code_blocks_rewritten_under_out(self):
        commands = paper_tables.doc_commands(DOC)
        self.assertEqual(len(commands), 4)  # not the script, the table's content or the prose
        self.assertEqual(commands[0], "dcqcn buffer --ports 32 --headroom 22.4KB")
        self.assertEqual(commands[2], "dcqcn run examples/paper/pfc_unfairness.toml --set "
                         "cc.algorithm=none --out results/paper/unfairness-pfc")
        capture, args = paper_tables.rewrite(commands[3], "/o", jobs=2)
        self.assertEqual(args[-4:], ["--out", "/o/victim", "--jobs", "2"])
        self.assertEqual(capture, "/o/logs/victim.log")
        self.assertEqual(paper_tables.rewrite(commands[1], "/o", 1, index=2)[0], "/o/buffer/2.txt")
        with self.assertRaises(paper_tables.InputError):  # results must go under OUT
            paper_tables.rewrite("dcqcn run x.toml --out elsewhere", "/o", 1)

    def test_commands_subcommand_numbers_the_buffer_outputs(self):
        doc = os.path.join(self.out, "paper.md")
        write(doc, DOC)
        stdout = io.StringIO()
        with contextlib.redirect_stdout(stdout):
            self.assertEqual(paper_tables.main(["commands", doc, "/o"]), 0)
        lines = [line.split("\t") for line in stdout.getvalue().splitlines()]
        self.assertEqual([c for c, _ in lines][:2], ["/o/buffer/1.txt", "/o/buffer/2.txt"])
        self.assertEqual(lines[3][1], "sweep examples/paper/victim_flow.toml --vary "
                         "workload.senders=2,16 --vary cc.algorithm=none,dcqcn --out /o/victim "
                         "--jobs 1")

    def test_victim_table_reads_the_tag_columns(self):
        self.victim_sweep()
        table = paper_tables.table_victim(self.out)
        lines = table.splitlines()
        self.assertEqual(lines[0], "| incast senders | 2 | 8 | 16 |")  # numeric order
        self.assertIn("| victim (Gb/s), PFC alone | 18.37 | 4.64 | 2.33 |", lines)
        self.assertIn("| victim (Gb/s), DCQCN | 15.82 | 12.26 | 11.79 |", lines)
        self.assertIn("| each incast flow, mean (Gb/s), DCQCN | 14.50 | 4.18 | n/a |", lines)
        self.assertIn("| PAUSE frames, PFC alone | 100 | 1,000 | 1,234 |", lines)

    def test_unfairness_table_reads_flows_and_summary(self):
        for name, jain, pauses in (("unfairness-pfc", 0.75, 19504),
                                   ("unfairness-dcqcn", None, 0)):
            d = os.path.join(self.out, name)
            write(os.path.join(d, "flows.csv"),
                  "flow_id,src,dst,priority,size_bytes,start_ns,finish_ns,fct_ns,ideal_fct_ns,"
                  "slowdown,delivered_bytes,avg_gbps,tag\n"
                  "1,2,0,3,1000,0,,,10,,500,6.1,\n0,1,0,3,1000,0,,,10,,500,18.4,\n")
            write_json(os.path.join(d, "summary.json"),
                       {"flow_throughput_gbps": {"count": 2, "mean": 12.25},
                        "jain_fairness": jain, "pfc_pause_frames": pauses})
        lines = paper_tables.table_unfairness(self.out).splitlines()
        self.assertEqual(lines[0], "| Gb/s | H1 | H2 | mean | Jain fairness | PAUSE frames |")
        self.assertEqual(lines[2], "| PFC alone | 18.40 | 6.10 | 12.25 | 0.750 | 19,504 |")
        self.assertEqual(lines[3], "| DCQCN | 18.40 | 6.10 | 12.25 | n/a | 0 |")

    def test_sensitivity_gives_the_reason_when_not_converged(self):
        for name, key, values in (("sens-ecn", None, None), ("sens-kmin", "switch.ecn.kmin",
                                                             ["5KB", "20KB"]),
                                  ("sens-g", "cc.g", ["0.00390625"]),
                                  ("sens-timer", "cc.timer", ["55us"]),
                                  ("sens-rai", "cc.rai", ["40Mbps"])):
            d = os.path.join(self.out, name)
            keys = ["switch.ecn.kmax", "switch.ecn.pmax"] if key is None else [key]
            combos = [["200KB", "0.01"]] if key is None else [[v] for v in values]
            lines = ["run,dir," + ",".join(keys) + ",bottleneck.mean_queue_bytes,"
                     "bottleneck.std_queue_bytes,bottleneck.utilisation,jain_fairness,"
                     "convergence_time_ns"]
            for i, combo in enumerate(combos):
                conv = "" if combo == ["20KB"] else "33300000"
                lines.append(f"{i},runs/{i:03},{','.join(combo)},19201.3,30329.1,0.9199,"
                             f"0.998,{conv}")
                write_json(os.path.join(d, f"runs/{i:03}", "summary.json"), {"convergence": {
                    "status": "not converged: the last window of the period is not fair"}})
            write(os.path.join(d, "sweep.csv"), "\n".join(lines) + "\n")
        table = paper_tables.table_sensitivity(self.out).splitlines()
        self.assertIn("| Kmax / Pmax | 200KB / 1% (paper) | 19.2 | 30.3 | 92.0% | 0.998 | 33.3 |",
                      table)
        self.assertIn("|  | 20KB | 19.2 | 30.3 | 92.0% | 0.998 | no: last window unfair |", table)
        self.assertIn("| g | 1/256 (paper) | 19.2 | 30.3 | 92.0% | 0.998 | 33.3 |", table)

    def test_convergence_phases_follow_the_flows(self):
        d = os.path.join(self.out, "convergence")
        write(os.path.join(d, "flows.csv"),
              "flow_id,src,dst,start_ns,finish_ns,avg_gbps,tag\n"
              "0,1,0,0,6000000,10,\n1,2,0,0,,10,\n2,3,0,2000000,,10,\n")
        write_json(os.path.join(d, "summary.json"), {"sim_time_ns": 10000000})
        samples = ["time_ns,flow_id,gbps"]
        for t in range(1, 11):
            for f in range(3):
                if (f == 0 and t > 6) or (f == 2 and t <= 2):
                    continue
                samples.append(f"{t * 1000000},{f},{t + f}")
        write(os.path.join(d, "timeseries", "throughput.csv"), "\n".join(samples) + "\n")
        lines = paper_tables.table_convergence_phases(self.out).splitlines()
        # Phases 0-2, 2-6, 6-10 ms; each flow's mean over the samples in (end - 2 ms, end].
        self.assertEqual(lines[2], "| 0.0-2.0 | 2 | 18.42 | 1.50 | 2.50 |  |")
        self.assertEqual(lines[3], "| 2.0-6.0 | 3 | 12.28 | 5.50 | 6.50 | 7.50 |")
        self.assertEqual(lines[4], "| 6.0-10.0 | 2 | 18.42 |  | 10.50 | 11.50 |")

    def test_cnp_limit_reads_first_cuts_and_paused_share(self):
        # Two senders, 1 ms runs; every generator setting has the same files but for the first.
        d = os.path.join(self.out, "cnp-limit")
        lines = ["run,dir,workload.senders,cc.cnp_service_time,cnps,max_queue_bytes,"
                 "pfc_pause_frames,bottleneck.utilisation"]
        for i, key in enumerate(paper_tables.CNP_GENERATORS):
            run = os.path.join(d, f"runs/{i:03}")
            pauses = 3 if i == 0 else 0
            lines.append(f"{i},runs/{i:03},2,{key},1198,2700000,{pauses},0.429")
            write_json(os.path.join(run, "summary.json"),
                       {"active_start_ns": 1000, "sim_time_ns": 1001000})
            # Flow 0 is first cut at 31 us (after the start); flow 1 at 41 us, or never in run 1.
            rates = ["time_ns,flow_id,rc_gbps,rt_gbps,alpha"]
            for t in range(2000, 60000, 10000):
                rates.append(f"{t},0,{40 if t < 32000 else 20},40,1")
                rates.append(f"{t},1,{40 if t < 42000 or i == 1 else 20},40,1")
            write(os.path.join(run, "timeseries", "rate.csv"), "\n".join(rates) + "\n")
            # h1 paused 0.1-0.3 ms (a refresh in between), h2 from 0.5 ms to the end; the
            # switch's own pause (s0) does not count.
            write(os.path.join(run, "timeseries", "pfc.csv"),
                  "time_ns,node,port,priority,paused\n101000,h1,0,3,1\n201000,h1,0,3,1\n"
                  "301000,h1,0,3,0\n501000,h2,0,3,1\n600000,s0,1,3,1\n")
        write(os.path.join(d, "sweep.csv"), "\n".join(lines) + "\n")
        table = paper_tables.table_cnp_limit(self.out).splitlines()
        self.assertEqual(len(table), 2 + len(paper_tables.CNP_GENERATORS))
        # Paused: 0.2 ms + 0.5 ms of 2 x 1 ms.
        self.assertEqual(table[2], "| 2 | unlimited | 41 | 1,198 | 2.70 | 3 | 0.60 | 35.0% | "
                                   "42.9% |")
        self.assertEqual(table[3].split(" | ")[2], "never")

    def test_figures_pick_the_sweep_run(self):
        self.victim_sweep()
        [(d, figure, name)] = paper_tables.figure_sources(DOC, self.out)
        self.assertEqual((d, figure, name), (os.path.join(self.out, "victim", "runs/002"),
                                             "throughput", "victim_pfc_throughput.png"))
        with self.assertRaises(paper_tables.InputError):
            paper_tables.figure_sources("![x](figures/unknown.png)", self.out)

    def test_update_then_check(self):
        tables = {name: f"| {name} |\n" for name in paper_tables.TABLES}
        doc = "intro\n" + "".join(f"<!-- table:{n} -->\nold\n<!-- /table:{n} -->\n"
                                  for n in tables)
        problems = paper_tables.differences(doc, tables)
        self.assertEqual(len(problems), len(tables))
        self.assertTrue(problems[0].endswith("differs from the generated table"))
        new = paper_tables.update(doc, tables)
        self.assertEqual(paper_tables.differences(new, tables), [])
        self.assertIn("<!-- table:victim -->\n| victim |\n<!-- /table:victim -->", new)
        # A table the doc lacks, and a block nothing generates, are both named.
        partial = new.replace("<!-- table:victim -->\n| victim |\n<!-- /table:victim -->\n", "")
        partial += "<!-- table:extra -->\nx\n<!-- /table:extra -->\n"
        self.assertEqual(sorted(paper_tables.differences(partial, tables)),
                         ["extra: in the doc, but no such table is generated",
                          "victim: generated, but the doc has no <!-- table:victim --> block"])

    def test_check_command_exits_1_naming_the_table(self):
        tables_dir = os.path.join(self.out, "tables")
        for name in paper_tables.TABLES:
            write(os.path.join(tables_dir, name + ".md"), f"| {name} |\n")
        doc = os.path.join(self.out, "paper.md")
        write(doc, "".join(f"<!-- table:{n} -->\n| {n} |\n<!-- /table:{n} -->\n"
                           for n in paper_tables.TABLES))
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(paper_tables.main(["check", doc, self.out]), 0)
        write(os.path.join(tables_dir, "victim.md"), "| new |\n")
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr):
            self.assertEqual(paper_tables.main(["check", doc, self.out]), 1)
        self.assertIn("table victim: differs", stderr.getvalue())

    def test_missing_run_folder_names_the_command(self):
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(paper_tables.main(["tables", self.out]), 1)
        self.assertIn("missing", stderr.getvalue())


if __name__ == "__main__":
    unittest.main()
