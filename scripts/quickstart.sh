#!/usr/bin/env bash
# Quick start: install what is missing, build coopvec in ./build, run the demo.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/install-deps.sh"
cmake -S "$root" -B "$root/build" -G Ninja >/dev/null
cmake --build "$root/build"
bash "$root/scripts/demo.sh" "$root/build"
