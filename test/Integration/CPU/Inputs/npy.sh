#!/bin/bash
# Writes small .npy inputs for the per-thread programs of this folder,
# without NumPy (bash's printf only):
#
#   npy.sh ids N OUT.npy          an (N, 1) float32 array whose row t holds
#                                 t (exact below 2^24): a program's thread
#                                 number, to branch on it (odd threads, the
#                                 first k threads, lane groups)
#   npy.sh fill COUNT VALUE OUT.npy   a (COUNT,) int64 array of VALUE (an
#                                 integer, negative allowed): an integer
#                                 buffer that does not start at 0 (random
#                                 integer buffers are 0)
set -eu

# header DESCR SHAPE: the version 1.0 header, padded with spaces so that the
# data starts at a multiple of 64 bytes, as NumPy writes it.
header() {
  local text="{'descr': '$1', 'fortran_order': False, 'shape': $2, }"
  while [ $(((10 + ${#text} + 1) % 64)) -ne 0 ]; do text="$text "; done
  local length=$((${#text} + 1))
  printf '\x93NUMPY\x01\x00'
  printf "\\x$(printf %02x $((length & 255)))\\x$(printf %02x $((length >> 8)))"
  printf '%s\n' "$text"
}

# bytes VALUE COUNT: VALUE's COUNT low bytes, little-endian, as printf escapes.
bytes() {
  local value=$1 count=$2 out="" i byte
  for ((i = 0; i < count; i++)); do
    printf -v byte '\\x%02x' $(((value >> (8 * i)) & 255))
    out+=$byte
  done
  REPLY=$out
}

case $1 in
ids)
  n=$2
  {
    header '<f4' "($n, 1)"
    data=""
    for ((t = 0; t < n; t++)); do
      bits=0
      if ((t > 0)); then
        e=0
        while (((t >> (e + 1)) > 0)); do e=$((e + 1)); done
        bits=$((((127 + e) << 23) | ((t - (1 << e)) << (23 - e))))
      fi
      bytes $bits 4
      data+=$REPLY
    done
    printf "$data"
  } > "$3"
  ;;
fill)
  count=$2
  {
    header '<i8' "($count,)"
    bytes "$3" 8
    data=""
    for ((i = 0; i < count; i++)); do data+=$REPLY; done
    printf "$data"
  } > "$4"
  ;;
*)
  echo "usage: npy.sh ids N OUT.npy | npy.sh fill COUNT VALUE OUT.npy" >&2
  exit 2
  ;;
esac
