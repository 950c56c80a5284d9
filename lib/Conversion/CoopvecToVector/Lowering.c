//===- Lowering.c - State and small helpers of convert-coopvec-to-vector --===//

#include "Conversion/CoopvecToVector/Lowering.h"
#include "Support/Alloc.h"

#include <mlir-c/BuiltinTypes.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cvMapLanes(Lowering *l, MlirValue key, intptr_t count,
                const MlirValue *lanes) {
  l->values = coopvecGrowArray(l->values, &l->valuesCapacity, l->numValues + 1,
                               sizeof(LaneValue));
  LaneValue *entry = &l->values[l->numValues++];
  entry->key = key;
  entry->count = count;
  entry->lanes = malloc((size_t)count * sizeof(MlirValue));
  if (!entry->lanes)
    abort();
  memcpy(entry->lanes, lanes, (size_t)count * sizeof(MlirValue));
}

const LaneValue *cvLookupLanes(const Lowering *l, MlirValue key) {
  // Searched from the back: most uses are close to their definition.
  for (intptr_t i = l->numValues - 1; i >= 0; --i)
    if (mlirValueEqual(l->values[i].key, key))
      return &l->values[i];
  return NULL;
}

MlirValue cvOperandLane(Lowering *l, MlirValue value, intptr_t i) {
  const LaneValue *lanes = cvLookupLanes(l, value);
  if (!lanes) {
    // A uniform scalar: broadcast it once, then reuse the broadcast.
    MlirValue broadcast = cvBroadcastLanes(l, cvExtendToF32(l, value));
    cvMapLanes(l, value, 1, &broadcast);
    return broadcast;
  }
  return lanes->lanes[lanes->count == 1 ? 0 : i];
}

void cvMapMatrix(Lowering *l, const MatrixView *view) {
  l->matrices = coopvecGrowArray(l->matrices, &l->matricesCapacity,
                                 l->numMatrices + 1, sizeof(MatrixView));
  l->matrices[l->numMatrices++] = *view;
}

const MatrixView *cvLookupMatrix(const Lowering *l, MlirValue key) {
  for (intptr_t i = 0; i < l->numMatrices; ++i)
    if (mlirValueEqual(l->matrices[i].key, key))
      return &l->matrices[i];
  return NULL;
}

int64_t cvMatrixElementIndex(const MatrixView *view, int64_t row, int64_t col) {
  // The opaque layouts are row-major on the CPU target.
  if (view->layout == CoopvecLayoutColMajor)
    return view->base + col * view->rows + row;
  return view->base + row * view->cols + col;
}

static uint64_t hashIndex(int64_t value) {
  return (uint64_t)value * 0x9E3779B97F4A7C15ull;
}

static IndexConstant *findConstantSlot(IndexConstant *table, intptr_t capacity,
                                       int64_t value) {
  uint64_t slot = hashIndex(value) & (uint64_t)(capacity - 1);
  while (!mlirValueIsNull(table[slot].result) && table[slot].value != value)
    slot = (slot + 1) & (uint64_t)(capacity - 1);
  return &table[slot];
}

/// Doubles the table, keeping it at most half full.
static void growConstants(Lowering *l) {
  intptr_t capacity = l->constantsCapacity ? l->constantsCapacity * 2 : 256;
  IndexConstant *table = calloc((size_t)capacity, sizeof(IndexConstant));
  if (!table)
    abort();
  for (intptr_t i = 0; i < l->constantsCapacity; ++i)
    if (!mlirValueIsNull(l->constants[i].result))
      *findConstantSlot(table, capacity, l->constants[i].value) =
          l->constants[i];
  free(l->constants);
  l->constants = table;
  l->constantsCapacity = capacity;
}

MlirValue cvIndexConstant(Lowering *l, int64_t value) {
  if (2 * (l->numConstants + 1) > l->constantsCapacity)
    growConstants(l);
  IndexConstant *slot =
      findConstantSlot(l->constants, l->constantsCapacity, value);
  if (mlirValueIsNull(slot->result)) {
    char text[48];
    snprintf(text, sizeof(text), "%lld : index", (long long)value);
    slot->value = value;
    slot->result = cvConstant(&l->entry, l->index, text);
    ++l->numConstants;
  }
  return slot->result;
}

/// `type` with its (vector) element type replaced by `element`.
static MlirType withElementType(MlirType type, MlirType element) {
  if (!mlirTypeIsAVector(type))
    return element;
  intptr_t rank = mlirShapedTypeGetRank(type);
  int64_t shape[4];
  if (rank > 4)
    abort(); // the lowering only builds vectors of rank 1
  for (intptr_t i = 0; i < rank; ++i)
    shape[i] = mlirShapedTypeGetDimSize(type, i);
  return mlirVectorTypeGet(rank, shape, element);
}

static MlirType elementTypeOf(MlirType type) {
  return mlirTypeIsAVector(type) ? mlirShapedTypeGetElementType(type) : type;
}

MlirValue cvExtendToF32(Lowering *l, MlirValue value) {
  MlirType type = mlirValueGetType(value);
  if (!mlirTypeIsAF16(elementTypeOf(type)))
    return value;
  return cvCreate1(&l->body, "arith.extf", 1, &value,
                   withElementType(type, l->f32), NULL);
}

MlirValue cvTruncateTo(Lowering *l, MlirValue value, MlirType element) {
  if (!mlirTypeIsAF16(element))
    return value;
  return cvCreate1(&l->body, "arith.truncf", 1, &value,
                   withElementType(mlirValueGetType(value), element), NULL);
}

MlirValue cvBroadcastLanes(Lowering *l, MlirValue scalar) {
  return cvCreate1(&l->body, "vector.broadcast", 1, &scalar, l->laneType, NULL);
}

MlirValue cvMaskLanes(Lowering *l, MlirValue value) {
  MlirValue operands[] = {l->mask, value, l->zeroLanes};
  return cvCreate1(&l->body, "arith.select", 3, operands, l->laneType, NULL);
}

MlirValue cvSumLanes(Lowering *l, MlirValue value) {
  // The order in which threads are summed is unspecified (the ops
  // accumulate "atomically across threads"), so a tree reduction is fine.
  return cvCreate1(&l->body, "vector.reduction", 1, &value, l->f32,
                   "{kind = #vector.kind<add>, "
                   "fastmath = #arith.fastmath<reassoc>}");
}

void cvAtomicAdd(Lowering *l, MlirValue value, MlirValue buffer,
                 MlirValue index) {
  MlirValue operands[] = {value, buffer, index};
  // kind 0 is addf.
  cvCreate1(&l->body, "memref.atomic_rmw", 3, operands, mlirValueGetType(value),
            "{kind = 0 : i64}");
}

typedef struct OpLoweringEntry {
  const char *name;
  CvOpLowering lower;
} OpLoweringEntry;

static const OpLoweringEntry opLowerings[] = {
    {"coopvec.add", cvLowerElementwise},
    {"coopvec.sub", cvLowerElementwise},
    {"coopvec.mul", cvLowerElementwise},
    {"coopvec.min", cvLowerElementwise},
    {"coopvec.max", cvLowerElementwise},
    {"coopvec.step", cvLowerElementwise},
    {"coopvec.fma", cvLowerElementwise},
    {"coopvec.neg", cvLowerElementwise},
    {"coopvec.exp2", cvLowerElementwise},
    {"coopvec.log2", cvLowerElementwise},
    {"coopvec.tanh", cvLowerElementwise},
    {"coopvec.from_elements", cvLowerFromElements},
    {"coopvec.splat", cvLowerSplat},
    {"coopvec.unpack", cvLowerUnpack},
    {"coopvec.from_vector", cvLowerFromVector},
    {"coopvec.to_vector", cvLowerToVector},
    {"coopvec.cast", cvLowerCast},
    {"coopvec.load", cvLowerLoad},
    {"coopvec.masked_load", cvLowerLoad},
    {"coopvec.store", cvLowerStore},
    {"coopvec.masked_store", cvLowerStore},
    {"coopvec.matrix_view", cvLowerMatrixView},
    {"coopvec.matvec", cvLowerMatvec},
    {"coopvec.outer_product_accumulate", cvLowerOuterProduct},
    {"coopvec.reduce_sum_accumulate", cvLowerReduceSum},
};

CvOpLowering cvLookupOpLowering(MlirStringRef name) {
  for (size_t i = 0; i < sizeof(opLowerings) / sizeof(opLowerings[0]); ++i)
    if (strlen(opLowerings[i].name) == name.length &&
        strncmp(opLowerings[i].name, name.data, name.length) == 0)
      return opLowerings[i].lower;
  return NULL;
}

intptr_t cvVecSize(MlirValue vec) {
  return (intptr_t)coopvecVecTypeGetSize(mlirValueGetType(vec));
}

MlirType cvVecElementType(MlirValue vec) {
  return coopvecVecTypeGetElementType(mlirValueGetType(vec));
}

MlirValue cvLaneConstant(Lowering *l, double value) {
  char text[96];
  snprintf(text, sizeof(text), "dense<%#.17g> : vector<%lldxf32>", value,
           (long long)l->lanes);
  return cvConstant(&l->entry, l->laneType, text);
}
