#!/usr/bin/env bash
# Packs a build tree with what running its GPU tests needs on a machine
# that has an NVIDIA driver but no LLVM 22 (docs/testing.md, "On a GPU
# machine"): LLVM's and MLIR's shared libraries, lit, FileCheck, not,
# split-file and count under /usr/lib/llvm-22, the Debian libraries they
# load and the Vulkan loader under /opt/cvdeps (sys/), and the build tree
# without objects (build/). The build's lit configuration holds absolute
# paths: the checkout must sit at the same path on the GPU machine.
# Usage: gpu-bundle.sh [BUILD_DIR] [OUT.tar.xz]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
out="${2:-$root/gpu-bundle.tar.xz}"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
llvm=/usr/lib/llvm-22
lib=/usr/lib/x86_64-linux-gnu
mkdir -p "$stage/sys/opt/cvdeps" "$stage/sys$llvm/lib" "$stage/sys$llvm/bin" \
  "$stage/sys$llvm/utils"
cp -L "$llvm/lib/libMLIR.so.22.1" "$llvm/lib/libLLVM.so.22.1" "$stage/sys$llvm/lib/"
for tool in FileCheck not split-file count lit; do
  cp -L "$llvm/bin/$tool" "$stage/sys$llvm/bin/"
done
cp -rL "$llvm/utils/lit" "$stage/sys$llvm/utils/"
find "$stage/sys$llvm/utils" -name __pycache__ -prune -exec rm -rf {} +
for l in libffi.so.8 libedit.so.2 libxml2.so.2 libbsd.so.0 libmd.so.0 \
  libtinfo.so.6 libzstd.so.1 libvulkan.so.1; do
  cp -L "$lib/$l" "$stage/sys/opt/cvdeps/"
done
# libLLVM needs z3 (clang's static analyzer) and libxml2 needs ICU (text
# encodings), neither of which coopvec ever calls: stubs that trap satisfy
# the loader instead of 55 MB of libraries.
nm -D --undefined-only "$lib/libLLVM.so.22.1" |
  awk '/ Z3_/ {print "void " $2 "(void) { __builtin_trap(); }"}' >"$stage/z3.c"
nm -D --undefined-only "$lib/libxml2.so.2" |
  awk '/_72$/ {print "void " $2 "(void) { __builtin_trap(); }"}' >"$stage/icu.c"
cc -shared -fPIC -w -Wl,-soname,libz3.so.4 -o "$stage/sys/opt/cvdeps/libz3.so.4" "$stage/z3.c"
cc -shared -fPIC -w -Wl,-soname,libicuuc.so.72 -o "$stage/sys/opt/cvdeps/libicuuc.so.72" "$stage/icu.c"
tar -C "$(dirname "$build")" --exclude='*.o' --exclude='*.a' \
  --exclude=Output --exclude=CMakeFiles --exclude=fuzz \
  --transform "s,^$(basename "$build"),build," -cf - "$(basename "$build")" |
  tar -C "$stage" -xf -
# Which sources the build is of, for the record of a run (scripts/gpu-run.sh).
{
  echo "bundled $(date -u '+%Y-%m-%d %H:%M UTC') from $root"
  git -C "$root" log -1 --format='commit %H %s' 2>/dev/null || true
  git -C "$root" status --short 2>/dev/null | sed 's/^/  changed: /' || true
} >"$stage/build/bundle-info.txt"
tar -C "$stage" -cf - sys build | xz -6 -T2 >"$out"
echo "gpu-bundle: $out ($(du -h "$out" | cut -f1))"
