// Informational options, pass flags and the instrumentation options.

// RUN: coopvec-opt --help | FileCheck %s --check-prefix=HELP
// HELP: USAGE: coopvec-opt [options] [input file]
// HELP-DAG: -o <file>
// HELP-DAG: --pass-pipeline=<pipeline>
// HELP-DAG: --split-input-file
// HELP-DAG: --verify-diagnostics
// HELP-DAG: --mlir-print-ir-after-all
// HELP-DAG: --mlir-timing
// HELP-DAG: --list-passes
// HELP-DAG: --emit-irdl
// HELP-DAG: --version
// Every coopvec pass is a flag.
// HELP: COOPVEC PASSES
// HELP-DAG: --coopvec-verify
// HELP-DAG: --coopvec-canonicalize
// HELP-DAG: --convert-coopvec-to-cpu
// HELP-DAG: --coopvec-check-nvvm-target
// HELP-DAG: --coopvec-lower-to-cpu
// The pipelines name their options.
// HELP-DAG: Options: chip, features, binary, and those of convert-coopvec-to-gpu (matvec, allow-tf32, block-size, workgroup-memory, register-elements, bounds-checks, reduce-mode, emulate-mma, mma-weights, training, mma-regions)
// HELP-DAG: Options: mode, device-cooperative-matrix, subgroup-size, block-size, workgroup-memory, atomic-float, cooperative-matrix-shapes, signed-zero-inf-nan-preserve, denorm-preserve, rounding-mode-rte, opaque-f16-extension, bounds-checks, reduce-mode, emulate-mma, mma-weights, training, mma-regions, binary
// HELP-DAG: emulate-mma=<bool> (default: false)
// HELP-DAG: mma-weights=<string> (default: slices)
// HELP-DAG: training=<string> (default: block)
// HELP-DAG: mma-regions=<bool> (default: false)
// HELP-DAG: reduce-mode=<string> (default: auto)
// HELP-DAG: register-elements=<int> (default: 0)
// HELP-DAG: --coopvec-inline
// HELP-DAG: bounds-checks=<bool> (default: true)
// HELP: UPSTREAM PASSES
// HELP: EXIT STATUS

// RUN: coopvec-opt --list-passes | FileCheck %s --check-prefix=LIST
// LIST: coopvec passes:
// LIST-DAG: {{^}}  coopvec-verify
// LIST-DAG: {{^}}  coopvec-canonicalize
// LIST-DAG: {{^}}  convert-coopvec-to-cpu
// LIST-DAG: {{^}}  coopvec-check-nvvm-target
// LIST-DAG: {{^}}  coopvec-lower-to-cpu
// LIST-DAG: {{^}}  coopvec-inline

// RUN: coopvec-opt --version | FileCheck %s --check-prefix=VERSION
// VERSION: coopvec-opt version {{[0-9]+\.[0-9]+\.[0-9]+}} (MLIR 22.

// The IRDL definition loads in stock mlir-opt, which then parses this file.
// RUN: coopvec-opt --emit-irdl > %t.irdl
// RUN: FileCheck %s --check-prefix=IRDL < %t.irdl
// RUN: mlir-opt --irdl-file=%t.irdl %s | FileCheck %s --check-prefix=CHECK
// IRDL: irdl.dialect @coopvec

// Pass flags run in command-line order, coopvec-verify after each pass.
// RUN: coopvec-opt %s --coopvec-canonicalize --cse --canonicalize="max-iterations=2" --mlir-print-ir-after-all 2>&1 | FileCheck %s --check-prefix=ORDER
// ORDER: IR Dump After CoopvecCanonicalize
// ORDER: IR Dump After CoopvecVerify
// ORDER: IR Dump After CSE
// ORDER: IR Dump After CoopvecVerify
// ORDER: IR Dump After Canonicalizer
// ORDER: IR Dump After CoopvecVerify
// ORDER-NOT: IR Dump

// Single-dash spellings are accepted, as by mlir-opt.
// RUN: coopvec-opt %s -cse -mlir-print-ir-before-all 2>&1 | FileCheck %s --check-prefix=BEFORE
// BEFORE: IR Dump Before CSE

// RUN: coopvec-opt %s --pass-pipeline='builtin.module(func.func(coopvec-canonicalize),cse)' --mlir-timing 2>&1 | FileCheck %s --check-prefix=TIMING
// TIMING: Execution time report
// TIMING: CoopvecCanonicalize
// TIMING: CSE

// RUN: coopvec-opt %s --coopvec-canonicalize | FileCheck %s
// CHECK-LABEL: func.func @f(
// CHECK-SAME:      %[[X:.*]]: !coopvec.vec<4 : i64, f32>
// CHECK:         return %[[X]]
func.func @f(%x: !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32> {
  return %x : !coopvec.vec<4, f32>
}
