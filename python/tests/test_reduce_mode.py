"""coopvec.compile(..., reduce_mode=...): the reduce-mode option of the
lowering pipelines (docs/passes.md), passed as the engine's
pipelineOptions. The networks' gradients add at uniform offsets, so every
mode must give the same forward and backward bits; a mode the lowering does
not know comes back as the lowering's error, which shows that the value
reaches it (on the CPU, and on Vulkan where a device exists)."""
import numpy as np
import pytest

import coopvec
from coopvec import nn
from conftest import inputs, make_net


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_modes_agree(rng, dtype):
    layout = "training" if dtype == np.float16 else None
    packed = make_net([5, 7, 3], [nn.Tanh()], dtype, layout=layout, seed=5)
    x = inputs(rng, 31, 5, dtype)
    dy = inputs(rng, 31, 3, dtype)
    results = {}
    for mode in ("direct", "local", "expand", "auto"):
        model = coopvec.compile(packed, reduce_mode=mode)
        assert model.reduce_mode == mode
        y = model(x)
        dx, dbuffer = model.backward(x, dy)
        results[mode] = (y, dx, dbuffer)
    for mode in ("local", "expand", "auto"):
        for got, want in zip(results[mode], results["direct"]):
            np.testing.assert_array_equal(got, want)


def test_bad_modes():
    packed = make_net([3, 4], [], np.float32)
    with pytest.raises(coopvec.EngineError,
                       match="reduce-mode=bogus is not a mode; use direct, "
                             "local, expand or auto"):
        coopvec.compile(packed, reduce_mode="bogus")
    with pytest.raises(TypeError, match="reduce_mode must be a str"):
        coopvec.compile(packed, reduce_mode=1)



def test_vulkan_modes(rng):
    packed = make_net([5, 7, 3], [nn.Tanh()], np.float32, seed=6)
    x = inputs(rng, 33, 5, np.float32)
    try:
        want = coopvec.compile(packed, target="vulkan", reduce_mode="direct")(x)
    except coopvec.EngineError as error:
        if error.status_name in ("no device", "no backend"):
            pytest.skip(error.message)
        raise
    got = coopvec.compile(packed, target="vulkan", reduce_mode="local")(x)
    np.testing.assert_array_equal(got, want)
    with pytest.raises(coopvec.EngineError,
                       match="reduce-mode=bogus is not valid: expected "
                             "direct, local, expand or auto"):
        coopvec.compile(packed, target="vulkan", reduce_mode="bogus")


@pytest.mark.parametrize("mode", ["expand", "auto", "direct"])
def test_f16_hashgrid_table_gradient(mode):
    """An f16 hash grid's table gradient (reduce_sum_accumulate at
    per-thread offsets into the gradient buffer, which the linear layer's
    weight and bias gradients share) under each mode on 2 host threads,
    against the NumPy scatter-add in float64. On the CPU the engine runs
    the f16 buffer on an f32 shadow; under expand (and auto: the copies,
    a few KiB, fit its 8 MiB) host thread 1 adds into an f32 copy of it,
    merged into the shadow, which is rounded to f16 once. The bound is
    test_encodings.py's (association-independent): per entry, the terms'
    own roundings and an f32 sum in any association, (batch + 8) u32 times
    the sum of |terms|, plus one f16 rounding of the result."""
    from test_encodings import U16, U32, _network, _table_gradient
    rng = np.random.default_rng(23)
    encoding = nn.HashGridEncoding(2, levels=3, features_per_level=2,
                                   log2_table_size=7, base_resolution=3,
                                   per_level_scale=2.0)
    packed, dims = _network(encoding, np.float16, rng)
    model = coopvec.compile(packed, reduce_mode=mode, num_threads=2)
    batch = 4099
    x = rng.uniform(0, 1, (batch, dims)).astype(np.float16)
    dy = rng.uniform(-1, 1, (batch, packed.out_features)).astype(np.float16)
    _, dbuffer = model.backward(x, dy)
    views = nn.unpack(packed)
    upstream = dy.astype(np.float64) @ views["1.weight"].astype(np.float64)
    # The adjoint of the f16 encoding is rounded to f16 before the scatter.
    upstream = upstream.astype(np.float16).astype(np.float64)
    want = _table_gradient(encoding, x, views["0.table"], upstream)
    got = nn.unpack(packed, buffer=dbuffer)["0.table"].astype(np.float64)
    terms = _table_gradient(encoding, x, views["0.table"], np.abs(upstream))
    bound = 2 * ((batch + 8) * U32 + 4 * U16) * terms + U16 * np.abs(want) + 1e-30
    assert np.all(np.abs(got - want) <= bound), np.abs(got - want).max()
