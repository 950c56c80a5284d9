#!/usr/bin/env python3
"""Fit a procedural RGB image with a small MLP trained by Adam.

Each pixel is one thread: its (u, v) position, encoded with Fourier features
in NumPy, goes through a coopvec MLP (encoding -> 64 -> 64 -> 3, ReLU, and a
Sigmoid for colors in [0, 1]); the loss is the mean squared error against
the image. Prints a progress line every --every steps and writes two plots
(with matplotlib, if installed): the loss curve (fit-loss.png) and target
vs. fit (fit-image.png).

    PYTHONPATH=build/python python3 python/examples/fit.py
    PYTHONPATH=build/python python3 python/examples/fit.py --dtype f16 --steps 2000

The default run (64x64 pixels, 1000 steps, f32) takes a few seconds on two
cores. See docs/python.md.
"""

import argparse
import os
import sys
import time

import numpy as np

import coopvec
from coopvec import nn


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


def encode(points, frequencies):
    """Fourier features of (u, v) in [0, 1]^2: the point itself and
    sin / cos of 2^k * pi * (u, v) for k < frequencies."""
    features = [points]
    for k in range(frequencies):
        features += [np.sin(2.0 ** k * np.pi * points), np.cos(2.0 ** k * np.pi * points)]
    return np.concatenate(features, axis=1)


def psnr(mse):
    return 10 * np.log10(1.0 / max(mse, 1e-12))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=64, help="image side (pixels)")
    parser.add_argument("--steps", type=int, default=1000, help="Adam steps")
    parser.add_argument("--every", type=int, default=100, help="print every N steps")
    parser.add_argument("--lr", type=float, default=1e-2, help="Adam's learning rate")
    parser.add_argument("--width", type=int, default=64, help="hidden layer width")
    parser.add_argument("--frequencies", type=int, default=6,
                        help="Fourier feature octaves")
    parser.add_argument("--dtype", choices=["f32", "f16"], default="f32")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=".", help="folder for the PNG plots")
    parser.add_argument("--no-plots", action="store_true", help="skip the plots")
    args = parser.parse_args(argv)

    dtype = np.float16 if args.dtype == "f16" else np.float32
    rng = np.random.default_rng(args.seed)
    target = make_image(args.size)
    v, u = np.meshgrid(np.linspace(0, 1, args.size), np.linspace(0, 1, args.size),
                       indexing="ij")
    x = encode(np.stack([u.ravel(), v.ravel()], axis=1), args.frequencies).astype(dtype)
    t = target.reshape(-1, 3)

    net = nn.Sequential(nn.Linear(x.shape[1], args.width), nn.ReLU(),
                        nn.Linear(args.width, args.width), nn.ReLU(),
                        nn.Linear(args.width, 3), nn.Sigmoid())
    net = net.alloc(dtype, rng=rng)
    packed = nn.pack(net, layout="training" if dtype == np.float16 else "row_major")
    start = time.perf_counter()
    model = coopvec.compile(packed)
    lowering, jit = model.compile_times
    print(f"fit: {x.shape[0]} pixels, MLP {x.shape[1]} -> {args.width} -> {args.width} "
          f"-> 3 ({args.dtype}, {packed.buffer.size} parameters), compiled in "
          f"{time.perf_counter() - start:.2f} s (lowering {lowering:.2f} s, "
          f"JIT {jit:.2f} s), {coopvec.default_num_threads()} threads")

    opt = coopvec.optim.Adam(lr=args.lr)
    losses = []
    start = time.perf_counter()
    for step in range(1, args.steps + 1):
        y = model(x).astype(np.float64)
        error = y - t
        losses.append(float(np.mean(error ** 2)))
        # The gradient of the mean squared error is 2 * error / N; Adam does
        # not depend on the gradient's scale, so the 1 / N is left out,
        # which keeps f16 gradients clear of f16's subnormal range.
        _, dbuffer = model.backward(x, (2 * error).astype(dtype))
        # Cosine decay of the learning rate to a tenth over the run.
        opt.lr = args.lr * (0.1 + 0.45 * (1 + np.cos(np.pi * step / args.steps)))
        opt.step(packed.buffer, dbuffer)
        if step % args.every == 0 or step == args.steps:
            print(f"step {step:5d}/{args.steps}  loss {losses[-1]:.3e}  "
                  f"PSNR {psnr(losses[-1]):5.2f} dB  {time.perf_counter() - start:6.2f} s",
                  flush=True)
    fit = model(x).astype(np.float64).reshape(target.shape)
    final = float(np.mean((fit - target) ** 2))
    elapsed = time.perf_counter() - start
    print(f"fit: loss {losses[0]:.3e} -> {final:.3e} ({losses[0] / final:.0f}x lower), "
          f"PSNR {psnr(final):.2f} dB, {args.steps} steps in {elapsed:.2f} s "
          f"({1e3 * elapsed / args.steps:.2f} ms per step)")

    if args.no_plots:
        return 0
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("fit: matplotlib is not installed (Debian: python3-matplotlib); "
              "no plots written")
        return 0
    os.makedirs(args.out, exist_ok=True)
    fig, ax = plt.subplots(figsize=(5, 3.2), dpi=80)
    ax.semilogy(np.arange(1, len(losses) + 1), losses)
    ax.set_xlabel("Adam step")
    ax.set_ylabel("mean squared error")
    ax.set_title(f"coopvec: fitting a {args.size}x{args.size} image ({args.dtype})")
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    loss_path = os.path.join(args.out, "fit-loss.png")
    fig.savefig(loss_path)
    plt.close(fig)
    fig, axes = plt.subplots(1, 3, figsize=(7.5, 2.8), dpi=80)
    error = np.abs(fit - target).mean(axis=2)
    panels = [(target, "target", 1), (np.clip(fit, 0, 1), f"fit ({psnr(final):.1f} dB)", 1),
              (error, f"|error| (max {error.max():.2f})", error.max())]
    for ax, (image, title, vmax) in zip(axes, panels):
        ax.imshow(image, interpolation="nearest", vmin=0, vmax=vmax,
                  cmap="magma" if image.ndim == 2 else None)
        ax.set_title(title)
        ax.axis("off")
    fig.tight_layout()
    image_path = os.path.join(args.out, "fit-image.png")
    fig.savefig(image_path)
    plt.close(fig)
    print(f"fit: wrote {loss_path} and {image_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
