// RUN: coopvec-opt --convert-coopvec-to-gpu="block-size=64" %s | FileCheck %s

// convert-coopvec-to-gpu's staging skews (GPUPlan.c, gpuPlanFunction): the
// skews of the result and weight rows give way only where that keeps more
// matvecs on tensor cores. (convert-coopvec-to-gpu.mlir's SKEW-W and
// SKEW-X runs show them giving way.)

// A matvec too large for the workgroup memory with or without the skews
// (4096 inputs) runs as FMA loops and costs the kernel's other matvecs
// none of their skews: the 16 x 16 one keeps rows of 24 f16 and 20 f32
// (8960 bytes, not the 7680 of unskewed rows).
// CHECK-LABEL: gpu.func @too_wide_beside_kernel(
// CHECK-SAME:      coopvec.workgroup_memory = 8960 : i64
// CHECK:         gpu.subgroup_mma_load_matrix %{{.*}} {leadDimension = 24 : index, transpose}
// CHECK:         gpu.subgroup_mma_store_matrix %{{.*}} {leadDimension = 20 : index}
// CHECK:         math.fma
func.func @too_wide_beside(%x: !coopvec.vec<16, f16>, %v: !coopvec.vec<4096, f16>, %w: memref<?xf16>) -> (!coopvec.vec<16, f16>, !coopvec.vec<16, f16>) {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<16, 16, f16, "row_major">
  %B = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<16, 4096, f16, "row_major">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<16, 16, f16, "row_major">, !coopvec.vec<16, f16>) -> !coopvec.vec<16, f16>
  %z = "coopvec.matvec"(%B, %v) : (!coopvec.matrix<16, 4096, f16, "row_major">, !coopvec.vec<4096, f16>) -> !coopvec.vec<16, f16>
  return %y, %z : !coopvec.vec<16, f16>, !coopvec.vec<16, f16>
}
