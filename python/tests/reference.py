"""NumPy references for the tests: the forward pass and back-propagation of a
packed network in float64, each with a first-order bound on the error that a
conforming target may make. That bound is the tolerance of every comparison.

Why these tolerances (docs/dialect.md, "Special values"; docs/autodiff.md,
"Precision"):

- Inputs, weights and dy are exact: they are given in the element type.
- ``matvec`` multiplies exactly representable values and accumulates in f32
  or wider, in an order the target chooses, then rounds to the element
  type: the classic dot-product bound, ``|error| <= (K+1) u32 sum|W||a| +
  u |z|``, with u the unit roundoff of the element type (2^-24 for f32,
  2^-11 for f16) and u32 = 2^-24.
- Elementwise ops are IEEE ops rounded to the element type (a target may
  round every op to f16; the CPU keeps f32 between ops, which is more
  accurate), and the transcendentals err by less than an ulp of f32 on the
  CPU. An activation of up to three ops therefore errs by at most C_OUT = 4
  roundings of the magnitudes it handles, plus what its input already
  carried times its Lipschitz constant on the uncertainty interval.
  Constants such as LeakyReLU's slope or Exp's log2(e) are rounded to the
  element type too: a relative perturbation of the argument, C_IN = 2
  roundings of ``|z|``.
- Gradients follow the same rules through the reverse sweep; the derivative
  of an activation at an uncertain ``z`` differs by at most ``max|f''| r``.
- Weight and bias gradients are sums over the batch of per-sample terms,
  and signed sums cancel: their size grows like sqrt(B), but the worst-case
  sum of the per-sample error bounds like B, which would make the f16
  tolerance about as large as the gradient itself. The per-sample errors
  come from rounding different data, so they are treated as independent
  zero-mean variables bounded by e_b (the probabilistic model of Higham and
  Mary, "A New Approach to Probabilistic Rounding Error Analysis", 2019):
  by Hoeffding's inequality ``|sum of errors| <= LAMBDA sqrt(sum e_b^2)``
  except with probability ``2 exp(-LAMBDA^2 / 2)`` (3e-8 for LAMBDA = 6).
  The summation itself is bounded in the worst case: f32 accumulation over
  B threads, ``(B+1) u32 sum|term|``, and for f16 buffers one rounding of
  that sum to f16, ``u |sum|``: the engine sums an f16 gradient buffer in
  an f32 shadow and rounds once per run (docs/execution-engine.md, "f16
  gradients").
- The analysis is first order (terms in u^2 dropped) and uses the reference
  values for the magnitudes, so comparisons allow SAFETY = 2 times the bound.

These bounds hold for any conforming target and never fail by chance, but
for f16 they are loose (a worst-case sum of ~60 roundings through three
layers, 2 % to 50 % of a gradient). So every comparison also checks the
norm-wise error, ``||got - want|| <= NORM_UNITS u ||want||``: independent
roundings grow like the square root of their number, not linearly. Measured
on the CPU target (f32 between ops, one rounding at each store): 0.3 to 0.6 u
for outputs and up to 2.7 u for gradients, in f16 and f32 alike. A target
that rounds every op to f16 adds about one u per op. NORM_UNITS = 16 leaves
room for that and still catches a 1 % error in f16.

ReLU and LeakyReLU have a kink at 0: a sample whose pre-activation lies
within its error bound of 0 may take either branch, and its gradient may
differ by a whole term. `stable_rows` drops such samples before gradients
are compared (with random data they are rare, and none in f32).
"""

import math

import numpy as np

from coopvec import nn

U32 = 2.0 ** -24
UNIT_ROUNDOFF = {np.dtype(np.float16): 2.0 ** -11, np.dtype(np.float32): U32}
C_IN = 2
C_OUT = 4
SAFETY = 2.0
LAMBDA = 6.0
NORM_UNITS = 16
LN2 = math.log(2.0)


class _Act:
    """One activation: f, f', Lipschitz bound lip(z, r) and |f''| bound
    d2(z, r) on [z - r, z + r], the magnitude its forward ops round
    (out_mag), the magnitude its derivative's ops round (d_mag), and
    whether it has a kink."""

    def __init__(self, f, df, lip, d2, out_mag, d_mag, kink=False, ops=True):
        self.f, self.df, self.lip, self.d2 = f, df, lip, d2
        self.out_mag, self.d_mag, self.kink, self.ops = out_mag, d_mag, kink, ops


def _sigmoid(z):
    return 0.5 + 0.5 * np.tanh(0.5 * z)


def activation(layer):
    """The reference of a coopvec.nn activation layer."""
    one = lambda z, r: 1.0  # noqa: E731
    zero = lambda z, r: 0.0  # noqa: E731
    name = type(layer).__name__
    if name == "ReLU":
        return _Act(lambda z: np.maximum(z, 0.0),
                    lambda z: (z > 0) + 0.5 * (z == 0), one, zero,
                    lambda z, a: np.abs(a), lambda z, a: 1.0, kink=True)
    if name == "LeakyReLU":
        s = layer.negative_slope
        return _Act(lambda z: np.where(z > 0, z, s * z),
                    lambda z: np.where(z > 0, 1.0, s) + (z == 0) * 0.5 * (s - 1.0),
                    lambda z, r: max(1.0, abs(s)), zero,
                    lambda z, a: np.abs(a) + np.abs(s * z),
                    lambda z, a: max(1.0, abs(s)), kink=True)
    if name == "Tanh":
        return _Act(np.tanh, lambda z: 1.0 - np.tanh(z) ** 2, one,
                    lambda z, r: 4.0 / (3.0 * math.sqrt(3.0)),  # max |tanh''|
                    lambda z, a: np.abs(a), lambda z, a: 1.0)
    if name == "Sigmoid":
        return _Act(_sigmoid, lambda z: _sigmoid(z) * (1.0 - _sigmoid(z)),
                    lambda z, r: 0.25, lambda z, r: 0.1,  # max |sigmoid''| = 0.0962
                    lambda z, a: 1.0, lambda z, a: 1.0)
    if name == "SiLU":
        return _Act(lambda z: z * _sigmoid(z),
                    lambda z: _sigmoid(z) * (1.0 + z * (1.0 - _sigmoid(z))),
                    lambda z, r: 1.1, lambda z, r: 0.5,  # max |silu'| = 1.0998
                    lambda z, a: 1.0 + np.abs(z) + np.abs(a),
                    lambda z, a: 1.0 + np.abs(z))
    if name == "Exp2":
        return _Act(np.exp2, lambda z: LN2 * np.exp2(z),
                    lambda z, r: LN2 * np.exp2(z + r),
                    lambda z, r: LN2 * LN2 * np.exp2(z + r),
                    lambda z, a: np.abs(a), lambda z, a: np.abs(a))
    if name == "Exp":
        return _Act(np.exp, np.exp, lambda z, r: np.exp(z + r),
                    lambda z, r: np.exp(z + r),
                    lambda z, a: np.abs(a), lambda z, a: np.abs(a))
    if name == "Identity":
        return _Act(lambda z: z, lambda z: np.ones_like(z), one, zero,
                    lambda z, a: 0.0, lambda z, a: 0.0, ops=False)
    raise NotImplementedError(name)


def parameters(packed, buffer=None):
    """The parameters of `packed` (or of `buffer` in its layout) in float64."""
    return {k: v.astype(np.float64) for k, v in nn.unpack(packed, buffer).items()}


def forward(packed, x, params=None):
    """``(y, bound, trace)``: the float64 output for `x`, the bound on a
    target's error per element, and per layer what backward needs."""
    params = parameters(packed) if params is None else params
    u = UNIT_ROUNDOFF[packed.dtype]
    a = np.asarray(x, dtype=np.float64)
    err = np.zeros_like(a)
    trace = []
    for i, layer in enumerate(packed.layers):
        if isinstance(layer, nn.Linear):
            W = params[f"{i}.weight"]
            b = params.get(f"{i}.bias", np.zeros(W.shape[0]))
            z = a @ W.T + b
            gamma = (W.shape[1] + 1) * U32
            z_err = (err @ np.abs(W).T
                     + gamma * ((np.abs(a) + err) @ np.abs(W).T + np.abs(b))
                     + u * np.abs(z))
            trace.append(("linear", i, a, err))
            a, err = z, z_err
        else:
            act = activation(layer)
            z, z_err = a, err
            a = act.f(z)
            if act.ops:
                r = z_err + C_IN * u * np.abs(z)
                err = act.lip(z, r) * r + C_OUT * u * act.out_mag(z, a)
            trace.append(("act", i, z, z_err, act))
    return a, err, trace


def backward(packed, x, dy, params=None):
    """``(dx, dx_bound, grads, grad_bounds)``: float64 gradients of
    ``sum(dy * y)`` by back-propagation, with bounds; `grads` is a dict
    named like nn.unpack."""
    params = parameters(packed) if params is None else params
    u = UNIT_ROUNDOFF[packed.dtype]
    _, _, trace = forward(packed, x, params)
    da = np.asarray(dy, dtype=np.float64)
    da_err = np.zeros_like(da)
    batch = da.shape[0]
    grads, bounds = {}, {}
    for record in reversed(trace):
        if record[0] == "act":
            _, _, z, z_err, act = record
            if not act.ops:
                continue
            r = z_err + C_IN * u * np.abs(z)
            fprime = act.df(z)
            dz = da * fprime
            da_err = (np.abs(fprime) * da_err
                      + np.abs(da) * (act.d2(z, r) * r + C_OUT * u * act.d_mag(z, act.f(z))))
            da = dz
        else:
            _, i, a_in, a_err = record
            W = params[f"{i}.weight"]
            ones = np.ones((batch, 1))
            for name, right, right_err in ((f"{i}.weight", a_in, a_err),
                                           (f"{i}.bias", ones, 0 * ones)):
                if name not in params:
                    continue
                term = da.T @ right
                abs_sum = np.abs(da).T @ np.abs(right)
                # Per-sample error e_b = da_err |right| + |da| right_err; the
                # sum of e_b^2, expanded into matrix products.
                squares = ((da_err ** 2).T @ right ** 2
                           + 2 * (da_err * np.abs(da)).T @ (np.abs(right) * right_err)
                           + (da ** 2).T @ right_err ** 2)
                bound = (LAMBDA * np.sqrt(squares)
                         + (batch + 1) * U32 * (abs_sum + np.abs(da).T @ right_err))
                if packed.dtype == np.float16:
                    bound = bound + u * np.abs(term)
                if name.endswith("bias"):
                    term, bound = term[:, 0], bound[:, 0]
                grads[name], bounds[name] = term, bound
            da_in = da @ W
            da_err = (da_err @ np.abs(W) + (W.shape[0] + 1) * U32 * (np.abs(da) @ np.abs(W))
                      + u * np.abs(da_in))
            da = da_in
    return da, da_err, grads, bounds


def stable_rows(packed, x, params=None):
    """A mask of the samples none of whose kinked activations (ReLU,
    LeakyReLU) has an input within its error bound of 0."""
    u = UNIT_ROUNDOFF[packed.dtype]
    _, _, trace = forward(packed, x, params)
    keep = np.ones(np.asarray(x).shape[0], dtype=bool)
    for record in trace:
        if record[0] == "act" and record[4].kink:
            _, _, z, z_err, _ = record
            r = z_err + C_IN * u * np.abs(z)
            keep &= np.all(np.abs(z) > SAFETY * r, axis=1)
    return keep


def assert_close(got, want, bound, what, dtype):
    """|got - want| <= SAFETY * bound elementwise, the norm-wise error at
    most NORM_UNITS roundings of `dtype`, and nothing NaN."""
    got = np.asarray(got, dtype=np.float64)
    norm = np.linalg.norm(want)
    error = np.linalg.norm(got - want)
    units = error / (UNIT_ROUNDOFF[np.dtype(dtype)] * norm) if norm else 0.0
    assert error <= NORM_UNITS * UNIT_ROUNDOFF[np.dtype(dtype)] * norm, (
        f"{what}: norm-wise error {units:.1f} roundings, more than {NORM_UNITS}")
    assert got.shape == want.shape, (what, got.shape, want.shape)
    assert np.all(np.isfinite(got)), f"{what}: non-finite values"
    excess = np.abs(got - want) - SAFETY * bound
    worst = np.unravel_index(np.argmax(excess), excess.shape) if excess.size else None
    assert excess.size == 0 or excess.max() <= 0, (
        f"{what}: |got - want| exceeds the bound at {worst}: got {got[worst]!r}, "
        f"want {want[worst]!r}, bound {SAFETY * bound[worst]!r}")
