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
