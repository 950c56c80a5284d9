//===- Builders.c - Building coopvec IR from C ----------------------------===//

#include "coopvec-c/Builders.h"

#include "coopvec-c/Dialect.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

CoopvecBuilder coopvecBuilderAtEnd(MlirBlock block, MlirLocation location) {
  CoopvecBuilder builder = {
      mlirLocationGetContext(location), location, block, {NULL}, {NULL}};
  return builder;
}

CoopvecBuilder coopvecBuilderBefore(MlirOperation op, MlirLocation location) {
  CoopvecBuilder builder = {mlirLocationGetContext(location),
                            location,
                            mlirOperationGetBlock(op),
                            op,
                            {NULL}};
  return builder;
}

CoopvecBuilder coopvecBuilderFromRewriter(MlirRewriterBase rewriter,
                                          MlirLocation location) {
  CoopvecBuilder builder = {
      mlirLocationGetContext(location), location, {NULL}, {NULL}, rewriter};
  return builder;
}

MlirOperation coopvecBuildOperation(
    CoopvecBuilder *builder, const char *name, intptr_t numOperands,
    const MlirValue *operands, intptr_t numResults, const MlirType *resultTypes,
    intptr_t numAttributes, const MlirNamedAttribute *attributes) {
  MlirOperationState state = mlirOperationStateGet(
      mlirStringRefCreateFromCString(name), builder->location);
  mlirOperationStateAddOperands(&state, numOperands, operands);
  mlirOperationStateAddResults(&state, numResults, resultTypes);
  mlirOperationStateAddAttributes(&state, numAttributes, attributes);
  MlirOperation op = mlirOperationCreate(&state);
  if (mlirOperationIsNull(op))
    return op;
  if (builder->rewriter.ptr)
    return mlirRewriterBaseInsert(builder->rewriter, op);
  if (mlirOperationIsNull(builder->before))
    mlirBlockAppendOwnedOperation(builder->block, op);
  else
    mlirBlockInsertOwnedOperationBefore(builder->block, builder->before, op);
  return op;
}

static MlirValue nullValue(void) { return (MlirValue){NULL}; }

static MlirValue firstResult(MlirOperation op) {
  return mlirOperationIsNull(op) ? nullValue() : mlirOperationGetResult(op, 0);
}

/// `coopvec.<mnemonic>(operands) -> resultType` with no attributes.
static MlirValue buildCoopvec(CoopvecBuilder *builder, const char *name,
                              intptr_t numOperands, const MlirValue *operands,
                              MlirType resultType) {
  if (mlirTypeIsNull(resultType))
    return nullValue();
  for (intptr_t i = 0; i < numOperands; ++i)
    if (mlirValueIsNull(operands[i]))
      return nullValue();
  return firstResult(coopvecBuildOperation(builder, name, numOperands, operands,
                                           1, &resultType, 0, NULL));
}

static bool isVec(MlirValue value) {
  return !mlirValueIsNull(value) && coopvecTypeIsAVec(mlirValueGetType(value));
}

static MlirType typeOf(MlirValue value) { return mlirValueGetType(value); }

/// vec<size, element of `like`>.
static MlirType vecLike(MlirValue like, int64_t size) {
  return coopvecVecTypeGet(mlirTypeGetContext(typeOf(like)), size,
                           coopvecVecTypeGetElementType(typeOf(like)));
}

//===----------------------------------------------------------------------===//
// Construction and unpacking
//===----------------------------------------------------------------------===//

MlirValue coopvecBuildFromElements(CoopvecBuilder *builder, intptr_t count,
                                   const MlirValue *elements) {
  if (count < 1 || mlirValueIsNull(elements[0]))
    return nullValue();
  MlirType vecType =
      coopvecVecTypeGet(builder->context, count, typeOf(elements[0]));
  return buildCoopvec(builder, "coopvec.from_elements", count, elements,
                      vecType);
}

MlirValue coopvecBuildSplat(CoopvecBuilder *builder, MlirType vecType,
                            MlirValue scalar) {
  if (!coopvecTypeIsAVec(vecType))
    return nullValue();
  return buildCoopvec(builder, "coopvec.splat", 1, &scalar, vecType);
}

MlirOperation coopvecBuildUnpack(CoopvecBuilder *builder, MlirValue vec) {
  if (!isVec(vec))
    return (MlirOperation){NULL};
  int64_t size = coopvecVecTypeGetSize(typeOf(vec));
  MlirType element = coopvecVecTypeGetElementType(typeOf(vec));
  MlirType *types = malloc(sizeof(MlirType) * (size_t)size);
  if (!types)
    abort();
  for (int64_t i = 0; i < size; ++i)
    types[i] = element;
  MlirOperation op = coopvecBuildOperation(builder, "coopvec.unpack", 1, &vec,
                                           size, types, 0, NULL);
  free(types);
  return op;
}

MlirValue coopvecBuildFromVector(CoopvecBuilder *builder, MlirValue vector) {
  if (mlirValueIsNull(vector) || !mlirTypeIsAVector(typeOf(vector)) ||
      mlirShapedTypeGetRank(typeOf(vector)) != 1)
    return nullValue();
  MlirType vecType = coopvecVecTypeGet(
      builder->context, mlirShapedTypeGetDimSize(typeOf(vector), 0),
      mlirShapedTypeGetElementType(typeOf(vector)));
  return buildCoopvec(builder, "coopvec.from_vector", 1, &vector, vecType);
}

MlirValue coopvecBuildToVector(CoopvecBuilder *builder, MlirValue vec) {
  if (!isVec(vec))
    return nullValue();
  int64_t size = coopvecVecTypeGetSize(typeOf(vec));
  MlirType vectorType =
      mlirVectorTypeGet(1, &size, coopvecVecTypeGetElementType(typeOf(vec)));
  return buildCoopvec(builder, "coopvec.to_vector", 1, &vec, vectorType);
}

MlirValue coopvecBuildCast(CoopvecBuilder *builder, MlirValue vec,
                           MlirType element) {
  if (!isVec(vec))
    return nullValue();
  MlirType vecType = coopvecVecTypeGet(
      builder->context, coopvecVecTypeGetSize(typeOf(vec)), element);
  return buildCoopvec(builder, "coopvec.cast", 1, &vec, vecType);
}

//===----------------------------------------------------------------------===//
// Transfer
//===----------------------------------------------------------------------===//

MlirValue coopvecBuildLoad(CoopvecBuilder *builder, MlirType vecType,
                           MlirValue base, MlirValue offset) {
  if (!coopvecTypeIsAVec(vecType))
    return nullValue();
  MlirValue operands[] = {base, offset};
  return buildCoopvec(builder, "coopvec.load", 2, operands, vecType);
}

MlirValue coopvecBuildMaskedLoad(CoopvecBuilder *builder, MlirType vecType,
                                 MlirValue base, MlirValue offset,
                                 MlirValue mask, MlirValue padding) {
  if (!coopvecTypeIsAVec(vecType))
    return nullValue();
  MlirValue operands[] = {base, offset, mask, padding};
  return buildCoopvec(builder, "coopvec.masked_load", 4, operands, vecType);
}

/// A coopvec op without results; null if an operand is null.
static MlirOperation buildEffect(CoopvecBuilder *builder, const char *name,
                                 intptr_t numOperands,
                                 const MlirValue *operands) {
  for (intptr_t i = 0; i < numOperands; ++i)
    if (mlirValueIsNull(operands[i]))
      return (MlirOperation){NULL};
  return coopvecBuildOperation(builder, name, numOperands, operands, 0, NULL, 0,
                               NULL);
}

MlirOperation coopvecBuildStore(CoopvecBuilder *builder, MlirValue value,
                                MlirValue base, MlirValue offset) {
  MlirValue operands[] = {value, base, offset};
  return buildEffect(builder, "coopvec.store", 3, operands);
}

MlirOperation coopvecBuildMaskedStore(CoopvecBuilder *builder, MlirValue value,
                                      MlirValue base, MlirValue offset,
                                      MlirValue mask) {
  MlirValue operands[] = {value, base, offset, mask};
  return buildEffect(builder, "coopvec.masked_store", 4, operands);
}

MlirValue coopvecBuildMatrixView(CoopvecBuilder *builder, MlirValue buffer,
                                 int64_t byteOffset, MlirType matrixType) {
  if (mlirValueIsNull(buffer) || !coopvecTypeIsAMatrix(matrixType))
    return nullValue();
  MlirContext ctx = builder->context;
  MlirNamedAttribute offset = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("offset")),
      mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), byteOffset));
  return firstResult(coopvecBuildOperation(
      builder, "coopvec.matrix_view", 1, &buffer, 1, &matrixType, 1, &offset));
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// An elementwise op whose result has the type of its vec operand `lhs`.
static MlirValue buildElementwise(CoopvecBuilder *builder, const char *name,
                                  intptr_t numOperands,
                                  const MlirValue *operands) {
  if (!isVec(operands[0]))
    return nullValue();
  return buildCoopvec(builder, name, numOperands, operands,
                      typeOf(operands[0]));
}

#define COOPVEC_BINARY_BUILDER(Name, name)                                     \
  MlirValue coopvecBuild##Name(CoopvecBuilder *builder, MlirValue lhs,         \
                               MlirValue rhs) {                                \
    MlirValue operands[] = {lhs, rhs};                                         \
    return buildElementwise(builder, "coopvec." name, 2, operands);            \
  }
COOPVEC_BINARY_BUILDER(Add, "add")
COOPVEC_BINARY_BUILDER(Sub, "sub")
COOPVEC_BINARY_BUILDER(Mul, "mul")
COOPVEC_BINARY_BUILDER(Min, "min")
COOPVEC_BINARY_BUILDER(Max, "max")
COOPVEC_BINARY_BUILDER(Step, "step")
#undef COOPVEC_BINARY_BUILDER

MlirValue coopvecBuildFma(CoopvecBuilder *builder, MlirValue a, MlirValue b,
                          MlirValue c) {
  MlirValue operands[] = {a, b, c};
  return buildElementwise(builder, "coopvec.fma", 3, operands);
}

#define COOPVEC_UNARY_BUILDER(Name, name)                                      \
  MlirValue coopvecBuild##Name(CoopvecBuilder *builder, MlirValue x) {         \
    return buildElementwise(builder, "coopvec." name, 1, &x);                  \
  }
COOPVEC_UNARY_BUILDER(Neg, "neg")
COOPVEC_UNARY_BUILDER(Exp2, "exp2")
COOPVEC_UNARY_BUILDER(Log2, "log2")
COOPVEC_UNARY_BUILDER(Tanh, "tanh")
#undef COOPVEC_UNARY_BUILDER

//===----------------------------------------------------------------------===//
// Matrix-vector product and training
//===----------------------------------------------------------------------===//

MlirValue coopvecBuildMatvec(CoopvecBuilder *builder, MlirValue matrix,
                             MlirValue input, MlirValue bias, bool transpose) {
  if (mlirValueIsNull(matrix) || !coopvecTypeIsAMatrix(typeOf(matrix)) ||
      !isVec(input))
    return nullValue();
  MlirType matrixType = typeOf(matrix);
  int64_t outputs = transpose ? coopvecMatrixTypeGetCols(matrixType)
                              : coopvecMatrixTypeGetRows(matrixType);
  MlirType resultType = vecLike(input, outputs);
  MlirValue operands[] = {matrix, input, bias};
  intptr_t numOperands = mlirValueIsNull(bias) ? 2 : 3;
  MlirNamedAttribute attribute = mlirNamedAttributeGet(
      mlirIdentifierGet(builder->context,
                        mlirStringRefCreateFromCString("transpose")),
      mlirUnitAttrGet(builder->context));
  if (mlirTypeIsNull(resultType))
    return nullValue();
  return firstResult(
      coopvecBuildOperation(builder, "coopvec.matvec", numOperands, operands, 1,
                            &resultType, transpose ? 1 : 0, &attribute));
}

MlirOperation coopvecBuildOuterProductAccumulate(CoopvecBuilder *builder,
                                                 MlirValue lhs, MlirValue rhs,
                                                 MlirValue gradient) {
  MlirValue operands[] = {lhs, rhs, gradient};
  return buildEffect(builder, "coopvec.outer_product_accumulate", 3, operands);
}

MlirOperation coopvecBuildReduceSumAccumulate(CoopvecBuilder *builder,
                                              MlirValue value,
                                              MlirValue gradient,
                                              MlirValue offset) {
  MlirValue operands[] = {value, gradient, offset};
  return buildEffect(builder, "coopvec.reduce_sum_accumulate", 3, operands);
}
