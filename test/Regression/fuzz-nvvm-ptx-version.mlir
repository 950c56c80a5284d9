// Found by the pipeline fuzzer (docs/reliability.md):
// `coopvec-lower-to-nvvm{chip=sm_90 features=+ptx40}` made LLVM's NVPTX
// backend exit the process in gpu-module-to-binary ("LLVM ERROR: PTX
// version 4.0 does not support target 'sm_90'. Minimum required PTX version
// is 7.8."). coopvec-prepare-nvvm now checks an explicit +ptxNN against the
// oldest version LLVM accepts for the chip (read from llc at build time,
// cmake/NVPTXNames.cmake) and for any +sm_* feature: a located error, exit 1.
// Since the pipeline parser runs the same check on nvvm-attach-target's
// options (nvvm-ptx-version-upstream.mlir), the error for these options
// comes from there, located in the pipeline text.

// RUN: not coopvec-opt %S/../tools/coopvec-opt/emit-gpu.mlir --pass-pipeline='builtin.module(coopvec-lower-to-nvvm{chip=sm_90 features=+ptx40})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OLD --implicit-check-not=LLVM
// OLD: pass pipeline:1:16: error: in pipeline 'coopvec-lower-to-nvvm': invalid pass element 'nvvm-attach-target{chip=sm_90 features=+ptx40 O=3}': features '+ptx40' ask for PTX 4.0, but sm_90 needs PTX 7.8 or newer
// A processor feature raises the minimum, as in LLVM.
// RUN: not coopvec-opt %S/../tools/coopvec-opt/emit-gpu.mlir --pass-pipeline='builtin.module(coopvec-lower-to-nvvm{chip=sm_80 features=+ptx70,+sm_90})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SM --implicit-check-not=LLVM
// SM: pass pipeline:1:16: error: in pipeline 'coopvec-lower-to-nvvm': invalid pass element 'nvvm-attach-target{chip=sm_80 features=+ptx70,+sm_90 O=3}': features '+ptx70,+sm_90' ask for PTX 7.0, but sm_90 needs PTX 7.8 or newer

// LLVM takes the highest PTX feature left enabled: these are fine.
// RUN: coopvec-opt %S/../tools/coopvec-opt/emit-gpu.mlir --pass-pipeline='builtin.module(coopvec-lower-to-nvvm{chip=sm_90 features=+ptx78})' | FileCheck %s --check-prefix=OK
// RUN: coopvec-opt %S/../tools/coopvec-opt/emit-gpu.mlir --pass-pipeline='builtin.module(coopvec-lower-to-nvvm{chip=sm_80 features=+ptx40,+ptx80})' | FileCheck %s --check-prefix=OK
// RUN: coopvec-opt %S/../tools/coopvec-opt/emit-gpu.mlir --pass-pipeline='builtin.module(coopvec-lower-to-nvvm{chip=sm_80 features=+ptx40,-ptx40})' | FileCheck %s --check-prefix=OK
// OK: gpu.binary
