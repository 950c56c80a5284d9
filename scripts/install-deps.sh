#!/usr/bin/env bash
# Installs what coopvec needs on Debian 12 (bookworm), skipping what is
# already there. LLVM/MLIR 22 comes from bookworm-security.
set -euo pipefail
# python3-numpy and python3-pytest: the Python package's tests (test/python);
# python3-matplotlib (the plots of python/examples/fit.py) is optional.
# libvulkan-dev (headers and loader), mesa-vulkan-drivers (lavapipe, the CPU
# Vulkan device the Vulkan tests run on) and spirv-tools (spirv-val): the
# Vulkan target (docs/execution-engine.md); without the headers the Vulkan
# backend is not built.
packages=(cmake ninja-build gcc libc6-dev python3 libmlir-22-dev mlir-22-tools
          llvm-22-dev llvm-22-tools libopenblas-dev valgrind pkg-config
          python3-numpy python3-pytest libvulkan-dev mesa-vulkan-drivers
          spirv-tools)
# --fuzz: also clang-14 and its sanitizer runtimes, for scripts/fuzz.sh and
# scripts/tsan.sh (docs/reliability.md); the default build needs neither.
# --bench: also oneDNN and libxsmm, optional baselines of bench/mlp-cpu, and
# PyTorch (python3-torch), bench/train-cpu's (docs/performance.md); neither
# the default build nor the tests need them.
for arg in "$@"; do
  case "$arg" in
    --fuzz) packages+=(clang-14 libclang-rt-14-dev) ;;
    --bench) packages+=(libdnnl-dev libxsmm-dev python3-torch) ;;
    *) echo "usage: install-deps.sh [--fuzz] [--bench]" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
