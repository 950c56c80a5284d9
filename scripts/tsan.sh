#!/usr/bin/env bash
# Builds the library and the execution-engine stress test with
# ThreadSanitizer (clang-14, -DCOOPVEC_TSAN=ON) and runs the test
# (test/stress/engine-stress.c) REPEAT times (default 3) with HOSTS host
# threads and ROUNDS rounds each (defaults 8, 5). Any TSan report fails the
# run. MLIR and LLVM are prebuilt without TSan; test/stress/tsan.supp lists
# the suppressions that needs, and why (docs/reliability.md).
#
#   scripts/tsan.sh [REPEAT] [HOSTS] [ROUNDS]
#
# Environment: COOPVEC_TSAN_BUILD (default build-tsan), CC (default
# clang-14), COOPVEC_TSAN_NICE (default 19: the build and the runs let other
# work on the machine go first). The last line is "N passed, N failed" (one
# check per run).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
repeat="${1:-3}"
hosts="${2:-8}"
rounds="${3:-5}"
build="${COOPVEC_TSAN_BUILD:-$root/build-tsan}"
nice_level="${COOPVEC_TSAN_NICE:-19}"

fail_build() { echo "tsan: $1"; echo "0 passed, 1 failed"; exit 1; }
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_C_COMPILER="${CC:-clang-14}" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCOOPVEC_TSAN=ON >/dev/null \
    || fail_build "configuring $build failed (clang-14 installed?)"
fi
nice -n "$nice_level" cmake --build "$build" --target coopvec-stress \
  || fail_build "building coopvec-stress failed"

export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 print_suppressions=1 suppressions=$root/test/stress/tsan.supp"
passed=0
failed=0
for i in $(seq 1 "$repeat"); do
  log="$build/tsan-$i.log"
  start=$(date +%s)
  nice -n "$nice_level" "$build/test/stress/coopvec-stress" "$hosts" "$rounds" >"$log" 2>&1
  status=$?
  elapsed=$(( $(date +%s) - start ))
  suppressed=$(awk '$2 ~ /^race:/ {n += $1} END {print n + 0}' "$log")
  if [ "$status" -eq 0 ] && ! grep -q 'WARNING: ThreadSanitizer' "$log"; then
    echo "tsan run $i: $(grep 'gradients exact' "$log") (${elapsed} s, $suppressed suppressed reports)"
    passed=$((passed + 1))
  else
    echo "tsan run $i: FAIL (log: $log)"
    grep -E 'WARNING: ThreadSanitizer|SUMMARY|FAIL' "$log" | head -n 5 | sed 's/^/  /'
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
