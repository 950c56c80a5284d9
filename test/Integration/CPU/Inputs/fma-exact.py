"""The inputs and the oracle of fma-exact.mlir, independent of the
interpreter and of NumPy's float arithmetic:

    fma-exact.py make SEED N K PREFIX   write PREFIX0/1/2.npy: a, b, c
    fma-exact.py check A.npy B.npy C.npy OUT.npy

`make` writes three (N, K) f32 arrays: the first elements (in row-major
order) are the hard cases below, the others random triples of five kinds
(any exponents, cancellation, near-midpoints, subnormal results, large
products). `check` computes fma(a, b, c) rounded once, to nearest even,
from the exact sum in Python integers (every f32 is a multiple of 2^-149,
so a * b + c is N * 2^-298 for an integer N), and compares OUT with it bit
for bit (any NaN matches any NaN; -0 and +0 differ). OUT has K or a
multiple of K columns: each group of K is checked against the same fma.
It also counts the elements where the two wrong ways differ from the
exact result (rounding the f64 sum to f32, and rounding the product to f32
first), which shows that the inputs can tell them apart. Prints PASS or
FAIL (exit 1).
"""

import math
import sys

import numpy as np

MAX = float(np.finfo(np.float32).max)
INF = math.inf
NAN = math.nan
TINY = 2.0**-149  # the smallest subnormal


def f32(x):
    return float(np.float32(x))


# (a, b, c, why): the special values of docs/dialect.md and the roundings a
# product rounded first, or a sum rounded twice, gets wrong.
HARD = [
    (MAX, 2.0, -MAX, "product beyond f32, sum max"),
    (-MAX, 2.0, MAX, "the same, negative"),
    (MAX, 2.0, 0.0, "overflow to +inf"),
    (-MAX, 2.0, 0.0, "overflow to -inf"),
    (MAX, 1.0, 2.0**103, "max + half an ulp: a tie, to even (inf)"),
    (MAX, 1.0, f32(2.0**103 * (1 - 2.0**-24)), "just below it: max"),
    (2.0**64, 2.0**64, -(2.0**103), "2^128 - 2^103: a tie, to inf"),
    (INF, 0.0, 1.0, "inf * 0: NaN"),
    (0.0, -INF, 1.0, "0 * -inf: NaN"),
    (INF, 1.0, -INF, "inf - inf: NaN"),
    (INF, 2.0, INF, "inf"),
    (2.0, 3.0, -INF, "-inf"),
    (MAX, MAX, -INF, "-inf despite the product's overflow"),
    (-INF, -1.0, 5.0, "+inf"),
    (NAN, 0.0, 1.0, "NaN operand"),
    (1.0, 1.0, NAN, "NaN addend"),
    (-0.0, 1.0, -0.0, "-0 + -0 = -0"),
    (0.0, -1.0, 0.0, "-0 + +0 = +0"),
    (0.0, -1.0, -0.0, "-0 + -0 = -0"),
    (-0.0, -0.0, -0.0, "+0 + -0 = +0"),
    (1.0, 1.0, -1.0, "exact cancellation: +0"),
    (-1.0, 1.0, 1.0, "exact cancellation: +0"),
    (-TINY, TINY, 0.0, "-2^-298: -0"),
    (TINY, TINY, -0.0, "2^-298: +0"),
    (TINY, TINY, TINY, "2^-149 + 2^-298: 2^-149"),
    (TINY, 0.5, 0.0, "2^-150: a tie, to 0"),
    (TINY, 1.5, 0.0, "1.5 2^-149: a tie, to 2^-148"),
    (TINY, 0.5, TINY, "1.5 2^-149 again"),
    (2.0**-75, 2.0**-75, 0.0, "2^-150 from normals: 0"),
    (2.0**-75, f32(2.0**-75 * (1 + 2.0**-23)), 0.0, "just above: 2^-149"),
    (f32(2.0**-63 * (1 + 2.0**-23)), 2.0**-63, -(2.0**-126),
     "cancellation into the subnormals: 2^-149"),
    (f32(1 + 2.0**-23), f32(1 - 2.0**-23), -1.0, "-2^-46, not 0"),
    (f32(1 + 2.0**-12), f32(1 + 2.0**-12), 2.0**-60,
     "1 + 2^-11 + 2^-24 + 2^-60: up, where f64 gives a tie"),
    (f32(1 + 2.0**-12), f32(1 + 2.0**-12), -(2.0**-60), "the same, down"),
    (f32(-(1 + 2.0**-12)), f32(1 + 2.0**-12), 2.0**-60, "negative, down"),
    (3.0, f32(1 / 3), -1.0, "3 f32(1/3) - 1"),
    (f32(0.1), 10.0, -1.0, "10 f32(0.1) - 1"),
    (2.0**-126, 0.5, -(2.0**-149), "subnormal minus subnormal"),
]


def units(x):
    """An f32 as an integer multiple of 2^-149."""
    return int(math.ldexp(x, 149))


def round_units(n):
    """n * 2^-298 rounded to f32, to nearest even (n != 0)."""
    sign, m = (-1.0 if n < 0 else 1.0), abs(n)
    shift = max(m.bit_length() - 24, 149)  # the ulp, as a power of 2^-298
    q, r = divmod(m, 1 << shift)
    half = 1 << (shift - 1)
    if r > half or (r == half and q & 1):
        q += 1
    value = math.ldexp(q, shift - 298)
    return sign * (INF if value >= 2.0**128 else value)


def exact_fma(a, b, c):
    if math.isnan(a) or math.isnan(b) or math.isnan(c):
        return NAN
    p_sign = math.copysign(1.0, a) * math.copysign(1.0, b)
    if math.isinf(a) or math.isinf(b):
        if a == 0 or b == 0 or (math.isinf(c) and c * p_sign < 0):
            return NAN
        return INF * p_sign
    if math.isinf(c):
        return c
    n = units(a) * units(b) + (units(c) << 149)
    if n != 0:
        return round_units(n)
    if a * b == 0 and c == 0 and p_sign < 0 and math.copysign(1.0, c) < 0:
        return -0.0
    return 0.0


def same(x, y):
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return np.float32(x).tobytes() == np.float32(y).tobytes()


def random_triples(rng, count):
    """count triples of five kinds, as three float64 arrays of f32 values."""
    def spread(lo, hi, size):
        mantissa = rng.uniform(1, 2, size) * rng.choice([-1, 1], size)
        return (mantissa * np.exp2(rng.integers(lo, hi, size))).astype(
            np.float32).astype(np.float64)

    kind = rng.integers(0, 5, count)
    a, b, c = spread(-40, 40, count), spread(-40, 40, count), spread(
        -80, 80, count)
    # Cancellation: c is minus the product rounded to f32, give or take an
    # ulp, so the exact result is the product's rounding error.
    near = (a * b).astype(np.float32)
    ulps = rng.integers(-1, 2, count).astype(np.float32)
    c = np.where(kind == 1, -np.nextafter(near, near + ulps * np.abs(near)),
                 c)
    # Near-midpoints: 12- and 13-bit mantissas make products of up to 25
    # bits (ties of f32), and c one part in 2^30..2^70 of them moves them
    # off (below 2^-53 the f64 sum is the tie).
    def short(bits, size):
        return rng.integers(1 << (bits - 1), 1 << bits, size) * np.exp2(
            rng.integers(-20, 10, size).astype(np.float64))
    a = np.where(kind == 2, short(12, count), a)
    b = np.where(kind == 2, short(13, count) * rng.choice([-1, 1], count), b)
    tiny = a * b * np.exp2(-rng.integers(30, 70, count).astype(np.float64))
    c = np.where(kind == 2, tiny.astype(np.float32), c)
    # Subnormal results: products near 2^-140..2^-150, c subnormal or 0.
    a = np.where(kind == 3, spread(-75, -68, count), a)
    b = np.where(kind == 3, spread(-75, -68, count), b)
    c = np.where(kind == 3, spread(-149, -126, count) *
                 rng.integers(0, 2, count), c)
    # Large products: beyond f32 (c brings some back), up to 2^160.
    a = np.where(kind == 4, spread(60, 80, count), a)
    b = np.where(kind == 4, spread(60, 80, count), b)
    c = np.where(kind == 4, -spread(126, 128, count), c)
    return [np.asarray(x, dtype=np.float32).astype(np.float64)
            for x in (a, b, c)]


def make(seed, n, k, prefix):
    rng = np.random.default_rng(seed)
    a, b, c = random_triples(rng, n * k)
    for i, (x, y, z, _) in enumerate(HARD[: n * k]):
        a[i], b[i], c[i] = x, y, z
    for i, x in enumerate((a, b, c)):
        np.save(f"{prefix}{i}.npy", x.astype(np.float32).reshape(n, k))


def wrong_ways(a, b, c):
    """fma as f32(f64 sum) and as f32(f32(product) + c)."""
    with np.errstate(all="ignore"):
        twice = float(np.float32(np.float64(a) * b + c))
        unfused = float(np.float32(np.float32(a) * np.float32(b)) +
                        np.float32(c))
    return twice, unfused


def check(paths):
    a, b, c, out = (np.load(p) for p in paths)
    n, k = a.shape
    if out.shape[0] != n or out.shape[1] % k:
        print(f"FAIL: OUT has shape {out.shape}, A {a.shape}")
        return 1
    wrong = twice_wrong = unfused_wrong = 0
    for i in range(n):
        for j in range(k):
            x, y, z = float(a[i, j]), float(b[i, j]), float(c[i, j])
            want = exact_fma(x, y, z)
            twice, unfused = wrong_ways(x, y, z)
            twice_wrong += not same(twice, want)
            unfused_wrong += not same(unfused, want)
            for got in out[i, j::k]:
                if not same(float(got), want):
                    wrong += 1
                    if wrong <= 10:
                        print(f"thread {i} element {j}: fma({x!r}, {y!r}, "
                              f"{z!r}) = {want!r}, got {float(got)!r}")
    print(f"{n * k} fmas, {out.size} results: {wrong} wrong; the f64 sum "
          f"rounded to f32 would be wrong in {twice_wrong}, the product "
          f"rounded first in {unfused_wrong}")
    print("PASS" if wrong == 0 else "FAIL")
    return 0 if wrong == 0 else 1


def main(argv):
    if len(argv) == 6 and argv[1] == "make":
        make(int(argv[2]), int(argv[3]), int(argv[4]), argv[5])
        return 0
    if len(argv) == 6 and argv[1] == "check":
        return check(argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
