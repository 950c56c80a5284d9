//===- Scalarize.c - Builtin vectors into their elements ------------------===//
//
// A SPIR-V vector has 2, 3 or 4 components (8 and 16 with the Vector16
// capability, which Vulkan does not have), while convert-coopvec-to-gpu
// leaves uniform values as 1-D builtin vectors of any length: the uniform
// `coopvec.load` of a bias is a `vector.load` of N elements, a mask a
// `vector<N x i1>`, a user's uniform `vector` / `arith` op anything. Each
// such vector becomes N scalars, made by ops of the same kind in front of
// the vector op, which is then erased:
//
//   vector.load / maskedload    N memref.load (a masked-off one is not
//                               made: scf.if ... else the pass-through)
//   vector.store / maskedstore  N memref.store (under scf.if)
//   arith.constant              N constants
//   broadcast, splat, from_elements, insert, create_mask, constant_mask,
//   fma; elementwise arith / math ops: per element
//   vector.extract              the element; at a dynamic position a
//                               memref.load: from the loaded memref when
//                               the kernel never writes it (a reload of
//                               the same element), else from a private copy
//                               (memref.alloca in Function storage) of the
//                               elements, stored where the vector was made.
//
// Any other op on a vector is an error.
//
//===----------------------------------------------------------------------===//

#include "Conversion/PrepareSPIRV/PrepareSPIRV.h"
#include "Dialect/Constants.h"

#include "Dialect/Verifier.h"
#include "IR/UpstreamBuilders.h"
#include "Support/Alloc.h"
#include "Support/PointerMap.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>
#include <string.h>

/// The scalars of one vector value.
typedef struct Elements {
  intptr_t count;
  MlirValue *values;
  MlirOperation def;      // the op that made the vector (erased at the end)
  MlirValue memref, base; // a vector.load from a memref never written
  MlirValue spill;        // the private copy for dynamic positions, or null
} Elements;

typedef struct Scalarizer {
  const char *passName;
  MlirContext ctx;
  MlirBlock entry;       // of the kernel
  CoopvecPointerMap map; // vector value -> index into items
  Elements *items;
  intptr_t numItems, itemsCapacity;
  MlirOperation *dead; // vector ops, in program order
  intptr_t numDead, deadCapacity;
} Scalarizer;

typedef struct OpList {
  MlirOperation *ops;
  intptr_t count, capacity;
} OpList;

static MlirWalkResult collectOp(MlirOperation op, void *userData) {
  OpList *list = userData;
  list->ops = coopvecGrowArray(list->ops, &list->capacity, list->count + 1,
                               sizeof(MlirOperation));
  list->ops[list->count++] = op;
  return MlirWalkResultAdvance;
}

static bool isVector(MlirValue value) {
  return mlirTypeIsAVector(mlirValueGetType(value));
}

static MlirType elementOf(MlirValue vector) {
  return mlirShapedTypeGetElementType(mlirValueGetType(vector));
}

static MlirAttribute attributeOf(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op,
                                         mlirStringRefCreateFromCString(name));
}

static bool involvesVector(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
    if (isVector(mlirOperationGetOperand(op, i)))
      return true;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
    if (isVector(mlirOperationGetResult(op, i)))
      return true;
  return false;
}

/// Whether every vector operand and result of `op` is 1-D with a fixed
/// size.
static bool vectorsAre1D(MlirOperation op) {
  for (intptr_t i = 0;
       i < mlirOperationGetNumOperands(op) + mlirOperationGetNumResults(op);
       ++i) {
    MlirValue value =
        i < mlirOperationGetNumOperands(op)
            ? mlirOperationGetOperand(op, i)
            : mlirOperationGetResult(op, i - mlirOperationGetNumOperands(op));
    MlirType type = mlirValueGetType(value);
    if (mlirTypeIsAVector(type) &&
        (mlirShapedTypeGetRank(type) != 1 || mlirVectorTypeIsScalable(type)))
      return false;
  }
  return true;
}

static void typeError(MlirOperation op, const char *passName, const char *why) {
  coopvecEmitOpError(op,
                     "works on builtin vectors, which %s splits into their "
                     "elements for SPIR-V (whose vectors have at most 4); %s",
                     passName, why);
}

//===----------------------------------------------------------------------===//
// The element map
//===----------------------------------------------------------------------===//

static Elements *lookup(Scalarizer *s, MlirValue vector) {
  intptr_t index = coopvecPointerMapFind(&s->map, vector.ptr);
  return index < 0 ? NULL : &s->items[index];
}

/// Registers `count` elements (copied) for `vector`, made by `def`.
static Elements *define(Scalarizer *s, MlirValue vector, MlirOperation def,
                        intptr_t count, const MlirValue *values) {
  s->items = coopvecGrowArray(s->items, &s->itemsCapacity, s->numItems + 1,
                              sizeof(Elements));
  Elements *e = &s->items[s->numItems];
  memset(e, 0, sizeof(*e));
  e->count = count;
  e->def = def;
  e->values = calloc((size_t)(count ? count : 1), sizeof(MlirValue));
  if (!e->values)
    abort();
  if (values)
    memcpy(e->values, values, (size_t)count * sizeof(MlirValue));
  coopvecPointerMapInsert(&s->map, vector.ptr, s->numItems++);
  return e;
}

static void markDead(Scalarizer *s, MlirOperation op) {
  s->dead = coopvecGrowArray(s->dead, &s->deadCapacity, s->numDead + 1,
                             sizeof(MlirOperation));
  s->dead[s->numDead++] = op;
}

/// The elements of vector operand `index` of `op`, or NULL after an error.
static Elements *operandElements(Scalarizer *s, MlirOperation op,
                                 intptr_t index) {
  Elements *e = lookup(s, mlirOperationGetOperand(op, index));
  if (!e)
    typeError(op, s->passName,
              "this operand is not made by an op it splits (a block "
              "argument, a region result)");
  return e;
}

static intptr_t vectorSize(MlirValue vector) {
  return (intptr_t)mlirShapedTypeGetDimSize(mlirValueGetType(vector), 0);
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static MlirValue indexConstant(CoopvecBuilder *b, int64_t value) {
  return coopvecBuildIndexConstant(b, value);
}

static MlirValue addIndex(CoopvecBuilder *b, MlirValue base, int64_t offset) {
  if (offset == 0)
    return base;
  return coopvecBuildBinaryOp(b, "arith.addi", base, indexConstant(b, offset));
}

/// `value` if it is an i1 constant: 0 or 1; else -1.
static int constantBit(MlirValue value) {
  int64_t bit;
  return coopvecIntegerConstant(value, &bit) ? bit != 0 : -1;
}

/// `scf.if %condition -> (type) { then } else { yield elseValue }`, where
/// `then` is built by `buildThen` at the end of the then block.
typedef MlirValue (*ThenFn)(CoopvecBuilder *b, void *state);
static MlirValue buildIfElse(CoopvecBuilder *b, MlirValue condition,
                             MlirType type, ThenFn buildThen, void *state,
                             MlirValue elseValue) {
  MlirBlock thenBlock = mlirBlockCreate(0, NULL, NULL);
  MlirBlock elseBlock = mlirBlockCreate(0, NULL, NULL);
  MlirRegion regions[] = {mlirRegionCreate(), mlirRegionCreate()};
  mlirRegionAppendOwnedBlock(regions[0], thenBlock);
  mlirRegionAppendOwnedBlock(regions[1], elseBlock);
  MlirOperationState opState = mlirOperationStateGet(
      mlirStringRefCreateFromCString("scf.if"), b->location);
  mlirOperationStateAddOperands(&opState, 1, &condition);
  mlirOperationStateAddResults(&opState, 1, &type);
  mlirOperationStateAddOwnedRegions(&opState, 2, regions);
  MlirOperation op = mlirOperationCreate(&opState);
  if (mlirOperationIsNull(op))
    abort(); // an i1 condition and two blocks
  mlirBlockInsertOwnedOperationBefore(b->block, b->before, op);
  CoopvecBuilder inThen = coopvecBuilderAtEnd(thenBlock, b->location);
  MlirValue value = buildThen(&inThen, state);
  coopvecBuild0(&inThen, "scf.yield", 1, &value, 0, NULL);
  CoopvecBuilder inElse = coopvecBuilderAtEnd(elseBlock, b->location);
  coopvecBuild0(&inElse, "scf.yield", 1, &elseValue, 0, NULL);
  return mlirOperationGetResult(op, 0);
}

/// The Function storage class: convert-gpu-to-spirv makes private arrays
/// only of memrefs in it.
static MlirAttribute functionStorage(MlirContext ctx) {
  return mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString("#spirv.storage_class<Function>"));
}

/// Creates the private copy of `e` (i1 elements stored as i32): an alloca
/// at the start of the kernel, filled where the vector was made.
static void createSpill(Scalarizer *s, Elements *e) {
  MlirType element = mlirValueGetType(e->values[0]);
  bool isBool =
      mlirTypeIsAInteger(element) && mlirIntegerTypeGetWidth(element) == 1;
  MlirType stored = isBool ? mlirIntegerTypeGet(s->ctx, 32) : element;
  int64_t count = e->count;
  MlirType type = mlirMemRefTypeGet(stored, 1, &count, mlirAttributeGetNull(),
                                    functionStorage(s->ctx));
  MlirLocation loc = mlirOperationGetLocation(e->def);
  MlirOperation first = mlirBlockGetFirstOperation(s->entry);
  CoopvecBuilder atEntry = coopvecBuilderBefore(first, loc);
  e->spill = coopvecBuildAlloca(&atEntry, type, 4);
  CoopvecBuilder b = coopvecBuilderBefore(e->def, loc);
  for (intptr_t k = 0; k < e->count; ++k) {
    MlirValue value = e->values[k];
    if (isBool)
      value = coopvecBuildCast1(&b, "arith.extui", value, stored);
    coopvecBuildMemrefStore(&b, value, e->spill, indexConstant(&b, k));
  }
}

/// Element `index` (an index value) of `e`, at `b`.
static MlirValue dynamicElement(Scalarizer *s, CoopvecBuilder *b, Elements *e,
                                MlirValue index) {
  if (!mlirValueIsNull(e->memref))
    return coopvecBuildMemrefLoad(
        b, e->memref, coopvecBuildBinaryOp(b, "arith.addi", e->base, index));
  if (mlirValueIsNull(e->spill))
    createSpill(s, e);
  MlirValue value = coopvecBuildMemrefLoad(b, e->spill, index);
  if (!mlirTypeEqual(mlirValueGetType(value), mlirValueGetType(e->values[0])))
    value = coopvecBuildCmpI(
        b, COOPVEC_CMPI_NE, value,
        coopvecBuildIntConstant(b, mlirValueGetType(value), 0));
  return value;
}

/// Whether every use of `memref` only reads it.
static bool isReadOnly(MlirValue memref) {
  for (MlirOpOperand use = mlirValueGetFirstUse(memref);
       !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use)) {
    MlirOperation user = mlirOpOperandGetOwner(use);
    if (!coopvecOpIsNamed(user, "memref.load") &&
        !coopvecOpIsNamed(user, "vector.load") &&
        !coopvecOpIsNamed(user, "vector.maskedload") &&
        !coopvecOpIsNamed(user, "memref.dim"))
      return false;
  }
  return true;
}

/// The static position of a vector.extract / insert (1-D), or -1 when it
/// is dynamic (then `*dynamic` is the index operand).
static int64_t positionOf(MlirOperation op, intptr_t firstDynamic,
                          MlirValue *dynamic) {
  MlirAttribute positions = attributeOf(op, "static_position");
  if (mlirAttributeIsNull(positions) ||
      mlirDenseArrayGetNumElements(positions) != 1)
    return -2;
  int64_t position = mlirDenseI64ArrayGetElement(positions, 0);
  if (position != INT64_MIN)
    return position;
  *dynamic = mlirOperationGetOperand(op, firstDynamic);
  return -1;
}

//===----------------------------------------------------------------------===//
// The ops
//===----------------------------------------------------------------------===//

typedef struct LoadAt {
  MlirValue memref, index;
} LoadAt;

static MlirValue loadThen(CoopvecBuilder *b, void *state) {
  const LoadAt *at = state;
  return coopvecBuildMemrefLoad(b, at->memref, at->index);
}

/// vector.load %m[%i] / vector.maskedload %m[%i], %mask, %passthru.
static bool lowerLoad(Scalarizer *s, MlirOperation op, CoopvecBuilder *b,
                      bool masked) {
  MlirValue memref = mlirOperationGetOperand(op, 0);
  if (mlirShapedTypeGetRank(mlirValueGetType(memref)) != 1) {
    typeError(op, s->passName, "it splits loads from rank-1 memrefs only");
    return false;
  }
  MlirValue base = mlirOperationGetOperand(op, 1);
  MlirValue result = mlirOperationGetResult(op, 0);
  intptr_t count = vectorSize(result);
  Elements *mask = NULL, *passThru = NULL;
  if (masked && (!(mask = operandElements(s, op, 2)) ||
                 !(passThru = operandElements(s, op, 3))))
    return false;
  MlirValue *values = calloc((size_t)count, sizeof(MlirValue));
  if (!values)
    abort();
  for (intptr_t k = 0; k < count; ++k) {
    LoadAt at = {memref, addIndex(b, base, k)};
    int bit = masked ? constantBit(mask->values[k]) : 1;
    if (bit == 1)
      values[k] = loadThen(b, &at);
    else if (bit == 0)
      values[k] = passThru->values[k];
    else
      values[k] = buildIfElse(b, mask->values[k], elementOf(result), loadThen,
                              &at, passThru->values[k]);
  }
  Elements *e = define(s, result, op, count, values);
  free(values);
  if (!masked && isReadOnly(memref)) {
    e->memref = memref;
    e->base = base;
  }
  return true;
}

/// vector.store %v, %m[%i] / vector.maskedstore %m[%i], %mask, %v.
static bool lowerStore(Scalarizer *s, MlirOperation op, CoopvecBuilder *b,
                       bool masked) {
  intptr_t memrefIndex = masked ? 0 : 1;
  MlirValue memref = mlirOperationGetOperand(op, memrefIndex);
  if (mlirShapedTypeGetRank(mlirValueGetType(memref)) != 1) {
    typeError(op, s->passName, "it splits stores to rank-1 memrefs only");
    return false;
  }
  MlirValue base = mlirOperationGetOperand(op, memrefIndex + 1);
  Elements *value = operandElements(s, op, masked ? 3 : 0);
  Elements *mask = masked ? operandElements(s, op, 2) : NULL;
  if (!value || (masked && !mask))
    return false;
  for (intptr_t k = 0; k < value->count; ++k) {
    int bit = masked ? constantBit(mask->values[k]) : 1;
    if (bit == 0)
      continue;
    if (bit == 1) {
      coopvecBuildMemrefStore(b, value->values[k], memref,
                              addIndex(b, base, k));
      continue;
    }
    CoopvecIf branch = coopvecBuildIf(b, mask->values[k]);
    coopvecBuildMemrefStore(&branch.then, value->values[k], memref,
                            addIndex(&branch.then, base, k));
    coopvecFinishIf(&branch);
  }
  return true;
}

static bool lowerConstant(Scalarizer *s, MlirOperation op, CoopvecBuilder *b) {
  MlirAttribute value = attributeOf(op, "value");
  MlirValue result = mlirOperationGetResult(op, 0);
  intptr_t count = vectorSize(result);
  if (mlirAttributeIsNull(value) || !mlirAttributeIsAElements(value)) {
    typeError(op, s->passName, "its value is not an elements attribute");
    return false;
  }
  Elements *e = define(s, result, op, count, NULL);
  MlirNamedAttribute attr;
  for (intptr_t k = 0; k < count; ++k) {
    uint64_t at = (uint64_t)k;
    attr = coopvecNamedAttr(s->ctx, "value",
                            mlirElementsAttrGetValue(value, 1, &at));
    e->values[k] = coopvecBuild1(b, "arith.constant", 0, NULL,
                                 elementOf(result), 1, &attr);
  }
  return true;
}

/// vector.broadcast / vector.splat of a scalar (or of a vector of one
/// element or of the same size).
static bool lowerBroadcast(Scalarizer *s, MlirOperation op) {
  MlirValue source = mlirOperationGetOperand(op, 0);
  MlirValue result = mlirOperationGetResult(op, 0);
  intptr_t count = vectorSize(result);
  Elements *e = define(s, result, op, count, NULL);
  Elements *from = isVector(source) ? lookup(s, source) : NULL;
  if (isVector(source) &&
      (!from || (from->count != 1 && from->count != count))) {
    typeError(op, s->passName,
              from ? "it splits broadcasts of scalars and of vectors of one "
                     "element"
                   : "the source is not made by an op it splits");
    return false;
  }
  for (intptr_t k = 0; k < count; ++k)
    e->values[k] = !from ? source : from->values[from->count == 1 ? 0 : k];
  return true;
}

static bool lowerFromElements(Scalarizer *s, MlirOperation op) {
  MlirValue result = mlirOperationGetResult(op, 0);
  Elements *e = define(s, result, op, mlirOperationGetNumOperands(op), NULL);
  for (intptr_t k = 0; k < e->count; ++k)
    e->values[k] = mlirOperationGetOperand(op, k);
  return true;
}

static bool lowerExtract(Scalarizer *s, MlirOperation op, CoopvecBuilder *b) {
  Elements *source = operandElements(s, op, 0);
  if (!source)
    return false;
  MlirValue dynamic = {NULL};
  int64_t position = positionOf(op, 1, &dynamic);
  if (position < -1 || position >= source->count) {
    typeError(op, s->passName, "it splits extracts of one element");
    return false;
  }
  MlirValue element = position >= 0 ? source->values[position]
                                    : dynamicElement(s, b, source, dynamic);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), element);
  return true;
}

static bool lowerInsert(Scalarizer *s, MlirOperation op, CoopvecBuilder *b) {
  MlirValue value = mlirOperationGetOperand(op, 0);
  Elements *dest = operandElements(s, op, 1);
  if (!dest)
    return false;
  MlirValue dynamic = {NULL};
  int64_t position = positionOf(op, 2, &dynamic);
  if (position < -1 || position >= dest->count || isVector(value)) {
    typeError(op, s->passName, "it splits inserts of one element");
    return false;
  }
  MlirValue *values = dest->values;
  Elements *e = define(s, mlirOperationGetResult(op, 0), op, dest->count, NULL);
  dest = NULL; // `define` may have moved the items
  for (intptr_t k = 0; k < e->count; ++k) {
    if (position >= 0) {
      e->values[k] = k == position ? value : values[k];
      continue;
    }
    MlirValue here =
        coopvecBuildCmpI(b, COOPVEC_CMPI_EQ, dynamic, indexConstant(b, k));
    e->values[k] = coopvecBuildSelect(b, here, value, values[k]);
  }
  return true;
}

/// vector.create_mask %bound / vector.constant_mask [m]: element k is
/// k < bound.
static bool lowerMask(Scalarizer *s, MlirOperation op, CoopvecBuilder *b,
                      bool constant) {
  MlirValue result = mlirOperationGetResult(op, 0);
  intptr_t count = vectorSize(result);
  MlirValue bound;
  if (constant) {
    MlirAttribute sizes = attributeOf(op, "mask_dim_sizes");
    if (mlirAttributeIsNull(sizes) ||
        mlirDenseArrayGetNumElements(sizes) != 1) {
      typeError(op, s->passName, "its mask_dim_sizes is not one size");
      return false;
    }
    bound = indexConstant(b, mlirDenseI64ArrayGetElement(sizes, 0));
  } else {
    bound = mlirOperationGetOperand(op, 0);
  }
  Elements *e = define(s, result, op, count, NULL);
  for (intptr_t k = 0; k < count; ++k)
    e->values[k] =
        coopvecBuildCmpI(b, COOPVEC_CMPI_SLT, indexConstant(b, k), bound);
  return true;
}

static bool isElementwise(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  bool dialect = (name.length > 6 && strncmp(name.data, "arith.", 6) == 0) ||
                 (name.length > 5 && strncmp(name.data, "math.", 5) == 0);
  return dialect && mlirOperationGetNumRegions(op) == 0 &&
         mlirOperationGetNumResults(op) > 0;
}

/// `op` once per element, with its attributes; vector.fma as math.fma.
static bool lowerElementwise(Scalarizer *s, MlirOperation op, CoopvecBuilder *b,
                             const char *name) {
  intptr_t numOperands = mlirOperationGetNumOperands(op);
  intptr_t numResults = mlirOperationGetNumResults(op);
  intptr_t count = -1;
  for (intptr_t i = 0; i < numResults; ++i) {
    MlirValue result = mlirOperationGetResult(op, i);
    if (!isVector(result) || (count >= 0 && vectorSize(result) != count)) {
      typeError(op, s->passName, "its results are not vectors of one size");
      return false;
    }
    count = vectorSize(result);
  }
  Elements **operands = calloc((size_t)numOperands + 1, sizeof(Elements *));
  MlirValue *scalarOperands =
      calloc((size_t)numOperands + 1, sizeof(MlirValue));
  MlirType *types = calloc((size_t)numResults, sizeof(MlirType));
  intptr_t numAttrs = mlirOperationGetNumAttributes(op);
  MlirNamedAttribute *attrs =
      calloc((size_t)numAttrs + 1, sizeof(MlirNamedAttribute));
  if (!operands || !scalarOperands || !types || !attrs)
    abort();
  bool ok = true;
  for (intptr_t i = 0; ok && i < numOperands; ++i) {
    MlirValue operand = mlirOperationGetOperand(op, i);
    if (!isVector(operand))
      continue;
    operands[i] = operandElements(s, op, i);
    ok = operands[i] && operands[i]->count == count;
    if (operands[i] && !ok)
      typeError(op, s->passName, "its operands are not vectors of one size");
  }
  for (intptr_t i = 0; i < numResults; ++i)
    types[i] = elementOf(mlirOperationGetResult(op, i));
  for (intptr_t i = 0; i < numAttrs; ++i)
    attrs[i] = mlirOperationGetAttribute(op, i);
  MlirValue *results =
      calloc((size_t)(numResults * (count > 0 ? count : 1)), sizeof(MlirValue));
  if (!results)
    abort();
  for (intptr_t k = 0; ok && k < count; ++k) {
    for (intptr_t i = 0; i < numOperands; ++i)
      scalarOperands[i] =
          operands[i] ? operands[i]->values[k] : mlirOperationGetOperand(op, i);
    bool fma = coopvecOpIsNamed(op, "vector.fma");
    MlirOperation scalar =
        coopvecBuildOperation(b, name, numOperands, scalarOperands, numResults,
                              types, fma ? 0 : numAttrs, attrs);
    if (mlirOperationIsNull(scalar)) {
      typeError(op, s->passName, "MLIR refused the op on scalars");
      ok = false;
      break;
    }
    for (intptr_t i = 0; i < numResults; ++i)
      results[i * count + k] = mlirOperationGetResult(scalar, i);
  }
  // `define` may move the items the operand pointers point into: last.
  for (intptr_t i = 0; ok && i < numResults; ++i)
    define(s, mlirOperationGetResult(op, i), op, count, &results[i * count]);
  free(results);
  free(operands);
  free(scalarOperands);
  free(types);
  free(attrs);
  return ok;
}

/// Splits `op` if it involves a vector; false after an error.
static bool scalarizeOp(Scalarizer *s, MlirOperation op) {
  if (!involvesVector(op))
    return true;
  if (!vectorsAre1D(op)) {
    typeError(op, s->passName, "it splits 1-D vectors of a fixed size only");
    return false;
  }
  CoopvecBuilder b = coopvecBuilderBefore(op, mlirOperationGetLocation(op));
  bool ok;
  if (coopvecOpIsNamed(op, "vector.load"))
    ok = lowerLoad(s, op, &b, false);
  else if (coopvecOpIsNamed(op, "vector.maskedload"))
    ok = lowerLoad(s, op, &b, true);
  else if (coopvecOpIsNamed(op, "vector.store"))
    ok = lowerStore(s, op, &b, false);
  else if (coopvecOpIsNamed(op, "vector.maskedstore"))
    ok = lowerStore(s, op, &b, true);
  else if (coopvecOpIsNamed(op, "arith.constant"))
    ok = lowerConstant(s, op, &b);
  else if (coopvecOpIsNamed(op, "vector.broadcast") ||
           coopvecOpIsNamed(op, "vector.splat"))
    ok = lowerBroadcast(s, op);
  else if (coopvecOpIsNamed(op, "vector.from_elements"))
    ok = lowerFromElements(s, op);
  else if (coopvecOpIsNamed(op, "vector.extract"))
    ok = lowerExtract(s, op, &b);
  else if (coopvecOpIsNamed(op, "vector.insert"))
    ok = lowerInsert(s, op, &b);
  else if (coopvecOpIsNamed(op, "vector.create_mask"))
    ok = lowerMask(s, op, &b, false);
  else if (coopvecOpIsNamed(op, "vector.constant_mask"))
    ok = lowerMask(s, op, &b, true);
  else if (coopvecOpIsNamed(op, "vector.fma"))
    ok = lowerElementwise(s, op, &b, "math.fma");
  else if (isElementwise(op)) {
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
    CoopvecBuffer copy = {0};
    coopvecBufferAppend(&copy, name.data, name.length);
    ok = lowerElementwise(s, op, &b, coopvecBufferStr(&copy));
    coopvecBufferFree(&copy);
  } else {
    typeError(op, s->passName, "it does not split this op");
    ok = false;
  }
  if (ok)
    markDead(s, op);
  return ok;
}

bool coopvecScalarizeVectors(MlirOperation kernel, const char *passName) {
  Scalarizer s;
  memset(&s, 0, sizeof(s));
  s.passName = passName;
  s.ctx = mlirOperationGetContext(kernel);
  s.entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0));
  OpList list = {NULL, 0, 0};
  mlirOperationWalk(kernel, collectOp, &list, MlirWalkPreOrder);
  bool ok = true;
  for (intptr_t i = 0; ok && i < list.count; ++i)
    if (!mlirOperationEqual(list.ops[i], kernel))
      ok = scalarizeOp(&s, list.ops[i]);
  // Users come after their definitions: erase backwards. Nothing is erased
  // after an error, when a vector may still have users.
  for (intptr_t i = s.numDead - 1; ok && i >= 0; --i)
    mlirOperationDestroy(s.dead[i]);
  for (intptr_t i = 0; i < s.numItems; ++i)
    free(s.items[i].values);
  free(s.items);
  free(s.dead);
  free(list.ops);
  coopvecPointerMapFree(&s.map);
  return ok;
}
