"""Bad input raises a Python exception with a clear message, never a crash."""

import os
import subprocess
import sys

import numpy as np
import pytest

import coopvec
from coopvec import nn
from conftest import make_net


@pytest.fixture(scope="module")
def model():
    return coopvec.compile(make_net([3, 8, 2], [nn.ReLU()], np.float32))


def test_wrong_dtype(model):
    with pytest.raises(TypeError, match="float64.*float32"):
        model(np.zeros((4, 3)))
    with pytest.raises(TypeError, match="float16"):
        model(np.zeros((4, 3), np.float16))
    with pytest.raises(TypeError, match="int64"):
        model(np.zeros((4, 3), np.int64))
    with pytest.raises(TypeError, match="not an array of numbers"):
        model([["a", "b", "c"]])
    x = np.zeros((4, 3), np.float32)
    with pytest.raises(TypeError, match="dy"):
        model.backward(x, np.zeros((4, 2), np.float64))
    with pytest.raises(TypeError, match="dbuffer"):
        model.backward(x, np.zeros((4, 2), np.float32),
                       dbuffer=np.zeros(model.packed.buffer.size, np.float64))


def test_wrong_shape(model):
    with pytest.raises(ValueError, match=r"shape \(4, 4\).*width is 3"):
        model(np.zeros((4, 4), np.float32))
    with pytest.raises(ValueError, match="shape"):
        model(np.zeros((2, 2, 3), np.float32))
    with pytest.raises(ValueError, match="shape"):
        model(np.float32(1.0))
    x = np.zeros((4, 3), np.float32)
    with pytest.raises(ValueError, match="width is 2"):
        model.backward(x, np.zeros((4, 3), np.float32))
    with pytest.raises(ValueError, match="rows"):
        model.backward(x, np.zeros((5, 2), np.float32))
    with pytest.raises(ValueError, match="dbuffer"):
        model.backward(x, np.zeros((4, 2), np.float32), dbuffer=np.zeros(3, np.float32))


def test_strided_dbuffer(model):
    """Issue 24, row 11: a strided dbuffer of the right shape was refused
    with "dbuffer has shape (N,); it must be a contiguous array of the
    buffer's shape (N,)", which does not say what is wrong."""
    x = np.zeros((4, 3), np.float32)
    strided = np.zeros(2 * model.packed.buffer.size, np.float32)[::2]
    with pytest.raises(ValueError, match=r"dbuffer is not contiguous .*strides \(8,\)"):
        model.backward(x, np.zeros((4, 2), np.float32), dbuffer=strided)


def test_replaced_buffer(model):
    """packed.buffer must stay the packed array (updated in place)."""
    saved = model.packed.buffer
    try:
        model.packed.buffer = saved.astype(np.float64)
        with pytest.raises(TypeError, match="in place"):
            model(np.zeros((1, 3), np.float32))
        model.packed.buffer = saved.copy()  # a copy of the right kind is used
        assert model(np.zeros((1, 3), np.float32)).shape == (1, 2)
    finally:
        model.packed.buffer = saved


@pytest.mark.parametrize("target", ["cuda", "vulkan"])
def test_gpu_targets(target, rng):
    """The engine decides: without a backend (or a device) for the target,
    its own error comes through as an EngineError with its status and
    message; where the target runs, the results are right."""
    import reference
    packed = make_net([3, 4], [nn.Tanh()], np.float32)
    try:
        model = coopvec.compile(packed, target=target)
    except coopvec.EngineError as error:
        assert error.status_name in ("no backend", "no device"), error
        assert error.message and error.message in str(error)
        if error.status_name == "no backend":
            name = {"cuda": "CUDA", "vulkan": "Vulkan"}[target]
            assert f"no {name} backend" in error.message
        return
    x = rng.standard_normal((100, 3)).astype(np.float32)
    want, bound, _ = reference.forward(packed, x)
    reference.assert_close(model(x), want, bound, "forward", np.float32)


def test_unknown_target_and_options():
    packed = make_net([3, 4], [], np.float32)
    with pytest.raises(ValueError, match="unknown target 'gpu'"):
        coopvec.compile(packed, target="gpu")
    with pytest.raises(ValueError, match="num_threads"):
        coopvec.compile(packed, num_threads=-1)
    with pytest.raises(TypeError, match="PackedNet"):
        coopvec.compile(nn.Sequential(nn.Linear(3, 4)).alloc(np.float32))
    # Issue 24, row 9: the name went to C as a C string, cut at the NUL.
    with pytest.raises(ValueError, match=r"unknown target 'cpu\\x00x'"):
        coopvec.compile(packed, target="cpu\x00x")


def test_flags_are_bools():
    """Issue 24, row 10: bias='no' made a bias, gradient='yes' compiled a
    gradient; the docs say an object of the wrong kind is a TypeError."""
    with pytest.raises(TypeError, match="bias must be True or False, not 'no'"):
        nn.Linear(3, 4, bias="no")
    with pytest.raises(TypeError, match="bias"):
        nn.Linear(3, 4, bias=None)
    assert not nn.Linear(3, 4, bias=np.False_).has_bias
    packed = make_net([3, 4], [], np.float32)
    with pytest.raises(TypeError,
                       match="gradient must be None, True or False, not 'yes'"):
        coopvec.compile(packed, gradient="yes")
    with pytest.raises(TypeError, match="gradient"):
        coopvec.compile(packed, gradient=1)


def test_library_not_found(tmp_path):
    """A missing library is an OSError that says how to point at one, raised
    on first use: importing and help() still work."""
    code = ("import coopvec, pydoc\n"
            "pydoc.render_doc(coopvec)\n"
            "try:\n"
            "    coopvec.version()\n"
            "except OSError as e:\n"
            "    print('OSError:', e)\n")
    env = dict(os.environ, COOPVEC_LIBRARY=str(tmp_path / "libcoopvec.so"))
    result = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "OSError: coopvec: cannot load the C library" in result.stdout
    assert "COOPVEC_LIBRARY" in result.stdout


def test_closed_model():
    model = coopvec.compile(make_net([3, 4], [], np.float32))
    x = np.zeros((2, 3), np.float32)
    assert model(x).shape == (2, 4)
    model.close()
    model.close()  # twice is fine
    with pytest.raises(RuntimeError, match="closed"):
        model(x)


def test_python_threads_share_a_model(model):
    """Calls from several Python threads are serialized per engine."""
    import threading
    x = np.random.default_rng(0).standard_normal((5000, 3)).astype(np.float32)
    want = model(x)
    results = [None] * 4

    def work(i):
        results[i] = [np.array_equal(model(x), want) for _ in range(10)]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(all(r) for r in results)


def test_bad_out_arrays(model):
    """forward's `out` and backward's `dx` are checked like dbuffer; one
    sharing memory with an input would be read while it is written."""
    x = np.zeros((4, 3), np.float32)
    dy = np.zeros((4, 2), np.float32)
    with pytest.raises(TypeError, match="out has dtype float64"):
        model(x, out=np.zeros((4, 2)))
    with pytest.raises(TypeError, match="out must be a NumPy array"):
        model(x, out=[[0.0, 0.0]] * 4)
    with pytest.raises(ValueError, match=r"out has shape \(4, 3\).*\(4, 2\)"):
        model(x, out=np.zeros((4, 3), np.float32))
    with pytest.raises(ValueError, match="out is not contiguous"):
        model(x, out=np.zeros((4, 4), np.float32)[:, ::2])
    readonly = np.zeros((4, 2), np.float32)
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="out is read-only"):
        model(x, out=readonly)
    with pytest.raises(ValueError, match=r"dx has shape \(4, 2\)"):
        model.backward(x, dy, dx=np.zeros((4, 2), np.float32))
    with pytest.raises(TypeError, match="dx has dtype float16"):
        model.backward(x, dy, dx=np.zeros((4, 3), np.float16))
    with pytest.raises(ValueError, match="dx shares memory"):
        model.backward(x, dy, dx=x)
    square = coopvec.compile(make_net([3, 3], [], np.float32))
    with pytest.raises(ValueError, match="out shares memory"):
        square(x, out=x)
