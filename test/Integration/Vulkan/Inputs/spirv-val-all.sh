#!/bin/bash
# Lowers every program of the given .mlir files (each split-file piece of a
# file that has them, and the gradients its RUN lines make with
# coopvec-autodiff) through coopvec-lower-to-spirv in portable mode, with
# compare-and-swap atomics (atomic-float=false) and with float atomics
# (atomic-float=true), and validates each SPIR-V binary with
# `spirv-val --target-env vulkan1.2`. Prints one line per program (with the
# capabilities of its portable module), an ATOMICS line for each program
# whose module adds into a gradient, and exits non-zero on any failure.
#
# usage: spirv-val-all.sh SPIRV-VAL SCRATCH-DIR FILE.mlir...
set -u
spirv_val=$1
scratch=$2
shift 2
rm -rf "$scratch"
mkdir -p "$scratch"
failed=0
count=0

fail() {
  echo "FAILED $1: $2"
  failed=1
}

# lower NAME INPUT TAG OPTIONS -> $scratch/NAME.TAG.spv, validated
lower() {
  local out="$scratch/$1.$3.spv"
  if ! coopvec-opt "$2" --coopvec-lower-to-spirv="$4" --emit=spirv \
      -o "$out" 2> "$scratch/$1.$3.err"; then
    fail "$1" "coopvec-lower-to-spirv $4: $(head -c 400 "$scratch/$1.$3.err")"
    return 1
  fi
  if ! "$spirv_val" --target-env vulkan1.2 "$out" > "$scratch/$1.$3.val" 2>&1; then
    fail "$1" "spirv-val ($4): $(head -c 400 "$scratch/$1.$3.val")"
    return 1
  fi
}

check() {
  local name=$1 input=$2
  count=$((count + 1))
  mkdir -p "$(dirname "$scratch/$name")"
  lower "$name" "$input" cas "mode=portable subgroup-size=8" &&
    lower "$name" "$input" fadd "mode=portable subgroup-size=32 atomic-float=true" ||
    return
  local caps
  caps=$(spirv-dis "$scratch/$name.cas.spv" | sed -n 's/^ *OpCapability //p' | tr '\n' ' ')
  echo "$name: valid (capabilities: ${caps% })"
  if spirv-dis "$scratch/$name.cas.spv" | grep -q OpAtomicCompareExchange; then
    echo "ATOMICS $name: cas $(spirv-dis "$scratch/$name.fadd.spv" | grep -c 'OpAtomicFAddEXT\|OpAtomicCompareExchange') atomics with atomic-float=true"
  fi
}

# shellcheck source=../../Inputs/each-program.sh
source "$(dirname "$0")/../../Inputs/each-program.sh"
for_each_program "$@"
echo "checked $count programs"
exit $failed
