//===- Extent.c - Which elements of a memref a call accesses --------------===//
//
// Offsets are uniform (docs/execution-model.md): computed from constants
// and scalar arguments only, so for given scalar arguments each access of
// Signature.c is a fixed element range. They are evaluated here, exactly
// and with overflow checks (a wrapped offset must not look in bounds);
// what cannot be evaluated is reported, and running then refuses.
//
// Masked accesses touch only the elements whose mask bit is set; a mask
// built by arith.constant, vector.constant_mask or vector.create_mask is
// evaluated, any other counts as all set (the conservative choice).
//
//===----------------------------------------------------------------------===//

#include "ExecutionEngine/Engine.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdio.h>
#include <string.h>

enum { kMaxDepth = 128 };

typedef enum Eval { EvalOk, EvalUnknown, EvalOverflow } Eval;

typedef struct Evaluator {
  CoopvecFunction *function;
  MlirBlock entry;
  const CoopvecArray *args;
  CoopvecBuffer why; // what could not be evaluated, or what overflowed
} Evaluator;

static Eval unknown(Evaluator *e, const char *format, const char *detail) {
  coopvecBufferAppendf(&e->why, format, detail);
  return EvalUnknown;
}

/// Whether `value` fits the signed integer type `type` (index: 64 bits).
static bool fitsType(MlirType type, int64_t value) {
  if (!mlirTypeIsAInteger(type))
    return true;
  unsigned width = mlirIntegerTypeGetWidth(type);
  if (width == 0 || width >= 64)
    return true;
  int64_t limit = (int64_t)1 << (width - 1);
  return value >= -limit && value < limit;
}

static Eval evaluate(Evaluator *e, MlirValue value, int depth, int64_t *out);

static Eval argumentValue(Evaluator *e, MlirValue value, int64_t *out) {
  if (!mlirBlockEqual(mlirBlockArgumentGetOwner(value), e->entry))
    return unknown(e, "%s",
                   "it depends on a block argument of a nested "
                   "region");
  intptr_t index = mlirBlockArgumentGetArgNumber(value);
  const CoopvecValueInfo *info = &e->function->args[index];
  const CoopvecArray *arg = &e->args[index];
  if (info->kind != CoopvecValueKindScalar || info->dtype != CoopvecDTypeI64)
    return unknown(e,
                   "it depends on an argument of type %s, not an index "
                   "or i64 scalar",
                   info->type);
  if (!arg->data || arg->dtype != CoopvecDTypeI64 || arg->size != 1) {
    coopvecBufferAppendf(&e->why,
                         "it depends on argument #%ld, which is not given "
                         "as one i64 element",
                         (long)index);
    return EvalUnknown;
  }
  memcpy(out, arg->data, sizeof(*out));
  return EvalOk;
}

static Eval constantValue(Evaluator *e, MlirOperation op, int64_t *out) {
  MlirAttribute attr = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("value"));
  if (!mlirAttributeIsAInteger(attr))
    return unknown(e, "%s", "it depends on a non-integer arith.constant");
  *out = mlirIntegerAttrGetValueInt(attr);
  return EvalOk;
}

static Eval binaryValue(Evaluator *e, MlirOperation op, const char *name,
                        int depth, int64_t *out) {
  int64_t lhs, rhs;
  Eval status = evaluate(e, mlirOperationGetOperand(op, 0), depth, &lhs);
  if (status == EvalOk)
    status = evaluate(e, mlirOperationGetOperand(op, 1), depth, &rhs);
  if (status != EvalOk)
    return status;
  bool overflow =
      strcmp(name, "arith.addi") == 0   ? __builtin_add_overflow(lhs, rhs, out)
      : strcmp(name, "arith.subi") == 0 ? __builtin_sub_overflow(lhs, rhs, out)
                                        : __builtin_mul_overflow(lhs, rhs, out);
  if (!overflow)
    return EvalOk;
  coopvecBufferAppendf(&e->why, "%s of %lld and %lld overflows", name,
                       (long long)lhs, (long long)rhs);
  return EvalOverflow;
}

/// arith.index_castui: the operand's bits read as unsigned (zero-extended).
static Eval unsignedCast(Evaluator *e, MlirValue operand, int depth,
                         int64_t *out) {
  Eval status = evaluate(e, operand, depth, out);
  if (status != EvalOk || *out >= 0)
    return status;
  MlirType type = mlirValueGetType(operand);
  unsigned width =
      mlirTypeIsAInteger(type) ? mlirIntegerTypeGetWidth(type) : 64;
  if (width < 64) {
    *out += (int64_t)1 << width;
    return EvalOk;
  }
  coopvecBufferAppendf(&e->why,
                       "arith.index_castui of %lld gives an index above "
                       "2^63",
                       (long long)*out);
  return EvalOverflow;
}

static Eval resultValue(Evaluator *e, MlirValue value, int depth,
                        int64_t *out) {
  MlirOperation op = mlirOpResultGetOwner(value);
  MlirIdentifier ident = mlirOperationGetName(op);
  MlirStringRef nameRef = mlirIdentifierStr(ident);
  char name[64];
  snprintf(name, sizeof(name), "%.*s", (int)nameRef.length, nameRef.data);
  Eval status;
  if (strcmp(name, "arith.constant") == 0)
    status = constantValue(e, op, out);
  else if (strcmp(name, "arith.addi") == 0 || strcmp(name, "arith.subi") == 0 ||
           strcmp(name, "arith.muli") == 0)
    status = binaryValue(e, op, name, depth, out);
  else if (strcmp(name, "arith.index_cast") == 0)
    status = evaluate(e, mlirOperationGetOperand(op, 0), depth, out);
  else if (strcmp(name, "arith.index_castui") == 0)
    status = unsignedCast(e, mlirOperationGetOperand(op, 0), depth, out);
  else
    return unknown(e, "it depends on '%s', which the engine cannot evaluate",
                   name);
  if (status == EvalOk && !fitsType(mlirValueGetType(value), *out)) {
    coopvecBufferAppendf(&e->why, "%s gives %lld, which overflows its type",
                         name, (long long)*out);
    return EvalOverflow;
  }
  return status;
}

static Eval evaluate(Evaluator *e, MlirValue value, int depth, int64_t *out) {
  if (depth > kMaxDepth)
    return unknown(e, "%s", "an expression nested too deeply");
  if (mlirValueIsABlockArgument(value))
    return argumentValue(e, value, out);
  return resultValue(e, value, depth + 1, out);
}

//===----------------------------------------------------------------------===//
// Masks
//===----------------------------------------------------------------------===//

/// The set lanes [*first, *last) of a mask of `length` lanes; all lanes when
/// the mask cannot be evaluated. *first == *last when none is set.
static void maskRange(Evaluator *e, MlirValue mask, int64_t length,
                      int64_t *first, int64_t *last) {
  *first = 0;
  *last = length;
  if (mlirValueIsNull(mask) || !mlirValueIsAOpResult(mask))
    return;
  MlirOperation op = mlirOpResultGetOwner(mask);
  if (coopvecOpIsNamed(op, "vector.create_mask") &&
      mlirOperationGetNumOperands(op) == 1) {
    int64_t bound;
    Eval status = evaluate(e, mlirOperationGetOperand(op, 0), 0, &bound);
    coopvecBufferClear(&e->why);
    if (status == EvalOk)
      *last = bound < 0 ? 0 : bound < length ? bound : length;
    return;
  }
  MlirAttribute sizes = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("mask_dim_sizes"));
  if (coopvecOpIsNamed(op, "vector.constant_mask") &&
      mlirAttributeIsADenseI64Array(sizes) &&
      mlirDenseArrayGetNumElements(sizes) == 1) {
    int64_t bound = mlirDenseI64ArrayGetElement(sizes, 0);
    *last = bound < 0 ? 0 : bound < length ? bound : length;
    return;
  }
  MlirAttribute value = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("value"));
  if (!coopvecOpIsNamed(op, "arith.constant") ||
      !mlirAttributeIsADenseElements(value) ||
      mlirElementsAttrGetNumElements(value) != length)
    return;
  while (*first < length && !mlirDenseElementsAttrGetBoolValue(value, *first))
    ++*first;
  while (*last > *first && !mlirDenseElementsAttrGetBoolValue(value, *last - 1))
    --*last;
}

//===----------------------------------------------------------------------===//
// Accesses
//===----------------------------------------------------------------------===//

static void describeAccess(CoopvecBuffer *text, const CoopvecFunction *function,
                           intptr_t index, const CoopvecAccess *access) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(access->op));
  coopvecBufferAppendf(text, "argument #%ld (%s) of @%s: '%.*s' at ",
                       (long)index, function->args[index].type, function->name,
                       (int)name.length, name.data);
  coopvecAppendLocation(text, access->op);
}

static CoopvecStatus failAccess(Evaluator *e, intptr_t index,
                                const CoopvecAccess *access,
                                CoopvecStatus status, const char *what) {
  CoopvecBuffer *error = &e->function->engine->error;
  coopvecBufferClear(error);
  describeAccess(error, e->function, index, access);
  coopvecBufferAppendf(error, ": %s%s", what, coopvecBufferStr(&e->why));
  return status;
}

/// Adds the end of one access to `*extent`.
static CoopvecStatus extendByAccess(Evaluator *e, intptr_t index,
                                    const CoopvecAccess *access, bool forRun,
                                    int64_t *extent) {
  if (!access->known)
    return failAccess(e, index, access, CoopvecStatusUnknownAccess,
                      "the engine cannot bound the elements this use "
                      "accesses");
  if (access->runTime && forRun)
    return CoopvecStatusSuccess; // the lowered code checks it
  int64_t start = access->constantStart;
  Eval status = mlirValueIsNull(access->offset)
                    ? EvalOk
                    : evaluate(e, access->offset, 0, &start);
  if (status != EvalOk)
    return failAccess(e, index, access,
                      status == EvalOverflow ? CoopvecStatusOutOfBounds
                                             : CoopvecStatusUnknownAccess,
                      "its offset cannot be evaluated: ");
  int64_t first, last;
  maskRange(e, access->mask, access->length, &first, &last);
  if (first == last)
    return CoopvecStatusSuccess; // a mask without set bits: no access
  int64_t end;
  char what[160];
  if (__builtin_add_overflow(start, last, &end)) {
    snprintf(what, sizeof(what),
             "offset %lld + %lld elements overflows a 64-bit index",
             (long long)start, (long long)last);
    return failAccess(e, index, access, CoopvecStatusOutOfBounds, what);
  }
  if (start + first < 0) { // cannot overflow: first <= last
    snprintf(what, sizeof(what),
             "offset %lld is negative (elements before the buffer)",
             (long long)start);
    return failAccess(e, index, access, CoopvecStatusOutOfBounds, what);
  }
  if (end > *extent)
    *extent = end;
  return CoopvecStatusSuccess;
}

CoopvecStatus coopvecComputeExtent(CoopvecFunction *function, intptr_t index,
                                   const CoopvecArray *args, bool forRun,
                                   int64_t *extent) {
  Evaluator e = {
      function,
      mlirRegionGetFirstBlock(mlirOperationGetRegion(function->func, 0)),
      args,
      {0}};
  *extent = 0;
  const CoopvecAccessList *list = &function->accesses[index];
  CoopvecStatus status = CoopvecStatusSuccess;
  for (intptr_t i = 0; i < list->count && !status; ++i)
    status = extendByAccess(&e, index, &list->items[i], forRun, extent);
  coopvecBufferFree(&e.why);
  return status;
}

CoopvecStatus coopvecFunctionGetMemRefExtent(CoopvecFunction *function,
                                             intptr_t argIndex,
                                             const CoopvecArray *args,
                                             intptr_t numArgs,
                                             int64_t *extent) {
  if (!function || !extent)
    return CoopvecStatusInvalidArgument;
  CoopvecEngine *engine = function->engine;
  if (numArgs != function->numArgs || (numArgs && !args))
    return coopvecEngineFail(engine, CoopvecStatusInvalidArgument,
                             "@%s takes %ld argument(s), got %ld",
                             function->name, (long)function->numArgs,
                             (long)numArgs);
  if (argIndex < 0 || argIndex >= numArgs ||
      function->args[argIndex].kind != CoopvecValueKindMemRef)
    return coopvecEngineFail(engine, CoopvecStatusInvalidArgument,
                             "argument #%ld of @%s is not a memref",
                             (long)argIndex, function->name);
  return coopvecComputeExtent(function, argIndex, args, false, extent);
}
