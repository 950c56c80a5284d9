//===- OpRulesRanges.c - Which elements an op touches ---------------------===//
//
// Two rules need the elements of a buffer an op reads or writes:
//   - a transfer at a constant offset must stay inside its buffer (negative
//     offsets are wrong for any buffer, and a statically sized buffer has
//     an end): the lowered code would access memory out of bounds;
//   - an accumulation (outer_product_accumulate, reduce_sum_accumulate) must
//     not add into elements the same function reads: a thread reading them
//     would see however many other threads had added so far, so the result
//     would depend on thread order (and the interpreter, which runs threads
//     one after another, would disagree with every parallel target).
// Ranges are known when offsets are constants; an unknown range is assumed
// to overlap.
//
//===----------------------------------------------------------------------===//

#include "coopvec-c/Dialect.h"
#include "coopvec-c/Support.h"

#include "Dialect/Constants.h"
#include "Dialect/ElementTypes.h"
#include "Dialect/OpRules.h"
#include "Dialect/OpTable.h"
#include "Dialect/Verifier.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdint.h>

/// Elements [first, end) of a buffer; `known` is false when an offset is
/// not a constant.
typedef struct ElementRange {
  bool known;
  int64_t first, end;
} ElementRange;

/// How many leading elements a transfer may touch: all N, or up to the last
/// set bit of a constant mask.
static int64_t accessedCount(MlirOperation op, intptr_t maskOperand,
                             MlirType vec) {
  int64_t count = coopvecVecTypeGetSize(vec);
  if (maskOperand < 0)
    return count;
  MlirValue mask = mlirOperationGetOperand(op, maskOperand);
  if (!mlirValueIsAOpResult(mask) ||
      !coopvecOpIsNamed(mlirOpResultGetOwner(mask), "arith.constant"))
    return count;
  MlirAttribute bits = mlirOperationGetAttributeByName(
      mlirOpResultGetOwner(mask), mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(bits) || !mlirAttributeIsADenseElements(bits) ||
      !mlirTypeIsAInteger(
          mlirShapedTypeGetElementType(mlirAttributeGetType(bits))))
    return count;
  bool splat = mlirDenseElementsAttrIsSplat(bits);
  int64_t last = 0;
  for (int64_t i = 0; i < count; ++i)
    if (mlirDenseElementsAttrGetBoolValue(bits, splat ? 0 : i))
      last = i + 1;
  return last;
}

bool coopvecCheckConstantAccess(MlirOperation op, intptr_t bufferOperand,
                                intptr_t offsetOperand, intptr_t maskOperand,
                                MlirType vec) {
  int64_t offset;
  if (!coopvecIntegerConstant(mlirOperationGetOperand(op, offsetOperand),
                              &offset))
    return true;
  if (offset < 0) {
    coopvecEmitOpError(op, "offset %lld is negative", (long long)offset);
    return false;
  }
  MlirType buffer = coopvecOperandType(op, bufferOperand);
  int64_t count = accessedCount(op, maskOperand, vec);
  if (!mlirShapedTypeIsStaticDim(buffer, 0) || count == 0)
    return true;
  int64_t size = mlirShapedTypeGetDimSize(buffer, 0);
  if (offset <= size && count <= size - offset)
    return true;
  // Unsigned: offset + count may not fit an int64_t.
  coopvecEmitOpError(op,
                     "accesses elements [%lld, %llu) of %s, which has %lld "
                     "elements",
                     (long long)offset,
                     (unsigned long long)offset + (unsigned long long)count,
                     coopvecTypeText(buffer).text, (long long)size);
  return false;
}

//===----------------------------------------------------------------------===//
// Accumulations
//===----------------------------------------------------------------------===//

/// The elements of its buffer a matrix_view names.
static ElementRange viewRange(MlirOperation view) {
  ElementRange range = {false, 0, 0};
  MlirType matrix = mlirValueGetType(mlirOperationGetResult(view, 0));
  const CoopvecElementTypeInfo *info =
      coopvecLookupElementType(coopvecMatrixTypeGetElementType(matrix));
  MlirAttribute offset = mlirOperationGetAttributeByName(
      view, mlirStringRefCreateFromCString("offset"));
  if (!info || mlirAttributeIsNull(offset) || !mlirAttributeIsAInteger(offset))
    return range;
  range.known = true;
  range.first = mlirIntegerAttrGetValueInt(offset) / (info->bitWidth / 8);
  range.end = range.first + coopvecMatrixTypeGetRows(matrix) *
                                coopvecMatrixTypeGetCols(matrix);
  return range;
}

static ElementRange transferRange(MlirValue offset, MlirType vec) {
  ElementRange range = {false, 0, 0};
  int64_t count = coopvecVecTypeGetSize(vec);
  range.known = coopvecIntegerConstant(offset, &range.first);
  // Saturate: hostile constants must not overflow.
  range.end = range.first > INT64_MAX - count ? INT64_MAX : range.first + count;
  return range;
}

/// The buffer and range an accumulation adds into; false when the matrix is
/// not a matrix_view of this function (nothing to compare with).
static bool accumulationTarget(MlirOperation op, MlirValue *buffer,
                               ElementRange *range) {
  if (coopvecOpIs(op, CoopvecOpReduceSumAccumulate)) {
    *buffer = mlirOperationGetOperand(op, 1);
    *range = transferRange(mlirOperationGetOperand(op, 2),
                           coopvecOperandType(op, 0));
    return true;
  }
  MlirValue matrix = mlirOperationGetOperand(op, 2);
  if (!mlirValueIsAOpResult(matrix) ||
      !coopvecOpIs(mlirOpResultGetOwner(matrix), CoopvecOpMatrixView))
    return false;
  *buffer = mlirOperationGetOperand(mlirOpResultGetOwner(matrix), 0);
  *range = viewRange(mlirOpResultGetOwner(matrix));
  return true;
}

/// Whether a matrix_view's matrix is read by a matvec.
static bool viewIsRead(MlirOperation view) {
  MlirValue matrix = mlirOperationGetResult(view, 0);
  for (MlirOpOperand use = mlirValueGetFirstUse(matrix);
       !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use))
    if (coopvecOpIs(mlirOpOperandGetOwner(use), CoopvecOpMatvec))
      return true;
  return false;
}

/// The range `op` reads from `buffer`; false if it reads none of it.
static bool readRange(MlirOperation op, MlirValue buffer, ElementRange *range) {
  const CoopvecOpInfo *info = coopvecLookupOp(op);
  if (!info || mlirOperationGetNumOperands(op) < 1 ||
      !mlirValueEqual(mlirOperationGetOperand(op, 0), buffer))
    return false;
  if (info->id == CoopvecOpMatrixView && viewIsRead(op)) {
    *range = viewRange(op);
    return true;
  }
  if (info->id != CoopvecOpLoad && info->id != CoopvecOpMaskedLoad)
    return false;
  *range = transferRange(mlirOperationGetOperand(op, 1),
                         mlirValueGetType(mlirOperationGetResult(op, 0)));
  return true;
}

static bool overlap(ElementRange a, ElementRange b) {
  return !a.known || !b.known || (a.first < b.end && b.first < a.end);
}

static void reportOverlap(MlirOperation op, MlirOperation reader) {
  CoopvecBuffer where = {0};
  mlirLocationPrint(mlirOperationGetLocation(reader), coopvecBufferCallback,
                    &where);
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(reader));
  coopvecEmitOpError(op,
                     "accumulates into elements of a buffer that this "
                     "function also reads ('%.*s' at %s); the values read "
                     "would depend on the order of threads: accumulate into "
                     "a separate buffer",
                     (int)name.length, name.data, coopvecBufferStr(&where));
  coopvecBufferFree(&where);
}

bool coopvecCheckAccumulationTarget(MlirOperation op) {
  MlirValue buffer;
  ElementRange target;
  MlirBlock block = mlirOperationGetBlock(op);
  if (mlirBlockIsNull(block) || !accumulationTarget(op, &buffer, &target))
    return true;
  for (MlirOperation other = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(other);
       other = mlirOperationGetNextInBlock(other)) {
    ElementRange read;
    if (readRange(other, buffer, &read) && overlap(target, read)) {
      reportOverlap(op, other);
      return false;
    }
  }
  return true;
}
