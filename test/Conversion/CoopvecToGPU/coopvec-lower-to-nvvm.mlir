// coopvec-lower-to-nvvm: coopvec IR to a gpu.binary holding PTX for the
// chosen chip; `coopvec-opt --emit=ptx` prints the PTX (no ptxas needed).
// RUN: coopvec-opt %s --coopvec-lower-to-nvvm | FileCheck %s
// RUN: coopvec-opt %s --pass-pipeline='builtin.module(coopvec-lower-to-nvvm)' --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: coopvec-opt %s --coopvec-lower-to-nvvm --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// Target options go to nvvm-attach-target, the others to
// convert-coopvec-to-gpu.
// RUN: coopvec-opt %s --coopvec-lower-to-nvvm="chip=sm_90 features=+ptx80 matvec=simt block-size=256" --emit=ptx | FileCheck %s --check-prefix=SM90
// RUN: coopvec-opt %s --coopvec-lower-to-nvvm="allow-tf32=true" --emit=ptx | FileCheck %s --check-prefix=TF32
// binary=false stops before gpu-module-to-binary: the kernels are LLVM
// functions that keep the launch contract (the CUDA backend reads it).
// RUN: coopvec-opt %s --coopvec-lower-to-nvvm="binary=false block-size=64" | FileCheck %s --check-prefix=NOSERIAL
// RUN: coopvec-opt %s --coopvec-lower-to-nvvm="binary=true" | FileCheck %s

// Errors: a chip without what the kernels need, an option nobody has, tf32
// before sm_80 (at the matvec), PTX from a module that has none.
// RUN: not coopvec-opt %s --coopvec-lower-to-nvvm="chip=sm_60" 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: not coopvec-opt %s --coopvec-lower-to-nvvm="chip=sm_81" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not coopvec-opt %s --coopvec-lower-to-nvvm="lanes=3" 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not coopvec-opt %s --coopvec-lower-to-nvvm="binary=maybe" 2>&1 | FileCheck %s --check-prefix=BINARY
// RUN: not coopvec-opt %s --coopvec-lower-to-nvvm="chip=sm_75 allow-tf32=true" 2>&1 | FileCheck %s --check-prefix=TF32-OLD
// RUN: not coopvec-opt %s --emit=ptx 2>&1 | FileCheck %s --check-prefix=NOBINARY
// RUN: not coopvec-opt %s --coopvec-lower-to-nvvm --emit=ptx --split-input-file 2>&1 | FileCheck %s --check-prefix=SPLIT

// CHECK:      module attributes {gpu.container_module} {
// CHECK-NEXT:   gpu.binary @coopvec_kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_80">, properties = {{.*}}, assembly = "{{.*}}.target sm_80{{.*}}"
// CHECK-NOT:    func.func
// CHECK-NOT:    coopvec.

// One kernel per function, blocks of 128 threads, parameters as the batched
// CPU function's (a memref is 5 of them: allocated and aligned pointer,
// offset, size, stride; an f16 scalar 2 bytes). The f16 matvec runs on
// tensor cores between barriers, with f32 accumulators, staged in 16-byte
// vector stores and read back in 16-byte vector loads after a warp
// barrier; maxnum and the
// exp2 polynomial are plain f32 instructions (nothing from libdevice). The
// outer product sums over the warp by shuffles; lane 0 adds atomically.
// PTX:          .target sm_80
// PTX:          .visible .entry layer_kernel(
// PTX-NEXT:     .param .u64 layer_kernel_param_0,
// PTX-COUNT-10: .param .u64
// PTX-NEXT:     .param .align 2 .b8 layer_kernel_param_11[2],
// PTX-COUNT-5:  .param .u64
// PTX-NEXT:     )
// PTX-NEXT:     .maxntid 128, 1, 1
// PTX-DAG:      .shared .align 128 .b8 __coopvec_wg_layer_kernel_0[6144];
// PTX-DAG:      .shared .align 128 .b8 __coopvec_wg_layer_kernel_1[768];
// PTX-DAG:      .shared .align 128 .b8 __coopvec_wg_layer_kernel_2[10240];
// PTX:          st.shared.v4.b32 [{{%rd[0-9]+}}], {
// PTX:          st.shared.v4.b32 [{{%rd[0-9]+}}+16], {
// PTX-NEXT:     bar.sync 0;
// PTX:          wmma.load.a.sync.aligned.row.m16n16k16.shared.f16
// PTX:          wmma.load.b.sync.aligned.col.m16n16k16.shared.f16
// PTX:          wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32
// PTX:          wmma.store.d.sync.aligned.row.m16n16k16.shared.f32
// PTX:          bar.warp.sync -1;
// PTX-COUNT-4:  ld.shared.v4.b32
// PTX:          max.f32
// PTX:          fma.rn.f32
// PTX:          .visible .entry grad_kernel(
// PTX-NOT:      shfl.sync
// PTX:          bar.sync 0;
// PTX-NOT:      shfl.sync
// PTX:          atom.global.add.f32
// PTX:          .visible .entry dense_kernel(
// PTX-NOT:      wmma
// PTX:          fma.rn.f32
// PTX-NOT:      __nv_
// PTX-NOT:      wmma

// NOSERIAL:      gpu.module @coopvec_kernels [#nvvm.target<O = 3, chip = "sm_80">] {
// NOSERIAL:      llvm.func @layer_kernel({{.*}}) attributes {coopvec.block_size = 64 : i64, coopvec.subgroup_size = 32 : i64, coopvec.workgroup_memory = {{[0-9]+}} : i64, gpu.kernel, gpu.known_block_size = array<i32: 64, 1, 1>, nvvm.kernel, nvvm.maxntid = array<i32: 64, 1, 1>}
// NOSERIAL-NOT:  gpu.binary

// SM90:     .version 8.0
// SM90:     .target sm_90
// SM90-NOT: wmma
// SM90:     .maxntid 256, 1, 1
// SM90-NOT: wmma

// f32 on tensor cores as tf32 (16 x 16 x 8) with allow-tf32.
// TF32:     .visible .entry dense_kernel(
// TF32:     wmma.load.a.sync.aligned.row.m16n16k8.shared.tf32
// TF32:     wmma.load.b.sync.aligned.col.m16n16k8.shared.tf32
// TF32:     wmma.mma.sync.aligned.row.col.m16n16k8.f32.tf32.tf32.f32

// OLD: error: 'gpu.module' op targets sm_60; coopvec-prepare-nvvm needs sm_70 or newer
// UNKNOWN: error: in pipeline 'coopvec-lower-to-nvvm': invalid pass element 'nvvm-attach-target{chip=sm_81 O=3}': targets chip 'sm_81', which LLVM's NVPTX backend does not know
// OPTION: error: in pipeline 'coopvec-lower-to-nvvm': pass 'convert-coopvec-to-gpu' has no option 'lanes'
// BINARY: error: in pipeline 'coopvec-lower-to-nvvm': pass 'convert-coopvec-to-gpu' has no option 'binary'
// TF32-OLD: coopvec-lower-to-nvvm.mlir:[[# @LINE + 20]]:8: error: 'gpu.subgroup_mma_compute' op multiplies tf32 on tensor cores, which needs sm_80 or newer; the target is sm_75
// NOBINARY: coopvec-opt: error: the module has no gpu.binary (run coopvec-lower-to-nvvm first)
// SPLIT: cannot be combined with --split-input-file

func.func @layer(%x: !coopvec.vec<16, f16>, %w: memref<?xf16>, %zero: f16) -> !coopvec.vec<16, f16> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<16, 16, f16, "inference">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<16, 16, f16, "inference">, !coopvec.vec<16, f16>) -> !coopvec.vec<16, f16>
  %r = "coopvec.max"(%y, %zero) : (!coopvec.vec<16, f16>, f16) -> !coopvec.vec<16, f16>
  %e = "coopvec.exp2"(%r) : (!coopvec.vec<16, f16>) -> !coopvec.vec<16, f16>
  return %e : !coopvec.vec<16, f16>
}

func.func @grad(%a: !coopvec.vec<4, f32>, %b: !coopvec.vec<4, f32>, %g: memref<?xf32>) {
  %G = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<4, 4, f32, "row_major">
  "coopvec.outer_product_accumulate"(%a, %b, %G) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.matrix<4, 4, f32, "row_major">) -> ()
  return
}

func.func @dense(%x: !coopvec.vec<8, f32>, %w: memref<?xf32>) -> !coopvec.vec<8, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<8, 8, f32, "col_major">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<8, 8, f32, "col_major">, !coopvec.vec<8, f32>) -> !coopvec.vec<8, f32>
  return %y : !coopvec.vec<8, f32>
}
