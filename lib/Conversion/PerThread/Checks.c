//===- Checks.c - What per-thread code may hold ---------------------------===//
//
// The rules of docs/dialect.md, "Per-thread programs", checked on every op
// of a per-thread function (at any depth) before anything changes, so that
// a module lowers completely or not at all and every refusal is located at
// the op it concerns.
//
//===----------------------------------------------------------------------===//

#include "Conversion/PerThread/PerThread.h"

#include "Dialect/Accesses.h"
#include "Dialect/Verifier.h"
#include "IR/UpstreamBuilders.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <string.h>

typedef struct OpChecks {
  MlirOperation func;
  const char *passName;
  CoopvecTargetOpCheck targetCheck;
  CoopvecUniformity uniformity;
  bool ok;
} OpChecks;

static bool named(MlirOperation op, const char *name) {
  return coopvecOpIsNamed(op, name);
}

static bool nameIn(MlirOperation op, const char *const *names, size_t count) {
  for (size_t i = 0; i < count; ++i)
    if (named(op, names[i]))
      return true;
  return false;
}

static bool hasPrefix(MlirOperation op, const char *prefix) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  return name.length >= strlen(prefix) &&
         strncmp(name.data, prefix, strlen(prefix)) == 0;
}

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/// The ops per-thread code may apply to varying values.
static bool isVaryingOp(MlirOperation op) {
  static const char *const ops[] = {
      "arith.constant",  "arith.addf",       "arith.subf",
      "arith.mulf",      "arith.divf",       "arith.remf",
      "arith.negf",      "arith.maximumf",   "arith.minimumf",
      "arith.maxnumf",   "arith.minnumf",    "arith.cmpf",
      "arith.addi",      "arith.subi",       "arith.muli",
      "arith.divsi",     "arith.divui",      "arith.ceildivsi",
      "arith.ceildivui", "arith.floordivsi", "arith.remsi",
      "arith.remui",     "arith.maxsi",      "arith.maxui",
      "arith.minsi",     "arith.minui",      "arith.andi",
      "arith.ori",       "arith.xori",       "arith.shli",
      "arith.shrsi",     "arith.shrui",      "arith.cmpi",
      "arith.select",    "arith.extf",       "arith.truncf",
      "arith.extsi",     "arith.extui",      "arith.trunci",
      "arith.sitofp",    "arith.uitofp",     "arith.fptosi",
      "arith.fptoui",    "arith.index_cast", "arith.index_castui",
      "arith.bitcast",   "math.sin",         "math.cos",
      "math.exp",        "math.exp2",        "math.log",
      "math.log2",       "math.sqrt",        "math.rsqrt",
      "math.tanh",       "math.atan",        "math.atan2",
      "math.erf",        "math.powf",        "math.floor",
      "math.ceil",       "math.round",       "math.trunc",
      "math.absf",       "math.copysign",    "math.fma"};
  return nameIn(op, ops, COUNT(ops));
}

/// Uniform ops without regions that may run once per group of threads
/// (as before general per-thread code): no read-modify-write effects.
static bool isUniformOp(MlirOperation op) {
  static const char *const prefixes[] = {"arith.",  "math.",   "index.",
                                         "vector.", "memref.", "ub."};
  for (size_t i = 0; i < COUNT(prefixes); ++i)
    if (hasPrefix(op, prefixes[i]))
      return mlirOperationGetNumRegions(op) == 0;
  return named(op, "affine.apply") || named(op, "affine.min") ||
         named(op, "affine.max");
}

static bool isRegionOp(MlirOperation op) {
  return named(op, "scf.if") || named(op, "scf.for") ||
         named(op, "scf.while") || named(op, "scf.index_switch");
}

/// A scalar type varying values may have.
static bool isVaryingType(MlirType type) {
  if (mlirTypeIsAF16(type) || mlirTypeIsAF32(type) || mlirTypeIsAIndex(type))
    return true;
  if (!mlirTypeIsAInteger(type) || !mlirIntegerTypeIsSignless(type))
    return false;
  unsigned width = mlirIntegerTypeGetWidth(type);
  return width == 1 || width == 8 || width == 16 || width == 32 || width == 64;
}

static void fail(OpChecks *c) { c->ok = false; }

static bool isVarying(const OpChecks *c, MlirValue value) {
  return coopvecIsVarying(&c->uniformity, value);
}

static bool isArgument(const OpChecks *c, MlirValue value) {
  return mlirValueIsABlockArgument(value) &&
         mlirBlockEqual(
             mlirBlockArgumentGetOwner(value),
             mlirRegionGetFirstBlock(mlirOperationGetRegion(c->func, 0)));
}

static bool isLocalArray(MlirValue value) {
  return mlirValueIsAOpResult(value) &&
         named(mlirOpResultGetOwner(value), "memref.alloca");
}

//===----------------------------------------------------------------------===//
// coopvec ops
//===----------------------------------------------------------------------===//

/// The memref operand of a coopvec transfer or view is shared: not a local
/// array, nor chosen per thread (a matrix is the same for every thread,
/// which is what lets threads cooperate). A transfer checked at run time
/// (Memory.c) reads its buffer's size, which a memref argument has.
static void checkSharedBuffer(OpChecks *c, MlirOperation op, intptr_t index,
                              intptr_t offsetIndex) {
  MlirValue buffer = mlirOperationGetOperand(op, index);
  const char *why = NULL;
  if (isLocalArray(buffer))
    why = ": a local array is accessed with memref.load / memref.store";
  else if (isVarying(c, buffer))
    why = "; a matrix or a shared buffer is the same for every thread (a "
          "varying one is not supported)";
  else if (offsetIndex >= 0 && !isArgument(c, buffer)) {
    MlirValue offset = mlirOperationGetOperand(op, offsetIndex);
    if (isVarying(c, offset) || !coopvecAccessIsPrechecked(op, offset))
      why = " when its offset is computed per thread or inside control "
            "flow (the run-time bounds check reads the argument's size)";
  }
  if (!why)
    return;
  coopvecEmitOpError(
      op,
      "needs a memref argument of the function as its buffer (operand #%ld)%s",
      (long)index, why);
  fail(c);
}

static void checkCoopvecOp(OpChecks *c, MlirOperation op) {
  if (c->targetCheck && !c->targetCheck(op))
    fail(c);
  if (coopvecOpIs(op, CoopvecOpMatrixView))
    checkSharedBuffer(c, op, 0, -1);
  else if (coopvecOpIs(op, CoopvecOpLoad) ||
           coopvecOpIs(op, CoopvecOpMaskedLoad))
    checkSharedBuffer(c, op, 0, 1);
  else if (coopvecOpIs(op, CoopvecOpStore) ||
           coopvecOpIs(op, CoopvecOpMaskedStore) ||
           coopvecOpIs(op, CoopvecOpReduceSumAccumulate))
    checkSharedBuffer(c, op, 1, 2);
  intptr_t mask = coopvecOpIs(op, CoopvecOpMaskedLoad)    ? 2
                  : coopvecOpIs(op, CoopvecOpMaskedStore) ? 3
                                                          : -1;
  if (mask >= 0 && isVarying(c, mlirOperationGetOperand(op, mask))) {
    coopvecEmitOpError(op,
                       "has a varying mask (operand #%ld); masks must be "
                       "the same in every thread",
                       (long)mask);
    fail(c);
  }
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

static bool isAllowedElement(MlirType element, bool local) {
  if (mlirTypeIsAF16(element) || mlirTypeIsAF32(element))
    return true;
  if (local)
    return isVaryingType(element);
  if (!mlirTypeIsAInteger(element) || !mlirIntegerTypeIsSignless(element))
    return false;
  unsigned width = mlirIntegerTypeGetWidth(element);
  return width == 8 || width == 32 || width == 64;
}

static void checkAlloca(OpChecks *c, MlirOperation op) {
  MlirValue array = mlirOperationGetResult(op, 0);
  MlirType type = mlirValueGetType(array);
  if (mlirOperationGetNumOperands(op) != 0 ||
      !mlirShapedTypeHasStaticShape(type) ||
      !isAllowedElement(mlirShapedTypeGetElementType(type), true)) {
    coopvecEmitOpError(op, "must have a static shape and an element type of "
                           "f16, f32, i1, i8, i16, i32, i64 or index to be a "
                           "local array");
    fail(c);
    return;
  }
  for (MlirOpOperand use = mlirValueGetFirstUse(array);
       !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use)) {
    MlirOperation user = mlirOpOperandGetOwner(use);
    intptr_t number = mlirOpOperandGetOperandNumber(use);
    bool access =
        (named(user, "memref.load") && number == 0) ||
        ((named(user, "memref.store") || named(user, "memref.atomic_rmw")) &&
         number == 1);
    // A coopvec op's own check says what its buffer must be.
    if (access || coopvecLookupOp(user))
      continue;
    coopvecEmitOpError(user,
                       "uses a local array (operand #%ld); a local "
                       "array is only accessed with memref.load, "
                       "memref.store and memref.atomic_rmw",
                       (long)number);
    fail(c);
  }
}

static bool isAllowedAtomic(MlirOperation op) {
  MlirAttribute kind = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("kind"));
  static const int kinds[] = {COOPVEC_ATOMIC_ADDF,     COOPVEC_ATOMIC_ADDI,
                              COOPVEC_ATOMIC_MAXIMUMF, COOPVEC_ATOMIC_MINIMUMF,
                              COOPVEC_ATOMIC_MAXS,     COOPVEC_ATOMIC_MINS,
                              COOPVEC_ATOMIC_MAXU,     COOPVEC_ATOMIC_MINU};
  if (mlirAttributeIsNull(kind) || !mlirAttributeIsAInteger(kind))
    return false;
  for (size_t i = 0; i < COUNT(kinds); ++i)
    if (mlirIntegerAttrGetValueInt(kind) == kinds[i])
      return true;
  return false;
}

/// memref.load / store / atomic_rmw: on a memref argument (rank 1) or a
/// local array.
static void checkAccess(OpChecks *c, MlirOperation op, intptr_t memrefIndex) {
  MlirValue memref = mlirOperationGetOperand(op, memrefIndex);
  MlirType type = mlirValueGetType(memref);
  bool local = isLocalArray(memref);
  bool argument = isArgument(c, memref) && mlirShapedTypeGetRank(type) == 1 &&
                  isAllowedElement(mlirShapedTypeGetElementType(type), false);
  if (!local && !argument) {
    coopvecEmitOpError(op, "accesses a memref that is neither a rank-1 memref "
                           "argument of f16, f32, i8, i32 or i64 nor a local "
                           "array (memref.alloca)");
    fail(c);
    return;
  }
  if (named(op, "memref.atomic_rmw") && !isAllowedAtomic(op)) {
    coopvecEmitOpError(op,
                       "has a kind %s does not support (addf, addi, "
                       "maximumf, minimumf, maxs, mins, maxu, minu)",
                       c->passName);
    fail(c);
  }
}

/// One semantics on every engine: the reference interpreter and SPIR-V
/// storage buffers have no size to give (the GPU lowering reads sizes from
/// the status buffer only for bounds checks, which can be off).
static void refuseDim(OpChecks *c, MlirOperation op) {
  coopvecEmitOpError(op,
                     "reads the size of a memref, which per-thread code "
                     "cannot (%s); pass the size as an argument",
                     c->passName);
  fail(c);
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

static void checkRegionOp(OpChecks *c, MlirOperation op) {
  if (named(op, "scf.for") &&
      !mlirAttributeIsNull(mlirOperationGetAttributeByName(
          op, mlirStringRefCreateFromCString("unsignedCmp")))) {
    coopvecEmitOpError(op,
                       "compares unsigned (unsignedCmp); %s supports "
                       "signed scf.for bounds only",
                       c->passName);
    fail(c);
  }
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    MlirType type = mlirValueGetType(mlirOperationGetResult(op, i));
    if (!mlirTypeIsAMemRef(type) && !coopvecTypeIsAMatrix(type))
      continue;
    coopvecEmitOpError(op,
                       "yields a %s (result #%ld); control flow may "
                       "yield vecs and scalars only",
                       mlirTypeIsAMemRef(type) ? "memref" : "matrix", (long)i);
    fail(c);
  }
}

//===----------------------------------------------------------------------===//
// Other ops
//===----------------------------------------------------------------------===//

/// A local array's other uses are reported at the alloca (checkAlloca).
static bool anyVaryingOperand(const OpChecks *c, MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue operand = mlirOperationGetOperand(op, i);
    if (isVarying(c, operand) && !isLocalArray(operand))
      return true;
  }
  return false;
}

static void checkVaryingOp(OpChecks *c, MlirOperation op) {
  if (!isVaryingOp(op)) {
    coopvecEmitOpError(op,
                       "uses a varying value; %s supports varying "
                       "values in the arith and math ops that "
                       "docs/dialect.md lists ('Per-thread programs')",
                       c->passName);
    fail(c);
    return;
  }
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    MlirType type = mlirValueGetType(mlirOperationGetResult(op, i));
    if (isVaryingType(type))
      continue;
    CoopvecBuffer text = {0};
    mlirTypePrint(type, coopvecBufferCallback, &text);
    coopvecEmitOpError(op,
                       "makes a varying value of type %s; varying values "
                       "are scalars of f16, f32, i1, i8, i16, i32, i64 or "
                       "index",
                       coopvecBufferStr(&text));
    coopvecBufferFree(&text);
    fail(c);
  }
}

static void checkOtherOp(OpChecks *c, MlirOperation op) {
  if (named(op, "func.call")) {
    coopvecEmitOpError(op, "is a call that %s did not inline", c->passName);
    fail(c);
    return;
  }
  if (mlirOperationGetNumRegions(op) != 0) {
    coopvecEmitOpError(op, "cannot be lowered inside a per-thread function: "
                           "only coopvec, arith, math, index, vector, ub, "
                           "affine index, memref and scf (if, for, while, "
                           "index_switch) ops can");
    fail(c);
    return;
  }
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    MlirType type = mlirValueGetType(mlirOperationGetResult(op, i));
    if (!coopvecTypeIsAVec(type) && !coopvecTypeIsAMatrix(type))
      continue;
    coopvecEmitOpError(op,
                       "defines a coopvec value (result #%ld); only coopvec "
                       "ops can define them",
                       (long)i);
    fail(c);
    return;
  }
  bool varying = anyVaryingOperand(c, op);
  if (varying) {
    checkVaryingOp(c, op);
    return;
  }
  if (!isUniformOp(op)) {
    coopvecEmitOpError(op, "cannot be lowered inside a per-thread function: "
                           "only coopvec, arith, math, index, vector, ub, "
                           "affine index, memref and scf (if, for, while, "
                           "index_switch) ops can");
    fail(c);
  }
}

static MlirWalkResult checkOp(MlirOperation op, void *userData) {
  OpChecks *c = userData;
  if (mlirOperationEqual(op, c->func) || named(op, "func.return") ||
      named(op, "scf.yield") || named(op, "scf.condition"))
    return MlirWalkResultAdvance;
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r) {
    MlirBlock first = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
    if (!mlirBlockIsNull(first) &&
        !mlirBlockIsNull(mlirBlockGetNextInRegion(first))) {
      coopvecEmitOpError(op, "has a region of several blocks; per-thread "
                             "code has structured control flow (scf) only");
      fail(c);
      return MlirWalkResultSkip;
    }
  }
  if (coopvecLookupOp(op))
    checkCoopvecOp(c, op);
  else if (isRegionOp(op))
    checkRegionOp(c, op);
  else if (named(op, "memref.alloca"))
    checkAlloca(c, op);
  else if (named(op, "memref.dim"))
    refuseDim(c, op);
  else if (named(op, "memref.load"))
    checkAccess(c, op, 0);
  else if (named(op, "memref.store") || named(op, "memref.atomic_rmw"))
    checkAccess(c, op, 1);
  else
    checkOtherOp(c, op);
  return MlirWalkResultAdvance;
}

bool coopvecCheckPerThreadOps(MlirOperation func, const char *passName,
                              CoopvecTargetOpCheck targetCheck) {
  OpChecks c = {func, passName, targetCheck, {{0}}, true};
  coopvecAnalyzeUniformity(func, &c.uniformity);
  mlirOperationWalk(func, checkOp, &c, MlirWalkPreOrder);
  coopvecUniformityFree(&c.uniformity);
  return c.ok;
}
