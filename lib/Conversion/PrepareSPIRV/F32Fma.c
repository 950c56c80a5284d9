//===- F32Fma.c - f32 math.fma rounded once -------------------------------===//
//
// `math.fma` rounds once (docs/dialect.md), but Vulkan does not require
// `GLSL Fma` to be fused, and lavapipe's is not: an f32 fma there rounds
// the product first (fma(max, 2, -max) came out inf, not max). In f64 an
// f32 product is exact (24 + 24 bits), so each f32 fma is computed there,
// rounded to odd and then to f32 (WideFma.c): 53 >= 24 + 2 bits make that
// one correct rounding for every f32 triple. No f64 step overflows (|p| <=
// 2^256) or underflows: p, c and the exact sum are multiples of 2^-298, far
// above f64's subnormals, so TwoSum is exact, s is 0 only when the exact
// sum is, and an f32 subnormal result is rounded once, by the truncf.
//
// The matvec's dot products (convert-coopvec-to-gpu, GPUMatvec.c) are
// marked `coopvec.accumulate` and left alone: the dialect leaves their
// rounding to the target, and f64 would cost GPUs most of their speed.
// The rest needs the target's Float64 and Int64 (the bit patterns), and
// the device shaderFloat64 and shaderInt64.
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToGPU/GPU.h"
#include "Conversion/PrepareSPIRV/PrepareSPIRV.h"

#include "Dialect/Verifier.h"
#include "Support/Alloc.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>
#include <string.h>

typedef struct Fmas {
  MlirOperation *ops;
  intptr_t count, capacity;
} Fmas;

static bool isAccumulation(MlirOperation op) {
  return !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
      op, mlirStringRefCreateFromCString(COOPVEC_GPU_ACCUMULATE_ATTR)));
}

static MlirWalkResult collectF32Fma(MlirOperation op, void *userData) {
  Fmas *list = userData;
  if (coopvecOpIsNamed(op, "math.fma") && !isAccumulation(op) &&
      mlirTypeIsAF32(coopvecElementTypeOf(
          mlirValueGetType(mlirOperationGetResult(op, 0))))) {
    list->ops = coopvecGrowArray(list->ops, &list->capacity, list->count + 1,
                                 sizeof(MlirOperation));
    list->ops[list->count++] = op;
  }
  return MlirWalkResultAdvance;
}

/// Whether the printed `#spirv.target_env` lists `capability` (a whole
/// name: Float64 is not AtomicFloat64AddEXT).
static bool listsCapability(const char *env, const char *capability) {
  size_t length = strlen(capability);
  for (const char *at = strstr(env, capability); at;
       at = strstr(at + 1, capability))
    if (at > env && (at[-1] == '[' || at[-1] == ' ') &&
        (at[length] == ',' || at[length] == ']'))
      return true;
  return false;
}

/// Whether the gpu.module of `kernel` may use f64 and i64; else an error
/// at `fma`.
static bool checkTarget(MlirOperation kernel, MlirOperation fma,
                        const char *passName) {
  MlirAttribute env = mlirOperationGetAttributeByName(
      mlirOperationGetParentOperation(kernel),
      mlirStringRefCreateFromCString("spirv.target_env"));
  CoopvecBuffer text = {0};
  mlirAttributePrint(env, coopvecBufferCallback, &text);
  bool ok = listsCapability(coopvecBufferStr(&text), "Float64") &&
            listsCapability(coopvecBufferStr(&text), "Int64");
  coopvecBufferFree(&text);
  if (!ok)
    coopvecEmitOpError(fma,
                       "is an f32 fma, which %s computes in f64 to round it "
                       "once (Vulkan's GLSL Fma need not be fused), but the "
                       "gpu.module's spirv.target_env lacks capability "
                       "Float64 or Int64",
                       passName);
  return ok;
}

bool coopvecExpandF32Fma(MlirOperation kernel, const char *passName) {
  Fmas list = {NULL, 0, 0};
  mlirOperationWalk(kernel, collectF32Fma, &list, MlirWalkPreOrder);
  bool ok = list.count == 0 || checkTarget(kernel, list.ops[0], passName);
  MlirType f64 = mlirF64TypeGet(mlirOperationGetContext(kernel));
  for (intptr_t i = 0; ok && i < list.count; ++i)
    coopvecReplaceByWideFma(list.ops[i], f64);
  free(list.ops);
  return ok;
}
