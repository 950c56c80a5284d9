//===- Shadows.c - f32 shadows of accumulated f16 buffers -----------------===//
//
// The dialect sums an f16 gradient over the threads of a run in f32 and
// rounds once (docs/dialect.md, "f16 accumulation"). The lowered code adds
// partial sums with atomics, and an atomic add into an f16 buffer rounds to
// f16 each time: 65537 threads adding 1/64 stop at 256 (Vulkan, one add per
// subgroup) or 512 (the CPU, per lane group) instead of 1024. So the engine
// compiles each buffer it can prove is only accumulated into as f32
// (the same values are added: f16 -> f32 is exact, and so is the product
// of two f16 values in f32), runs on an f32 shadow and rounds once. That
// includes buffers only scatter-add atomics add into, on every target (one
// rounding on every engine, not one per atomic); on the CPU their shadow
// is an f32 buffer the lowering's reduce-mode=expand can copy per host
// thread (ReduceMode.h, Expand.c), so the copies sum in f32 too and the
// merge adds into the shadow.
//
// The rewrite runs on the clone a backend lowers; signatures, extents and
// every check before a run keep reading the engine's unrewritten module,
// in the caller's f16 elements. The shadow has as many elements as the
// caller's buffer, so the run-time bounds checks (the buffer sizes the
// lowered code and the GPU status words see) are unchanged, and every
// matrix_view keeps its element offset (its byte offset doubles).
//
//===----------------------------------------------------------------------===//

#include "ExecutionEngine/Shadows.h"

#include "Conversion/PerThread/ReduceMode.h"
#include "Dialect/Functions.h"
#include "IR/UpstreamBuilders.h"

#include "coopvec-c/Builders.h"
#include "coopvec-c/Dialect.h"
#include "coopvec-c/HostArray.h"
#include "coopvec-c/Passes.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// Which arguments
//===----------------------------------------------------------------------===//

static bool isF16MemRef(MlirType type) {
  return mlirTypeIsAMemRef(type) && mlirShapedTypeGetRank(type) == 1 &&
         mlirTypeIsAF16(mlirShapedTypeGetElementType(type));
}

/// The byte offset of a matrix_view, if it is a non-negative integer whose
/// double (the offset of the f32 view) fits in 64 bits.
static bool viewOffset(MlirOperation view, int64_t *offset) {
  MlirAttribute attr = mlirOperationGetAttributeByName(
      view, mlirStringRefCreateFromCString("offset"));
  if (mlirAttributeIsNull(attr) || !mlirAttributeIsAInteger(attr))
    return false;
  *offset = mlirIntegerAttrGetValueInt(attr);
  return *offset >= 0 && *offset <= INT64_MAX / 2;
}

/// A view whose matrix is only the gradient of outer_product_accumulate
/// (a matvec reading it would see f32 data in place of f16).
static bool viewIsOnlyAccumulated(MlirOperation view) {
  int64_t offset;
  if (!viewOffset(view, &offset))
    return false;
  MlirValue matrix = mlirOperationGetResult(view, 0);
  for (MlirOpOperand use = mlirValueGetFirstUse(matrix);
       !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use))
    if (!coopvecOpIsNamed(mlirOpOperandGetOwner(use),
                          "coopvec.outer_product_accumulate") ||
        mlirOpOperandGetOperandNumber(use) != 2)
      return false;
  return true;
}

/// A scatter-add memref.atomic_rmw addf counts too (on the CPU the shadow
/// also lets reduce-mode=expand give each host thread an f32 copy).
static bool isAccumulatingUse(MlirOpOperand use) {
  MlirOperation user = mlirOpOperandGetOwner(use);
  if (coopvecOpIsNamed(user, "coopvec.reduce_sum_accumulate"))
    return mlirOpOperandGetOperandNumber(use) == 1;
  if (coopvecOpIsNamed(user, "memref.atomic_rmw"))
    return mlirOpOperandGetOperandNumber(use) == 1 &&
           coopvecOpIsScatterAdd(user);
  return coopvecOpIsNamed(user, "coopvec.matrix_view") &&
         viewIsOnlyAccumulated(user);
}

typedef struct CalleeSearch {
  MlirStringRef name;
  bool found;
} CalleeSearch;

static MlirWalkResult findCall(MlirOperation op, void *userData) {
  CalleeSearch *search = userData;
  MlirAttribute callee = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("callee"));
  if (!mlirAttributeIsNull(callee) && mlirAttributeIsAFlatSymbolRef(callee) &&
      mlirStringRefEqual(mlirFlatSymbolRefAttrGetValue(callee), search->name))
    search->found = true;
  return search->found ? MlirWalkResultInterrupt : MlirWalkResultAdvance;
}

/// Whether a call refers to `func`: its signature must then stay as the
/// callers see it.
static bool isCalled(MlirOperation module, MlirOperation func) {
  CalleeSearch search = {coopvecSymbolNameOf(func), false};
  mlirOperationWalk(module, findCall, &search, MlirWalkPreOrder);
  return search.found;
}

bool coopvecIsAccumulatedF16Buffer(MlirOperation module, MlirOperation func,
                                   intptr_t index) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(entry) || index >= mlirBlockGetNumArguments(entry))
    return false;
  MlirValue arg = mlirBlockGetArgument(entry, index);
  if (!isF16MemRef(mlirValueGetType(arg)))
    return false;
  int uses = 0;
  for (MlirOpOperand use = mlirValueGetFirstUse(arg); !mlirOpOperandIsNull(use);
       use = mlirOpOperandGetNextUse(use), ++uses)
    if (!isAccumulatingUse(use))
      return false;
  return uses > 0 && !isCalled(module, func);
}

CoopvecStatus coopvecFunctionFindShadows(CoopvecFunction *function) {
  function->shadowed = calloc((size_t)function->numArgs + 1, sizeof(bool));
  if (!function->shadowed)
    return coopvecEngineFail(function->engine, CoopvecStatusOutOfMemory,
                             "out of memory");
  if (!coopvecIsPerThreadFunction(function->func))
    return CoopvecStatusSuccess;
  for (intptr_t i = 0; i < function->numArgs; ++i) {
    function->shadowed[i] = coopvecIsAccumulatedF16Buffer(
        function->engine->source, function->func, i);
    function->numShadowed += function->shadowed[i];
  }
  return CoopvecStatusSuccess;
}

//===----------------------------------------------------------------------===//
// The rewrite
//===----------------------------------------------------------------------===//

static MlirType f32Of(MlirOperation op) {
  return mlirF32TypeGet(mlirOperationGetContext(op));
}

/// Operand `index` of `op` through a coopvec.cast to f32, built before `op`
/// at its location (free in the lowering: f16 elements are f32 values).
static bool castOperandToF32(MlirOperation op, intptr_t index) {
  CoopvecBuilder builder =
      coopvecBuilderBefore(op, mlirOperationGetLocation(op));
  MlirValue cast =
      coopvecBuildCast(&builder, mlirOperationGetOperand(op, index), f32Of(op));
  if (mlirValueIsNull(cast))
    return false;
  mlirOperationSetOperand(op, index, cast);
  return true;
}

/// The value of scatter-add `atomic` (f16) through arith.extf (exact), and
/// its old value (which no op uses) f32 too.
static bool shadowAtomic(MlirOperation atomic) {
  CoopvecBuilder builder =
      coopvecBuilderBefore(atomic, mlirOperationGetLocation(atomic));
  MlirValue wide =
      coopvecBuildCast1(&builder, "arith.extf",
                        mlirOperationGetOperand(atomic, 0), f32Of(atomic));
  if (mlirValueIsNull(wide))
    return false;
  mlirOperationSetOperand(atomic, 0, wide);
  mlirValueSetType(mlirOperationGetResult(atomic, 0), f32Of(atomic));
  return true;
}

/// The view of the same elements in the f32 buffer: twice the byte offset
/// (kept in the attribute's type when it fits, else i64), and row_major for
/// the opaque layouts, which are row-major on every target
/// (CPUMatvec.c, gpuMatrixStrides, the interpreter), and only for f16.
static bool shadowView(MlirOperation view) {
  MlirContext ctx = mlirOperationGetContext(view);
  MlirAttribute old = mlirOperationGetAttributeByName(
      view, mlirStringRefCreateFromCString("offset"));
  int64_t offset = 2 * mlirIntegerAttrGetValueInt(old);
  MlirType offsetType = mlirAttributeGetType(old);
  if (mlirTypeIsAInteger(offsetType) &&
      mlirIntegerTypeGetWidth(offsetType) < 64 &&
      offset >= (int64_t)1 << (mlirIntegerTypeGetWidth(offsetType) - 1))
    offsetType = mlirIntegerTypeGet(ctx, 64);
  mlirOperationSetAttributeByName(view,
                                  mlirStringRefCreateFromCString("offset"),
                                  mlirIntegerAttrGet(offsetType, offset));
  MlirValue matrix = mlirOperationGetResult(view, 0);
  MlirType type = mlirValueGetType(matrix);
  CoopvecLayout layout;
  coopvecMatrixTypeGetLayout(type, &layout);
  if (layout != CoopvecLayoutColMajor)
    layout = CoopvecLayoutRowMajor;
  mlirValueSetType(matrix,
                   coopvecMatrixTypeGet(ctx, coopvecMatrixTypeGetRows(type),
                                        coopvecMatrixTypeGetCols(type),
                                        f32Of(view), layout));
  bool ok = true;
  for (MlirOpOperand use = mlirValueGetFirstUse(matrix);
       !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use)) {
    MlirOperation product = mlirOpOperandGetOwner(use);
    ok = ok && castOperandToF32(product, 0) && castOperandToF32(product, 1);
  }
  return ok;
}

/// The function's type with input `index` replaced by `type`.
static void setInputType(MlirOperation func, intptr_t index, MlirType type) {
  MlirType old = coopvecFunctionTypeOf(func);
  intptr_t numInputs = mlirFunctionTypeGetNumInputs(old);
  intptr_t numResults = mlirFunctionTypeGetNumResults(old);
  MlirType *types = malloc(sizeof(MlirType) * (size_t)(numInputs + numResults));
  if (!types)
    return; // the type stays, and the verifier refuses the module
  for (intptr_t i = 0; i < numInputs; ++i)
    types[i] = i == index ? type : mlirFunctionTypeGetInput(old, i);
  for (intptr_t i = 0; i < numResults; ++i)
    types[numInputs + i] = mlirFunctionTypeGetResult(old, i);
  MlirType updated =
      mlirFunctionTypeGet(mlirOperationGetContext(func), numInputs, types,
                          numResults, types + numInputs);
  mlirOperationSetAttributeByName(
      func, mlirStringRefCreateFromCString("function_type"),
      mlirTypeAttrGet(updated));
  free(types);
}

/// Argument `index` becomes a memref of f32 of the same shape, layout and
/// memory space; every accumulation into it takes f32 operands.
static bool shadowArgument(MlirOperation func, intptr_t index) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirValue arg = mlirBlockGetArgument(entry, index);
  MlirType type = mlirValueGetType(arg);
  int64_t shape[1] = {mlirShapedTypeGetDimSize(type, 0)};
  MlirType f32Type =
      mlirMemRefTypeGet(f32Of(func), 1, shape, mlirMemRefTypeGetLayout(type),
                        mlirMemRefTypeGetMemorySpace(type));
  mlirValueSetType(arg, f32Type);
  setInputType(func, index, f32Type);
  bool ok = true;
  for (MlirOpOperand use = mlirValueGetFirstUse(arg); !mlirOpOperandIsNull(use);
       use = mlirOpOperandGetNextUse(use)) {
    MlirOperation user = mlirOpOperandGetOwner(use);
    if (coopvecOpIsNamed(user, "coopvec.matrix_view"))
      ok = ok && shadowView(user);
    else if (coopvecOpIsNamed(user, "memref.atomic_rmw"))
      ok = ok && shadowAtomic(user);
    else
      ok = ok && castOperandToF32(user, 0);
  }
  return ok;
}

/// Rewrites every accumulated f16 buffer of the module's per-thread
/// functions; `*count` is how many.
static bool shadowModule(MlirOperation module, intptr_t *count) {
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(coopvecModuleBody(module));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!coopvecOpIsNamed(op, "func.func") || !coopvecIsPerThreadFunction(op))
      continue;
    MlirType type = coopvecFunctionTypeOf(op);
    for (intptr_t i = 0; i < mlirFunctionTypeGetNumInputs(type); ++i) {
      if (!coopvecIsAccumulatedF16Buffer(module, op, i))
        continue;
      ok = ok && shadowArgument(op, i);
      ++*count;
    }
  }
  return ok;
}

CoopvecStatus coopvecEngineCloneForLowering(CoopvecEngine *engine,
                                            MlirOperation *module) {
  engine->shadows = false;
  if (!mlirOperationIsNull(engine->lowered)) {
    *module = mlirOperationClone(engine->lowered);
    return CoopvecStatusSuccess;
  }
  *module = mlirOperationClone(engine->source);
  intptr_t count = 0;
  CoopvecDiagnosticCapture capture;
  coopvecDiagnosticCaptureBegin(&capture, mlirOperationGetContext(*module));
  bool ok = shadowModule(*module, &count);
  // The rewrite must leave valid coopvec IR; a failure is a bug here, said
  // with the verifier's located diagnostics rather than a failed lowering.
  ok = ok && (count == 0 || mlirLogicalResultIsSuccess(coopvecVerify(*module)));
  if (!ok)
    coopvecEngineFail(engine, CoopvecStatusCompileError,
                      "internal error: the f32 shadows of the f16 gradient "
                      "buffers do not verify:");
  coopvecDiagnosticCaptureEnd(&capture, ok ? NULL : engine);
  engine->shadows = ok && count > 0;
  return ok ? CoopvecStatusSuccess : CoopvecStatusCompileError;
}

//===----------------------------------------------------------------------===//
// Running with shadows
//===----------------------------------------------------------------------===//

/// An f32 shadow of `size` elements, all -0.0: the additive identity (+0.0
/// would turn an f16 -0.0 that nothing adds to into +0.0).
static float *createShadow(int64_t size) {
  float *shadow = malloc(sizeof(float) * (size_t)(size > 0 ? size : 1));
  for (int64_t i = 0; shadow && i < size; ++i)
    shadow[i] = -0.0f;
  return shadow;
}

/// *gradient = f16(*gradient + sum), rounded once. The sum is exact in
/// double wherever rounding it to f16 is not already decided (the two
/// addends' bits span at most 53 unless one is far below the other's half
/// ulp or the sum overflows f16), so rounding the double to f16 is the
/// correctly rounded f16 sum. A compare-and-swap, as the compiled code's
/// atomics: runs of other engines may add into the same buffer at once.
static void addRounded(uint16_t *gradient, float sum) {
  uint16_t old = __atomic_load_n(gradient, __ATOMIC_RELAXED);
  uint16_t updated;
  do {
    updated = coopvecDoubleToHalf(coopvecHalfToDouble(old) + (double)sum);
  } while (!__atomic_compare_exchange_n(gradient, &old, updated, true,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}

/// Adds a shadow into its f16 buffer. An element nothing added to (still
/// -0.0) keeps its bits, NaN payloads included.
static void foldShadow(const float *shadow, uint16_t *gradient, int64_t size) {
  for (int64_t i = 0; i < size; ++i)
    if (!(shadow[i] == 0.0f && signbit(shadow[i])))
      addRounded(&gradient[i], shadow[i]);
}

static void freeShadows(CoopvecFunction *function, CoopvecArray *passed) {
  for (intptr_t i = 0; i < function->numArgs; ++i)
    if (function->shadowed[i])
      free(passed[i].data);
  free(passed);
}

/// A copy of `args` with a shadow in place of each shadowed argument.
static CoopvecArray *withShadows(CoopvecFunction *function,
                                 const CoopvecArray *args) {
  CoopvecArray *passed =
      calloc((size_t)function->numArgs + 1, sizeof(CoopvecArray));
  if (!passed)
    return NULL;
  bool ok = true;
  for (intptr_t i = 0; i < function->numArgs; ++i) {
    passed[i] = args[i];
    if (!function->shadowed[i])
      continue;
    passed[i].data = createShadow(args[i].size);
    passed[i].dtype = CoopvecDTypeF32;
    ok = ok && passed[i].data;
  }
  if (ok)
    return passed;
  freeShadows(function, passed);
  return NULL;
}

CoopvecStatus coopvecRunWithShadows(CoopvecFunction *function, int64_t batch,
                                    const CoopvecArray *args,
                                    const CoopvecArray *results,
                                    int numThreads) {
  const CoopvecBackend *backend = function->engine->backend;
  if (!function->engine->shadows || !function->numShadowed)
    return backend->run(function, batch, args, results, numThreads);
  CoopvecArray *passed = withShadows(function, args);
  if (!passed)
    return coopvecEngineFail(function->engine, CoopvecStatusOutOfMemory,
                             "out of memory (f32 shadows of the f16 gradient "
                             "buffers of @%s)",
                             function->name);
  CoopvecStatus status =
      backend->run(function, batch, passed, results, numThreads);
  // Also after a failed run: a shadow nothing was added to leaves its
  // buffer as it was, and after accesses outside their buffers the written
  // memrefs hold what the run computed, as without shadows.
  for (intptr_t i = 0; i < function->numArgs; ++i)
    if (function->shadowed[i])
      foldShadow(passed[i].data, args[i].data, args[i].size);
  freeShadows(function, passed);
  return status;
}
