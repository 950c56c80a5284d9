// Issue 8, row 5: `coopvec-opt /dev/zero` read until memory ran out. The
// input is now read up to 256 MiB: a longer file or stream is one error,
// exit status 1, after reading at most that much. (coopvec-run's .npy
// inputs: test/tools/coopvec-run/input-limits.mlir.)

// RUN: not coopvec-opt /dev/zero 2>&1 | FileCheck %s --check-prefix=FILE
// FILE: coopvec-opt: error: input file '/dev/zero' is larger than 256 MiB
// RUN: not coopvec-opt - < /dev/zero 2>&1 | FileCheck %s --check-prefix=STDIN
// STDIN: coopvec-opt: error: input file '-' is larger than 256 MiB
// RUN: not coopvec-opt --split-input-file /dev/zero 2>&1 | FileCheck %s --check-prefix=FILE
