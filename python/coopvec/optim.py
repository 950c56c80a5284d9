"""Optimizers that update a weight buffer in place from its gradient.

::

    opt = coopvec.optim.Adam(lr=1e-2)
    dx, dbuffer = model.backward(x, dy)
    opt.step(packed.buffer, dbuffer)     # packed.buffer changes in place

An optimizer keeps its state (moments, step count) per parameter buffer, so
one optimizer can step several buffers. The state is float32 whatever the
buffer's dtype; for float16 buffers it also keeps float32 *master weights*
(mixed precision, as in PyTorch's AMP): each step updates the float32 copy
and writes it back rounded to float16, so updates smaller than half a
float16 unit of the weight are not lost. If the buffer was changed by
someone else since the last step (it no longer holds what the optimizer
wrote), the master copy is taken from the buffer again.
"""

import numpy as np

__all__ = ["Optimizer", "SGD", "Adam"]


class Optimizer:
    """Base class: checks the arrays and keeps per-buffer state."""

    def __init__(self, lr):
        self.lr = float(lr)
        if not self.lr > 0:
            raise ValueError(f"coopvec: the learning rate must be positive, not {lr}")
        self._state = {}

    def _check(self, params, grads):
        for name, array in (("params", params), ("grads", grads)):
            if not isinstance(array, np.ndarray):
                raise TypeError(f"coopvec: {name} must be a NumPy array, not "
                                f"{type(array).__name__}")
            if array.dtype not in (np.float16, np.float32, np.float64):
                raise TypeError(f"coopvec: {name} has dtype {array.dtype}; "
                                "expected float16, float32 or float64")
        if params.dtype != grads.dtype:
            raise TypeError(f"coopvec: params has dtype {params.dtype}, grads "
                            f"{grads.dtype}: they must match (nothing is "
                            "converted silently)")
        if params.shape != grads.shape:
            raise ValueError(f"coopvec: params has shape {params.shape}, grads "
                             f"{grads.shape}")
        if not params.flags.writeable:
            raise ValueError("coopvec: params is read-only")

    def _master(self, params, state):
        """The float32 (float64 for float64 params) values to update."""
        if params.dtype != np.float16:
            return None
        master = state.get("master")
        if master is None or not np.array_equal(master.astype(np.float16), params,
                                                equal_nan=True):
            master = params.astype(np.float32)
            state["master"] = master
        return master

    def state(self, params):
        """The state kept for `params` (a dict; empty before its first step)."""
        return self._state.setdefault(id(params), {"params": params})

    def reset(self):
        """Forgets every buffer's state (moments, step counts)."""
        self._state.clear()

    def step(self, params, grads):
        """Updates `params` in place from `grads` (same shape and dtype)."""
        self._check(params, grads)
        state = self.state(params)
        if state["params"] is not params:  # a new array at a reused id
            state.clear()
            state["params"] = params
        master = self._master(params, state)
        values = params if master is None else master
        self._update(values, np.asarray(grads, dtype=values.dtype), state)
        if master is not None:
            params[...] = master  # rounded to float16


class SGD(Optimizer):
    """Stochastic gradient descent with optional momentum:
    ``v = momentum * v + g``; ``p -= lr * v``."""

    def __init__(self, lr=1e-2, momentum=0.0):
        super().__init__(lr)
        self.momentum = float(momentum)

    def _update(self, values, grads, state):
        if self.momentum:
            velocity = state.get("velocity")
            if velocity is None:
                velocity = state["velocity"] = np.zeros_like(values)
            velocity *= self.momentum
            velocity += grads
            grads = velocity
        values -= self.lr * grads


class Adam(Optimizer):
    """Adam (Kingma and Ba), as ``torch.optim.Adam``:
    ``m = b1 m + (1 - b1) g``, ``v = b2 v + (1 - b2) g^2``,
    ``p -= lr * m_hat / (sqrt(v_hat) + eps)`` with the bias-corrected
    ``m_hat = m / (1 - b1^t)``, ``v_hat = v / (1 - b2^t)``."""

    def __init__(self, lr=1e-3, betas=(0.9, 0.999), eps=1e-8):
        super().__init__(lr)
        self.betas = (float(betas[0]), float(betas[1]))
        if not all(0 <= b < 1 for b in self.betas):
            raise ValueError(f"coopvec: Adam's betas must be in [0, 1), not {betas}")
        self.eps = float(eps)

    def _update(self, values, grads, state):
        if "m" not in state:
            state["m"] = np.zeros(values.shape, dtype=np.float32)
            state["v"] = np.zeros(values.shape, dtype=np.float32)
            state["t"] = 0
        b1, b2 = self.betas
        state["t"] += 1
        t, m, v = state["t"], state["m"], state["v"]
        m *= b1
        m += (1 - b1) * grads
        v *= b2
        v += (1 - b2) * np.square(grads, dtype=np.float32)
        step = self.lr / (1 - b1 ** t)
        denom = np.sqrt(v / (1 - b2 ** t)) + self.eps
        values -= (step * m / denom).astype(values.dtype)
