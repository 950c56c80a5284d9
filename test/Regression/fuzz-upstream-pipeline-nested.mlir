// Found by the pipeline fuzzer (CI, 2026-11-25): `buildule(gpu-lower-to-nvvm-
// pipeline{cubin-format=isa})` aborted the process (SIGABRT). Upstream pass
// pipelines whose builders add passes restricted to builtin.module
// (gpu-lower-to-nvvm-pipeline, gpu-lower-to-xevm-pipeline, sparsifier,
// tosa-to-linalg-pipeline) call report_fatal_error when nested in a pass
// manager on another op; upstream mlir-opt aborts the same way. The pipeline
// parser now refuses them there with a located error, exit status 1; on
// builtin.module they still run.

// RUN: not coopvec-opt %s --pass-pipeline='builtin.module(func.func(gpu-lower-to-nvvm-pipeline))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NVVM --implicit-check-not='LLVM ERROR'
// NVVM: pass pipeline:1:26: error: pipeline 'gpu-lower-to-nvvm-pipeline' runs on 'builtin.module' and cannot be nested in a pass manager on 'func.func'
// RUN: not coopvec-opt %s --pass-pipeline='builtin.module(gpu.module(gpu-lower-to-xevm-pipeline))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=XEVM --implicit-check-not='LLVM ERROR'
// XEVM: pass pipeline:1:27: error: pipeline 'gpu-lower-to-xevm-pipeline' runs on 'builtin.module' and cannot be nested in a pass manager on 'gpu.module'
// RUN: not coopvec-opt %s --pass-pipeline='builtin.module(func.func(sparsifier))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SPARSE --implicit-check-not='LLVM ERROR'
// SPARSE: error: pipeline 'sparsifier' runs on 'builtin.module'
// RUN: not coopvec-opt %s --pass-pipeline='builtin.module(func.func(tosa-to-linalg-pipeline))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TOSA --implicit-check-not='LLVM ERROR'
// TOSA: error: pipeline 'tosa-to-linalg-pipeline' runs on 'builtin.module'
// The fuzzer's input: a pass manager on an op no dialect knows.
// RUN: not coopvec-opt %s --pass-pipeline='buildule(gpu-lower-to-nvvm-pipeline{cubin-format=isa})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FUZZ --implicit-check-not='LLVM ERROR'
// FUZZ: error: pipeline 'gpu-lower-to-nvvm-pipeline' runs on 'builtin.module' and cannot be nested in a pass manager on 'buildule'
// On builtin.module the pipeline runs.
// RUN: coopvec-opt %s --pass-pipeline='builtin.module(gpu-lower-to-nvvm-pipeline{cubin-format=isa})' | FileCheck %s --check-prefix=OK
// OK: module

module {
}
