// The f32 shadows of f16 gradient buffers on the CUDA target, on every
// machine: the fake driver of test/cuda runs no kernel but shows what the
// engine hands the device (docs/execution-engine.md, "f16 gradients").
// test/Integration/CPU/f16-accumulation.mlir checks the sums themselves on
// a GPU (cuda.test).

// RUN: rm -rf %t && mkdir %t
// RUN: printf "\x93NUMPY\x01\x00\x76\x00%%-117s\n" "{'descr': '<f2', 'fortran_order': False, 'shape': (5,), }" > %t/g5.npy
// RUN: printf '\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80' >> %t/g5.npy

// An f16 buffer of 5 elements that @acc16 only accumulates into goes to
// the device as 5 f32 (20 bytes), filled with -0.0; the kernels that add
// f32 values into it assemble for sm_80 and sm_90 (outer products into a
// "training" view included).
// RUN: %if ptxas %{ env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_SM=80 FAKE_CUDA_PTXAS=%ptxas coopvec-run %s --entry=acc16 --batch=129 --arg=%t/g5.npy --target=cuda 2>&1 | FileCheck %s --check-prefix=ACC %}
// RUN: %if ptxas %{ env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_SM=90 FAKE_CUDA_PTXAS=%ptxas coopvec-run %s --entry=acc16 --batch=129 --arg=%t/g5.npy --target=cuda 2>&1 | FileCheck %s --check-prefix=ACC %}
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda coopvec-run %s --entry=acc16 --batch=129 --arg=%t/g5.npy --target=cuda 2>&1 | FileCheck %s --check-prefix=ACC
// ACC:      fake-cuda: launch acc16_kernel: grid 2x1x1, block 128x1x1 (.maxntid 128), 0 bytes of dynamic shared memory, stream (nil), 6 params
// ACC-NEXT: fake-cuda:   param 0 (8 bytes): 129
// ACC-NEXT: fake-cuda:   param 1 (8 bytes): buffer 0 (20 bytes, uploaded)
// ACC-NEXT: fake-cuda:   param 2 (8 bytes): buffer 0 (20 bytes, uploaded)
// ACC-NEXT: fake-cuda:   param 3 (8 bytes): 0
// ACC-NEXT: fake-cuda:   param 4 (8 bytes): 5
// ACC-NEXT: fake-cuda:   param 5 (8 bytes): 1
// ACC-NEXT: fake-cuda: at exit: 0 buffers, 0 modules, 0 contexts retained, 0 pushed

// What comes back is added to the f16 buffer on the host and rounded once:
// the fake fills the device buffer with bytes 0x3c, f32 0x3c3c3c3c =
// 0.011489 (a shadow value no kernel made), and every element of the
// buffer (-0.0) becomes f16(-0.0 + 0.011489) = 0.01149.
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_FILL=60 coopvec-run %s --entry=acc16 --batch=129 --arg=%t/g5.npy --target=cuda --print 2>&1 | FileCheck %s --check-prefix=BACK
// BACK:      argument 0 (written): f16, shape (5,)
// BACK-NEXT:   [0] 0.01149 0.01149 0.01149 0.01149 0.01149{{$}}

// A failed launch leaves the f16 buffer as it was (its shadow came back
// with nothing added) and frees what it allocated.
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_FAIL=cuLaunchKernel not coopvec-run %s --entry=acc16 --arg=%t/g5.npy --target=cuda 2>&1 | FileCheck %s --check-prefix=LAUNCH
// LAUNCH:      coopvec-run: error: CUDA: cuLaunchKernel failed
// LAUNCH-NEXT: fake-cuda: at exit: 0 buffers, 0 modules, 0 contexts retained, 0 pushed

// Outer products into row_major, col_major and training views of a shadow.
// RUN: %if ptxas %{ env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_SM=90 FAKE_CUDA_PTXAS=%ptxas coopvec-run %s --entry=outer16 --batch=129 --memref-size=0:40 --random --target=cuda 2>&1 | FileCheck %s --check-prefix=OUTER %}
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda coopvec-run %s --entry=outer16 --batch=129 --memref-size=0:40 --random --target=cuda 2>&1 | FileCheck %s --check-prefix=OUTER
// OUTER: fake-cuda:   param 1 (8 bytes): buffer 0 (160 bytes, uploaded)

// Not shadowed: a buffer that is also stored into stays f16 (10 bytes).
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda coopvec-run %s --entry=store16 --batch=129 --arg=%t/g5.npy --target=cuda 2>&1 | FileCheck %s --check-prefix=STORED
// STORED: fake-cuda:   param 1 (8 bytes): buffer 0 (10 bytes, uploaded)

func.func @acc16(%g: memref<?xf16>) {
  %c1 = arith.constant 1 : index
  %s = arith.constant 0.015625 : f16
  %x = "coopvec.from_elements"(%s, %s) : (f16, f16) -> !coopvec.vec<2, f16>
  "coopvec.reduce_sum_accumulate"(%x, %g, %c1) : (!coopvec.vec<2, f16>, memref<?xf16>, index) -> ()
  return
}

func.func @outer16(%g: memref<?xf16>, %a: !coopvec.vec<2, f16>, %b: !coopvec.vec<3, f16>) {
  %R = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<2, 3, f16, "row_major">
  %C = "coopvec.matrix_view"(%g) {offset = 16} : (memref<?xf16>) -> !coopvec.matrix<2, 3, f16, "col_major">
  %T = "coopvec.matrix_view"(%g) {offset = 64} : (memref<?xf16>) -> !coopvec.matrix<2, 3, f16, "training">
  "coopvec.outer_product_accumulate"(%a, %b, %R) : (!coopvec.vec<2, f16>, !coopvec.vec<3, f16>, !coopvec.matrix<2, 3, f16, "row_major">) -> ()
  "coopvec.outer_product_accumulate"(%a, %b, %C) : (!coopvec.vec<2, f16>, !coopvec.vec<3, f16>, !coopvec.matrix<2, 3, f16, "col_major">) -> ()
  "coopvec.outer_product_accumulate"(%a, %b, %T) : (!coopvec.vec<2, f16>, !coopvec.vec<3, f16>, !coopvec.matrix<2, 3, f16, "training">) -> ()
  return
}

func.func @store16(%g: memref<?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 0.015625 : f16
  %three = arith.constant 3.0 : f16
  %x = "coopvec.from_elements"(%s) : (f16) -> !coopvec.vec<1, f16>
  "coopvec.reduce_sum_accumulate"(%x, %g, %c1) : (!coopvec.vec<1, f16>, memref<?xf16>, index) -> ()
  memref.store %three, %g[%c0] : memref<?xf16>
  return
}
