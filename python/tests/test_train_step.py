"""The fused training step (``coopvec.compile(packed, loss='mse')``,
``model.train_step``) against the unfused one, ``model.backward(x,
2 * (model(x) - t))``, and an independent NumPy gradient in float64.

Tolerances. Both paths run the same forward and the same reverse sweep on
the same values: with dl = 1, the kernel forms dY = 2 (y - t) as
fma(1, d, 1 * d) for d = y - t (the rule of a product of a value with
itself), which is exact, as is the host's ``2 * (y - t)``. The difference is how the batch's per-thread
gradients are summed (a lane group's partial sums then atomics in thread
order), so they agree to the rounding of that sum: 1e-5 of the gradient's
scale in f32, and in f16 (each gradient rounded once after its f32 sum,
docs/execution-engine.md) two f16 units, 2e-3 of the scale. Against NumPy
in float64 (f32 only): the forward's rounding propagated through two
layers, ~1e-6 relative per element, summed over the batch; 1e-4 of the
scale leaves a wide margin, and a missing term or a transposed matrix is
off by O(1).
"""

import numpy as np
import pytest

import coopvec
from coopvec import nn
from conftest import inputs, make_net


def numpy_gradient(packed, x, t):
    """The gradient of sum((y - t)^2) for Linear-ReLU-Linear, in float64."""
    p = {k: v.astype(np.float64) for k, v in nn.unpack(packed).items()}
    x = x.astype(np.float64)
    h = x @ p["0.weight"].T + p["0.bias"]
    a = np.maximum(h, 0)
    y = a @ p["2.weight"].T + p["2.bias"]
    dy = 2 * (y - t.astype(np.float64))
    da = (dy @ p["2.weight"]) * (h > 0)
    return {"0.weight": da.T @ x, "0.bias": da.sum(0),
            "2.weight": dy.T @ a, "2.bias": dy.sum(0)}


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("batch", [1, 31, 1029])
def test_matches_backward(rng, dtype, batch):
    packed = make_net([7, 17, 3], [nn.ReLU()], dtype, seed=5)
    model = coopvec.compile(packed, loss="mse")
    x = inputs(rng, batch, 7, dtype)
    t = inputs(rng, batch, 3, dtype)
    fused = model.train_step(x, t)
    _, unfused = model.backward(x, (2 * (model(x) - t)).astype(dtype))
    scale = float(np.abs(unfused.astype(np.float64)).max())
    atol = (1e-5 if dtype == np.float32 else 2e-3) * scale
    np.testing.assert_allclose(fused.astype(np.float64),
                               unfused.astype(np.float64), rtol=0, atol=atol)
    if dtype == np.float32:
        got = nn.unpack(packed, buffer=fused)
        for name, expected in numpy_gradient(packed, x, t).items():
            np.testing.assert_allclose(
                got[name], expected, rtol=0,
                atol=1e-4 * np.abs(expected).max() + 1e-6, err_msg=name)


def test_awkward_widths(rng):
    """Widths 1, 33, 127 and a batch of 4099, f32, against backward."""
    packed = make_net([1, 33, 127, 1], [nn.ReLU(), nn.Tanh()], np.float32)
    model = coopvec.compile(packed, loss="mse")
    x, t = inputs(rng, 4099, 1, np.float32), inputs(rng, 4099, 1, np.float32)
    fused = model.train_step(x, t)
    _, unfused = model.backward(x, 2 * (model(x) - t))
    np.testing.assert_allclose(fused, unfused, rtol=0,
                               atol=1e-5 * np.abs(unfused).max())


def test_accumulates_and_one_sample(rng):
    packed = make_net([3, 5, 2], [nn.ReLU()], np.float32)
    model = coopvec.compile(packed, loss="mse")
    x, t = inputs(rng, 9, 3, np.float32), inputs(rng, 9, 2, np.float32)
    once = model.train_step(x, t)
    dbuffer = once.copy()
    assert model.train_step(x, t, dbuffer) is dbuffer
    np.testing.assert_allclose(dbuffer, 2 * once, rtol=1e-5, atol=1e-6)
    # One 1-D sample is a batch of 1; a wrong gradient would differ.
    single = model.train_step(x[0], t[0])
    np.testing.assert_allclose(single, model.train_step(x[:1], t[:1]),
                               rtol=1e-6, atol=1e-7)
    assert np.abs(single).max() > 0


def test_source_and_mlir():
    packed = make_net([3, 5, 2], [nn.ReLU()], np.float32)
    model = coopvec.compile(packed, loss="mse")
    assert "func.func @loss(%x: !coopvec.vec<3, f32>, %t: !coopvec.vec<2, f32>" \
        in model.source
    assert model.loss == "mse"
    # No input gradient: @loss_grad returns nothing.
    line = next(l for l in model.mlir.splitlines() if "func.func @loss_grad(" in l)
    assert line.rstrip().endswith(") {"), line
    assert coopvec.compile(packed).loss is None


def test_errors(rng):
    packed = make_net([3, 5, 2], [nn.ReLU()], np.float32)
    with pytest.raises(ValueError, match="unknown loss 'l1'"):
        coopvec.compile(packed, loss="l1")
    with pytest.raises(ValueError, match="needs the gradient"):
        coopvec.compile(packed, loss="mse", gradient=False)
    with pytest.raises(RuntimeError, match="no fused loss"):
        coopvec.compile(packed).train_step(np.zeros((1, 3), np.float32),
                                           np.zeros((1, 2), np.float32))
    model = coopvec.compile(packed, loss="mse")
    x, t = inputs(rng, 4, 3, np.float32), inputs(rng, 4, 2, np.float32)
    with pytest.raises(ValueError, match=r"target has shape \(4, 3\)"):
        model.train_step(x, inputs(rng, 4, 3, np.float32))
    with pytest.raises(ValueError, match="target has 5 rows, x has 4"):
        model.train_step(x, inputs(rng, 5, 2, np.float32))
    with pytest.raises(ValueError, match="target has 1 rows"):
        model.train_step(x, t[0])
    with pytest.raises(ValueError, match=r"input has shape \(4, 2\)"):
        model.train_step(t, t)
    with pytest.raises(TypeError, match="target has dtype float64"):
        model.train_step(x, t.astype(np.float64))
    with pytest.raises(ValueError, match="dbuffer has shape"):
        model.train_step(x, t, np.zeros(3, np.float32))
    with pytest.raises(TypeError, match="dbuffer has dtype"):
        model.train_step(x, t, np.zeros_like(packed.buffer, dtype=np.float16))
    with pytest.raises(ValueError, match="shares memory"):
        model.train_step(x, t, packed.buffer)
