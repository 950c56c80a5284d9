"""The oracle of outer-product.mlir, independent of the interpreter:

    outer-product-sums.py M K OFFSET LAYOUT A.npy B.npy G.npy OUT.npy
                          [--sum-at=E] [--log2-squares]

A (N, M) and B (N, K) are the vecs a and b of N threads (the inputs
`coopvec-run --save-inputs` wrote), G the gradient buffer before the run and
OUT after it (`--out`). Every thread added a_i * b_j to the M x K matrix at
element OFFSET of the buffer in LAYOUT (row_major, training: OFFSET + K i +
j; col_major: OFFSET + i + M j), and with --sum-at=E, a_i at element E + i
(reduce_sum_accumulate). With --log2-squares the threads used log2(a^2) and
log2(b^2) instead of a and b (finite for the threads, -inf in the lanes of
a partial group, which must add nothing).

The sums are taken in float64 (exact for these sizes but for the last bits
of log2) and compared with OUT: an f32 sum of N products may differ by a
few f32 rounding errors of the sum of the products' magnitudes, so the
tolerance is 1e-5 of that sum; an f16 buffer also by one f16 ulp of the
exact result (it is rounded once). A missing or doubled thread changes an
element by |a_i b_j|, on average 1 / N of that sum, which is far above the
tolerance at these batch sizes. Elements nothing adds to must keep their
bits. Prints the worst error in units of the tolerance and PASS or FAIL
(exit 1).
"""

import argparse
import sys

import numpy as np


def parse():
    parser = argparse.ArgumentParser()
    for name in ("M", "K", "OFFSET"):
        parser.add_argument(name, type=int)
    parser.add_argument("LAYOUT", choices=("row_major", "col_major", "training"))
    for name in ("A", "B", "G", "OUT"):
        parser.add_argument(name)
    parser.add_argument("--sum-at", type=int)
    parser.add_argument("--log2-squares", action="store_true")
    return parser.parse_args()


def indices(args):
    """The buffer element of (i, j)."""
    i, j = np.meshgrid(np.arange(args.M), np.arange(args.K), indexing="ij")
    if args.LAYOUT == "col_major":
        return args.OFFSET + i + args.M * j
    return args.OFFSET + args.K * i + j


def main():
    args = parse()
    a, b = np.load(args.A), np.load(args.B)
    g, out = np.load(args.G), np.load(args.OUT)
    assert a.shape[1] == args.M and b.shape[1] == args.K, (a.shape, b.shape)
    assert g.dtype == out.dtype and g.shape == out.shape
    a, b = a.astype(np.float64), b.astype(np.float64)
    if args.log2_squares:
        # The target squares in f32 first.
        a = np.log2(np.square(a.astype(np.float32)).astype(np.float64))
        b = np.log2(np.square(b.astype(np.float32)).astype(np.float64))
    exact = g.astype(np.float64)
    bound = np.zeros_like(exact)
    touched = np.zeros(exact.shape, bool)
    at = indices(args)
    exact[at] += a.T @ b
    bound[at] += np.abs(a).T @ np.abs(b)
    touched[at] = True
    if args.sum_at is not None:
        span = slice(args.sum_at, args.sum_at + args.M)
        exact[span] += a.sum(axis=0)
        bound[span] += np.abs(a).sum(axis=0)
        touched[span] = True
    tolerance = 1e-5 * bound
    if g.dtype == np.float16:
        want = exact.astype(np.float16).astype(np.float64)
        tolerance += np.abs(np.spacing(want.astype(np.float16))).astype(np.float64)
    error = np.abs(out.astype(np.float64) - exact)
    worst = float(np.max(error[touched] / np.maximum(tolerance[touched], 1e-300)))
    kept = out[~touched].tobytes() == g[~touched].tobytes()
    ok = worst <= 1 and kept and np.all(np.isfinite(out))
    print(f"{a.shape[0]} threads, {args.M}x{args.K} {g.dtype}: worst error "
          f"{worst:.3g} of the tolerance, untouched elements "
          f"{'kept' if kept else 'CHANGED'}")
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
