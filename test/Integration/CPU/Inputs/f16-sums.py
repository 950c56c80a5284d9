"""The oracle of f16-accumulation.mlir, independent of the interpreter:

    f16-sums.py X.npy G.npy OUT.npy

X is the (N, K) f16 vec every thread added with reduce_sum_accumulate at
offset 0 of the f16 buffer G (the inputs `coopvec-run --save-inputs` wrote),
OUT that buffer after the run (`--out`). The exact result is G + the column
sums of X, rounded to f16 once: the float64 sum is exact (f16 values in
[-1, 1) are multiples of 2^-24 below 2^24 of them, so 2^17 threads sum
below 2^41 units), and NumPy rounds float64 to f16 correctly. The engine
sums in f32, which may cross an f16 rounding boundary: one ulp is allowed.
Prints the largest difference in f16 ulps and PASS or FAIL (exit 1).
"""

import sys

import numpy as np


def ordered(halves):
    """f16 bit patterns as integers in the order of their values, so that
    neighbouring values differ by 1 (and -0.0 and +0.0 by 0)."""
    bits = halves.view(np.uint16).astype(np.int64)
    return np.where(bits & 0x8000, 0x8000 - bits, bits)


def main(x_path, g_path, out_path):
    x, g, out = np.load(x_path), np.load(g_path), np.load(out_path)
    assert x.dtype == g.dtype == out.dtype == np.float16
    assert x.ndim == 2 and g.shape == out.shape and x.shape[1] <= g.shape[0]
    exact = g.astype(np.float64)
    exact[: x.shape[1]] += x.astype(np.float64).sum(axis=0)
    want = exact.astype(np.float16)
    ulps = np.abs(ordered(want) - ordered(out))
    worst = int(ulps.max())
    print(f"{x.shape[0]} threads, {g.size} elements: "
          f"max difference {worst} ulp ({int((ulps == 0).sum())} exact)")
    print("PASS" if worst <= 1 else "FAIL")
    return 0 if worst <= 1 else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
