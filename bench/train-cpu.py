#!/usr/bin/env python3
"""CPU training step against the forward pass (docs/performance.md,
"Training (`bench/train-cpu`)").

The demo MLP of bench/mlp-cpu (32 -> 64 -> 64 -> 64 -> 16, ReLU between
layers, f32) is trained with the Python package: one step is

    model(x, out=y)                               the forward
    dy = 2 (y - t)                                the MSE loss's gradient
    model.backward(x, dy, dbuffer, dx=dx)         recomputes the forward
    optim.Adam.step(packed.buffer, dbuffer)

on the whole batch, and the fused step (`coopvec.compile(packed,
loss='mse')`):

    dbuffer.fill(0)
    model.train_step(x, t, dbuffer)               @loss_grad: one forward,
                                                  no input gradient
    optim.Adam.step(packed.buffer, dbuffer)

The forward alone and both steps are timed at 1 and 2 host threads
(medians of --runs rounds after a warm-up, each round running the three
one after another); the `summary:` line has the step
/ forward ratios. The same step in PyTorch on the CPU
(torch.nn.Linear + ReLU, torch.optim.Adam, at the same thread counts) is
timed when `import torch` works, and skipped with a message otherwise.

    build/bench/train-cpu [--batch 65536] [--runs 7] [--threads 1,2]
                          [--allocate] [--clock wall|cpu]

--allocate times the step as first written, with a new y, dy, dx and
gradient buffer per step (NumPy's large arrays are fresh pages, zeroed by
the kernel on first touch), instead of arrays allocated once. --clock=cpu
times the CPU time of the process's threads instead of the elapsed time:
on a machine other processes load, the work each variant does (at 2
threads, the two threads' time added up).

(a wrapper CMake writes; or PYTHONPATH=python COOPVEC_LIBRARY=<build>/lib/
libcoopvec.so /usr/bin/python3 bench/train-cpu.py).
"""

import argparse
import os
import statistics
import sys
import time

import numpy as np

import coopvec
from coopvec import nn, optim

WIDTHS = (32, 64, 64, 64, 16)


def network(rng):
    layers = []
    for i in range(len(WIDTHS) - 1):
        layers.append(nn.Linear(WIDTHS[i], WIDTHS[i + 1]))
        if i + 2 < len(WIDTHS):
            layers.append(nn.ReLU())
    return nn.Sequential(*layers).alloc(np.float32, rng=rng)


#: --clock: wall-clock time, or the process's CPU time (all its threads;
#: on a loaded machine the work done, without the time other processes
#: held the cores).
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
clock = CLOCKS["wall"]


def median_seconds(functions, runs):
    """The median time of each of `functions` over `runs` rounds, each
    round running them one after another: the ratios then compare runs
    made under the same load (a machine others share drifts over the
    seconds a block of runs of one variant would take)."""
    for function in functions:
        function()  # warm-up: first-touch of the buffers, the JIT's pages
    times = [[] for _ in functions]
    for _ in range(runs):
        for function, samples in zip(functions, times):
            start = clock()
            function()
            samples.append(clock() - start)
    return [statistics.median(samples) for samples in times]


def coopvec_times(packed, x, t, threads, runs, allocate):
    model = coopvec.compile(packed, num_threads=threads, loss="mse")
    adam = optim.Adam(lr=1e-4)
    # Preallocated results: the step allocates no NumPy arrays of the
    # batch's size (docs/python.md).
    y = np.empty((x.shape[0], WIDTHS[-1]), np.float32)
    dy, dx = np.empty_like(y), np.empty_like(x)
    dbuffer = np.zeros_like(packed.buffer)

    def forward():
        model(x, out=y)

    def step():
        model(x, out=y)
        np.subtract(y, t, out=dy)
        np.multiply(dy, 2, out=dy)
        dbuffer.fill(0)
        model.backward(x, dy, dbuffer, dx=dx)
        adam.step(packed.buffer, dbuffer)

    def fused_step():
        dbuffer.fill(0)
        model.train_step(x, t, dbuffer)
        adam.step(packed.buffer, dbuffer)

    def allocating_fused_step():
        gradient = model.train_step(x, t)
        adam.step(packed.buffer, gradient)

    def allocating_forward():
        model(x)

    def allocating_step():
        dy = 2 * (model(x) - t)
        _, gradient = model.backward(x, dy)
        adam.step(packed.buffer, gradient)

    if allocate:
        forward, step = allocating_forward, allocating_step
        fused_step = allocating_fused_step

    result = tuple(median_seconds((forward, step, fused_step), runs))
    model.close()
    return result


def torch_times(net, x, t, threads, runs):
    import torch
    torch.set_num_threads(threads)
    layers = []
    for i, layer in enumerate(net.layers):
        if isinstance(layer, nn.Linear):
            linear = torch.nn.Linear(layer.in_features, layer.out_features)
            with torch.no_grad():
                linear.weight.copy_(torch.from_numpy(layer.weight))
                linear.bias.copy_(torch.from_numpy(layer.bias))
            layers.append(linear)
        else:
            layers.append(torch.nn.ReLU())
    model = torch.nn.Sequential(*layers)
    adam = torch.optim.Adam(model.parameters(), lr=1e-4)
    tx, tt = torch.from_numpy(x), torch.from_numpy(t)

    def forward():
        with torch.no_grad():
            model(tx)

    def step():
        adam.zero_grad(set_to_none=False)
        y = model(tx)
        # The gradient of sum((y - t)^2), as dy above.
        loss = ((y - tt) ** 2).sum()
        loss.backward()
        adam.step()

    return tuple(median_seconds((forward, step), runs))


def parse():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=65536)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--threads", default="1,2",
                        help="comma-separated host thread counts")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="wall: elapsed time; cpu: CPU time of all the "
                        "process's threads (the work, on a loaded machine)")
    parser.add_argument("--allocate", action="store_true",
                        help="the step as written without out= / dx= / "
                        "dbuffer: new NumPy arrays per call")
    args = parser.parse_args()
    args.threads = [int(n) for n in args.threads.split(",")]
    if args.batch < 1 or args.runs < 1 or min(args.threads) < 1:
        parser.error("--batch, --runs and every thread count must be positive")
    return args


def main():
    global clock
    args = parse()
    clock = CLOCKS[args.clock]
    rng = np.random.default_rng(0)
    net = network(rng)
    x = rng.uniform(-1, 1, (args.batch, WIDTHS[0])).astype(np.float32)
    t = rng.uniform(-1, 1, (args.batch, WIDTHS[-1])).astype(np.float32)
    try:
        import torch  # noqa: F401
        have_torch = True
    except ImportError as error:
        have_torch = False
        print(f"PyTorch: skipped ({error})")
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"MLP {'-'.join(map(str, WIDTHS))} f32, batch {args.batch}, "
          f"medians of {args.runs} runs ({args.clock} clock), library {coopvec.library_path()}, "
          f"load average {load}" + (", allocating step" if args.allocate else ""))
    print(f"{'threads':>7} {'forward ms':>11} {'step ms':>9} {'step/fwd':>9}"
          f" {'fused ms':>9} {'fused/fwd':>9}"
          + (f" {'torch fwd':>10} {'torch step':>11} {'torch/fused':>11}"
             if have_torch else ""))
    summary = []
    for threads in args.threads:
        packed = nn.pack(net)  # a fresh copy: every row starts from `net`
        forward, step, fused = coopvec_times(packed, x, t, threads, args.runs,
                                             args.allocate)
        line = f"{threads:>7} {forward * 1e3:>11.2f} {step * 1e3:>9.2f} " \
               f"{step / forward:>9.2f} {fused * 1e3:>9.2f} {fused / forward:>9.2f}"
        summary.append(f"{threads}T step/fwd {step / forward:.2f}x, fused "
                       f"{fused / forward:.2f}x")
        if have_torch:
            tforward, tstep = torch_times(net, x, t, threads, args.runs)
            line += f" {tforward * 1e3:>10.2f} {tstep * 1e3:>11.2f} " \
                    f"{tstep / fused:>11.2f}"
            summary[-1] += f", torch step / our fused {tstep / fused:.2f}x"
        print(line, flush=True)
    print("summary: " + "; ".join(summary) +
          " (target: fused step/fwd <= 3.5x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
