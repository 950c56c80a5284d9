#!/usr/bin/env bash
# clang-format (dry run) on every C source and header, then clang-tidy
# (.clang-tidy) on lib/ and tools/ using BUILD_DIR's compile_commands.json.
# Usage: lint.sh [BUILD_DIR]
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
cd "$root"
status=0
for f in $(git ls-files '*.c' '*.h'); do
  clang-format --dry-run -Werror "$f" >/dev/null 2>&1 ||
    { echo "lint: clang-format would change $f"; status=1; }
done
if [ ! -f "$build/compile_commands.json" ]; then
  echo "lint: no $build/compile_commands.json (configure the build first)"
  exit 1
fi
for f in $(git ls-files 'lib/*.c' 'tools/*.c'); do
  # clang-tidy exits non-zero on findings; what counts is what it printed.
  findings=$(clang-tidy -p "$build" --quiet "$f" 2>/dev/null |
    grep -E "(error|warning):" || true)
  if [ -n "$findings" ]; then
    echo "$findings"
    status=1
  fi
done
[ "$status" -eq 0 ] && echo "lint: clean"
exit "$status"
