// RUN: coopvec-opt --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(coopvec-prepare-nvvm))' %s

// The target is checked before anything reaches LLVM's NVPTX backend,
// which only warns about an unknown chip or feature and aborts the process
// on an instruction the chip lacks.

// expected-error@+1 {{'gpu.module' op needs exactly one #nvvm.target (found 0; attach one with nvvm-attach-target)}}
gpu.module @none {
}

// -----

// expected-error@+1 {{'gpu.module' op needs exactly one #nvvm.target (found 2; attach one with nvvm-attach-target)}}
gpu.module @two [#nvvm.target<chip = "sm_80">, #nvvm.target<chip = "sm_90">] {
}

// -----

// expected-error@+1 {{'gpu.module' op targets chip 'sm_81', which LLVM's NVPTX backend does not know (see `llc -mtriple=nvptx64-nvidia-cuda -mcpu=help`)}}
gpu.module @unknown [#nvvm.target<chip = "sm_81">] {
}

// -----

// The attribute's default chip is sm_50.
// expected-error@+1 {{'gpu.module' op targets sm_50; coopvec-prepare-nvvm needs sm_70 or newer (warp-synchronous shuffles, tensor cores)}}
gpu.module @default [#nvvm.target] {
}

// -----

// expected-error@+1 {{'gpu.module' op targets sm_60; coopvec-prepare-nvvm needs sm_70 or newer}}
gpu.module @old [#nvvm.target<chip = "sm_60">] {
}

// -----

// expected-error@+1 {{'gpu.module' op unknown NVPTX feature '+ptx99' in '+ptx80,+ptx99' (expected a comma list of +name / -name from `llc -mtriple=nvptx64-nvidia-cuda -mattr=help`, e.g. +ptx80)}}
gpu.module @feature [#nvvm.target<chip = "sm_80", features = "+ptx80,+ptx99">] {
}

// -----

// expected-error@+1 {{'gpu.module' op unknown NVPTX feature 'ptx80' in 'ptx80'}}
gpu.module @feature_sign [#nvvm.target<chip = "sm_80", features = "ptx80">] {
}

// -----

// LLVM would exit the process on a PTX version older than the chip needs.
// expected-error@+1 {{'gpu.module' op features '+ptx60' ask for PTX 6.0, but sm_80 needs PTX 7.0 or newer}}
gpu.module @old_ptx [#nvvm.target<chip = "sm_80", features = "+ptx60">] {
}

// -----

gpu.module @tf32 [#nvvm.target<chip = "sm_75">] {
  gpu.func @k() kernel {
    %c0 = arith.constant 0 : index
    %x = memref.alloc() {alignment = 128 : i64} : memref<256xf32, 3>
    %a = gpu.subgroup_mma_load_matrix %x[%c0] {leadDimension = 8 : index} : memref<256xf32, 3> -> !gpu.mma_matrix<16x8xf32, "AOp">
    %b = gpu.subgroup_mma_load_matrix %x[%c0] {leadDimension = 16 : index} : memref<256xf32, 3> -> !gpu.mma_matrix<8x16xf32, "BOp">
    %z = arith.constant 0.0 : f32
    %c = gpu.subgroup_mma_constant_matrix %z : !gpu.mma_matrix<16x16xf32, "COp">
    // expected-error@+1 {{'gpu.subgroup_mma_compute' op multiplies tf32 on tensor cores, which needs sm_80 or newer; the target is sm_75 (convert with allow-tf32=false)}}
    %d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x8xf32, "AOp">, !gpu.mma_matrix<8x16xf32, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.return
  }
}

// -----

gpu.module @subgroups [#nvvm.target<chip = "sm_80">] {
  // expected-error@+1 {{'gpu.func' op was converted for subgroups of 16 threads; NVIDIA warps have 32 (convert with subgroup-size=32)}}
  gpu.func @k() kernel attributes {coopvec.subgroup_size = 16 : i64} {
    gpu.return
  }
}

// -----

gpu.module @dynamic [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%n: index) kernel {
    // expected-error@+1 {{'memref.alloc' op allocates workgroup memory of a dynamic size, which coopvec-prepare-nvvm cannot make a static buffer}}
    %a = memref.alloc(%n) : memref<?xf32, 3>
    gpu.return
  }
}
