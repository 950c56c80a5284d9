// Found by the pipeline fuzzer (docs/reliability.md): an empty chip in
// `coopvec-lower-to-nvvm{chip=}` or upstream `nvvm-attach-target{chip=""}`
// crashed the process (SIGSEGV): nvvm-attach-target builds its
// #nvvm.target without verifying it, and the gpu.module verifier then reads
// before the empty string (NVVMTargetAttr::verifyTarget, MLIR 22). The
// pipeline parser now refuses it with a located error, exit status 1.

// RUN: not coopvec-opt %s --pass-pipeline='builtin.module(coopvec-lower-to-nvvm{chip=})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LOWER
// LOWER: pass pipeline:1:16: error: in pipeline 'coopvec-lower-to-nvvm': invalid pass element 'nvvm-attach-target{chip= O=3}': the target chip cannot be empty

// Every spelling of the empty string; the last `chip=` counts, as in MLIR.
// RUN: not coopvec-opt %s --pass-pipeline='builtin.module(nvvm-attach-target{chip=""})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=QUOTES
// QUOTES: pass pipeline:1:16: error: invalid pass element 'nvvm-attach-target{chip=""}': the target chip cannot be empty
// RUN: not coopvec-opt %s --pass-pipeline="builtin.module(nvvm-attach-target{chip='' O=3})" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EMPTY
// RUN: not coopvec-opt %s --pass-pipeline='builtin.module(nvvm-attach-target{chip={}})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EMPTY
// RUN: not coopvec-opt %s --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_80 chip=})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: invalid pass element 'nvvm-attach-target{{.*}}': the target chip cannot be empty

// A chip given, or a later one replacing the empty one, is fine.
// RUN: coopvec-opt %s --pass-pipeline='builtin.module(nvvm-attach-target{chip= chip=sm_90})' \
// RUN:   | FileCheck %s --check-prefix=OK
// RUN: coopvec-opt %s --pass-pipeline='builtin.module(nvvm-attach-target)' \
// RUN:   | FileCheck %s --check-prefix=DEFAULT
// OK: gpu.module @kernels [#nvvm.target<chip = "sm_90">]
// DEFAULT: gpu.module @kernels [#nvvm.target]

gpu.module @kernels {
}
