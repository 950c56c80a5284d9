//===- LowerMemory.c - Loads, stores, views and reduce_sum_accumulate -----===//
//
// Offsets and masks are uniform (no per-thread value can reach an index or
// an i1 vector), so a per-thread load reads the same N elements for every
// thread: one vector load, then each element broadcast to all lanes. A
// per-thread store to a uniform address is a race between threads; the CPU
// target writes the value of the highest-numbered valid thread, as if the
// threads had run one after another.
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToVector/Lowering.h"
#include "Support/Operation.h"

#include "Dialect/Verifier.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MlirType memrefElementType(MlirValue memref) {
  return mlirShapedTypeGetElementType(mlirValueGetType(memref));
}

static MlirType vectorOf(int64_t size, MlirType element) {
  return mlirVectorTypeGet(1, &size, element);
}

/// Element `i` of the uniform vector `vector`, broadcast to all lanes.
static MlirValue broadcastElement(Lowering *l, MlirValue vector, intptr_t i) {
  char position[64];
  snprintf(position, sizeof(position), "{static_position = array<i64: %lld>}",
           (long long)i);
  MlirType element = mlirShapedTypeGetElementType(mlirValueGetType(vector));
  MlirValue scalar =
      cvCreate1(&l->body, "vector.extract", 1, &vector, element, position);
  return cvBroadcastLanes(l, cvExtendToF32(l, scalar));
}

/// Per-thread padding: lanes whose mask bit `i` is clear take `padding`.
static MlirValue selectPadding(Lowering *l, MlirValue mask, intptr_t i,
                               MlirValue loaded, MlirValue padding) {
  char position[64];
  snprintf(position, sizeof(position), "{static_position = array<i64: %lld>}",
           (long long)i);
  MlirValue bit = cvCreate1(&l->body, "vector.extract", 1, &mask,
                            mlirIntegerTypeGet(l->ctx, 1), position);
  MlirValue operands[] = {bit, loaded, cvOperandLane(l, padding, 0)};
  return cvCreate1(&l->body, "arith.select", 3, operands, l->laneType, NULL);
}

/// masked_load: masked-off elements are not accessed (vector.maskedload);
/// a uniform padding is its pass-through value.
static MlirValue maskedLoad(Lowering *l, MlirOperation op, MlirType type) {
  MlirValue padding = mlirOperationGetOperand(op, 3);
  MlirValue passThrough;
  if (cvLookupLanes(l, padding)) {
    char zero[96];
    snprintf(zero, sizeof(zero), "dense<0.0> : vector<%lldx%s>",
             (long long)mlirShapedTypeGetDimSize(type, 0),
             mlirTypeIsAF16(mlirShapedTypeGetElementType(type)) ? "f16"
                                                                : "f32");
    passThrough = cvConstant(&l->entry, type, zero);
  } else {
    passThrough =
        cvCreate1(&l->body, "vector.broadcast", 1, &padding, type, NULL);
  }
  MlirValue operands[] = {mlirOperationGetOperand(op, 0),
                          mlirOperationGetOperand(op, 1),
                          mlirOperationGetOperand(op, 2), passThrough};
  return cvCreate1(&l->body, "vector.maskedload", 4, operands, type, NULL);
}

bool cvLowerLoad(Lowering *l, MlirOperation op) {
  MlirValue result = mlirOperationGetResult(op, 0);
  intptr_t size = cvVecSize(result);
  MlirType type = vectorOf(size, cvVecElementType(result));
  bool masked = coopvecOpIsNamed(op, "coopvec.masked_load");
  MlirValue loaded;
  if (masked)
    loaded = maskedLoad(l, op, type);
  else
    loaded = cvCreate1(&l->body, "vector.load", 2,
                       (MlirValue[]){mlirOperationGetOperand(op, 0),
                                     mlirOperationGetOperand(op, 1)},
                       type, NULL);
  bool perThreadPadding =
      masked && cvLookupLanes(l, mlirOperationGetOperand(op, 3)) != NULL;
  MlirValue *lanes = calloc((size_t)size, sizeof(MlirValue));
  if (!lanes)
    abort();
  for (intptr_t i = 0; i < size; ++i) {
    lanes[i] = broadcastElement(l, loaded, i);
    if (perThreadPadding)
      lanes[i] = selectPadding(l, mlirOperationGetOperand(op, 2), i, lanes[i],
                               mlirOperationGetOperand(op, 3));
  }
  cvMapLanes(l, result, size, lanes);
  free(lanes);
  return true;
}

/// The value of the last valid thread of the group in lane vector `lane`.
static MlirValue lastThreadValue(Lowering *l, MlirValue lane) {
  if (mlirValueIsNull(l->lastLane))
    l->lastLane =
        cvBinary(&l->body, "arith.subi", l->validLanes, cvIndexConstant(l, 1));
  MlirValue operands[] = {lane, l->lastLane};
  return cvCreate1(&l->body, "vector.extract", 2, operands, l->f32,
                   "{static_position = array<i64: -9223372036854775808>}");
}

bool cvLowerStore(Lowering *l, MlirOperation op) {
  MlirValue value = mlirOperationGetOperand(op, 0);
  MlirValue base = mlirOperationGetOperand(op, 1);
  MlirType element = memrefElementType(base);
  intptr_t size = cvVecSize(value);
  MlirValue *scalars = calloc((size_t)size, sizeof(MlirValue));
  if (!scalars)
    abort();
  for (intptr_t i = 0; i < size; ++i)
    scalars[i] = cvTruncateTo(l, lastThreadValue(l, cvOperandLane(l, value, i)),
                              element);
  MlirValue vector = cvCreate1(&l->body, "vector.from_elements", size, scalars,
                               vectorOf(size, element), NULL);
  free(scalars);
  MlirValue offset = mlirOperationGetOperand(op, 2);
  if (coopvecOpIsNamed(op, "coopvec.masked_store")) {
    MlirValue operands[] = {base, offset, mlirOperationGetOperand(op, 3),
                            vector};
    cvCreate(&l->body, "vector.maskedstore", 4, operands, 0, NULL, NULL);
  } else {
    MlirValue operands[] = {vector, base, offset};
    cvCreate(&l->body, "vector.store", 3, operands, 0, NULL, NULL);
  }
  return true;
}

bool cvLowerMatrixView(Lowering *l, MlirOperation op) {
  MlirType type = mlirValueGetType(mlirOperationGetResult(op, 0));
  MlirAttribute offset = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("offset"));
  MatrixView view = {.key = mlirOperationGetResult(op, 0),
                     .buffer = mlirOperationGetOperand(op, 0),
                     .rows = coopvecMatrixTypeGetRows(type),
                     .cols = coopvecMatrixTypeGetCols(type)};
  MlirType element = coopvecMatrixTypeGetElementType(type);
  int64_t elementBytes = mlirTypeIsAF16(element) ? 2 : 4;
  if (mlirAttributeIsNull(offset) || !mlirAttributeIsAInteger(offset) ||
      !coopvecMatrixTypeGetLayout(type, &view.layout) ||
      mlirIntegerAttrGetValueInt(offset) % elementBytes != 0) {
    coopvecEmitOpError(op, "needs an integer 'offset' attribute that is a "
                           "multiple of the element size");
    return false;
  }
  view.base = mlirIntegerAttrGetValueInt(offset) / elementBytes;
  cvMapMatrix(l, &view);
  return true;
}

bool cvLowerReduceSum(Lowering *l, MlirOperation op) {
  MlirValue value = mlirOperationGetOperand(op, 0);
  MlirValue gradient = mlirOperationGetOperand(op, 1);
  MlirValue offset = mlirOperationGetOperand(op, 2);
  MlirType element = memrefElementType(gradient);
  for (intptr_t i = 0; i < cvVecSize(value); ++i) {
    MlirValue sum = cvSumLanes(l, cvMaskLanes(l, cvOperandLane(l, value, i)));
    MlirValue index = i == 0 ? offset
                             : cvBinary(&l->body, "arith.addi", offset,
                                        cvIndexConstant(l, i));
    cvAtomicAdd(l, cvTruncateTo(l, sum, element), gradient, index);
  }
  return true;
}
