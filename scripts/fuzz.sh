#!/usr/bin/env bash
# Builds the libFuzzer harnesses of test/fuzz (clang-14, ASan + UBSan,
# -DCOOPVEC_FUZZ=ON) and runs each of them: first over its regression corpus
# (test/fuzz/regressions/<harness>/: inputs that once crashed it), then for
# SECONDS (default 60) of fuzzing from the seeds of the test suite and the
# corpus of earlier runs. docs/reliability.md explains the harnesses and how
# to reproduce and minimise a crash.
#
#   scripts/fuzz.sh [SECONDS] [HARNESS...]    (harnesses: ir pipeline
#                                              lower-cpu npy interpreter)
#
# Environment: COOPVEC_FUZZ_BUILD (build directory, default build-fuzz),
# COOPVEC_FUZZ_JOBS (harnesses fuzzed at once, default: the cores),
# CC (default clang-14), COOPVEC_FUZZ_NICE (default 19: other work on the
# machine goes first). The corpus grows in $COOPVEC_FUZZ_BUILD/fuzz-corpus,
# crashes land in $COOPVEC_FUZZ_BUILD/fuzz-artifacts. The last line is
# "N passed, N failed": one check per regression replay and per fuzz run.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-60}"
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(ir pipeline lower-cpu npy interpreter)
build="${COOPVEC_FUZZ_BUILD:-$root/build-fuzz}"
nice_level="${COOPVEC_FUZZ_NICE:-19}"

fail_build() { echo "fuzz: $1"; echo "0 passed, 1 failed"; exit 1; }
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_C_COMPILER="${CC:-clang-14}" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCOOPVEC_FUZZ=ON >/dev/null \
    || fail_build "configuring $build failed (clang-14 and libclang-rt-14-dev installed?)"
fi
nice -n "$nice_level" cmake --build "$build" --target coopvec-fuzzers \
  || fail_build "building the harnesses failed"

seeds="$build/fuzz-seeds"
rm -rf "$seeds"
# .npy seeds: also the files the suite wrote in any build tree of the
# checkout (build, build-ci, ...: coopvec-run --save-inputs and --out).
npy_from=()
for dir in "$build/test" "$root"/build*/test; do
  [ -d "$dir" ] && npy_from+=(--npy-from "$dir")
done
python3 "$root/test/fuzz/make-corpus.py" "$seeds" "${npy_from[@]}" >/dev/null \
  || fail_build "seeding failed"

# Inputs larger than these only slow the fuzzers down.
declare -A max_len=([ir]=32768 [pipeline]=4096 [lower-cpu]=16384 [npy]=4096
                    [interpreter]=16384)
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# Fuzzes harness $1, writing its result lines to $build/fuzz-$1.result
# (each ends in PASS or FAIL).
fuzz_one() { # HARNESS
  local h="$1" fuzzer="$build/test/fuzz/coopvec-fuzz-$1"
  local result="$build/fuzz-$h.result"
  : >"$result"
  # 1. The regression corpus: each input runs once and must not crash.
  local regressions=("$root/test/fuzz/regressions/$h"/*)
  if [ -e "${regressions[0]}" ]; then
    if "$fuzzer" "${regressions[@]}" >"$build/fuzz-$h-replay.log" 2>&1; then
      echo "fuzz $h: replayed ${#regressions[@]} regression inputs: PASS" >>"$result"
    else
      echo "fuzz $h: a regression input crashes (see $build/fuzz-$h-replay.log): FAIL" >>"$result"
    fi
  fi
  # 2. Fuzzing from the seeds and the corpus of earlier runs.
  local corpus="$build/fuzz-corpus/$h" artifacts="$build/fuzz-artifacts"
  mkdir -p "$corpus" "$artifacts"
  local log="$build/fuzz-$h.log" start status elapsed execs cov
  start=$(date +%s)
  nice -n "$nice_level" "$fuzzer" -max_total_time="$seconds" \
    -max_len="${max_len[$h]}" -dict="$seeds/$h.dict" -timeout=120 \
    -rss_limit_mb=3072 -print_final_stats=1 \
    -artifact_prefix="$artifacts/$h-" "$corpus" "$seeds/$h" >"$log" 2>&1
  status=$?
  elapsed=$(( $(date +%s) - start ))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  cov=$(grep -E '^#[0-9]+.*(DONE|INITED)' "$log" | tail -n 1 \
        | sed -n 's/.* cov: \([0-9]*\) ft: \([0-9]*\).*/cov \1, ft \2/p')
  if [ "$status" -eq 0 ]; then
    echo "fuzz $h: ${execs:-?} inputs in ${elapsed} s, ${cov:-no coverage line}: PASS" >>"$result"
  else
    { echo "fuzz $h: crashed after ${elapsed} s (log: $log): FAIL"
      grep -E 'ERROR:|SUMMARY:|broken invariant|Test unit written' "$log" \
        | head -n 5 | sed 's/^/  /'; } >>"$result"
  fi
}

for h in "${harnesses[@]}"; do
  [ -x "$build/test/fuzz/coopvec-fuzz-$h" ] || fail_build "no harness '$h'"
done
# The harnesses are single-threaded: run as many at once as there are
# cores (COOPVEC_FUZZ_JOBS), so that CI's fuzzing takes half the time on 2.
jobs="${COOPVEC_FUZZ_JOBS:-$(nproc)}"
for h in "${harnesses[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  fuzz_one "$h" &
done
wait
passed=0
failed=0
for h in "${harnesses[@]}"; do
  result="$build/fuzz-$h.result"
  # A run that wrote no result line (its shell killed) is a failure too.
  if ! grep -qE '^fuzz [^:]*: ([0-9?]+ inputs in|crashed after)' "$result" 2>/dev/null; then
    echo "fuzz $h: no result from the fuzzing run: FAIL" >>"$result"
  fi
  cat "$result"
  passed=$((passed + $(grep -c ': PASS$' "$result")))
  failed=$((failed + $(grep -c ': FAIL$' "$result")))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
