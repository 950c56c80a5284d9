//===- LowerElementwise.c - Elementwise and construction ops --------------===//
//
// Elementwise coopvec ops become the same arith / math op on each of the N
// lane vectors of their vec operands. Scalar operands are per-thread
// (coopvec.unpack results, already lane vectors) or uniform (broadcast).
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToVector/Lowering.h"

#include "Dialect/Verifier.h"

#include <mlir-c/BuiltinTypes.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ElementwiseOp {
  const char *name;     // coopvec op
  const char *lowered;  // arith / math op on lane vectors; NULL: special
  intptr_t numOperands; // all are lane operands
} ElementwiseOp;

// min / max follow IEEE-754 minNum / maxNum (a NaN operand yields the
// other operand), as PTX min.f32 / max.f32 and SPIR-V NMin / NMax do, so
// that a ReLU max(x, 0) gives the same result on every target.
static const ElementwiseOp elementwiseOps[] = {
    {"coopvec.add", "arith.addf", 2},    {"coopvec.sub", "arith.subf", 2},
    {"coopvec.mul", "arith.mulf", 2},    {"coopvec.min", "arith.minnumf", 2},
    {"coopvec.max", "arith.maxnumf", 2}, {"coopvec.fma", "math.fma", 3},
    {"coopvec.neg", "arith.negf", 1},    {"coopvec.exp2", "math.exp2", 1},
    {"coopvec.log2", "math.log2", 1},    {"coopvec.tanh", "math.tanh", 1},
    {"coopvec.step", NULL, 2},
};

static const ElementwiseOp *lookupElementwise(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  for (size_t i = 0; i < sizeof(elementwiseOps) / sizeof(elementwiseOps[0]);
       ++i)
    if (strlen(elementwiseOps[i].name) == name.length &&
        strncmp(elementwiseOps[i].name, name.data, name.length) == 0)
      return &elementwiseOps[i];
  return NULL;
}

/// step(x, edge) = x < edge ? 0 : 1; a NaN compares false and gives 1.
static MlirValue lowerStep(Lowering *l, MlirValue x, MlirValue edge) {
  if (mlirValueIsNull(l->oneLanes))
    l->oneLanes = cvLaneConstant(l, 1.0);
  MlirValue compare[] = {x, edge};
  MlirType maskType = mlirValueGetType(l->mask);
  MlirValue less = cvCreate1(&l->body, "arith.cmpf", 2, compare, maskType,
                             "{predicate = 4 : i64}"); // olt
  MlirValue select[] = {less, l->zeroLanes, l->oneLanes};
  return cvCreate1(&l->body, "arith.select", 3, select, l->laneType, NULL);
}

/// Frees `lanes` after mapping them to the op's single result.
static bool mapResult(Lowering *l, MlirOperation op, intptr_t count,
                      MlirValue *lanes) {
  cvMapLanes(l, mlirOperationGetResult(op, 0), count, lanes);
  free(lanes);
  return true;
}

static MlirValue *allocLanes(intptr_t count) {
  MlirValue *lanes = calloc((size_t)count, sizeof(MlirValue));
  if (!lanes)
    abort();
  return lanes;
}

bool cvLowerElementwise(Lowering *l, MlirOperation op) {
  const ElementwiseOp *kind = lookupElementwise(op);
  if (!kind || mlirOperationGetNumOperands(op) != kind->numOperands) {
    coopvecEmitOpError(op, "has an unexpected form for "
                           "convert-coopvec-to-vector");
    return false;
  }
  intptr_t size = cvVecSize(mlirOperationGetResult(op, 0));
  MlirValue *lanes = allocLanes(size);
  for (intptr_t i = 0; i < size; ++i) {
    MlirValue operands[3];
    for (intptr_t o = 0; o < kind->numOperands; ++o)
      operands[o] = cvOperandLane(l, mlirOperationGetOperand(op, o), i);
    if (!kind->lowered)
      lanes[i] = lowerStep(l, operands[0], operands[1]);
    else
      lanes[i] = cvCreate1(&l->body, kind->lowered, kind->numOperands, operands,
                           l->laneType, NULL);
  }
  return mapResult(l, op, size, lanes);
}

bool cvLowerFromElements(Lowering *l, MlirOperation op) {
  intptr_t size = mlirOperationGetNumOperands(op);
  MlirValue *lanes = allocLanes(size);
  for (intptr_t i = 0; i < size; ++i)
    lanes[i] = cvOperandLane(l, mlirOperationGetOperand(op, i), 0);
  return mapResult(l, op, size, lanes);
}

bool cvLowerSplat(Lowering *l, MlirOperation op) {
  intptr_t size = cvVecSize(mlirOperationGetResult(op, 0));
  MlirValue lane = cvOperandLane(l, mlirOperationGetOperand(op, 0), 0);
  MlirValue *lanes = allocLanes(size);
  for (intptr_t i = 0; i < size; ++i)
    lanes[i] = lane;
  return mapResult(l, op, size, lanes);
}

bool cvLowerUnpack(Lowering *l, MlirOperation op) {
  MlirValue source = mlirOperationGetOperand(op, 0);
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    MlirValue lane = cvOperandLane(l, source, i);
    cvMapLanes(l, mlirOperationGetResult(op, i), 1, &lane);
  }
  return true;
}

/// A builtin vector that is not a `coopvec.to_vector` result is uniform:
/// element i is the same in every thread.
bool cvLowerFromVector(Lowering *l, MlirOperation op) {
  MlirValue source = mlirOperationGetOperand(op, 0);
  const LaneValue *perThread = cvLookupLanes(l, source);
  if (perThread) {
    cvMapLanes(l, mlirOperationGetResult(op, 0), perThread->count,
               perThread->lanes);
    return true;
  }
  MlirType element = mlirShapedTypeGetElementType(mlirValueGetType(source));
  intptr_t size = cvVecSize(mlirOperationGetResult(op, 0));
  MlirValue *lanes = allocLanes(size);
  for (intptr_t i = 0; i < size; ++i) {
    char position[64];
    snprintf(position, sizeof(position), "{static_position = array<i64: %lld>}",
             (long long)i);
    MlirValue scalar =
        cvCreate1(&l->body, "vector.extract", 1, &source, element, position);
    lanes[i] = cvBroadcastLanes(l, cvExtendToF32(l, scalar));
  }
  return mapResult(l, op, size, lanes);
}

bool cvLowerToVector(Lowering *l, MlirOperation op) {
  MlirValue source = mlirOperationGetOperand(op, 0);
  const LaneValue *lanes = cvLookupLanes(l, source);
  cvMapLanes(l, mlirOperationGetResult(op, 0), lanes->count, lanes->lanes);
  return true;
}

/// Values are held in f32, so only a conversion to f16 changes them: it
/// rounds (to nearest even) through vector<L x f16> and back.
bool cvLowerCast(Lowering *l, MlirOperation op) {
  MlirValue source = mlirOperationGetOperand(op, 0);
  MlirValue result = mlirOperationGetResult(op, 0);
  MlirType element = cvVecElementType(result);
  intptr_t size = cvVecSize(result);
  bool rounds =
      mlirTypeIsAF16(element) && !mlirTypeIsAF16(cvVecElementType(source));
  MlirValue *lanes = allocLanes(size);
  for (intptr_t i = 0; i < size; ++i) {
    lanes[i] = cvOperandLane(l, source, i);
    if (rounds)
      lanes[i] = cvExtendToF32(l, cvTruncateTo(l, lanes[i], element));
  }
  return mapResult(l, op, size, lanes);
}
