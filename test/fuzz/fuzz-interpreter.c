//===- fuzz-interpreter.c - Fuzz the reference interpreter ----------------===//
//
// Input: MLIR text, a NUL byte, then bytes that choose the run: which
// function, the batch size, every argument's values, how long each memref
// is. Programs that verify are run by coopvecInterpret for 1 to 8 threads.
// Memrefs are as long as the execution engine says the function accesses
// (coopvecFunctionGetMemRefExtent, so most runs get past the bounds
// checks) or one element shorter; vec and scalar values come from a table
// of ordinary and special values (NaN, infinities, signed zeros,
// subnormals), index scalars are small or any 64-bit value. Invariants
// beyond "no crash": a failed run leaves every memref unchanged
// (include/coopvec-c/Interpreter.h promises it).
//
// Bounds that keep each run short: memrefs of at most 2^20 elements,
// vec / vector arguments of at most 2^16 elements in all, and scf.for
// loops with constant bounds whose trip counts multiply to at most 2^12,
// and no scf.while (the interpreter runs what it is given; a loop of 2^40
// iterations, or one that never ends, is a slow input, not a bug).
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "coopvec-c/Coopvec.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
  MAX_INPUT = 1 << 16,
  MAX_BATCH = 8,
  MAX_ARGS = 32,
  MAX_MEMREF_ELEMENTS = 1 << 20,
  MAX_VEC_ELEMENTS = 1 << 16,
  MAX_LOOP_WORK = 1 << 12,
};

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  coopvecFuzzContext();
  return 0;
}

//===----------------------------------------------------------------------===//
// The bytes after the program
//===----------------------------------------------------------------------===//

typedef struct Bytes {
  const uint8_t *data;
  size_t size;
} Bytes;

static uint8_t nextByte(Bytes *bytes) {
  if (!bytes->size)
    return 0;
  --bytes->size;
  return *bytes->data++;
}

static uint64_t nextWord(Bytes *bytes) {
  uint64_t value = 0;
  for (int i = 0; i < 8; ++i)
    value |= (uint64_t)nextByte(bytes) << (8 * i);
  return value;
}

/// A float: small multiples of 1/8 mostly, special values sometimes.
static double nextFloat(Bytes *bytes) {
  static const double special[] = {
      0.0,     -0.0,  1.0 / 0.0, -1.0 / 0.0, NAN,    -NAN, 65504.0, 6.1e-5,
      5.96e-8, 1e-45, 3.4e38,    1e300,      -1e300, 0.5,  -0.5,    2.0};
  uint8_t byte = nextByte(bytes);
  if (byte >= 0xf0)
    return special[byte - 0xf0];
  return ((double)byte - 120.0) / 8.0;
}

/// An integer (index, iN): small mostly, any 64-bit value sometimes.
static int64_t nextInt(Bytes *bytes) {
  uint8_t byte = nextByte(bytes);
  if (byte >= 0xf0)
    return (int64_t)nextWord(bytes);
  return (int64_t)byte - 16;
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

static bool constantInt(MlirValue value, int64_t *result) {
  if (!mlirValueIsAOpResult(value))
    return false;
  MlirOperation def = mlirOpResultGetOwner(value);
  if (!coopvecOpIsNamed(def, "arith.constant"))
    return false;
  MlirAttribute attr = mlirOperationGetAttributeByName(
      def, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(attr) || !mlirAttributeIsAInteger(attr))
    return false;
  *result = mlirIntegerAttrGetValueInt(attr);
  return true;
}

/// Multiplies the trip counts of all scf.for ops (an upper bound of the
/// work however they nest or call each other); -1 once it is too large or
/// a bound is not a constant.
static MlirWalkResult countLoopWork(MlirOperation op, void *userData) {
  int64_t *work = userData;
  if (coopvecOpIsNamed(op, "scf.while")) { // its trip count is unknown
    *work = -1;
    return MlirWalkResultInterrupt;
  }
  if (!coopvecOpIsNamed(op, "scf.for"))
    return MlirWalkResultAdvance;
  int64_t lower, upper, step;
  if (mlirOperationGetNumOperands(op) < 3 ||
      !constantInt(mlirOperationGetOperand(op, 0), &lower) ||
      !constantInt(mlirOperationGetOperand(op, 1), &upper) ||
      !constantInt(mlirOperationGetOperand(op, 2), &step) || step <= 0 ||
      upper - lower > MAX_LOOP_WORK || lower - upper > MAX_LOOP_WORK) {
    *work = -1;
    return MlirWalkResultInterrupt;
  }
  int64_t trips = upper > lower ? (upper - lower + step - 1) / step : 0;
  *work *= trips > 1 ? trips : 1;
  if (*work > MAX_LOOP_WORK) {
    *work = -1;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static bool loopsAreShort(MlirOperation module) {
  int64_t work = 1;
  mlirOperationWalk(module, countLoopWork, &work, MlirWalkPreOrder);
  return work >= 0;
}

//===----------------------------------------------------------------------===//
// Arguments and results
//===----------------------------------------------------------------------===//

typedef struct Run {
  MlirOperation func;
  MlirStringRef name;
  intptr_t numArgs, numResults;
  int64_t batch;
  CoopvecArray args[MAX_ARGS], results[MAX_ARGS];
  void *before[MAX_ARGS]; // a copy of each memref, to check failed runs
} Run;

/// The dtype of a memref of integers of `type`: the interpreter takes
/// exactly i8, i32 and i64 buffers.
static CoopvecDType intMemRefDType(MlirType type) {
  if (mlirTypeIsAInteger(type) && mlirIntegerTypeGetWidth(type) == 8)
    return CoopvecDTypeI8;
  if (mlirTypeIsAInteger(type) && mlirIntegerTypeGetWidth(type) == 32)
    return CoopvecDTypeI32;
  return CoopvecDTypeI64;
}

/// The dtype in which the interpreter takes values of scalar type `type`.
static bool scalarDType(MlirType type, CoopvecDType *dtype) {
  if (mlirTypeIsAF16(type))
    *dtype = CoopvecDTypeF16;
  else if (mlirTypeIsAF32(type))
    *dtype = CoopvecDTypeF32;
  else if (mlirTypeIsAF64(type))
    *dtype = CoopvecDTypeF64;
  else if (mlirTypeIsAIndex(type) || mlirTypeIsAInteger(type))
    *dtype = CoopvecDTypeI64;
  else
    return false;
  return true;
}

typedef enum ValueKind {
  KindNone,      // a type no array holds: the interpreter is left to refuse
  KindScalar,    // one element, or one per thread
  KindPerThread, // vec / vector: batch * width elements
  KindMemRef,    // a shared buffer; width is its static size or -1
} ValueKind;

/// How a value of `type` is passed, its element dtype and width.
static ValueKind describe(MlirType type, CoopvecDType *dtype, int64_t *width) {
  *dtype = CoopvecDTypeF64;
  *width = 1;
  if (coopvecTypeIsAVec(type)) {
    *width = coopvecVecTypeGetSize(type);
    return scalarDType(coopvecVecTypeGetElementType(type), dtype)
               ? KindPerThread
               : KindNone;
  }
  if (mlirTypeIsAVector(type) || mlirTypeIsAMemRef(type)) {
    if (mlirShapedTypeGetRank(type) != 1 ||
        !scalarDType(mlirShapedTypeGetElementType(type), dtype))
      return KindNone;
    *width = mlirShapedTypeIsDynamicDim(type, 0)
                 ? -1
                 : mlirShapedTypeGetDimSize(type, 0);
    if (!mlirTypeIsAMemRef(type))
      return KindPerThread;
    if (*dtype == CoopvecDTypeI64)
      *dtype = intMemRefDType(mlirShapedTypeGetElementType(type));
    return KindMemRef;
  }
  return scalarDType(type, dtype) ? KindScalar : KindNone;
}

static void fill(CoopvecArray *array, Bytes *bytes) {
  bool isFloat = array->dtype == CoopvecDTypeF16 ||
                 array->dtype == CoopvecDTypeF32 ||
                 array->dtype == CoopvecDTypeF64;
  for (int64_t i = 0; i < array->size; ++i) {
    if (isFloat)
      coopvecArraySet(array, i, nextFloat(bytes));
    else if (array->dtype == CoopvecDTypeI64)
      ((int64_t *)array->data)[i] = nextInt(bytes);
    else // i8 / i32 buffers: the low bits of a small integer
      coopvecArraySet(array, i, (double)(nextInt(bytes) % 128));
  }
}

static bool allocate(CoopvecArray *array, CoopvecDType dtype, int64_t size) {
  array->dtype = dtype;
  array->size = size;
  array->data =
      calloc(size ? (size_t)size : 1, (size_t)coopvecDTypeGetSize(dtype));
  return array->data != NULL;
}

/// Vec, vector and scalar arguments (memrefs come later, sized by what the
/// function accesses with these scalars). False to skip the input.
static bool prepareValues(Run *run, MlirType funcType, Bytes *bytes) {
  int64_t total = 0;
  for (intptr_t i = 0; i < run->numArgs; ++i) {
    CoopvecDType dtype;
    int64_t width, size = 0;
    switch (describe(mlirFunctionTypeGetInput(funcType, i), &dtype, &width)) {
    case KindScalar:
      size = nextByte(bytes) & 1 ? run->batch : 1;
      break;
    case KindPerThread:
      if (width < 1 || width > MAX_VEC_ELEMENTS)
        return false;
      size = run->batch * width;
      break;
    case KindNone:
    case KindMemRef:
      break;
    }
    total += size;
    if (total > MAX_VEC_ELEMENTS || !allocate(&run->args[i], dtype, size))
      return false;
    fill(&run->args[i], bytes);
  }
  return true;
}

/// The extent the engine computes for memref `index`, or -1.
static int64_t engineExtent(Run *run, CoopvecFunction *function,
                            intptr_t index) {
  int64_t extent = -1;
  if (!function ||
      coopvecFunctionGetMemRefExtent(function, index, run->args, run->numArgs,
                                     &extent) != CoopvecStatusSuccess)
    return -1;
  return extent;
}

/// Memref arguments: their static size, or the extent the function
/// accesses (one less sometimes), or a small size when it is unknown.
static bool prepareMemRefs(Run *run, MlirType funcType, Bytes *bytes,
                           CoopvecFunction *function) {
  for (intptr_t i = 0; i < run->numArgs; ++i) {
    CoopvecDType dtype;
    int64_t size;
    if (describe(mlirFunctionTypeGetInput(funcType, i), &dtype, &size) !=
        KindMemRef)
      continue;
    free(run->args[i].data);
    run->args[i].data = NULL;
    if (size < 0) {
      size = engineExtent(run, function, i);
      uint8_t choice = nextByte(bytes);
      if (size < 0)
        size = choice;
      else if (size > 0 && (choice & 3) == 0)
        --size; // one element short: the interpreter must refuse
    }
    if (size > MAX_MEMREF_ELEMENTS || !allocate(&run->args[i], dtype, size))
      return false;
    fill(&run->args[i], bytes);
    size_t bytesSize = (size_t)size * (size_t)coopvecDTypeGetSize(dtype);
    run->before[i] = malloc(bytesSize ? bytesSize : 1);
    if (!run->before[i])
      return false;
    memcpy(run->before[i], run->args[i].data, bytesSize);
  }
  return true;
}

/// Results: f64 for floats (the interpreter's full precision), i64 for
/// integers; an empty array for a type no array holds.
static bool prepareResults(Run *run, MlirType funcType) {
  for (intptr_t i = 0; i < run->numResults; ++i) {
    CoopvecDType dtype;
    int64_t width, size = 0;
    ValueKind kind =
        describe(mlirFunctionTypeGetResult(funcType, i), &dtype, &width);
    if ((kind == KindScalar || kind == KindPerThread) && width >= 1 &&
        width <= MAX_VEC_ELEMENTS)
      size = run->batch * width;
    if (dtype != CoopvecDTypeI64)
      dtype = CoopvecDTypeF64;
    if (!allocate(&run->results[i], dtype, size))
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

static void checkUnchanged(const Run *run) {
  for (intptr_t i = 0; i < run->numArgs; ++i)
    if (run->before[i] &&
        memcmp(run->before[i], run->args[i].data,
               (size_t)run->args[i].size *
                   (size_t)coopvecDTypeGetSize(run->args[i].dtype)) != 0)
      coopvecFuzzFail("a failed interpreter run changed a memref");
}

static void interpret(MlirOperation module, Run *run, Bytes *bytes) {
  MlirType funcType = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(
      run->func, mlirStringRefCreateFromCString("function_type")));
  run->numArgs = mlirFunctionTypeGetNumInputs(funcType);
  run->numResults = mlirFunctionTypeGetNumResults(funcType);
  if (run->numArgs > MAX_ARGS || run->numResults > MAX_ARGS)
    return;
  CoopvecEngine *engine = NULL;
  CoopvecFunction *function = NULL;
  if (coopvecEngineCreate(module, NULL, &engine) == CoopvecStatusSuccess)
    (void)coopvecEngineLookup(engine, run->name.data, &function);
  if (prepareValues(run, funcType, bytes) &&
      prepareMemRefs(run, funcType, bytes, function) &&
      prepareResults(run, funcType) &&
      mlirLogicalResultIsFailure(coopvecInterpret(
          module, run->name, run->batch, run->args, run->numArgs, run->results,
          run->numResults, coopvecFuzzErrorCallback(), NULL)))
    checkUnchanged(run);
  coopvecEngineDestroy(engine);
  for (intptr_t i = 0; i < MAX_ARGS; ++i) {
    free(run->args[i].data);
    free(run->results[i].data);
    free(run->before[i]);
  }
}

static bool isDefinedFunction(MlirOperation op) {
  return coopvecOpIsNamed(op, "func.func") &&
         !mlirBlockIsNull(
             mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)));
}

/// The `index`-th func.func with a body, modulo their number.
static MlirOperation pickFunction(MlirOperation module, uint8_t index) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  int count = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    count += isDefinedFunction(op);
  int wanted = count ? index % count : 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (isDefinedFunction(op) && wanted-- == 0)
      return op;
  return (MlirOperation){NULL};
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > MAX_INPUT)
    return 0;
  coopvecFuzzBeginInput();
  const uint8_t *nul = memchr(data, 0, size);
  size_t textSize = nul ? (size_t)(nul - data) : size;
  Bytes bytes = {nul ? nul + 1 : data + size, nul ? size - textSize - 1 : 0};
  char *text = coopvecFuzzCopyText(data, textSize);
  MlirModule module = coopvecFuzzParse(text, textSize);
  free(text);
  if (mlirModuleIsNull(module))
    return 0;
  MlirOperation op = mlirModuleGetOperation(module);
  Run run;
  memset(&run, 0, sizeof(run));
  run.func = pickFunction(op, nextByte(&bytes));
  run.batch = 1 + nextByte(&bytes) % MAX_BATCH;
  if (!mlirOperationIsNull(run.func) && coopvecFuzzVerify(op) &&
      loopsAreShort(op)) {
    run.name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(
        run.func, mlirStringRefCreateFromCString("sym_name")));
    // coopvecEngineLookup takes a C string.
    char *name =
        coopvecFuzzCopyText((const uint8_t *)run.name.data, run.name.length);
    run.name = mlirStringRefCreate(name, run.name.length);
    interpret(op, &run, &bytes);
    free(name);
  }
  mlirModuleDestroy(module);
  return 0;
}
