#!/usr/bin/env bash
# The main demo: the per-thread MLP of examples/mlp.mlir (32 -> 64 -> 64 ->
# 64 -> 16, ReLU, f32) compiled through coopvec-lower-to-cpu, run by the JIT
# on a batch of threads, checked against the double-precision reference
# interpreter, and timed.
# Usage: demo.sh [BUILD_DIR] [BATCH]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
batch="${2:-65536}"
opt="$build/tools/coopvec-opt/coopvec-opt"
run="$build/tools/coopvec-run/coopvec-run"
example="$root/examples/mlp.mlir"

echo "== 1. The per-thread program ($example), first layer:"
sed -n '/^func.func/,/coopvec.max/p' "$example" | head -n 7
echo "   ..."
echo
echo "== 2. Lowered with coopvec-lower-to-cpu (lanes of threads in SIMD registers):"
"$opt" "$example" --convert-coopvec-to-cpu |
  awk '/func.func @mlp_batched/ && !f++ || /scf.for/ && s++ < 3 || /math.fma/ && !m++'
echo "   ..."
echo
echo "== 3. JIT-run for $batch threads with random inputs and weights, checked"
echo "      against the reference interpreter (double precision):"
log="$(mktemp)"
"$run" "$example" --entry=mlp --batch="$batch" --random --seed=1 --check --time 2>&1 | tee "$log"
# FLOPs per thread: 2 * (32*64 + 64*64 + 64*64 + 64*16) multiply-adds.
flops=22528
ns=$(sed -n 's/.*(\([0-9.]*\) ns per thread).*/\1/p' "$log")
# coopvec-run uses every core unless told --threads=N.
cores=$(sed -n 's/.* on \([0-9]*\) host thread.*/\1/p' "$log")
rm -f "$log"
if [ -n "$ns" ]; then
  awk -v f="$flops" -v ns="$ns" -v c="${cores:-1}" 'BEGIN {
    printf "== Throughput: %.1f M threads/s, %.1f GFLOP/s (%d core%s)\n",
      1000 / ns, f / ns, c, c == 1 ? "" : "s" }'
fi
