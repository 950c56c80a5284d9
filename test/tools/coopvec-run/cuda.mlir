// --target=cuda on every machine, GPU or not. Without a driver it is an
// error naming CUDA and what is missing. The host side of the backend runs
// against the fake driver of test/cuda (COOPVEC_LIBCUDA=%fake_libcuda),
// which runs no kernel but logs what a driver would see: each launch
// decoded against the kernel's own `.param` list in the PTX it was given
// (so the packing below is the PTX's: index, f32, f16, f64, i64 by value,
// a memref as allocated/aligned pointer, offset 0, size, stride 1), the
// grid of ceil(n / 128) blocks of exactly the kernel's 128 threads, and at
// exit what is still allocated, loaded or retained. test/Integration/GPU/
// cuda.test runs kernels on a real GPU.

// RUN: rm -rf %t && mkdir %t
// RUN: printf "\x93NUMPY\x01\x00\x76\x00%%-117s\n" "{'descr': '<f4', 'fortran_order': False, 'shape': (), }" > %t/f32.npy
// RUN: printf '\x00\x00\x00\x3f' >> %t/f32.npy
// RUN: printf "\x93NUMPY\x01\x00\x76\x00%%-117s\n" "{'descr': '<f2', 'fortran_order': False, 'shape': (), }" > %t/f16.npy
// RUN: printf '\x00\x3c' >> %t/f16.npy
// RUN: printf "\x93NUMPY\x01\x00\x76\x00%%-117s\n" "{'descr': '<f8', 'fortran_order': False, 'shape': (), }" > %t/f64.npy
// RUN: printf '\x00\x00\x00\x00\x00\x00\x00\x40' >> %t/f64.npy
// RUN: printf "\x93NUMPY\x01\x00\x76\x00%%-117s\n" "{'descr': '<i8', 'fortran_order': False, 'shape': (), }" > %t/i64.npy
// RUN: printf '\x07\x00\x00\x00\x00\x00\x00\x00' >> %t/i64.npy
// RUN: printf "\x93NUMPY\x01\x00\x76\x00%%-117s\n" "{'descr': '<i8', 'fortran_order': False, 'shape': (), }" > %t/offset.npy
// RUN: printf '\xf0\x00\x00\x00\x00\x00\x00\x00' >> %t/offset.npy

// No driver: the library cannot be loaded. --reference needs none.
// RUN: env COOPVEC_LIBCUDA=%t/none/libcuda.so.1 not coopvec-run %s --entry=grad --random --target=cuda 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NODRIVER
// NODRIVER: coopvec-run: error: CUDA: cannot load {{.*}}/none/libcuda.so.1 (no NVIDIA driver): {{.*}}cannot open shared object file
// RUN: env COOPVEC_LIBCUDA=%t/none/libcuda.so.1 coopvec-run %s --entry=grad --random --target=cuda --reference --print \
// RUN:   | FileCheck %s --check-prefix=REFERENCE
// REFERENCE: result 0
// RUN: not coopvec-run %s --entry=grad --random --target=cuda --lanes=8 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LANES
// LANES: coopvec-run: error: --lanes is an option of the cpu target, not of 'cuda'
// RUN: not coopvec-run %s --entry=grad --random --target=cuda --threads=2 2>&1 \
// RUN:   | FileCheck %s --check-prefix=THREADS
// THREADS: coopvec-run: error: --threads is an option of the cpu target, not of 'cuda'

// --device picks the driver's ordinal; one that does not exist is an error.
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda not coopvec-run %s --entry=grad --random --target=cuda --device=3 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DEVICE3
// DEVICE3: coopvec-run: error: CUDA: no device 3: there is 1 (0 to 0)
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_DEVICES=2 coopvec-run %s --entry=grad --random --target=cuda --device=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DEVICE1
// DEVICE1: fake-cuda: launch grad_kernel: grid 1x1x1

// The launch, parameter by parameter, for 1000 threads.
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_KERNEL_US=1250 coopvec-run %s --entry=layer --batch=1000 \
// RUN:   --arg=%t/f32.npy --arg=%t/f16.npy --arg=%t/f64.npy --arg=%t/i64.npy --arg=%t/offset.npy \
// RUN:   --random --target=cuda --time 2>&1 | FileCheck %s --check-prefix=LAYER
// LAYER:      fake-cuda: cuModuleLoadDataEx: {{[0-9]+}} bytes of PTX, .target sm_80
// LAYER-NEXT: fake-cuda: launch layer_kernel: grid 8x1x1, block 128x1x1 (.maxntid 128), 0 bytes of dynamic shared memory, stream (nil), 21 params
// LAYER-NEXT: fake-cuda:   param 0 (8 bytes): 1000
// LAYER-NEXT: fake-cuda:   param 1 (4 bytes): 0x3f000000 (f32 0.5)
// LAYER-NEXT: fake-cuda:   param 2 (2 bytes): 0x3c00
// LAYER-NEXT: fake-cuda:   param 3 (8 bytes): 4611686018427387904
// LAYER-NEXT: fake-cuda:   param 4 (8 bytes): 7
// LAYER-NEXT: fake-cuda:   param 5 (8 bytes): 240
// LAYER-NEXT: fake-cuda:   param 6 (8 bytes): buffer 0 (32000 bytes, uploaded)
// LAYER-NEXT: fake-cuda:   param 7 (8 bytes): buffer 0 (32000 bytes, uploaded)
// LAYER-NEXT: fake-cuda:   param 8 (8 bytes): 0
// LAYER-NEXT: fake-cuda:   param 9 (8 bytes): 16000
// LAYER-NEXT: fake-cuda:   param 10 (8 bytes): 1
// LAYER-NEXT: fake-cuda:   param 11 (8 bytes): buffer 1 (512 bytes, uploaded)
// LAYER-NEXT: fake-cuda:   param 12 (8 bytes): buffer 1 (512 bytes, uploaded)
// LAYER-NEXT: fake-cuda:   param 13 (8 bytes): 0
// LAYER-NEXT: fake-cuda:   param 14 (8 bytes): 256
// LAYER-NEXT: fake-cuda:   param 15 (8 bytes): 1
// LAYER-NEXT: fake-cuda:   param 16 (8 bytes): buffer 2 (32000 bytes)
// LAYER-NEXT: fake-cuda:   param 17 (8 bytes): buffer 2 (32000 bytes)
// LAYER-NEXT: fake-cuda:   param 18 (8 bytes): 0
// LAYER-NEXT: fake-cuda:   param 19 (8 bytes): 16000
// LAYER-NEXT: fake-cuda:   param 20 (8 bytes): 1
// LAYER-NEXT: coopvec-run: lowering {{[0-9.]+}} ms, JIT compile {{[0-9.]+}} ms, run {{[0-9.]+}} ms ({{[0-9.]+}} ns per thread) on the cuda device, with transfers
// LAYER-NEXT: coopvec-run: kernel 1.250 ms (1250.0 ns per thread) by the device's timestamps
// LAYER-NEXT: fake-cuda: at exit: 0 buffers, 0 modules, 0 contexts retained, 0 pushed

// Results and written memrefs come back from the device (the fake fills
// every buffer with zeros at the launch; the inputs were random): 129
// threads are 2 blocks, and the last block's threads past n are the
// kernel's business.
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_FILL=0 coopvec-run %s --entry=grad --batch=129 --random \
// RUN:   --target=cuda --print 2>&1 | FileCheck %s --check-prefix=BACK
// BACK:      fake-cuda: launch grad_kernel: grid 2x1x1, block 128x1x1 (.maxntid 128), 0 bytes of dynamic shared memory, stream (nil), 22 params
// BACK:      result 0
// BACK-NEXT:   [0] 0 0 0
// BACK:        [128] 0 0 0
// BACK-NEXT: argument 2 (written)
// BACK-NEXT:   [0] 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
// BACK-NEXT: fake-cuda: at exit: 0 buffers, 0 modules, 0 contexts retained, 0 pushed

// The chip follows the device: sm_75 for compute capability 7.5, the
// newest chip LLVM knows below an unknown one (9.9: sm_90).
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_SM=75 coopvec-run %s --entry=grad --random --target=cuda 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SM75
// SM75: fake-cuda: cuModuleLoadDataEx: {{[0-9]+}} bytes of PTX, .target sm_75
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_SM=99 coopvec-run %s --entry=grad --random --target=cuda 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SM99
// SM99: fake-cuda: cuModuleLoadDataEx: {{[0-9]+}} bytes of PTX, .target sm_90
// With ptxas, the fake driver assembles what it is given for its chip.
// RUN: %if ptxas %{ env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_SM=90 FAKE_CUDA_PTXAS=%ptxas coopvec-run %s --entry=layer --batch=33 --random --target=cuda 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: fake-cuda: cuModuleLoadDataEx: {{[0-9]+}} bytes of PTX, .target sm_90
// PTXAS: fake-cuda: launch layer_kernel: grid 1x1x1, block 128x1x1

// A pipeline of the caller's: its options reach the kernels (block-size),
// it must stop before gpu-module-to-binary and leave a gpu.module, and its
// chip must be one the device runs.
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda coopvec-run %s --entry=grad --batch=1000 --random --target=cuda \
// RUN:   --pipeline='builtin.module(coopvec-lower-to-nvvm{chip=sm_70 block-size=256 binary=false})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: fake-cuda: cuModuleLoadDataEx: {{[0-9]+}} bytes of PTX, .target sm_70
// PIPELINE: fake-cuda: launch grad_kernel: grid 4x1x1, block 256x1x1 (.maxntid 256)
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda not coopvec-run %s --entry=grad --random --target=cuda \
// RUN:   --pipeline='builtin.module(coopvec-lower-to-nvvm)' 2>&1 | FileCheck %s --check-prefix=BINARY
// BINARY: coopvec-run: error: CUDA: the pipeline already ran gpu-module-to-binary: the engine reads each kernel's launch contract (coopvec.block_size) from the gpu.module and serializes it itself, so the pipeline must stop before (coopvec-lower-to-nvvm{... binary=false})
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda not coopvec-run %s --entry=grad --random --target=cuda \
// RUN:   --pipeline='builtin.module(coopvec-verify)' 2>&1 | FileCheck %s --check-prefix=NOGPU
// NOGPU: coopvec-run: error: CUDA: the lowered module has no gpu.module: the pipeline must lower to a gpu.module in the NVVM dialect (coopvec-lower-to-nvvm{... binary=false})
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_SM=75 not coopvec-run %s --entry=grad --random --target=cuda \
// RUN:   --pipeline='builtin.module(coopvec-lower-to-nvvm{chip=sm_80 binary=false})' 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: coopvec-run: error: CUDA: the kernels were compiled for sm_80, which device 0 (coopvec fake GPU, sm_75) cannot run

// Devices the target cannot use.
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_DEVICES=0 not coopvec-run %s --entry=grad --random --target=cuda 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NODEVICE
// NODEVICE: coopvec-run: error: CUDA: no device (the NVIDIA driver found no GPU; CUDA_VISIBLE_DEVICES may hide them)
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_FAIL=cuInit not coopvec-run %s --entry=grad --random --target=cuda 2>&1 \
// RUN:   | FileCheck %s --check-prefix=INIT
// INIT: coopvec-run: error: CUDA: no device: cuInit failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_SM=61 not coopvec-run %s --entry=grad --random --target=cuda 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OLD
// OLD: coopvec-run: error: CUDA: device 0 (coopvec fake GPU) has compute capability 6.1; the NVIDIA target needs 7.0 (sm_70) or newer

// The driver's failures, with its messages (the JIT's log included);
// nothing stays allocated or loaded.
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_FAIL=cuModuleLoadDataEx not coopvec-run %s --entry=grad --random --target=cuda 2>&1 \
// RUN:   | FileCheck %s --check-prefix=JIT
// JIT:      coopvec-run: error: CUDA: cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)
// JIT-NEXT: ptxas fatal: the fake JIT refuses
// JIT:      fake-cuda: at exit: 0 buffers, 0 modules, 0 contexts retained, 0 pushed
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_MAX_THREADS=64 not coopvec-run %s --entry=grad --random --target=cuda 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REGISTERS
// REGISTERS: coopvec-run: error: CUDA: kernel @{{[a-z]+}}_kernel runs in blocks of 128 threads, but with its 40 registers per thread coopvec fake GPU allows 64 (lower with a smaller block-size)
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_FAIL=cuMemAlloc_v2 not coopvec-run %s --entry=layer --batch=1000 \
// RUN:   --arg=%t/f32.npy --arg=%t/f16.npy --arg=%t/f64.npy --arg=%t/i64.npy --arg=%t/offset.npy --random --target=cuda 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ALLOC
// ALLOC:      coopvec-run: error: CUDA: cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory) (argument #5 of @layer, 32000 bytes)
// ALLOC-NEXT: fake-cuda: at exit: 0 buffers, 0 modules, 0 contexts retained, 0 pushed
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_FAIL=cuLaunchKernel not coopvec-run %s --entry=grad --random --target=cuda --out=%t/failed 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LAUNCH
// LAUNCH:      coopvec-run: error: CUDA: cuLaunchKernel failed: CUDA_ERROR_LAUNCH_FAILED (unspecified launch failure)
// LAUNCH-NEXT: fake-cuda: at exit: 0 buffers, 0 modules, 0 contexts retained, 0 pushed
// RUN: not ls %t/failed0.npy
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_FAIL=cuCtxSynchronize not coopvec-run %s --entry=grad --random --target=cuda 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FAULT
// FAULT:      coopvec-run: error: CUDA: the kernel (cuCtxSynchronize) failed: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)
// FAULT-NEXT: fake-cuda: at exit: 0 buffers, 0 modules, 0 contexts retained, 0 pushed
// The kernel is timed with two events; a driver that cannot make them
// fails the run before the launch.
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda FAKE_CUDA_FAIL=cuEventCreate not coopvec-run %s --entry=grad --random --target=cuda 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EVENT
// EVENT-NOT:  fake-cuda: launch
// EVENT:      coopvec-run: error: CUDA: cuEventCreate failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)
// EVENT-NEXT: fake-cuda: at exit: 0 buffers, 0 modules, 0 contexts retained, 0 pushed

// Every scalar kind (f32, f16, f64, i64, index: an offset, 240 from its
// file) before a vec and a memref; an f16 matvec on tensor cores.
func.func @layer(%s: f32, %h: f16, %d: f64, %k: i64, %i: index, %x: !coopvec.vec<16, f16>, %w: memref<?xf16>) -> !coopvec.vec<16, f16> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<16, 16, f16, "row_major">
  %b = "coopvec.load"(%w, %i) : (memref<?xf16>, index) -> !coopvec.vec<16, f16>
  %y = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<16, 16, f16, "row_major">, !coopvec.vec<16, f16>, !coopvec.vec<16, f16>) -> !coopvec.vec<16, f16>
  %z = "coopvec.max"(%y, %h) : (!coopvec.vec<16, f16>, f16) -> !coopvec.vec<16, f16>
  return %z : !coopvec.vec<16, f16>
}

// Gradients accumulated into a memref the function writes, and a result.
func.func @grad(%x: !coopvec.vec<5, f32>, %d: !coopvec.vec<3, f32>, %g: memref<?xf32>, %s: f32) -> !coopvec.vec<3, f32> {
  %G = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<3, 5, f32, "row_major">
  "coopvec.outer_product_accumulate"(%d, %x, %G) : (!coopvec.vec<3, f32>, !coopvec.vec<5, f32>, !coopvec.matrix<3, 5, f32, "row_major">) -> ()
  %c15 = arith.constant 15 : index
  "coopvec.reduce_sum_accumulate"(%d, %g, %c15) : (!coopvec.vec<3, f32>, memref<?xf32>, index) -> ()
  %y = "coopvec.mul"(%d, %s) : (!coopvec.vec<3, f32>, f32) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}
