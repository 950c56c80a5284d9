#!/bin/bash
# Lowers every program of the given .mlir files (each split-file piece of a
# file that has them, and the gradients its RUN lines make with
# coopvec-autodiff) through coopvec-lower-to-spirv in cooperative-matrix
# mode (subgroups of 32) to a SPIR-V binary, and reads the binary back with
# `mlir-translate --deserialize-spirv` (Debian's spirv-val does not know
# the cooperative-matrix capability). Prints one line per program, a
# COOPERATIVE-MATRIX line for each program with an f16 matvec whose module
# multiplies KHR cooperative matrices (NO-COOPERATIVE-MATRIX if it does
# not), and exits non-zero on any failure.
#
# usage: cooperative-matrix-all.sh SCRATCH-DIR FILE.mlir...
set -u
scratch=$1
shift
rm -rf "$scratch"
mkdir -p "$scratch"
failed=0
count=0

fail() {
  echo "FAILED $1: $2"
  failed=1
}

check() {
  local name=$1 input=$2 out="$scratch/$1.spv"
  count=$((count + 1))
  mkdir -p "$(dirname "$out")"
  if ! coopvec-opt "$input" \
      --coopvec-lower-to-spirv="mode=cooperative-matrix subgroup-size=32" \
      --emit=spirv -o "$out" 2> "$out.err"; then
    fail "$name" "coopvec-lower-to-spirv: $(head -c 400 "$out.err")"
    return
  fi
  if ! mlir-translate --deserialize-spirv "$out" -o "$out.mlir" 2> "$out.err"; then
    fail "$name" "deserialize: $(head -c 400 "$out.err")"
    return
  fi
  echo "$name: $(grep -o 'requires #spirv.vce<v1\.[0-9]' "$out.mlir" | sed 's/.*<//')"
  # Printed by coopvec-opt, the types have no aliases.
  if coopvec-opt "$input" |
      grep -q '"coopvec.matvec".*!coopvec.matrix<[^>]*f16'; then
    if grep -q 'spirv.KHR.CooperativeMatrixMulAdd' "$out.mlir" &&
        grep -q 'CooperativeMatrixKHR' "$out.mlir" &&
        grep -q 'SPV_KHR_cooperative_matrix' "$out.mlir"; then
      echo "COOPERATIVE-MATRIX $name: $(grep -c 'spirv.KHR.CooperativeMatrixMulAdd' "$out.mlir") multiply-adds"
    else
      echo "NO-COOPERATIVE-MATRIX $name"
      failed=1
    fi
  fi
}

# shellcheck source=../../Inputs/each-program.sh
source "$(dirname "$0")/../../Inputs/each-program.sh"
for_each_program "$@"
echo "checked $count programs"
exit $failed
