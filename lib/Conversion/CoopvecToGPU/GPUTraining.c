//===- GPUTraining.c - outer_product_accumulate, reduce_sum_accumulate ----===//
//
// Both ops sum over all threads into a shared buffer: per workgroup where
// the plan says so (training=block, GPUBlockTraining.c), else here, per
// subgroup (training=subgroup, or where the workgroup memory or the
// subgroup size does not allow the block form). Each subgroup first
// sums its threads' contributions (gpu.subgroup_reduce), then its lane 0
// adds the sum with one memref.atomic_rmw addf per element: the number of
// atomics per element is the number of subgroups, not of threads. Threads
// past the end of the batch take part in the reductions (every lane must)
// with -0.0, the additive identity (+0.0 would turn a sum of -0.0 into
// +0.0), and a subgroup without a valid thread adds nothing.
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToGPU/GPU.h"

#include "Dialect/Verifier.h"

#include <mlir-c/BuiltinTypes.h>

static MlirValue indexConstant(GPULowering *l, int64_t value) {
  return coopvecPerThreadIndex(&l->p, value);
}

const CoopvecMatrixView *gpuCheckedView(CoopvecPerThread *p, MlirOperation op,
                                        MlirValue matrix) {
  const CoopvecMatrixView *view = coopvecLookupView(p, matrix);
  if (!view)
    coopvecEmitOpError(op, "needs a matrix defined by coopvec.matrix_view "
                           "in the same function");
  return view;
}

void gpuMatrixStrides(const CoopvecMatrixView *view, int64_t *rowStride,
                      int64_t *colStride) {
  bool colMajor = view->layout == CoopvecLayoutColMajor;
  *rowStride = colMajor ? 1 : view->cols;
  *colStride = colMajor ? view->rows : 1;
}

/// buffer[index] += the subgroup's sum of `value` (this thread's
/// contribution), at `b`.
static void accumulateSubgroupSum(GPULowering *l, CoopvecBuilder *b,
                                  MlirValue value, MlirValue buffer,
                                  MlirValue index) {
  MlirValue contribution = coopvecBuildSelect(
      b, l->p.active, value, coopvecPerThreadConstant(&l->p, -0.0));
  MlirValue sum = coopvecBuildSubgroupReduceAdd(b, contribution);
  CoopvecIf leader = coopvecBuildIf(b, l->leader);
  MlirType element = mlirShapedTypeGetElementType(mlirValueGetType(buffer));
  coopvecBuildAtomicAdd(
      &leader.then, coopvecNarrowTo(&leader.then, sum, element), buffer, index);
  coopvecFinishIf(&leader);
}

//===----------------------------------------------------------------------===//
// reduce_sum_accumulate
//===----------------------------------------------------------------------===//

typedef struct ReduceSum {
  MlirValue gradient, offset;
  MlirValue mask; // the elements inside the buffer (checked at run time)
} ReduceSum;

static void reduceElement(GPULowering *l, CoopvecBuilder *b, MlirValue element,
                          MlirValue index, void *state) {
  const ReduceSum *reduce = state;
  MlirValue at = coopvecBuildBinaryOp(b, "arith.addi", reduce->offset, index);
  if (mlirValueIsNull(reduce->mask)) {
    accumulateSubgroupSum(l, b, element, reduce->gradient, at);
    return;
  }
  // The mask is uniform: the whole subgroup takes the same branch.
  CoopvecIf inside =
      coopvecBuildIf(b, coopvecBuildExtractDynamic(b, reduce->mask, index));
  accumulateSubgroupSum(l, &inside.then, element, reduce->gradient, at);
  coopvecFinishIf(&inside);
}

/// grad[offset + i] += v_i summed over all threads: per workgroup where
/// planned (GPUBlockTraining.c), else per subgroup.
bool gpuLowerReduceSum(CoopvecPerThread *p, MlirOperation op) {
  if (coopvecPointerMapFind(&gpuOf(p)->plan->blockRows, op.ptr) > 0) {
    gpuLowerBlockReduceSum(gpuOf(p), op);
    return true;
  }
  ReduceSum reduce = {coopvecScalarOperand(p, mlirOperationGetOperand(op, 1)),
                      coopvecScalarOperand(p, mlirOperationGetOperand(op, 2)),
                      coopvecTransferMask(p, &p->body, (MlirValue){NULL})};
  gpuForEachElement(gpuOf(p), &p->body, mlirOperationGetOperand(op, 0),
                    reduceElement, &reduce);
  return true;
}

//===----------------------------------------------------------------------===//
// outer_product_accumulate
//===----------------------------------------------------------------------===//

/// grad[i, j] += a_i * b_j summed over all threads: per workgroup where
/// planned (GPUBlockTraining.c), else a loop nest over
/// (i, j) reading a and b from per-thread tiles (small vecs are stored to
/// scratch tiles), one subgroup reduction and atomic per gradient element.
bool gpuLowerOuterProduct(CoopvecPerThread *p, MlirOperation op) {
  GPULowering *l = gpuOf(p);
  const CoopvecMatrixView *view =
      gpuCheckedView(p, op, mlirOperationGetOperand(op, 2));
  if (!view)
    return false;
  if (coopvecPointerMapFind(&l->plan->blockRows, op.ptr) > 0) {
    gpuLowerBlockOuterProduct(l, op, view);
    return true;
  }
  MlirValue aTile = coopvecTileOf(p, mlirOperationGetOperand(op, 0));
  MlirValue bTile = coopvecTileOf(p, mlirOperationGetOperand(op, 1));
  int64_t rowStride, colStride;
  gpuMatrixStrides(view, &rowStride, &colStride);
  MlirValue zero = indexConstant(l, 0), one = indexConstant(l, 1);
  CoopvecLoop rows = coopvecBuildFor(
      &p->body, zero, indexConstant(l, view->rows), one, 0, NULL);
  MlirValue a = gpuLoadRow(p, &rows.body, aTile, rows.inductionVar);
  MlirValue rowStart = gpuAddIndex(
      l, &rows.body, gpuMulIndex(l, &rows.body, rows.inductionVar, rowStride),
      view->base);
  CoopvecLoop cols = coopvecBuildFor(
      &rows.body, zero, indexConstant(l, view->cols), one, 0, NULL);
  CoopvecBuilder *b = &cols.body;
  MlirValue x = gpuLoadRow(p, b, bTile, cols.inductionVar);
  MlirValue product = coopvecBuildBinaryOp(b, "arith.mulf", a, x);
  MlirValue at =
      coopvecBuildBinaryOp(b, "arith.addi", rowStart,
                           gpuMulIndex(l, b, cols.inductionVar, colStride));
  accumulateSubgroupSum(l, b, product, view->buffer, at);
  coopvecFinishFor(&cols, 0, NULL);
  coopvecFinishFor(&rows, 0, NULL);
  return true;
}
