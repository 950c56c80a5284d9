// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(gpu.module(coopvec-prepare-nvvm))' %s | FileCheck %s

// Workgroup allocs become shared-memory globals with their alignment (an
// alloc in address space 3 would become a per-thread malloc in
// convert-gpu-to-nvvm); private allocas stay. An f32 subgroup sum becomes
// a xor butterfly over the warp; other reductions are left to upstream.
// CHECK-LABEL: gpu.module @coopvec_kernels [#nvvm.target<chip = "sm_80">] {
// CHECK-DAG:     memref.global "private" @__coopvec_wg_k_0 : memref<64xf16, 3> {alignment = 128 : i64}
// CHECK-DAG:     memref.global "private" @__coopvec_wg_k_1 : memref<16xf32, 3> {alignment = 64 : i64}
// CHECK:         gpu.func @k(%[[X:.*]]: memref<?xf32>) kernel {
// CHECK-NEXT:      %[[A:.*]] = memref.get_global @__coopvec_wg_k_0 : memref<64xf16, 3>
// CHECK-NEXT:      %[[B:.*]] = memref.get_global @__coopvec_wg_k_1 : memref<16xf32, 3>
// CHECK-NEXT:      %[[P:.*]] = memref.alloca() {alignment = 16 : i64} : memref<4xf32>
// CHECK:           %[[V:.*]] = memref.load %[[X]]
// CHECK-NEXT:      %[[C16:.*]] = arith.constant 16 : i32
// CHECK-NEXT:      %[[W0:.*]] = arith.constant 32 : i32
// CHECK-NEXT:      %[[S16:.*]], %{{.*}} = gpu.shuffle xor %[[V]], %[[C16]], %[[W0]] : f32
// CHECK-NEXT:      %[[V16:.*]] = arith.addf %[[V]], %[[S16]] : f32
// CHECK-NEXT:      %[[C8:.*]] = arith.constant 8 : i32
// CHECK-NEXT:      %[[W1:.*]] = arith.constant 32 : i32
// CHECK-NEXT:      %[[S8:.*]], %{{.*}} = gpu.shuffle xor %[[V16]], %[[C8]], %[[W1]] : f32
// CHECK-NEXT:      %[[V8:.*]] = arith.addf %[[V16]], %[[S8]] : f32
// CHECK:           gpu.shuffle xor %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK:           gpu.shuffle xor %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK:           %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:      %[[W4:.*]] = arith.constant 32 : i32
// CHECK-NEXT:      %[[S1:.*]], %{{.*}} = gpu.shuffle xor %[[V2:.*]], %[[C1]], %[[W4]] : f32
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %[[V2]], %[[S1]] : f32
// CHECK-NEXT:      %[[MAX:.*]] = gpu.subgroup_reduce maxnumf %[[V]] uniform : (f32) -> f32
// CHECK-NEXT:      memref.store %[[SUM]], %[[B]]
// CHECK-NEXT:      memref.store %[[MAX]], %[[P]]
// CHECK-NOT:     memref.alloc()
// CHECK-NOT:     gpu.subgroup_reduce add
module attributes {gpu.container_module} {
  gpu.module @coopvec_kernels [#nvvm.target<chip = "sm_80">] {
    gpu.func @k(%x: memref<?xf32>) kernel {
      %a = memref.alloc() {alignment = 128 : i64} : memref<64xf16, 3>
      %b = memref.alloc() {alignment = 64 : i64} : memref<16xf32, 3>
      %p = memref.alloca() {alignment = 16 : i64} : memref<4xf32>
      %c0 = arith.constant 0 : index
      %v = memref.load %x[%c0] : memref<?xf32>
      %s = gpu.subgroup_reduce add %v uniform : (f32) -> f32
      %m = gpu.subgroup_reduce maxnumf %v uniform : (f32) -> f32
      memref.store %s, %b[%c0] : memref<16xf32, 3>
      memref.store %m, %p[%c0] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// Buffers are named after their kernel and counted per kernel; tf32 tensor
// cores are fine on sm_80, f16 ones from sm_70, with a known feature.
// CHECK-LABEL: gpu.module @two [#nvvm.target<chip = "sm_70", features = "+ptx64">] {
// CHECK-DAG:     memref.global "private" @__coopvec_wg_first_0 : memref<8xf32, 3>
// CHECK-DAG:     memref.global "private" @__coopvec_wg_second_0 : memref<8xf32, 3>
// CHECK-DAG:     memref.global "private" @__coopvec_wg_second_1 : memref<4xf32, 3>
// CHECK:         gpu.func @first() kernel attributes {coopvec.subgroup_size = 32 : i64} {
// CHECK-NEXT:      memref.get_global @__coopvec_wg_first_0
// CHECK:         gpu.func @second() kernel {
// CHECK-NEXT:      memref.get_global @__coopvec_wg_second_0
// CHECK-NEXT:      memref.get_global @__coopvec_wg_second_1
// CHECK:           gpu.subgroup_mma_compute
gpu.module @two [#nvvm.target<chip = "sm_70", features = "+ptx64">] {
  gpu.func @first() kernel attributes {coopvec.subgroup_size = 32 : i64} {
    %a = memref.alloc() {alignment = 128 : i64} : memref<8xf32, 3>
    gpu.return
  }
  gpu.func @second() kernel {
    %a = memref.alloc() {alignment = 128 : i64} : memref<8xf32, 3>
    %b = memref.alloc() {alignment = 128 : i64} : memref<4xf32, 3>
    %c0 = arith.constant 0 : index
    %x = memref.alloc() {alignment = 128 : i64} : memref<256xf16, 3>
    %f = gpu.subgroup_mma_load_matrix %x[%c0] {leadDimension = 16 : index} : memref<256xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %g = gpu.subgroup_mma_load_matrix %x[%c0] {leadDimension = 16 : index} : memref<256xf16, 3> -> !gpu.mma_matrix<16x16xf16, "BOp">
    %z = arith.constant 0.0 : f32
    %c = gpu.subgroup_mma_constant_matrix %z : !gpu.mma_matrix<16x16xf32, "COp">
    %d = gpu.subgroup_mma_compute %f, %g, %c : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.return
  }
}
