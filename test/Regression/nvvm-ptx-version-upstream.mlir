// Issue "Reliability": a pipeline of upstream passes alone made LLVM's
// NVPTX backend exit the process in gpu-module-to-binary ("LLVM ERROR: PTX
// version 4.0 does not support target 'sm_90'. Minimum required PTX version
// is 7.8."), past coopvec-prepare-nvvm's check (fuzz-nvvm-ptx-version.mlir).
// Now the pipeline parser checks the target options of nvvm-attach-target
// and gpu-lower-to-nvvm-pipeline (an error located in the pipeline text)
// and inserts coopvec-check-nvvm-target before every gpu-module-to-binary
// (an error on the gpu.module whose target came with the IR): exit 1, no
// LLVM ERROR.

// The target from nvvm-attach-target's options.
// RUN: not coopvec-opt %s --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_90 features=+ptx40},gpu.module(convert-gpu-to-nvvm),gpu-module-to-binary)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ATTACH --implicit-check-not="LLVM ERROR"
// ATTACH: pass pipeline:1:16: error: invalid pass element 'nvvm-attach-target{chip=sm_90 features=+ptx40}': features '+ptx40' ask for PTX 4.0, but sm_90 needs PTX 7.8 or newer (leave the +ptx feature out for the default, or raise it)
// RUN: not coopvec-opt %s --nvvm-attach-target='chip=sm_90 features=+ptx40' --gpu-module-to-binary 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FLAGS --implicit-check-not="LLVM ERROR"
// FLAGS: pass pipeline:1:1: error: invalid pass element 'nvvm-attach-target{chip=sm_90 features=+ptx40}': features '+ptx40' ask for PTX 4.0
// RUN: not coopvec-opt %s --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_81})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CHIP
// CHIP: pass pipeline:1:16: error: invalid pass element 'nvvm-attach-target{chip=sm_81}': targets chip 'sm_81', which LLVM's NVPTX backend does not know

// The target already in the IR.
// RUN: sed 's/gpu.module @k {/gpu.module @k [#nvvm.target<chip = "sm_90", features = "+ptx40">] {/' %s > %t.mlir
// RUN: not coopvec-opt %t.mlir --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm),gpu-module-to-binary{format=isa})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=IR --implicit-check-not="LLVM ERROR"
// IR: .mlir:[[@LINE+11]]:3: error: 'gpu.module' op features '+ptx40' ask for PTX 4.0, but sm_90 needs PTX 7.8 or newer

// gpu-lower-to-nvvm-pipeline ends in gpu-module-to-binary, and its default
// cubin-features is +ptx60: cubin-chip=sm_90 alone made LLVM exit too.
// RUN: not coopvec-opt %s --pass-pipeline='builtin.module(gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-format=isa})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UPSTREAM-PIPELINE --implicit-check-not="LLVM ERROR"
// UPSTREAM-PIPELINE: pass pipeline:1:16: error: invalid pass element 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-format=isa}': features '+ptx60' ask for PTX 6.0, but sm_90 needs PTX 7.8 or newer
// RUN: not coopvec-opt %t.mlir --pass-pipeline='builtin.module(gpu-lower-to-nvvm-pipeline{cubin-format=isa})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=IR --implicit-check-not="LLVM ERROR"

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0] : memref<4xf32>
      memref.store %v, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
}

// Targets LLVM accepts still compile: the defaults of nvvm-attach-target
// (sm_50, no features) and of gpu-lower-to-nvvm-pipeline (sm_50, +ptx60),
// and a chip without features (LLVM picks the chip's PTX version).
// RUN: coopvec-opt %s --pass-pipeline='builtin.module(nvvm-attach-target,gpu.module(convert-gpu-to-nvvm),gpu-module-to-binary{format=isa})' \
// RUN:   | FileCheck %s --check-prefix=SM50
// RUN: coopvec-opt %s --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_50 features=+ptx60},gpu.module(convert-gpu-to-nvvm),gpu-module-to-binary{format=isa})' \
// RUN:   | FileCheck %s --check-prefix=SM50
// RUN: coopvec-opt %s --pass-pipeline='builtin.module(gpu-lower-to-nvvm-pipeline{cubin-format=isa})' \
// RUN:   | FileCheck %s --check-prefix=SM50
// SM50: gpu.binary @k
// SM50-SAME: .target sm_50
// RUN: coopvec-opt %s --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_90},gpu.module(convert-gpu-to-nvvm),gpu-module-to-binary{format=isa})' \
// RUN:   | FileCheck %s --check-prefix=SM90
// SM90: gpu.binary @k
// SM90-SAME: .version 7.8\0A.target sm_90

// The check runs right before gpu-module-to-binary.
// RUN: coopvec-opt %s --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_90},gpu.module(convert-gpu-to-nvvm),gpu-module-to-binary{format=isa})' --mlir-timing 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ORDER
// ORDER: ConvertGpuOpsToNVVMOps
// ORDER: CoopvecCheckNVVMTarget
// ORDER-NEXT: GpuModuleToBinaryPass
