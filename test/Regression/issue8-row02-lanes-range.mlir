// Issue 8, row 2: `lanes=-1` divided by zero (SIGFPE) before the range
// check, and `lanes=99999999999999999999` overflowed the option's integer
// (it was clamped to 2^63-1). Now -1 is out of range and a value that is no
// 64-bit integer is not an integer at all: one error each, exit status 1.

// RUN: not coopvec-opt %s --pass-pipeline='builtin.module(coopvec-lower-to-cpu{lanes=-1})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: convert-coopvec-to-cpu: lanes=-1 is out of range; use 1 to 256, or 0 for the target's default

// RUN: not coopvec-opt %s --pass-pipeline='builtin.module(coopvec-lower-to-cpu{lanes=99999999999999999999})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HUGE
// HUGE: pass pipeline:1:16: error: in pipeline 'coopvec-lower-to-cpu': invalid value '99999999999999999999' for option 'lanes' of pass 'convert-coopvec-to-cpu': expected an integer
// HUGE-NOT: 9223372036854775807

// The int64 boundaries: in range for the parser, out of range for lanes.
// RUN: not coopvec-opt %s --pass-pipeline='builtin.module(coopvec-lower-to-cpu{lanes=-9223372036854775808})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MIN
// MIN: error: convert-coopvec-to-cpu: lanes=-9223372036854775808 is out of range
// RUN: not coopvec-opt %s --pass-pipeline='builtin.module(coopvec-lower-to-cpu{lanes=9223372036854775807})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MAX
// MAX: error: convert-coopvec-to-cpu: lanes=9223372036854775807 is out of range
// RUN: not coopvec-opt %s --pass-pipeline='builtin.module(coopvec-lower-to-cpu{lanes=-9223372036854775809})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BELOW-MIN
// BELOW-MIN: invalid value '-9223372036854775809' for option 'lanes' of pass 'convert-coopvec-to-cpu': expected an integer

// The row-block option shares the code.
// RUN: not coopvec-opt %s --pass-pipeline='builtin.module(coopvec-lower-to-cpu{row-block=-1})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ROW-BLOCK
// ROW-BLOCK: error: convert-coopvec-to-cpu: row-block=-1 is out of range; use 1 to 64, or 0 for the target's default

func.func @neg(%x: !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32> {
  %0 = "coopvec.neg"(%x) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return %0 : !coopvec.vec<4, f32>
}
