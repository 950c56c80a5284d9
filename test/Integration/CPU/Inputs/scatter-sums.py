"""The f32 buffers of split-file scatter-add-modes.mlir's @scatter against
sums in double: for each buffer, its initial values (the saved inputs) plus
the values of the threads that add at each element. The modes reassociate
the f32 sums (docs/dialect.md, "Memory"), so each element may differ from
the double sum by a few f32 roundings of the running sum: allowed, 1e-5 *
(|initial| + sum of |values|) + 1e-6.

usage: scatter-sums.py IN_PREFIX OUT_PREFIX  (the --save-inputs and --out
prefixes of one coopvec-run)"""
import sys

import numpy as np

prefix_in, prefix_out = sys.argv[1], sys.argv[2]
x = np.load(f"{prefix_in}0.npy")  # f32, as the threads compute
value = x[:, 1].astype(np.float64)
position = x[:, 0] + np.float32(1)
places = {
    1: np.zeros(len(x), dtype=np.int64),
    2: (position * np.float32(2)).astype(np.int64),
    3: (position * np.float32(500)).astype(np.int64),
}
worst = 0.0
for argument, at in places.items():
    initial = np.load(f"{prefix_in}{argument}.npy").astype(np.float64)
    got = np.load(f"{prefix_out}_arg{argument}.npy").astype(np.float64)
    expected = initial.copy()
    np.add.at(expected, at, value)
    scale = np.abs(initial)
    np.add.at(scale, at, np.abs(value))
    excess = np.abs(got - expected) / (1e-5 * scale + 1e-6)
    worst = max(worst, float(excess.max()))
    print(f"argument {argument}: {len(x)} adds, "
          f"{'PASS' if excess.max() <= 1 else 'FAIL'}")
print("PASS" if worst <= 1 else "FAIL")
