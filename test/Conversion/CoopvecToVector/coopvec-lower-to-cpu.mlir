// RUN: coopvec-opt --pass-pipeline='builtin.module(coopvec-lower-to-cpu{lanes=8})' %s | FileCheck %s
// RUN: coopvec-opt --pass-pipeline='builtin.module(coopvec-lower-to-cpu{lanes=8})' %s | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR
// RUN: coopvec-opt --pass-pipeline='builtin.module(coopvec-lower-to-cpu)' %s | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR
// RUN: not coopvec-opt --pass-pipeline='builtin.module(coopvec-lower-to-cpu{lane=8})' %s 2>&1 | FileCheck %s --check-prefix=BAD-OPTION
// The pipeline is also a coopvec-opt flag, with its options.
// RUN: coopvec-opt --coopvec-lower-to-cpu="lanes=8" %s | FileCheck %s

// The whole pipeline leaves only the LLVM dialect (and the module).
// CHECK-LABEL: llvm.func @mlp_batched(
// CHECK-NOT:     {{ (coopvec|arith|math|vector|memref|scf|cf|func)\.}}
// CHECK-LABEL: llvm.func @_mlir_ciface_mlp_batched(
// CHECK-NOT:     {{ (coopvec|arith|math|vector|memref|scf|cf|func)\.}}
// CHECK-LABEL: llvm.func @train_batched(
// CHECK-NOT:     {{ (coopvec|arith|math|vector|memref|scf|cf|func)\.}}

// The C interface: n, then a pointer to a memref descriptor per memref,
// scalars by value.
// LLVMIR-LABEL: define void @_mlir_ciface_mlp_batched(i64 %0, ptr %1, ptr %2, float %3, ptr %4)
// reduce_sum_accumulate adds once per group (in the lane loop), the outer
// product's f32 tile once per call (after it).
// LLVMIR-LABEL: define void @train_batched(
// LLVMIR:       atomicrmw fadd ptr %{{.*}}, float
// LLVMIR:       atomicrmw fadd ptr %{{.*}}, half
// LLVMIR-LABEL: define void @_mlir_ciface_train_batched(i64 %0, ptr %1, ptr %2, ptr %3, ptr %4)

// BAD-OPTION: error: in pipeline 'coopvec-lower-to-cpu': pass 'convert-coopvec-to-vector' has no option 'lane'

func.func @mlp(%x: !coopvec.vec<4, f16>, %w: memref<?xf16>, %zero: f32) -> !coopvec.vec<2, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<4, 4, f16, "inference">
  %B = "coopvec.matrix_view"(%w) {offset = 64} : (memref<?xf16>) -> !coopvec.matrix<2, 4, f16, "row_major">
  %h = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<4, 4, f16, "inference">, !coopvec.vec<4, f16>) -> !coopvec.vec<4, f16>
  %t = "coopvec.tanh"(%h) : (!coopvec.vec<4, f16>) -> !coopvec.vec<4, f16>
  %y = "coopvec.matvec"(%B, %t) : (!coopvec.matrix<2, 4, f16, "row_major">, !coopvec.vec<4, f16>) -> !coopvec.vec<2, f16>
  %e = "coopvec.exp2"(%y) : (!coopvec.vec<2, f16>) -> !coopvec.vec<2, f16>
  %l = "coopvec.log2"(%e) : (!coopvec.vec<2, f16>) -> !coopvec.vec<2, f16>
  %f = "coopvec.cast"(%l) : (!coopvec.vec<2, f16>) -> !coopvec.vec<2, f32>
  %r = "coopvec.max"(%f, %zero) : (!coopvec.vec<2, f32>, f32) -> !coopvec.vec<2, f32>
  return %r : !coopvec.vec<2, f32>
}

func.func @train(%a: !coopvec.vec<2, f16>, %b: !coopvec.vec<2, f16>, %gw: memref<?xf16>, %gb: memref<?xf32>) {
  %G = "coopvec.matrix_view"(%gw) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<2, 2, f16, "training">
  "coopvec.outer_product_accumulate"(%a, %b, %G) : (!coopvec.vec<2, f16>, !coopvec.vec<2, f16>, !coopvec.matrix<2, 2, f16, "training">) -> ()
  %c0 = arith.constant 0 : index
  %bf = "coopvec.cast"(%b) : (!coopvec.vec<2, f16>) -> !coopvec.vec<2, f32>
  "coopvec.reduce_sum_accumulate"(%bf, %gb, %c0) : (!coopvec.vec<2, f32>, memref<?xf32>, index) -> ()
  return
}
