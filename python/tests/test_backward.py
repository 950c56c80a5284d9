"""Gradients (model.backward) against central finite differences of the
compiled forward itself, and the gradient buffer's conventions."""

import numpy as np
import pytest

import coopvec
from coopvec import nn
from conftest import inputs, make_net


def objective(model, x, dy):
    """sum(dy * model(x)) in float64."""
    return float(np.sum(dy.astype(np.float64) * model(x).astype(np.float64)))


def test_finite_differences(rng):
    """Every weight, bias and input element of a small f32 network with smooth
    activations: the gradient matches central differences of the compiled
    forward, with the step perturbing packed.buffer in place.

    Tolerance: the central difference errs by h^2/6 |f'''| (truncation;
    h = 2^-7 and |f'''| of the order of the summed |dy| times the weight
    products, ~1e-4 relative here) plus the forward's rounding noise,
    2 * u32 * sum|dy * y| / (2h) ~ 1e-5 of the objective. 2e-3 of the
    gradient's scale (and 1e-4 absolute) covers both with a margin; a wrong
    gradient (a missing term or a transposed matrix) is off by O(1)."""
    packed = make_net([3, 7, 6, 2], [nn.Tanh(), nn.Sigmoid()], np.float32, seed=3)
    net_exp = make_net([2, 5, 2], [nn.SiLU()], np.float32, seed=4)
    for packed in (packed, net_exp):
        model = coopvec.compile(packed)
        x = inputs(rng, 8, packed.in_features, np.float32)
        dy = inputs(rng, 8, packed.out_features, np.float32)
        dx, dbuffer = model.backward(x, dy)
        h = 2.0 ** -7
        numeric = np.zeros(packed.buffer.size)
        used = np.zeros(packed.buffer.size, dtype=bool)
        for name, (offset, shape) in packed.offsets.items():
            used[offset:offset + int(np.prod(shape))] = True
        buffer = packed.buffer
        for k in np.flatnonzero(used):
            saved = buffer[k]
            buffer[k] = saved + np.float32(h)
            plus, up = objective(model, x, dy), float(buffer[k])
            buffer[k] = saved - np.float32(h)
            minus, down = objective(model, x, dy), float(buffer[k])
            buffer[k] = saved
            numeric[k] = (plus - minus) / (up - down)
        scale = np.abs(numeric).max()
        np.testing.assert_allclose(dbuffer[used], numeric[used], rtol=0,
                                   atol=2e-3 * scale + 1e-4)
        assert np.all(dbuffer[~used] == 0)  # the alignment padding gets nothing
        numeric_dx = np.zeros_like(dx, dtype=np.float64)
        for i in range(x.shape[0]):
            for j in range(x.shape[1]):
                xp, xm = x.copy(), x.copy()
                xp[i, j] += np.float32(h)
                xm[i, j] -= np.float32(h)
                numeric_dx[i, j] = ((objective(model, xp, dy) - objective(model, xm, dy))
                                    / (float(xp[i, j]) - float(xm[i, j])))
        np.testing.assert_allclose(dx, numeric_dx, rtol=0,
                                   atol=2e-3 * np.abs(numeric_dx).max() + 1e-4)


def test_gradients_accumulate_into_dbuffer(rng):
    packed = make_net([4, 8, 3], [nn.Tanh()], np.float32)
    model = coopvec.compile(packed)
    x = inputs(rng, 100, 4, np.float32)
    dy = inputs(rng, 100, 3, np.float32)
    dx, once = model.backward(x, dy)
    dx2, twice = model.backward(x, dy, dbuffer=once.copy())
    np.testing.assert_array_equal(dx, dx2)
    np.testing.assert_allclose(twice, 2 * once, rtol=1e-5, atol=1e-6)
    # The buffer passed is the one returned, updated in place.
    target = np.zeros_like(packed.buffer)
    _, returned = model.backward(x, dy, dbuffer=target)
    assert returned is target
    np.testing.assert_allclose(target, once, rtol=1e-5, atol=1e-6)


def test_results_into_given_arrays(rng):
    """forward(x, out=y) and backward(..., dx=dx) write into the arrays
    given and return them, with the values of the allocating calls."""
    packed = make_net([4, 8, 3], [nn.Tanh()], np.float32)
    model = coopvec.compile(packed)
    x = inputs(rng, 31, 4, np.float32)
    dy = inputs(rng, 31, 3, np.float32)
    y = np.full((31, 3), np.nan, np.float32)
    assert model(x, out=y) is y
    np.testing.assert_array_equal(y, model(x))
    dx = np.full((31, 4), np.nan, np.float32)
    returned, _ = model.backward(x, dy, dx=dx)
    assert returned is dx
    np.testing.assert_array_equal(dx, model.backward(x, dy)[0])
    one = np.empty(3, np.float32)
    assert model(x[0], out=one) is one
    np.testing.assert_array_equal(one, y[0])


def test_gradient_names_follow_pytorch(rng):
    packed = make_net([2, 3, 4, 1], [nn.ReLU(), nn.ReLU()], np.float16, "training")
    model = coopvec.compile(packed)
    _, dbuffer = model.backward(inputs(rng, 10, 2, np.float16),
                                np.ones((10, 1), np.float16))
    grads = nn.unpack(packed, buffer=dbuffer)
    assert list(grads) == ["0.weight", "0.bias", "2.weight", "2.bias",
                           "4.weight", "4.bias"]
    assert grads["2.weight"].shape == (4, 3) and grads["4.bias"].shape == (1,)
    assert grads["4.bias"][0] == 10  # d/db of the sum of 10 outputs


def test_f16_gradients_rounded_once():
    """f16 gradients are summed in f32 over the batch and rounded once
    (docs/dialect.md, "f16 accumulation"): the bias gradient of 65537
    samples with dy = 1/64 and the weight gradient with x = 1/4 are
    65537/64 and 65537/256, 1024 and 256 in f16. Rounded after every
    partial sum of a lane group (before the engine's f32 shadows), the bias
    gradient stopped at 512 on the CPU (the weight gradient, summed in an
    f32 tile per call there, was right)."""
    packed = make_net([1, 1], [], np.float16, "training")
    model = coopvec.compile(packed)
    batch = 65537
    x = np.full((batch, 1), 0.25, np.float16)
    dy = np.full((batch, 1), 1 / 64, np.float16)
    _, dbuffer = model.backward(x, dy)
    grads = nn.unpack(packed, buffer=dbuffer)
    assert grads["0.bias"][0] == 1024
    assert grads["0.weight"][0, 0] == 256


def test_single_sample_backward(rng):
    packed = make_net([3, 5, 2], [nn.Tanh()], np.float32)
    model = coopvec.compile(packed)
    x = inputs(rng, 1, 3, np.float32)
    dy = inputs(rng, 1, 2, np.float32)
    dx, db = model.backward(x, dy)
    dx1, db1 = model.backward(x[0], dy[0])
    assert dx1.shape == (3,)
    np.testing.assert_array_equal(dx1, dx[0])
    np.testing.assert_array_equal(db1, db)


def test_inference_layout_has_no_gradient():
    packed = make_net([3, 4], [], np.float16, "inference")
    model = coopvec.compile(packed)
    assert not model.has_gradient and "@forward_grad" not in model.mlir
    with pytest.raises(RuntimeError, match="no gradient"):
        model.backward(np.zeros((1, 3), np.float16), np.zeros((1, 4), np.float16))
    with pytest.raises(ValueError, match="inference"):
        coopvec.compile(packed, gradient=True)


def test_forward_only_compile():
    packed = make_net([3, 4], [], np.float32)
    model = coopvec.compile(packed, gradient=False)
    assert "@forward_grad" not in model.mlir
    with pytest.raises(RuntimeError, match="no gradient"):
        model.backward(np.zeros((1, 3), np.float32), np.zeros((1, 4), np.float32))
