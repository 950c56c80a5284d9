//===- ConvertCoopvecToVector.c - convert-coopvec-to-vector ---------------===//
//
// Turns every per-thread function @f (one with coopvec types in its
// signature or coopvec ops in its body) into @f_batched, which runs @f for
// threads 0..n-1 in groups of L SIMD lanes (docs/execution-model.md has the
// ABI). The lane loop is an scf.for over groups; the last group is masked.
// Per-op lowerings live in Lower*.c; this file checks that a function can
// be lowered (before anything changes) and builds the batched function.
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToVector/Lowering.h"
#include "Support/Alloc.h"
#include "Support/Operation.h"

#include "Dialect/Verifier.h"
#include "Pass/PassDef.h"
#include "Support/Buffer.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Diagnostics.h>
#include <mlir-c/Dialect/Arith.h>
#include <mlir-c/Dialect/Func.h>
#include <mlir-c/Dialect/Math.h>
#include <mlir-c/Dialect/MemRef.h>
#include <mlir-c/Dialect/SCF.h>
#include <mlir-c/Dialect/Vector.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ConvertOptions {
  int64_t lanes;
  int64_t rowBlock;
} ConvertOptions;

enum { MAX_LANES = 256, MAX_ROW_BLOCK = 64 };

static bool nameStartsWith(MlirOperation op, const char *prefix) {
  MlirStringRef opName = mlirIdentifierStr(mlirOperationGetName(op));
  return opName.length >= strlen(prefix) &&
         strncmp(prefix, opName.data, strlen(prefix)) == 0;
}

static bool isCoopvecType(MlirType type) {
  return coopvecTypeIsAVec(type) || coopvecTypeIsAMatrix(type);
}

static MlirType functionTypeOf(MlirOperation func) {
  MlirAttribute attr = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("function_type"));
  return mlirTypeAttrGetValue(attr);
}

static MlirStringRef symbolNameOf(MlirOperation op) {
  MlirAttribute attr = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("sym_name"));
  if (mlirAttributeIsNull(attr) || !mlirAttributeIsAString(attr))
    return mlirStringRefCreate("", 0);
  return mlirStringAttrGetValue(attr);
}

static MlirWalkResult findCoopvecOp(MlirOperation op, void *userData) {
  if (!nameStartsWith(op, "coopvec."))
    return MlirWalkResultAdvance;
  *(bool *)userData = true;
  return MlirWalkResultInterrupt;
}

/// Per-thread: coopvec types in the signature or coopvec ops in the body.
static bool isPerThreadFunction(MlirOperation func) {
  MlirType type = functionTypeOf(func);
  for (intptr_t i = 0; i < mlirFunctionTypeGetNumInputs(type); ++i)
    if (isCoopvecType(mlirFunctionTypeGetInput(type, i)))
      return true;
  for (intptr_t i = 0; i < mlirFunctionTypeGetNumResults(type); ++i)
    if (isCoopvecType(mlirFunctionTypeGetResult(type, i)))
      return true;
  bool found = false;
  mlirOperationWalk(func, findCoopvecOp, &found, MlirWalkPreOrder);
  return found;
}

//===----------------------------------------------------------------------===//
// Checking (nothing is changed until every per-thread function passes)
//===----------------------------------------------------------------------===//

typedef struct FunctionList {
  MlirOperation *ops;
  intptr_t count;
} FunctionList;

static bool listContainsName(const FunctionList *list, MlirStringRef name) {
  for (intptr_t i = 0; i < list->count; ++i) {
    MlirStringRef other = symbolNameOf(list->ops[i]);
    if (other.length == name.length &&
        strncmp(other.data, name.data, name.length) == 0)
      return true;
  }
  return false;
}

static MlirBlock moduleBody(MlirOperation module) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
}

static bool moduleDefinesSymbol(MlirOperation module, MlirStringRef name) {
  for (MlirOperation op = mlirBlockGetFirstOperation(moduleBody(module));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef other = symbolNameOf(op);
    if (other.length == name.length &&
        strncmp(other.data, name.data, name.length) == 0)
      return true;
  }
  return false;
}

/// A value that differs between threads: a vec, or what unpack / to_vector
/// made of one.
static bool isPerThreadValue(MlirValue value) {
  if (coopvecTypeIsAVec(mlirValueGetType(value)))
    return true;
  if (!mlirValueIsAOpResult(value))
    return false;
  MlirOperation owner = mlirOpResultGetOwner(value);
  return coopvecOpIsNamed(owner, "coopvec.unpack") ||
         coopvecOpIsNamed(owner, "coopvec.to_vector");
}

static bool checkSignature(MlirOperation func) {
  MlirType type = functionTypeOf(func);
  MlirStringRef name = symbolNameOf(func);
  for (intptr_t i = 0; i < mlirFunctionTypeGetNumInputs(type); ++i) {
    if (!coopvecTypeIsAMatrix(mlirFunctionTypeGetInput(type, i)))
      continue;
    coopvecEmitOpError(func,
                       "@%.*s: argument #%ld is a !coopvec.matrix, which "
                       "has no batched form; pass its buffer and create the "
                       "view with coopvec.matrix_view inside the function",
                       (int)name.length, name.data, (long)i);
    return false;
  }
  for (intptr_t i = 0; i < mlirFunctionTypeGetNumResults(type); ++i) {
    if (coopvecTypeIsAVec(mlirFunctionTypeGetResult(type, i)))
      continue;
    coopvecEmitOpError(func,
                       "@%.*s: result #%ld of a per-thread function must be "
                       "a !coopvec.vec (each thread's result is written to "
                       "an output buffer)",
                       (int)name.length, name.data, (long)i);
    return false;
  }
  return true;
}

/// Gradient tiles of outer products live on the stack (LowerMatvec.c).
static bool checkMatrixSize(MlirOperation op, MlirValue matrix) {
  MlirType type = mlirValueGetType(matrix);
  int64_t rows = coopvecMatrixTypeGetRows(type);
  int64_t cols = coopvecMatrixTypeGetCols(type);
  if (rows * cols <= CV_MAX_MATRIX_ELEMENTS)
    return true;
  coopvecEmitOpError(op,
                     "uses a %lld x %lld matrix; convert-coopvec-to-vector "
                     "handles matrices of at most %d elements",
                     (long long)rows, (long long)cols,
                     (int)CV_MAX_MATRIX_ELEMENTS);
  return false;
}

static bool checkCoopvecOp(MlirOperation op) {
  if (!cvLookupOpLowering(mlirIdentifierStr(mlirOperationGetName(op)))) {
    coopvecEmitOpError(op, "is not supported by convert-coopvec-to-vector");
    return false;
  }
  if (coopvecOpIsNamed(op, "coopvec.matvec"))
    return checkMatrixSize(op, mlirOperationGetOperand(op, 0));
  if (coopvecOpIsNamed(op, "coopvec.outer_product_accumulate"))
    return checkMatrixSize(op, mlirOperationGetOperand(op, 2));
  return true;
}

/// Uniform ops are moved into the lane loop and so run once per group of
/// threads instead of once per thread. That is only right for ops without
/// read-modify-write effects or regions: arith, math, index, vector, ub,
/// affine index arithmetic and memref ops other than atomics.
static bool isMovableUniformOp(MlirOperation op) {
  if (mlirOperationGetNumRegions(op) != 0 ||
      coopvecOpIsNamed(op, "memref.atomic_rmw"))
    return false;
  static const char *const prefixes[] = {"arith.",  "math.",   "index.",
                                         "vector.", "memref.", "ub."};
  for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); ++i)
    if (nameStartsWith(op, prefixes[i]))
      return true;
  return coopvecOpIsNamed(op, "affine.apply") ||
         coopvecOpIsNamed(op, "affine.min") ||
         coopvecOpIsNamed(op, "affine.max");
}

static bool checkOtherOp(MlirOperation op, const FunctionList *perThread) {
  if (coopvecOpIsNamed(op, "func.call")) {
    MlirAttribute callee = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("callee"));
    MlirStringRef name = mlirFlatSymbolRefAttrGetValue(callee);
    if (listContainsName(perThread, name)) {
      coopvecEmitOpError(op,
                         "calls per-thread function @%.*s; "
                         "convert-coopvec-to-vector does not support calls "
                         "between per-thread functions (inline the callee)",
                         (int)name.length, name.data);
      return false;
    }
  }
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    if (!isPerThreadValue(mlirOperationGetOperand(op, i)))
      continue;
    coopvecEmitOpError(op,
                       "uses a per-thread value (operand #%ld); only "
                       "coopvec ops can use per-thread values",
                       (long)i);
    return false;
  }
  if (isMovableUniformOp(op))
    return true;
  coopvecEmitOpError(op, "cannot be lowered inside a per-thread function: "
                         "only coopvec, arith, math, index, vector, ub, "
                         "affine index and non-atomic memref ops can");
  return false;
}

static bool checkFunction(MlirOperation func, MlirOperation module,
                          const FunctionList *perThread) {
  MlirStringRef name = symbolNameOf(func);
  MlirRegion body = mlirOperationGetRegion(func, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(body);
  if (mlirBlockIsNull(entry) ||
      !mlirBlockIsNull(mlirBlockGetNextInRegion(entry))) {
    coopvecEmitOpError(func,
                       "@%.*s: a per-thread function must have a body of "
                       "exactly one block",
                       (int)name.length, name.data);
    return false;
  }
  CoopvecBuffer batched = {0};
  coopvecBufferAppendf(&batched, "%.*s_batched", (int)name.length, name.data);
  bool clash = moduleDefinesSymbol(
      module, mlirStringRefCreate(batched.data, batched.size));
  if (clash)
    coopvecEmitOpError(func, "@%.*s: cannot create @%s, the name is taken",
                       (int)name.length, name.data, coopvecBufferStr(&batched));
  coopvecBufferFree(&batched);
  if (clash || !checkSignature(func))
    return false;
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(entry);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (nameStartsWith(op, "coopvec."))
      ok &= checkCoopvecOp(op);
    else if (!coopvecOpIsNamed(op, "func.return"))
      ok &= checkOtherOp(op, perThread);
  }
  return ok;
}

//===----------------------------------------------------------------------===//
// Building @f_batched
//===----------------------------------------------------------------------===//

static MlirType memrefOf(MlirType element) {
  int64_t shape[] = {mlirShapedTypeGetDynamicSize()};
  return mlirMemRefTypeContiguousGet(element, 1, shape, mlirAttributeGetNull());
}

/// (n, arguments with vec -> memref<?xT>, one memref<?xT> per result) -> ().
static MlirType batchedType(MlirContext ctx, MlirType type) {
  intptr_t numInputs = mlirFunctionTypeGetNumInputs(type);
  intptr_t numResults = mlirFunctionTypeGetNumResults(type);
  intptr_t count = 1 + numInputs + numResults;
  MlirType *inputs = calloc((size_t)count, sizeof(MlirType));
  if (!inputs)
    abort();
  inputs[0] = mlirIndexTypeGet(ctx);
  for (intptr_t i = 0; i < numInputs; ++i) {
    MlirType input = mlirFunctionTypeGetInput(type, i);
    inputs[1 + i] = coopvecTypeIsAVec(input)
                        ? memrefOf(coopvecVecTypeGetElementType(input))
                        : input;
  }
  for (intptr_t i = 0; i < numResults; ++i)
    inputs[1 + numInputs + i] = memrefOf(
        coopvecVecTypeGetElementType(mlirFunctionTypeGetResult(type, i)));
  MlirType batched = mlirFunctionTypeGet(ctx, count, inputs, 0, NULL);
  free(inputs);
  return batched;
}

/// Creates `func.func @<name>_batched` (empty entry block) after `func`.
static MlirOperation createBatchedFunction(MlirOperation module,
                                           MlirOperation func) {
  MlirContext ctx = mlirOperationGetContext(func);
  MlirLocation loc = mlirOperationGetLocation(func);
  MlirType type = batchedType(ctx, functionTypeOf(func));
  intptr_t numArgs = mlirFunctionTypeGetNumInputs(type);
  MlirType *argTypes = calloc((size_t)numArgs, sizeof(MlirType));
  MlirLocation *argLocs = calloc((size_t)numArgs, sizeof(MlirLocation));
  if (!argTypes || !argLocs)
    abort();
  for (intptr_t i = 0; i < numArgs; ++i) {
    argTypes[i] = mlirFunctionTypeGetInput(type, i);
    argLocs[i] = loc;
  }
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region,
                             mlirBlockCreate(numArgs, argTypes, argLocs));
  free(argTypes);
  free(argLocs);

  MlirStringRef name = symbolNameOf(func);
  CoopvecBuffer batchedName = {0};
  coopvecBufferAppendf(&batchedName, "%.*s_batched", (int)name.length,
                       name.data);
  MlirNamedAttribute attributes[] = {
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("sym_name")),
          mlirStringAttrGet(
              ctx, mlirStringRefCreate(batchedName.data, batchedName.size))),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx,
                            mlirStringRefCreateFromCString("function_type")),
          mlirTypeAttrGet(type)),
      mlirNamedAttributeGet(
          mlirIdentifierGet(
              ctx, mlirStringRefCreateFromCString("llvm.emit_c_interface")),
          mlirUnitAttrGet(ctx)),
  };
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString("func.func"), loc);
  mlirOperationStateAddAttributes(&state, 3, attributes);
  mlirOperationStateAddOwnedRegions(&state, 1, &region);
  MlirOperation batched = mlirOperationCreate(&state);
  coopvecBufferFree(&batchedName);
  mlirBlockInsertOwnedOperationAfter(moduleBody(module), func, batched);
  return batched;
}

/// Appends `scf.for %t = 0 to %n step L` and `func.return` to the batched
/// function's entry block and points the builders before the loop and
/// before the loop body's terminator.
static void createLaneLoop(Lowering *l, MlirOperation batched) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(batched, 0));
  l->entry.block = entry;
  MlirValue bounds[] = {cvIndexConstant(l, 0), mlirBlockGetArgument(entry, 0),
                        cvIndexConstant(l, l->lanes)};
  MlirLocation loc = l->entry.loc;
  MlirBlock body = mlirBlockCreate(1, &l->index, &loc);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, body);
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString("scf.for"), loc);
  mlirOperationStateAddOperands(&state, 3, bounds);
  mlirOperationStateAddOwnedRegions(&state, 1, &region);
  MlirOperation loop = mlirOperationCreate(&state);
  mlirBlockAppendOwnedOperation(entry, loop);
  MlirOperation ret =
      cvCreate(&l->entry, "func.return", 0, NULL, 0, NULL, NULL);
  l->entry.before = loop;
  l->exit = l->entry;
  l->exit.before = ret;

  CvBuilder inLoop = {l->ctx, loc, body, {NULL}};
  MlirOperation yield = cvCreate(&inLoop, "scf.yield", 0, NULL, 0, NULL, NULL);
  l->body = inLoop;
  l->body.before = yield;
  l->threadBase = mlirBlockGetArgument(body, 0);
}

/// The valid-lane count and mask of the current group: the last group may
/// hold fewer than L threads.
static void createMask(Lowering *l) {
  MlirValue n = mlirBlockGetArgument(l->entry.block, 0);
  MlirValue remaining = cvBinary(&l->body, "arith.subi", n, l->threadBase);
  l->validLanes = cvBinary(&l->body, "arith.minsi", remaining,
                           cvIndexConstant(l, l->lanes));
  int64_t lanes = l->lanes;
  MlirType maskType =
      mlirVectorTypeGet(1, &lanes, mlirIntegerTypeGet(l->ctx, 1));
  l->mask = cvCreate1(&l->body, "vector.create_mask", 1, &l->validLanes,
                      maskType, NULL);
}

/// dense<[0, N, 2N, ...]> : vector<L x i32>: thread l's element i of a
/// row-major n x N buffer is at (threadBase + l) * N + i.
static MlirValue createStrides(Lowering *l, intptr_t size) {
  CoopvecBuffer text = {0};
  coopvecBufferAppendStr(&text, "dense<[");
  for (int64_t lane = 0; lane < l->lanes; ++lane)
    coopvecBufferAppendf(&text, "%s%lld", lane ? ", " : "",
                         (long long)lane * (long long)size);
  coopvecBufferAppendf(&text, "]> : vector<%lldxi32>", (long long)l->lanes);
  int64_t lanes = l->lanes;
  MlirType type = mlirVectorTypeGet(1, &lanes, mlirIntegerTypeGet(l->ctx, 32));
  MlirValue strides = cvConstant(&l->entry, type, coopvecBufferStr(&text));
  coopvecBufferFree(&text);
  return strides;
}

/// The strides and group base for vecs of `size` elements, created once.
static const GroupLayout *groupLayout(Lowering *l, intptr_t size) {
  for (intptr_t i = 0; i < l->numLayouts; ++i)
    if (l->layouts[i].size == size)
      return &l->layouts[i];
  l->layouts = coopvecGrowArray(l->layouts, &l->layoutsCapacity,
                                l->numLayouts + 1, sizeof(GroupLayout));
  GroupLayout *layout = &l->layouts[l->numLayouts++];
  layout->size = size;
  layout->strides = createStrides(l, size);
  layout->groupBase = size == 1
                          ? l->threadBase
                          : cvBinary(&l->body, "arith.muli", l->threadBase,
                                     cvIndexConstant(l, size));
  return layout;
}

/// The index of element i of the group's first thread: threadBase * N + i.
static MlirValue elementIndex(Lowering *l, const GroupLayout *layout,
                              intptr_t i) {
  if (i == 0)
    return layout->groupBase;
  return cvBinary(&l->body, "arith.addi", layout->groupBase,
                  cvIndexConstant(l, i));
}

/// Gathers the N x L tile of a vec argument from its n x N buffer.
static void loadVecArgument(Lowering *l, MlirValue arg, MlirValue buffer,
                            MlirType vecType) {
  intptr_t size = (intptr_t)coopvecVecTypeGetSize(vecType);
  MlirType element = coopvecVecTypeGetElementType(vecType);
  int64_t lanes = l->lanes;
  MlirType loadType = mlirVectorTypeGet(1, &lanes, element);
  MlirValue passThrough = l->zeroLanes;
  if (mlirTypeIsAF16(element)) {
    char zero[64];
    snprintf(zero, sizeof(zero), "dense<0.0> : vector<%lldxf16>",
             (long long)lanes);
    passThrough = cvConstant(&l->entry, loadType, zero);
  }
  const GroupLayout *layout = groupLayout(l, size);
  MlirValue *lanesOf = calloc((size_t)size, sizeof(MlirValue));
  if (!lanesOf)
    abort();
  for (intptr_t i = 0; i < size; ++i) {
    MlirValue operands[] = {buffer, elementIndex(l, layout, i), layout->strides,
                            l->mask, passThrough};
    lanesOf[i] = cvExtendToF32(
        l, cvCreate1(&l->body, "vector.gather", 5, operands, loadType, NULL));
  }
  cvMapLanes(l, arg, size, lanesOf);
  free(lanesOf);
}

/// Scatters each returned vec's lanes to its n x N output buffer.
static void lowerReturn(Lowering *l, MlirOperation ret, intptr_t firstOutput) {
  for (intptr_t r = 0; r < mlirOperationGetNumOperands(ret); ++r) {
    MlirValue value = mlirOperationGetOperand(ret, r);
    MlirValue buffer = mlirBlockGetArgument(l->entry.block, firstOutput + r);
    MlirType element = cvVecElementType(value);
    intptr_t size = cvVecSize(value);
    const GroupLayout *layout = groupLayout(l, size);
    for (intptr_t i = 0; i < size; ++i) {
      MlirValue lane = cvTruncateTo(l, cvOperandLane(l, value, i), element);
      MlirValue operands[] = {buffer, elementIndex(l, layout, i),
                              layout->strides, l->mask, lane};
      cvCreate(&l->body, "vector.scatter", 5, operands, 0, NULL, NULL);
    }
  }
}

static void initLowering(Lowering *l, MlirOperation func,
                         const ConvertOptions *options) {
  memset(l, 0, sizeof(*l));
  l->ctx = mlirOperationGetContext(func);
  l->lanes = options->lanes;
  l->rowBlock = options->rowBlock;
  l->entry.ctx = l->ctx;
  l->entry.loc = mlirOperationGetLocation(func);
  l->f32 = mlirF32TypeGet(l->ctx);
  l->index = mlirIndexTypeGet(l->ctx);
  l->laneType = mlirVectorTypeGet(1, &l->lanes, l->f32);
}

static void freeLowering(Lowering *l) {
  for (intptr_t i = 0; i < l->numValues; ++i)
    free(l->values[i].lanes);
  free(l->values);
  free(l->matrices);
  free(l->layouts);
  free(l->constants);
}

/// Maps the arguments of `func` to those of the batched function: vec
/// arguments are gathered, the others are uniform and used directly.
static void mapArguments(Lowering *l, MlirBlock original) {
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(original); ++i) {
    MlirValue arg = mlirBlockGetArgument(original, i);
    MlirValue replacement = mlirBlockGetArgument(l->entry.block, 1 + i);
    MlirType type = mlirValueGetType(arg);
    if (coopvecTypeIsAVec(type))
      loadVecArgument(l, arg, replacement, type);
    else
      mlirValueReplaceAllUsesOfWith(arg, replacement);
  }
}

/// Builds @f_batched from the checked per-thread function `func`, then
/// erases `func`. Uniform ops are moved into the lane loop in order;
/// coopvec ops are lowered in place of them.
static bool lowerFunction(MlirOperation module, MlirOperation func,
                          const ConvertOptions *options) {
  Lowering l;
  initLowering(&l, func, options);
  MlirOperation batched = createBatchedFunction(module, func);
  createLaneLoop(&l, batched);
  l.zeroLanes = cvLaneConstant(&l, 0.0);
  createMask(&l);
  MlirBlock original = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  mapArguments(&l, original);
  intptr_t firstOutput = 1 + mlirBlockGetNumArguments(original);
  bool ok = true;
  MlirOperation next;
  for (MlirOperation op = mlirBlockGetFirstOperation(original);
       ok && !mlirOperationIsNull(op); op = next) {
    next = mlirOperationGetNextInBlock(op);
    l.body.loc = mlirOperationGetLocation(op);
    if (nameStartsWith(op, "coopvec."))
      ok = cvLookupOpLowering(mlirIdentifierStr(mlirOperationGetName(op)))(&l,
                                                                           op);
    else if (coopvecOpIsNamed(op, "func.return"))
      lowerReturn(&l, op, firstOutput);
    else
      mlirOperationMoveBefore(op, l.body.before);
  }
  freeLowering(&l);
  mlirOperationDestroy(func);
  return ok;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// The host's SIMD registers, for the defaults of `lanes` and `row-block`.
typedef struct HostSimd {
  int64_t floatsPerRegister, numRegisters;
} HostSimd;

static HostSimd hostSimd(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    return (HostSimd){16, 32};
  if (__builtin_cpu_supports("avx2"))
    return (HostSimd){8, 16};
#endif
  return (HostSimd){4, 16};
}

/// Lane vectors two registers wide: each broadcast weight then feeds two
/// fmas, so the matvec kernel needs half a load per fma (measured in
/// docs/execution-model.md).
static int64_t defaultLanes(HostSimd simd) {
  return 2 * simd.floatsPerRegister;
}

/// Half the registers hold accumulators; the rest hold the input lane
/// vector, the broadcast weights and addresses.
static int64_t defaultRowBlock(HostSimd simd, int64_t lanes) {
  int64_t registersPerLaneVector =
      (lanes + simd.floatsPerRegister - 1) / simd.floatsPerRegister;
  int64_t rows = simd.numRegisters / 2 / registersPerLaneVector;
  return rows < 1 ? 1 : rows;
}

static FunctionList collectPerThreadFunctions(MlirOperation module) {
  FunctionList list = {NULL, 0};
  intptr_t capacity = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(moduleBody(module));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!coopvecOpIsNamed(op, "func.func") || !isPerThreadFunction(op))
      continue;
    list.ops = coopvecGrowArray(list.ops, &capacity, list.count + 1,
                                sizeof(MlirOperation));
    list.ops[list.count++] = op;
  }
  return list;
}

/// Fills in the defaults (0) of `options`; false after an error.
static bool resolveOptions(MlirOperation module, ConvertOptions *options) {
  HostSimd simd = hostSimd();
  if (options->lanes == 0)
    options->lanes = defaultLanes(simd);
  if (options->rowBlock == 0)
    options->rowBlock = defaultRowBlock(simd, options->lanes);
  CoopvecBuffer message = {0};
  if (options->lanes < 1 || options->lanes > MAX_LANES)
    coopvecBufferAppendf(&message,
                         "convert-coopvec-to-vector: lanes=%lld is out of "
                         "range; use 1 to %d, or 0 for the host's default",
                         (long long)options->lanes, MAX_LANES);
  else if (options->rowBlock < 1 || options->rowBlock > MAX_ROW_BLOCK)
    coopvecBufferAppendf(&message,
                         "convert-coopvec-to-vector: row-block=%lld is out "
                         "of range; use 1 to %d, or 0 for the host's default",
                         (long long)options->rowBlock, MAX_ROW_BLOCK);
  bool ok = message.size == 0;
  if (!ok)
    mlirEmitError(mlirOperationGetLocation(module), coopvecBufferStr(&message));
  coopvecBufferFree(&message);
  return ok;
}

static void runConvert(MlirOperation module, MlirExternalPass pass,
                       const void *options) {
  ConvertOptions resolved = *(const ConvertOptions *)options;
  if (!resolveOptions(module, &resolved)) {
    mlirExternalPassSignalFailure(pass);
    return;
  }
  FunctionList perThread = collectPerThreadFunctions(module);
  bool ok = true;
  for (intptr_t i = 0; i < perThread.count; ++i)
    ok &= checkFunction(perThread.ops[i], module, &perThread);
  for (intptr_t i = 0; ok && i < perThread.count; ++i)
    ok = lowerFunction(module, perThread.ops[i], &resolved);
  free(perThread.ops);
  if (!ok)
    mlirExternalPassSignalFailure(pass);
}

static const CoopvecPassOption convertOptions[] = {
    {"lanes", CoopvecOptionInt, offsetof(ConvertOptions, lanes), "0",
     "threads per SIMD group; 0 picks two registers' worth of f32 on the "
     "host (32 with AVX-512F, 16 with AVX2, else 8)"},
    {"row-block", CoopvecOptionInt, offsetof(ConvertOptions, rowBlock), "0",
     "output rows per matvec block (accumulators); 0 picks half the host's "
     "vector registers' worth (8 with AVX-512F and 32 lanes)"},
};

static MlirDialectHandle (*const convertDependentDialects[])(void) = {
    mlirGetDialectHandle__arith__, mlirGetDialectHandle__func__,
    mlirGetDialectHandle__math__,  mlirGetDialectHandle__memref__,
    mlirGetDialectHandle__scf__,   mlirGetDialectHandle__vector__,
};

const CoopvecPassDef coopvecConvertToVectorPassDef = {
    .argument = "convert-coopvec-to-vector",
    .name = "ConvertCoopvecToVector",
    .description = "Lower per-thread coopvec functions to batched functions "
                   "over SIMD lanes (vector, arith, math, memref, scf)",
    .anchor = "builtin.module",
    .options = convertOptions,
    .numOptions = sizeof(convertOptions) / sizeof(convertOptions[0]),
    .optionsSize = sizeof(ConvertOptions),
    .dependentDialects = convertDependentDialects,
    .numDependentDialects =
        sizeof(convertDependentDialects) / sizeof(convertDependentDialects[0]),
    .run = runConvert,
};
