// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu="mma-weights=whole" %s | FileCheck %s
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu="mma-weights=whole workgroup-memory=32768" %s | FileCheck %s --check-prefix=BUDGET
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu %s | FileCheck %s --check-prefix=SLICES

// convert-coopvec-to-gpu's mma-weights option (GPUMatvec.c,
// emitWholeWeights; GPUPlan.c, wholeWeightRows): `whole` copies all 64
// weight rows of a 64 x 64 f16 matvec at once between one pair of block
// barriers (64 rows x 8 chunks of 16 bytes = 512 chunks, 128 threads), then
// one loop over the 4 k-steps carries the 2 row tiles x 4 output tiles = 8
// accumulators, loading per step the 4 output tiles' weight fragments and
// each row tile's input fragment once; the result tiles are then stored
// and read back one by one between subgroup barriers. Workgroup memory:
// inputs 128 x 72 f16 (18432 bytes), weights 64 x 72 f16 (9216), results
// 128 x 20 f32 (10240). `slices` (the default) has a block barrier pair per
// output tile and 16 weight rows (30976 bytes); so does `whole` where the
// whole rows do not fit workgroup-memory (BUDGET).
// CHECK-LABEL: gpu.func @whole_kernel(
// CHECK-SAME:      coopvec.workgroup_memory = 37888 : i64
// CHECK:         gpu.barrier{{$}}
// CHECK-NEXT:    scf.for %{{.*}} = %thread_id_x to %c512 step %c128 {
// CHECK:         gpu.barrier{{$}}
// CHECK-NEXT:    %[[INIT:.*]] = gpu.subgroup_mma_constant_matrix
// CHECK-NEXT:    %[[ACC:.*]]:8 = scf.for %{{.*}} = %c0 to %c4 step %c1 iter_args(%{{.*}} = %[[INIT]], {{.*}}) -> (!gpu.mma_matrix<16x16xf32, "COp">,
// CHECK-COUNT-4:   gpu.subgroup_mma_load_matrix %{{.*}} {leadDimension = 72 : index, transpose} : memref<4608xf16, 3> -> !gpu.mma_matrix<16x16xf16, "BOp">
// CHECK:           gpu.subgroup_mma_load_matrix %{{.*}} {leadDimension = 72 : index} : memref<9216xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK-COUNT-4:   gpu.subgroup_mma_compute
// CHECK:           gpu.subgroup_mma_load_matrix %{{.*}} {leadDimension = 72 : index} : memref<9216xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK-COUNT-4:   gpu.subgroup_mma_compute
// CHECK-NOT:     gpu.barrier
// CHECK:         gpu.subgroup_mma_store_matrix %[[ACC]]#0, {{.*}} {leadDimension = 20 : index}
// CHECK:         gpu.subgroup_mma_store_matrix %[[ACC]]#4,
// CHECK-NEXT:    gpu.barrier {coopvec.subgroup_barrier}
// CHECK:         gpu.barrier {coopvec.subgroup_barrier}
// CHECK:         gpu.subgroup_mma_store_matrix %[[ACC]]#1,
// CHECK:         gpu.subgroup_mma_store_matrix %[[ACC]]#5,
// CHECK-NEXT:    gpu.barrier {coopvec.subgroup_barrier}
// CHECK:         gpu.subgroup_mma_store_matrix %[[ACC]]#3,
// CHECK:         gpu.subgroup_mma_store_matrix %[[ACC]]#7,
// CHECK-NOT:     gpu.barrier{{$}}
// CHECK:         gpu.return
// BUDGET-LABEL: gpu.func @whole_kernel(
// BUDGET-SAME:      coopvec.workgroup_memory = 30976 : i64
// BUDGET-COUNT-8: gpu.barrier{{$}}
// BUDGET-NOT:     gpu.barrier{{$}}
// BUDGET:         gpu.return
// SLICES-LABEL: gpu.func @whole_kernel(
// SLICES-SAME:      coopvec.workgroup_memory = 30976 : i64
// SLICES-COUNT-8: gpu.barrier{{$}}
// SLICES-NOT:     gpu.barrier{{$}}
// SLICES:         gpu.return
func.func @whole(%x: !coopvec.vec<64, f16>, %w: memref<?xf16>) -> !coopvec.vec<64, f16> {
  %W = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<64, 64, f16, "row_major">
  %y = "coopvec.matvec"(%W, %x) : (!coopvec.matrix<64, 64, f16, "row_major">, !coopvec.vec<64, f16>) -> !coopvec.vec<64, f16>
  return %y : !coopvec.vec<64, f16>
}

// -----

// 128 outputs are 2 x 8 = 16 accumulator tiles per 32-thread group, more
// than GPU_WHOLE_WEIGHTS_MAX_TILES (8): the 128 x 16 matvec keeps its 8
// slices although its whole rows would fit (128 x 24 f16), the 16 x 128
// one after it takes the whole rows (2 accumulators).
// CHECK-LABEL: gpu.func @wide_kernel(
// CHECK-COUNT-16: gpu.barrier{{$}}
// CHECK-NOT:      iter_args({{.*}}) -> (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix
// CHECK:          gpu.barrier{{$}}
// CHECK-NEXT:     scf.for %{{.*}} = %thread_id_x to %c256 step %c128 {
// CHECK:          gpu.barrier{{$}}
// CHECK-NEXT:     gpu.subgroup_mma_constant_matrix
// CHECK-NEXT:     %{{.*}}:2 = scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args(
// CHECK-NOT:      gpu.barrier{{$}}
// CHECK:          gpu.return
func.func @wide(%x: !coopvec.vec<16, f16>, %w: memref<?xf16>) -> !coopvec.vec<16, f16> {
  %W = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<128, 16, f16, "row_major">
  %V = "coopvec.matrix_view"(%w) {offset = 4096} : (memref<?xf16>) -> !coopvec.matrix<16, 128, f16, "row_major">
  %h = "coopvec.matvec"(%W, %x) : (!coopvec.matrix<128, 16, f16, "row_major">, !coopvec.vec<16, f16>) -> !coopvec.vec<128, f16>
  %y = "coopvec.matvec"(%V, %h) : (!coopvec.matrix<16, 128, f16, "row_major">, !coopvec.vec<128, f16>) -> !coopvec.vec<16, f16>
  return %y : !coopvec.vec<16, f16>
}
