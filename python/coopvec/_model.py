"""coopvec.compile and the compiled Model."""

import numpy as np

from . import _codegen, _lib, nn

__all__ = ["compile", "Model"]

_DTYPE_CODES = {np.dtype(np.float16): _lib.DTYPE_F16,
                np.dtype(np.float32): _lib.DTYPE_F32}


def compile(packed, target="cpu", *, num_threads=0, gradient=None,
            reduce_mode="auto", loss=None):
    """Compiles a packed network (:func:`coopvec.nn.pack`) for `target` and
    returns a :class:`Model`.

    - `target`: ``'cpu'``, ``'cuda'`` or ``'vulkan'`` (the engine's targets).
      A target the engine has no backend (or no device) for raises
      :class:`coopvec.EngineError` with the engine's status and message.
    - `num_threads`: host threads per call, 0 (the default) for every core.
    - `gradient`: whether to also compile the gradient (``model.backward``),
      with ``coopvec-autodiff``. The default is True except for the
      ``'inference'`` layout, whose weights are read-only and have no
      gradient (docs/autodiff.md); True with that layout is a ValueError.
    - `reduce_mode`: how scatter-adds at per-thread indices are lowered:
      ``'direct'``, ``'local'``, ``'expand'`` or ``'auto'`` (the default),
      the
      ``reduce-mode`` option of the target's lowering pipeline
      (docs/passes.md). A value the lowering does not know raises
      :class:`coopvec.EngineError` with the lowering's message.
    - `loss`: None (the default) or ``'mse'``: also compile the fused
      training step :meth:`Model.train_step`, the weights' gradient of
      ``sum((model(x) - target) ** 2)`` in one forward and no input
      gradient. Needs the gradient (a ``'training'`` packing).

    The weights are not copied: every call passes ``packed.buffer`` to the
    compiled code, so in-place updates (an optimizer step) take effect at
    the next call.
    """
    return Model(packed, target, num_threads=num_threads, gradient=gradient,
                 reduce_mode=reduce_mode, loss=loss)


def _pipeline_options(reduce_mode):
    """The engine's options for the target's default pipeline: None (none)
    for 'auto', the pipelines' default."""
    if not isinstance(reduce_mode, str):
        raise TypeError(f"coopvec: reduce_mode must be a str, not "
                        f"{type(reduce_mode).__name__}")
    return None if reduce_mode == "auto" else f"reduce-mode={reduce_mode}"


def _gradient_pipeline(loss):
    """@forward_grad, and @loss_grad of the weights only (the step needs no
    input gradient: input-gradients=false drops the first layer's
    transposed matvec)."""
    passes = f"coopvec-autodiff{{func={_codegen.FUNCTION}}}"
    if loss is not None:
        passes += (f",coopvec-autodiff{{func={_codegen.LOSS_FUNCTION} "
                   "input-gradients=false}")
    return f"builtin.module({passes})"


def _num_threads(value):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"coopvec: num_threads must be an int, not "
                        f"{type(value).__name__}")
    if not 0 <= value <= 1024:
        raise ValueError(f"coopvec: num_threads is {value}; expected 0 (every "
                         "core) to 1024")
    return int(value)


class Model:
    """A compiled network: ``y = model(x)``, ``model.backward(x, dy)``.

    Made by :func:`coopvec.compile`. Attributes: ``packed`` (the
    :class:`~coopvec.nn.PackedNet` whose buffer the model reads at every
    call), ``target``, ``dtype``, ``in_features``, ``out_features``,
    ``num_threads`` (host threads per call, 0 for all cores; may be
    changed), ``reduce_mode``, ``has_gradient``, ``loss`` (None or
    ``'mse'``), ``source`` (the generated MLIR of ``@forward``, and of
    ``@loss`` with a loss, with comments on where each layer's parameters
    are), ``mlir`` (the module the engine compiled, as MLIR prints it:
    ``@forward`` and, with a gradient, the ``@forward_grad`` and
    ``@loss_grad`` that ``coopvec-autodiff`` added) and ``compile_times``
    (seconds spent lowering and in the JIT).
    """

    __module__ = "coopvec"

    def __init__(self, packed, target="cpu", *, num_threads=0, gradient=None,
                 reduce_mode="auto", loss=None):
        if not isinstance(packed, nn.PackedNet):
            raise TypeError("coopvec: compile() takes a PackedNet (from "
                            f"coopvec.nn.pack), not {type(packed).__name__}")
        if gradient is None:
            gradient = packed.layout != "inference"
        elif not isinstance(gradient, (bool, np.bool_)):
            raise TypeError("coopvec: gradient must be None, True or False, "
                            f"not {gradient!r}")
        elif gradient and packed.layout == "inference":
            raise ValueError("coopvec: the 'inference' layout is read-only and "
                             "has no gradient: pack with layout='training'")
        if loss is not None and not gradient:
            raise ValueError(f"coopvec: loss={loss!r} needs the gradient: pack "
                             "with layout='training' and leave gradient on")
        self.packed = packed
        self.dtype = packed.dtype
        self.in_features = packed.in_features
        self.out_features = packed.out_features
        self.num_threads = _num_threads(num_threads)
        self.has_gradient = bool(gradient)
        target_code = _lib.target_from_name(target)
        pipeline_options = _pipeline_options(reduce_mode)
        self.target = target
        self.reduce_mode = reduce_mode
        source = self.source = _codegen.generate(packed, loss)
        self.loss = loss
        context = _lib.Context()
        module = None
        try:
            module = context.parse(source)
            if self.has_gradient:
                context.run_pipeline(module, _gradient_pipeline(loss))
            header = "".join(line + "\n" for line in source.splitlines()
                             if line.startswith("//"))
            self.mlir = header + context.print(module)
        except BaseException:
            if module is not None:
                context.lib.mlirModuleDestroy(module)
            context.destroy()
            raise
        # The engine keeps a verified clone of the module and owns the
        # context from here on (it frees both if it fails).
        self._engine = _lib.Engine(context, module, target_code,
                                   pipeline_options)
        engine = self._engine
        self._forward = self._lookup(_codegen.FUNCTION, 2, 1)
        self._grad = (self._lookup(_codegen.FUNCTION + "_grad", 4, 1)
                      if self.has_gradient else None)
        # @loss_grad(x, t, w, dw, dl) -> (): no input gradient.
        self._loss_grad = (self._lookup(_codegen.LOSS_FUNCTION + "_grad", 5, 0)
                           if loss is not None else None)
        self._ones = None  # the loss's dl, all ones, of the last batch size
        engine.compile()
        self.compile_times = engine.compile_times()

    def _lookup(self, name, num_args, num_results):
        function, args, results = self._engine.lookup(name)
        assert len(args) == num_args and len(results) == num_results, (
            name, len(args), len(results))
        return function

    # -- argument checks ------------------------------------------------

    def _batch_array(self, value, width, what):
        """`value` as a C-contiguous (batch, width) array of the model's
        dtype, and whether it was one sample (1-D)."""
        if isinstance(value, np.ndarray):
            if value.dtype != self.dtype:
                raise TypeError(f"coopvec: {what} has dtype {value.dtype}, the model "
                                f"is {self.dtype} (convert with "
                                f".astype(np.{self.dtype.name}))")
        else:
            try:
                value = np.asarray(value, dtype=self.dtype)
            except (TypeError, ValueError) as error:
                raise TypeError(f"coopvec: {what} is not an array of numbers: "
                                f"{error}") from None
        single = value.ndim == 1
        if single:
            value = value[np.newaxis, :]
        if value.ndim != 2 or value.shape[1] != width:
            expected = f"(batch, {width}) or ({width},)"
            raise ValueError(f"coopvec: {what} has shape {value.shape}, expected "
                             f"{expected}: the model's {what} width is {width}")
        return np.ascontiguousarray(value), single

    def _batch_pair(self, x, other, what, name, per):
        """`x` (the inputs) and `other` (one output-shaped row per sample,
        called `what` in errors, `name` in the row count's) as
        _batch_array gives them, and whether they were one sample."""
        x, single = self._batch_array(x, self.in_features, "input")
        other, other_single = self._batch_array(other, self.out_features, what)
        if other.shape[0] != x.shape[0] or single != other_single:
            raise ValueError(f"coopvec: {name} has {other.shape[0]} rows, x has "
                             f"{x.shape[0]}: one {per} per sample")
        return x, other, single

    def _out_array(self, out, shape, what, inputs):
        """`out` checked as the array a result of `shape` is written to, or
        a new one; an array sharing memory with an input would be read
        while it is written."""
        if out is None:
            return np.empty(shape, dtype=self.dtype)
        if not isinstance(out, np.ndarray):
            raise TypeError(f"coopvec: {what} must be a NumPy array, not "
                            f"{type(out).__name__}")
        if out.dtype != self.dtype:
            raise TypeError(f"coopvec: {what} has dtype {out.dtype}, the model "
                            f"is {self.dtype}")
        if out.shape != shape:
            raise ValueError(f"coopvec: {what} has shape {out.shape}; it must "
                             f"have the result's shape {shape}")
        if not out.flags.c_contiguous:
            raise ValueError(f"coopvec: {what} is not contiguous (strides "
                             f"{out.strides}): pass a contiguous array")
        if not out.flags.writeable:
            raise ValueError(f"coopvec: {what} is read-only")
        if any(np.may_share_memory(out, array) for array in inputs):
            raise ValueError(f"coopvec: {what} shares memory with an input "
                             "or the weights, which the call reads while it "
                             "writes the result")
        return out

    def _weights(self):
        buffer = self.packed.buffer
        if (not isinstance(buffer, np.ndarray) or buffer.dtype != self.dtype or
                buffer.ndim != 1 or not buffer.flags.c_contiguous):
            raise TypeError("coopvec: packed.buffer must stay a contiguous 1-D "
                            f"{self.dtype} array (update it in place)")
        return buffer

    def _arg(self, array):
        return (array.ctypes.data, _DTYPE_CODES[array.dtype], array.size)

    # -- running ---------------------------------------------------------

    def forward(self, x, out=None):
        """Runs the network on `x`, a ``(batch, in_features)`` array of the
        model's dtype (or one ``(in_features,)`` sample); returns
        ``(batch, out_features)`` (or ``(out_features,)``). A NumPy array of
        another dtype is a TypeError (nothing is converted silently); lists
        are converted. With `out` (a contiguous array of the result's shape
        and dtype), the result is written there and `out` is returned: a
        training loop then allocates nothing per step."""
        x, single = self._batch_array(x, self.in_features, "input")
        w = self._weights()
        shape = (x.shape[0], self.out_features)
        y = self._out_array(out, shape[1:] if single else shape, "out", (x, w))
        self._engine.run(self._forward, x.shape[0], [self._arg(x), self._arg(w)],
                         [self._arg(y)], self.num_threads)
        return y

    __call__ = forward

    def backward(self, x, dy, dbuffer=None, dx=None):
        """Gradients of ``sum(dy * model(x))``: returns ``(dx, dbuffer)``.

        `x` is as for :meth:`forward`, `dy` has the output's shape. ``dx``
        has the shape of `x`; ``dbuffer`` has the layout of
        ``packed.buffer`` (read it with ``nn.unpack(packed, buffer=dbuffer)``)
        and holds the weight and bias gradients summed over the batch. With
        `dbuffer` given (a buffer of that size and dtype), the gradients are
        added into it instead of into a new zeroed one. With `dx` (a
        contiguous array of x's shape and dtype), dx is written there.
        """
        if not self.has_gradient:
            raise RuntimeError("coopvec: this model has no gradient (layout "
                               f"{self.packed.layout!r}, or gradient=False): "
                               "compile a 'training' packing for backward()")
        x, dy, single = self._batch_pair(x, dy, "output gradient dy", "dy",
                                         "output gradient")
        w = self._weights()
        dbuffer = self._gradient_buffer(dbuffer, w)
        dx = self._out_array(dx, x.shape[1:] if single else x.shape, "dx",
                             (x, w, dbuffer, dy))
        self._engine.run(self._grad, x.shape[0],
                         [self._arg(x), self._arg(w), self._arg(dbuffer), self._arg(dy)],
                         [self._arg(dx)], self.num_threads)
        return dx, dbuffer

    def train_step(self, x, target, dbuffer=None):
        """The weights' gradient of the loss, ``sum((model(x) - target) **
        2)`` for ``loss='mse'``, summed over the batch: returns ``dbuffer``
        (the layout of ``packed.buffer``, as :meth:`backward`'s).

        One call runs the forward once (``@loss_grad``), against
        ``model(x)``, ``dy = 2 * (y - target)`` and
        ``model.backward(x, dy)``, which run it twice and compute a ``dx``.
        `x` is as for :meth:`forward`, `target` has the output's shape. With
        `dbuffer` given, the gradients are added into it (zero it first for
        one step's gradient). Needs ``coopvec.compile(..., loss='mse')``.
        """
        if self._loss_grad is None:
            raise RuntimeError("coopvec: this model has no fused loss: compile "
                               "with loss='mse' for train_step()")
        x, t, single = self._batch_pair(x, target, "target", "target",
                                        "target")
        w = self._weights()
        dbuffer = self._gradient_buffer(dbuffer, w)
        if any(np.may_share_memory(dbuffer, a) for a in (x, t, w)):
            raise ValueError("coopvec: dbuffer shares memory with an input or "
                             "the weights, which the step reads while it adds "
                             "the gradients")
        if self._ones is None or self._ones.shape != t.shape:
            self._ones = np.ones(t.shape, dtype=self.dtype)
        self._engine.run(self._loss_grad, x.shape[0],
                         [self._arg(x), self._arg(t), self._arg(w),
                          self._arg(dbuffer), self._arg(self._ones)],
                         [], self.num_threads)
        return dbuffer

    def _gradient_buffer(self, dbuffer, w):
        """`dbuffer` checked as a buffer gradients are added into, or a new
        zeroed one."""
        if dbuffer is None:
            dbuffer = nn._aligned_zeros(w.size, self.dtype)
        elif not isinstance(dbuffer, np.ndarray):
            raise TypeError("coopvec: dbuffer must be a NumPy array")
        elif dbuffer.dtype != self.dtype:
            raise TypeError(f"coopvec: dbuffer has dtype {dbuffer.dtype}, the model "
                            f"is {self.dtype}")
        elif dbuffer.shape != w.shape:
            raise ValueError(f"coopvec: dbuffer has shape {dbuffer.shape}; it must "
                             f"have the buffer's shape {w.shape}")
        elif not dbuffer.flags.c_contiguous:
            raise ValueError("coopvec: dbuffer is not contiguous (a strided view, "
                             f"strides {dbuffer.strides}): the gradients are added "
                             "into it in place, so pass a contiguous array")
        elif not dbuffer.flags.writeable:
            raise ValueError("coopvec: dbuffer is read-only")
        return dbuffer

    def close(self):
        """Frees the compiled code now (otherwise when garbage-collected)."""
        self._engine.close()

    def __repr__(self):
        return (f"Model({self.in_features} -> {self.out_features}, "
                f"{self.dtype.name}, layout={self.packed.layout!r}, "
                f"target={self.target!r})")
