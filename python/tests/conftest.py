"""Shared helpers of the coopvec Python tests (python/tests).

Run with the package and the library of a build tree, as the lit test
test/python/pytest.test does:

    PYTHONPATH=python COOPVEC_LIBRARY=build/lib/libcoopvec.so \\
        COOPVEC_BUILD_DIR=build python3 -m pytest python/tests -q

COOPVEC_BUILD_DIR (the CMake build directory) enables the tests of the build
tree's package and of `cmake --install`.
"""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))  # reference.py

import coopvec  # noqa: E402
from coopvec import nn  # noqa: E402


def make_net(widths, activations, dtype, layout=None, seed=0, bias=True):
    """A packed Sequential: Linear(widths[i], widths[i+1]) layers with
    activations[i] after layer i (None: none), and its PackedNet."""
    layers = []
    for i in range(len(widths) - 1):
        layers.append(nn.Linear(widths[i], widths[i + 1], bias=bias))
        if i < len(activations) and activations[i] is not None:
            layers.append(activations[i])
    net = nn.Sequential(*layers).alloc(dtype, rng=np.random.default_rng(seed))
    return nn.pack(net, layout=layout)


def inputs(rng, batch, width, dtype, scale=1.0):
    return (scale * rng.standard_normal((batch, width))).astype(dtype)


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


@pytest.fixture(scope="session")
def build_dir():
    path = os.environ.get("COOPVEC_BUILD_DIR")
    if not path:
        pytest.skip("COOPVEC_BUILD_DIR is not set (the lit test sets it)")
    return path
