"""The oracle of autodiff-general.mlir's @gather_grad, independent of the
interpreter and of coopvec-autodiff:

    autodiff-gather.py X.npy T.npy G.npy DY.npy DX.npy OUT_G.npy

@gather(x, t) = t[k] * sin(x0) with k = fptosi(4 * x1) & 7 (x1 * 4 rounded
to f32, truncated toward zero, its two's complement masked), per thread.
Its gradient, in float64: dx0 = dy t[k] cos(x0), dx1 = 0, and every
thread adds dy sin(x0) into G[k] (the scatter-add; threads collide on the
8 entries). X, T, G, DY are the inputs `coopvec-run --save-inputs` wrote,
DX and OUT_G the results (`--out`). The engine rounds each atomic add to
f32, in any order: entry k, which n_k threads add to, may err by the
bound of recursive summation, n_k u (|G[k]| + sum |terms|) (u = 2^-24);
dx (a few f32 roundings) by 1e-6 relative.
Prints the largest errors and PASS or FAIL (exit 1).
"""

import sys

import numpy as np


def main(x_path, t_path, g_path, dy_path, dx_path, out_path):
    x, t, g = np.load(x_path), np.load(t_path), np.load(g_path)
    dy, dx, out = np.load(dy_path), np.load(dx_path), np.load(out_path)
    q = (x[:, 1] * np.float32(4.0)).astype(np.float32)
    k = np.trunc(q).astype(np.int64) & 7
    x0 = x[:, 0].astype(np.float64)
    d = dy[:, 0].astype(np.float64)
    want_dx0 = d * t.astype(np.float64)[k] * np.cos(x0)
    terms = d * np.sin(x0)
    want_g = g.astype(np.float64)
    np.add.at(want_g, k, terms)
    bound = np.abs(g.astype(np.float64))
    np.add.at(bound, k, np.abs(terms))
    g_err = np.abs(out.astype(np.float64) - want_g)
    adds = np.bincount(k, minlength=g.size).astype(np.float64)
    g_ok = bool(np.all(g_err <= adds * 2.0**-24 * bound))
    dx_err = np.abs(dx[:, 0] - want_dx0)
    dx_ok = bool(np.all(dx_err <= 1e-6 * np.maximum(1.0, np.abs(want_dx0))))
    dx_ok = dx_ok and bool(np.all(dx[:, 1] == 0))
    print(f"{x.shape[0]} threads: table max error {g_err.max():.3g}, "
          f"dx max error {dx_err.max():.3g}, "
          f"{int((np.bincount(k, minlength=8) > 1).sum())} entries collide")
    print("PASS" if g_ok and dx_ok else "FAIL")
    return 0 if g_ok and dx_ok else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
