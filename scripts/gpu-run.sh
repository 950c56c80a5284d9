#!/usr/bin/env bash
# The device script of issue 22 (docs/testing.md, "On a GPU machine"): on a
# machine with an NVIDIA GPU, its driver and CUDA but no LLVM 22, as root,
# from a checkout that holds BUNDLE_DIR (default build-gpu) with
#   gpu-bundle.tar.xz  scripts/gpu-bundle.sh's pack of a build of this checkout
#   glvnd/*.deb        Debian's libglvnd0 libglx0 libegl1 libgl1 libopengl0
#                      libgles2 (`apt-get download`), which NVIDIA's Vulkan
#                      driver loads
# it installs the bundle, then records, each step under a time limit (the
# limits add up to 10.5 minutes, the two suites running side by side; a
# run took 4.3 minutes on an H200, the profiles included, so a 15-minute
# lease can run it once and rerun a part):
#   1. the GPU and its driver (nvidia-smi), and what its Vulkan driver
#      offers: cooperative-matrix shapes, VK_NV_cooperative_vector and its
#      combinations (bench/vulkan-query);
#   2. bench/mlp-gpu, alone on the GPU (its summary: lines): forward passes
#      (about 50 s) and training steps (about 50 s more, most of it the
#      lowering and JIT of coopvec's gradients: ptxas takes 5 s at W = 64
#      and 20 s at W = 128 on a slow host);
#   3. test/Integration/CPU with --target=cuda and with --target=vulkan, at
#      the same time;
#   4. test/Integration/GPU, test/Integration/Vulkan, test/tools/coopvec-run
#      and test/CAPI (but cuda.test and vulkan.test, whose suites step 3
#      ran, ptxas.test, which needs no GPU and takes minutes there, and
#      cooperative-matrix.test, which needs no GPU either and reads SPIR-V
#      back with mlir-translate, which the bundle leaves out);
#   5. where Nsight Compute (ncu) is installed, a profile of the mma
#      forward kernels of bench/mlp-gpu at batch 2^20 (steps ncu-w64 and
#      ncu-w128, 15-40 s each): its details page (stall reasons,
#      occupancy, memory) and the SASS with its stall samples per
#      instruction (CSV), summed per opcode by bench/ncu-sass-summary.py,
#      for docs/performance.md.
# On a device that flushes f32 subnormals (the H200's Vulkan driver) step 3's
# Vulkan suite fails in exactly the four files vulkan.test leaves out there
# (special-values, math-accuracy, expand-math, fma-exact: docs/testing.md).
# Logs go to BUNDLE_DIR/out, and packed as gpu-run-logs.tar.xz to $OUT (the
# device tool's folder, which takes back 8 files at most) when that is set;
# the end of each is printed. Exit status: the number of steps that failed.
# GPU_RUN_SKIP, an extended regular expression, names steps to leave out
# (GPU_RUN_SKIP=mlp-gpu for a rerun of the tests only). GPU_RUN_VARIANTS,
# a ';'-separated list of convert-coopvec-to-gpu options, adds one step
# per entry after mlp-gpu (mlp-gpu-v1, ...: the forward passes only, 60 s
# each, with --gpu-options=ENTRY), so that one call compares schedule
# options on the same warm GPU (GPU_RUN_VARIANTS='block-size=64;
# register-elements=32'). Unset, it is 'mma-weights=whole;
# workgroup-memory=98304;mma-regions=true workgroup-memory=98304' (built
# 2026-11-28 without a GPU: whole weights, staging in dynamic shared
# memory beyond 48 KiB, and the cooperative regions on mma.sync fragments,
# docs/gpu-schedule.md); set it empty for none. lit-cuda-regions runs the
# Integration suite on CUDA with --mma-regions (the fragment layout of
# real mma.sync, which the emulation cannot check).
# mlp-gpu-train-subgroup then times the training step with
# training=subgroup (GPU_RUN_SKIP=train-subgroup leaves it out).
# Usage: scripts/gpu-run.sh [BUNDLE_DIR]
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bundle="$(cd "${1:-$root/build-gpu}" && pwd)"
out="$bundle/out"
rm -rf "$out" && mkdir -p "$out"
began=$(date +%s)

# step NAME SECONDS COMMAND...: runs COMMAND into $out/NAME.txt under a
# limit, and its exit status into $out/NAME.rc (steps also run in the
# background, so no shell variable could count them).
step() {
  local name=$1 limit=$2
  shift 2
  local t0 rc=0
  if [ -n "${GPU_RUN_SKIP:-}" ] && [[ $name =~ ^($GPU_RUN_SKIP)$ ]]; then
    echo "== $name: skipped (GPU_RUN_SKIP)"
    return
  fi
  t0=$(date +%s)
  timeout "$limit" "$@" >"$out/$name.txt" 2>&1 || rc=$?
  echo "$rc" >"$out/$name.rc"
  echo "== $name: exit $rc after $(($(date +%s) - t0)) s (limit $limit s)"
}

# The build's lit configuration holds the absolute path of the checkout it
# was configured in: make this checkout reachable there.
mkdir -p /tmp/gpu-pack && tar -xJf "$bundle/gpu-bundle.tar.xz" -C /tmp/gpu-pack
home=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' /tmp/gpu-pack/build/CMakeCache.txt)
if [ "$home" != "$root" ]; then
  if [ -e "$home" ] && [ "$(cd "$home" && pwd -P)" != "$(pwd -P)" ]; then
    echo "gpu-run: $home exists and is not this checkout ($root)" >&2
    exit 100
  fi
  mkdir -p "$(dirname "$home")" && ln -sfn "$root" "$home"
fi
cd "$home" || exit 100
cp -a /tmp/gpu-pack/sys/. / && rm -rf build && mv /tmp/gpu-pack/build build
for deb in "$bundle"/glvnd/*.deb; do dpkg -x "$deb" /; done
ldconfig
export LD_LIBRARY_PATH=/opt/cvdeps:/usr/local/cuda/lib64
cat build/bundle-info.txt
echo "setup: $(($(date +%s) - began)) s"

lit=(python3 /usr/lib/llvm-22/bin/lit -v)
step nvidia-smi 30 nvidia-smi
step vulkan-query 30 build/bench/vulkan-query
step mlp-gpu 180 build/bench/mlp-gpu
# The cooperative regions, which become the default once they are measured
# faster (docs/execution-model.md, "Cooperative regions").
regions='mma-regions=true workgroup-memory=98304'
IFS=';' read -ra variants <<<"${GPU_RUN_VARIANTS-mma-weights=whole;workgroup-memory=98304;$regions}"
for v in "${!variants[@]}"; do
  step "mlp-gpu-v$((v + 1))" 60 build/bench/mlp-gpu --mode=forward \
    --gpu-options="${variants[v]}"
done
# The training step with the training ops' subgroup form, against the
# default block form of the mlp-gpu step (built 2026-11-28 without a GPU).
step mlp-gpu-train-subgroup 60 build/bench/mlp-gpu --mode=train \
  --gpu-options=training=subgroup
step lit-cuda 180 "${lit[@]}" -j8 --param coopvec_run_target=cuda build/test/Integration/CPU &
step lit-vulkan 180 "${lit[@]}" -j8 --param coopvec_run_target=vulkan build/test/Integration/CPU &
step lit-cuda-regions 180 "${lit[@]}" -j8 --param coopvec_run_target=cuda \
  --param coopvec_run_options=--mma-regions build/test/Integration/CPU &
wait
step lit-rest 90 "${lit[@]}" -j16 \
  --filter-out '(cuda|vulkan|ptxas|cooperative-matrix)\.test' \
  build/test/Integration/GPU build/test/Integration/Vulkan \
  build/test/tools/coopvec-run build/test/CAPI

# profile WIDTH [SUFFIX GPU-OPTIONS]: ncu's replay of the first mma
# forward kernel of width WIDTH (the warm-up run; the clocks left as they
# are, as the bench's), lowered with GPU-OPTIONS, in ncu-wWIDTHSUFFIX.
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -1)
profile() {
  local report="$out/ncu-w$1${2:-}"
  "$ncu" --clock-control none -k "regex:^mlp_relu$1_kernel$" -c 1 \
    --set full --import-source no -f -o "$report" \
    "$PWD/build/bench/mlp-gpu" --mode=forward --width="$1" --batch=1048576 \
    --reps=1 ${3:+"--gpu-options=$3"} ||
    return
  "$ncu" -i "$report.ncu-rep" --page details --print-details all \
    >"$report-details.txt" ||
    "$ncu" -i "$report.ncu-rep" --page details >"$report-details.txt"
  "$ncu" -i "$report.ncu-rep" --page source --csv --print-source sass \
    >"$report-sass.csv"
}
if [ -n "$ncu" ]; then
  export -f profile && export ncu out # `timeout` runs commands, not functions
  step ncu-w64 60 bash -c 'profile 64'
  step ncu-w128 60 bash -c 'profile 128'
  step ncu-w64-regions 60 bash -c "profile 64 -regions '$regions'"
  step ncu-w128-regions 60 bash -c "profile 128 -regions '$regions'"
else
  echo "== ncu: not installed, no profile"
fi

echo "== the records (whole files under $out)"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
grep -E 'CUDA Version' "$out/nvidia-smi.txt"
head -40 "$out/vulkan-query.txt"
grep -E '^summary|FAIL|error' "$out/mlp-gpu.txt"
for v in "${!variants[@]}"; do
  echo "-- mlp-gpu-v$((v + 1)): --gpu-options='${variants[v]}'"
  grep -E '^summary|FAIL|error' "$out/mlp-gpu-v$((v + 1)).txt"
done
for log in lit-cuda lit-vulkan lit-cuda-regions lit-rest; do
  echo "-- $log"
  grep -E '^(FAIL|XPASS|UNRESOLVED|TIMEOUT):|^  (Passed|Failed|Unsupported|Excluded|Timed Out)' "$out/$log.txt"
done
for width in 64 128 64-regions 128-regions; do
  report="$out/ncu-w$width"
  [ -e "$report-details.txt" ] || continue
  echo "-- $report-details.txt"
  grep -E 'Duration|Registers Per|Achieved Occupancy|Compute \(SM\) Throughput|Memory Throughput|Lsu Wavefronts|Issue Slots Busy|Warp Cycles Per Issued|Stall (Short|Long|MIO|Barrier|Wait|LG)' \
    "$report-details.txt" | sort -u
  [ -s "$report-sass.csv" ] && python3 bench/ncu-sass-summary.py "$report-sass.csv" --top 15
done
if [ -n "${OUT:-}" ]; then
  tar -C "$out" -cJf "$OUT/gpu-run-logs.tar.xz" --exclude='*.ncu-rep' . &&
    cp "$out"/ncu-w*.ncu-rep "$OUT/" 2>/dev/null
fi
failed=$(cat "$out"/*.rc 2>/dev/null | grep -cv '^0$')
echo "gpu-run: $failed step(s) failed, $(($(date +%s) - began)) s in all"
exit "$failed"
