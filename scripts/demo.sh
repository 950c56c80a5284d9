#!/usr/bin/env bash
# The main demo: a small per-thread MLP through coopvec-opt.
# Usage: demo.sh [BUILD_DIR]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
opt="$build/tools/coopvec-opt/coopvec-opt"
example="$root/examples/mlp-layer.mlir"

echo "== Input: $example"
cat "$example"
echo
echo "== coopvec-opt --pass-pipeline='builtin.module(func.func(coopvec-canonicalize,cse))'"
echo "   (the bias add folds into the matvec; coopvec-verify runs after each pass)"
"$opt" "$example" \
  --pass-pipeline='builtin.module(func.func(coopvec-canonicalize,cse))'
