"""Input encodings, after ``drjit.nn`` and tiny-cuda-nn: layers that map a
thread's point to features before the first :class:`~coopvec.nn.Linear`.

They are generated as coopvec IR inside ``@forward`` (per-thread ``arith``
and ``math`` on the unpacked coordinates, gathers from the weight buffer),
so ``coopvec-autodiff`` differentiates them with the rest of the network:
``model.backward`` returns the hash grid's table gradients in the packed
gradient buffer.

All position arithmetic is f32 whatever the network's dtype (f16 cannot
hold a position on a fine grid: at resolution 2048 its spacing is 1..2
cells); the features are rounded to the network's dtype once, at the end.
The exact formulas are in docs/python.md, "Encodings", and ``reference``
functions below compute them in NumPy (the tests' expectations).
"""

import math

import numpy as np

from .nn import Module

__all__ = ["SinEncode", "TriEncode", "HashGridEncoding"]

_F32 = "f32"


def _octaves(value):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"coopvec: octaves must be an int, not {type(value).__name__}")
    if not 1 <= value <= 24:
        raise ValueError(f"coopvec: octaves is {value}; expected 1..24 (2^24 x "
                         "is beyond f32's integers)")
    return int(value)


def _finite(value, what):
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"coopvec: {what} must be finite, not {value}")
    return value


class Encoding(Module):
    """Base class of the encodings: a function of the whole input vec (not
    elementwise). ``in_features`` may be None until the network fixes it."""

    def _widen(self, in_width):
        """The output width for an input width."""
        raise NotImplementedError

    def _narrow(self, out_width):
        """The input width for an output width, or None when it is not a
        multiple of the expansion."""
        raise NotImplementedError

    def _input_f32(self, b, x):
        """The input coordinates as f32 scalar SSA names."""
        return b.unpack(b.cast(x, b.element, _F32), _F32)

    def _output(self, b, names):
        """The f32 features `names` as a vec of the network's dtype."""
        return b.cast(b.from_elements(names, _F32), _F32, b.element)


class _Periodic(Encoding):
    """SinEncode and TriEncode: 2 features per input channel and octave."""

    def __init__(self, octaves, shift=0.0, in_features=None):
        self.octaves = _octaves(octaves)
        self.shift = _finite(shift, "shift")
        self.in_features = None if in_features is None else _width(in_features)
        self.out_features = (None if self.in_features is None
                             else self._widen(self.in_features))

    def _widen(self, in_width):
        return in_width * 2 * self.octaves

    def _narrow(self, out_width):
        q, r = divmod(out_width, 2 * self.octaves)
        return q if r == 0 and q > 0 else None

    def __repr__(self):
        shift = f", shift={self.shift}" if self.shift else ""
        width = "" if self.in_features is None else f", in_features={self.in_features}"
        return f"{type(self).__name__}({self.octaves}{shift}{width})"


def _width(value):
    from .nn import _width as check
    return check(value, "in_features")


class SinEncode(_Periodic):
    """``x -> [sin(2 pi (2^k x + k shift)), cos(...)]`` for each input
    channel and octave ``k < octaves``, in that order (channel-major, then
    octave, then sin before cos): ``2 * octaves`` features per channel, as
    ``drjit.nn.SinEncode``. The argument ``2 pi 2^k x`` is one f32
    multiplication by the constant ``2^(k+1) pi`` (rounded to f32), then
    ``math.sin`` / ``math.cos``. Period 1: map inputs to [0, 1]."""

    def _emit(self, b, x):
        features = []
        for xi in self._input_f32(b, x):
            for k in range(self.octaves):
                arg = b.scalar("arith.mulf", _F32, xi, b.fconst(2.0 ** (k + 1) * math.pi))
                if self.shift:
                    arg = b.scalar("arith.addf", _F32, arg,
                                   b.fconst(2 * math.pi * k * self.shift))
                features.append(b.scalar("math.sin", _F32, arg))
                features.append(b.scalar("math.cos", _F32, arg))
        return self._output(b, features)

    def reference(self, x):
        """The encoding of the rows of `x` in float64 (the f32 rounding of
        the argument included, as the IR computes it)."""
        x = np.asarray(x, dtype=np.float32).astype(np.float64)
        columns = []
        for i in range(x.shape[1]):
            for k in range(self.octaves):
                scale = np.float64(np.float32(2.0 ** (k + 1) * math.pi))
                arg = (x[:, i] * scale).astype(np.float32).astype(np.float64)
                if self.shift:
                    arg = (arg + np.float64(np.float32(2 * math.pi * k * self.shift))
                           ).astype(np.float32).astype(np.float64)
                columns += [np.sin(arg), np.cos(arg)]
        return np.stack(columns, axis=1)


class TriEncode(_Periodic):
    """Triangle waves instead of sines, as ``drjit.nn.TriEncode``: with
    ``t = fma(x, 2^k, k shift)``, ``sin_tri = 1 - 4 |s - round(s)|`` for
    ``s = t - 1/4`` and ``cos_tri = 1 - 4 |t - round(t)|``; per channel and
    octave, sin_tri then cos_tri. Cheaper than SinEncode (no
    transcendental), period 1."""

    def _emit(self, b, x):
        features = []
        quarter, minus4, one = b.fconst(0.25), b.fconst(-4.0), b.fconst(1.0)
        for xi in self._input_f32(b, x):
            for k in range(self.octaves):
                t = b.scalar("math.fma", _F32, xi, b.fconst(2.0 ** k),
                             b.fconst(k * self.shift))
                s = b.scalar("arith.subf", _F32, t, quarter)
                for value in (s, t):
                    wrapped = b.scalar("arith.subf", _F32, value,
                                       b.scalar("math.round", _F32, value))
                    features.append(b.scalar("math.fma", _F32,
                                             b.scalar("math.absf", _F32, wrapped),
                                             minus4, one))
        return self._output(b, features)

    def reference(self, x):
        """The encoding of the rows of `x` in float64 (f32 arguments)."""
        x = np.asarray(x, dtype=np.float32).astype(np.float64)

        def f32(v):
            return np.asarray(v).astype(np.float32).astype(np.float64)

        def tri(v):  # math.round: halves away from zero
            return 1 - 4 * np.abs(v - np.sign(v) * np.floor(np.abs(v) + 0.5))

        columns = []
        for i in range(x.shape[1]):
            for k in range(self.octaves):
                t = f32(x[:, i] * 2.0 ** k + f32(k * self.shift))
                s = f32(t - 0.25)
                columns += [tri(s), tri(t)]
        return np.stack(columns, axis=1)


# tiny-cuda-nn's spatial hash: the coordinates times these primes, xor'ed
# (the first prime is 1, so neighbouring x share cache lines).
_PRIMES = (1, 2654435761, 805459861)


class HashGridEncoding(Encoding):
    """A multiresolution hash grid (Instant-NGP, tiny-cuda-nn's ``HashGrid``)
    with trainable tables: ``dims``-D points in [0, 1]^dims to
    ``levels * features_per_level`` features.

    Level ``l`` has ``scale = base_resolution * per_level_scale^l - 1`` and
    ``res = ceil(scale) + 1`` grid points per axis, and a table of
    ``min(next multiple of 8 of res^dims, 2^log2_table_size)`` entries of
    ``features_per_level`` values. A point (clamped to [0, 1]; NaN gives 0)
    is at ``pos = x * scale + 0.5`` (f32, two roundings), in the cell ``floor(pos)``; each
    of the cell's ``2^dims`` corners is an entry, dense (``x + res y + res^2
    z``) when the grid fits the table and hashed (``x ^ y * 2654435761 ^ z *
    805459861``, 32-bit) otherwise, modulo the table's size; the corners'
    features, gathered at per-thread offsets, are interpolated d-linearly
    in f32. Levels are concatenated, level 0 first.

    Parameters (``'<i>.table'``, shape ``(entries, features_per_level)``,
    the levels one after the other) are drawn uniform in [-1e-4, 1e-4], as
    tiny-cuda-nn initializes them. They live in the packed buffer like the
    Linear layers' weights, in the network's dtype (f16 tables: Adam keeps
    f32 master weights, see coopvec.optim).
    """

    def __init__(self, dims=2, levels=16, features_per_level=2, log2_table_size=19,
                 base_resolution=16, per_level_scale=2.0):
        if dims not in (2, 3) or isinstance(dims, bool):
            raise ValueError(f"coopvec: HashGridEncoding's dims is {dims!r}; expected 2 or 3")
        self.dims = int(dims)
        self.levels = self._count(levels, "levels", 1, 32)
        self.features_per_level = self._count(features_per_level, "features_per_level", 1, 8)
        self.log2_table_size = self._count(log2_table_size, "log2_table_size", 3, 24)
        self.base_resolution = self._count(base_resolution, "base_resolution", 1, 1 << 16)
        self.per_level_scale = _finite(per_level_scale, "per_level_scale")
        if not 1.0 <= self.per_level_scale <= 16.0:
            raise ValueError("coopvec: per_level_scale must be in [1, 16], not "
                             f"{self.per_level_scale}")
        self.in_features = self.dims
        self.out_features = self.levels * self.features_per_level
        self.level_entries, self.level_offsets = self._geometry()
        if self.out_features > 4096:
            raise ValueError("coopvec: levels * features_per_level is above 4096")
        self.table = None

    @staticmethod
    def _count(value, what, low, high):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"coopvec: {what} must be an int, not {type(value).__name__}")
        if not low <= value <= high:
            raise ValueError(f"coopvec: {what} is {value}; expected {low}..{high}")
        return int(value)

    def scale(self, level):
        """Level `level`'s scale, as the f32 constant the IR uses."""
        exact = (2.0 ** (level * math.log2(self.per_level_scale)) *
                 self.base_resolution - 1.0)
        return float(np.float32(exact))

    def resolution(self, level):
        """Level `level`'s grid points per axis, ``ceil(scale) + 1``."""
        return int(math.ceil(self.scale(level))) + 1

    def _geometry(self):
        entries, offsets, offset = [], [], 0
        table = 1 << self.log2_table_size
        for level in range(self.levels):
            dense = self.resolution(level) ** self.dims
            size = min(-(-dense // 8) * 8, table)
            entries.append(size)
            offsets.append(offset)
            offset += size
        return entries, offsets

    @property
    def entries(self):
        """Table entries over all levels."""
        return sum(self.level_entries)

    def _dense(self, level):
        return self.resolution(level) ** self.dims <= self.level_entries[level]

    def _widen(self, in_width):
        return self.out_features

    def _narrow(self, out_width):
        return self.in_features

    def _alloc(self, dtype, rng):
        shape = (self.entries, self.features_per_level)
        self.table = rng.uniform(-1e-4, 1e-4, shape).astype(dtype)

    def named_parameters(self, prefix=""):
        if self.table is not None:
            yield prefix + "table", self.table

    def _parameter_shapes(self):
        return {"table": (self.entries, self.features_per_level)}

    # -- code generation --------------------------------------------------

    def _corner_entry(self, b, level, coords):
        """The i32 entry of the corner at i32 grid coordinates `coords`."""
        size = self.level_entries[level]
        if self._dense(level):
            index, stride = coords[0], 1
            for c in coords[1:]:
                stride *= self.resolution(level)
                index = b.scalar("arith.addi", "i32", index,
                                 b.scalar("arith.muli", "i32", c, b.iconst(stride)))
        else:
            index = coords[0]
            for c, prime in zip(coords[1:], _PRIMES[1:]):
                index = b.scalar("arith.xori", "i32", index,
                                 b.scalar("arith.muli", "i32", c, b.iconst(prime)))
        if size & (size - 1) == 0:  # unsigned modulo of a power of two
            return b.scalar("arith.andi", "i32", index, b.iconst(size - 1))
        return b.scalar("arith.remui", "i32", index, b.iconst(size))

    def _emit(self, b, x):
        zero, one, half = b.fconst(0.0), b.fconst(1.0), b.fconst(0.5)
        point = [b.scalar("arith.minnumf", _F32, b.scalar("arith.maxnumf", _F32, xi, zero), one)
                 for xi in self._input_f32(b, x)]
        base = b.packed_table(b.index)
        feature_names = []
        width = self.features_per_level
        for level in range(self.levels):
            b.lines.append(f"  // hash grid level {level}: scale {self.scale(level)!r}, "
                           f"{self.resolution(level)} points per axis, "
                           f"{self.level_entries[level]} entries "
                           f"({'dense' if self._dense(level) else 'hashed'})")
            scale = b.fconst(self.scale(level))
            cells, fracs, rests = [], [], []
            for p in point:
                # Two roundings, not math.fma: Vulkan lets drivers split
                # fma into mul + add (lavapipe does), and the cell must be
                # the same on every engine.
                pos = b.scalar("arith.addf", _F32,
                               b.scalar("arith.mulf", _F32, p, scale), half)
                cell = b.scalar("math.floor", _F32, pos)
                fracs.append(b.scalar("arith.subf", _F32, pos, cell))
                rests.append(b.scalar("arith.subf", _F32, one, fracs[-1]))
                cells.append(b.scalar("arith.fptosi", _F32, cell, result_type="i32"))
            nexts = [b.scalar("arith.addi", "i32", c, b.iconst(1)) for c in cells]
            acc = None
            for corner in range(1 << self.dims):
                upper = [(corner >> d) & 1 for d in range(self.dims)]
                coords = [nexts[d] if upper[d] else cells[d] for d in range(self.dims)]
                weight = fracs[0] if upper[0] else rests[0]
                for d in range(1, self.dims):
                    weight = b.scalar("arith.mulf", _F32, weight,
                                      fracs[d] if upper[d] else rests[d])
                entry = b.scalar("arith.index_cast", "i32",
                                 self._corner_entry(b, level, coords), result_type="index")
                offset = b.scalar("arith.addi", "index",
                                  b.scalar("arith.muli", "index", entry, b.iconst(width, "index")),
                                  b.iconst(base + self.level_offsets[level] * width, "index"))
                feature = b.cast(b.gather(offset, width), b.element, _F32)
                acc = (b.vop("mul", _F32, feature, weight) if acc is None else
                       b.vop("fma", _F32, feature, weight, acc))
            feature_names += b.unpack(acc, _F32)
        return self._output(b, feature_names)

    # -- reference ----------------------------------------------------------

    def corners(self, x):
        """For each level and cell corner, ``(level, entries, weights)``:
        the table rows (absolute, into ``'<i>.table'``) the rows of `x`
        read and their d-linear weights, in float64 from the f32 positions
        the IR computes (a NumPy reimplementation for the tests)."""
        x = np.asarray(x, dtype=np.float32).astype(np.float64)
        x = np.clip(np.nan_to_num(x, nan=0.0), 0.0, 1.0)
        for level in range(self.levels):
            # x * scale rounded to f32 (exact in float64: 24 + 24 bits),
            # then + 0.5 rounded to f32 (exact in float64 too).
            pos = (x * self.scale(level)).astype(np.float32).astype(np.float64)
            pos = (pos + 0.5).astype(np.float32).astype(np.float64)
            cell = np.floor(pos)
            frac = (pos - cell).astype(np.float32).astype(np.float64)
            cell = cell.astype(np.int64)
            for corner in range(1 << self.dims):
                upper = [(corner >> d) & 1 for d in range(self.dims)]
                weight = np.ones(x.shape[0])
                for d in range(self.dims):
                    w = frac[:, d] if upper[d] else (1 - frac[:, d]).astype(np.float32)
                    weight = (weight * w).astype(np.float32).astype(np.float64)
                coords = [cell[:, d] + upper[d] for d in range(self.dims)]
                yield level, self._reference_entry(level, coords), weight

    def _reference_entry(self, level, coords):
        if self._dense(level):
            index, stride = np.zeros(coords[0].shape, dtype=np.uint64), 1
            for c in coords:
                index = index + np.uint64(stride) * c.astype(np.uint64)
                stride *= self.resolution(level)
            index &= np.uint64(0xFFFFFFFF)
        else:
            index = coords[0].astype(np.uint64)
            for c, prime in zip(coords[1:], _PRIMES[1:]):
                index ^= (c.astype(np.uint64) * np.uint64(prime)) & np.uint64(0xFFFFFFFF)
        entry = (index % np.uint64(self.level_entries[level])).astype(np.int64)
        return self.level_offsets[level] + entry

    def reference(self, x, table):
        """The encoding of the rows of `x` with `table` (``(entries,
        features_per_level)``), in float64 (see :meth:`corners`)."""
        table = np.asarray(table).astype(np.float64)
        width = self.features_per_level
        out = np.zeros((np.shape(x)[0], self.levels * width))
        for level, entries, weights in self.corners(x):
            out[:, level * width:(level + 1) * width] += weights[:, None] * table[entries]
        return out

    def __repr__(self):
        return (f"HashGridEncoding(dims={self.dims}, levels={self.levels}, "
                f"features_per_level={self.features_per_level}, "
                f"log2_table_size={self.log2_table_size}, "
                f"base_resolution={self.base_resolution}, "
                f"per_level_scale={self.per_level_scale})")

