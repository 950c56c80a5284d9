#!/usr/bin/env python3
"""The polynomial coefficients of the math library, lib/Math/.

Each polynomial is a minimax fit in *relative* error of the function it
approximates, computed with the Remez exchange algorithm on a dense grid of
Chebyshev points in 40-digit arithmetic (mpmath), then rounded to f32, the
precision the lowered code evaluates in. Not part of the build or the tests
(it needs mpmath: `pip install mpmath`); run it to check or regenerate the
constants:

    python3 bench/math-coefficients.py

bench/math-ulp.c measures what the rounded coefficients give over every f32.
"""
import struct

import mpmath as mp

mp.mp.dps = 40


def to_f32(value):
    return struct.unpack("f", struct.pack("f", float(value)))[0]


def hexf(value):
    """A C hexadecimal float literal of the f32 nearest to `value`."""
    mantissa, exponent = to_f32(value).hex().split("p")
    return f"{mantissa.rstrip('0').rstrip('.')}p{exponent}f"


def remez(g, weight, degree, a, b, points=4000, iterations=30):
    """c_0..c_degree minimizing max weight(x) |sum c_k x^k - g(x)| on [a, b]."""
    n = degree + 1
    xs = [a + (b - a) * (1 - mp.cos(mp.pi * (i + mp.mpf(0.5)) / points)) / 2
          for i in range(points)]
    gx, wx = [g(x) for x in xs], [weight(x) for x in xs]
    ref = [int((points - 1) * (1 - mp.cos(mp.pi * i / n)) / 2)
           for i in range(n + 1)]
    for _ in range(iterations):
        A = mp.matrix(n + 1, n + 1)
        rhs = mp.matrix(n + 1, 1)
        for r, i in enumerate(ref):
            for k in range(n):
                A[r, k] = xs[i] ** k
            A[r, n] = (-1) ** r / wx[i]
            rhs[r] = gx[i]
        solution = mp.lu_solve(A, rhs)
        c = [solution[k] for k in range(n)]
        err = [wx[i] * (mp.polyval(c[::-1], xs[i]) - gx[i])
               for i in range(points)]
        # The new reference: the extremum of each run of equal sign.
        runs, current = [], [0]
        for i in range(1, points):
            if mp.sign(err[i]) == mp.sign(err[current[-1]]):
                current.append(i)
            else:
                runs.append(max(current, key=lambda j: abs(err[j])))
                current = [i]
        runs.append(max(current, key=lambda j: abs(err[j])))
        while len(runs) > n + 1:
            runs.pop(0 if abs(err[runs[0]]) < abs(err[runs[-1]]) else -1)
        if len(runs) < n + 1:
            break
        ref = runs
    return c, max(abs(e) for e in err)


def show(name, coefficients, error):
    print(f"{name}: max relative error {mp.nstr(error, 3)} "
          f"({mp.nstr(error / mp.mpf(2) ** -24, 3)} ulp at 2^-24)")
    for c in coefficients:
        print(f"  {hexf(c)}, // {mp.nstr(c, 17)}")


def exp2_coefficients():
    # 2^f = 1 + f Q(f) on [-1/2, 1/2]; Q of degree 5.
    q = lambda f: (mp.power(2, f) - 1) / f if f else mp.log(2)
    weight = lambda f: abs(f) / mp.power(2, f)
    show("exp2 Q(f)", *remez(q, weight, 5, mp.mpf(-0.5), mp.mpf(0.5)))


def log2_coefficients():
    # log2(m) = s (2/ln2 + z R(z)), s = (m-1)/(m+1), z = s^2, for m in
    # [sqrt(1/2), sqrt(2)); R of degree 2.
    zmax = ((mp.sqrt(2) - 1) / (mp.sqrt(2) + 1)) ** 2
    c0 = 2 / mp.log(2)

    def q(z):
        s = mp.sqrt(z)
        return mp.log((1 + s) / (1 - s)) / s / mp.log(2) if z else c0

    r = lambda z: (q(z) - c0) / z if z else c0 / 3
    weight = lambda z: z / q(z)
    show("log2 R(z)", *remez(r, weight, 2, mp.mpf(0), zmax))
    # powf needs some 40 bits of log2(x): R(z) = 2/(3 ln2) + z R1(z), the
    # first term in hi + lo, R1 of degree 2.
    r0 = c0 / 3
    r1 = lambda z: (r(z) - r0) / z if z else 2 / (5 * mp.log(2))
    show("log2 R1(z) for powf", *remez(r1, lambda z: z * z / q(z), 2,
                                       mp.mpf(0), zmax, points=1500))
    split("2/(3 ln 2)", r0)


def tanh_coefficients():
    # tanh(x) = x + x^3 R(x^2) on [0, 7/8]; R of degree 6.
    def r(z):
        x = mp.sqrt(z)
        return (mp.tanh(x) - x) / x ** 3 if z else mp.mpf(-1) / 3

    weight = lambda z: mp.sqrt(z) ** 3 / mp.tanh(mp.sqrt(z)) if z else 0
    show("tanh R(z)", *remez(r, weight, 6, mp.mpf(0), mp.mpf(0.875) ** 2,
                              points=3000))


def rational(g, degree_p, degree_q, a, b, points=600, iterations=80):
    """x P(x^2) / Q(x^2) near g(x) in relative error on (a, b], with
    P(0) = Q(0) = 1: Loeb's linearisation (x P - g Q, divided by the
    previous Q) solved by least squares with Lawson's weights, which
    approach the minimax solution."""
    xs = [a + (b - a) * (1 - mp.cos(mp.pi * (i + mp.mpf(0.5)) / points)) / 2
          for i in range(points)]
    gx = [g(x) for x in xs]
    weights = [mp.mpf(1)] * points
    q = [mp.mpf(1)] + [mp.mpf(0)] * degree_q
    for _ in range(iterations):
        rows, rhs = [], []
        for x, t, w in zip(xs, gx, weights):
            scale = mp.sqrt(w) / (t * mp.polyval(q[::-1], x * x))
            rows.append([scale * x * (x * x) ** k
                         for k in range(1, degree_p + 1)] +
                        [-scale * t * (x * x) ** k
                         for k in range(1, degree_q + 1)])
            rhs.append(scale * (t - x))
        solution = mp.qr_solve(mp.matrix(rows), mp.matrix(rhs))[0]
        p = [mp.mpf(1)] + [solution[k] for k in range(degree_p)]
        q = [mp.mpf(1)] + [solution[degree_p + k] for k in range(degree_q)]
        err = [abs(x * mp.polyval(p[::-1], x * x) /
                   mp.polyval(q[::-1], x * x) - t) / t
               for x, t in zip(xs, gx)]
        top = max(err)
        weights = [w * (e / top + mp.mpf(0.001))
                   for w, e in zip(weights, err)]
        total = sum(weights)
        weights = [w / total for w in weights]
    return p, q, top


def tanh_f16_coefficients():
    # tanh(x) = x P(x^2) / Q(x^2) on [0, 9] for results rounded to f16; P
    # and Q of degree 4.
    with mp.workdps(25):
        p, q, error = rational(mp.tanh, 4, 4, mp.mpf(0), mp.mpf(9))
        show("tanh (f16) P(z)", p, error)
        show("tanh (f16) Q(z)", q, error)


def exp_coefficients():
    # e^r = 1 + r + r^2 Q(r) on |r| <= ln2/2 (plus the rounding of n); Q of
    # degree 5, fitted in the relative error of e^r.
    q = lambda r: (mp.exp(r) - 1 - r) / r ** 2 if r else mp.mpf(1) / 2
    weight = lambda r: r ** 2 / mp.exp(r)
    bound = mp.log(2) / 2 + mp.mpf(2) ** -16
    show("exp Q(r)", *remez(q, weight, 5, -bound, bound, points=1500))


def log_coefficients():
    # ln(m) = s (2 + z R(z)), s = (m-1)/(m+1), z = s^2, as for log2; R of
    # degree 2.
    zmax = ((mp.sqrt(2) - 1) / (mp.sqrt(2) + 1)) ** 2

    def q(z):
        s = mp.sqrt(z)
        return mp.log((1 + s) / (1 - s)) / s if z else mp.mpf(2)

    r = lambda z: (q(z) - 2) / z if z else mp.mpf(2) / 3
    weight = lambda z: z / q(z)
    show("log R(z)", *remez(r, weight, 2, mp.mpf(0), zmax, points=1500))


def sincos_coefficients():
    # sin(r) = r + r z S(z), cos(r) = 1 - z/2 + z^2 C(z), z = r^2, for
    # |r| <= pi/4 (plus a little: the reduction rounds); S and C of degree 3.
    zmax = (mp.pi / 4 + mp.mpf(2) ** -20) ** 2

    def s(z):
        r = mp.sqrt(z)
        return (mp.sin(r) - r) / (r * z) if z else -mp.mpf(1) / 6

    def c(z):
        r = mp.sqrt(z)
        return (mp.cos(r) - 1 + z / 2) / z ** 2 if z else mp.mpf(1) / 24

    show("sin S(z)", *remez(s, lambda z: z / mp.sinc(mp.sqrt(z)) if z else 0,
                            3, mp.mpf(0), zmax, points=1500))
    show("cos C(z)", *remez(c, lambda z: z ** 2 / mp.cos(mp.sqrt(z)), 3,
                            mp.mpf(0), zmax, points=1500))


def atan_coefficients():
    # atan(t) = t + t z P(z), z = t^2, for |t| <= tan(pi/8); P of degree 5.
    zmax = (mp.tan(mp.pi / 8) + mp.mpf(2) ** -20) ** 2

    def p(z):
        t = mp.sqrt(z)
        return (mp.atan(t) - t) / (t * z) if z else -mp.mpf(1) / 3

    weight = lambda z: z * mp.sqrt(z) / mp.atan(mp.sqrt(z)) if z else 0
    show("atan P(z)", *remez(p, weight, 5, mp.mpf(0), zmax, points=1500))


def erf_coefficients():
    # |x| < 7/8: erf(x) = x + x P(x^2), P of degree 5 (relative error).
    # 7/8 <= a <= 3.95: erf(a) = 1 - e^(a R(a) - a), R of degree 9, fitted
    # in the absolute error of the exponent (the relative error of 1 - erf).
    # Above 3.95, 1 - erf(a) < 0.78 2^-25: erf rounds to 1.
    zmax = mp.mpf(0.875) ** 2

    def p(z):
        x = mp.sqrt(z)
        return (mp.erf(x) - x) / x if z else 2 / mp.sqrt(mp.pi) - 1

    weight = lambda z: mp.sqrt(z) / mp.erf(mp.sqrt(z)) if z else 0
    show("erf P(z)", *remez(p, weight, 6, mp.mpf(0), zmax, points=1500))
    r = lambda a: (mp.log(mp.erfc(a)) + a) / a
    show("erf R(a)", *remez(r, lambda a: a, 9, mp.mpf(0.875), mp.mpf(3.95),
                            points=1500))


def split(name, value):
    lo = value - mp.mpf(to_f32(value))
    print(f"{name}: hi {hexf(value)}, lo {hexf(lo)}")


if __name__ == "__main__":
    exp2_coefficients()
    log2_coefficients()
    tanh_coefficients()
    tanh_f16_coefficients()
    split("2/ln 2", 2 / mp.log(2))
    print(f"ln 2: {hexf(mp.log(2))}")
    exp_coefficients()
    log_coefficients()
    sincos_coefficients()
    atan_coefficients()
    erf_coefficients()
    split("ln 2", mp.log(2))
    split("log2(e)", 1 / mp.log(2))
    split("pi/2", mp.pi / 2)
    split("pi/4", mp.pi / 4)
    split("pi", mp.pi)
    split("3pi/4", 3 * mp.pi / 4)
