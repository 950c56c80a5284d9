#!/bin/bash
# Lowers every program of the given .mlir files (each split-file piece of a
# file that has them, and the gradients its RUN lines make with
# coopvec-autodiff) through coopvec-lower-to-nvvm and assembles the PTX with
# ptxas: PTX for sm_80 for -arch=sm_80 and -arch=sm_90, PTX for sm_90 for
# -arch=sm_90. Prints one line per program, a TENSOR-CORES line for each
# program with an f16 matvec whose PTX multiplies on tensor cores
# (NO-TENSOR-CORES if it does not), and exits non-zero on any failure.
#
# usage: ptxas-all.sh PTXAS SCRATCH-DIR FILE.mlir...
set -u
ptxas=$1
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

# lower NAME INPUT CHIP -> $scratch/NAME.CHIP.ptx
lower() {
  local out="$scratch/$1.$3.ptx"
  if ! coopvec-opt "$2" --coopvec-lower-to-nvvm="chip=$3" --emit=ptx \
      -o "$out" 2> "$scratch/$1.$3.err"; then
    fail "$1" "coopvec-lower-to-nvvm chip=$3: $(head -c 400 "$scratch/$1.$3.err")"
    return 1
  fi
}

# assemble NAME CHIP ARCH
assemble() {
  if ! "$ptxas" -arch="$3" "$scratch/$1.$2.ptx" -o "$scratch/$1.$2.$3.cubin" \
      2> "$scratch/$1.$2.$3.err"; then
    fail "$1" "ptxas -arch=$3 on PTX for $2: $(head -c 400 "$scratch/$1.$2.$3.err")"
    return 1
  fi
}

check() {
  local name=$1 input=$2
  count=$((count + 1))
  lower "$name" "$input" sm_80 && assemble "$name" sm_80 sm_80 &&
    assemble "$name" sm_80 sm_90 && lower "$name" "$input" sm_90 &&
    assemble "$name" sm_90 sm_90 || return
  echo "$name: sm_80 (ptxas sm_80, sm_90), sm_90 (ptxas sm_90)"
  # Printed by coopvec-opt, the types have no aliases.
  if coopvec-opt "$input" |
      grep -q '"coopvec.matvec".*!coopvec.matrix<[^>]*f16'; then
    local mma
    mma=$(grep -m1 -o 'wmma\.mma\.sync[.a-z0-9]*' "$scratch/$name.sm_80.ptx")
    if [ -n "$mma" ]; then
      echo "TENSOR-CORES $name: $mma"
    else
      echo "NO-TENSOR-CORES $name"
      failed=1
    fi
  fi
}

# shellcheck source=../../Inputs/each-program.sh
source "$(dirname "$0")/../../Inputs/each-program.sh"
for_each_program "$@"
echo "checked $count programs"
exit $failed
