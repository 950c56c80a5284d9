"""The buffers of split-file scatter-add-modes.mlir's @half against sums in
double: each element's initial value (the saved inputs) plus the values of
the threads that add at it.

    half-sums.py IN_PREFIX OUT_PREFIX  (the --save-inputs and --out
    prefixes of one coopvec-run)

%bins (argument 1, f16): every thread adds f16(x1) at bin (x0 + 1) * 4;
%grad (2, f16) and %fgrad (3, f32): the threads with x1 > 0 add their vec
(f16(x0), f16(x1), resp. x0, x1) at 2 * bin. The double sums are exact
(f16 and f32 values in [-1, 1) are multiples of 2^-24 and 2^-149 below
2^24 units, a few thousand of them sum below 2^37 units where each sum
fits a double's 53 bits; the f32 ones by a margin that does not matter
for the bound below).

Tolerances, per element e with n adds and S = |initial| + sum |values|:
- The engine sums in f32 in some association (lanes, host threads' copies,
  their merge: docs/dialect.md, "Scatter-adds"): at most (n + 8) u32 S
  from the exact sum, u32 = 2^-24 (n - 1 roundings of partial sums
  bounded by S, plus the merge of up to 8 copies and the initial value).
- An f16 buffer is then rounded to f16 once (docs/dialect.md, "f16
  accumulation"): half the f16 spacing at the result more. The spacing
  above |got| is used, which is the larger one at a power of two.
So |got - exact| <= (n + 8) u32 S (+ spacing16(|got|) / 2 for f16). An f16
sum rounded at each of ~500 adds per bin (what GPU targets do) errs by
about sqrt(n) quarter-ulps of its running sum, several times this bound.
Also printed: the largest distance in f16 ulps from the correctly rounded
exact sum (0 or 1 where the f32 error crosses a rounding boundary).
"""
import sys

import numpy as np

U32 = 2.0 ** -24


def ordered(halves):
    """f16 bit patterns as integers in value order (-0 and +0 both 0)."""
    bits = halves.view(np.uint16).astype(np.int64)
    return np.where(bits & 0x8000, 0x8000 - bits, bits)


def check(argument, initial, got, places, values):
    exact = initial.astype(np.float64)
    scale = np.abs(exact)
    count = np.zeros(len(exact))
    for at, value in zip(places, values):
        np.add.at(exact, at, value)
        np.add.at(scale, at, np.abs(value))
        np.add.at(count, at, 1)
    bound = (count + 8) * U32 * scale
    half = got.dtype == np.float16
    if half:
        bound = bound + np.spacing(np.abs(got)).astype(np.float64) / 2
    ok = bool(np.all(np.abs(got.astype(np.float64) - exact) <= bound))
    kind = "f16" if half else "f32"
    ulps = ""
    if half:
        worst = int(np.abs(ordered(exact.astype(np.float16)) - ordered(got)).max())
        ulps = f", max {worst} ulp"
    print(f"argument {argument}: {int(count.sum())} adds, {kind}{ulps}, "
          f"{'PASS' if ok else 'FAIL'}")
    return ok


def main(prefix_in, prefix_out):
    x = np.load(f"{prefix_in}0.npy")  # f32, as the threads compute
    bin_ = ((x[:, 0] + np.float32(1)) * np.float32(4)).astype(np.int64)
    active = x[:, 1] > 0
    at = 2 * bin_[active]
    x16 = x.astype(np.float16).astype(np.float64)
    x32 = x.astype(np.float64)
    load = lambda side, i: np.load(f"{side}{i}.npy" if side == prefix_in
                                   else f"{side}_arg{i}.npy")
    ok = check(1, load(prefix_in, 1), load(prefix_out, 1), [bin_], [x16[:, 1]])
    ok &= check(2, load(prefix_in, 2), load(prefix_out, 2), [at, at + 1],
                [x16[active, 0], x16[active, 1]])
    ok &= check(3, load(prefix_in, 3), load(prefix_out, 3), [at, at + 1],
                [x32[active, 0], x32[active, 1]])
    print("PASS" if ok else "FAIL")


if __name__ == "__main__":
    main(*sys.argv[1:])
