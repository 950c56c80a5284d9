// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(gpu.module(coopvec-prepare-nvvm))' %s | FileCheck %s
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(gpu.module(coopvec-prepare-nvvm,convert-gpu-to-nvvm))' %s | FileCheck %s --check-prefix=NVVM

// coopvec-prepare-nvvm (DynamicSharedMemory.c): a kernel whose workgroup
// allocs total more than 48 KiB (40000 + 32000 + 4 bytes here) gets them
// all as views of one gpu.dynamic_shared_memory, each at an offset that
// keeps its alignment (40000 rounded up to 128 is 40064, then 72064), and
// the total, 72068 bytes, as coopvec.dynamic_workgroup_memory, which the
// CUDA backend allows with cuFuncSetAttribute and gives at launch. No
// static shared memory is left in it.
// CHECK-LABEL: gpu.module @coopvec_kernels
// CHECK-NOT:     memref.global
// CHECK:         gpu.func @large(%{{.*}}: memref<?xf32>) kernel attributes {coopvec.dynamic_workgroup_memory = 72068 : i64}
// CHECK-NEXT:      %[[SHARED:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[A:.*]] = memref.view %[[SHARED]][%[[C0]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<20000xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:      %[[C40064:.*]] = arith.constant 40064 : index
// CHECK-NEXT:      %[[B:.*]] = memref.view %[[SHARED]][%[[C40064]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8000xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:      %[[C72064:.*]] = arith.constant 72064 : index
// CHECK-NEXT:      %[[V:.*]] = memref.view %[[SHARED]][%[[C72064]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi32, #gpu.address_space<workgroup>>
// CHECK-NOT:       memref.alloc
// CHECK:           memref.store %{{.*}}, %[[A]][%{{.*}}] : memref<20000xf16, #gpu.address_space<workgroup>>
// CHECK:           memref.load %[[B]][%{{.*}}] : memref<8000xf32, #gpu.address_space<workgroup>>
// CHECK:           memref.store %{{.*}}, %[[V]][%{{.*}}] : memref<1xi32, #gpu.address_space<workgroup>>
// NVVM: llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// NVVM: llvm.func @large({{.*}}) attributes {coopvec.dynamic_workgroup_memory = 72068 : i64, gpu.kernel, nvvm.kernel}
// NVVM:   llvm.mlir.addressof @__dynamic_shmem__0 : !llvm.ptr<3>
gpu.module @coopvec_kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @large(%out: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %h = arith.constant 1.0 : f16
    %i = arith.constant 1 : i32
    %a = memref.alloc() {alignment = 128 : i64} : memref<20000xf16, 3>
    %b = memref.alloc() {alignment = 128 : i64} : memref<8000xf32, 3>
    %v = memref.alloc() {alignment = 16 : i64} : memref<1xi32, 3>
    memref.store %h, %a[%c0] : memref<20000xf16, 3>
    %x = memref.load %b[%c0] : memref<8000xf32, 3>
    memref.store %i, %v[%c0] : memref<1xi32, 3>
    memref.store %x, %out[%c0] : memref<?xf32>
    gpu.return
  }
}

// -----

// At 48 KiB exactly (49152 bytes) the buffers stay static.
// CHECK-LABEL: gpu.module @coopvec_kernels
// CHECK:         memref.global "private" @__coopvec_wg_small_0 : memref<24576xf16, 3> {alignment = 128 : i64}
// CHECK:         gpu.func @small(
// CHECK-NOT:       coopvec.dynamic_workgroup_memory
// CHECK-NOT:       gpu.dynamic_shared_memory
// CHECK:           memref.get_global @__coopvec_wg_small_0
gpu.module @coopvec_kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @small(%out: memref<?xf16>) kernel {
    %c0 = arith.constant 0 : index
    %a = memref.alloc() {alignment = 128 : i64} : memref<24576xf16, 3>
    %x = memref.load %a[%c0] : memref<24576xf16, 3>
    memref.store %x, %out[%c0] : memref<?xf16>
    gpu.return
  }
}
