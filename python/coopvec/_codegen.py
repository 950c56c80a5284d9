"""MLIR text of a packed network: one per-thread function

    func.func @forward(%x: !coopvec.vec<IN, T>, %w: memref<?xT>)
        -> !coopvec.vec<OUT, T>

in the form of examples/mlp.mlir: per Linear layer a ``coopvec.matrix_view``
of the packed buffer at the layer's byte offset, a ``coopvec.load`` of its
bias and a ``coopvec.matvec`` with the bias; activations are the dialect's
elementwise ops with scalar constants on the right. IRDL ops are written in
MLIR's generic form. ``coopvec-autodiff{func=forward}`` then adds
``@forward_grad`` (docs/autodiff.md).

With a loss (``generate(packed, loss='mse')``) the module also has

    func.func @loss(%x: !coopvec.vec<IN, T>, %t: !coopvec.vec<OUT, T>,
                    %w: memref<?xT>) -> !coopvec.vec<OUT, T>

the same forward followed by the loss per element, ``(y - t)^2`` for
``'mse'``; ``coopvec-autodiff{func=loss input-gradients=false}`` adds
``@loss_grad``, the weights' gradient of the summed loss in one forward.
"""

import numpy as np

from . import nn

FUNCTION = "forward"
LOSS_FUNCTION = "loss"
#: The losses ``generate`` can append to the forward.
LOSSES = ("mse",)


class Value:
    """An SSA vec value: its name and width."""

    def __init__(self, name, width):
        self.name = name
        self.width = width


class Scalar:
    """An SSA scalar of the element type (a constant)."""

    def __init__(self, name):
        self.name = name


def _float_bits(value, dtype):
    """`value` rounded to `dtype`, as MLIR's hexadecimal bit-pattern literal
    (exact, whatever the decimal digits)."""
    if dtype == np.float16:
        return f"0x{int(np.float16(value).view(np.uint16)):04X}"
    return f"0x{int(np.float32(value).view(np.uint32)):08X}"


class Builder:
    """Collects the body of @forward; layers call its methods from their
    ``_emit``."""

    def __init__(self, packed):
        self.packed = packed
        self.element = "f16" if packed.dtype == np.float16 else "f32"
        self.memref = f"memref<?x{self.element}>"
        self.placements = {p.index: p for p in packed._placements}
        self.tables = {t.index: t for t in packed._tables}
        self.index = None  # the layer being emitted
        self.lines = []
        self.constants = {}
        self.counter = 0

    def _name(self, stem):
        self.counter += 1
        return f"%{stem}{self.counter}"

    def vec_type(self, width):
        return f"!coopvec.vec<{width}, {self.element}>"

    def const(self, value):
        """A scalar constant of the element type (emitted once per value)."""
        bits = _float_bits(value, self.packed.dtype)
        if bits not in self.constants:
            name = f"%cst{len(self.constants)}"
            rounded = float(np.asarray(value, dtype=self.packed.dtype))
            self.lines.append(f"  {name} = arith.constant {bits} : {self.element}"
                              f"  // {rounded!r}")
            self.constants[bits] = Scalar(name)
        return self.constants[bits]

    def fconst(self, value, element="f32"):
        """A scalar constant of `element` (``f32``, ``f16``), once per value."""
        dtype = np.float16 if element == "f16" else np.float32
        bits = _float_bits(value, dtype)
        key = (element, bits)
        if key not in self.constants:
            name = f"%cst{len(self.constants)}"
            self.lines.append(f"  {name} = arith.constant {bits} : {element}"
                              f"  // {float(dtype(value))!r}")
            self.constants[key] = Scalar(name)
        return self.constants[key].name

    def iconst(self, value, type_="i32"):
        """An integer (``i32``) or ``index`` constant, once per value. i32
        values are written in two's complement (2654435761 wraps)."""
        if type_ == "i32":
            value = ((int(value) + 2 ** 31) % 2 ** 32) - 2 ** 31
        key = (type_, int(value))
        if key not in self.constants:
            name = f"%c{len(self.constants)}_{type_}"
            self.lines.append(f"  {name} = arith.constant {value} : {type_}")
            self.constants[key] = Scalar(name)
        return self.constants[key].name

    def scalar(self, op, type_, *operands, result_type=None):
        """A per-thread scalar op (``arith.mulf``, ``math.sin``, ...) on SSA
        names; casts give `result_type` (``arith.fptosi``: ``f32 to i32``)."""
        name = self._name("s")
        if result_type is None:
            self.lines.append(f"  {name} = {op} {', '.join(operands)} : {type_}")
        else:
            self.lines.append(f"  {name} = {op} {', '.join(operands)} : {type_} "
                              f"to {result_type}")
        return name

    def unpack(self, x, element=None):
        """The elements of the vec `x` as scalar SSA names."""
        element = element or self.element
        names = [self._name("e") for _ in range(x.width)]
        results = f"{names[0]}:{x.width}" if x.width > 1 else names[0]
        first = names[0]
        self.lines.append(f'  {results} = "coopvec.unpack"({x.name}) : '
                          f'(!coopvec.vec<{x.width}, {element}>) -> '
                          f'({", ".join([element] * x.width)})')
        if x.width == 1:
            return [first]
        return [f"{first}#{i}" for i in range(x.width)]

    def from_elements(self, names, element=None):
        """A vec of the scalar SSA names."""
        element = element or self.element
        result = Value(self._name("v"), len(names))
        self.lines.append(f'  {result.name} = "coopvec.from_elements"'
                          f'({", ".join(names)}) : ({", ".join([element] * len(names))}) '
                          f'-> !coopvec.vec<{len(names)}, {element}>')
        return result

    def cast(self, x, source, target):
        """The vec `x` converted from element type `source` to `target`."""
        if source == target:
            return x
        result = Value(self._name("v"), x.width)
        self.lines.append(f'  {result.name} = "coopvec.cast"({x.name}) : '
                          f'(!coopvec.vec<{x.width}, {source}>) -> '
                          f'!coopvec.vec<{x.width}, {target}>')
        return result

    def vop(self, mnemonic, element, x, *operands):
        """An elementwise coopvec op on vecs of `element` (see :meth:`op`);
        scalar operands are SSA names of `element`."""
        vec = f"!coopvec.vec<{x.width}, {element}>"
        types = [vec] + [vec if isinstance(o, Value) else element for o in operands]
        names = [x.name] + [o.name if isinstance(o, Value) else o for o in operands]
        result = Value(self._name("v"), x.width)
        self.lines.append(f'  {result.name} = "coopvec.{mnemonic}"({", ".join(names)}) : '
                          f'({", ".join(types)}) -> {vec}')
        return result

    def packed_table(self, index):
        """The element offset of layer `index`'s table in the buffer."""
        return self.tables[index].offset

    def gather(self, offset, width):
        """A ``coopvec.load`` of `width` elements of the weight buffer at the
        per-thread element offset `offset` (an index SSA name)."""
        result = Value(self._name("v"), width)
        self.lines.append(f'  {result.name} = "coopvec.load"(%w, {offset}) : '
                          f'({self.memref}, index) -> {self.vec_type(width)}')
        return result

    def op(self, mnemonic, x, *operands):
        """An elementwise op on the vec `x` and vecs or scalars of the same
        element type (``add``, ``sub``, ``mul``, ``min``, ``max``, ``step``,
        ``fma``, ``neg``, ``exp2``, ``log2``, ``tanh``)."""
        vec = self.vec_type(x.width)
        types = [vec] + [vec if isinstance(o, Value) else self.element for o in operands]
        names = [x.name] + [o.name for o in operands]
        result = Value(self._name("v"), x.width)
        self.lines.append(f'  {result.name} = "coopvec.{mnemonic}"({", ".join(names)}) : '
                          f'({", ".join(types)}) -> {vec}')
        return result

    def linear(self, layer, x):
        p = self.placements[self.index]
        assert x.width == p.cols, (x.width, p.cols)
        layout = self.packed.layout
        matrix = f'!coopvec.matrix<{p.rows}, {p.cols}, {self.element}, "{layout}">'
        byte_offset = p.matrix_offset * self.packed.dtype.itemsize
        i = self.index
        self.lines.append(f"  // layer {i}: Linear({p.cols}, {p.rows}), weight at "
                          f"element {p.matrix_offset} (byte {byte_offset})" +
                          ("" if p.bias_offset is None else
                           f", bias at element {p.bias_offset}"))
        self.lines.append(f'  %W{i} = "coopvec.matrix_view"(%w) {{offset = {byte_offset}}} '
                          f': ({self.memref}) -> {matrix}')
        result = Value(f"%y{i}", p.rows)
        if p.bias_offset is None:
            self.lines.append(f'  {result.name} = "coopvec.matvec"(%W{i}, {x.name}) : '
                              f'({matrix}, {self.vec_type(p.cols)}) -> '
                              f'{self.vec_type(p.rows)}')
            return result
        self.lines.append(f"  %boff{i} = arith.constant {p.bias_offset} : index")
        self.lines.append(f'  %b{i} = "coopvec.load"(%w, %boff{i}) : ({self.memref}, '
                          f'index) -> {self.vec_type(p.rows)}')
        self.lines.append(f'  {result.name} = "coopvec.matvec"(%W{i}, {x.name}, %b{i}) : '
                          f'({matrix}, {self.vec_type(p.cols)}, {self.vec_type(p.rows)}) '
                          f'-> {self.vec_type(p.rows)}')
        return result


def _body(packed):
    """The Builder holding the forward's body, and its result."""
    b = Builder(packed)
    value = Value("%x", packed.in_features)
    for i, layer in enumerate(packed.layers):
        b.index = i
        b.lines.append(f"  // layer {i}: {layer!r}" if not isinstance(layer, nn.Linear)
                       else "")
        value = layer._emit(b, value)
        if not isinstance(value, Value):
            raise TypeError(f"coopvec: layer {i} ({layer!r}) emitted no vec value")
    b.lines = [line for line in b.lines if line]
    return b, value


def _loss_function(packed, loss):
    """@loss: the forward, then the loss of each output element against the
    target %t. Built again (not a call): coopvec-autodiff differentiates
    straight-line code."""
    b, y = _body(packed)
    t = Value("%t", y.width)
    if loss == "mse":
        error = b.op("sub", y, t)
        value = b.op("mul", error, error)
    signature = (f"func.func @{LOSS_FUNCTION}(%x: {b.vec_type(packed.in_features)}, "
                 f"%t: {b.vec_type(y.width)}, %w: {b.memref}) -> "
                 f"{b.vec_type(y.width)} {{")
    return ([f"// The {loss!r} loss of each output element against %t."] +
            [signature] + b.lines +
            [f"  return {value.name} : {b.vec_type(y.width)}", "}", ""])


def generate(packed, loss=None):
    """The MLIR module text of `packed`'s forward function, and of @loss
    with a `loss` (one of LOSSES)."""
    if not isinstance(packed, nn.PackedNet):
        raise TypeError(f"coopvec: expected a PackedNet (from nn.pack), not "
                        f"{type(packed).__name__}")
    if loss is not None and loss not in LOSSES:
        raise ValueError(f"coopvec: unknown loss {loss!r}; expected None or "
                         f"one of {', '.join(map(repr, LOSSES))}")
    b, value = _body(packed)
    header = [
        f"// {packed.in_features} -> {packed.out_features} MLP, "
        f"{packed.dtype.name}, layout {packed.layout}, generated by the coopvec "
        "Python package.",
        f"// Weight buffer %w: {packed.buffer.size} elements "
        f"({packed.buffer.size * packed.dtype.itemsize} bytes).",
    ]
    signature = (f"func.func @{FUNCTION}(%x: {b.vec_type(packed.in_features)}, "
                 f"%w: {b.memref}) -> {b.vec_type(value.width)} {{")
    return "\n".join(header + [signature] + b.lines +
                     [f"  return {value.name} : {b.vec_type(value.width)}", "}", ""] +
                     ([] if loss is None else _loss_function(packed, loss)))
