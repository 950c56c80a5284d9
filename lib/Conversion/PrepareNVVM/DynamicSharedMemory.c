//===- DynamicSharedMemory.c - Workgroup buffers beyond 48 KiB ------------===//
//
// A CUDA kernel may declare at most 48 KiB of static shared memory; more
// (up to 227 KiB a block on an H100 / H200, 163 KiB on an A100) only as
// dynamic shared memory, whose size the launch gives and which a kernel
// over 48 KiB must be allowed first (cuFuncSetAttribute with
// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES). So a gpu.func whose
// workgroup allocs (convert-coopvec-to-gpu's staging buffers and votes,
// sized by its `workgroup-memory`) total more than 48 KiB gets them all as
// `memref.view`s of one `gpu.dynamic_shared_memory`, each at an offset
// that keeps its alignment (128 bytes for the staging), and the total as
// `coopvec.dynamic_workgroup_memory`, which the CUDA backend reads
// (docs/execution-engine.md). A kernel at or below 48 KiB keeps static
// buffers (PrepareNVVM.c): nothing to set at launch.
//
// With no static shared memory left in such a kernel, its dynamic shared
// memory starts the block's shared window: every offset's alignment holds
// (wmma wants 32 bytes; NVVM declares the array .align 16, the least the
// driver guarantees).
//
//===----------------------------------------------------------------------===//

#include "Conversion/PrepareNVVM/PrepareNVVM.h"

#include "IR/UpstreamBuilders.h"
#include "Support/Alloc.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

/// The most static shared memory a CUDA kernel may declare.
enum { STATIC_SHARED_MEMORY_LIMIT = 48 * 1024 };

/// A workgroup alloc and its place in the dynamic shared memory.
typedef struct Placed {
  MlirOperation alloc;
  int64_t offset; // bytes from the start
} Placed;

typedef struct Allocs {
  Placed *placed;
  intptr_t count, capacity;
  int64_t bytes; // the end of the last
} Allocs;

static int64_t allocBytes(MlirOperation alloc) {
  MlirType type = mlirValueGetType(mlirOperationGetResult(alloc, 0));
  int64_t bytes = coopvecMemRefElementBytes(type);
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(type); ++i)
    bytes *= mlirShapedTypeGetDimSize(type, i);
  return bytes;
}

static int64_t allocAlignment(MlirOperation alloc) {
  MlirAttribute alignment = mlirOperationGetAttributeByName(
      alloc, mlirStringRefCreateFromCString("alignment"));
  return mlirAttributeIsNull(alignment) ? 16
                                        : mlirIntegerAttrGetValueInt(alignment);
}

static MlirWalkResult collectAlloc(MlirOperation op, void *userData) {
  Allocs *allocs = userData;
  if (!coopvecIsWorkgroupAlloc(op) ||
      !mlirShapedTypeHasStaticShape(
          mlirValueGetType(mlirOperationGetResult(op, 0))))
    return MlirWalkResultAdvance; // a dynamic size is PrepareNVVM.c's error
  allocs->placed = coopvecGrowArray(allocs->placed, &allocs->capacity,
                                    allocs->count + 1, sizeof(Placed));
  int64_t alignment = allocAlignment(op);
  int64_t offset = (allocs->bytes + alignment - 1) / alignment * alignment;
  allocs->placed[allocs->count++] = (Placed){op, offset};
  allocs->bytes = offset + allocBytes(op);
  return MlirWalkResultAdvance;
}

/// `type` (a static shape) in address space `workgroup`, the GPU dialect's
/// (gpu.dynamic_shared_memory and its views need it).
static MlirType inWorkgroupSpace(MlirType type, MlirAttribute workgroup) {
  intptr_t rank = mlirShapedTypeGetRank(type);
  int64_t *shape = malloc((size_t)(rank ? rank : 1) * sizeof(int64_t));
  for (intptr_t i = 0; i < rank; ++i)
    shape[i] = mlirShapedTypeGetDimSize(type, i);
  MlirType result = mlirMemRefTypeGet(mlirShapedTypeGetElementType(type), rank,
                                      shape, mlirAttributeGetNull(), workgroup);
  free(shape);
  return result;
}

/// Replaces every alloc of `allocs` by a view of one dynamic shared memory
/// at the start of `func`, and records the size on `func`.
static void placeDynamic(MlirOperation func, const Allocs *allocs) {
  MlirContext ctx = mlirOperationGetContext(func);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirOperation first = mlirBlockGetFirstOperation(entry);
  CoopvecBuilder b =
      coopvecBuilderBefore(first, mlirOperationGetLocation(func));
  MlirAttribute workgroup = mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString("#gpu.address_space<workgroup>"));
  int64_t dynamicShape = mlirShapedTypeGetDynamicSize();
  MlirType bytes =
      mlirMemRefTypeGet(mlirIntegerTypeGet(ctx, 8), 1, &dynamicShape,
                        mlirAttributeGetNull(), workgroup);
  MlirValue shared =
      coopvecBuild1(&b, "gpu.dynamic_shared_memory", 0, NULL, bytes, 0, NULL);
  for (intptr_t i = 0; i < allocs->count; ++i) {
    MlirOperation alloc = allocs->placed[i].alloc;
    MlirValue result = mlirOperationGetResult(alloc, 0);
    MlirValue operands[] = {
        shared, coopvecBuildIndexConstant(&b, allocs->placed[i].offset)};
    MlirValue view = coopvecBuild1(
        &b, "memref.view", 2, operands,
        inWorkgroupSpace(mlirValueGetType(result), workgroup), 0, NULL);
    mlirValueReplaceAllUsesOfWith(result, view);
    mlirOperationDestroy(alloc);
  }
  mlirOperationSetAttributeByName(
      func, mlirStringRefCreateFromCString("coopvec.dynamic_workgroup_memory"),
      mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), allocs->bytes));
}

void coopvecPlaceDynamicSharedMemory(MlirOperation gpuModule) {
  MlirBlock body =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(gpuModule, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!coopvecOpIsNamed(op, "gpu.func"))
      continue;
    Allocs allocs = {0};
    mlirOperationWalk(op, collectAlloc, &allocs, MlirWalkPreOrder);
    if (allocs.bytes > STATIC_SHARED_MEMORY_LIMIT)
      placeDynamic(op, &allocs);
    free(allocs.placed);
  }
}
