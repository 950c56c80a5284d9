// REQUIRES: cuda-stub
// The CUDA toolkit's stub libcuda.so (for linking without a driver) answers
// every call with CUDA_ERROR_STUB_LIBRARY: the backend says that no driver
// is installed and which file it loaded.
// RUN: env COOPVEC_LIBCUDA=%cuda_stub not coopvec-run %s --entry=scale --random --target=cuda 2>&1 | FileCheck %s
// CHECK: coopvec-run: error: CUDA: {{.*}}/libcuda.so is the CUDA toolkit's stub library, not the NVIDIA driver (no NVIDIA driver is installed)

func.func @scale(%x: !coopvec.vec<4, f32>, %s: f32) -> !coopvec.vec<4, f32> {
  %y = "coopvec.mul"(%x, %s) : (!coopvec.vec<4, f32>, f32) -> !coopvec.vec<4, f32>
  return %y : !coopvec.vec<4, f32>
}
