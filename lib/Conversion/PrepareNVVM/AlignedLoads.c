//===- AlignedLoads.c - Uniform vector loads of kernel buffers, aligned ---===//
//
// A `coopvec.load` at a uniform offset (a bias, say) is one `vector.load`
// of N elements from a kernel's memref argument. Without an alignment,
// LLVM's NVPTX backend may only assume the element's, and an f16 bias of
// 64 elements became 64 `ld.global.b16` per thread: in an H200 profile of
// bench/mlp-gpu.mlir (docs/performance.md, 2026-11-28) the biases were
// two thirds of the kernel's global load instructions.
//
// The kernel ABI (docs/execution-model.md, "GPU targets") gives every
// memref argument a 16-byte aligned start, as the CUDA backend's
// cuMemAlloc buffers are. So a load at a constant index whose byte offset
// is a multiple of 16 starts 16-byte aligned, and says so
// (`alignment = 16`): LLVM then reads it in 16-byte vectors
// (ld.global.v4.b32). Loads at other indices are left as they are.
//
//===----------------------------------------------------------------------===//

#include "Conversion/PrepareNVVM/PrepareNVVM.h"

#include "Dialect/Constants.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

enum { KERNEL_ARGUMENT_ALIGNMENT = 16 };

/// Whether `value` is an argument of the gpu.func whose body holds it.
static bool isKernelArgument(MlirValue value) {
  if (!mlirValueIsABlockArgument(value))
    return false;
  MlirOperation owner =
      mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(value));
  return coopvecOpIsNamed(owner, "gpu.func");
}

static MlirWalkResult alignLoad(MlirOperation op, void *userData) {
  (void)userData;
  if (!coopvecOpIsNamed(op, "vector.load") ||
      mlirOperationGetNumOperands(op) != 2)
    return MlirWalkResultAdvance;
  MlirStringRef name = mlirStringRefCreateFromCString("alignment");
  MlirValue memref = mlirOperationGetOperand(op, 0);
  int64_t index, bytes = coopvecMemRefElementBytes(mlirValueGetType(memref));
  if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(op, name)) ||
      bytes == 0 || !isKernelArgument(memref) ||
      !coopvecIntegerConstant(mlirOperationGetOperand(op, 1), &index) ||
      index * bytes % KERNEL_ARGUMENT_ALIGNMENT != 0)
    return MlirWalkResultAdvance;
  MlirContext ctx = mlirOperationGetContext(op);
  mlirOperationSetAttributeByName(
      op, name,
      mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64),
                         KERNEL_ARGUMENT_ALIGNMENT));
  return MlirWalkResultAdvance;
}

void coopvecAlignKernelArgumentLoads(MlirOperation gpuModule) {
  mlirOperationWalk(gpuModule, alignLoad, NULL, MlirWalkPreOrder);
}
