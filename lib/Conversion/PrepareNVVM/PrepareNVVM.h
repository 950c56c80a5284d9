//===- PrepareNVVM.h - coopvec-prepare-nvvm internals -------------*- C -*-===//
//
// The steps of coopvec-prepare-nvvm on a gpu.module that live in their own
// files.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_CONVERSION_PREPARENVVM_PREPARENVVM_H
#define COOPVEC_LIB_CONVERSION_PREPARENVVM_PREPARENVVM_H

#include <mlir-c/IR.h>

/// Rewrites every math.floor, ceil, round, roundeven, absf, copysign and
/// sqrt of `gpuModule` into an `llvm.call_intrinsic` of the same LLVM
/// intrinsic (MathIntrinsics.c): convert-gpu-to-nvvm refuses them once
/// convert-math-to-llvm has made them llvm.intr.* ops.
void coopvecRewriteMathIntrinsics(MlirOperation gpuModule);

/// Declares the 16-byte alignment of every `vector.load` of a kernel's
/// memref argument at a constant index that is 16-byte aligned
/// (AlignedLoads.c): the kernel ABI aligns the arguments.
void coopvecAlignKernelArgumentLoads(MlirOperation gpuModule);

/// Whether `op` is a `memref.alloc` in address space 3 (workgroup memory:
/// convert-coopvec-to-gpu's staging buffers and votes).
bool coopvecIsWorkgroupAlloc(MlirOperation op);

/// Bytes of one element of a memref of ints or floats; 0 for others.
int64_t coopvecMemRefElementBytes(MlirType memref);

/// Places the workgroup allocs of every gpu.func whose allocs total more
/// than 48 KiB (CUDA's limit of static shared memory) in one
/// `gpu.dynamic_shared_memory`, as `memref.view`s at aligned offsets, and
/// records the bytes as the func's `coopvec.dynamic_workgroup_memory`
/// (DynamicSharedMemory.c).
void coopvecPlaceDynamicSharedMemory(MlirOperation gpuModule);

#endif // COOPVEC_LIB_CONVERSION_PREPARENVVM_PREPARENVVM_H
