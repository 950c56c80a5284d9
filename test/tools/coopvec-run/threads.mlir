// --threads: the batch runs in chunks of a multiple of 64 threads on N host
// threads. A thread's results do not depend on the chunking, so 1, 2 and 3
// host threads give identical files; a store to a shared memref keeps the
// last thread's values (as the interpreter's thread order does); gradients
// accumulated by every chunk still match the reference. --target names
// the backend: cuda without a driver is an error that says so (cuda.mlir
// tests that backend), vulkan has none.

// RUN: rm -rf %t && mkdir %t
// RUN: coopvec-run %s --entry=mlp --batch=1000 --random --seed=5 \
// RUN:   --threads=1 --out=%t/one
// RUN: coopvec-run %s --entry=mlp --batch=1000 --random --seed=5 \
// RUN:   --threads=2 --out=%t/two
// RUN: coopvec-run %s --entry=mlp --batch=1000 --random --seed=5 \
// RUN:   --threads=3 --out=%t/three --check | FileCheck %s --check-prefix=MLP
// MLP: result 0: {{.*}}: PASS
// MLP-NEXT: result 1: {{.*}}: PASS
// RUN: cmp %t/one0.npy %t/two0.npy
// RUN: cmp %t/one0.npy %t/three0.npy
// RUN: cmp %t/one1.npy %t/two1.npy
// RUN: cmp %t/one1.npy %t/three1.npy
// The default is every core.
// RUN: coopvec-run %s --entry=mlp --batch=1000 --random --seed=5 \
// RUN:   --out=%t/default
// RUN: cmp %t/one0.npy %t/default0.npy

// RUN: coopvec-run %s --entry=last --batch=1000 --random --threads=1 \
// RUN:   --out=%t/last1
// RUN: coopvec-run %s --entry=last --batch=1000 --random --threads=3 \
// RUN:   --out=%t/last3
// RUN: coopvec-run %s --entry=last --batch=1000 --random --reference \
// RUN:   --out=%t/lastref
// RUN: cmp %t/last1_arg1.npy %t/last3_arg1.npy
// RUN: cmp %t/last1_arg1.npy %t/lastref_arg1.npy

// RUN: coopvec-run %s --entry=grad --batch=1000 --random --threads=3 \
// RUN:   --check | FileCheck %s --check-prefix=GRAD
// GRAD: argument 2 (written): {{.*}}: PASS
// GRAD-NEXT: {{^PASS$}}

// --time reports the run with the number of host threads.
// RUN: coopvec-run %s --entry=mlp --batch=100 --random --threads=2 --time \
// RUN:   2>&1 | FileCheck %s --check-prefix=TIME
// TIME: coopvec-run: lowering {{[0-9.]+}} ms, JIT compile {{[0-9.]+}} ms, run {{[0-9.]+}} ms ({{[0-9.]+}} ns per thread) on 2 host threads

// RUN: not coopvec-run %s --entry=mlp --random --threads=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ZERO
// ZERO: coopvec-run: error: invalid value in '--threads=0'
// RUN: not coopvec-run %s --entry=mlp --random --threads=1025 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MANY
// MANY: coopvec-run: error: invalid value in '--threads=1025'

// RUN: coopvec-run %s --entry=mlp --random --target=cpu --check \
// RUN:   | FileCheck %s --check-prefix=CPU
// CPU: {{^PASS$}}
// RUN: env COOPVEC_LIBCUDA=%t/no-driver/libcuda.so.1 not coopvec-run %s \
// RUN:   --entry=mlp --random --target=cuda 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CUDA
// CUDA: coopvec-run: error: CUDA: cannot load {{.*}}/no-driver/libcuda.so.1 (no NVIDIA driver): {{.*}}cannot open shared object file
// RUN: env COOPVEC_LIBVULKAN=%t/no-loader/libvulkan.so.1 not coopvec-run %s \
// RUN:   --entry=mlp --random --target=vulkan 2>&1 \
// RUN:   | FileCheck %s --check-prefix=VULKAN
// VULKAN: coopvec-run: error: Vulkan: cannot load {{.*}}/no-loader/libvulkan.so.1 (no Vulkan loader): {{.*}}cannot open shared object file
// RUN: not coopvec-run %s --entry=mlp --random --target=metal 2>&1 \
// RUN:   | FileCheck %s --check-prefix=METAL
// METAL: coopvec-run: error: invalid value in '--target=metal'

// 8 -> 16 -> 4, relu then tanh; the hidden layer is also a result, in f16.
func.func @mlp(%x: !coopvec.vec<8, f32>, %w: memref<?xf32>) -> (!coopvec.vec<4, f32>, !coopvec.vec<16, f16>) {
  %zero = arith.constant 0.0 : f32
  %c128 = arith.constant 128 : index
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<16, 8, f32, "row_major">
  %b = "coopvec.load"(%w, %c128) : (memref<?xf32>, index) -> !coopvec.vec<16, f32>
  %h = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<16, 8, f32, "row_major">, !coopvec.vec<8, f32>, !coopvec.vec<16, f32>) -> !coopvec.vec<16, f32>
  %r = "coopvec.max"(%h, %zero) : (!coopvec.vec<16, f32>, f32) -> !coopvec.vec<16, f32>
  %B = "coopvec.matrix_view"(%w) {offset = 576} : (memref<?xf32>) -> !coopvec.matrix<4, 16, f32, "col_major">
  %y = "coopvec.matvec"(%B, %r) : (!coopvec.matrix<4, 16, f32, "col_major">, !coopvec.vec<16, f32>) -> !coopvec.vec<4, f32>
  %t = "coopvec.tanh"(%y) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %r16 = "coopvec.cast"(%r) : (!coopvec.vec<16, f32>) -> !coopvec.vec<16, f16>
  return %t, %r16 : !coopvec.vec<4, f32>, !coopvec.vec<16, f16>
}

// Every thread stores its x to v[2, 5): the last thread's x stays.
func.func @last(%x: !coopvec.vec<3, f32>, %v: memref<?xf32>) {
  %c2 = arith.constant 2 : index
  "coopvec.store"(%x, %v, %c2) : (!coopvec.vec<3, f32>, memref<?xf32>, index) -> ()
  return
}

// A weight and bias gradient summed over all threads.
func.func @grad(%x: !coopvec.vec<5, f32>, %d: !coopvec.vec<3, f32>, %g: memref<?xf32>) {
  %G = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<3, 5, f32, "row_major">
  "coopvec.outer_product_accumulate"(%d, %x, %G) : (!coopvec.vec<3, f32>, !coopvec.vec<5, f32>, !coopvec.matrix<3, 5, f32, "row_major">) -> ()
  %c15 = arith.constant 15 : index
  "coopvec.reduce_sum_accumulate"(%d, %g, %c15) : (!coopvec.vec<3, f32>, memref<?xf32>, index) -> ()
  return
}
