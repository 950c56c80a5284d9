//===- UpstreamBuilders.c - Building upstream ops -------------------------===//

#include "IR/UpstreamBuilders.h"

#include "coopvec-c/Dialect.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdio.h>
#include <stdlib.h>

static MlirOperation mustBuild(CoopvecBuilder *b, const char *name,
                               intptr_t numOperands, const MlirValue *operands,
                               intptr_t numResults, const MlirType *types,
                               intptr_t numAttributes,
                               const MlirNamedAttribute *attributes) {
  MlirOperation op =
      coopvecBuildOperation(b, name, numOperands, operands, numResults, types,
                            numAttributes, attributes);
  if (mlirOperationIsNull(op)) {
    fprintf(stderr, "coopvec: internal error: cannot create '%s'\n", name);
    abort();
  }
  return op;
}

MlirValue coopvecBuild1(CoopvecBuilder *b, const char *name,
                        intptr_t numOperands, const MlirValue *operands,
                        MlirType resultType, intptr_t numAttributes,
                        const MlirNamedAttribute *attributes) {
  return mlirOperationGetResult(mustBuild(b, name, numOperands, operands, 1,
                                          &resultType, numAttributes,
                                          attributes),
                                0);
}

MlirOperation coopvecBuild0(CoopvecBuilder *b, const char *name,
                            intptr_t numOperands, const MlirValue *operands,
                            intptr_t numAttributes,
                            const MlirNamedAttribute *attributes) {
  return mustBuild(b, name, numOperands, operands, 0, NULL, numAttributes,
                   attributes);
}

MlirValue coopvecBuildBinaryOp(CoopvecBuilder *b, const char *name,
                               MlirValue lhs, MlirValue rhs) {
  MlirValue operands[] = {lhs, rhs};
  return coopvecBuild1(b, name, 2, operands, mlirValueGetType(lhs), 0, NULL);
}

MlirValue coopvecBuildUnaryOp(CoopvecBuilder *b, const char *name,
                              MlirValue x) {
  return coopvecBuild1(b, name, 1, &x, mlirValueGetType(x), 0, NULL);
}

MlirValue coopvecBuildTernaryOp(CoopvecBuilder *b, const char *name,
                                MlirValue x, MlirValue y, MlirValue z) {
  MlirValue operands[] = {x, y, z};
  return coopvecBuild1(b, name, 3, operands, mlirValueGetType(x), 0, NULL);
}

MlirNamedAttribute coopvecNamedAttr(MlirContext ctx, const char *name,
                                    MlirAttribute attr) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), attr);
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

static MlirValue buildConstant(CoopvecBuilder *b, MlirType type,
                               MlirAttribute value) {
  MlirNamedAttribute attr = coopvecNamedAttr(b->context, "value", value);
  return coopvecBuild1(b, "arith.constant", 0, NULL, type, 1, &attr);
}

MlirValue coopvecBuildIndexConstant(CoopvecBuilder *b, int64_t value) {
  MlirType index = mlirIndexTypeGet(b->context);
  return buildConstant(b, index, mlirIntegerAttrGet(index, value));
}

MlirValue coopvecBuildIntConstant(CoopvecBuilder *b, MlirType type,
                                  int64_t value) {
  return buildConstant(b, type, mlirIntegerAttrGet(type, value));
}

MlirValue coopvecBuildFloatConstant(CoopvecBuilder *b, MlirType type,
                                    double value) {
  // FloatAttr rounds the double to `type` to nearest, ties to even.
  return buildConstant(b, type,
                       mlirFloatAttrDoubleGet(b->context, type, value));
}

MlirValue coopvecBuildFloatSplatConstant(CoopvecBuilder *b, MlirType vectorType,
                                         double value) {
  MlirType element = mlirShapedTypeGetElementType(vectorType);
  MlirAttribute scalar = mlirFloatAttrDoubleGet(b->context, element, value);
  return buildConstant(b, vectorType,
                       mlirDenseElementsAttrSplatGet(vectorType, scalar));
}

MlirValue coopvecBuildIntSplatConstant(CoopvecBuilder *b, MlirType vectorType,
                                       int64_t value) {
  MlirType element = mlirShapedTypeGetElementType(vectorType);
  MlirAttribute scalar = mlirIntegerAttrGet(element, value);
  return buildConstant(b, vectorType,
                       mlirDenseElementsAttrSplatGet(vectorType, scalar));
}

MlirValue coopvecBuildI32VectorConstant(CoopvecBuilder *b, intptr_t count,
                                        const int32_t *values) {
  int64_t shape[] = {count};
  MlirType type =
      mlirVectorTypeGet(1, shape, mlirIntegerTypeGet(b->context, 32));
  return buildConstant(b, type,
                       mlirDenseElementsAttrInt32Get(type, count, values));
}

MlirValue coopvecBuildFloatConstantLike(CoopvecBuilder *b, MlirType type,
                                        double value) {
  return mlirTypeIsAVector(type)
             ? coopvecBuildFloatSplatConstant(b, type, value)
             : coopvecBuildFloatConstant(b, type, value);
}

MlirValue coopvecBuildIntConstantLike(CoopvecBuilder *b, MlirType type,
                                      int64_t value) {
  return mlirTypeIsAVector(type) ? coopvecBuildIntSplatConstant(b, type, value)
                                 : coopvecBuildIntConstant(b, type, value);
}

//===----------------------------------------------------------------------===//
// arith
//===----------------------------------------------------------------------===//

/// i1, or vector<... x i1> of the shape of `like`.
static MlirType boolLike(MlirContext ctx, MlirType like) {
  return coopvecWithElementType(like, mlirIntegerTypeGet(ctx, 1));
}

static MlirValue buildCompare(CoopvecBuilder *b, const char *name,
                              int predicate, MlirValue lhs, MlirValue rhs) {
  MlirValue operands[] = {lhs, rhs};
  MlirNamedAttribute attr = coopvecNamedAttr(
      b->context, "predicate",
      mlirIntegerAttrGet(mlirIntegerTypeGet(b->context, 64), predicate));
  return coopvecBuild1(b, name, 2, operands,
                       boolLike(b->context, mlirValueGetType(lhs)), 1, &attr);
}

MlirValue coopvecBuildCmpF(CoopvecBuilder *b, int predicate, MlirValue lhs,
                           MlirValue rhs) {
  return buildCompare(b, "arith.cmpf", predicate, lhs, rhs);
}

MlirValue coopvecBuildCmpI(CoopvecBuilder *b, int predicate, MlirValue lhs,
                           MlirValue rhs) {
  return buildCompare(b, "arith.cmpi", predicate, lhs, rhs);
}

MlirValue coopvecBuildSelect(CoopvecBuilder *b, MlirValue condition,
                             MlirValue trueValue, MlirValue falseValue) {
  MlirValue operands[] = {condition, trueValue, falseValue};
  return coopvecBuild1(b, "arith.select", 3, operands,
                       mlirValueGetType(trueValue), 0, NULL);
}

MlirValue coopvecBuildCast1(CoopvecBuilder *b, const char *name, MlirValue x,
                            MlirType type) {
  return coopvecBuild1(b, name, 1, &x, type, 0, NULL);
}

//===----------------------------------------------------------------------===//
// vector
//===----------------------------------------------------------------------===//

MlirValue coopvecBuildBroadcast(CoopvecBuilder *b, MlirValue scalar,
                                MlirType vectorType) {
  return coopvecBuild1(b, "vector.broadcast", 1, &scalar, vectorType, 0, NULL);
}

static MlirValue buildExtract(CoopvecBuilder *b, MlirValue vector,
                              intptr_t numDynamic, MlirValue position,
                              int64_t staticPosition) {
  MlirValue operands[] = {vector, position};
  MlirNamedAttribute attr =
      coopvecNamedAttr(b->context, "static_position",
                       mlirDenseI64ArrayGet(b->context, 1, &staticPosition));
  return coopvecBuild1(b, "vector.extract", 1 + numDynamic, operands,
                       mlirShapedTypeGetElementType(mlirValueGetType(vector)),
                       1, &attr);
}

MlirValue coopvecBuildExtract(CoopvecBuilder *b, MlirValue vector,
                              int64_t position) {
  return buildExtract(b, vector, 0, (MlirValue){NULL}, position);
}

MlirValue coopvecBuildExtractDynamic(CoopvecBuilder *b, MlirValue vector,
                                     MlirValue position) {
  // INT64_MIN is ShapedType::kDynamic: the position is the operand.
  return buildExtract(b, vector, 1, position, INT64_MIN);
}

MlirValue coopvecBuildInsertDynamic(CoopvecBuilder *b, MlirValue scalar,
                                    MlirValue vector, MlirValue position) {
  MlirValue operands[] = {scalar, vector, position};
  int64_t dynamic = INT64_MIN; // ShapedType::kDynamic
  MlirNamedAttribute attr =
      coopvecNamedAttr(b->context, "static_position",
                       mlirDenseI64ArrayGet(b->context, 1, &dynamic));
  return coopvecBuild1(b, "vector.insert", 3, operands,
                       mlirValueGetType(vector), 1, &attr);
}

/// An attribute the C API has no constructor for, parsed from its
/// spelling (a fixed string: failure is a bug).
static MlirAttribute parseFixedAttr(MlirContext ctx, const char *text) {
  MlirAttribute attr =
      mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString(text));
  if (mlirAttributeIsNull(attr)) {
    fprintf(stderr, "coopvec: internal error: cannot parse '%s'\n", text);
    abort();
  }
  return attr;
}

MlirValue coopvecBuildReduceAdd(CoopvecBuilder *b, MlirValue vector) {
  MlirNamedAttribute attrs[] = {
      coopvecNamedAttr(b->context, "kind",
                       parseFixedAttr(b->context, "#vector.kind<add>")),
      // The order in which lanes are summed is unspecified (the ops
      // accumulate "atomically across threads"): a tree reduction is fine.
      coopvecNamedAttr(b->context, "fastmath",
                       parseFixedAttr(b->context, "#arith.fastmath<reassoc>")),
  };
  return coopvecBuild1(b, "vector.reduction", 1, &vector,
                       mlirShapedTypeGetElementType(mlirValueGetType(vector)),
                       2, attrs);
}

MlirValue coopvecBuildCreateMask(CoopvecBuilder *b, int64_t count,
                                 MlirValue bound) {
  MlirType type =
      mlirVectorTypeGet(1, &count, mlirIntegerTypeGet(b->context, 1));
  return coopvecBuild1(b, "vector.create_mask", 1, &bound, type, 0, NULL);
}

//===----------------------------------------------------------------------===//
// memref
//===----------------------------------------------------------------------===//

MlirValue coopvecBuildAlloca(CoopvecBuilder *b, MlirType type,
                             int64_t alignment) {
  int32_t segments[] = {0, 0};
  MlirNamedAttribute attrs[] = {
      coopvecNamedAttr(
          b->context, "alignment",
          mlirIntegerAttrGet(mlirIntegerTypeGet(b->context, 64), alignment)),
      coopvecNamedAttr(b->context, "operandSegmentSizes",
                       mlirDenseI32ArrayGet(b->context, 2, segments)),
  };
  return coopvecBuild1(b, "memref.alloca", 0, NULL, type, 2, attrs);
}

MlirAttribute coopvecAtomicKindAttr(MlirContext ctx, int kind) {
  return mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), kind);
}

MlirValue coopvecBuildAtomic(CoopvecBuilder *b, MlirAttribute kind,
                             MlirValue value, MlirValue buffer,
                             MlirValue index) {
  MlirValue operands[] = {value, buffer, index};
  MlirNamedAttribute attr = coopvecNamedAttr(b->context, "kind", kind);
  return coopvecBuild1(b, "memref.atomic_rmw", 3, operands,
                       mlirShapedTypeGetElementType(mlirValueGetType(buffer)),
                       1, &attr);
}

void coopvecBuildAtomicAdd(CoopvecBuilder *b, MlirValue value, MlirValue buffer,
                           MlirValue index) {
  coopvecBuildAtomic(b, coopvecAtomicKindAttr(b->context, COOPVEC_ATOMIC_ADDF),
                     value, buffer, index);
}

MlirValue coopvecBuildMemrefLoad(CoopvecBuilder *b, MlirValue memref,
                                 MlirValue index) {
  MlirValue operands[] = {memref, index};
  return coopvecBuild1(b, "memref.load", 2, operands,
                       mlirShapedTypeGetElementType(mlirValueGetType(memref)),
                       0, NULL);
}

void coopvecBuildMemrefStore(CoopvecBuilder *b, MlirValue value,
                             MlirValue memref, MlirValue index) {
  MlirValue operands[] = {value, memref, index};
  coopvecBuild0(b, "memref.store", 3, operands, 0, NULL);
}

//===----------------------------------------------------------------------===//
// scf.for
//===----------------------------------------------------------------------===//

void coopvecInsertAt(CoopvecBuilder *b, MlirOperation op) {
  if (b->rewriter.ptr)
    mlirRewriterBaseInsert(b->rewriter, op);
  else if (mlirOperationIsNull(b->before))
    mlirBlockAppendOwnedOperation(b->block, op);
  else
    mlirBlockInsertOwnedOperationBefore(b->block, b->before, op);
}

CoopvecLoop coopvecBuildFor(CoopvecBuilder *b, MlirValue lower, MlirValue upper,
                            MlirValue step, intptr_t numInits,
                            const MlirValue *inits) {
  intptr_t numArgs = 1 + numInits;
  MlirType *types = calloc((size_t)numArgs, sizeof(MlirType));
  MlirLocation *locs = calloc((size_t)numArgs, sizeof(MlirLocation));
  MlirValue *operands = calloc((size_t)(3 + numInits), sizeof(MlirValue));
  if (!types || !locs || !operands)
    abort();
  types[0] = mlirValueGetType(lower);
  locs[0] = b->location;
  operands[0] = lower;
  operands[1] = upper;
  operands[2] = step;
  for (intptr_t i = 0; i < numInits; ++i) {
    types[1 + i] = mlirValueGetType(inits[i]);
    locs[1 + i] = b->location;
    operands[3 + i] = inits[i];
  }
  MlirBlock block = mlirBlockCreate(numArgs, types, locs);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, block);
  MlirOperationState state = mlirOperationStateGet(
      mlirStringRefCreateFromCString("scf.for"), b->location);
  mlirOperationStateAddOperands(&state, 3 + numInits, operands);
  mlirOperationStateAddResults(&state, numInits, types + 1);
  mlirOperationStateAddOwnedRegions(&state, 1, &region);
  MlirOperation op = mlirOperationCreate(&state);
  free(types);
  free(locs);
  free(operands);
  if (mlirOperationIsNull(op))
    abort(); // the operands are index values and the inits match the types
  coopvecInsertAt(b, op);
  CoopvecLoop loop = {op, mlirBlockGetArgument(block, 0), block,
                      coopvecBuilderAtEnd(block, b->location)};
  return loop;
}

MlirValue coopvecLoopIterArg(const CoopvecLoop *loop, intptr_t i) {
  return mlirBlockGetArgument(loop->block, 1 + i);
}

void coopvecSetNoUnroll(CoopvecLoop *loop) {
  MlirContext ctx = mlirOperationGetContext(loop->op);
  mlirOperationSetDiscardableAttributeByName(
      loop->op, mlirStringRefCreateFromCString("llvm.loop_annotation"),
      parseFixedAttr(ctx, "#llvm.loop_annotation<unroll = "
                          "#llvm.loop_unroll<disable = true>>"));
}

void coopvecFinishFor(CoopvecLoop *loop, intptr_t numValues,
                      const MlirValue *values) {
  coopvecBuild0(&loop->body, "scf.yield", numValues, values, 0, NULL);
}

//===----------------------------------------------------------------------===//
// scf.if
//===----------------------------------------------------------------------===//

CoopvecIf coopvecBuildIf(CoopvecBuilder *b, MlirValue condition) {
  MlirBlock block = mlirBlockCreate(0, NULL, NULL);
  MlirRegion regions[] = {mlirRegionCreate(), mlirRegionCreate()};
  mlirRegionAppendOwnedBlock(regions[0], block);
  MlirOperationState state = mlirOperationStateGet(
      mlirStringRefCreateFromCString("scf.if"), b->location);
  mlirOperationStateAddOperands(&state, 1, &condition);
  mlirOperationStateAddOwnedRegions(&state, 2, regions);
  MlirOperation op = mlirOperationCreate(&state);
  if (mlirOperationIsNull(op))
    abort(); // the condition is an i1
  coopvecInsertAt(b, op);
  CoopvecIf branch = {op, coopvecBuilderAtEnd(block, b->location)};
  return branch;
}

void coopvecFinishIf(CoopvecIf *branch) {
  coopvecBuild0(&branch->then, "scf.yield", 0, NULL, 0, NULL);
}

CoopvecIfElse coopvecBuildIfElse(CoopvecBuilder *b, MlirValue condition,
                                 intptr_t numResults, const MlirType *types) {
  MlirBlock blocks[] = {mlirBlockCreate(0, NULL, NULL),
                        mlirBlockCreate(0, NULL, NULL)};
  MlirRegion regions[] = {mlirRegionCreate(), mlirRegionCreate()};
  for (int i = 0; i < 2; ++i)
    mlirRegionAppendOwnedBlock(regions[i], blocks[i]);
  MlirOperationState state = mlirOperationStateGet(
      mlirStringRefCreateFromCString("scf.if"), b->location);
  mlirOperationStateAddOperands(&state, 1, &condition);
  mlirOperationStateAddResults(&state, numResults, types);
  mlirOperationStateAddOwnedRegions(&state, 2, regions);
  MlirOperation op = mlirOperationCreate(&state);
  if (mlirOperationIsNull(op))
    abort(); // the condition is an i1
  coopvecInsertAt(b, op);
  CoopvecIfElse branch = {op, numResults,
                          coopvecBuilderAtEnd(blocks[0], b->location),
                          coopvecBuilderAtEnd(blocks[1], b->location)};
  return branch;
}

void coopvecFinishIfElse(CoopvecIfElse *branch, const MlirValue *thenValues,
                         const MlirValue *elseValues) {
  coopvecBuild0(&branch->then, "scf.yield", branch->numResults, thenValues, 0,
                NULL);
  coopvecBuild0(&branch->otherwise, "scf.yield", branch->numResults, elseValues,
                0, NULL);
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

MlirType coopvecWithElementType(MlirType type, MlirType element) {
  if (!mlirTypeIsAVector(type))
    return element;
  intptr_t rank = mlirShapedTypeGetRank(type);
  int64_t *shape = calloc((size_t)rank + 1, sizeof(int64_t));
  bool *scalable = calloc((size_t)rank + 1, sizeof(bool));
  if (!shape || !scalable)
    abort();
  for (intptr_t i = 0; i < rank; ++i) {
    shape[i] = mlirShapedTypeGetDimSize(type, i);
    scalable[i] = mlirVectorTypeIsDimScalable(type, i);
  }
  // Any rank and scalable dimensions: coopvec-expand-math keeps the shape
  // of whatever vectors the user's math ops have.
  MlirType result =
      mlirVectorTypeIsScalable(type)
          ? mlirVectorTypeGetScalable(rank, shape, scalable, element)
          : mlirVectorTypeGet(rank, shape, element);
  free(shape);
  free(scalable);
  return result;
}

MlirType coopvecElementTypeOf(MlirType type) {
  return mlirTypeIsAVector(type) ? mlirShapedTypeGetElementType(type) : type;
}

typedef bool (*TypePredicate)(MlirType);

/// Whether `type`, or the element type of a vec, matrix or shaped type, is
/// what `is` accepts.
static bool elementIs(MlirType type, TypePredicate is) {
  if (coopvecTypeIsAVec(type))
    type = coopvecVecTypeGetElementType(type);
  else if (coopvecTypeIsAMatrix(type))
    type = coopvecMatrixTypeGetElementType(type);
  else if (mlirTypeIsAShaped(type))
    type = mlirShapedTypeGetElementType(type);
  return is(type);
}

static bool functionTypeHolds(MlirOperation op, TypePredicate is) {
  MlirAttribute attr = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("function_type"));
  if (mlirAttributeIsNull(attr) || !mlirAttributeIsAType(attr))
    return false;
  MlirType type = mlirTypeAttrGetValue(attr);
  if (!mlirTypeIsAFunction(type))
    return false;
  bool found = false;
  for (intptr_t i = 0; !found && i < mlirFunctionTypeGetNumInputs(type); ++i)
    found = elementIs(mlirFunctionTypeGetInput(type, i), is);
  for (intptr_t i = 0; !found && i < mlirFunctionTypeGetNumResults(type); ++i)
    found = elementIs(mlirFunctionTypeGetResult(type, i), is);
  return found;
}

typedef struct TypeSearch {
  TypePredicate is;
  bool found;
} TypeSearch;

static MlirWalkResult findType(MlirOperation op, void *userData) {
  TypeSearch *search = userData;
  search->found = functionTypeHolds(op, search->is);
  for (intptr_t i = 0; !search->found && i < mlirOperationGetNumResults(op);
       ++i)
    search->found =
        elementIs(mlirValueGetType(mlirOperationGetResult(op, i)), search->is);
  return search->found ? MlirWalkResultInterrupt : MlirWalkResultAdvance;
}

static bool holdsType(MlirOperation op, TypePredicate is) {
  TypeSearch search = {.is = is, .found = false};
  mlirOperationWalk(op, findType, &search, MlirWalkPreOrder);
  return search.found;
}

bool coopvecHoldsF64(MlirOperation op) { return holdsType(op, mlirTypeIsAF64); }

bool coopvecHoldsF16(MlirOperation op) { return holdsType(op, mlirTypeIsAF16); }
