"""Layers, networks and weight packing, after ``drjit.nn`` and PyTorch.

A network is a :class:`Sequential` of :class:`Linear` layers and elementwise
activations. It is first described (widths only), then given parameters of
one dtype with :meth:`Module.alloc`, then packed into one weight buffer with
:func:`pack`, which :func:`coopvec.compile` turns into a program::

    from coopvec import nn
    net = nn.Sequential(nn.Linear(3, 17), nn.ReLU(), nn.Linear(17, 5))
    net = net.alloc(np.float32, rng=np.random.default_rng(0))
    packed = nn.pack(net, layout='row_major')
    nn.unpack(packed)['0.weight']       # a (17, 3) view into packed.buffer

Parameter names follow PyTorch's ``Sequential``: ``'<index>.weight'`` (an
``(out, in)`` matrix) and ``'<index>.bias'`` (``(out,)``).

Activations are built from the dialect's elementwise ops (docs/dialect.md);
there is no division op, so every activation is made of add, mul, fma, max,
min, exp2 and tanh:

================  ===========================================
:class:`ReLU`     ``max(x, 0)``
:class:`LeakyReLU`  ``max(x, slope * x)`` (``min`` for slope > 1)
:class:`Tanh`     ``tanh(x)``
:class:`Sigmoid`  ``0.5 + 0.5 * tanh(x / 2)``
:class:`SiLU`     ``x * sigmoid(x)``
:class:`Exp2`     ``2 ** x``
:class:`Exp`      ``exp2(x * log2(e))``
:class:`Identity` ``x``
================  ===========================================
"""

import copy
import math

import numpy as np

__all__ = ["Module", "Linear", "Sequential", "ReLU", "LeakyReLU", "Tanh",
           "Sigmoid", "SiLU", "Exp2", "Exp", "Identity", "SinEncode",
           "TriEncode", "HashGridEncoding", "PackedNet", "pack", "unpack",
           "LAYOUTS", "MAX_WIDTH"]

#: The matrix layouts of the dialect, and the element types each is legal
#: for (lib/Dialect/ElementTypes.c). ``inference`` and ``training`` are the
#: target-optimal layouts, row-major on the CPU.
LAYOUTS = {
    "row_major": ("float16", "float32"),
    "col_major": ("float16", "float32"),
    "inference": ("float16",),
    "training": ("float16",),
}

#: Byte alignment of a matrix's offset in the weight buffer, per layout
#: (the ``coopvec.matrix_view`` rule, from OptiX).
ALIGNMENT = {"row_major": 16, "col_major": 16, "inference": 64, "training": 64}

#: The largest vector width or matrix dimension the dialect accepts.
MAX_WIDTH = 4096

_DTYPES = (np.dtype(np.float16), np.dtype(np.float32))


def _dtype(dtype):
    """The NumPy dtype of `dtype` if it is float16 or float32; TypeError
    otherwise."""
    try:
        resolved = np.dtype(dtype)
    except TypeError:
        resolved = None
    if resolved not in _DTYPES:
        raise TypeError(f"coopvec: dtype {dtype!r} is not supported: use "
                        "np.float16 or np.float32")
    return resolved


def _flag(value, what):
    """`value` as a bool; anything but a bool (or NumPy's) is a TypeError:
    bias='no' is truthy and would mean yes."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"coopvec: {what} must be True or False, not "
                        f"{value!r}")
    return bool(value)


def _width(value, what):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"coopvec: {what} must be an int, not {type(value).__name__}")
    if not 1 <= value <= MAX_WIDTH:
        raise ValueError(f"coopvec: {what} is {value}; widths are 1..{MAX_WIDTH}")
    return int(value)


class Module:
    """Base class of layers and networks.

    A module describes a function of one vector per thread. Subclasses with
    parameters create them in :meth:`alloc`; elementwise activations subclass
    :class:`Activation`.
    """

    #: Width of the input; None for elementwise layers (any width).
    in_features = None
    #: Width of the output; None for elementwise layers.
    out_features = None

    def alloc(self, dtype, rng=None):
        """A copy of the module with parameters of `dtype` (np.float16 or
        np.float32), drawn from `rng` (a ``np.random.Generator``; default: a
        fresh ``default_rng()``). The module itself is not changed."""
        dtype = _dtype(dtype)
        if rng is None:
            rng = np.random.default_rng()
        clone = copy.deepcopy(self)
        clone._alloc(dtype, rng)
        return clone

    def _alloc(self, dtype, rng):
        pass

    def named_parameters(self, prefix=""):
        """``(name, array)`` pairs of the parameters (none before alloc)."""
        return iter(())

    def state_dict(self):
        """A dict of copies of the parameters, named as in PyTorch."""
        return {name: value.copy() for name, value in self.named_parameters()}

    def load_state_dict(self, state):
        """Copies the arrays of `state` (names as :meth:`state_dict`, e.g.
        from :func:`unpack`) into the parameters. Every parameter must be
        present with its shape; the values are converted to its dtype."""
        own = dict(self.named_parameters())
        if not own:
            raise ValueError("coopvec: the module has no parameters: call "
                             ".alloc(dtype) first")
        missing = sorted(set(own) - set(state))
        unexpected = sorted(set(state) - set(own))
        if missing or unexpected:
            raise ValueError(f"coopvec: state_dict mismatch: missing {missing}, "
                             f"unexpected {unexpected}")
        for name, target in own.items():
            value = np.asarray(state[name])
            if value.shape != target.shape:
                raise ValueError(f"coopvec: {name} has shape {value.shape}, "
                                 f"expected {target.shape}")
            target[...] = value

    def _emit(self, builder, value):
        """Emits the layer's MLIR (coopvec/_codegen.py); returns the new value."""
        raise NotImplementedError

    def __repr__(self):
        return f"{type(self).__name__}()"


class Linear(Module):
    """``y = W x + b`` with ``W`` of shape ``(out_features, in_features)``.

    After :meth:`alloc`, ``weight`` and ``bias`` are NumPy arrays initialized
    as PyTorch does: uniform in ``(-1/sqrt(in_features), 1/sqrt(in_features))``.
    With ``bias=False`` there is no bias (`bias` is a bool: anything else is
    a TypeError). Widths are 1..4096.
    """

    def __init__(self, in_features, out_features, bias=True):
        self.in_features = _width(in_features, "in_features")
        self.out_features = _width(out_features, "out_features")
        self.has_bias = _flag(bias, "Linear's bias")
        self.weight = None
        self.bias = None

    def _alloc(self, dtype, rng):
        bound = 1.0 / math.sqrt(self.in_features)
        shape = (self.out_features, self.in_features)
        self.weight = rng.uniform(-bound, bound, shape).astype(dtype)
        if self.has_bias:
            self.bias = rng.uniform(-bound, bound, self.out_features).astype(dtype)

    def named_parameters(self, prefix=""):
        if self.weight is not None:
            yield prefix + "weight", self.weight
        if self.bias is not None:
            yield prefix + "bias", self.bias

    def _emit(self, builder, value):
        return builder.linear(self, value)

    def __repr__(self):
        bias = "" if self.has_bias else ", bias=False"
        return f"Linear({self.in_features}, {self.out_features}{bias})"


class Activation(Module):
    """An elementwise layer (keeps the width). Subclasses implement
    ``_emit(builder, value)`` with the builder's elementwise ops."""


class ReLU(Activation):
    """``max(x, 0)``. Its gradient at exactly 0 is 1/2 (docs/autodiff.md)."""

    def _emit(self, b, x):
        return b.op("max", x, b.const(0.0))


class LeakyReLU(Activation):
    """``x`` where ``x > 0``, ``negative_slope * x`` elsewhere, computed as
    ``max(x, slope * x)`` (``min`` when the slope is above 1). The slope is
    rounded to the network's dtype."""

    def __init__(self, negative_slope=0.01):
        self.negative_slope = float(negative_slope)
        if not math.isfinite(self.negative_slope):
            raise ValueError("coopvec: LeakyReLU's slope must be finite")

    def _emit(self, b, x):
        scaled = b.op("mul", x, b.const(self.negative_slope))
        return b.op("min" if self.negative_slope > 1 else "max", x, scaled)

    def __repr__(self):
        return f"LeakyReLU({self.negative_slope})"


class Tanh(Activation):
    """``tanh(x)``."""

    def _emit(self, b, x):
        return b.op("tanh", x)


class Sigmoid(Activation):
    """``1 / (1 + exp(-x))``, computed as ``0.5 + 0.5 * tanh(x / 2)`` (the
    dialect has no division)."""

    def _emit(self, b, x):
        half = b.const(0.5)
        return b.op("fma", b.op("tanh", b.op("mul", x, half)), half, half)


class SiLU(Activation):
    """``x * sigmoid(x)`` (swish)."""

    def _emit(self, b, x):
        return b.op("mul", x, Sigmoid()._emit(b, x))


class Exp2(Activation):
    """``2 ** x``."""

    def _emit(self, b, x):
        return b.op("exp2", x)


class Exp(Activation):
    """``e ** x``, computed as ``exp2(x * log2(e))``."""

    def _emit(self, b, x):
        return b.op("exp2", b.op("mul", x, b.const(math.log2(math.e))))


class Identity(Activation):
    """``x`` (emits nothing)."""

    def _emit(self, b, x):
        return x


def _infer_widths(layers):
    """The width before each layer and after the last: fixed by Linear
    layers and hash grids, carried through activations, multiplied or
    divided by the encodings' expansion. Sweeps forward and backward until
    nothing changes; a conflict or a width left unknown is a ValueError."""
    widths = [None] * (len(layers) + 1)

    def settle(k, width, i):
        if width is None:
            return False
        if widths[k] is None:
            widths[k] = width
            return True
        if widths[k] != width:
            raise ValueError(f"coopvec: layer {i} ({layers[i]!r}) needs width "
                             f"{width} where the network has {widths[k]}")
        return False

    changed = True
    while changed:
        changed = False
        for i, layer in enumerate(layers):
            if isinstance(layer, Activation):
                changed |= settle(i + 1, widths[i], i) | settle(i, widths[i + 1], i)
                continue
            changed |= settle(i, layer.in_features, i)
            changed |= settle(i + 1, layer.out_features, i)
            if hasattr(layer, "_widen"):
                if widths[i] is not None:
                    changed |= settle(i + 1, layer._widen(widths[i]), i)
                if widths[i + 1] is not None:
                    narrow = layer._narrow(widths[i + 1])
                    if narrow is None:
                        raise ValueError(f"coopvec: layer {i} ({layer!r}) cannot "
                                         f"output width {widths[i + 1]}")
                    changed |= settle(i, narrow, i)
    for k, width in enumerate(widths):
        if width is None:
            raise ValueError(f"coopvec: the width before layer {k} is not fixed by any "
                             "layer: give the encoding's in_features")
        if width > MAX_WIDTH:
            raise ValueError(f"coopvec: the width before layer {k} is {width}; "
                             f"widths are 1..{MAX_WIDTH}")
    return widths


class Sequential(Module):
    """Layers applied in order, as PyTorch's ``nn.Sequential``.

    ``net[i]``, ``len(net)`` and iteration reach the layers. The widths of
    consecutive ``Linear`` layers must agree; at least one ``Linear`` fixes
    the input and output widths (``in_features``, ``out_features``).
    """

    def __init__(self, *layers):
        if len(layers) == 1 and isinstance(layers[0], (list, tuple)):
            layers = tuple(layers[0])
        for i, layer in enumerate(layers):
            if isinstance(layer, Sequential):
                raise TypeError(f"coopvec: layer {i} is a Sequential: nesting is not "
                                "supported, list its layers instead")
            if not isinstance(layer, Module):
                raise TypeError(f"coopvec: layer {i} is {layer!r}, not a "
                                "coopvec.nn layer (Linear or an activation)")
        self.layers = list(layers)
        linear = [(i, layer) for i, layer in enumerate(self.layers)
                  if isinstance(layer, Linear)]
        if not linear and not any(layer.in_features for layer in self.layers):
            raise ValueError("coopvec: a Sequential needs at least one Linear layer "
                             "(or an encoding that fixes its widths)")
        for (i, a), (j, b) in zip(linear, linear[1:]):
            if a.out_features != b.in_features and all(
                    isinstance(layer, Activation) for layer in self.layers[i + 1:j]):
                raise ValueError(f"coopvec: layer {i} has {a.out_features} outputs "
                                 f"but layer {j} takes {b.in_features} inputs")
        self.widths = _infer_widths(self.layers)
        self.in_features = self.widths[0]
        self.out_features = self.widths[-1]

    def __len__(self):
        return len(self.layers)

    def __getitem__(self, index):
        return self.layers[index]

    def __iter__(self):
        return iter(self.layers)

    def _alloc(self, dtype, rng):
        for layer in self.layers:
            layer._alloc(dtype, rng)

    def named_parameters(self, prefix=""):
        for i, layer in enumerate(self.layers):
            yield from layer.named_parameters(f"{prefix}{i}.")

    @property
    def dtype(self):
        """The parameters' dtype; None before :meth:`alloc`."""
        for _, value in self.named_parameters():
            return value.dtype
        return None

    def _emit(self, builder, value):
        for layer in self.layers:
            value = layer._emit(builder, value)
        return value

    def __repr__(self):
        inner = "".join(f"\n  ({i}): {layer!r}" for i, layer in enumerate(self.layers))
        return f"Sequential({inner}\n)"


def _aligned_zeros(size, dtype, alignment=64):
    """A zeroed 1-D array whose data starts at a multiple of `alignment`
    bytes (the optimal layouts' matrices are 64-byte aligned within it)."""
    itemsize = np.dtype(dtype).itemsize
    raw = np.zeros(size * itemsize + alignment, dtype=np.uint8)
    start = (-raw.ctypes.data) % alignment
    return raw[start:start + size * itemsize].view(dtype)


class _Placement:
    """Where one Linear layer's parameters are in the buffer."""

    def __init__(self, index, layer, matrix_offset, bias_offset):
        self.index = index
        self.rows = layer.out_features
        self.cols = layer.in_features
        self.matrix_offset = matrix_offset  # elements; a multiple of the alignment
        self.bias_offset = bias_offset      # elements, or None without a bias


class _TablePlacement:
    """Where an encoding's parameter array (a hash grid's table) is."""

    def __init__(self, index, name, offset, shape):
        self.index = index
        self.name = name
        self.offset = offset  # elements
        self.shape = shape

    @property
    def size(self):
        return int(np.prod(self.shape))


class PackedNet:
    """A network's parameters packed into one weight buffer, and its shape.

    Made by :func:`pack`. Attributes:

    - ``buffer``: the 1-D NumPy array of every weight and bias (64-byte
      aligned). :func:`coopvec.compile` does not copy it: models read it at
      every call, so optimizers update it in place.
    - ``layout``: the matrix layout (``'row_major'``, ``'col_major'``,
      ``'inference'`` or ``'training'``).
    - ``dtype``: ``np.float16`` or ``np.float32`` (as a ``np.dtype``).
    - ``layers``: the network's layers, without their parameter arrays.
    - ``in_features``, ``out_features``: the widths.
    - ``offsets``: ``{name: (element offset, shape)}`` of every parameter.
    """

    def __init__(self, layers, layout, dtype, buffer, placements, tables=()):
        self.layers = layers
        self.layout = layout
        self.dtype = dtype
        self.buffer = buffer
        self._placements = placements
        self._tables = list(tables)
        self.widths = _infer_widths(layers)
        self.in_features = self.widths[0]
        self.out_features = self.widths[-1]

    @property
    def offsets(self):
        """``{name: (element offset, shape)}`` of every parameter in the
        buffer (names as :func:`unpack`)."""
        result = {}
        for p in self._placements:
            result[f"{p.index}.weight"] = (p.matrix_offset, (p.rows, p.cols))
            if p.bias_offset is not None:
                result[f"{p.index}.bias"] = (p.bias_offset, (p.rows,))
        for t in self._tables:
            result[f"{t.index}.{t.name}"] = (t.offset, t.shape)
        return result

    def unpack(self, buffer=None):
        """Same as :func:`unpack` (``unpack(self, buffer)``)."""
        return unpack(self, buffer)

    def to_net(self):
        """A :class:`Sequential` with copies of the buffer's current values."""
        net = Sequential(*copy.deepcopy(self.layers))
        net._alloc(self.dtype, np.random.default_rng(0))
        net.load_state_dict(unpack(self))
        return net

    def __repr__(self):
        return (f"PackedNet({self.in_features} -> {self.out_features}, "
                f"{self.dtype.name}, layout={self.layout!r}, "
                f"{self.buffer.size} elements)")


def pack(net, layout=None):
    """Packs the parameters of `net` (an allocated :class:`Sequential`, or
    one layer) into one buffer in `layout`; returns a :class:`PackedNet`.

    `layout` is ``'row_major'`` or ``'col_major'`` (float16 and float32), or
    ``'inference'`` or ``'training'`` (float16 only; row-major on the CPU).
    ``'inference'`` weights are read-only: such a model has no
    ``backward``. The default is ``'training'`` for float16 and
    ``'row_major'`` for float32.

    Each layer's matrix starts at a byte offset that is a multiple of 16
    (plain layouts) or 64 (optimal layouts), as ``coopvec.matrix_view``
    requires; its bias follows it; the gaps are zero.
    """
    if isinstance(net, Module) and not isinstance(net, Sequential):
        net = Sequential(net)
    if not isinstance(net, Sequential):
        raise TypeError(f"coopvec: pack() takes a coopvec.nn.Sequential, not "
                        f"{type(net).__name__}")
    dtype = net.dtype
    if dtype is None:
        raise ValueError("coopvec: the network has no parameters: pack "
                         "net.alloc(dtype) (it returns the allocated copy)")
    for name, value in net.named_parameters():
        if value.dtype != dtype:
            raise TypeError(f"coopvec: {name} is {value.dtype}, but the network "
                            f"is {dtype}: all parameters must have one dtype")
    if layout is None:
        layout = "training" if dtype == np.float16 else "row_major"
    if layout not in LAYOUTS:
        raise ValueError(f"coopvec: unknown layout {layout!r}; expected one of "
                         f"{', '.join(map(repr, LAYOUTS))}")
    if dtype.name not in LAYOUTS[layout]:
        raise ValueError(f"coopvec: layout {layout!r} is for float16 matrices "
                         "only; float32 matrices are 'row_major' or 'col_major' "
                         "(docs/dialect.md)")
    itemsize = dtype.itemsize
    align = ALIGNMENT[layout] // itemsize
    placements, tables, end = [], [], 0
    for i, layer in enumerate(net.layers):
        if hasattr(layer, "_parameter_shapes"):
            for name, shape in layer._parameter_shapes().items():
                value = getattr(layer, name)
                if value is None or value.shape != shape:
                    raise ValueError(f"coopvec: {i}.{name} is missing or not of shape "
                                     f"{shape}: call net.alloc(dtype) first")
                offset = -(-end // align) * align
                tables.append(_TablePlacement(i, name, offset, shape))
                end = offset + int(np.prod(shape))
            continue
        if not isinstance(layer, Linear):
            continue
        if layer.weight is None or (layer.has_bias and layer.bias is None):
            raise ValueError(f"coopvec: layer {i} has no parameters: call "
                             "net.alloc(dtype) first")
        if layer.weight.shape != (layer.out_features, layer.in_features):
            raise ValueError(f"coopvec: {i}.weight has shape {layer.weight.shape}, "
                             f"expected {(layer.out_features, layer.in_features)}")
        if layer.bias is not None and layer.bias.shape != (layer.out_features,):
            raise ValueError(f"coopvec: {i}.bias has shape {layer.bias.shape}, "
                             f"expected {(layer.out_features,)}")
        matrix = -(-end // align) * align
        end = matrix + layer.out_features * layer.in_features
        bias = None
        if layer.bias is not None:
            bias, end = end, end + layer.out_features
        placements.append(_Placement(i, layer, matrix, bias))
    layers = []
    for layer in net.layers:
        shape = copy.copy(layer)
        if isinstance(shape, Linear):
            shape.weight = shape.bias = None
        for name in getattr(shape, "_parameter_shapes", dict)():
            setattr(shape, name, None)
        layers.append(shape)
    packed = PackedNet(tuple(layers), layout, dtype, _aligned_zeros(end, dtype),
                       placements, tables)
    views = unpack(packed)
    for name, value in net.named_parameters():
        views[name][...] = value
    return packed


def unpack(packed, buffer=None):
    """``{'0.weight': (out, in) array, '0.bias': (out,) array, ...}``: views
    of the parameters in ``packed.buffer``, or in `buffer`, a buffer of the
    same size and dtype (a gradient from ``model.backward``). The arrays
    share memory with the buffer: writing them changes it."""
    if not isinstance(packed, PackedNet):
        raise TypeError(f"coopvec: unpack() takes a PackedNet (from nn.pack), "
                        f"not {type(packed).__name__}")
    if buffer is None:
        buffer = packed.buffer
    if not isinstance(buffer, np.ndarray):
        raise TypeError(f"coopvec: buffer must be a NumPy array, not "
                        f"{type(buffer).__name__}")
    if buffer.dtype != packed.dtype:
        raise TypeError(f"coopvec: buffer is {buffer.dtype}, the network is "
                        f"{packed.dtype}")
    if buffer.shape != packed.buffer.shape:
        raise ValueError(f"coopvec: buffer has shape {buffer.shape}, the packed "
                         f"network's is {packed.buffer.shape}")
    if not buffer.flags.c_contiguous:
        raise ValueError("coopvec: buffer must be contiguous")
    result = {}
    for p in packed._placements:
        flat = buffer[p.matrix_offset:p.matrix_offset + p.rows * p.cols]
        if packed.layout == "col_major":  # element (i, j) at j * rows + i
            result[f"{p.index}.weight"] = flat.reshape(p.cols, p.rows).T
        else:  # row_major; the optimal layouts are row-major on the CPU
            result[f"{p.index}.weight"] = flat.reshape(p.rows, p.cols)
        if p.bias_offset is not None:
            result[f"{p.index}.bias"] = buffer[p.bias_offset:p.bias_offset + p.rows]
    for t in packed._tables:
        result[f"{t.index}.{t.name}"] = buffer[t.offset:t.offset + t.size].reshape(t.shape)
    return result


# The encodings subclass Module, so they are defined after it (and their
# module imports this one).
from ._encodings import HashGridEncoding, SinEncode, TriEncode  # noqa: E402
