#!/usr/bin/env bash
# Builds (if needed) and runs the whole lit suite in BUILD_DIR (default:
# build), then prints one summary line "N passed, N failed".
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja >/dev/null || exit 1
fi
cmake --build "$build" || exit 1
log="$(mktemp)"
/usr/lib/llvm-22/bin/lit -v "$build/test" 2>&1 | tee "$log"
lit_status=${PIPESTATUS[0]}
# lit's summary lines look like "  Passed: 12 (92.31%)" or, when several
# categories are listed, "  Passed     : 12 (92.31%)".
count() { sed -n "s/^  $1 *: *\([0-9]*\).*/\1/p" "$log" | tail -n 1 | grep . || echo 0; }
passed=$(( $(count Passed) + $(count "Expectedly Failed") ))
failed=$(( $(count Failed) + $(count Unresolved) + $(count "Timed Out") + $(count "Unexpectedly Passed") ))
skipped=$(count Unsupported)
# Never report success when lit itself failed (e.g. a crash in lit).
if [ "$lit_status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
rm -f "$log"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
