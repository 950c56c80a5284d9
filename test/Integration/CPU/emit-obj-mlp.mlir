// --emit=obj end to end: lower a per-thread MLP with coopvec-lower-to-cpu,
// write a native object, link it into a plain C program (no MLIR library
// on the link line, so nothing of MLIR is needed at run time) and compare
// its results for n = 1, 7, 16, 17 and 1000 threads with the driver's own
// double-precision reference of the same MLP.

// RUN: coopvec-opt %s --coopvec-lower-to-cpu="lanes=8" --emit=obj -o %t.o
// RUN: %cc -std=c11 -O2 %S/Inputs/mlp-driver.c %t.o -lm -o %t.exe
// RUN: %t.exe | FileCheck %s --check-prefix=EXEC
// RUN: coopvec-opt %s --coopvec-lower-to-cpu="lanes=8" --emit=llvm | FileCheck %s --check-prefix=LLVM

// EXEC: n=1: max abs error {{.*}}: PASS
// EXEC-NEXT: n=7: max abs error {{.*}}: PASS
// EXEC-NEXT: n=16: max abs error {{.*}}: PASS
// EXEC-NEXT: n=17: max abs error {{.*}}: PASS
// EXEC-NEXT: n=1000: max abs error {{.*}}: PASS
// EXEC-NEXT: {{^PASS$}}

// The per-thread function is replaced by the batched one and its C wrapper,
// which takes the thread count and one descriptor pointer per memref.
// LLVM-NOT: @mlp(
// LLVM: define void @mlp_batched(i64 %0, ptr {{.*}}, i64 %15)
// LLVM: define void @_mlir_ciface_mlp_batched(i64 %0, ptr {{[^,]*}}%1, ptr {{[^,]*}}%2, ptr {{[^,]*}}%3)
// LLVM: call void @mlp_batched(i64 %0,
// LLVM-NOT: @mlp(

// 3 -> 17 -> 7, bias and ReLU after each layer, f32. The weight buffer
// holds W1 (17x3, row-major) at 0, b1 (17) at 51, W2 (7x17, col-major) at
// byte 272 = element 68 (16-byte aligned), b2 (7) at 187: 194 floats.
func.func @mlp(%x: !coopvec.vec<3, f32>, %w: memref<?xf32>) -> !coopvec.vec<7, f32> {
  %c51 = arith.constant 51 : index
  %c187 = arith.constant 187 : index
  %zero = arith.constant 0.0 : f32
  %A1 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<17, 3, f32, "row_major">
  %b1 = "coopvec.load"(%w, %c51) : (memref<?xf32>, index) -> !coopvec.vec<17, f32>
  %h1 = "coopvec.matvec"(%A1, %x, %b1) : (!coopvec.matrix<17, 3, f32, "row_major">, !coopvec.vec<3, f32>, !coopvec.vec<17, f32>) -> !coopvec.vec<17, f32>
  %r1 = "coopvec.max"(%h1, %zero) : (!coopvec.vec<17, f32>, f32) -> !coopvec.vec<17, f32>
  %A2 = "coopvec.matrix_view"(%w) {offset = 272} : (memref<?xf32>) -> !coopvec.matrix<7, 17, f32, "col_major">
  %b2 = "coopvec.load"(%w, %c187) : (memref<?xf32>, index) -> !coopvec.vec<7, f32>
  %h2 = "coopvec.matvec"(%A2, %r1, %b2) : (!coopvec.matrix<7, 17, f32, "col_major">, !coopvec.vec<17, f32>, !coopvec.vec<7, f32>) -> !coopvec.vec<7, f32>
  %y = "coopvec.max"(%h2, %zero) : (!coopvec.vec<7, f32>, f32) -> !coopvec.vec<7, f32>
  return %y : !coopvec.vec<7, f32>
}
