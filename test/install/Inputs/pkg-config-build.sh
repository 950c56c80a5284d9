#!/usr/bin/env bash
# Builds main.c against an installed coopvec with pkg-config only.
# Usage: pkg-config-build.sh PREFIX SOURCE OUTPUT
set -euo pipefail
export PKG_CONFIG_PATH="$1/lib/pkgconfig:$1/lib/x86_64-linux-gnu/pkgconfig"
cc -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags coopvec) "$2" \
  -o "$3" $(pkg-config --libs coopvec)
