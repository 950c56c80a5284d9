#!/usr/bin/env python3
"""Per-opcode summary of an Nsight Compute source page (SASS, CSV).

Input: the CSV that `ncu -i REPORT.ncu-rep --page source --csv
--print-source sass` prints for one kernel (scripts/gpu-run.sh writes it as
ncu-w64-sass.csv / ncu-w128-sass.csv). Output: one row per SASS opcode
(predicates stripped, modifiers kept: LDG.E.U16 and LDG.E.128 are
different rows), sorted by warp stall samples, with

  samples   warp stall samples (all samples) at the opcode's instructions,
            and their share: where the warps waited (a stall is charged
            to the instruction that cannot issue, often the consumer of a
            slow load, not the load)
  inst      warp-level instructions executed, and their share
  shared    L1 shared-memory wavefronts, and the ideal count (the excess is
            bank conflicts)
  L2 sect   L2 sectors requested by global accesses

and a total line. Usage: ncu-sass-summary.py FILE.csv [--top N]
"""
import collections
import csv
import re
import sys

COLUMNS = {
    "samples": "Warp Stall Sampling (All Samples)",
    "inst": "Instructions Executed",
    "shared": "L1 Wavefronts Shared",
    "ideal": "L1 Wavefronts Shared Ideal",
    "l2": "L2 Theoretical Sectors Global",
}


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return 0.0


def opcode(source):
    # "@!P0 LDG.E.U16 R2, desc[...]" -> "LDG.E.U16"
    words = re.sub(r"^@!?U?P\w+\s+", "", source.strip()).split()
    return words[0] if words else "?"


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header = next((i for i, r in enumerate(rows) if "Source" in r), None)
    if header is None:
        sys.exit(f"{path}: no 'Source' column (not an ncu source page?)")
    index = {name: i for i, name in enumerate(rows[header])}
    missing = [c for c in COLUMNS.values() if c not in index]
    if missing:
        sys.exit(f"{path}: missing columns: {', '.join(missing)}")
    sums = collections.defaultdict(lambda: dict.fromkeys(COLUMNS, 0.0))
    for row in rows[header + 1:]:
        if len(row) <= max(index.values()):
            continue
        entry = sums[opcode(row[index["Source"]])]
        for key, column in COLUMNS.items():
            entry[key] += number(row[index[column]])
    return sums


def main():
    args = sys.argv[1:]
    top = 25
    if "--top" in args:
        at = args.index("--top")
        top = int(args[at + 1])
        del args[at:at + 2]
    if len(args) != 1:
        sys.exit(__doc__.strip().splitlines()[-1])
    sums = read(args[0])
    total = {k: sum(e[k] for e in sums.values()) for k in COLUMNS}
    print("| opcode | samples | % | inst | % | shared wavefronts | ideal | L2 sectors |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|")
    ranked = sorted(sums.items(), key=lambda kv: -kv[1]["samples"])
    for name, e in ranked[:top]:
        print(f"| {name} | {e['samples']:.0f} | "
              f"{100 * e['samples'] / max(total['samples'], 1):.1f} | "
              f"{e['inst']:.0f} | {100 * e['inst'] / max(total['inst'], 1):.1f} | "
              f"{e['shared']:.0f} | {e['ideal']:.0f} | {e['l2']:.0f} |")
    print(f"| total | {total['samples']:.0f} | 100 | {total['inst']:.0f} | 100 | "
          f"{total['shared']:.0f} | {total['ideal']:.0f} | {total['l2']:.0f} |")


if __name__ == "__main__":
    main()
