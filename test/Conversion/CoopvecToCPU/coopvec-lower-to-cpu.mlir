// RUN: coopvec-opt --pass-pipeline='builtin.module(coopvec-lower-to-cpu{target-cpu=x86-64 lanes=8})' %s | FileCheck %s
// The pipeline is also a coopvec-opt flag, with its options.
// RUN: coopvec-opt --coopvec-lower-to-cpu="target-cpu=x86-64 lanes=8" %s | FileCheck %s
// The result translates to LLVM IR, with the target recorded per function.
// RUN: coopvec-opt --pass-pipeline='builtin.module(coopvec-lower-to-cpu{target-cpu=x86-64 lanes=8})' %s | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR
// The defaults (the host CPU) translate too.
// RUN: coopvec-opt --pass-pipeline='builtin.module(coopvec-lower-to-cpu)' %s | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=HOST

// Every option is forwarded to convert-coopvec-to-cpu.
// RUN: coopvec-opt --pass-pipeline='builtin.module(coopvec-lower-to-cpu{target-cpu=skylake-avx512})' %s | FileCheck %s --check-prefix=SKX
// RUN: coopvec-opt --pass-pipeline='builtin.module(coopvec-lower-to-cpu{target-cpu=skylake-avx512 target-features=-avx512f})' %s | FileCheck %s --check-prefix=NO512
// RUN: coopvec-opt --pass-pipeline='builtin.module(coopvec-lower-to-cpu{target-triple=aarch64-linux-gnu target-cpu=neoverse-v1 lanes=4})' %s | FileCheck %s --check-prefix=ARM
// RUN: not coopvec-opt --pass-pipeline='builtin.module(coopvec-lower-to-cpu{target-cpu=x86-64 row-block=65})' %s 2>&1 | FileCheck %s --check-prefix=ROW-BLOCK
// RUN: not coopvec-opt --pass-pipeline='builtin.module(coopvec-lower-to-cpu{target-cpu=bogus})' %s 2>&1 | FileCheck %s --check-prefix=BAD-CPU
// RUN: not coopvec-opt --pass-pipeline='builtin.module(coopvec-lower-to-cpu{lane=8})' %s 2>&1 | FileCheck %s --check-prefix=BAD-OPTION

// The whole pipeline leaves only the LLVM dialect (and the module): the lane
// vectors are vector<8xf32>, and each function keeps its target.
// CHECK-LABEL: llvm.func @mlp_batched(
// CHECK-SAME:      attributes {llvm.emit_c_interface, target_cpu = "x86-64", target_features = #llvm.target_features<[]>}
// CHECK-NOT:     {{ (coopvec|arith|math|vector|memref|scf|cf|func|affine|index|ub)\.}}
// CHECK:         llvm.intr.masked.gather {{.*}} -> vector<8xf16>
// CHECK-NOT:     {{ (coopvec|arith|math|vector|memref|scf|cf|func|affine|index|ub)\.}}
// CHECK:         llvm.intr.fma({{.*}}) : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
// CHECK-NOT:     {{ (coopvec|arith|math|vector|memref|scf|cf|func|affine|index|ub)\.}}
// CHECK-LABEL: llvm.func @_mlir_ciface_mlp_batched(
// CHECK-NOT:     {{ (coopvec|arith|math|vector|memref|scf|cf|func|affine|index|ub)\.}}
// CHECK-LABEL: llvm.func @train_batched(
// CHECK-NOT:     {{ (coopvec|arith|math|vector|memref|scf|cf|func|affine|index|ub)\.}}
// CHECK:         llvm.atomicrmw fadd
// CHECK-NOT:     {{ (coopvec|arith|math|vector|memref|scf|cf|func|affine|index|ub)\.}}
// CHECK-LABEL: llvm.func @_mlir_ciface_train_batched(
// CHECK-NOT:     {{ (coopvec|arith|math|vector|memref|scf|cf|func|affine|index|ub)\.}}
// CHECK-NOT:     "coopvec.
// CHECK-NOT:     @mlp(
// CHECK-NOT:     @train(

// The C interface: n, then a pointer to a memref descriptor per memref,
// scalars by value.
// LLVMIR-LABEL: define void @mlp_batched(
// LLVMIR-SAME:      #[[ATTRS:[0-9]+]]
// LLVMIR-LABEL: define void @_mlir_ciface_mlp_batched(i64 %0, ptr %1, ptr %2, float %3, ptr %4)
// Both training ops add once per call, after the lane loop, in the order
// of the ops: the outer product's f32 tile rounded to the f16 buffer, then
// reduce_sum_accumulate's sums (its offset is a constant).
// LLVMIR-LABEL: define void @train_batched(
// LLVMIR:       atomicrmw fadd ptr %{{.*}}, half
// LLVMIR:       atomicrmw fadd ptr %{{.*}}, float
// LLVMIR-LABEL: define void @_mlir_ciface_train_batched(i64 %0, ptr %1, ptr %2, ptr %3, ptr %4)
// LLVMIR:       attributes #[[ATTRS]] = { {{.*}}"target-cpu"="x86-64"

// HOST-LABEL: define void @_mlir_ciface_mlp_batched(i64 %0, ptr %1, ptr %2, float %3, ptr %4)
// HOST-LABEL: define void @_mlir_ciface_train_batched(i64 %0, ptr %1, ptr %2, ptr %3, ptr %4)

// SKX-LABEL: llvm.func @mlp_batched(
// SKX-SAME:      target_cpu = "skylake-avx512"
// SKX:         llvm.intr.fma({{.*}}) : (vector<32xf32>, vector<32xf32>, vector<32xf32>) -> vector<32xf32>
// NO512-LABEL: llvm.func @mlp_batched(
// NO512-SAME:      target_cpu = "skylake-avx512", target_features = #llvm.target_features<["-avx512f"]>
// NO512:         llvm.intr.fma({{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// ARM-LABEL: llvm.func @mlp_batched(
// ARM-SAME:      target_cpu = "neoverse-v1"
// ARM:         llvm.intr.fma({{.*}}) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>

// ROW-BLOCK: error: convert-coopvec-to-cpu: row-block=65 is out of range; use 1 to 64, or 0 for the target's default
// BAD-CPU: error: unknown target CPU 'bogus' for '{{.*}}' (see `llc -mtriple={{.*}} -mcpu=help`) (in convert-coopvec-to-cpu)
// BAD-OPTION: error: in pipeline 'coopvec-lower-to-cpu': pass 'convert-coopvec-to-cpu' has no option 'lane'

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
