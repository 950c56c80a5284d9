"""coopvec: define, compile, run and train small MLPs from NumPy.

The Python face of coopvec, an MLIR dialect and compiler for per-thread
"cooperative vector" programs. A network described with :mod:`coopvec.nn`
is packed into one weight buffer, turned into coopvec IR (one per-thread
function, ``@forward``, differentiated by ``coopvec-autodiff``) and compiled
by libcoopvec's execution engine; each row of the input batch is one thread.
Everything goes through ``ctypes`` to libcoopvec.so; NumPy is the only
dependency.

Example::

    import numpy as np, coopvec
    from coopvec import nn

    net = nn.Sequential(nn.Linear(3, 17), nn.ReLU(), nn.Linear(17, 33),
                        nn.Tanh(), nn.Linear(33, 5))
    net = net.alloc(np.float32, rng=np.random.default_rng(0))
    packed = nn.pack(net, layout='row_major')  # f16: 'training', 'inference'
    model = coopvec.compile(packed, target='cpu')
    y = model(x)                          # x: (batch, 3) float32 -> (batch, 5)
    dx, dbuffer = model.backward(x, dy)   # gradients of sum(dy * y)
    opt = coopvec.optim.Adam(lr=1e-2)
    opt.step(packed.buffer, dbuffer)      # in place; model(x) sees it

Public names:

- :func:`compile` (``coopvec.compile(packed, target='cpu', *, num_threads=0,
  gradient=None)``) and :class:`Model`, the compiled network;
- :mod:`coopvec.nn`: ``Sequential``, ``Linear``, the activations (``ReLU``,
  ``LeakyReLU``, ``Tanh``, ``Sigmoid``, ``SiLU``, ``Exp2``, ``Exp``,
  ``Identity``), ``pack``, ``unpack``, ``PackedNet``;
- :mod:`coopvec.optim`: ``Adam``, ``SGD``;
- :class:`EngineError`: a failure of the engine (no backend for the target,
  a compile error, ...), with its status and message;
- :func:`version`, :func:`library_path`, :func:`default_num_threads`.

Errors: a wrong width or shape is a ``ValueError``, a wrong dtype a
``TypeError``, an engine failure an :class:`EngineError`. The library is
found through ``COOPVEC_LIBRARY``, the path CMake recorded for the build
tree or the install, or the dynamic loader (see ``coopvec._lib``).
See docs/python.md.
"""

from . import nn, optim
from ._lib import EngineError, library_path
from ._lib import default_num_threads as _default_num_threads
from ._lib import version as _version
from ._model import Model, compile

__all__ = ["compile", "Model", "EngineError", "nn", "optim", "version",
           "library_path", "default_num_threads"]


def version():
    """The version of the loaded libcoopvec ("MAJOR.MINOR.PATCH"); loads it."""
    return _version()


def default_num_threads():
    """How many host threads a call with ``num_threads=0`` uses (the online
    cores); loads the library."""
    return _default_num_threads()
