//===- Elementwise.c - Per-thread ops on element values -------------------===//
//
// The ops whose meaning does not depend on how threads map onto hardware:
// elementwise arithmetic, building and taking apart vecs, casts, loads at
// uniform offsets and matrix views. Each works on the element values of
// its operands (PerThread.h), whatever their type.
//
//===----------------------------------------------------------------------===//

#include "Conversion/PerThread/PerThread.h"
#include "Math/Math.h"

#include "Dialect/Verifier.h"
#include "Support/Alloc.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

typedef CoopvecElementAt ElementAt;
typedef CoopvecElementFn ElementFn;

/// Whether `op`'s `count` elements are computed by an element loop: when the
/// result is tiled, and for the transcendentals on any vec of several
/// elements when the target has tiles, because each unrolled copy of their
/// polynomial code is some 40 ops (compile time, not speed, decides).
static bool useElementLoop(const CoopvecPerThread *p, MlirOperation op,
                           intptr_t count) {
  if (coopvecWantsTile(p, count))
    return true;
  const CoopvecOpInfo *info = coopvecLookupOp(op);
  bool transcendental =
      info && (info->id == CoopvecOpExp2 || info->id == CoopvecOpLog2 ||
               info->id == CoopvecOpTanh);
  return transcendental && p->mapping->allocTile && count > 1;
}

void coopvecDefineElements(CoopvecPerThread *p, MlirOperation op,
                           intptr_t count, unsigned rowOperands,
                           unsigned inPlace, ElementFn fn, const void *state) {
  MlirValue result = mlirOperationGetResult(op, 0);
  if (!useElementLoop(p, op, count)) {
    MlirValue *values = coopvecAllocValues(count);
    for (intptr_t i = 0; i < count; ++i) {
      ElementAt at = {&p->body, coopvecPerThreadIndex(p, i), i};
      values[i] = fn(p, op, at, state);
    }
    coopvecMapElements(p, result, count, values);
    free(values);
    return;
  }
  for (intptr_t o = 0; o < mlirOperationGetNumOperands(op); ++o)
    if (rowOperands & (1u << o))
      coopvecPrepareForLoop(p, mlirOperationGetOperand(op, o));
  MlirValue tile = coopvecTileFor(p, op, count, inPlace);
  MlirValue index;
  CoopvecBuilder body = coopvecElementLoopFor(p, op, count, &index);
  ElementAt at = {&body, index, -1};
  MlirValue value = fn(p, op, at, state);
  coopvecStoreElementRow(p, op, &body, tile, index, value);
  coopvecMapTile(p, result, count, tile);
}

static bool mapElementwise(CoopvecPerThread *p, MlirOperation op,
                           intptr_t count, unsigned rowOperands,
                           unsigned inPlace, ElementFn fn, const void *state) {
  coopvecDefineElements(p, op, count, rowOperands, inPlace, fn, state);
  return true;
}

MlirValue coopvecElementOperand(CoopvecPerThread *p, MlirOperation op,
                                intptr_t o, ElementAt at) {
  MlirValue operand = mlirOperationGetOperand(op, o);
  if (at.constant >= 0)
    return coopvecOperandElement(p, operand, at.constant);
  return coopvecOperandRow(p, at.b, operand, at.index);
}

//===----------------------------------------------------------------------===//
// Elementwise (docs/dialect.md, "Special values")
//===----------------------------------------------------------------------===//

/// step(x, edge) = x < edge ? 0 : 1. An unordered comparison (a NaN
/// operand) is false, so NaN gives 1.
static MlirValue emitStep(CoopvecBuilder *b, MlirValue x, MlirValue edge) {
  MlirType type = mlirValueGetType(x);
  MlirValue zero = coopvecBuildFloatConstantLike(b, type, 0.0);
  MlirValue one = coopvecBuildFloatConstantLike(b, type, 1.0);
  MlirValue less = coopvecBuildCmpF(b, COOPVEC_CMPF_OLT, x, edge);
  return coopvecBuildSelect(b, less, zero, one);
}

MlirValue coopvecEmitElementwise(CoopvecBuilder *b, CoopvecOpId id,
                                 MlirType element, const MlirValue *operands) {
  switch (id) {
  case CoopvecOpAdd:
    return coopvecBuildBinaryOp(b, "arith.addf", operands[0], operands[1]);
  case CoopvecOpSub:
    return coopvecBuildBinaryOp(b, "arith.subf", operands[0], operands[1]);
  case CoopvecOpMul:
    return coopvecBuildBinaryOp(b, "arith.mulf", operands[0], operands[1]);
  // IEEE 754 minNum / maxNum: a NaN operand loses to a number.
  case CoopvecOpMin:
    return coopvecBuildBinaryOp(b, "arith.minnumf", operands[0], operands[1]);
  case CoopvecOpMax:
    return coopvecBuildBinaryOp(b, "arith.maxnumf", operands[0], operands[1]);
  case CoopvecOpStep:
    return emitStep(b, operands[0], operands[1]);
  case CoopvecOpFma:
    return coopvecBuildTernaryOp(b, "math.fma", operands[0], operands[1],
                                 operands[2]);
  case CoopvecOpNeg:
    return coopvecBuildUnaryOp(b, "arith.negf", operands[0]);
  case CoopvecOpExp2:
    return coopvecEmitExp2(b, operands[0]);
  case CoopvecOpLog2:
    return coopvecEmitLog2(b, operands[0]);
  case CoopvecOpTanh:
    return mlirTypeIsAF16(element) ? coopvecEmitTanhForF16(b, operands[0])
                                   : coopvecEmitTanh(b, operands[0]);
  default:
    return (MlirValue){NULL};
  }
}

static MlirValue elementwiseElement(CoopvecPerThread *p, MlirOperation op,
                                    ElementAt at, const void *state) {
  (void)state;
  MlirValue operands[3] = {{NULL}, {NULL}, {NULL}};
  intptr_t numOperands = mlirOperationGetNumOperands(op);
  for (intptr_t o = 0; o < numOperands && o < 3; ++o)
    operands[o] = coopvecElementOperand(p, op, o, at);
  return coopvecEmitElementwise(
      at.b, coopvecLookupOp(op)->id,
      coopvecVecElementOf(mlirOperationGetResult(op, 0)), operands);
}

bool coopvecLowerElementwiseOp(CoopvecPerThread *p, MlirOperation op) {
  return mapElementwise(p, op, coopvecVecSizeOf(mlirOperationGetResult(op, 0)),
                        0x7, 0x7, elementwiseElement, NULL);
}

//===----------------------------------------------------------------------===//
// Construction and unpacking
//===----------------------------------------------------------------------===//

static bool lowerFromElements(CoopvecPerThread *p, MlirOperation op) {
  intptr_t size = mlirOperationGetNumOperands(op);
  MlirValue *values = coopvecAllocValues(size);
  for (intptr_t i = 0; i < size; ++i)
    values[i] = coopvecOperandElement(p, mlirOperationGetOperand(op, i), 0);
  MlirValue result = mlirOperationGetResult(op, 0);
  if (coopvecWantsTile(p, size)) {
    MlirValue tile = coopvecTileFor(p, op, size, 0);
    for (intptr_t i = 0; i < size; ++i)
      p->mapping->storeRow(p, &p->body, tile, coopvecPerThreadIndex(p, i),
                           values[i]);
    coopvecMapTile(p, result, size, tile);
  } else {
    coopvecMapElements(p, result, size, values);
  }
  free(values);
  return true;
}

static bool lowerSplat(CoopvecPerThread *p, MlirOperation op) {
  coopvecMapUniform(
      p, mlirOperationGetResult(op, 0),
      coopvecVecSizeOf(mlirOperationGetResult(op, 0)),
      coopvecOperandElement(p, mlirOperationGetOperand(op, 0), 0));
  return true;
}

/// Each element is rounded to the vec's element type (docs/dialect.md): a
/// target may hold f16 elements in f32 between coopvec ops.
static bool lowerUnpack(CoopvecPerThread *p, MlirOperation op) {
  MlirValue source = mlirOperationGetOperand(op, 0);
  MlirType element = coopvecVecElementOf(source);
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    MlirValue value = coopvecWidenToF32(
        &p->body, coopvecNarrowTo(&p->body, coopvecOperandElement(p, source, i),
                                  element));
    coopvecMapElements(p, mlirOperationGetResult(op, i), 1, &value);
  }
  return true;
}

/// Makes the result of `op` the same element values as `source`.
static void shareElements(CoopvecPerThread *p, MlirOperation op,
                          const CoopvecElements *source) {
  MlirValue result = mlirOperationGetResult(op, 0);
  if (!mlirValueIsNull(source->tile))
    coopvecMapTile(p, result, source->count, source->tile);
  else if (source->uniform)
    coopvecMapUniform(p, result, source->count, source->values[0]);
  else
    coopvecMapElements(p, result, source->count, source->values);
}

/// Element `at` of the uniform builtin vector `*state`, broadcast.
static MlirValue uniformVectorElement(CoopvecPerThread *p, MlirOperation op,
                                      ElementAt at, const void *state) {
  (void)op;
  MlirValue vector = *(const MlirValue *)state;
  MlirValue scalar = at.constant >= 0
                         ? coopvecBuildExtract(at.b, vector, at.constant)
                         : coopvecBuildExtractDynamic(at.b, vector, at.index);
  return p->mapping->broadcast(p, at.b, coopvecWidenToF32(at.b, scalar));
}

/// A builtin vector that is not a `coopvec.to_vector` result is uniform:
/// element i is the same in every thread.
static bool lowerFromVector(CoopvecPerThread *p, MlirOperation op) {
  const CoopvecElements *perThread =
      coopvecLookupElements(p, mlirOperationGetOperand(op, 0));
  if (perThread) {
    shareElements(p, op, perThread);
    return true;
  }
  MlirValue source = coopvecScalarOperand(p, mlirOperationGetOperand(op, 0));
  return mapElementwise(p, op, coopvecVecSizeOf(mlirOperationGetResult(op, 0)),
                        0, 0, uniformVectorElement, &source);
}

static bool lowerToVector(CoopvecPerThread *p, MlirOperation op) {
  shareElements(p, op,
                coopvecLookupElements(p, mlirOperationGetOperand(op, 0)));
  return true;
}

/// Values are held in f32, so only a conversion from f32 to f16 changes
/// them: it rounds (to nearest even, overflow to infinity) through f16 and
/// back.
static MlirValue castElement(CoopvecPerThread *p, MlirOperation op,
                             ElementAt at, const void *state) {
  (void)state;
  CoopvecBuilder *b = at.b;
  MlirValue value = coopvecElementOperand(p, op, 0, at);
  MlirType element = coopvecVecElementOf(mlirOperationGetResult(op, 0));
  return coopvecWidenToF32(b, coopvecNarrowTo(b, value, element));
}

/// Any other cast shares its operand's element values: a tiled one would
/// otherwise copy its tile in an element loop.
static bool lowerCast(CoopvecPerThread *p, MlirOperation op) {
  MlirValue source = mlirOperationGetOperand(op, 0);
  bool rounds =
      mlirTypeIsAF16(coopvecVecElementOf(mlirOperationGetResult(op, 0))) &&
      !mlirTypeIsAF16(coopvecVecElementOf(source));
  if (!rounds) {
    shareElements(p, op, coopvecLookupElements(p, source));
    return true;
  }
  return mapElementwise(p, op, coopvecVecSizeOf(mlirOperationGetResult(op, 0)),
                        0x1, 0x1, castElement, NULL);
}

bool coopvecLowerConstruction(CoopvecPerThread *p, MlirOperation op,
                              CoopvecOpId id) {
  switch (id) {
  case CoopvecOpFromElements:
    return lowerFromElements(p, op);
  case CoopvecOpSplat:
    return lowerSplat(p, op);
  case CoopvecOpUnpack:
    return lowerUnpack(p, op);
  case CoopvecOpFromVector:
    return lowerFromVector(p, op);
  case CoopvecOpToVector:
    return lowerToVector(p, op);
  default:
    return lowerCast(p, op);
  }
}

//===----------------------------------------------------------------------===//
// Loads and views
//===----------------------------------------------------------------------===//

/// A load at a uniform offset, for its elements: the vector loaded at
/// once, and what an element loop reads one element at a time.
typedef struct LoadState {
  MlirValue loaded;
  MlirValue buffer, offset;
  MlirValue userMask;   // a masked load's mask, or null
  MlirValue passThru;   // the uniform padding, or null (read 0)
  MlirType elementType; // of the buffer
} LoadState;

/// Element `at.index` of a load inside an element loop, read from memory
/// by itself: extracting it from the loaded vector at a dynamic position
/// makes LLVM spill the whole vector to the stack for every element. An
/// element masked off or outside the buffer (bounds checked at run time)
/// is not accessed: a one-lane masked load.
static MlirValue loadElementAlone(CoopvecPerThread *p, ElementAt at,
                                  const LoadState *s) {
  CoopvecBuilder *b = at.b;
  MlirValue index = coopvecBuildBinaryOp(b, "arith.addi", s->offset, at.index);
  if (mlirValueIsNull(s->userMask) && mlirValueIsNull(p->boundsLeft))
    return coopvecBuildMemrefLoad(b, s->buffer, index);
  int64_t one = 1;
  MlirType type = mlirVectorTypeGet(1, &one, s->elementType);
  MlirValue zero = coopvecBuildFloatSplatConstant(b, type, 0.0);
  // Elements outside the buffer read 0, masked-off ones the padding (only
  // a masked load has one).
  MlirValue enabled = {NULL}, pass = zero;
  if (!mlirValueIsNull(s->userMask)) {
    enabled = coopvecBuildExtractDynamic(b, s->userMask, at.index);
    if (!mlirValueIsNull(s->passThru))
      pass = coopvecBuildSelect(b, enabled, zero,
                                coopvecBuildBroadcast(b, s->passThru, type));
  }
  if (!mlirValueIsNull(p->boundsLeft)) {
    MlirValue inside =
        coopvecBuildCmpI(b, COOPVEC_CMPI_ULT, at.index, p->boundsLeft);
    enabled = mlirValueIsNull(enabled)
                  ? inside
                  : coopvecBuildBinaryOp(b, "arith.andi", enabled, inside);
  }
  MlirType bit = mlirIntegerTypeGet(mlirValueGetContext(enabled), 1);
  MlirValue mask =
      coopvecBuildBroadcast(b, enabled, mlirVectorTypeGet(1, &one, bit));
  MlirValue operands[] = {s->buffer, index, mask, pass};
  return coopvecBuildExtract(
      b, coopvecBuild1(b, "vector.maskedload", 4, operands, type, 0, NULL), 0);
}

/// Element `at` of a load: element i of the loaded vector, or the element
/// read alone in an element loop, broadcast; the per-thread padding where
/// the mask bit is clear (a uniform padding is in the loaded value).
static MlirValue loadElement(CoopvecPerThread *p, MlirOperation op,
                             ElementAt at, const void *state) {
  const LoadState *s = state;
  CoopvecBuilder *b = at.b;
  MlirValue scalar = at.constant >= 0
                         ? coopvecBuildExtract(b, s->loaded, at.constant)
                         : loadElementAlone(p, at, s);
  MlirValue value = p->mapping->broadcast(p, b, coopvecWidenToF32(b, scalar));
  if (!coopvecOpIs(op, CoopvecOpMaskedLoad))
    return value;
  const CoopvecElements *padding =
      coopvecLookupElements(p, mlirOperationGetOperand(op, 3));
  if (!padding || padding->uniform)
    return value;
  MlirValue mask = coopvecScalarOperand(p, mlirOperationGetOperand(op, 2));
  MlirValue bit = at.constant >= 0
                      ? coopvecBuildExtract(b, mask, at.constant)
                      : coopvecBuildExtractDynamic(b, mask, at.index);
  return coopvecBuildSelect(b, bit, value, padding->values[0]);
}

/// Whether `op` is a load whose only use is as the bias of the matvec
/// right after it, and the target's matvec reads such biases itself: it
/// then starts its sums from the memory directly, with no tile to fill
/// and read back per group (nothing can write memory in between).
static bool deferToMatvec(CoopvecPerThread *p, MlirOperation op) {
  // A load checked at run time is masked here, which the matvec would not.
  if (!p->mapping->matvecReadsBiasLoads || !coopvecOpIs(op, CoopvecOpLoad) ||
      !mlirValueIsNull(p->boundsMask))
    return false;
  MlirValue result = mlirOperationGetResult(op, 0);
  MlirOpOperand use = mlirValueGetFirstUse(result);
  MlirOperation next = mlirOperationGetNextInBlock(op);
  return !mlirOpOperandIsNull(use) &&
         mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)) &&
         !mlirOperationIsNull(next) && coopvecOpIs(next, CoopvecOpMatvec) &&
         mlirOperationEqual(mlirOpOperandGetOwner(use), next) &&
         mlirOpOperandGetOperandNumber(use) == 2;
}

/// The vector.maskedload of a load checked at run time: elements outside
/// the buffer are not accessed and read 0; a masked load's masked-off
/// elements take the uniform padding (operands[3]) as before.
static MlirValue loadInsideBounds(CoopvecPerThread *p, MlirValue *operands,
                                  MlirType type) {
  MlirValue userMask = operands[2];
  MlirValue zeros = coopvecBuildFloatSplatConstant(&p->body, type, 0.0);
  if (!mlirValueIsNull(userMask))
    operands[3] = coopvecBuildSelect(&p->body, userMask, zeros, operands[3]);
  else
    operands[3] = zeros;
  operands[2] = coopvecTransferMask(p, &p->body, userMask);
  return coopvecBuild1(&p->body, "vector.maskedload", 4, operands, type, 0,
                       NULL);
}

/// The N elements of a load as one vector.
static MlirValue loadAtOnce(CoopvecPerThread *p, MlirOperation op,
                            MlirValue *operands, MlirType type) {
  if (!mlirValueIsNull(p->boundsMask))
    return loadInsideBounds(p, operands, type);
  if (coopvecOpIs(op, CoopvecOpMaskedLoad))
    return coopvecBuild1(&p->body, "vector.maskedload", 4, operands, type, 0,
                         NULL);
  return coopvecBuild1(&p->body, "vector.load", 2, operands, type, 0, NULL);
}

/// A load at a uniform offset (Walk.c sends varying ones to Memory.c)
/// reads the same N elements for every thread: one vector load, then each
/// element broadcast. Masked-off elements are not accessed
/// (vector.maskedload) and take the padding; so are elements outside the
/// buffer of a load checked at run time, which read 0.
bool coopvecLowerLoad(CoopvecPerThread *p, MlirOperation op) {
  MlirValue result = mlirOperationGetResult(op, 0);
  if (deferToMatvec(p, op)) {
    coopvecPointerMapInsert(&p->deferredLoads, result.ptr, 1);
    return true;
  }
  int64_t size = coopvecVecSizeOf(result);
  MlirType type = mlirVectorTypeGet(1, &size, coopvecVecElementOf(result));
  MlirValue operands[] = {
      coopvecScalarOperand(p, mlirOperationGetOperand(op, 0)),
      coopvecScalarOperand(p, mlirOperationGetOperand(op, 1)),
      {NULL},
      {NULL}};
  // An element loop reads each element where it uses it (loadElementAlone).
  bool atOnce = !useElementLoop(p, op, size);
  LoadState state = {.buffer = operands[0],
                     .offset = operands[1],
                     .elementType = coopvecVecElementOf(result)};
  if (coopvecOpIs(op, CoopvecOpMaskedLoad)) {
    MlirValue padding = mlirOperationGetOperand(op, 3);
    bool perThreadPadding = coopvecValueIsVarying(p, padding);
    if (perThreadPadding)
      coopvecOperandElement(p, padding,
                            0); // its element value, for loadElement
    else
      state.passThru = padding = coopvecScalarOperand(p, padding);
    operands[2] = coopvecScalarOperand(p, mlirOperationGetOperand(op, 2));
    state.userMask = operands[2];
    // A uniform padding (a scalar of the element type) is the maskedload's
    // pass-through; a per-thread one (an unpacked element) is selected
    // per element.
    if (atOnce)
      operands[3] = perThreadPadding
                        ? coopvecBuildFloatSplatConstant(&p->body, type, 0.0)
                        : coopvecBuildBroadcast(&p->body, padding, type);
  }
  if (atOnce)
    state.loaded = loadAtOnce(p, op, operands, type);
  return mapElementwise(p, op, size, 0, 0, loadElement, &state);
}

bool coopvecLowerMatrixView(CoopvecPerThread *p, MlirOperation op) {
  MlirType type = mlirValueGetType(mlirOperationGetResult(op, 0));
  MlirAttribute offset = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("offset"));
  CoopvecMatrixView view = {
      .buffer = coopvecScalarOperand(p, mlirOperationGetOperand(op, 0)),
      .rows = coopvecMatrixTypeGetRows(type),
      .cols = coopvecMatrixTypeGetCols(type),
      .element = coopvecMatrixTypeGetElementType(type)};
  int64_t elementBytes = mlirTypeIsAF16(view.element) ? 2 : 4;
  if (mlirAttributeIsNull(offset) || !mlirAttributeIsAInteger(offset) ||
      !coopvecMatrixTypeGetLayout(type, &view.layout) ||
      mlirIntegerAttrGetValueInt(offset) % elementBytes != 0) {
    coopvecEmitOpError(op, "needs an integer 'offset' attribute that is a "
                           "multiple of the element size");
    return false;
  }
  view.base = mlirIntegerAttrGetValueInt(offset) / elementBytes;
  p->views = coopvecGrowArray(p->views, &p->viewsCapacity, p->numViews + 1,
                              sizeof(CoopvecMatrixView));
  p->views[p->numViews] = view;
  coopvecPointerMapInsert(&p->viewMap, mlirOperationGetResult(op, 0).ptr,
                          p->numViews++);
  return true;
}
