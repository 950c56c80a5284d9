"""Training: Adam and SGD fit a function (the loss falls 10x), and the
optimizers' arithmetic."""

import numpy as np
import pytest

import coopvec
from coopvec import nn, optim


def target_function(points):
    return (np.sin(3 * points[:, :1]) * np.cos(2 * points[:, 1:])).astype(np.float64)


def train(dtype, layout, optimizer, steps, rng):
    net = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(),
                        nn.Linear(32, 1)).alloc(dtype, rng=rng)
    packed = nn.pack(net, layout=layout)
    model = coopvec.compile(packed)
    points = rng.uniform(-1, 1, (1024, 2))
    x = points.astype(dtype)
    t = target_function(points)
    losses = []
    for _ in range(steps):
        y = model(x).astype(np.float64)
        losses.append(np.mean((y - t) ** 2))
        # d(mean squared error)/dy, scaled by the batch size: Adam is
        # invariant to the gradient's scale, and unscaled f16 gradients stay
        # clear of f16's subnormals.
        dy = (2 * (y - t)).astype(dtype)
        _, dbuffer = model.backward(x, dy)
        optimizer.step(packed.buffer, dbuffer)
    losses.append(np.mean((model(x).astype(np.float64) - t) ** 2))
    return losses


@pytest.mark.parametrize("dtype,layout", [(np.float32, "row_major"),
                                          (np.float16, "training")])
def test_adam_fits(dtype, layout, rng):
    losses = train(dtype, layout, optim.Adam(lr=1e-2), 300, rng)
    assert losses[-1] < losses[0] / 10, (losses[0], losses[-1])


def test_sgd_fits(rng):
    losses = train(np.float32, "col_major", optim.SGD(lr=5e-5, momentum=0.9), 300, rng)
    assert losses[-1] < losses[0] / 10, (losses[0], losses[-1])


def test_adam_first_step():
    """Adam's first step moves every parameter by lr against its gradient's
    sign (m_hat / sqrt(v_hat) = g / |g|)."""
    params = np.array([1.0, -2.0, 3.0], np.float32)
    opt = optim.Adam(lr=0.1)
    opt.step(params, np.array([0.5, -4.0, 0.0], np.float32))
    np.testing.assert_allclose(params, [0.9, -1.9, 3.0], rtol=1e-6)
    assert opt.state(params)["t"] == 1


def test_adam_matches_formula(rng):
    params = rng.standard_normal(10).astype(np.float32)
    reference = params.astype(np.float64)
    m = np.zeros(10)
    v = np.zeros(10)
    opt = optim.Adam(lr=0.01, betas=(0.8, 0.99), eps=1e-6)
    for t in range(1, 6):
        g = rng.standard_normal(10).astype(np.float32)
        opt.step(params, g)
        m = 0.8 * m + 0.2 * g
        v = 0.99 * v + 0.01 * g.astype(np.float64) ** 2
        reference -= 0.01 * (m / (1 - 0.8 ** t)) / (np.sqrt(v / (1 - 0.99 ** t)) + 1e-6)
    np.testing.assert_allclose(params, reference, rtol=1e-5, atol=1e-6)


def test_float16_master_weights():
    """Steps smaller than half an f16 unit add up in the float32 master copy."""
    params = np.ones(4, np.float16)
    opt = optim.SGD(lr=1e-4)
    for _ in range(20):  # 20 * 1e-4 = 2e-3, two f16 units below 1.0
        opt.step(params, np.ones(4, np.float16))
    assert np.all(params < 1) and np.all(params >= np.float16(0.997))
    # A change from outside resets the master copy to the buffer's values.
    params[:] = 5
    opt.step(params, np.zeros(4, np.float16))
    assert np.all(params == 5)


def test_optimizer_errors():
    with pytest.raises(ValueError, match="learning rate"):
        optim.Adam(lr=0)
    with pytest.raises(ValueError, match="betas"):
        optim.Adam(betas=(1.0, 0.9))
    opt = optim.Adam()
    with pytest.raises(ValueError, match="shape"):
        opt.step(np.zeros(3, np.float32), np.zeros(4, np.float32))
    with pytest.raises(TypeError, match="NumPy array"):
        opt.step([0.0], np.zeros(1, np.float32))
    with pytest.raises(TypeError, match="dtype"):
        opt.step(np.zeros(3, np.int32), np.zeros(3, np.int32))
    # Issue 24, row 10: f16 gradients for f32 weights were converted.
    with pytest.raises(TypeError, match="params has dtype float32, grads float16"):
        opt.step(np.zeros(3, np.float32), np.zeros(3, np.float16))
    with pytest.raises(TypeError, match="dtype"):
        optim.SGD().step(np.zeros(3, np.float16), np.zeros(3, np.float64))
