#!/usr/bin/python3
"""Exits 0 when two `dcqcn sweep` folders hold the same files, byte for byte apart from the
fields that measure the machine (summary.json's wall-time fields, sweep.csv's wall_time_s,
sweep_mean.csv's wall_time_s.mean and wall_time_s.ci95);
otherwise names every difference and exits 1.  Usage: same_sweep.py A B"""
import csv
import io
import json
import os
import sys

WALL_FIELDS = {"wall_time_s", "events_per_s", "packet_hops_per_s", "peak_rss_mb"}


def files_under(root):
    out = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, root)] = f.read()
    return out


def comparable(path, content):
    """The file's content without its wall-time fields."""
    name = os.path.basename(path)
    if name == "summary.json":
        j = json.loads(content)
        for key in WALL_FIELDS:
            if key not in j:
                raise SystemExit(f"{path}: no {key}")
            del j[key]
        return json.dumps(j, sort_keys=True)
    if path in ("sweep.csv", "sweep_mean.csv"):
        rows = list(csv.reader(io.StringIO(content.decode())))
        wall = [i for i, c in enumerate(rows[0])
                if c in ("wall_time_s", "wall_time_s.mean", "wall_time_s.ci95")]
        if not wall:
            raise SystemExit(f"{path}: no wall_time_s column")
        return [[c for i, c in enumerate(row) if i not in wall] for row in rows]
    return content


def main(a, b):
    left, right = files_under(a), files_under(b)
    problems = [f"only in {a}: {p}" for p in sorted(set(left) - set(right))]
    problems += [f"only in {b}: {p}" for p in sorted(set(right) - set(left))]
    for path in sorted(set(left) & set(right)):
        if comparable(path, left[path]) != comparable(path, right[path]):
            problems.append(f"differs: {path}")
    for p in problems:
        print(p)
    print(f"{a} and {b}: {len(left)} files, "
          f"{'the same' if not problems else f'{len(problems)} differences'}")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
