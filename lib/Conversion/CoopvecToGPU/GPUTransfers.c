//===- GPUTransfers.c - Tiles, arguments, results, stores, uniform ops ----===//
//
// Thread t's vec argument of N elements is row t of an n x N buffer, read
// by GPU thread t alone; results go back the same way. Threads past the end
// of the batch (the partial last workgroup) run the whole kernel, because
// subgroup and workgroup steps need every thread, but read row 0 in place
// of their own (set to zero) and write nothing.
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToGPU/GPU.h"

#include "Dialect/Verifier.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

static MlirValue indexConstant(GPULowering *l, int64_t value) {
  return coopvecPerThreadIndex(&l->p, value);
}

MlirValue gpuMulIndex(GPULowering *l, CoopvecBuilder *b, MlirValue x,
                      int64_t c) {
  if (c == 1)
    return x;
  return coopvecBuildBinaryOp(b, "arith.muli", x, indexConstant(l, c));
}

MlirValue gpuAddIndex(GPULowering *l, CoopvecBuilder *b, MlirValue x,
                      int64_t c) {
  if (c == 0)
    return x;
  return coopvecBuildBinaryOp(b, "arith.addi", x, indexConstant(l, c));
}

//===----------------------------------------------------------------------===//
// Tiles: per-thread private arrays
//===----------------------------------------------------------------------===//

MlirValue gpuAllocTile(CoopvecPerThread *p, int64_t rows) {
  MlirType type =
      mlirMemRefTypeContiguousGet(p->f32, 1, &rows, mlirAttributeGetNull());
  return coopvecBuildAlloca(&p->entry, type, 16);
}

MlirValue gpuLoadRow(CoopvecPerThread *p, CoopvecBuilder *b, MlirValue tile,
                     MlirValue row) {
  (void)p;
  return coopvecBuildMemrefLoad(b, tile, row);
}

void gpuStoreRow(CoopvecPerThread *p, CoopvecBuilder *b, MlirValue tile,
                 MlirValue row, MlirValue value) {
  (void)p;
  coopvecBuildMemrefStore(b, value, tile, row);
}

/// Aligned to the vector's own size (16 bytes for a staging chunk, 4 for a
/// pair of f16), so that NVVM moves it in one access.
static MlirNamedAttribute ownAlignment(MlirType vectorType) {
  MlirContext ctx = mlirTypeGetContext(vectorType);
  MlirType element = mlirShapedTypeGetElementType(vectorType);
  int64_t bytes = mlirShapedTypeGetDimSize(vectorType, 0) *
                  (mlirTypeIsAF16(element) ? 2 : 4);
  return coopvecNamedAttr(
      ctx, "alignment", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), bytes));
}

MlirValue gpuBuildAlignedVectorLoad(CoopvecBuilder *b, MlirType vectorType,
                                    MlirValue buffer, MlirValue index) {
  MlirValue operands[] = {buffer, index};
  MlirNamedAttribute alignment = ownAlignment(vectorType);
  return coopvecBuild1(b, "vector.load", 2, operands, vectorType, 1,
                       &alignment);
}

void gpuBuildAlignedVectorStore(CoopvecBuilder *b, MlirValue vector,
                                MlirValue buffer, MlirValue index) {
  MlirValue operands[] = {vector, buffer, index};
  MlirNamedAttribute alignment = ownAlignment(mlirValueGetType(vector));
  coopvecBuild0(b, "vector.store", 3, operands, 1, &alignment);
}

void gpuForEachElement(GPULowering *l, CoopvecBuilder *b, MlirValue value,
                       GPUElementFn fn, void *state) {
  CoopvecPerThread *p = &l->p;
  const CoopvecElements *elements = coopvecLookupElements(p, value);
  intptr_t count = coopvecVecSizeOf(value);
  if (!elements || mlirValueIsNull(elements->tile)) {
    // SSA element values exist already: no op is created at p->body.
    for (intptr_t i = 0; i < count; ++i)
      fn(l, b, coopvecOperandElement(p, value, i), indexConstant(l, i), state);
    return;
  }
  CoopvecLoop loop =
      coopvecBuildFor(b, indexConstant(l, 0), indexConstant(l, count),
                      indexConstant(l, 1), 0, NULL);
  MlirValue element =
      gpuLoadRow(p, &loop.body, elements->tile, loop.inductionVar);
  fn(l, &loop.body, element, loop.inductionVar, state);
  coopvecFinishFor(&loop, 0, NULL);
}

//===----------------------------------------------------------------------===//
// Arguments and results
//===----------------------------------------------------------------------===//

/// Element `index` of this thread's row of `buffer` (N elements a row),
/// widened to f32; zero for threads past the end.
static MlirValue loadArgumentElement(GPULowering *l, CoopvecBuilder *b,
                                     MlirValue buffer, MlirValue rowStart,
                                     MlirValue index) {
  MlirValue at = coopvecBuildBinaryOp(b, "arith.addi", rowStart, index);
  MlirValue value = coopvecWidenToF32(b, coopvecBuildMemrefLoad(b, buffer, at));
  return coopvecBuildSelect(b, l->valid, value,
                            coopvecPerThreadConstant(&l->p, 0.0));
}

void gpuLoadVecArgument(GPULowering *l, MlirValue arg, MlirValue buffer) {
  CoopvecPerThread *p = &l->p;
  intptr_t size = coopvecVecSizeOf(arg);
  MlirValue rowStart = gpuMulIndex(l, &p->body, l->row, size);
  if (!coopvecWantsTile(p, size)) {
    MlirValue *values = coopvecAllocValues(size);
    for (intptr_t i = 0; i < size; ++i)
      values[i] = loadArgumentElement(l, &p->body, buffer, rowStart,
                                      indexConstant(l, i));
    coopvecMapElements(p, arg, size, values);
    free(values);
    return;
  }
  MlirValue tile = gpuAllocTile(p, size);
  CoopvecLoop loop = coopvecElementLoop(p, size);
  gpuStoreRow(
      p, &loop.body, tile, loop.inductionVar,
      loadArgumentElement(l, &loop.body, buffer, rowStart, loop.inductionVar));
  coopvecFinishFor(&loop, 0, NULL);
  coopvecMapTile(p, arg, size, tile);
}

typedef struct ElementStore {
  MlirValue buffer, start; // element `index` goes to buffer[start + index]
  MlirValue mask;          // vector<N x i1> of a masked store, or null
  MlirType element;        // the buffer's element type
} ElementStore;

static void storeElement(GPULowering *l, CoopvecBuilder *b, MlirValue element,
                         MlirValue index, void *state) {
  (void)l;
  const ElementStore *store = state;
  MlirValue at = coopvecBuildBinaryOp(b, "arith.addi", store->start, index);
  MlirValue value = coopvecNarrowTo(b, element, store->element);
  if (mlirValueIsNull(store->mask)) {
    coopvecBuildMemrefStore(b, value, store->buffer, at);
    return;
  }
  // Masked-off elements are not accessed.
  CoopvecIf bit =
      coopvecBuildIf(b, coopvecBuildExtractDynamic(b, store->mask, index));
  coopvecBuildMemrefStore(&bit.then, value, store->buffer, at);
  coopvecFinishIf(&bit);
}

void gpuStoreResults(GPULowering *l, MlirOperation ret, intptr_t firstOutput) {
  if (mlirOperationGetNumOperands(ret) == 0)
    return;
  CoopvecIf guard = coopvecBuildIf(&l->p.body, l->valid);
  for (intptr_t r = 0; r < mlirOperationGetNumOperands(ret); ++r) {
    MlirValue value = mlirOperationGetOperand(ret, r);
    ElementStore store = {
        .buffer = mlirBlockGetArgument(l->entryBlock, firstOutput + r),
        .element = coopvecVecElementOf(value)};
    store.start =
        gpuMulIndex(l, &guard.then, l->thread, coopvecVecSizeOf(value));
    gpuForEachElement(l, &guard.then, value, storeElement, &store);
  }
  coopvecFinishIf(&guard);
}

//===----------------------------------------------------------------------===//
// Stores
//===----------------------------------------------------------------------===//

/// A per-thread store to a uniform address is a race between threads; as
/// on the CPU, the value of the highest-numbered thread (n - 1) lands, as
/// if threads ran one after another. Only that thread writes.
bool gpuLowerStore(CoopvecPerThread *p, MlirOperation op) {
  GPULowering *l = gpuOf(p);
  MlirValue base = coopvecScalarOperand(p, mlirOperationGetOperand(op, 1));
  ElementStore store = {
      .buffer = base,
      .start = coopvecScalarOperand(p, mlirOperationGetOperand(op, 2)),
      .element = mlirShapedTypeGetElementType(mlirValueGetType(base))};
  if (coopvecOpIs(op, CoopvecOpMaskedStore))
    store.mask = coopvecScalarOperand(p, mlirOperationGetOperand(op, 3));
  store.mask = coopvecTransferMask(p, &p->body, store.mask);
  CoopvecIf guard = coopvecBuildIf(&p->body, l->isLast);
  gpuForEachElement(l, &guard.then, mlirOperationGetOperand(op, 0),
                    storeElement, &store);
  coopvecFinishIf(&guard);
  return true;
}
