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

// -----

// math.floor, ceil, round, roundeven, absf, copysign and sqrt become calls
// of the same LLVM intrinsics, which convert-gpu-to-nvvm lets through (as
// llvm.intr.* ops it refuses them, wanting libdevice calls); their
// overloads come from the type: any float scalar or 1-D vector, n-D vectors
// through a 1-D shape_cast. math.trunc and math.fma lower as they are, and
// a scalable vector is left alone.
// CHECK-LABEL: gpu.module @math [#nvvm.target<chip = "sm_80">] {
// CHECK:         gpu.func @k(%[[X:.*]]: f32, %[[H:.*]]: f16, %[[V:.*]]: vector<4xf32>, %[[W:.*]]: vector<2x3xf16>, %[[D:.*]]: f64, %[[S:.*]]: vector<[4]xf32>)
// CHECK-NEXT:      %[[FL:.*]] = llvm.call_intrinsic "llvm.floor"(%[[X]]) : (f32) -> f32
// CHECK-NEXT:      %[[CE:.*]] = llvm.call_intrinsic "llvm.ceil"(%[[FL]]) : (f32) -> f32
// CHECK-NEXT:      %[[RO:.*]] = llvm.call_intrinsic "llvm.round"(%[[H]]) : (f16) -> f16
// CHECK-NEXT:      %[[RE:.*]] = llvm.call_intrinsic "llvm.roundeven"(%[[V]]) : (vector<4xf32>) -> vector<4xf32>
// CHECK-NEXT:      %[[FLAT:.*]] = vector.shape_cast %[[W]] : vector<2x3xf16> to vector<6xf16>
// CHECK-NEXT:      %[[AB:.*]] = llvm.call_intrinsic "llvm.fabs"(%[[FLAT]]) : (vector<6xf16>) -> vector<6xf16>
// CHECK-NEXT:      %[[AB2:.*]] = vector.shape_cast %[[AB]] : vector<6xf16> to vector<2x3xf16>
// CHECK-NEXT:      %[[CS:.*]] = llvm.call_intrinsic "llvm.copysign"(%[[CE]], %[[X]]) : (f32, f32) -> f32
// CHECK-NEXT:      %[[SQ:.*]] = llvm.call_intrinsic "llvm.sqrt"(%[[D]]) : (f64) -> f64
// CHECK-NEXT:      %[[TR:.*]] = math.trunc %[[X]] : f32
// CHECK-NEXT:      %[[FMA:.*]] = math.fma %[[H]], %[[H]], %[[RO]] : f16
// CHECK-NEXT:      %[[SC:.*]] = math.floor %[[S]] : vector<[4]xf32>
// CHECK-NEXT:      gpu.return %[[CS]], %[[RE]], %[[AB2]], %[[SQ]], %[[TR]], %[[FMA]], %[[SC]]
gpu.module @math [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%x: f32, %h: f16, %v: vector<4xf32>, %w: vector<2x3xf16>, %d: f64, %s: vector<[4]xf32>) -> (f32, vector<4xf32>, vector<2x3xf16>, f64, f32, f16, vector<[4]xf32>) {
    %0 = math.floor %x : f32
    %1 = math.ceil %0 : f32
    %2 = math.round %h : f16
    %3 = math.roundeven %v : vector<4xf32>
    %4 = math.absf %w : vector<2x3xf16>
    %5 = math.copysign %1, %x : f32
    %6 = math.sqrt %d : f64
    %7 = math.trunc %x : f32
    %8 = math.fma %h, %h, %2 : f16
    %9 = math.floor %s : vector<[4]xf32>
    gpu.return %5, %3, %4, %6, %7, %8, %9 : f32, vector<4xf32>, vector<2x3xf16>, f64, f32, f16, vector<[4]xf32>
  }
}

// -----

// A barrier of one subgroup (convert-coopvec-to-gpu's before a thread reads
// the tensor-core results its own warp stored) becomes a barrier of the
// warp's 32 lanes, which also orders their shared-memory accesses; a
// workgroup barrier stays.
// CHECK-LABEL: gpu.module @barriers
// CHECK:         gpu.func @k() kernel
// CHECK-NEXT:      gpu.barrier{{$}}
// CHECK-NEXT:      %[[ALL:.*]] = arith.constant -1 : i32
// CHECK-NEXT:      nvvm.bar.warp.sync %[[ALL]] : i32
// CHECK-NEXT:      gpu.return
// CHECK-NOT:     coopvec.subgroup_barrier
gpu.module @barriers [#nvvm.target<chip = "sm_80">] {
  gpu.func @k() kernel attributes {coopvec.subgroup_size = 32 : i64} {
    gpu.barrier
    gpu.barrier {coopvec.subgroup_barrier}
    gpu.return
  }
}

// -----

// A vector.load of a kernel's memref argument at a constant index whose
// byte offset is a multiple of 16 (f16 element 2048: byte 4096; f32
// element 4: byte 16) is declared 16-byte aligned, as the kernel ABI
// aligns the arguments; one at another index (f16 element 3: byte 6), at a
// varying index, of a memref that is no argument, or with its own
// alignment stays as it is.
// CHECK-LABEL: gpu.module @aligned_loads
// CHECK:         vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<?xf16>, vector<64xf16>
// CHECK-NEXT:    vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK-NEXT:    vector.load %{{.*}}[%{{.*}}] : memref<?xf16>, vector<8xf16>
// CHECK-NEXT:    vector.load %{{.*}}[%{{.*}}] : memref<?xf16>, vector<8xf16>
// CHECK-NEXT:    vector.load %{{.*}}[%{{.*}}] : memref<8xf16, 3>, vector<8xf16>
// CHECK-NEXT:    vector.load %{{.*}}[%{{.*}}] {alignment = 4 : i64} : memref<?xf32>, vector<4xf32>
gpu.module @aligned_loads [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%h: memref<?xf16>, %f: memref<?xf32>, %i: index) kernel {
    %c2048 = arith.constant 2048 : index
    %c4 = arith.constant 4 : index
    %c3 = arith.constant 3 : index
    %c0 = arith.constant 0 : index
    %s = memref.alloca() : memref<8xf16, 3>
    %0 = vector.load %h[%c2048] : memref<?xf16>, vector<64xf16>
    %1 = vector.load %f[%c4] : memref<?xf32>, vector<4xf32>
    %2 = vector.load %h[%c3] : memref<?xf16>, vector<8xf16>
    %3 = vector.load %h[%i] : memref<?xf16>, vector<8xf16>
    %4 = vector.load %s[%c0] : memref<8xf16, 3>, vector<8xf16>
    %5 = vector.load %f[%c0] {alignment = 4} : memref<?xf32>, vector<4xf32>
    gpu.return
  }
}
