//===- PerThread.c - Value map, tiles, constants and the walk -------------===//

#include "Conversion/PerThread/PerThread.h"

#include "Dialect/Verifier.h"
#include "Support/Alloc.h"

#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>
#include <string.h>

void coopvecPerThreadInit(CoopvecPerThread *p, MlirContext ctx,
                          const CoopvecThreadMapping *mapping, void *target,
                          MlirType elementType) {
  memset(p, 0, sizeof(*p));
  p->ctx = ctx;
  p->mapping = mapping;
  p->target = target;
  p->f32 = mlirF32TypeGet(ctx);
  p->index = mlirIndexTypeGet(ctx);
  p->elementType = elementType;
}

void coopvecPerThreadFree(CoopvecPerThread *p) {
  for (intptr_t i = 0; i < p->numElements; ++i)
    free(p->elements[i].values);
  free(p->elements);
  free(p->views);
  free(p->constants);
  free(p->tiles);
  coopvecPointerMapFree(&p->valueMap);
  coopvecPointerMapFree(&p->viewMap);
  coopvecPointerMapFree(&p->indexConstants);
  coopvecPointerMapFree(&p->lastUses);
  coopvecPointerMapFree(&p->definingBlock);
  coopvecPointerMapFree(&p->opIndices);
  coopvecPointerMapFree(&p->scratch);
  coopvecUniformityFree(&p->uniformity);
  coopvecPointerMapFree(&p->loweredMap);
  coopvecPointerMapFree(&p->broadcasts);
  coopvecPointerMapFree(&p->localMap);
  coopvecPointerMapFree(&p->sizes);
  coopvecPointerMapFree(&p->prechecked);
  free(p->locals);
  free(p->lowered);
  free(p->checks);
  coopvecPointerMapFree(&p->deferredLoads);
  coopvecPointerMapFree(&p->loweredAhead);
  coopvecFreeFusedLoop(p);
}

//===----------------------------------------------------------------------===//
// Tiles
//===----------------------------------------------------------------------===//

static CoopvecTile *tileOfMemref(CoopvecPerThread *p, MlirValue memref) {
  for (intptr_t i = 0; i < p->numTiles; ++i)
    if (mlirValueEqual(p->tiles[i].memref, memref))
      return &p->tiles[i];
  return NULL;
}

/// The smallest free tile of at least `rows` rows, or a new one.
static CoopvecTile *freeTile(CoopvecPerThread *p, int64_t rows) {
  CoopvecTile *best = NULL;
  for (intptr_t i = 0; i < p->numTiles; ++i) {
    CoopvecTile *tile = &p->tiles[i];
    if (!tile->users && !tile->scratch && tile->rows >= rows &&
        (!best || tile->rows < best->rows))
      best = tile;
  }
  if (best)
    return best;
  MlirValue memref = p->mapping->allocTile(p, rows);
  p->tiles = coopvecGrowArray(p->tiles, &p->tilesCapacity, p->numTiles + 1,
                              sizeof(CoopvecTile));
  CoopvecTile *tile = &p->tiles[p->numTiles++];
  tile->memref = memref;
  tile->rows = rows;
  tile->users = 0;
  tile->scratch = false;
  return tile;
}

MlirValue *coopvecAllocValues(intptr_t count) {
  MlirValue *values = calloc((size_t)(count ? count : 1), sizeof(MlirValue));
  if (!values)
    abort();
  return values;
}

MlirType *coopvecAllocTypes(intptr_t count) {
  MlirType *types = calloc((size_t)(count ? count : 1), sizeof(MlirType));
  if (!types)
    abort();
  return types;
}

MlirValue *coopvecResultsOf(MlirOperation op) {
  intptr_t count = mlirOperationGetNumResults(op);
  MlirValue *values = coopvecAllocValues(count);
  for (intptr_t i = 0; i < count; ++i)
    values[i] = mlirOperationGetResult(op, i);
  return values;
}

MlirValue *coopvecOperandsOf(MlirOperation op, intptr_t first) {
  intptr_t count = mlirOperationGetNumOperands(op) - first;
  MlirValue *values = coopvecAllocValues(count);
  for (intptr_t i = 0; i < count; ++i)
    values[i] = mlirOperationGetOperand(op, first + i);
  return values;
}

MlirValue *coopvecArgumentsOf(MlirBlock block, intptr_t first) {
  intptr_t count = mlirBlockGetNumArguments(block) - first;
  MlirValue *values = coopvecAllocValues(count);
  for (intptr_t i = 0; i < count; ++i)
    values[i] = mlirBlockGetArgument(block, first + i);
  return values;
}

bool coopvecWantsTile(const CoopvecPerThread *p, intptr_t count) {
  return p->mapping->allocTile && count > p->mapping->ssaMaxElements;
}

/// Whether an operand of `op` other than #`except` is kept in `memref`.
static bool readByOtherOperand(const CoopvecPerThread *p, MlirOperation op,
                               intptr_t except, MlirValue memref) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    const CoopvecElements *elements =
        coopvecLookupElements(p, mlirOperationGetOperand(op, i));
    if (i != except && elements && !mlirValueIsNull(elements->tile) &&
        mlirValueEqual(elements->tile, memref))
      return true;
  }
  return false;
}

MlirValue coopvecTileFor(CoopvecPerThread *p, MlirOperation op, intptr_t count,
                         unsigned inPlaceOperands) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    if (!(inPlaceOperands & (1u << i)))
      continue;
    MlirValue operand = mlirOperationGetOperand(op, i);
    const CoopvecElements *elements = coopvecLookupElements(p, operand);
    if (!elements || mlirValueIsNull(elements->tile) ||
        !coopvecValueDiesHere(p, operand))
      continue;
    CoopvecTile *tile = tileOfMemref(p, elements->tile);
    // Only a tile no other live value maps to (to_vector shares them) and
    // no other operand reads.
    if (tile && tile->users == 1 && tile->rows >= count &&
        !readByOtherOperand(p, op, i, tile->memref))
      return tile->memref;
  }
  return freeTile(p, count)->memref;
}

MlirValue coopvecScratchTile(CoopvecPerThread *p, intptr_t rows) {
  CoopvecTile *tile = freeTile(p, rows);
  tile->scratch = true;
  return tile->memref;
}

MlirValue coopvecTileOf(CoopvecPerThread *p, MlirValue value) {
  const CoopvecElements *elements = coopvecLookupElements(p, value);
  if (elements && !mlirValueIsNull(elements->tile))
    return elements->tile;
  intptr_t scratch = coopvecPointerMapFind(&p->scratch, value.ptr);
  if (scratch >= 0)
    return p->tiles[scratch].memref;
  intptr_t count = coopvecVecSizeOf(value);
  CoopvecTile *tile = freeTile(p, count);
  tile->scratch = true;
  for (intptr_t i = 0; i < count; ++i)
    p->mapping->storeRow(p, &p->body, tile->memref, coopvecPerThreadIndex(p, i),
                         coopvecOperandElement(p, value, i));
  coopvecPointerMapInsert(&p->scratch, value.ptr, tile - p->tiles);
  return tile->memref;
}

/// Drops one user of `memref`'s tile.
static void releaseTile(CoopvecPerThread *p, MlirValue memref) {
  CoopvecTile *tile = tileOfMemref(p, memref);
  if (tile && tile->users > 0)
    --tile->users;
}

void coopvecReleaseValue(CoopvecPerThread *p, MlirValue value) {
  const CoopvecElements *elements = coopvecLookupElements(p, value);
  if (elements && !mlirValueIsNull(elements->tile))
    releaseTile(p, elements->tile);
}

void coopvecReleaseScratch(CoopvecPerThread *p) {
  for (intptr_t i = 0; i < p->numTiles; ++i)
    p->tiles[i].scratch = false;
  coopvecPointerMapFree(&p->scratch);
}

//===----------------------------------------------------------------------===//
// Values and views
//===----------------------------------------------------------------------===//

static CoopvecElements *addElements(CoopvecPerThread *p, MlirValue key,
                                    intptr_t count) {
  p->elements = coopvecGrowArray(p->elements, &p->elementsCapacity,
                                 p->numElements + 1, sizeof(CoopvecElements));
  CoopvecElements *entry = &p->elements[p->numElements];
  memset(entry, 0, sizeof(*entry));
  entry->count = count;
  coopvecPointerMapInsert(&p->valueMap, key.ptr, p->numElements++);
  return entry;
}

static MlirValue *copyValues(intptr_t count, const MlirValue *values) {
  MlirValue *copy = malloc(sizeof(MlirValue) * (size_t)(count ? count : 1));
  if (!copy)
    abort();
  if (count > 0) // `values` may be null when there are none
    memcpy(copy, values, sizeof(MlirValue) * (size_t)count);
  return copy;
}

void coopvecMapElements(CoopvecPerThread *p, MlirValue key, intptr_t count,
                        const MlirValue *values) {
  addElements(p, key, count)->values = copyValues(count, values);
}

void coopvecMapUniform(CoopvecPerThread *p, MlirValue key, intptr_t count,
                       MlirValue value) {
  CoopvecElements *entry = addElements(p, key, count);
  entry->uniform = true;
  entry->values = copyValues(1, &value);
}

void coopvecMapTile(CoopvecPerThread *p, MlirValue key, intptr_t count,
                    MlirValue tile) {
  addElements(p, key, count)->tile = tile;
  CoopvecTile *owned = tileOfMemref(p, tile);
  if (owned)
    ++owned->users;
}

const CoopvecElements *coopvecLookupElements(const CoopvecPerThread *p,
                                             MlirValue key) {
  intptr_t index = coopvecPointerMapFind(&p->valueMap, key.ptr);
  return index < 0 ? NULL : &p->elements[index];
}

CoopvecBuilder coopvecBuilderAfter(CoopvecPerThread *p, MlirValue value) {
  MlirLocation loc = p->body.location;
  if (mlirValueIsABlockArgument(value)) {
    MlirBlock block = mlirBlockArgumentGetOwner(value);
    MlirOperation first = mlirBlockGetFirstOperation(block);
    return mlirOperationIsNull(first) ? coopvecBuilderAtEnd(block, loc)
                                      : coopvecBuilderBefore(first, loc);
  }
  MlirOperation owner = mlirOpResultGetOwner(value);
  MlirOperation next = mlirOperationGetNextInBlock(owner);
  return mlirOperationIsNull(next)
             ? coopvecBuilderAtEnd(mlirOperationGetBlock(owner), loc)
             : coopvecBuilderBefore(next, loc);
}

/// A non-vec operand of a coopvec op as an element value: a varying scalar
/// widened, a uniform one widened and broadcast; built once, after its
/// definition, then reused.
static MlirValue scalarElement(CoopvecPerThread *p, MlirValue value) {
  MlirValue lowered = coopvecScalarOperand(p, value);
  CoopvecBuilder at = coopvecBuilderAfter(p, lowered);
  MlirValue element = coopvecWidenToF32(&at, lowered);
  if (coopvecValueIsVarying(p, value)) {
    coopvecMapElements(p, value, 1, &element);
    return element;
  }
  element = p->mapping->broadcast(p, &at, element);
  coopvecMapUniform(p, value, 1, element);
  return element;
}

MlirValue coopvecOperandElement(CoopvecPerThread *p, MlirValue value,
                                intptr_t i) {
  const CoopvecElements *elements = coopvecLookupElements(p, value);
  if (!elements)
    return scalarElement(p, value);
  if (!mlirValueIsNull(elements->tile))
    return p->mapping->loadRow(p, &p->body, elements->tile,
                               coopvecPerThreadIndex(p, i));
  // A per-thread scalar (an unpacked element) has one value, broadcast to
  // every element of the vec it is an operand of.
  return elements->values[elements->uniform || elements->count == 1 ? 0 : i];
}

void coopvecPrepareForLoop(CoopvecPerThread *p, MlirValue value) {
  const CoopvecElements *elements = coopvecLookupElements(p, value);
  if (!elements)
    scalarElement(p, value);
  else if (mlirValueIsNull(elements->tile) && !elements->uniform &&
           elements->count > 1)
    coopvecTileOf(p, value);
}

MlirValue coopvecOperandRow(CoopvecPerThread *p, CoopvecBuilder *b,
                            MlirValue value, MlirValue i) {
  MlirValue fused = coopvecFusedRow(p, value, i);
  if (!mlirValueIsNull(fused))
    return fused;
  const CoopvecElements *elements = coopvecLookupElements(p, value);
  if (elements && (elements->uniform || elements->count == 1) &&
      mlirValueIsNull(elements->tile))
    return elements->values[0];
  return p->mapping->loadRow(p, b, coopvecTileOf(p, value), i);
}

const CoopvecMatrixView *coopvecLookupView(const CoopvecPerThread *p,
                                           MlirValue matrix) {
  intptr_t index = coopvecPointerMapFind(&p->viewMap, matrix.ptr);
  return index < 0 ? NULL : &p->views[index];
}

bool coopvecIsDeferredLoad(const CoopvecPerThread *p, MlirValue value) {
  return coopvecPointerMapFind(&p->deferredLoads, value.ptr) >= 0;
}

void coopvecMarkLoweredAhead(CoopvecPerThread *p, MlirOperation op) {
  coopvecPointerMapInsert(&p->loweredAhead, op.ptr, 1);
}

CoopvecLoop coopvecElementLoop(CoopvecPerThread *p, intptr_t count) {
  CoopvecLoop loop = coopvecBuildFor(&p->body, coopvecPerThreadIndex(p, 0),
                                     coopvecPerThreadIndex(p, count),
                                     coopvecPerThreadIndex(p, 1), 0, NULL);
  // Element loops exist to keep code size linear in the program: LLVM
  // unrolling them (it would, their trip counts are constants) undoes that.
  coopvecSetNoUnroll(&loop);
  return loop;
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

static CoopvecConstant *addConstant(CoopvecPerThread *p, bool isIndex,
                                    int64_t bits, MlirValue value) {
  p->constants = coopvecGrowArray(p->constants, &p->constantsCapacity,
                                  p->numConstants + 1, sizeof(CoopvecConstant));
  CoopvecConstant *constant = &p->constants[p->numConstants++];
  constant->isIndex = isIndex;
  constant->bits = bits;
  constant->value = value;
  return constant;
}

MlirValue coopvecPerThreadIndex(CoopvecPerThread *p, int64_t value) {
  // An odd integer as the map's key: never the address of a value.
  const void *key =
      (const void *)(uintptr_t)(2 * (uint64_t)value + 1); // NOLINT
  intptr_t index = coopvecPointerMapFind(&p->indexConstants, key);
  if (index >= 0)
    return p->constants[index].value;
  MlirValue constant = coopvecBuildIndexConstant(&p->entry, value);
  coopvecPointerMapInsert(&p->indexConstants, key, p->numConstants);
  return addConstant(p, true, value, constant)->value;
}

MlirValue coopvecPerThreadConstant(CoopvecPerThread *p, double value) {
  int64_t bits;
  memcpy(&bits, &value, sizeof(bits));
  for (intptr_t i = 0; i < p->numConstants; ++i)
    if (!p->constants[i].isIndex && p->constants[i].bits == bits)
      return p->constants[i].value;
  MlirValue constant =
      mlirTypeIsAVector(p->elementType)
          ? coopvecBuildFloatSplatConstant(&p->entry, p->elementType, value)
          : coopvecBuildFloatConstant(&p->entry, p->elementType, value);
  return addConstant(p, false, bits, constant)->value;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

MlirValue coopvecWidenToF32(CoopvecBuilder *b, MlirValue value) {
  MlirType type = mlirValueGetType(value);
  if (!mlirTypeIsAF16(coopvecElementTypeOf(type)))
    return value;
  return coopvecBuildCast1(
      b, "arith.extf", value,
      coopvecWithElementType(type, mlirF32TypeGet(b->context)));
}

MlirValue coopvecNarrowTo(CoopvecBuilder *b, MlirValue value,
                          MlirType element) {
  if (!mlirTypeIsAF16(element))
    return value;
  return coopvecBuildCast1(
      b, "arith.truncf", value,
      coopvecWithElementType(mlirValueGetType(value), element));
}

intptr_t coopvecVecSizeOf(MlirValue vec) {
  return (intptr_t)coopvecVecTypeGetSize(mlirValueGetType(vec));
}

MlirType coopvecVecElementOf(MlirValue vec) {
  return coopvecVecTypeGetElementType(mlirValueGetType(vec));
}

//===----------------------------------------------------------------------===//
// Lowered values of non-vec values
//===----------------------------------------------------------------------===//

static void insertLowered(CoopvecPerThread *p, CoopvecPointerMap *map,
                          MlirValue key, MlirValue lowered) {
  p->lowered = coopvecGrowArray(p->lowered, &p->loweredCapacity,
                                p->numLowered + 1, sizeof(MlirValue));
  p->lowered[p->numLowered] = lowered;
  coopvecPointerMapInsert(map, key.ptr, p->numLowered++);
}

void coopvecMapValue(CoopvecPerThread *p, MlirValue key, MlirValue lowered) {
  insertLowered(p, &p->loweredMap, key, lowered);
}

bool coopvecValueIsVarying(const CoopvecPerThread *p, MlirValue value) {
  return coopvecIsVarying(&p->uniformity, value);
}

MlirValue coopvecScalarOperand(CoopvecPerThread *p, MlirValue value) {
  intptr_t index = coopvecPointerMapFind(&p->loweredMap, value.ptr);
  if (index >= 0)
    return p->lowered[index];
  const CoopvecElements *elements = coopvecLookupElements(p, value);
  if (!elements || elements->uniform ||
      coopvecTypeIsAVec(mlirValueGetType(value)))
    return value; // a uniform value is its own lowered form (moved)
  // An unpacked element, held as the target's f32 element value.
  return coopvecNarrowTo(&p->body, elements->values[0],
                         mlirValueGetType(value));
}

MlirValue coopvecBroadcastUniform(CoopvecPerThread *p, MlirValue value) {
  intptr_t index = coopvecPointerMapFind(&p->broadcasts, value.ptr);
  if (index >= 0)
    return p->lowered[index];
  CoopvecBuilder at = coopvecBuilderAfter(p, value);
  MlirValue varying = p->mapping->broadcast(p, &at, value);
  insertLowered(p, &p->broadcasts, value, varying);
  return varying;
}

MlirValue coopvecVaryingOperand(CoopvecPerThread *p, MlirValue value) {
  MlirValue lowered = coopvecScalarOperand(p, value);
  return coopvecValueIsVarying(p, value) ? lowered
                                         : coopvecBroadcastUniform(p, lowered);
}

/// The lowered type of the non-vec value `value`.
static MlirType loweredScalarType(CoopvecPerThread *p, MlirValue value) {
  MlirType type = mlirValueGetType(value);
  return coopvecValueIsVarying(p, value) ? p->mapping->varyingType(p, type)
                                         : type;
}

intptr_t coopvecLoweredTypes(CoopvecPerThread *p, intptr_t count,
                             const MlirValue *original, MlirType *types) {
  intptr_t n = 0;
  for (intptr_t i = 0; i < count; ++i) {
    if (!coopvecTypeIsAVec(mlirValueGetType(original[i]))) {
      if (types)
        types[n] = loweredScalarType(p, original[i]);
      ++n;
      continue;
    }
    for (intptr_t e = 0; e < coopvecVecSizeOf(original[i]); ++e, ++n)
      if (types)
        types[n] = p->elementType;
  }
  return n;
}

intptr_t coopvecLoweredValues(CoopvecPerThread *p, intptr_t count,
                              const MlirValue *values, const MlirValue *like,
                              MlirValue *out) {
  intptr_t n = 0;
  for (intptr_t i = 0; i < count; ++i) {
    if (coopvecTypeIsAVec(mlirValueGetType(values[i]))) {
      for (intptr_t e = 0; e < coopvecVecSizeOf(values[i]); ++e)
        out[n++] = coopvecOperandElement(p, values[i], e);
      continue;
    }
    out[n++] = coopvecValueIsVarying(p, like[i])
                   ? coopvecVaryingOperand(p, values[i])
                   : coopvecScalarOperand(p, values[i]);
  }
  return n;
}

void coopvecMapLoweredValues(CoopvecPerThread *p, intptr_t count,
                             const MlirValue *original,
                             const MlirValue *lowered) {
  intptr_t n = 0;
  for (intptr_t i = 0; i < count; ++i) {
    if (coopvecTypeIsAVec(mlirValueGetType(original[i]))) {
      intptr_t size = coopvecVecSizeOf(original[i]);
      coopvecMapElements(p, original[i], size, lowered + n);
      n += size;
      continue;
    }
    coopvecMapValue(p, original[i], lowered[n++]);
    // A scalar that coopvec ops read holds an element value derived from
    // its lowered form (scalarElement): derive it from the new one (lane
    // refill maps a value defined once to the block arguments of several
    // regions).
    if (coopvecLookupElements(p, original[i]))
      scalarElement(p, original[i]);
  }
}

void coopvecForgetValue(CoopvecPerThread *p, MlirValue value) {
  // -1 reads as absent (coopvecPointerMapFind).
  if (coopvecPointerMapFind(&p->loweredMap, value.ptr) >= 0)
    coopvecPointerMapInsert(&p->loweredMap, value.ptr, -1);
  if (coopvecPointerMapFind(&p->valueMap, value.ptr) >= 0)
    coopvecPointerMapInsert(&p->valueMap, value.ptr, -1);
}

int64_t coopvecAddCheck(CoopvecPerThread *p, MlirOperation op) {
  p->checks = coopvecGrowArray(p->checks, &p->checksCapacity, p->numChecks + 1,
                               sizeof(MlirOperation));
  p->checks[p->numChecks] = op;
  return p->numChecks++;
}

void coopvecForEachElement(CoopvecPerThread *p, MlirValue value,
                           CoopvecEachElementFn fn, void *state) {
  intptr_t count = coopvecVecSizeOf(value);
  const CoopvecElements *elements = coopvecLookupElements(p, value);
  if (!elements || mlirValueIsNull(elements->tile)) {
    for (intptr_t i = 0; i < count; ++i)
      fn(p, &p->body, coopvecOperandElement(p, value, i),
         coopvecPerThreadIndex(p, i), state);
    return;
  }
  CoopvecLoop loop = coopvecElementLoop(p, count);
  MlirValue element =
      p->mapping->loadRow(p, &loop.body, elements->tile, loop.inductionVar);
  fn(p, &loop.body, element, loop.inductionVar, state);
  coopvecFinishFor(&loop, 0, NULL);
}
