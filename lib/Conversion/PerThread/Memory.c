//===- Memory.c - Memory at varying places, local arrays, bounds checks ---===//
//
// memref.load / store / atomic_rmw on memref arguments and local arrays,
// at any index, and coopvec transfers at offsets that are varying or that
// the engine cannot check before the run (Dialect/Accesses.h). This file
// decides what each thread accesses and whether it is inside its buffer;
// the target's CoopvecMemoryHooks do the accesses (CPU: gathers, scatters
// and lane loops of atomics over lane-interleaved local arrays; GPU: one
// thread's loads and stores).
//
// Bounds (docs/dialect.md, "Out-of-bounds accesses"): with bounds checks
// on (the default), an element outside its buffer is not accessed: a load
// gives 0, a store or atomic is dropped; the active threads making such an
// access are reported to the run's status, one report per op and thread.
// Accesses the engine checks before the run, and those whose indices are
// constants inside a local array, need no check here.
//
//===----------------------------------------------------------------------===//

#include "Conversion/PerThread/PerThread.h"

#include "Dialect/Accesses.h"
#include "Dialect/Verifier.h"
#include "Support/Alloc.h"
#include "Support/Location.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>
#include <string.h>

/// A local array: its storage (the target's) and its shape.
typedef struct CoopvecLocalArray {
  MlirValue storage;
  MlirType type;    // the memref type of the alloca
  MlirType element; // in storage (i1 is held as i8)
} CoopvecLocalArray;

static const CoopvecLocalArray *localArrayOf(const CoopvecPerThread *p,
                                             MlirValue memref) {
  intptr_t index = coopvecPointerMapFind(&p->localMap, memref.ptr);
  return index < 0 ? NULL : &p->locals[index];
}

static MlirValue indexConstant(CoopvecPerThread *p, int64_t value) {
  return coopvecPerThreadIndex(p, value);
}

static bool isI1(MlirType type) {
  return mlirTypeIsAInteger(type) && mlirIntegerTypeGetWidth(type) == 1;
}

//===----------------------------------------------------------------------===//
// Local arrays
//===----------------------------------------------------------------------===//

static int64_t elementCount(MlirType memref) {
  int64_t count = 1;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(memref); ++d)
    count *= mlirShapedTypeGetDimSize(memref, d);
  return count;
}

/// Storage at the function's entry, zeroed where the alloca runs (every
/// execution gives a new, zeroed array).
static bool lowerAlloca(CoopvecPerThread *p, MlirOperation op) {
  MlirValue result = mlirOperationGetResult(op, 0);
  MlirType type = mlirValueGetType(result);
  MlirType element = mlirShapedTypeGetElementType(type);
  if (isI1(element))
    element = mlirIntegerTypeGet(p->ctx, 8);
  int64_t count = elementCount(type);
  CoopvecLocalArray local = {p->mapping->memory->allocLocal(p, count, element),
                             type, element};
  p->mapping->memory->zeroLocal(p, &p->body, local.storage, count);
  p->locals = coopvecGrowArray(p->locals, &p->localsCapacity, p->numLocals + 1,
                               sizeof(CoopvecLocalArray));
  p->locals[p->numLocals] = local;
  coopvecPointerMapInsert(&p->localMap, result.ptr, p->numLocals++);
  return true;
}

//===----------------------------------------------------------------------===//
// Indices and bounds
//===----------------------------------------------------------------------===//

/// The number of elements of memref argument `memref` (lowered), made
/// once at the function's entry.
static MlirValue argumentSize(CoopvecPerThread *p, MlirValue memref) {
  MlirType type = mlirValueGetType(memref);
  if (!mlirShapedTypeIsDynamicDim(type, 0))
    return indexConstant(p, mlirShapedTypeGetDimSize(type, 0));
  intptr_t index = coopvecPointerMapFind(&p->sizes, memref.ptr);
  if (index >= 0)
    return p->lowered[index];
  MlirValue size = p->mapping->memory->bufferSize(p, memref);
  p->lowered = coopvecGrowArray(p->lowered, &p->loweredCapacity,
                                p->numLowered + 1, sizeof(MlirValue));
  p->lowered[p->numLowered] = size;
  coopvecPointerMapInsert(&p->sizes, memref.ptr, p->numLowered++);
  return size;
}

/// `value` (uniform) in the form of `like` (varying or not).
static MlirValue inFormOf(CoopvecPerThread *p, MlirValue value, bool varying) {
  return varying ? p->mapping->broadcast(p, &p->body, value) : value;
}

/// The access of one element: its linear index and, when it must be
/// checked, whether it is inside (an i1 in the index's form; null: no
/// check).
typedef struct Place {
  CoopvecElementAccess access;
  bool varying; // the index is varying
  MlirValue inside;
} Place;

MlirValue coopvecSignExtendedI32(MlirValue index) {
  if (!mlirValueIsAOpResult(index))
    return (MlirValue){NULL};
  MlirOperation cast = mlirOpResultGetOwner(index);
  if (!coopvecOpIsNamed(cast, "arith.index_cast"))
    return (MlirValue){NULL};
  MlirValue source = mlirOperationGetOperand(cast, 0);
  MlirType element = coopvecElementTypeOf(mlirValueGetType(source));
  return mlirTypeIsAInteger(element) && mlirIntegerTypeGetWidth(element) == 32
             ? source
             : (MlirValue){NULL};
}

/// min(bound, 2^31) as an i32 (2^31 wraps to INT32_MIN): for an i32 x,
/// sext(x) u< bound exactly when x u< that, unsigned. A negative x is
/// outside either way; with bound >= 2^31 every other x is inside.
static MlirValue i32BoundOf(CoopvecPerThread *p, MlirValue bound) {
  MlirValue clamped = coopvecBuildBinaryOp(&p->body, "arith.minui", bound,
                                           indexConstant(p, (int64_t)1 << 31));
  return coopvecBuildCast1(&p->body, "arith.index_cast", clamped,
                           mlirIntegerTypeGet(p->ctx, 32));
}

/// index u< bound (in the index's form), unless both are constants. A
/// sign-extended i32 index (the usual fptosi + index_cast) is compared in
/// i32: on SIMD targets half the registers of an index vector.
static MlirValue insideBound(CoopvecPerThread *p, MlirValue index,
                             MlirValue bound, bool varying, bool *known) {
  int64_t i, n;
  MlirOperation indexOp = mlirValueIsAOpResult(index)
                              ? mlirOpResultGetOwner(index)
                              : (MlirOperation){NULL};
  MlirOperation boundOp = mlirValueIsAOpResult(bound)
                              ? mlirOpResultGetOwner(bound)
                              : (MlirOperation){NULL};
  bool constant = !varying && !mlirOperationIsNull(indexOp) &&
                  !mlirOperationIsNull(boundOp) &&
                  coopvecOpIsNamed(indexOp, "arith.constant") &&
                  coopvecOpIsNamed(boundOp, "arith.constant");
  if (constant) {
    i = mlirIntegerAttrGetValueInt(mlirOperationGetAttributeByName(
        indexOp, mlirStringRefCreateFromCString("value")));
    n = mlirIntegerAttrGetValueInt(mlirOperationGetAttributeByName(
        boundOp, mlirStringRefCreateFromCString("value")));
    *known = *known && (uint64_t)i < (uint64_t)n;
    if ((uint64_t)i < (uint64_t)n)
      return (MlirValue){NULL};
  } else {
    *known = false;
  }
  MlirValue narrow = coopvecSignExtendedI32(index);
  if (!mlirValueIsNull(narrow))
    return coopvecBuildCmpI(&p->body, COOPVEC_CMPI_ULT, narrow,
                            inFormOf(p, i32BoundOf(p, bound), varying));
  return coopvecBuildCmpI(&p->body, COOPVEC_CMPI_ULT, index,
                          inFormOf(p, bound, varying));
}

static MlirValue andInside(CoopvecBuilder *b, MlirValue all, MlirValue one) {
  if (mlirValueIsNull(one))
    return all;
  return mlirValueIsNull(all) ? one
                              : coopvecBuildBinaryOp(b, "arith.andi", all, one);
}

/// Linear index and bounds of memref.load / store / atomic_rmw on
/// `memref` with index operands [first, first + rank) of `op`.
static Place placeOf(CoopvecPerThread *p, MlirOperation op, MlirValue memref,
                     intptr_t first) {
  const CoopvecLocalArray *local = localArrayOf(p, memref);
  MlirType type = local ? local->type : mlirValueGetType(memref);
  intptr_t rank = mlirShapedTypeGetRank(type);
  Place place = {.access = {.op = op, .local = local != NULL}};
  for (intptr_t d = 0; d < rank; ++d)
    place.varying |=
        coopvecValueIsVarying(p, mlirOperationGetOperand(op, first + d));
  place.access.buffer =
      local ? local->storage : coopvecScalarOperand(p, memref);
  place.access.element =
      local ? local->element : mlirShapedTypeGetElementType(type);
  bool checked =
      p->boundsChecks && coopvecPointerMapFind(&p->prechecked, op.ptr) < 0;
  bool known = true;
  MlirValue linear = {NULL};
  for (intptr_t d = 0; d < rank; ++d) {
    MlirValue operand = mlirOperationGetOperand(op, first + d);
    MlirValue index = place.varying ? coopvecVaryingOperand(p, operand)
                                    : coopvecScalarOperand(p, operand);
    // Unchecked, only a local array's dimensions are needed (to linearize).
    if (checked)
      place.inside = andInside(
          &p->body, place.inside,
          insideBound(p, index,
                      local
                          ? indexConstant(p, mlirShapedTypeGetDimSize(type, d))
                          : argumentSize(p, place.access.buffer),
                      place.varying, &known));
    if (d == 0) {
      linear = index;
      continue;
    }
    MlirValue dim = indexConstant(p, mlirShapedTypeGetDimSize(type, d));
    linear = coopvecBuildBinaryOp(
        &p->body, "arith.addi",
        coopvecBuildBinaryOp(&p->body, "arith.muli", linear,
                             inFormOf(p, dim, place.varying)),
        index);
  }
  // A rank-0 array has one element, at 0 (always inside).
  place.access.index = rank == 0 ? indexConstant(p, 0) : linear;
  if (!checked || known)
    place.inside = (MlirValue){NULL};
  return place;
}

/// Reports the active threads for which `inside` is false.
static void reportOutside(CoopvecPerThread *p, MlirOperation op,
                          MlirValue inside) {
  if (mlirValueIsNull(inside))
    return;
  MlirValue all =
      coopvecBuildIntConstantLike(&p->body, mlirValueGetType(inside), 1);
  MlirValue outside = coopvecBuildBinaryOp(&p->body, "arith.xori", inside, all);
  p->mapping->memory->report(p, &p->body, outside, coopvecAddCheck(p, op));
}

//===----------------------------------------------------------------------===//
// memref.load / store / atomic_rmw
//===----------------------------------------------------------------------===//

static bool lowerMemrefLoad(CoopvecPerThread *p, MlirOperation op) {
  Place place = placeOf(p, op, mlirOperationGetOperand(op, 0), 1);
  MlirValue value =
      p->mapping->memory->load(p, &p->body, &place.access, place.inside);
  MlirValue result = mlirOperationGetResult(op, 0);
  if (isI1(mlirValueGetType(result)))
    value = coopvecBuildCast1(&p->body, "arith.trunci", value,
                              coopvecWithElementType(mlirValueGetType(value),
                                                     mlirValueGetType(result)));
  reportOutside(p, op, place.inside);
  coopvecMapValue(p, result, value);
  return true;
}

/// The value stored by a store or atomic, in the element type of storage.
static MlirValue storedValue(CoopvecPerThread *p, const Place *place,
                             MlirValue operand, bool varying) {
  MlirValue value = varying ? coopvecVaryingOperand(p, operand)
                            : coopvecScalarOperand(p, operand);
  if (!isI1(coopvecElementTypeOf(mlirValueGetType(value))) ||
      isI1(place->access.element))
    return value;
  return coopvecBuildCast1(
      &p->body, "arith.extui", value,
      coopvecWithElementType(mlirValueGetType(value), place->access.element));
}

static bool lowerMemrefStore(CoopvecPerThread *p, MlirOperation op) {
  Place place = placeOf(p, op, mlirOperationGetOperand(op, 1), 2);
  bool varying = place.varying || place.access.local;
  MlirValue value =
      storedValue(p, &place, mlirOperationGetOperand(op, 0), varying);
  p->mapping->memory->store(p, &p->body, &place.access, value, place.inside);
  reportOutside(p, op, place.inside);
  return true;
}

static bool lowerAtomic(CoopvecPerThread *p, MlirOperation op) {
  Place place = placeOf(p, op, mlirOperationGetOperand(op, 1), 2);
  MlirValue value =
      storedValue(p, &place, mlirOperationGetOperand(op, 0), true);
  MlirAttribute kind = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("kind"));
  MlirValue old = p->mapping->memory->atomic(p, &p->body, &place.access, kind,
                                             value, place.inside);
  reportOutside(p, op, place.inside);
  coopvecMapValue(p, mlirOperationGetResult(op, 0), old);
  return true;
}

bool coopvecLowerMemrefOp(CoopvecPerThread *p, MlirOperation op) {
  if (coopvecOpIsNamed(op, "memref.alloca"))
    return lowerAlloca(p, op);
  if (coopvecOpIsNamed(op, "memref.load"))
    return lowerMemrefLoad(p, op);
  if (coopvecOpIsNamed(op, "memref.store"))
    return lowerMemrefStore(p, op);
  return lowerAtomic(p, op);
}

//===----------------------------------------------------------------------===//
// coopvec transfers at varying offsets
//===----------------------------------------------------------------------===//

static intptr_t offsetOperand(MlirOperation op) {
  return coopvecOpIs(op, CoopvecOpLoad) || coopvecOpIs(op, CoopvecOpMaskedLoad)
             ? 1
             : 2;
}

bool coopvecTransferIsVarying(const CoopvecPerThread *p, MlirOperation op) {
  return coopvecValueIsVarying(p,
                               mlirOperationGetOperand(op, offsetOperand(op)));
}

bool coopvecIsCheckedAtRunTime(const CoopvecPerThread *p, MlirOperation op) {
  return p->boundsChecks && coopvecPointerMapFind(&p->prechecked, op.ptr) < 0;
}

/// A transfer of N elements: thread t accesses elements offset_t + i of
/// `buffer` (i < N, where the mask is set).
typedef struct Transfer {
  MlirOperation op;
  MlirValue buffer, offset, size; // offset varying or not; size uniform
  MlirValue mask;                 // vector<N x i1> (uniform) or null
  MlirType element;               // of the buffer
  bool varying;                   // the offset is varying
  bool checked;
} Transfer;

static Transfer transferOf(CoopvecPerThread *p, MlirOperation op,
                           intptr_t bufferOperand, intptr_t maskOperand) {
  Transfer t = {.op = op};
  MlirValue offset = mlirOperationGetOperand(op, offsetOperand(op));
  t.varying = coopvecValueIsVarying(p, offset);
  t.buffer =
      coopvecScalarOperand(p, mlirOperationGetOperand(op, bufferOperand));
  t.offset = t.varying ? coopvecVaryingOperand(p, offset)
                       : coopvecScalarOperand(p, offset);
  t.element = mlirShapedTypeGetElementType(mlirValueGetType(t.buffer));
  if (maskOperand >= 0)
    t.mask = coopvecScalarOperand(p, mlirOperationGetOperand(op, maskOperand));
  t.checked = t.varying ? p->boundsChecks : coopvecIsCheckedAtRunTime(p, op);
  if (t.checked)
    t.size = argumentSize(p, t.buffer);
  return t;
}

/// Element `index` (an index value at `b`) of the transfer: its access, and
/// in `*enabled` whether it is accessed (inside, and its mask bit set).
static CoopvecElementAccess elementOf(CoopvecPerThread *p, CoopvecBuilder *b,
                                      const Transfer *t, MlirValue index,
                                      MlirValue *enabled) {
  MlirValue varyingIndex = p->mapping->broadcast(p, b, index);
  CoopvecElementAccess access = {
      t->op, t->buffer, false,
      coopvecBuildBinaryOp(b, "arith.addi", t->offset, varyingIndex),
      t->element};
  *enabled = (MlirValue){NULL};
  if (t->checked)
    *enabled = coopvecBuildCmpI(b, COOPVEC_CMPI_ULT, access.index,
                                p->mapping->broadcast(p, b, t->size));
  if (!mlirValueIsNull(t->mask)) {
    MlirValue bit = p->mapping->broadcast(
        p, b, coopvecBuildExtractDynamic(b, t->mask, index));
    *enabled = andInside(b, *enabled, bit);
  }
  return access;
}

/// The first and the last set element of a uniform mask (count and 0 when
/// none is set) and whether any is: element by element, at constant
/// positions, because the GPU targets have no vector of indices
/// (vector.step) to reduce; the mask is uniform, so this is once per op.
typedef struct MaskBounds {
  MlirValue first, last, any;
} MaskBounds;

static MaskBounds maskBoundsOf(CoopvecPerThread *p, MlirValue mask,
                               intptr_t count) {
  CoopvecBuilder *b = &p->body;
  MaskBounds bounds = {
      indexConstant(p, count), indexConstant(p, 0),
      coopvecBuildIntConstant(b, mlirIntegerTypeGet(p->ctx, 1), 0)};
  MlirValue *bits = coopvecAllocValues(count);
  for (intptr_t i = 0; i < count; ++i) {
    bits[i] = coopvecBuildExtract(b, mask, i);
    bounds.last =
        coopvecBuildSelect(b, bits[i], indexConstant(p, i), bounds.last);
    bounds.any = coopvecBuildBinaryOp(b, "arith.ori", bounds.any, bits[i]);
  }
  for (intptr_t i = count - 1; i >= 0; --i)
    bounds.first =
        coopvecBuildSelect(b, bits[i], indexConstant(p, i), bounds.first);
  free(bits);
  return bounds;
}

/// Whether each thread's transfer leaves the buffer: the first and the last
/// element it accesses are inside exactly when all are (the elements
/// between them are consecutive), so one test per thread and op (uniform
/// when the offset is).
static MlirValue transferInside(CoopvecPerThread *p, const Transfer *t,
                                intptr_t count) {
  CoopvecBuilder *b = &p->body;
  MaskBounds bounds = {
      indexConstant(p, 0), indexConstant(p, count - 1), {NULL}};
  if (!mlirValueIsNull(t->mask))
    bounds = maskBoundsOf(p, t->mask, count);
  MlirValue size = inFormOf(p, t->size, t->varying);
  MlirValue inside = coopvecBuildBinaryOp(
      b, "arith.andi",
      coopvecBuildCmpI(
          b, COOPVEC_CMPI_ULT,
          coopvecBuildBinaryOp(b, "arith.addi", t->offset,
                               inFormOf(p, bounds.first, t->varying)),
          size),
      coopvecBuildCmpI(
          b, COOPVEC_CMPI_ULT,
          coopvecBuildBinaryOp(b, "arith.addi", t->offset,
                               inFormOf(p, bounds.last, t->varying)),
          size));
  if (mlirValueIsNull(t->mask))
    return inside;
  // A mask with no element set accesses nothing.
  MlirValue none = coopvecBuildCmpI(
      b, COOPVEC_CMPI_EQ, bounds.any,
      coopvecBuildIntConstant(b, mlirIntegerTypeGet(p->ctx, 1), 0));
  return coopvecBuildBinaryOp(b, "arith.ori", inside,
                              inFormOf(p, none, t->varying));
}

static void reportTransfer(CoopvecPerThread *p, const Transfer *t,
                           intptr_t count) {
  if (t->checked)
    reportOutside(p, t->op, transferInside(p, t, count));
}

/// Element `at` of a load: the loaded element (0 where not accessed), or
/// the padding of a masked load where its mask bit is clear.
static MlirValue loadedElement(CoopvecPerThread *p, MlirOperation op,
                               CoopvecElementAt at, const void *state) {
  const Transfer *t = state;
  MlirValue enabled;
  CoopvecElementAccess access = elementOf(p, at.b, t, at.index, &enabled);
  CoopvecBuilder saved = p->body;
  p->body = *at.b;
  MlirValue value = coopvecWidenToF32(
      at.b, p->mapping->memory->load(p, at.b, &access, enabled));
  p->body = saved;
  if (!coopvecOpIs(op, CoopvecOpMaskedLoad))
    return value;
  MlirValue bit = p->mapping->broadcast(
      p, at.b, coopvecBuildExtractDynamic(at.b, t->mask, at.index));
  return coopvecBuildSelect(at.b, bit, value,
                            coopvecElementOperand(p, op, 3, at));
}

static bool lowerVaryingLoad(CoopvecPerThread *p, MlirOperation op) {
  bool masked = coopvecOpIs(op, CoopvecOpMaskedLoad);
  Transfer t = transferOf(p, op, 0, masked ? 2 : -1);
  intptr_t count = coopvecVecSizeOf(mlirOperationGetResult(op, 0));
  reportTransfer(p, &t, count);
  if (masked)
    coopvecPrepareForLoop(p, mlirOperationGetOperand(op, 3));
  coopvecDefineElements(p, op, count, masked ? 0x8 : 0, 0, loadedElement, &t);
  return true;
}

/// Stores or adds (reduce_sum_accumulate) element `index` of the vec.
static void storeElementAt(CoopvecPerThread *p, CoopvecBuilder *b,
                           MlirValue element, MlirValue index, void *state) {
  const Transfer *t = state;
  MlirValue enabled;
  CoopvecElementAccess access = elementOf(p, b, t, index, &enabled);
  MlirValue value = coopvecNarrowTo(b, element, t->element);
  CoopvecBuilder saved = p->body;
  p->body = *b;
  if (coopvecOpIs(t->op, CoopvecOpReduceSumAccumulate))
    p->mapping->memory->atomic(
        p, b, &access, coopvecAtomicKindAttr(p->ctx, COOPVEC_ATOMIC_ADDF),
        value, enabled);
  else
    p->mapping->memory->store(p, b, &access, value, enabled);
  p->body = saved;
}

static bool lowerVaryingStore(CoopvecPerThread *p, MlirOperation op) {
  bool masked = coopvecOpIs(op, CoopvecOpMaskedStore);
  Transfer t = transferOf(p, op, 1, masked ? 3 : -1);
  MlirValue value = mlirOperationGetOperand(op, 0);
  reportTransfer(p, &t, coopvecVecSizeOf(value));
  coopvecForEachElement(p, value, storeElementAt, &t);
  return true;
}

bool coopvecLowerVaryingTransfer(CoopvecPerThread *p, MlirOperation op) {
  if (coopvecOpIs(op, CoopvecOpLoad) || coopvecOpIs(op, CoopvecOpMaskedLoad))
    return lowerVaryingLoad(p, op);
  return lowerVaryingStore(p, op);
}

//===----------------------------------------------------------------------===//
// coopvec transfers at uniform offsets, checked at run time
//===----------------------------------------------------------------------===//

/// How many elements of a uniform transfer are inside its buffer:
/// `size - offset`, or none when offset >= size (unsigned).
static MlirValue elementsLeft(CoopvecPerThread *p, const Transfer *t) {
  CoopvecBuilder *b = &p->body;
  MlirValue starts = coopvecBuildCmpI(b, COOPVEC_CMPI_ULT, t->offset, t->size);
  return coopvecBuildSelect(
      b, starts, coopvecBuildBinaryOp(b, "arith.subi", t->size, t->offset),
      indexConstant(p, 0));
}

/// A uniform offset is the same in every thread: one test per op, not per
/// thread, and the access keeps its uniform form (one vector load, the
/// target's store or reduction) with the elements outside masked off, as a
/// masked transfer's are. Loads of weights inside loops and branches (not
/// checked before the run) thus cost a compare and a mask.
bool coopvecLowerUniformTransfer(CoopvecPerThread *p, MlirOperation op,
                                 bool (*lower)(CoopvecPerThread *,
                                               MlirOperation)) {
  if (!coopvecIsCheckedAtRunTime(p, op))
    return lower(p, op);
  bool load =
      coopvecOpIs(op, CoopvecOpLoad) || coopvecOpIs(op, CoopvecOpMaskedLoad);
  bool masked = coopvecOpIs(op, CoopvecOpMaskedLoad) ||
                coopvecOpIs(op, CoopvecOpMaskedStore);
  intptr_t maskOperand = masked ? (load ? 2 : 3) : -1;
  Transfer t = transferOf(p, op, load ? 0 : 1, maskOperand);
  intptr_t count = coopvecVecSizeOf(load ? mlirOperationGetResult(op, 0)
                                         : mlirOperationGetOperand(op, 0));
  reportTransfer(p, &t, count);
  p->boundsLeft = elementsLeft(p, &t);
  p->boundsMask = coopvecBuildCreateMask(&p->body, count, p->boundsLeft);
  bool ok = lower(p, op);
  p->boundsMask = p->boundsLeft = (MlirValue){NULL};
  return ok;
}

MlirValue coopvecTransferMask(CoopvecPerThread *p, CoopvecBuilder *b,
                              MlirValue mask) {
  if (mlirValueIsNull(p->boundsMask))
    return mask;
  if (mlirValueIsNull(mask))
    return p->boundsMask;
  return coopvecBuildBinaryOp(b, "arith.andi", mask, p->boundsMask);
}

//===----------------------------------------------------------------------===//
// What the run's status names
//===----------------------------------------------------------------------===//

static MlirAttribute checkNames(const CoopvecPerThread *p) {
  MlirAttribute *names =
      calloc((size_t)p->numChecks + 1, sizeof(MlirAttribute));
  if (!names)
    abort();
  for (intptr_t i = 0; i < p->numChecks; ++i) {
    CoopvecBuffer text = {0};
    MlirStringRef op = mlirIdentifierStr(mlirOperationGetName(p->checks[i]));
    coopvecBufferAppendLocation(&text, mlirOperationGetLocation(p->checks[i]));
    coopvecBufferAppendf(&text, " ('%.*s')", (int)op.length, op.data);
    names[i] =
        mlirStringAttrGet(p->ctx, mlirStringRefCreate(text.data, text.size));
    coopvecBufferFree(&text);
  }
  MlirAttribute array = mlirArrayAttrGet(p->ctx, p->numChecks, names);
  free(names);
  return array;
}

void coopvecRecordBoundsChecks(const CoopvecPerThread *p, MlirOperation module,
                               MlirStringRef lowered) {
  if (p->numChecks == 0)
    return;
  MlirStringRef key = mlirStringRefCreateFromCString("coopvec.bounds_checks");
  MlirAttribute old = mlirOperationGetAttributeByName(module, key);
  intptr_t count = mlirAttributeIsNull(old) || !mlirAttributeIsADictionary(old)
                       ? 0
                       : mlirDictionaryAttrGetNumElements(old);
  MlirNamedAttribute *entries =
      calloc((size_t)count + 1, sizeof(MlirNamedAttribute));
  if (!entries)
    abort();
  for (intptr_t i = 0; i < count; ++i)
    entries[i] = mlirDictionaryAttrGetElement(old, i);
  entries[count] =
      mlirNamedAttributeGet(mlirIdentifierGet(p->ctx, lowered), checkNames(p));
  mlirOperationSetDiscardableAttributeByName(
      module, key, mlirDictionaryAttrGet(p->ctx, count + 1, entries));
  free(entries);
}

void coopvecFinishStatusSignature(const CoopvecPerThread *p, MlirBlock entry,
                                  MlirOperation lowered, MlirOperation module) {
  if (mlirValueIsNull(p->status))
    return;
  intptr_t count = mlirBlockGetNumArguments(entry);
  MlirType *inputs = calloc((size_t)count, sizeof(MlirType));
  if (!inputs)
    abort();
  for (intptr_t i = 0; i < count; ++i)
    inputs[i] = mlirValueGetType(mlirBlockGetArgument(entry, i));
  mlirOperationSetAttributeByName(
      lowered, mlirStringRefCreateFromCString("function_type"),
      mlirTypeAttrGet(mlirFunctionTypeGet(p->ctx, count, inputs, 0, NULL)));
  free(inputs);
  coopvecRecordBoundsChecks(p, module, coopvecSymbolNameOf(lowered));
}
