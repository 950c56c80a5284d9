"""Checks narrow-transfers.mlir's @rotate outside coopvec: output k must be
input k with its elements rotated left by one, bit for bit (a permutation
of the inputs, so no rounding), for every thread.

    rotate-check.py INPUT_PREFIX OUTPUT_PREFIX COUNT
"""
import sys

import numpy as np


def main():
    inputs, outputs, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    for k in range(count):
        x = np.load(f"{inputs}{k}.npy")
        y = np.load(f"{outputs}{k}.npy")
        expected = np.roll(x, -1, axis=1)
        if y.shape != expected.shape or y.dtype != expected.dtype:
            print(f"FAIL: result {k}: {y.dtype}{y.shape}, expected "
                  f"{expected.dtype}{expected.shape}")
            return 1
        bad = np.flatnonzero(
            (y.view(np.uint8) != expected.view(np.uint8)).reshape(
                y.shape[0], -1).any(axis=1))
        if bad.size:
            print(f"FAIL: result {k}: thread {bad[0]} is {y[bad[0]]}, "
                  f"expected {expected[bad[0]]}")
            return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
