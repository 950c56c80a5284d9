//===- ConvertCoopvecToCPU.c - convert-coopvec-to-cpu ---------------------===//
//
// Turns every per-thread function @f into @f_batched, which runs @f for
// threads 0..n-1 in groups of L SIMD lanes (docs/execution-model.md has the
// ABI). L and the matvec register blocking come from the target CPU's
// vector registers (Target/CPUTarget.h), and @f_batched carries the
// target's `target_cpu` / `target_features`, so that the machine code is
// for the machine the layout was chosen for, whichever machine compiles.
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToCPU/CPU.h"

#include "Dialect/Verifier.h"
#include "Pass/PassDef.h"
#include "Target/CPUTarget.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Dialect/Arith.h>
#include <mlir-c/Dialect/Func.h>
#include <mlir-c/Dialect/Math.h>
#include <mlir-c/Dialect/MemRef.h>
#include <mlir-c/Dialect/SCF.h>
#include <mlir-c/Dialect/Vector.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char passName[] = "convert-coopvec-to-cpu";

typedef struct ConvertOptions {
  char triple[COOPVEC_OPTION_STRING_MAX];
  char cpu[COOPVEC_OPTION_STRING_MAX];
  char features[COOPVEC_OPTION_STRING_MAX];
  int64_t lanes;
  int64_t rowBlock;
  bool boundsChecks;
  char reduceMode[COOPVEC_OPTION_STRING_MAX];
  char laneRefill[COOPVEC_OPTION_STRING_MAX];
} ConvertOptions;

/// What the options resolve to for this run.
typedef struct Resolved {
  CoopvecCPUTarget target;
  int64_t lanes, rowBlock;
  bool boundsChecks;
  CoopvecReduceMode reduceMode;
  CPULaneRefill laneRefill;
} Resolved;

enum { MAX_LANES = 256, MAX_ROW_BLOCK = 64 };

static const CoopvecThreadMapping cpuMapping;

//===----------------------------------------------------------------------===//
// Checks (nothing changes until every per-thread function passes)
//===----------------------------------------------------------------------===//

/// Gradient tiles of outer products live on the stack (CPUTraining.c).
static bool checkMatrixSize(MlirOperation op, MlirValue matrix) {
  MlirType type = mlirValueGetType(matrix);
  int64_t rows = coopvecMatrixTypeGetRows(type);
  int64_t cols = coopvecMatrixTypeGetCols(type);
  if (rows * cols <= CPU_MAX_MATRIX_ELEMENTS)
    return true;
  coopvecEmitOpError(op,
                     "uses a %lld x %lld matrix; %s handles matrices of at "
                     "most %d elements",
                     (long long)rows, (long long)cols, passName,
                     (int)CPU_MAX_MATRIX_ELEMENTS);
  return false;
}

static bool checkCPUOp(MlirOperation op) {
  if (coopvecOpIs(op, CoopvecOpMatvec))
    return checkMatrixSize(op, mlirOperationGetOperand(op, 0));
  if (coopvecOpIs(op, CoopvecOpOuterProductAccumulate))
    return checkMatrixSize(op, mlirOperationGetOperand(op, 2));
  return true;
}

//===----------------------------------------------------------------------===//
// Building @f_batched
//===----------------------------------------------------------------------===//

/// `#llvm.target_features<["+a", ...]>` for a comma list (syntax checked by
/// coopvecCPUTargetResolve).
static MlirAttribute targetFeaturesAttr(MlirContext ctx, const char *list) {
  CoopvecBuffer text = {0};
  coopvecBufferAppendStr(&text, "#llvm.target_features<[");
  for (const char *p = list; *p;) {
    size_t length = strcspn(p, ",");
    if (length)
      coopvecBufferAppendf(&text, "%s\"%.*s\"", p == list ? "" : ", ",
                           (int)length, p);
    p += length + (p[length] == ',');
  }
  coopvecBufferAppendStr(&text, "]>");
  MlirAttribute attr =
      mlirAttributeParseGet(ctx, mlirStringRefCreate(text.data, text.size));
  coopvecBufferFree(&text);
  return attr;
}

/// Creates `func.func @<name>_batched` (empty entry block) after `func`.
static MlirOperation createBatchedFunction(MlirOperation module,
                                           MlirOperation func,
                                           const Resolved *resolved) {
  MlirContext ctx = mlirOperationGetContext(func);
  MlirLocation loc = mlirOperationGetLocation(func);
  MlirType type = coopvecBatchedFunctionType(ctx, coopvecFunctionTypeOf(func));
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
  MlirStringRef name = coopvecSymbolNameOf(func);
  CoopvecBuffer batchedName = {0};
  coopvecBufferAppendf(&batchedName, "%.*s_batched", (int)name.length,
                       name.data);
  MlirNamedAttribute attributes[5] = {
      coopvecNamedAttr(
          ctx, "sym_name",
          mlirStringAttrGet(
              ctx, mlirStringRefCreate(batchedName.data, batchedName.size))),
      coopvecNamedAttr(ctx, "function_type", mlirTypeAttrGet(type)),
      coopvecNamedAttr(ctx, "llvm.emit_c_interface", mlirUnitAttrGet(ctx)),
      coopvecNamedAttr(ctx, "target_cpu",
                       mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(
                                                  resolved->target.cpu))),
      coopvecNamedAttr(ctx, "target_features",
                       targetFeaturesAttr(
                           ctx, coopvecBufferStr(&resolved->target.features))),
  };
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString("func.func"), loc);
  mlirOperationStateAddAttributes(&state, 5, attributes);
  mlirOperationStateAddOwnedRegions(&state, 1, &region);
  MlirOperation batched = mlirOperationCreate(&state);
  coopvecBufferFree(&batchedName);
  mlirBlockInsertOwnedOperationAfter(
      mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0)), func,
      batched);
  return batched;
}

/// Appends `scf.for %t = 0 to %n step L` and `func.return` to the batched
/// function's entry block; points `entry` before the loop, `body` before the
/// loop's terminator and `exit` before the return.
static void createLaneLoop(CPULowering *l, MlirOperation batched,
                           MlirLocation loc) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(batched, 0));
  l->entryBlock = entry;
  MlirOperation ret =
      coopvecBuild0(&(CoopvecBuilder){l->p.ctx, loc, entry, {NULL}, {NULL}},
                    "func.return", 0, NULL, 0, NULL);
  l->p.entry = coopvecBuilderBefore(ret, loc);
  MlirValue zero = coopvecPerThreadIndex(&l->p, 0);
  MlirValue lanes = coopvecPerThreadIndex(&l->p, l->lanes);
  CoopvecLoop loop = coopvecBuildFor(
      &l->p.entry, zero, mlirBlockGetArgument(entry, 0), lanes, 0, NULL);
  MlirOperation yield =
      coopvecBuild0(&loop.body, "scf.yield", 0, NULL, 0, NULL);
  l->p.entry = coopvecBuilderBefore(loop.op, loc);
  l->exit = coopvecBuilderBefore(ret, loc);
  l->p.body = coopvecBuilderBefore(yield, loc);
  l->threadBase = loop.inductionVar;
}

/// The valid-lane count and mask of the current group: the last group may
/// hold fewer than L threads.
static void createMask(CPULowering *l) {
  MlirValue n = mlirBlockGetArgument(l->entryBlock, 0);
  MlirValue remaining =
      coopvecBuildBinaryOp(&l->p.body, "arith.subi", n, l->threadBase);
  l->validLanes = coopvecBuildBinaryOp(&l->p.body, "arith.minsi", remaining,
                                       coopvecPerThreadIndex(&l->p, l->lanes));
  l->mask = coopvecBuildCreateMask(&l->p.body, l->lanes, l->validLanes);
  l->p.active = l->mask;
}

/// Maps the arguments of `func` to those of the batched function: vec
/// arguments are gathered, the others are uniform and used directly.
static void mapArguments(CPULowering *l, MlirBlock original) {
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(original); ++i) {
    MlirValue arg = mlirBlockGetArgument(original, i);
    MlirValue replacement = mlirBlockGetArgument(l->entryBlock, 1 + i);
    if (coopvecTypeIsAVec(mlirValueGetType(arg)))
      cpuLoadVecArgument(l, arg, replacement);
    else
      mlirValueReplaceAllUsesOfWith(arg, replacement);
  }
}

/// reduce-mode=expand: the arguments that get per-host-thread copies;
/// local: those whose sums run on across lane groups. Both are the
/// arguments the function only adds into.
static void findAddOnlyArgs(CPULowering *l, MlirBlock original) {
  l->numArgs = mlirBlockGetNumArguments(original);
  if (l->p.reduceMode == CoopvecReduceExpand)
    l->expandedArgs = cpuAddOnlyArguments(original);
  else if (l->p.reduceMode == CoopvecReduceLocal)
    l->addOnlyArgs = cpuAddOnlyArguments(original);
}

/// Adds `@f_batched = array<i64: args...>` to the module's
/// COOPVEC_EXPANDED_ARGS_ATTR dictionary when some argument is expanded:
/// the engine gives those arguments per-host-thread copies.
static void recordExpandedArgs(CPULowering *l, MlirOperation module,
                               MlirOperation batched) {
  int64_t *args = calloc((size_t)l->numArgs + 1, sizeof(int64_t));
  intptr_t count = 0;
  if (!args)
    abort();
  for (intptr_t i = 0; l->expandedArgs && i < l->numArgs; ++i)
    if (l->expandedArgs[i])
      args[count++] = i;
  if (count) {
    MlirStringRef key =
        mlirStringRefCreateFromCString(COOPVEC_EXPANDED_ARGS_ATTR);
    MlirAttribute old = mlirOperationGetAttributeByName(module, key);
    intptr_t numOld =
        mlirAttributeIsNull(old) ? 0 : mlirDictionaryAttrGetNumElements(old);
    MlirNamedAttribute *entries =
        calloc((size_t)numOld + 1, sizeof(MlirNamedAttribute));
    if (!entries)
      abort();
    for (intptr_t i = 0; i < numOld; ++i)
      entries[i] = mlirDictionaryAttrGetElement(old, i);
    entries[numOld] = mlirNamedAttributeGet(
        mlirIdentifierGet(l->p.ctx, coopvecSymbolNameOf(batched)),
        mlirDenseI64ArrayGet(l->p.ctx, count, args));
    mlirOperationSetDiscardableAttributeByName(
        module, key, mlirDictionaryAttrGet(l->p.ctx, numOld + 1, entries));
    free(entries);
  }
  free(args);
}

/// Builds @f_batched from the checked per-thread function `func`, then
/// erases `func`. Uniform ops are moved into the lane loop in order;
/// coopvec ops are lowered in place of them.
static bool lowerFunction(MlirOperation module, MlirOperation func,
                          const Resolved *resolved, CoopvecReduceMode mode) {
  MlirContext ctx = mlirOperationGetContext(func);
  MlirLocation loc = mlirOperationGetLocation(func);
  CPULowering l;
  memset(&l, 0, sizeof(l));
  l.lanes = resolved->lanes;
  l.rowBlock = resolved->rowBlock;
  l.transposeBlock =
      cpuTransposeBlock(l.lanes, resolved->target.vectorBits / 32);
  l.fusedMultiplyAdd = resolved->target.hasFusedMultiplyAdd;
  int64_t lanes = l.lanes;
  l.laneType = mlirVectorTypeGet(1, &lanes, mlirF32TypeGet(ctx));
  coopvecPerThreadInit(&l.p, ctx, &cpuMapping, &l, l.laneType);
  l.p.boundsChecks = resolved->boundsChecks;
  l.p.reduceMode = mode;
  coopvecPerThreadAnalyze(&l.p, func);
  MlirOperation batched = createBatchedFunction(module, func, resolved);
  MlirBlock original = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirOperation refillLoop =
      cpuLaneRefillLoop(&l.p, func, resolved->laneRefill);
  bool ok;
  if (!mlirOperationIsNull(refillLoop)) {
    l.entryBlock = mlirRegionGetFirstBlock(mlirOperationGetRegion(batched, 0));
    findAddOnlyArgs(&l, original); // before their uses move
    ok = cpuLowerWithLaneRefill(&l, original, refillLoop,
                                1 + mlirBlockGetNumArguments(original));
  } else {
    createLaneLoop(&l, batched, loc);
    createMask(&l);
    findAddOnlyArgs(&l, original); // before their uses move
    mapArguments(&l, original);
    ok = coopvecPerThreadLowerBlock(&l.p, original);
    if (ok)
      cpuStoreResults(&l, mlirBlockGetTerminator(original),
                      1 + mlirBlockGetNumArguments(original));
  }
  coopvecFinishStatusSignature(&l.p, l.entryBlock, batched, module);
  if (ok)
    recordExpandedArgs(&l, module, batched);
  free(l.expandedArgs);
  free(l.addOnlyArgs);
  coopvecPerThreadFree(&l.p);
  coopvecPointerMapFree(&l.lastLanes);
  free(l.widened);
  mlirOperationDestroy(func);
  return ok;
}

static bool hasExpandableArgument(MlirOperation func) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); ++i)
    if (coopvecArgumentIsExpandable(mlirBlockGetArgument(body, i)))
      return true;
  return false;
}

/// Lowers `func` in the resolved mode. Under auto, a function with an
/// expandable argument is lowered twice: @f_batched with atomics (auto's
/// own code) and @"f.expand_batched" under expand, which the engine runs
/// when the per-host-thread copies are small enough (docs/passes.md,
/// "reduce-mode"; COOPVEC_EXPAND_VARIANT_SUFFIX).
static bool lowerVariants(MlirOperation module, MlirOperation func,
                          const Resolved *resolved) {
  if (resolved->reduceMode == CoopvecReduceAuto &&
      hasExpandableArgument(func)) {
    MlirOperation variant = mlirOperationClone(func);
    MlirStringRef name = coopvecSymbolNameOf(func);
    CoopvecBuffer text = {0};
    coopvecBufferAppendf(&text, "%.*s%s", (int)name.length, name.data,
                         COOPVEC_EXPAND_VARIANT_SUFFIX);
    mlirOperationSetAttributeByName(
        variant, mlirStringRefCreateFromCString("sym_name"),
        mlirStringAttrGet(mlirOperationGetContext(func),
                          mlirStringRefCreate(text.data, text.size)));
    coopvecBufferFree(&text);
    mlirBlockInsertOwnedOperationAfter(
        mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0)), func,
        variant);
    if (!lowerFunction(module, variant, resolved, CoopvecReduceExpand))
      return false;
  }
  return lowerFunction(module, func, resolved, resolved->reduceMode);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// Lane vectors two registers wide: each broadcast weight then feeds two
/// fmas, so the matvec kernel needs half a load per fma
/// (docs/execution-model.md). Accumulators: with 16 registers (AVX2, SSE)
/// all but four (the input lane vector and two broadcast weights), 12, the
/// 16 x 6 blocking of BLIS's AVX2 kernels: 12 independent fma chains cover
/// the fma latency x throughput of current x86 cores (4 x 2) with room to
/// spare, which 8 only just do (6 rows measured 0-12% faster than 4 on
/// Zen 3, docs/performance.md). With 32 registers (AVX-512, NEON) half of
/// them, as measured on Sapphire Rapids.
static void defaultBlocking(const CoopvecCPUTarget *target, int64_t *lanes,
                            int64_t *rowBlock) {
  int64_t floatsPerRegister = target->vectorBits / 32;
  if (*lanes == 0)
    *lanes = 2 * floatsPerRegister;
  if (*rowBlock == 0) {
    int64_t registersPerLaneVector =
        (*lanes + floatsPerRegister - 1) / floatsPerRegister;
    int64_t registers = target->numVectorRegisters;
    int64_t accumulators = registers <= 16 ? registers - 4 : registers / 2;
    int64_t rows = accumulators / registersPerLaneVector;
    *rowBlock = rows < 1 ? 1 : rows;
  }
}

/// Resolves the options; false after an error at `module`.
static bool resolveOptions(MlirOperation module, const ConvertOptions *options,
                           Resolved *resolved) {
  CoopvecBuffer message = {0};
  resolved->lanes = options->lanes;
  resolved->rowBlock = options->rowBlock;
  resolved->boundsChecks = options->boundsChecks;
  if (options->lanes < 0 || options->lanes > MAX_LANES)
    coopvecBufferAppendf(&message,
                         "%s: lanes=%lld is out of range; use 1 to %d, or 0 "
                         "for the target's default",
                         passName, (long long)options->lanes, MAX_LANES);
  else if (options->rowBlock < 0 || options->rowBlock > MAX_ROW_BLOCK)
    coopvecBufferAppendf(&message,
                         "%s: row-block=%lld is out of range; use 1 to %d, "
                         "or 0 for the target's default",
                         passName, (long long)options->rowBlock, MAX_ROW_BLOCK);
  else if (!coopvecParseReduceMode(options->reduceMode, &resolved->reduceMode))
    coopvecBufferAppendf(&message, "%s: reduce-mode=%s is not a mode; use %s",
                         passName, options->reduceMode,
                         coopvecReduceModeValues);
  else if (!cpuParseLaneRefill(options->laneRefill, &resolved->laneRefill))
    coopvecBufferAppendf(&message,
                         "%s: lane-refill=%s is not a choice; use true, false "
                         "or auto",
                         passName, options->laneRefill);
  else if (!coopvecCPUTargetResolve(options->triple, options->cpu,
                                    options->features, &resolved->target,
                                    &message))
    coopvecBufferAppendf(&message, " (in %s)", passName);
  else
    defaultBlocking(&resolved->target, &resolved->lanes, &resolved->rowBlock);
  bool ok = message.size == 0;
  if (!ok)
    mlirEmitError(mlirOperationGetLocation(module), coopvecBufferStr(&message));
  coopvecBufferFree(&message);
  return ok;
}

static void runConvert(MlirOperation module, MlirExternalPass pass,
                       const void *options) {
  Resolved resolved;
  memset(&resolved, 0, sizeof(resolved));
  CoopvecFunctionList perThread = coopvecCollectPerThreadFunctions(module);
  bool ok = resolveOptions(module, options, &resolved);
  // Every function is checked (and every error reported) before any
  // changes.
  ok = ok && coopvecPrepareFunctions(module, &perThread, passName, "_batched",
                                     checkCPUOp);
  for (intptr_t i = 0; ok && i < perThread.count; ++i)
    ok = lowerVariants(module, perThread.ops[i], &resolved);
  free(perThread.ops);
  coopvecCPUTargetFree(&resolved.target);
  if (!ok)
    mlirExternalPassSignalFailure(pass);
}

static MlirValue broadcastToLanes(CoopvecPerThread *p, CoopvecBuilder *b,
                                  MlirValue scalar) {
  MlirType type = mlirValueGetType(scalar);
  if (mlirTypeIsAVector(type))
    return scalar; // varying already
  return coopvecBuildBroadcast(b, scalar, cpuVaryingType(p, type));
}

/// Lanes run one instruction stream: varying control flow is masked.
static bool masksEveryRegion(CoopvecPerThread *p, MlirOperation op) {
  (void)p;
  (void)op;
  return true;
}

static const CoopvecThreadMapping cpuMapping = {
    .passName = passName,
    .broadcast = broadcastToLanes,
    .allocTile = cpuAllocTile,
    .loadRow = cpuLoadRow,
    .storeRow = cpuStoreRow,
    .ssaMaxElements = CPU_SSA_MAX_ELEMENTS,
    .lowerStore = cpuLowerStore,
    .lowerMatvec = cpuLowerMatvec,
    .lowerOuterProduct = cpuLowerOuterProduct,
    .lowerReduceSum = cpuLowerReduceSum,
    .varyingType = cpuVaryingType,
    .anyActive = cpuAnyActive,
    .masksRegion = masksEveryRegion,
    .memory = &cpuMemoryHooks,
    .matvecReadsBiasLoads = true,
};

static const CoopvecPassOption convertOptions[] = {
    {"target-triple", CoopvecOptionString, offsetof(ConvertOptions, triple), "",
     "the target triple; empty for the host's default"},
    {"target-cpu", CoopvecOptionString, offsetof(ConvertOptions, cpu), "host",
     "the CPU the code is for, as LLVM names it (haswell, skylake-avx512, "
     "x86-64, neoverse-v1, ...); host: the compiling machine"},
    {"target-features", CoopvecOptionString, offsetof(ConvertOptions, features),
     "", "extra LLVM features, a comma list of +name / -name (e.g. -avx512f)"},
    {"lanes", CoopvecOptionInt, offsetof(ConvertOptions, lanes), "0",
     "threads per SIMD group; 0 picks two of the target's vector registers' "
     "worth of f32 (32 with AVX-512F, 16 with AVX, 8 with SSE or NEON)"},
    {"row-block", CoopvecOptionInt, offsetof(ConvertOptions, rowBlock), "0",
     "output rows per matvec block (accumulators); 0 picks 12 accumulators "
     "with 16 vector registers, 16 with 32 (6 rows with AVX2, 8 with "
     "AVX-512F)"},
    {"bounds-checks", CoopvecOptionBool, offsetof(ConvertOptions, boundsChecks),
     "true",
     "check at run time the memory accesses the engine cannot check before "
     "the run (varying indices, accesses inside control flow): an access "
     "outside its buffer reads 0, writes nothing and is reported in the "
     "status argument; false removes the checks (unsafe)"},
    {"reduce-mode", CoopvecOptionString, offsetof(ConvertOptions, reduceMode),
     "auto",
     "scatter-adds at per-thread indices (atomic addf / addi whose old value "
     "is unused, reduce_sum_accumulate at a varying offset): direct (one "
     "atomic per thread), local (the lanes of a group adding to one address "
     "summed first, one atomic per distinct address), expand (buffers only "
     "scatter-added into: plain adds into per-host-thread copies the "
     "engine merges after the run; other scatter-adds as local) or auto "
     "(one summed atomic for a group whose lanes all add at one address, "
     "else direct; plus an expand variant the engine runs while the copies "
     "fit 8 MiB)"},
    {"lane-refill", CoopvecOptionString, offsetof(ConvertOptions, laneRefill),
     "auto",
     "persistent lanes for a function that is a prologue, one scf.while "
     "with a varying condition and an epilogue: a lane whose thread leaves "
     "the loop runs its epilogue and takes the next thread of the batch "
     "(LaneRefill.c): true (every function of that shape), false (none) or "
     "auto (those whose loop holds a matvec); functions of other shapes, "
     "or with coopvec.store / masked_store, local arrays outside the loop "
     "or memory writes before it, keep the group loop"},
};

static MlirDialectHandle (*const convertDependentDialects[])(void) = {
    mlirGetDialectHandle__arith__, mlirGetDialectHandle__func__,
    mlirGetDialectHandle__math__,  mlirGetDialectHandle__memref__,
    mlirGetDialectHandle__scf__,   mlirGetDialectHandle__vector__,
};

const CoopvecPassDef coopvecConvertToCPUPassDef = {
    .argument = "convert-coopvec-to-cpu",
    .name = "ConvertCoopvecToCPU",
    .description = "Lower per-thread coopvec functions to batched functions "
                   "over the SIMD lanes of a target CPU (vector, arith, "
                   "math, memref, scf)",
    .anchor = "builtin.module",
    .options = convertOptions,
    .numOptions = sizeof(convertOptions) / sizeof(convertOptions[0]),
    .optionsSize = sizeof(ConvertOptions),
    .dependentDialects = convertDependentDialects,
    .numDependentDialects =
        sizeof(convertDependentDialects) / sizeof(convertDependentDialects[0]),
    .run = runConvert,
};
