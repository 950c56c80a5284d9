"""Draws bench/scatter-add's CSV: adds per second against the buffer size,
one curve per reduce-mode, one panel per host-thread count.

usage: /usr/bin/python3 bench/plot-scatter-add.py scatter-add.csv OUT.png
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")  # no display: write the file only
import matplotlib.pyplot as plt  # noqa: E402

MODES = ("direct", "local", "expand", "auto")


def main(path, out):
    rows = list(csv.DictReader(open(path)))
    threads = sorted({int(r["threads"]) for r in rows})
    figure, axes = plt.subplots(1, len(threads), figsize=(5 * len(threads), 4),
                                sharey=True, squeeze=False)
    for axis, count in zip(axes[0], threads):
        mine = [r for r in rows if int(r["threads"]) == count]
        sizes = [int(r["size"]) for r in mine]
        for mode in MODES:
            axis.plot(sizes, [float(r[mode]) / 1e6 for r in mine], marker="o",
                      label=mode)
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_xlabel("buffer size (elements)")
        axis.set_title(f"{count} host thread{'s' if count > 1 else ''}")
        axis.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("million adds / s (median)")
    axes[0][0].legend()
    figure.suptitle("bench/scatter-add: random f32 adds, reduce-mode of "
                    "coopvec-lower-to-cpu")
    figure.tight_layout()
    figure.savefig(out, dpi=100)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
