//===- Expand.c - Ops MLIR's SPIR-V conversions do not take ---------------===//
//
// MLIR 22's arith-to-spirv and math-to-spirv have no pattern for
// `math.trunc` (GLSL.std.450 has Trunc, but the SPIR-V dialect does not),
// `arith.ceildivsi`, `arith.ceildivui` and `arith.floordivsi` ("failed to
// legalize"), and `arith.remsi` comes out wrong: arith-to-spirv works on
// the operands' absolute values, and |INT_MIN| overflows (remsi(INT_MIN,
// b) had the wrong sign on lavapipe: +128 where -128 is right). Each
// becomes ops they convert right:
//
//   trunc(x)          = copysign(floor(|x|), x)   (exact: -0 for -0.5, NaN
//                                                  and infinities kept)
//   q = a / b (truncating), r = a - q * b (the exact remainder, the sign
//   of a; a - q * b cannot overflow even where q * b wraps):
//   remsi(a, b)       = r
//   ceildivsi(a, b)   = q + (r != 0 && (r < 0) == (b < 0))
//   floordivsi(a, b)  = q - (r != 0 && (r < 0) != (b < 0))
//   ceildivui(a, b)   = q + (r != 0)              (unsigned q; q + 1 fits:
//                                                  r != 0 means b >= 2)
//
// The per-thread layer has already replaced a zero divisor and INT_MIN /
// -1 by safe operands (lib/Conversion/PerThread/Scalars.c), so the
// divisions here see neither. upstream's arith-expand is not used: this
// spelling is exact for every other pair, INT_MIN included.
//
//===----------------------------------------------------------------------===//

#include "Conversion/PrepareSPIRV/PrepareSPIRV.h"

#include "Dialect/Verifier.h"
#include "IR/UpstreamBuilders.h"
#include "Support/Alloc.h"

#include "coopvec-c/Support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const expandedOps[] = {
    "math.trunc",       "arith.ceildivsi", "arith.ceildivui",
    "arith.floordivsi", "arith.remsi",
};

typedef struct Expanded {
  MlirOperation *ops;
  intptr_t count, capacity;
} Expanded;

static bool isExpanded(MlirOperation op) {
  for (size_t i = 0; i < sizeof(expandedOps) / sizeof(expandedOps[0]); ++i)
    if (coopvecOpIsNamed(op, expandedOps[i]))
      return true;
  return false;
}

static MlirWalkResult collectExpanded(MlirOperation op, void *userData) {
  Expanded *list = userData;
  if (isExpanded(op)) {
    list->ops = coopvecGrowArray(list->ops, &list->capacity, list->count + 1,
                                 sizeof(MlirOperation));
    list->ops[list->count++] = op;
  }
  return MlirWalkResultAdvance;
}

static MlirValue expandTrunc(CoopvecBuilder *b, MlirValue x) {
  MlirValue absolute = coopvecBuildUnaryOp(b, "math.absf", x);
  MlirValue magnitude = coopvecBuildUnaryOp(b, "math.floor", absolute);
  return coopvecBuildBinaryOp(b, "math.copysign", magnitude, x);
}

/// i1 `c` as 0 or 1 of `type`.
static MlirValue asOne(CoopvecBuilder *b, MlirValue c, MlirType type) {
  MlirValue one = coopvecBuildIntConstantLike(b, type, 1);
  MlirValue zero = coopvecBuildIntConstantLike(b, type, 0);
  return coopvecBuildSelect(b, c, one, zero);
}

/// ceildivsi / floordivsi / ceildivui / remsi of (a, b) from the
/// truncating quotient and its remainder.
static MlirValue expandDivision(CoopvecBuilder *b, const char *name,
                                MlirValue a, MlirValue d) {
  MlirType type = mlirValueGetType(a);
  bool isUnsigned = strcmp(name, "arith.ceildivui") == 0;
  MlirValue q =
      coopvecBuildBinaryOp(b, isUnsigned ? "arith.divui" : "arith.divsi", a, d);
  MlirValue qd = coopvecBuildBinaryOp(b, "arith.muli", q, d);
  MlirValue r = coopvecBuildBinaryOp(b, "arith.subi", a, qd);
  if (strcmp(name, "arith.remsi") == 0)
    return r;
  MlirValue zero = coopvecBuildIntConstantLike(b, type, 0);
  MlirValue inexact = coopvecBuildCmpI(b, COOPVEC_CMPI_NE, r, zero);
  if (isUnsigned) {
    MlirValue one = asOne(b, inexact, type);
    return coopvecBuildBinaryOp(b, "arith.addi", q, one);
  }
  MlirValue rNegative = coopvecBuildCmpI(b, COOPVEC_CMPI_SLT, r, zero);
  MlirValue dNegative = coopvecBuildCmpI(b, COOPVEC_CMPI_SLT, d, zero);
  bool ceil = strcmp(name, "arith.ceildivsi") == 0;
  // The exact quotient is positive where r and d have the same sign.
  MlirValue positive =
      coopvecBuildCmpI(b, COOPVEC_CMPI_EQ, rNegative, dNegative);
  MlirValue wanted = positive;
  if (!ceil) {
    MlirValue yes =
        coopvecBuildIntConstantLike(b, mlirValueGetType(positive), 1);
    wanted = coopvecBuildBinaryOp(b, "arith.xori", positive, yes);
  }
  MlirValue adjust = coopvecBuildBinaryOp(b, "arith.andi", inexact, wanted);
  MlirValue one = asOne(b, adjust, type);
  return coopvecBuildBinaryOp(b, ceil ? "arith.addi" : "arith.subi", q, one);
}

static void expandOp(MlirOperation op) {
  CoopvecBuilder b = coopvecBuilderBefore(op, mlirOperationGetLocation(op));
  MlirStringRef ref = mlirIdentifierStr(mlirOperationGetName(op));
  char name[32];
  snprintf(name, sizeof(name), "%.*s", (int)ref.length, ref.data);
  MlirValue x = mlirOperationGetOperand(op, 0);
  MlirValue result =
      strcmp(name, "math.trunc") == 0
          ? expandTrunc(&b, x)
          : expandDivision(&b, name, x, mlirOperationGetOperand(op, 1));
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), result);
  mlirOperationDestroy(op);
}

void coopvecExpandForSPIRV(MlirOperation kernel) {
  Expanded list = {NULL, 0, 0};
  mlirOperationWalk(kernel, collectExpanded, &list, MlirWalkPreOrder);
  for (intptr_t i = 0; i < list.count; ++i)
    expandOp(list.ops[i]);
  free(list.ops);
}
