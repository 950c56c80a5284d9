//===- Scalars.c - Non-coopvec ops of per-thread code ---------------------===//
//
// The arith / math ops (and the other region-free ops) of a per-thread
// function. A uniform op is moved into the lowered code as it is (on the
// CPU it then runs once per group of lanes); a varying one is rebuilt on
// the varying forms of its operands (CPU: `vector<L x T>` lane vectors, on
// which arith and math ops are elementwise; a GPU thread: the scalars
// themselves). `math` ops on lane vectors are expanded into portable
// polynomial code later in the pipelines (coopvec-expand-math), not one
// libm call per lane.
//
// The cases upstream leaves undefined are defined here, whichever way the
// op is lowered (docs/dialect.md, "Per-thread programs"), because LLVM
// would otherwise trap (x86 `idiv` by zero or of INT_MIN by -1) or fold
// poison into anything: division and remainder by zero give 0, INT_MIN /
// -1 gives INT_MIN, shifts by the width or more give 0 (or the sign), and
// float-to-integer conversions saturate with NaN giving 0. Each guard
// replaces the offending operand by a harmless one before the op and
// selects the defined result after it, so the op itself never sees the
// undefined case (an unchosen select arm may not be poison-free, but its
// poison is never selected).
//
//===----------------------------------------------------------------------===//

#include "Conversion/PerThread/PerThread.h"

#include "Dialect/Verifier.h"
#include "Support/Alloc.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The bit width of an integer or index type (index: 64).
static unsigned intWidth(MlirType type) {
  type = coopvecElementTypeOf(type);
  return mlirTypeIsAIndex(type) ? 64 : mlirIntegerTypeGetWidth(type);
}

/// The bit pattern of the smallest signed value of `width` bits, and of all
/// ones, as non-negative values for widths below 64 (IntegerAttr reads
/// them as unsigned N-bit values).
static int64_t signBit(unsigned width) {
  if (width == 0) // no integer type has it; i0 has no sign bit
    return 0;
  return width >= 64 ? INT64_MIN : (int64_t)((uint64_t)1 << (width - 1));
}

static int64_t allOnes(unsigned width) {
  return width >= 64 ? -1 : (int64_t)(((uint64_t)1 << width) - 1);
}

static MlirValue iconst(CoopvecBuilder *b, MlirType like, int64_t value) {
  return coopvecBuildIntConstantLike(b, like, value);
}

static MlirValue cmpi(CoopvecBuilder *b, int predicate, MlirValue x,
                      MlirValue y) {
  return coopvecBuildCmpI(b, predicate, x, y);
}

static MlirValue binary(CoopvecBuilder *b, const char *name, MlirValue x,
                        MlirValue y) {
  return coopvecBuildBinaryOp(b, name, x, y);
}

static bool named(MlirOperation op, const char *name) {
  return coopvecOpIsNamed(op, name);
}

//===----------------------------------------------------------------------===//
// Defined results for upstream's undefined cases
//===----------------------------------------------------------------------===//

/// Integer division and remainder: a zero divisor (and, signed, INT_MIN /
/// -1) is replaced by 1; a division by zero then gives 0. x % 1 is 0 and
/// INT_MIN / 1 is INT_MIN, the defined results of the other cases.
static MlirValue guardedDivision(CoopvecBuilder *b, const char *name,
                                 MlirValue x, MlirValue y) {
  MlirType type = mlirValueGetType(x);
  unsigned width = intWidth(type);
  MlirValue zero = iconst(b, type, 0), one = iconst(b, type, 1);
  MlirValue byZero = cmpi(b, COOPVEC_CMPI_EQ, y, zero);
  MlirValue replace = byZero;
  bool isSigned = strstr(name, "si") != NULL;
  if (isSigned) {
    MlirValue overflow =
        binary(b, "arith.andi",
               cmpi(b, COOPVEC_CMPI_EQ, x, iconst(b, type, signBit(width))),
               cmpi(b, COOPVEC_CMPI_EQ, y, iconst(b, type, allOnes(width))));
    replace = binary(b, "arith.ori", byZero, overflow);
  }
  MlirValue safe = coopvecBuildSelect(b, replace, one, y);
  MlirValue result = binary(b, name, x, safe);
  bool remainder = strstr(name, "rem") != NULL;
  return remainder ? result : coopvecBuildSelect(b, byZero, zero, result);
}

/// Shifts by `width` or more (the amount unsigned): shli and shrui give 0,
/// shrsi the sign (a shift by width - 1).
static MlirValue guardedShift(CoopvecBuilder *b, const char *name, MlirValue x,
                              MlirValue amount) {
  MlirType type = mlirValueGetType(x);
  unsigned width = intWidth(type);
  MlirValue tooFar =
      cmpi(b, COOPVEC_CMPI_UGT, amount, iconst(b, type, (int64_t)width - 1));
  if (strcmp(name, "arith.shrsi") == 0)
    return binary(
        b, name, x,
        coopvecBuildSelect(b, tooFar, iconst(b, type, width - 1), amount));
  MlirValue zero = iconst(b, type, 0);
  MlirValue shifted =
      binary(b, name, x, coopvecBuildSelect(b, tooFar, zero, amount));
  return coopvecBuildSelect(b, tooFar, zero, shifted);
}

/// 2^exponent in float type `type`, or +inf where it is beyond the type.
static MlirValue powerOfTwo(CoopvecBuilder *b, MlirType type, int exponent) {
  MlirType element = coopvecElementTypeOf(type);
  int maxExponent = mlirTypeIsAF16(element) ? 15 : 127;
  double value = exponent > maxExponent ? INFINITY : ldexp(1.0, exponent);
  return coopvecBuildFloatConstantLike(b, type, value);
}

/// fptosi / fptoui, truncating toward zero and saturating: NaN gives 0,
/// values at or beyond the range's ends give its minimum / maximum (the
/// minimum of fptoui is 0, for every value <= -1).
static MlirValue guardedFloatToInt(CoopvecBuilder *b, const char *name,
                                   MlirValue x, MlirType resultType) {
  MlirType type = mlirValueGetType(x);
  unsigned width = intWidth(resultType);
  bool isSigned = strcmp(name, "arith.fptosi") == 0;
  MlirValue high = powerOfTwo(b, type, isSigned ? (int)width - 1 : (int)width);
  MlirValue low = isSigned ? coopvecBuildUnaryOp(b, "arith.negf", high)
                           : coopvecBuildFloatConstantLike(b, type, -1.0);
  MlirValue nan = coopvecBuildCmpF(b, COOPVEC_CMPF_UNO, x, x);
  MlirValue tooHigh = coopvecBuildCmpF(b, COOPVEC_CMPF_OGE, x, high);
  MlirValue tooLow = coopvecBuildCmpF(b, COOPVEC_CMPF_OLE, x, low);
  // Each mask only selects (no arith.ori of masks): LLVM packs the i1
  // vector of an `or` to bytes and back on AVX2 (twice the instructions of
  // the whole guard, docs/performance.md "Scatter-add").
  MlirValue zero = coopvecBuildFloatConstantLike(b, type, 0.0);
  MlirValue safe = coopvecBuildSelect(b, nan, zero, x);
  safe = coopvecBuildSelect(b, tooHigh, zero, safe);
  safe = coopvecBuildSelect(b, tooLow, zero, safe);
  MlirValue converted = coopvecBuildCast1(b, name, safe, resultType);
  int64_t max = isSigned ? allOnes(width - 1) : allOnes(width);
  int64_t min = isSigned ? signBit(width) : 0;
  // NaN is neither too low nor too high: it keeps the 0 it converted to.
  MlirValue result =
      coopvecBuildSelect(b, tooLow, iconst(b, resultType, min), converted);
  return coopvecBuildSelect(b, tooHigh, iconst(b, resultType, max), result);
}

static bool isDivision(MlirOperation op) {
  static const char *const names[] = {
      "arith.divsi",      "arith.divui", "arith.ceildivsi", "arith.ceildivui",
      "arith.floordivsi", "arith.remsi", "arith.remui"};
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i)
    if (named(op, names[i]))
      return true;
  return false;
}

static bool isShift(MlirOperation op) {
  return named(op, "arith.shli") || named(op, "arith.shrsi") ||
         named(op, "arith.shrui");
}

static bool isFloatToInt(MlirOperation op) {
  return named(op, "arith.fptosi") || named(op, "arith.fptoui");
}

/// Whether `op` has a case upstream leaves undefined.
static bool needsGuard(MlirOperation op) {
  return isDivision(op) || isShift(op) || isFloatToInt(op);
}

static MlirValue emitGuarded(CoopvecBuilder *b, MlirOperation op,
                             const MlirValue *operands, MlirType resultType) {
  MlirStringRef ref = mlirIdentifierStr(mlirOperationGetName(op));
  char name[32];
  snprintf(name, sizeof(name), "%.*s", (int)ref.length, ref.data);
  if (isDivision(op))
    return guardedDivision(b, name, operands[0], operands[1]);
  if (isShift(op))
    return guardedShift(b, name, operands[0], operands[1]);
  return guardedFloatToInt(b, name, operands[0], resultType);
}

//===----------------------------------------------------------------------===//
// Rebuilding and moving
//===----------------------------------------------------------------------===//

static bool anyResultVarying(const CoopvecPerThread *p, MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
    if (coopvecValueIsVarying(p, mlirOperationGetResult(op, i)))
      return true;
  return false;
}

/// `op` rebuilt at `p->body` on `operands`, with the result types of its
/// lowered form and its attributes.
static MlirOperation rebuild(CoopvecPerThread *p, MlirOperation op,
                             const MlirValue *operands, bool varying) {
  intptr_t numResults = mlirOperationGetNumResults(op);
  intptr_t numAttributes = mlirOperationGetNumAttributes(op);
  MlirType *types = calloc((size_t)numResults + 1, sizeof(MlirType));
  MlirNamedAttribute *attributes =
      calloc((size_t)numAttributes + 1, sizeof(MlirNamedAttribute));
  if (!types || !attributes)
    abort();
  for (intptr_t i = 0; i < numResults; ++i) {
    types[i] = mlirValueGetType(mlirOperationGetResult(op, i));
    if (varying)
      types[i] = p->mapping->varyingType(p, types[i]);
  }
  for (intptr_t i = 0; i < numAttributes; ++i)
    attributes[i] = mlirOperationGetAttribute(op, i);
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  MlirOperationState state = mlirOperationStateGet(name, p->body.location);
  mlirOperationStateAddOperands(&state, mlirOperationGetNumOperands(op),
                                operands);
  mlirOperationStateAddResults(&state, numResults, types);
  mlirOperationStateAddAttributes(&state, numAttributes, attributes);
  MlirOperation built = mlirOperationCreate(&state);
  free(types);
  free(attributes);
  if (mlirOperationIsNull(built))
    abort(); // the same op on operands of the lowered types
  mlirBlockInsertOwnedOperationBefore(p->body.block, p->body.before, built);
  return built;
}

/// The lowered operands of `op`: varying forms (uniform ones broadcast)
/// for a varying op, the lowered uniform values otherwise.
static MlirValue *loweredOperands(CoopvecPerThread *p, MlirOperation op,
                                  bool varying) {
  intptr_t count = mlirOperationGetNumOperands(op);
  MlirValue *operands = coopvecAllocValues(count);
  for (intptr_t i = 0; i < count; ++i) {
    MlirValue operand = mlirOperationGetOperand(op, i);
    operands[i] = varying ? coopvecVaryingOperand(p, operand)
                          : coopvecScalarOperand(p, operand);
  }
  return operands;
}

/// A uniform op runs as it is: its operands are pointed at their lowered
/// forms (region arguments and results are new values) and it moves.
static void moveUniformOp(CoopvecPerThread *p, MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue operand = mlirOperationGetOperand(op, i);
    MlirValue lowered = coopvecScalarOperand(p, operand);
    if (!mlirValueEqual(lowered, operand))
      mlirOperationSetOperand(op, i, lowered);
  }
  // Where the body inserts: before an op, or at the end of its block (lane
  // refill's loop body, which has no op to move before).
  mlirOperationRemoveFromParent(op);
  coopvecInsertAt(&p->body, op);
}

bool coopvecLowerScalarOp(CoopvecPerThread *p, MlirOperation op) {
  bool varying = anyResultVarying(p, op);
  if (!varying && !needsGuard(op)) {
    moveUniformOp(p, op);
    return true;
  }
  MlirValue *operands = loweredOperands(p, op, varying);
  if (needsGuard(op)) {
    MlirType type = mlirValueGetType(mlirOperationGetResult(op, 0));
    if (varying)
      type = p->mapping->varyingType(p, type);
    coopvecMapValue(p, mlirOperationGetResult(op, 0),
                    emitGuarded(&p->body, op, operands, type));
  } else {
    MlirOperation built = rebuild(p, op, operands, true);
    for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
      coopvecMapValue(p, mlirOperationGetResult(op, i),
                      mlirOperationGetResult(built, i));
  }
  free(operands);
  return true;
}
