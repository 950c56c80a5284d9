// Workgroup memory beyond 48 KiB on the CUDA target, against the fake
// driver of test/cuda (which runs no kernel): a 256 x 256 f16 matvec at 128
// threads stages 128 x 264 f16 inputs (67584 bytes), a 16 x 264 weight
// slice (8448) and the result tiles (10240): 86272 bytes. With
// workgroup-memory=98304 it runs on tensor cores; coopvec-prepare-nvvm
// places the buffers in dynamic shared memory (the static limit is 48
// KiB), and the backend allows the kernel that much with
// cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES) and gives it at
// launch. A device that allows less per block (FAKE_CUDA_SMEM_OPTIN) is an
// error before anything runs. With the default 48 KiB the matvec runs as
// FMA loops and the kernel needs no dynamic shared memory.
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda coopvec-run %s --entry=wide --batch=300 --random --target=cuda \
// RUN:   --pipeline='builtin.module(coopvec-lower-to-nvvm{chip=sm_80 binary=false workgroup-memory=98304})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DYNAMIC
// RUN: %if ptxas %{ env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_PTXAS=%ptxas coopvec-run %s --entry=wide --batch=300 --random --target=cuda \
// RUN:   --pipeline='builtin.module(coopvec-lower-to-nvvm{chip=sm_80 binary=false workgroup-memory=98304})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DYNAMIC %}
// DYNAMIC:      fake-cuda: cuFuncSetAttribute wide_kernel: attribute 8 = 86272
// DYNAMIC:      fake-cuda: launch wide_kernel: grid 3x1x1, block 128x1x1 (.maxntid 128), 86272 bytes of dynamic shared memory
// DYNAMIC-NOT:  ERROR
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_SMEM_OPTIN=65536 not coopvec-run %s --entry=wide --batch=300 --random --target=cuda \
// RUN:   --pipeline='builtin.module(coopvec-lower-to-nvvm{chip=sm_80 binary=false workgroup-memory=98304})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TOO-LARGE
// TOO-LARGE:     coopvec-run: error: {{.*}}kernel @wide_kernel needs 86272 bytes of dynamic workgroup memory; {{.*}} has 65536 per block (lower with a smaller block-size or workgroup-memory)
// TOO-LARGE-NOT: fake-cuda: launch
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda coopvec-run %s --entry=wide --batch=300 --random --target=cuda 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STATIC
// STATIC-NOT:   cuFuncSetAttribute
// STATIC:       fake-cuda: launch wide_kernel: grid 3x1x1, block 128x1x1 (.maxntid 128), 0 bytes of dynamic shared memory
func.func @wide(%x: !coopvec.vec<256, f16>, %w: memref<?xf16>) -> !coopvec.vec<256, f16> {
  %W = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<256, 256, f16, "row_major">
  %y = "coopvec.matvec"(%W, %x) : (!coopvec.matrix<256, 256, f16, "row_major">, !coopvec.vec<256, f16>) -> !coopvec.vec<256, f16>
  return %y : !coopvec.vec<256, f16>
}
