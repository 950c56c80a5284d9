"""The encodings (nn.SinEncode, nn.TriEncode, nn.HashGridEncoding): their
forward against NumPy references in float64, their gradients (table
gradients against an independent NumPy scatter-add, input and weight
gradients against central differences), packing and naming, on the CPU
and, where the engine has a Vulkan device, on Vulkan.

Tolerances. The references compute the positions exactly as the IR does
(f32 products and fma, see the encodings' ``reference``), so the only
differences are in the last roundings:
- SinEncode: ``math.sin`` / ``math.cos`` err by at most 1 ulp of f32
  (docs/dialect.md, the math ulp table) at arguments up to 2^(k+1) pi, and
  the reference evaluates them in float64 on the same f32 argument: 2e-7
  per feature, plus the Linear layer's dot-product bound
  ``(K+1) u32 sum|W||e|``.
- TriEncode: subtraction of round() is exact (Sterbenz), the fma rounds
  once: 1 ulp of f32.
- HashGridEncoding: the d-linear weights are products of 2-3 f32 factors
  (rounded like the reference), the features are summed over 4 or 8
  corners in f32: (2^dims + 1) u32 of sum|w||t|.
- f16 networks round each feature to f16 once (u16 = 2^-11 relative) and
  the Linear layer's output once more.
"""

import numpy as np
import pytest

import coopvec
from coopvec import nn

U32 = 2.0 ** -24
U16 = 2.0 ** -11


def _targets():
    return ["cpu", "vulkan"]


def _compile(packed, target, gradient=True):
    try:
        return coopvec.compile(packed, target=target, gradient=gradient)
    except coopvec.EngineError as error:
        if target != "cpu" and error.status == 2:  # no backend / no device
            pytest.skip(f"no {target} device: {error}")
        raise


def _encodings():
    return [
        nn.SinEncode(3),
        nn.SinEncode(5, shift=0.3),
        nn.TriEncode(4),
        nn.TriEncode(2, shift=0.1),
        nn.HashGridEncoding(2, levels=3, features_per_level=2, log2_table_size=7,
                            base_resolution=3, per_level_scale=2.0),
        nn.HashGridEncoding(3, levels=2, features_per_level=3, log2_table_size=6,
                            base_resolution=2, per_level_scale=1.5),
        nn.HashGridEncoding(2, levels=5, features_per_level=1, log2_table_size=5,
                            base_resolution=5, per_level_scale=1.7),
    ]


def _network(encoding, dtype, rng, out=5, in_features=2):
    """encoding -> Linear(out), with a table of values in [-1, 1] (not the
    tiny initial values) so that a wrong entry shows."""
    if isinstance(encoding, nn.HashGridEncoding):
        width, dims = encoding.out_features, encoding.dims
    else:
        width, dims = in_features * 2 * encoding.octaves, in_features
    net = nn.Sequential(encoding, nn.Linear(width, out)).alloc(dtype, rng=rng)
    if isinstance(encoding, nn.HashGridEncoding):
        net[0].table[...] = rng.uniform(-1, 1, net[0].table.shape).astype(dtype)
    return nn.pack(net), dims


def _encoded(packed, x):
    encoding = packed.layers[0]
    if isinstance(encoding, nn.HashGridEncoding):
        return encoding.reference(x, nn.unpack(packed)["0.table"])
    return encoding.reference(x)


def _tolerance(encoding, encoded, weight, dtype):
    """Per-output bound: the encoding's rounding times |W|, plus the
    Linear layer's dot product bound, plus f16's roundings."""
    absw = np.abs(weight.astype(np.float64))
    if isinstance(encoding, nn.HashGridEncoding):
        per_feature = (2 ** encoding.dims + 1) * U32 * np.abs(encoded).max() + 4 * U32
    else:
        per_feature = 4 * U32 * np.maximum(1.0, 2.0 ** encoding.octaves)
    if dtype == np.float16:
        per_feature = per_feature + U16 * np.abs(encoded)
    bound = per_feature @ absw.T if np.ndim(per_feature) else per_feature * absw.sum(1)
    dot = (weight.shape[1] + 1) * U32 * (np.abs(encoded) @ absw.T)
    return 2 * (bound + dot) + 1e-30


@pytest.mark.parametrize("target", _targets())
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_forward_matches_numpy(target, dtype):
    """Batches 1, 31 and 1029 through one compiled model per encoding."""
    rng = np.random.default_rng(5)
    for encoding, batch in ((e, b) for e in _encodings() for b in (1, 31, 1029)):
        if batch == 1:
            packed, dims = _network(encoding, dtype, rng)
            model = _compile(packed, target, gradient=False)
        x = rng.uniform(0, 1, (batch, dims)).astype(dtype)
        encoded = _encoded(packed, x)
        if dtype == np.float16:
            encoded = encoded.astype(np.float16).astype(np.float64)
        views = nn.unpack(packed)
        weight = views["1.weight"]
        want = encoded @ weight.astype(np.float64).T + views["1.bias"]
        bound = _tolerance(encoding, encoded, weight, dtype)
        if dtype == np.float16:
            bound = bound + 2 * U16 * np.abs(want)
        got = model(x).astype(np.float64)
        assert np.all(np.abs(got - want) <= bound), (encoding, np.abs(got - want).max())


def test_hashgrid_clamps_and_nan(rng):
    """Points outside [0, 1] are clamped; NaN coordinates count as 0."""
    encoding = nn.HashGridEncoding(2, levels=2, log2_table_size=6, base_resolution=4)
    packed, _ = _network(encoding, np.float32, rng)
    model = _compile(packed, "cpu", gradient=False)
    x = np.array([[-3.0, 0.5], [1.5, 2.0], [np.nan, 0.25], [0.0, 0.5], [1.0, 1.0],
                  [0.0, 0.25]], dtype=np.float32)
    y = model(x)
    np.testing.assert_array_equal(y[0], y[3])
    np.testing.assert_array_equal(y[1], y[4])
    np.testing.assert_array_equal(y[2], y[5])


def test_hashgrid_geometry():
    """Level sizes, dense and hashed levels, as tiny-cuda-nn lays them out."""
    grid = nn.HashGridEncoding(2, levels=4, log2_table_size=8, base_resolution=4,
                               per_level_scale=2.0)
    # scale = 4 * 2^l - 1 = 3, 7, 15, 31: res = 4, 8, 16, 32 points per axis
    assert [grid.resolution(level) for level in range(4)] == [4, 8, 16, 32]
    # res^2 = 16, 64, 256 (dense) and 1024 > 256 (hashed)
    assert grid.level_entries == [16, 64, 256, 256]
    assert grid.level_offsets == [0, 16, 80, 336]
    assert grid.entries == 592
    assert [grid._dense(level) for level in range(4)] == [True, True, True, False]
    assert grid.out_features == 8
    net = nn.Sequential(grid, nn.Linear(8, 3)).alloc(np.float16,
                                                     rng=np.random.default_rng(0))
    table = net[0].table
    assert table.shape == (592, 2) and table.dtype == np.float16
    assert np.abs(table.astype(np.float32)).max() <= 1e-4
    packed = nn.pack(net)
    offset, shape = packed.offsets["0.table"]
    assert shape == (592, 2)
    np.testing.assert_array_equal(nn.unpack(packed)["0.table"], table)
    assert packed.in_features == 2 and packed.out_features == 3


def test_widths_are_inferred():
    net = nn.Sequential(nn.SinEncode(3), nn.Linear(12, 4))
    assert (net.in_features, net.out_features) == (2, 4)
    net = nn.Sequential(nn.TriEncode(2, in_features=3), nn.Linear(12, 4))
    assert net.in_features == 3
    with pytest.raises(ValueError, match="cannot output width 10"):
        nn.Sequential(nn.SinEncode(3), nn.Linear(10, 4))
    with pytest.raises(ValueError, match="needs width"):
        nn.Sequential(nn.TriEncode(2, in_features=3), nn.Linear(8, 4))
    with pytest.raises(ValueError, match="needs width"):
        nn.Sequential(nn.HashGridEncoding(2, levels=2), nn.Linear(5, 4))
    with pytest.raises(ValueError, match="at least one Linear"):
        nn.Sequential(nn.SinEncode(3), nn.ReLU())
    with pytest.raises(ValueError, match="octaves is 0"):
        nn.SinEncode(0)
    with pytest.raises(TypeError, match="octaves must be an int"):
        nn.TriEncode(2.5)
    with pytest.raises(ValueError, match="dims is 4"):
        nn.HashGridEncoding(4)
    with pytest.raises(ValueError, match="per_level_scale"):
        nn.HashGridEncoding(2, per_level_scale=0.5)
    with pytest.raises(ValueError, match="shift must be finite"):
        nn.SinEncode(2, shift=float("inf"))


def _table_gradient(encoding, x, table, upstream):
    """d sum(upstream * encoding(x)) / d table, scattered in float64 with
    np.add.at over the corners the reference computes."""
    grad = np.zeros(table.shape)
    width = encoding.features_per_level
    for level, entries, weights in encoding.corners(x):
        np.add.at(grad, entries, weights[:, None] * upstream[:, level * width:(level + 1) * width])
    return grad


@pytest.mark.parametrize("target", _targets())
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_hashgrid_table_gradient(target, dtype):
    """model.backward's table gradient against the NumPy scatter-add, with
    many threads hitting the same entries (coarse levels: every entry is
    shared by ~100 threads)."""
    rng = np.random.default_rng(7)
    for encoding in _encodings()[4:]:
        packed, dims = _network(encoding, dtype, rng)
        model = _compile(packed, target)
        batch = 1029
        x = rng.uniform(0, 1, (batch, dims)).astype(dtype)
        dy = rng.uniform(-1, 1, (batch, packed.out_features)).astype(dtype)
        _, dbuffer = model.backward(x, dy)
        views = nn.unpack(packed)
        upstream = dy.astype(np.float64) @ views["1.weight"].astype(np.float64)
        if dtype == np.float16:
            # The adjoint of the f16 encoding is rounded to f16 before the
            # scatter (the cast's straight-through rule).
            upstream = upstream.astype(np.float16).astype(np.float64)
        want = _table_gradient(encoding, x, views["0.table"], upstream)
        got = nn.unpack(packed, buffer=dbuffer)["0.table"].astype(np.float64)
        # Per entry: a sum over the threads that hit it of weight * upstream,
        # each term carrying a few roundings of the element type; the sum
        # in f32 (f16 buffers: an f32 shadow rounded once).
        unit = U16 if dtype == np.float16 else U32
        terms = _table_gradient(encoding, x, views["0.table"], np.abs(upstream))
        bound = 2 * ((batch + 8) * U32 + 4 * unit) * terms + unit * np.abs(want) + 1e-30
        assert np.all(np.abs(got - want) <= bound), (encoding, np.abs(got - want).max())


def _objective(model, x, dy):
    return float(np.sum(dy.astype(np.float64) * model(x).astype(np.float64)))


@pytest.mark.parametrize("encoding", _encodings(), ids=repr)
def test_gradients_finite_differences(encoding):
    """Input and weight gradients of each encoding + Linear + Tanh network
    (f32, CPU) against central differences of the compiled forward.

    h = 2^-12 on inputs: a sample whose finite difference crosses a kink (a
    hash grid cell boundary, a TriEncode corner) within h is left out;
    elsewhere the encodings are smooth (sin) or linear (tri, hash grid),
    and the difference errs by (w h)^2 / 6 relative (w = 2^octaves 2 pi,
    the highest frequency: 4e-4 at 5 octaves) plus rounding, u32 |f| / 2h
    (|f| ~ 10: 1.2e-3 absolute). Weights: h = 2^-9, the network is smooth
    in them. Tolerance 2e-3 of the gradient scale (at least 1)."""
    rng = np.random.default_rng(11)
    if isinstance(encoding, nn.HashGridEncoding):
        width, dims = encoding.out_features, encoding.dims
    else:
        width, dims = 2 * 2 * encoding.octaves, 2
    net = nn.Sequential(encoding, nn.Linear(width, 6), nn.Tanh(), nn.Linear(6, 2))
    net = net.alloc(np.float32, rng=rng)
    if isinstance(encoding, nn.HashGridEncoding):
        net[0].table[...] = rng.uniform(-1, 1, net[0].table.shape)
    packed = nn.pack(net)
    model = _compile(packed, "cpu")
    batch = 7
    x = rng.uniform(0.05, 0.95, (batch, dims)).astype(np.float32)
    dy = rng.uniform(-1, 1, (batch, 2)).astype(np.float32)
    dx, dbuffer = model.backward(x, dy)
    h = 2.0 ** -12
    for i in range(batch):
        for d in range(dims):
            plus, minus = x.copy(), x.copy()
            plus[i, d] += h
            minus[i, d] -= h
            if _crosses_kink(encoding, x[i, d], h):
                continue
            numeric = (_objective(model, plus, dy) - _objective(model, minus, dy)) / (
                float(plus[i, d]) - float(minus[i, d]))
            scale = max(1.0, np.abs(dx).max())
            assert abs(dx[i, d] - numeric) <= 2e-3 * scale, (i, d, dx[i, d], numeric)
    views = nn.unpack(packed, buffer=dbuffer)
    buffer = packed.buffer
    h = 2.0 ** -9
    for name in ("1.weight", "3.weight", "3.bias"):
        offset, shape = packed.offsets[name]
        for k in range(offset, offset + int(np.prod(shape)), 3):
            saved = buffer[k]
            buffer[k] = saved + np.float32(h)
            plus = _objective(model, x, dy)
            buffer[k] = saved - np.float32(h)
            minus = _objective(model, x, dy)
            buffer[k] = saved
            numeric = (plus - minus) / (2 * h)
            assert abs(dbuffer[k] - numeric) <= 2e-3 * max(1.0, np.abs(views[name]).max()), (
                name, k, dbuffer[k], numeric)


def _crosses_kink(encoding, value, h):
    value = float(value)
    if isinstance(encoding, nn.HashGridEncoding):
        for level in range(encoding.levels):
            a = np.floor((value - h) * encoding.scale(level) + 0.5)
            b = np.floor((value + h) * encoding.scale(level) + 0.5)
            if a != b:
                return True
        return False
    if isinstance(encoding, nn.TriEncode):
        for k in range(encoding.octaves):
            t = np.array([value - h, value + h]) * 2.0 ** k + k * encoding.shift
            for s in (t, t - 0.25):
                if np.floor(2 * s[0]) != np.floor(2 * s[1]):  # kinks at halves
                    return True
        return False
    return False
