#!/usr/bin/python3
"""`dcqcn report DIR`: figures and one index.html for a run, sweep or fluid-model output folder,
written to DIR/report/. The one command line of the reports: `dcqcn report` runs this script as
`python3 dcqcn_report.py --quiet [--runs] [--format=LIST] [--flows=IDS] [--tags=TAGS] -- DIR`
(src/app/report_command.cc), and it runs on its own with the same options (--help).

It only reads the options and picks the report for the folder:
- a run folder (summary.json): dcqcn_run_report.py;
- a sweep folder (sweep.csv and no summary.json): dcqcn_sweep_report.py, which with --runs also
  reports each run (DIR/runs/NNN/) through the run report this script hands it;
- a `dcqcn fluid` folder (summary.json, timeseries/fluid.csv) or a `dcqcn fluid --map` folder
  (summary.json, map.csv): dcqcn_fluid_report.py.
Those modules share dcqcn/_report_common.py (figures, page, reading) and dcqcn/units.py (the
unit parser), which load without the package's compiled extension, and never import one another. Exit codes follow the dcqcn CLI: 0 ok, 1 bad input, 2 bad
usage, 3 a bug in the report.

Needs Debian's python3-matplotlib, python3-numpy and python3-pandas (scripts/setup.sh).
"""

import argparse
import functools
import os
import sys

# First: it sets the Agg backend, and says what to install when matplotlib is missing.
from dcqcn._report_common import ReportError, parse_formats, run_cli

import dcqcn_fluid_report
import dcqcn_run_report
import dcqcn_sweep_report


def parse_flow_ids(text):
    """[0, 3, 7] from "0,3,7" (the --flows option)."""
    try:
        ids = [int(x) for x in str(text).split(",") if x.strip()]
    except ValueError:
        ids = []
    if not ids or min(ids) < 0:
        raise ReportError(f"--flows {text}: expected flow ids such as 0,3,7")
    return list(dict.fromkeys(ids))


def parse_tags(text):
    """["victim", "incast"] from "victim,incast" (the --tags option)."""
    tags = [t.strip() for t in str(text).split(",") if t.strip()]
    if not tags:
        raise ReportError(f"--tags {text}: expected tags such as victim,incast")
    return list(dict.fromkeys(tags))


def add_options(parser):
    """The options `dcqcn report` passes on."""
    parser.add_argument("--runs", action="store_true",
                        help="for a sweep folder: also report every run (runs/NNN/report/), "
                             "linked from the sweep's table")
    parser.add_argument("--format", default="png", metavar="LIST",
                        help="figure formats, comma-separated: png, svg, pdf (default png; "
                             "index.html embeds the PNG, else the SVG, and links the others)")
    parser.add_argument("--flows", metavar="IDS",
                        help="flow ids (e.g. 0,3,7) drawn in the rate and throughput figures "
                             "(for a sweep: in each run's report, with --runs)")
    parser.add_argument("--tags", metavar="TAGS",
                        help="flow tags (e.g. victim,incast) whose flows are drawn in the rate "
                             "and throughput figures, with the tags' sums; adds to --flows")
    parser.add_argument("--quiet", action="store_true", help="print nothing but errors")


def report_folder(args):
    """The report of args.dir (a run, sweep or fluid folder) with the parsed options."""
    formats = parse_formats(args.format)
    flow_ids = parse_flow_ids(args.flows) if args.flows is not None else None
    tags = parse_tags(args.tags) if args.tags is not None else None
    if not os.path.isdir(args.dir):
        raise ReportError(f"{args.dir}: no such folder (expected the output folder of `dcqcn "
                          "run` or `dcqcn sweep`)")
    run_report = functools.partial(dcqcn_run_report.build_report, formats=formats,
                                   flow_ids=flow_ids, tags=tags)
    fluid = dcqcn_fluid_report
    fluid = (fluid.build_fluid_map_report if fluid.is_fluid_map_dir(args.dir) else
             fluid.build_fluid_report if fluid.is_fluid_run_dir(args.dir) else None)
    if fluid is not None:
        if flow_ids or tags or args.runs:
            raise ReportError(f"{args.dir}: a `dcqcn fluid` folder: --flows, --tags and --runs "
                              "are for `dcqcn run` and `dcqcn sweep` folders")
        fluid(args.dir, quiet=args.quiet, formats=formats)
    elif dcqcn_sweep_report.is_sweep_dir(args.dir):
        if (flow_ids or tags) and not args.runs:
            raise ReportError("--flows and --tags choose flows of a run's figures: on a sweep "
                              "folder they need --runs")
        dcqcn_sweep_report.build_sweep_report(args.dir, quiet=args.quiet, formats=formats,
                                              run_report=run_report if args.runs else None)
    elif args.runs and os.path.isfile(os.path.join(args.dir, "summary.json")):
        raise ReportError(f"{args.dir}: --runs is for a `dcqcn sweep` folder (with sweep.csv); "
                          "this is a run folder")
    else:
        run_report(args.dir, quiet=args.quiet)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Figures and an index.html for a `dcqcn run`, `dcqcn sweep` or `dcqcn "
                    "fluid` output folder, written to DIR/report/.",
        epilog="Exit codes: 0 ok, 1 bad input, 2 bad usage, 3 a bug in this script.")
    parser.add_argument("dir", help="a `dcqcn run`, `dcqcn sweep` or `dcqcn fluid` output folder")
    add_options(parser)
    args = parser.parse_args(argv)
    return run_cli("dcqcn_report.py", lambda: report_folder(args))


if __name__ == "__main__":
    sys.exit(main())
