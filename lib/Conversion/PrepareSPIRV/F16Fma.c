//===- F16Fma.c - f16 math.fma rounded once -------------------------------===//
//
// `math.fma` rounds once (docs/dialect.md), but Vulkan does not require
// `GLSL Fma` to be fused, and lavapipe's is not: an f16 fma there rounds
// the product to f16 first, which is far off near cancellation
// (fma(a, 1000 a, b) near -b). In f32 an f16 product is exact (11 + 11
// bits), so each f16 fma is computed there, rounded to odd and then to
// f16 (WideFma.c): 24 >= 11 + 2 bits make that one correct rounding for
// every f16 triple. No f32 step overflows (|p| < 2^32), and s is 0 only
// when the exact sum is (it is a multiple of 2^-48).
//
//===----------------------------------------------------------------------===//

#include "Conversion/PrepareSPIRV/PrepareSPIRV.h"

#include "Dialect/Verifier.h"
#include "IR/UpstreamBuilders.h"
#include "Support/Alloc.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

typedef struct Fmas {
  MlirOperation *ops;
  intptr_t count, capacity;
} Fmas;

static MlirWalkResult collectF16Fma(MlirOperation op, void *userData) {
  Fmas *list = userData;
  if (coopvecOpIsNamed(op, "math.fma") &&
      mlirTypeIsAF16(coopvecElementTypeOf(
          mlirValueGetType(mlirOperationGetResult(op, 0))))) {
    list->ops = coopvecGrowArray(list->ops, &list->capacity, list->count + 1,
                                 sizeof(MlirOperation));
    list->ops[list->count++] = op;
  }
  return MlirWalkResultAdvance;
}

void coopvecExpandF16Fma(MlirOperation kernel) {
  Fmas list = {NULL, 0, 0};
  mlirOperationWalk(kernel, collectF16Fma, &list, MlirWalkPreOrder);
  MlirType f32 = mlirF32TypeGet(mlirOperationGetContext(kernel));
  for (intptr_t i = 0; i < list.count; ++i)
    coopvecReplaceByWideFma(list.ops[i], f32);
  free(list.ops);
}
