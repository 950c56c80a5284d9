//===- LowerMatvec.c - matvec and outer_product_accumulate ----------------===//
//
// For a group of L threads, matvec is the small GEMM Y[out x L] =
// W[out x in] * X[in x L]: row o of the result is
//   acc_o = bias_o + sum_p broadcast(W[o, p]) * x_p
// with x_p the lane vector of input element p. It is fully unrolled (sizes
// are at most CV_MAX_UNROLLED_ELEMENTS) and emitted in blocks of
// MATVEC_ROW_BLOCK output rows: inside a block, each x_p is used by all the
// block's accumulators before the next one is needed, so it stays in a
// register, and each weight is one scalar load that LLVM folds into a
// broadcasting vfmadd. Eight accumulators plus x_p and a broadcast fit the
// 16 registers of AVX2 and leave room on AVX-512.
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToVector/Lowering.h"

#include "Dialect/Verifier.h"

#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

enum { MATVEC_ROW_BLOCK = 8 };

static bool checkUnrollable(MlirOperation op, const MatrixView *view) {
  if (!view) {
    coopvecEmitOpError(op, "needs a matrix defined by coopvec.matrix_view "
                           "in the same function");
    return false;
  }
  if (view->rows * view->cols <= CV_MAX_UNROLLED_ELEMENTS)
    return true;
  coopvecEmitOpError(op,
                     "uses a %lld x %lld matrix; convert-coopvec-to-vector "
                     "unrolls matrices of at most %d elements",
                     (long long)view->rows, (long long)view->cols,
                     (int)CV_MAX_UNROLLED_ELEMENTS);
  return false;
}

/// W[row, col] as an f32 lane vector (scalar load + broadcast).
static MlirValue broadcastWeight(Lowering *l, const MatrixView *view,
                                 int64_t row, int64_t col) {
  MlirValue operands[] = {
      view->buffer, cvIndexConstant(l, cvMatrixElementIndex(view, row, col))};
  MlirType element =
      mlirShapedTypeGetElementType(mlirValueGetType(view->buffer));
  MlirValue weight =
      cvCreate1(&l->body, "memref.load", 2, operands, element, NULL);
  return cvBroadcastLanes(l, cvExtendToF32(l, weight));
}

typedef struct MatvecShape {
  const MatrixView *view;
  bool transpose;
  MlirValue input, bias; // bias may be null
  intptr_t numOutputs, numInputs;
} MatvecShape;

/// Computes outputs [first, first + count) into `results`.
static void lowerRowBlock(Lowering *l, const MatvecShape *shape, intptr_t first,
                          intptr_t count, MlirValue *results) {
  MlirValue *acc = &results[first];
  for (intptr_t p = 0; p < shape->numInputs; ++p) {
    MlirValue x = cvOperandLane(l, shape->input, p);
    for (intptr_t r = 0; r < count; ++r) {
      intptr_t o = first + r;
      MlirValue weight = shape->transpose
                             ? broadcastWeight(l, shape->view, p, o)
                             : broadcastWeight(l, shape->view, o, p);
      // Without a bias the first product starts the sum: fma(w, x, 0)
      // would turn -0.0 into +0.0 and cannot be folded away.
      if (p == 0 && mlirValueIsNull(shape->bias)) {
        acc[r] = cvBinary(&l->body, "arith.mulf", weight, x);
        continue;
      }
      MlirValue addend = p == 0 ? cvOperandLane(l, shape->bias, o) : acc[r];
      MlirValue operands[] = {weight, x, addend};
      acc[r] = cvCreate1(&l->body, "math.fma", 3, operands, l->laneType, NULL);
    }
  }
}

bool cvLowerMatvec(Lowering *l, MlirOperation op) {
  MatvecShape shape = {
      .view = cvLookupMatrix(l, mlirOperationGetOperand(op, 0)),
      .transpose = !mlirAttributeIsNull(mlirOperationGetAttributeByName(
          op, mlirStringRefCreateFromCString("transpose"))),
      .input = mlirOperationGetOperand(op, 1)};
  if (!checkUnrollable(op, shape.view))
    return false;
  if (mlirOperationGetNumOperands(op) > 2)
    shape.bias = mlirOperationGetOperand(op, 2);
  shape.numOutputs = shape.transpose ? shape.view->cols : shape.view->rows;
  shape.numInputs = shape.transpose ? shape.view->rows : shape.view->cols;
  MlirValue *results = calloc((size_t)shape.numOutputs, sizeof(MlirValue));
  if (!results)
    abort();
  for (intptr_t first = 0; first < shape.numOutputs;
       first += MATVEC_ROW_BLOCK) {
    intptr_t count = shape.numOutputs - first < MATVEC_ROW_BLOCK
                         ? shape.numOutputs - first
                         : MATVEC_ROW_BLOCK;
    lowerRowBlock(l, &shape, first, count, results);
  }
  cvMapLanes(l, mlirOperationGetResult(op, 0), shape.numOutputs, results);
  free(results);
  return true;
}

/// Lane vectors of `value` with the lanes past the last thread zeroed, so
/// that whatever those lanes computed (inf, NaN) adds nothing.
static MlirValue *maskedLanes(Lowering *l, MlirValue value, intptr_t size) {
  MlirValue *lanes = calloc((size_t)size, sizeof(MlirValue));
  if (!lanes)
    abort();
  for (intptr_t i = 0; i < size; ++i)
    lanes[i] = cvMaskLanes(l, cvOperandLane(l, value, i));
  return lanes;
}

/// grad[i, j] += sum over the group's threads of a_i * b_j, one atomic add
/// per element and group: concurrent calls sharing a gradient buffer stay
/// correct, as the op's "atomically across threads" requires.
bool cvLowerOuterProduct(Lowering *l, MlirOperation op) {
  const MatrixView *view = cvLookupMatrix(l, mlirOperationGetOperand(op, 2));
  if (!checkUnrollable(op, view))
    return false;
  MlirType element =
      mlirShapedTypeGetElementType(mlirValueGetType(view->buffer));
  MlirValue *a = maskedLanes(l, mlirOperationGetOperand(op, 0), view->rows);
  MlirValue *b = maskedLanes(l, mlirOperationGetOperand(op, 1), view->cols);
  for (int64_t i = 0; i < view->rows; ++i) {
    for (int64_t j = 0; j < view->cols; ++j) {
      MlirValue product = cvBinary(&l->body, "arith.mulf", a[i], b[j]);
      MlirValue sum = cvTruncateTo(l, cvSumLanes(l, product), element);
      cvAtomicAdd(l, sum, view->buffer,
                  cvIndexConstant(l, cvMatrixElementIndex(view, i, j)));
    }
  }
  free(a);
  free(b);
  return true;
}
