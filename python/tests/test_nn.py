"""coopvec.nn: layers, allocation, packing and unpacking (no compiling)."""

import numpy as np
import pytest

from coopvec import nn


def mlp():
    return nn.Sequential(nn.Linear(3, 17), nn.ReLU(), nn.Linear(17, 33), nn.Tanh(),
                         nn.Linear(33, 5))


def test_alloc_returns_an_allocated_copy():
    net = mlp()
    assert net.dtype is None and net[0].weight is None
    allocated = net.alloc(np.float32, rng=np.random.default_rng(0))
    assert net[0].weight is None  # unchanged
    assert allocated.dtype == np.float32
    assert allocated[0].weight.shape == (17, 3) and allocated[0].bias.shape == (17,)
    # PyTorch's initialization: U(-1/sqrt(in), 1/sqrt(in)).
    assert np.abs(allocated[2].weight).max() <= 1 / np.sqrt(17)
    again = net.alloc(np.float32, rng=np.random.default_rng(0))
    assert np.array_equal(again[4].weight, allocated[4].weight)
    assert net.alloc(np.float16).dtype == np.float16
    assert net.alloc("float16").dtype == np.float16


def test_names_follow_pytorch():
    net = mlp().alloc(np.float32)
    assert [name for name, _ in net.named_parameters()] == [
        "0.weight", "0.bias", "2.weight", "2.bias", "4.weight", "4.bias"]
    assert (net.in_features, net.out_features) == (3, 5)
    assert len(net) == 5 and isinstance(net[1], nn.ReLU)
    assert "Linear(17, 33)" in repr(net)


@pytest.mark.parametrize("dtype,layout", [
    (np.float32, "row_major"), (np.float32, "col_major"), (np.float16, "row_major"),
    (np.float16, "col_major"), (np.float16, "inference"), (np.float16, "training")])
def test_pack_unpack(dtype, layout):
    net = mlp().alloc(dtype, rng=np.random.default_rng(1))
    packed = nn.pack(net, layout=layout)
    assert packed.layout == layout and packed.dtype == dtype
    assert packed.buffer.ctypes.data % 64 == 0
    alignment = 64 if layout in ("inference", "training") else 16
    itemsize = np.dtype(dtype).itemsize
    for name, (offset, shape) in packed.offsets.items():
        if name.endswith("weight"):
            assert offset * itemsize % alignment == 0, (name, offset)
    views = nn.unpack(packed)
    state = net.state_dict()
    assert list(views) == list(state)
    for name, value in state.items():
        assert np.array_equal(views[name], value), name
        assert np.shares_memory(views[name], packed.buffer)
    # Where element (i, j) of a matrix is.
    offset, (rows, cols) = packed.offsets["2.weight"]
    W = state["2.weight"]
    if layout == "col_major":
        assert packed.buffer[offset + 4 * rows + 2] == W[2, 4]
    else:
        assert packed.buffer[offset + 2 * cols + 4] == W[2, 4]
    # Views write through; a gradient buffer is read in the same layout.
    views["0.bias"][:] = 7
    assert np.all(packed.buffer[packed.offsets["0.bias"][0]:][:17] == 7)
    grad = np.arange(packed.buffer.size).astype(dtype)
    assert np.array_equal(nn.unpack(packed, buffer=grad)["4.bias"],
                          grad[packed.offsets["4.bias"][0]:][:5])
    # to_net copies the current values back into a Sequential.
    net2 = packed.to_net()
    assert np.all(net2[0].bias == 7)
    assert not np.shares_memory(net2[0].bias, packed.buffer)


def test_padding_is_zero():
    packed = nn.pack(nn.Sequential(nn.Linear(3, 3), nn.Linear(3, 3))
                     .alloc(np.float16, rng=np.random.default_rng(0)), "training")
    # 3x3 halves + 3 bias = 24 bytes; the next matrix starts at byte 64.
    assert packed.offsets["1.weight"][0] == 32
    assert np.all(packed.buffer[12:32] == 0)


def test_default_layouts():
    assert nn.pack(mlp().alloc(np.float16)).layout == "training"
    assert nn.pack(mlp().alloc(np.float32)).layout == "row_major"


def test_load_state_dict():
    net = mlp().alloc(np.float32, rng=np.random.default_rng(0))
    other = mlp().alloc(np.float32, rng=np.random.default_rng(1))
    other.load_state_dict(net.state_dict())
    assert np.array_equal(other[4].weight, net[4].weight)
    with pytest.raises(ValueError, match="missing"):
        other.load_state_dict({"0.weight": net[0].weight})
    with pytest.raises(ValueError, match="shape"):
        state = net.state_dict()
        state["0.bias"] = np.zeros(3)
        other.load_state_dict(state)


def test_bad_networks():
    with pytest.raises(ValueError, match="1..4096"):
        nn.Linear(0, 3)
    with pytest.raises(ValueError, match="1..4096"):
        nn.Linear(3, 4097)
    with pytest.raises(TypeError, match="int"):
        nn.Linear(3.0, 4)
    with pytest.raises(ValueError, match="takes 4 inputs"):
        nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(4, 2))
    with pytest.raises(ValueError, match="at least one Linear"):
        nn.Sequential(nn.ReLU())
    with pytest.raises(TypeError, match="not a coopvec.nn layer"):
        nn.Sequential(nn.Linear(3, 5), "relu")
    with pytest.raises(TypeError, match="nesting"):
        nn.Sequential(nn.Sequential(nn.Linear(3, 5)))
    with pytest.raises(TypeError, match="not supported"):
        mlp().alloc(np.float64)
    with pytest.raises(TypeError, match="not supported"):
        mlp().alloc(np.int32)
    with pytest.raises(ValueError, match="finite"):
        nn.LeakyReLU(float("nan"))


def test_bad_packing():
    with pytest.raises(ValueError, match="alloc"):
        nn.pack(mlp())
    with pytest.raises(ValueError, match="float16 matrices only"):
        nn.pack(mlp().alloc(np.float32), layout="training")
    with pytest.raises(ValueError, match="float16 matrices only"):
        nn.pack(mlp().alloc(np.float32), layout="inference")
    with pytest.raises(ValueError, match="unknown layout"):
        nn.pack(mlp().alloc(np.float16), layout="blocked")
    net = mlp().alloc(np.float32)
    net[2].weight = net[2].weight.astype(np.float16)
    with pytest.raises(TypeError, match="one dtype"):
        nn.pack(net)
    net = mlp().alloc(np.float32)
    net[2].weight = np.zeros((33, 16), np.float32)
    with pytest.raises(ValueError, match="shape"):
        nn.pack(net)
    with pytest.raises(TypeError, match="Sequential"):
        nn.pack("net")
    # A single layer is packed as a one-layer Sequential.
    assert nn.pack(nn.Linear(2, 3).alloc(np.float32)).out_features == 3


def test_bad_unpack():
    packed = nn.pack(mlp().alloc(np.float32))
    with pytest.raises(TypeError, match="float16"):
        nn.unpack(packed, buffer=packed.buffer.astype(np.float16))
    with pytest.raises(ValueError, match="shape"):
        nn.unpack(packed, buffer=packed.buffer[1:])
    with pytest.raises(TypeError, match="NumPy array"):
        nn.unpack(packed, buffer=list(packed.buffer))
    with pytest.raises(TypeError, match="PackedNet"):
        nn.unpack(mlp())
