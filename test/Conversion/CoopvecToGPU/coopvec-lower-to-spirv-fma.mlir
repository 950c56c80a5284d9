// f32 fmas through coopvec-lower-to-spirv: a user's (coopvec.fma,
// math.fma) is computed in f64 and rounded once (coopvec-prepare-spirv,
// F32Fma.c), so the module declares Float64 and Int64; the dot products
// of a matvec (marked coopvec.accumulate by convert-coopvec-to-gpu, whose
// rounding the dialect leaves to the target) stay f32 GLSL Fma.
// RUN: coopvec-opt %s --split-input-file --coopvec-lower-to-spirv=binary=false | FileCheck %s

// CHECK-LABEL: spirv.module @__spv__coopvec_kernels Logical GLSL450 requires #spirv.vce<v1.4, [Shader, Int64, Float64,
// CHECK:         spirv.func @layer_kernel()
// CHECK-COUNT-6:   spirv.GL.Fma %{{.*}}, %{{.*}}, %{{.*}} {no_contraction} : f32
// CHECK-NOT:       spirv.GL.Fma
// CHECK:           %[[P:.*]] = spirv.FMul %{{.*}}, %{{.*}} {no_contraction} : f64
// CHECK-NEXT:      %[[S:.*]] = spirv.FAdd %[[P]], %{{.*}} {no_contraction} : f64
// CHECK:           spirv.Bitcast %[[S]] : f64 to i64
// CHECK:           spirv.FConvert %{{.*}} : f64 to f32
// CHECK:           spirv.FMul %{{.*}}, %{{.*}} {no_contraction} : f64
// CHECK:           spirv.FConvert %{{.*}} : f64 to f32
// CHECK-NOT:       spirv.GL.Fma
// CHECK:         spirv.EntryPoint "GLCompute" @layer_kernel
func.func @layer(%x: !coopvec.vec<3, f32>, %w: memref<?xf32>, %s: f32) -> !coopvec.vec<2, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<2, 3, f32, "row_major">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<2, 3, f32, "row_major">, !coopvec.vec<3, f32>) -> !coopvec.vec<2, f32>
  %r = "coopvec.fma"(%y, %s, %s) : (!coopvec.vec<2, f32>, f32, f32) -> !coopvec.vec<2, f32>
  return %r : !coopvec.vec<2, f32>
}

// -----

// A matvec alone needs no f64.
// CHECK-LABEL: spirv.module @__spv__coopvec_kernels Logical GLSL450 requires #spirv.vce<v1.4, [Shader, SignedZeroInfNanPreserve, DenormPreserve, RoundingModeRTE, Matrix],
// CHECK:         spirv.func @matvec_kernel()
// CHECK-COUNT-6:   spirv.GL.Fma %{{.*}}, %{{.*}}, %{{.*}} {no_contraction} : f32
// CHECK-NOT:       f64
// CHECK:         spirv.EntryPoint "GLCompute" @matvec_kernel
func.func @matvec(%x: !coopvec.vec<3, f32>, %w: memref<?xf32>) -> !coopvec.vec<2, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<2, 3, f32, "row_major">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<2, 3, f32, "row_major">, !coopvec.vec<3, f32>) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}
