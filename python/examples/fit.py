#!/usr/bin/env python3
"""Fit a procedural RGB image with a neural field trained by Adam.

Each pixel is one thread: its (u, v) position goes through an encoding and
an MLP, all compiled into one coopvec program (the encoding is coopvec IR,
not NumPy), and the loss is the mean squared error against the image.

    --encoding=hashgrid  a multiresolution hash grid (nn.HashGridEncoding,
                         trainable tables) -> 64 -> 64 -> 3
    --encoding=sin       sin/cos features (nn.SinEncode) -> MLP
    --encoding=none      (u, v) -> MLP

`sin` and `none` get as many hidden layers (of width up to 128) as
needed for about the hash grid's parameter count (its tables included), so that the comparison is at
equal parameters; every run trains for the same wall time (--seconds).
Several encodings may be given (comma-separated): each is trained in turn
and the PSNR-over-time plot shows them together. Writes fit-<encoding>.png
(target, fit and error) and fit-psnr.png (PSNR over training time) with
matplotlib, if installed.

    PYTHONPATH=build/python /usr/bin/python3 python/examples/fit.py
    PYTHONPATH=build/python /usr/bin/python3 python/examples/fit.py \\
        --encoding=hashgrid,sin,none --seconds 60 --dtype f16

Mixed precision with --dtype f16: f16 tables and weights, f32 Adam moments
and f32 master weights (coopvec.optim.Adam). See docs/python.md.
"""

import argparse
import os
import sys
import time

import numpy as np

import coopvec
from coopvec import nn

ENCODINGS = ("hashgrid", "sin", "none")


def make_image(size):
    """A size x size RGB image in [0, 1]: a sunset (sky gradient, sun, two
    mountain ranges, a striped lake), all computed, nothing downloaded."""
    v, u = np.meshgrid(np.linspace(0, 1, size), np.linspace(0, 1, size), indexing="ij")
    sky_top, sky_low = np.array([0.15, 0.2, 0.55]), np.array([1.0, 0.55, 0.25])
    image = sky_top + (sky_low - sky_top) * (v[..., None] ** 1.5)
    sun = (u - 0.65) ** 2 + (v - 0.42) ** 2 < 0.12 ** 2
    image[sun] = [1.0, 0.9, 0.45]
    far = 0.55 - 0.08 * np.sin(7 * u + 1) - 0.05 * np.sin(17 * u)
    near = 0.68 - 0.12 * np.abs(np.sin(3.5 * u + 0.3)) - 0.03 * np.sin(23 * u)
    image[v > far] = [0.62, 0.32, 0.42]
    image[v > near] = [0.16, 0.1, 0.2]
    lake = v > 0.8
    stripes = 0.5 + 0.5 * np.sin(60 * v + 4 * np.sin(9 * u))
    image[lake] = (np.array([0.25, 0.35, 0.6]) + 0.25 * stripes[..., None])[lake]
    return np.clip(image, 0, 1)


def psnr(mse):
    return 10 * np.log10(1.0 / max(mse, 1e-12))


def hash_grid(args):
    """The hash grid: its finest level has about one grid point per pixel."""
    scale = (args.size / args.base_resolution) ** (1.0 / max(args.levels - 1, 1))
    return nn.HashGridEncoding(2, levels=args.levels, features_per_level=2,
                               log2_table_size=args.log2_table_size,
                               base_resolution=args.base_resolution,
                               per_level_scale=max(scale, 1.0))


def mlp_parameters(inputs, width, depth):
    return (inputs * width + width) + (depth - 1) * (width * width + width) + (width * 3 + 3)


def build(encoding, args, budget):
    """The network of `encoding`; `sin` and `none` get the hidden width
    (at most 128, the CPU's largest matrix) and depth (2 to 10 hidden
    layers) whose parameter count is closest to `budget`."""
    if encoding == "hashgrid":
        grid = hash_grid(args)
        layers = [grid, nn.Linear(grid.out_features, args.width), nn.ReLU(),
                  nn.Linear(args.width, args.width), nn.ReLU()]
        last = args.width
    else:
        first = [nn.SinEncode(args.octaves)] if encoding == "sin" else []
        inputs = 2 * 2 * args.octaves if encoding == "sin" else 2
        width, depth = min(((w, d) for w in range(8, 129, 8) for d in range(2, 11)),
                           key=lambda wd: (abs(mlp_parameters(inputs, *wd) - budget), wd[1]))
        layers = first + [nn.Linear(inputs, width), nn.ReLU()]
        for _ in range(depth - 1):
            layers += [nn.Linear(width, width), nn.ReLU()]
        last = width
    return nn.Sequential(*layers, nn.Linear(last, 3), nn.Sigmoid())


def describe(net):
    return " -> ".join([repr(net[0]) if not isinstance(net[0], nn.Linear) else "2"] +
                       [str(layer.out_features) for layer in net if isinstance(layer, nn.Linear)])


def train(encoding, args, coords, target, budget):
    """Trains one network for args.seconds; returns (PSNR-over-time curve,
    final image, parameter count)."""
    dtype = np.float16 if args.dtype == "f16" else np.float32
    rng = np.random.default_rng(args.seed)
    net = build(encoding, args, budget).alloc(dtype, rng=rng)
    packed = nn.pack(net)
    start = time.perf_counter()
    # loss='mse': model.train_step, the MSE's weight gradient in one forward.
    model = coopvec.compile(packed, loss="mse")
    print(f"fit[{encoding}]: {describe(net)} ({args.dtype}, {packed.buffer.size} "
          f"parameters), compiled in {time.perf_counter() - start:.2f} s", flush=True)
    pixels = coords.shape[0]
    x_all = coords.astype(dtype)
    t_all = target.reshape(-1, 3)
    t_model = t_all.astype(dtype)  # train_step's target, in the model's dtype
    dbuffer = np.zeros_like(packed.buffer)
    opt = coopvec.optim.Adam(lr=args.lr)
    curve, trained, step, next_eval = [], 0.0, 0, 0.0
    while True:
        if trained >= next_eval or trained >= args.seconds:
            error = model(x_all).astype(np.float64) - t_all
            curve.append((trained, step, psnr(float(np.mean(error ** 2)))))
            print(f"fit[{encoding}]: {trained:6.2f} s  step {step:5d}  "
                  f"PSNR {curve[-1][2]:5.2f} dB", flush=True)
            next_eval = trained + args.every
            if trained >= args.seconds:
                break
        begin = time.perf_counter()
        batch = rng.integers(0, pixels, args.batch)
        # The gradient of sum((y - t)^2), the MSE's without the 1 / N: Adam
        # does not depend on the gradient's scale, and f16 gradients stay
        # clear of f16's subnormal range.
        dbuffer.fill(0)
        model.train_step(x_all[batch], t_model[batch], dbuffer)
        opt.step(packed.buffer, dbuffer)
        step += 1
        trained += time.perf_counter() - begin
    image = model(x_all).astype(np.float64).reshape(target.shape)
    model.close()
    return curve, image, packed.buffer.size


def plot(args, results, target):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("fit: matplotlib is not installed (Debian: python3-matplotlib); "
              "no plots written")
        return
    os.makedirs(args.out, exist_ok=True)
    written = []
    fig, ax = plt.subplots(figsize=(5.5, 3.4), dpi=80)
    for encoding, (curve, _, size) in results.items():
        seconds, _, values = zip(*curve)
        ax.plot(seconds, values, label=f"{encoding} ({size} parameters)")
    ax.set_xlabel("training time (s)")
    ax.set_ylabel("PSNR (dB)")
    ax.set_title(f"coopvec: fitting a {args.size}x{args.size} image ({args.dtype})")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    written.append(os.path.join(args.out, "fit-psnr.png"))
    fig.savefig(written[-1])
    plt.close(fig)
    for encoding, (curve, image, _) in results.items():
        fig, axes = plt.subplots(1, 3, figsize=(7.5, 2.8), dpi=80)
        error = np.abs(image - target).mean(axis=2)
        panels = [(target, "target", 1),
                  (np.clip(image, 0, 1), f"{encoding} ({curve[-1][2]:.1f} dB)", 1),
                  (error, f"|error| (max {error.max():.2f})", max(error.max(), 1e-6))]
        for axis, (picture, title, vmax) in zip(axes, panels):
            axis.imshow(picture, interpolation="nearest", vmin=0, vmax=vmax,
                        cmap="magma" if picture.ndim == 2 else None)
            axis.set_title(title)
            axis.axis("off")
        fig.tight_layout()
        written.append(os.path.join(args.out, f"fit-{encoding}.png"))
        fig.savefig(written[-1])
        plt.close(fig)
    print(f"fit: wrote {', '.join(written)}")


def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--encoding", default="hashgrid",
                        help="hashgrid, sin or none; several comma-separated")
    parser.add_argument("--size", type=int, default=512, help="image side (pixels)")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="training time per encoding (s)")
    parser.add_argument("--every", type=float, default=2.0,
                        help="evaluate the PSNR every N seconds of training")
    parser.add_argument("--batch", type=int, default=1 << 14, help="pixels per step")
    parser.add_argument("--lr", type=float, default=1e-2, help="Adam's learning rate")
    parser.add_argument("--width", type=int, default=64,
                        help="the hash grid MLP's hidden width")
    parser.add_argument("--levels", type=int, default=8, help="hash grid levels")
    parser.add_argument("--log2-table-size", type=int, default=14,
                        help="log2 of the hash grid's entries per level")
    parser.add_argument("--base-resolution", type=int, default=16,
                        help="the hash grid's coarsest resolution")
    parser.add_argument("--octaves", type=int, default=8, help="SinEncode's octaves")
    parser.add_argument("--dtype", choices=["f32", "f16"], default="f32")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=".", help="folder for the PNG plots")
    parser.add_argument("--no-plots", action="store_true", help="skip the plots")
    args = parser.parse_args(argv)
    args.encodings = [e.strip() for e in args.encoding.split(",") if e.strip()]
    for encoding in args.encodings:
        if encoding not in ENCODINGS:
            parser.error(f"unknown encoding {encoding!r}; expected one of "
                         f"{', '.join(ENCODINGS)}")
    if not args.encodings:
        parser.error("no encoding given")
    if args.size < 2 or args.batch < 1 or args.seconds <= 0:
        parser.error("--size must be at least 2, --batch and --seconds positive")
    return args


def main(argv=None):
    args = parse(argv)
    target = make_image(args.size)
    v, u = np.meshgrid(np.linspace(0, 1, args.size), np.linspace(0, 1, args.size),
                       indexing="ij")
    coords = np.stack([u.ravel(), v.ravel()], axis=1)
    dtype = np.float16 if args.dtype == "f16" else np.float32
    # The parameter budget of the comparison: the hash grid model's.
    budget = sum(value.size for _, value in
                 build("hashgrid", args, 0).alloc(dtype, np.random.default_rng(0))
                 .named_parameters())
    print(f"fit: {args.size}x{args.size} pixels, {args.batch} per step, "
          f"{args.seconds:g} s of training per encoding, "
          f"{coopvec.default_num_threads()} threads")
    results = {}
    for encoding in args.encodings:
        results[encoding] = train(encoding, args, coords, target, budget)
    for encoding, (curve, _, size) in results.items():
        seconds, steps, value = curve[-1]
        print(f"fit: {encoding:8s} {size:7d} parameters  {steps:5d} steps in "
              f"{seconds:5.1f} s  PSNR {value:5.2f} dB")
    if not args.no_plots:
        plot(args, results, target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
