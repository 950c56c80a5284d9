"""Forward passes of compiled networks against the NumPy reference, with the
error bounds of reference.py (f32 and f16), and their gradients against
NumPy back-propagation: every activation, every layout, odd widths."""

import numpy as np
import pytest

import coopvec
from coopvec import nn
from conftest import inputs, make_net
import reference

DTYPES = [np.float32, np.float16]

ACTIVATIONS = [
    nn.ReLU(), nn.LeakyReLU(0.1), nn.LeakyReLU(2.0), nn.LeakyReLU(-0.5),
    nn.Tanh(), nn.Sigmoid(), nn.SiLU(), nn.Exp2(), nn.Exp(), nn.Identity(),
]


def check_forward(model, packed, x):
    y = model(x)
    assert y.dtype == packed.dtype and y.shape == (x.shape[0], packed.out_features)
    want, bound, _ = reference.forward(packed, x)
    reference.assert_close(y, want, bound, "forward", packed.dtype)
    return y


def check_backward(model, packed, x, rng):
    keep = reference.stable_rows(packed, x)
    assert keep.mean() > 0.5, "too many samples at a ReLU kink"
    x = x[keep]
    dy = inputs(rng, x.shape[0], packed.out_features, packed.dtype)
    dx, dbuffer = model.backward(x, dy)
    assert dx.shape == x.shape and dx.dtype == packed.dtype
    assert dbuffer.shape == packed.buffer.shape and dbuffer.dtype == packed.dtype
    want_dx, dx_bound, grads, bounds = reference.backward(packed, x, dy)
    reference.assert_close(dx, want_dx, dx_bound, "dx", packed.dtype)
    got = nn.unpack(packed, buffer=dbuffer)
    assert sorted(got) == sorted(grads)
    for name in grads:
        reference.assert_close(got[name], grads[name], bounds[name], name, packed.dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=["f32", "f16"])
@pytest.mark.parametrize("act", ACTIVATIONS, ids=repr)
def test_activation(act, dtype, rng):
    """Each activation between two layers: forward and gradients."""
    packed = make_net([5, 17, 3], [act], dtype)
    model = coopvec.compile(packed)
    x = inputs(rng, 200, 5, dtype)
    check_forward(model, packed, x)
    check_backward(model, packed, x, rng)


@pytest.mark.parametrize("dtype,layout", [
    (np.float32, "row_major"), (np.float32, "col_major"),
    (np.float16, "row_major"), (np.float16, "col_major"),
    (np.float16, "training"), (np.float16, "inference")])
def test_layout(dtype, layout, rng):
    """Three layers in each legal layout; gradients where the layout has them."""
    packed = make_net([7, 33, 17, 4], [nn.ReLU(), nn.Tanh()], dtype, layout)
    model = coopvec.compile(packed)
    assert f'"{layout}"' in model.mlir
    x = inputs(rng, 300, 7, dtype)
    check_forward(model, packed, x)
    if layout == "inference":
        assert not model.has_gradient
        with pytest.raises(RuntimeError, match="no gradient"):
            model.backward(x, np.zeros((300, 4), dtype))
    else:
        check_backward(model, packed, x, rng)


@pytest.mark.parametrize("dtype", DTYPES, ids=["f32", "f16"])
def test_odd_widths(dtype, rng):
    """Widths 1, 3, 7, 17, 33, 127 up and down again."""
    widths = [1, 3, 7, 17, 33, 127, 33, 17, 7, 3, 1]
    packed = make_net(widths, [nn.Tanh()] * 9, dtype)
    model = coopvec.compile(packed)
    x = inputs(rng, 100, 1, dtype)
    check_forward(model, packed, x)
    check_backward(model, packed, x, rng)


@pytest.mark.parametrize("width", [1, 3, 7, 17, 33, 127])
def test_single_layer_width(width, rng):
    """One Linear layer width x width (no activation): exact up to rounding."""
    packed = make_net([width, width], [], np.float32)
    model = coopvec.compile(packed, gradient=False)
    check_forward(model, packed, inputs(rng, 65, width, np.float32))


def test_batches_threads_and_single_samples(rng):
    packed = make_net([3, 17, 5], [nn.ReLU()], np.float32)
    model = coopvec.compile(packed)
    x = inputs(rng, 1000, 3, np.float32)
    y = check_forward(model, packed, x)
    for batch in (0, 1, 17, 64, 65, 999):
        assert np.array_equal(model(x[:batch]), y[:batch])
    # One sample as a 1-D array gives a 1-D result.
    assert model(x[5]).shape == (5,)
    assert np.array_equal(model(x[5]), y[5])
    # Lists are converted; results do not depend on the host threads.
    assert np.array_equal(model(x[:3].tolist()), y[:3])
    model.num_threads = 1
    assert np.array_equal(model(x), y)
    model.num_threads = 2
    assert np.array_equal(model(x), y)
    # Non-contiguous input.
    wide = np.repeat(x, 2, axis=1)[:, ::2]
    assert not wide.flags.c_contiguous
    assert np.array_equal(model(wide), y)


def test_weights_are_not_copied(rng):
    """compile() keeps using packed.buffer: in-place updates are seen."""
    packed = make_net([4, 9, 2], [nn.Tanh()], np.float32)
    model = coopvec.compile(packed)
    x = inputs(rng, 50, 4, np.float32)
    before = check_forward(model, packed, x)
    nn.unpack(packed)["2.bias"][:] += 1.0
    after = check_forward(model, packed, x)
    np.testing.assert_allclose(after, before + 1.0, rtol=1e-6, atol=1e-6)
    packed.buffer *= 0.5
    check_forward(model, packed, x)


def test_no_bias(rng):
    for dtype in DTYPES:
        packed = make_net([6, 10, 3], [nn.Sigmoid()], dtype, bias=False)
        assert "0.bias" not in packed.offsets
        model = coopvec.compile(packed)
        assert '"coopvec.load"' not in model.mlir
        x = inputs(rng, 40, 6, dtype)
        check_forward(model, packed, x)
        check_backward(model, packed, x, rng)


def test_nan_through_relu():
    """docs/python.md, "NaN": ReLU maps NaN to 0 (the dialect's max is
    maxNum), LeakyReLU keeps it. The NaN comes from the matvec (0 * NaN)."""
    for act, expected in ((nn.ReLU(), [0.0, 0.0]),
                          (nn.LeakyReLU(0.1), [np.nan, np.nan])):
        packed = nn.pack(nn.Sequential(nn.Linear(2, 2), act).alloc(np.float32))
        nn.unpack(packed)["0.weight"][:] = np.eye(2)
        nn.unpack(packed)["0.bias"][:] = 0
        model = coopvec.compile(packed, gradient=False)
        y = model(np.array([np.nan, 2.0], np.float32))
        np.testing.assert_array_equal(y, np.array(expected, np.float32))


def test_activation_before_first_layer(rng):
    packed = nn.pack(nn.Sequential(nn.Tanh(), nn.Linear(3, 4), nn.Exp2())
                     .alloc(np.float32, rng=rng))
    assert packed.in_features == 3 and packed.out_features == 4
    model = coopvec.compile(packed)
    x = inputs(rng, 30, 3, np.float32)
    check_forward(model, packed, x)
    check_backward(model, packed, x, rng)


@pytest.mark.parametrize("dtype,scale", [(np.float16, 1.01), (np.float32, 1.001)])
def test_tolerances_catch_small_errors(dtype, scale, rng):
    """The comparisons are sharp: outputs or gradients off by 1 % (f16) or
    0.1 % (f32), or a transposed matrix, fail."""
    packed = make_net([8, 8, 8], [nn.Tanh()], dtype, "row_major")
    model = coopvec.compile(packed)
    x = inputs(rng, 200, 8, dtype)
    y = model(x)
    want, bound, _ = reference.forward(packed, x)
    reference.assert_close(y, want, bound, "forward", dtype)
    with pytest.raises(AssertionError):
        reference.assert_close(y * scale, want, bound, "forward", dtype)
    params = reference.parameters(packed)
    params["2.weight"] = params["2.weight"].T.copy()
    wrong, _, _ = reference.forward(packed, x, params)
    with pytest.raises(AssertionError):
        reference.assert_close(y, wrong, bound, "forward", dtype)
    dy = inputs(rng, 200, 8, dtype)
    _, dbuffer = model.backward(x, dy)
    _, _, grads, bounds = reference.backward(packed, x, dy)
    got = nn.unpack(packed, buffer=dbuffer)
    for name in grads:
        reference.assert_close(got[name], grads[name], bounds[name], name, dtype)
        with pytest.raises(AssertionError):
            reference.assert_close(got[name] * scale, grads[name], bounds[name], name,
                                   dtype)


def test_mlir_text(rng, build_dir):
    """model.mlir is the module the engine compiled: @forward and
    @forward_grad, valid for coopvec-opt."""
    import os
    import subprocess
    packed = make_net([3, 17, 5], [nn.LeakyReLU(0.2)], np.float16, "training")
    model = coopvec.compile(packed)
    text = model.mlir
    assert "func.func @forward(" in text and "func.func @forward_grad(" in text
    assert '"coopvec.matrix_view"' in text and '"training"' in text
    opt = os.path.join(build_dir, "tools", "coopvec-opt", "coopvec-opt")
    result = subprocess.run([opt, "-"], input=text, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "@forward_grad" in result.stdout
