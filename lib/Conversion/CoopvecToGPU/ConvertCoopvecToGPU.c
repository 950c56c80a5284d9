//===- ConvertCoopvecToGPU.c - convert-coopvec-to-gpu ---------------------===//
//
// Turns every per-thread function @f into the kernel @f_kernel of the
// module's `gpu.module @coopvec_kernels`: GPU thread i of the batch runs
// thread i of @f. The kernel takes the arguments of the CPU's @f_batched
// in the same order, so an execution engine marshals both alike, and
// carries its launch contract as attributes (docs/execution-model.md, "GPU
// targets"). Only target-neutral dialects are emitted (but for the
// nvgpu.mma.sync of mma-regions, NVIDIA's); NVVM and SPIR-V
// pipelines lower them.
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToGPU/GPU.h"

#include "Dialect/Verifier.h"
#include "Pass/PassDef.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Dialect/Arith.h>
#include <mlir-c/Dialect/GPU.h>
#include <mlir-c/Dialect/Math.h>
#include <mlir-c/Dialect/MemRef.h>
#include <mlir-c/Dialect/NVGPU.h>
#include <mlir-c/Dialect/SCF.h>
#include <mlir-c/Dialect/Vector.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char passName[] = "convert-coopvec-to-gpu";
static const char gpuModuleName[] = "coopvec_kernels";

typedef struct ConvertOptions {
  char matvec[COOPVEC_OPTION_STRING_MAX];
  bool allowTF32;
  int64_t blockSize;
  int64_t subgroupSize;
  int64_t workgroupMemory;
  int64_t registerElements;
  bool builtinLaneId;
  bool boundsChecks;
  char reduceMode[COOPVEC_OPTION_STRING_MAX];
  bool emulateMMA;
  char mmaWeights[COOPVEC_OPTION_STRING_MAX];
  char training[COOPVEC_OPTION_STRING_MAX];
  bool mmaRegions;
} ConvertOptions;

enum {
  MAX_BLOCK_SIZE = 1024,
  MAX_WORKGROUP_MEMORY = 1 << 20,
  MAX_REGISTER_ELEMENTS = 1024,
  GPU_REGISTER_ELEMENTS_MMA = 128,
  GPU_REGISTER_ELEMENTS_SIMT = 32
};

static const CoopvecThreadMapping gpuMapping;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

/// A word option's values: `name` means `value` (an enum's).
typedef struct OptionWord {
  const char *name;
  int value;
} OptionWord;

/// The value of the word `text` among `count` words; false if none.
static bool parseWord(const char *text, const OptionWord *words, size_t count,
                      int *value) {
  for (size_t i = 0; i < count; ++i)
    if (strcmp(text, words[i].name) == 0) {
      *value = words[i].value;
      return true;
    }
  return false;
}

#define PARSE_WORD(text, words, value)                                         \
  parseWord(text, words, sizeof(words) / sizeof((words)[0]), value)

static const OptionWord matvecModes[] = {
    {"auto", GPUMatvecAuto}, {"mma", GPUMatvecMMA}, {"simt", GPUMatvecSIMT}};
static const OptionWord mmaWeightStagings[] = {{"slices", GPUMMAWeightsSlices},
                                               {"whole", GPUMMAWeightsWhole}};
static const OptionWord trainingForms[] = {{"block", GPUTrainingBlock},
                                           {"subgroup", GPUTrainingSubgroup}};

static bool isPowerOfTwo(int64_t value) {
  return value > 0 && (value & (value - 1)) == 0;
}

/// The word options into `config`; false after the message of the first
/// bad one.
static bool resolveWords(const ConvertOptions *options, GPUConfig *config,
                         CoopvecBuffer *message) {
  int matvec = 0, weights = 0, training = 0;
  if (!coopvecParseReduceMode(options->reduceMode, &config->reduceMode))
    coopvecBufferAppendf(message, "reduce-mode=%s is not a mode; use %s",
                         options->reduceMode, coopvecReduceModeValues);
  else if (!PARSE_WORD(options->matvec, matvecModes, &matvec))
    coopvecBufferAppendf(message,
                         "matvec=%s is not a schedule; use mma, "
                         "simt or auto",
                         options->matvec);
  else if (!PARSE_WORD(options->mmaWeights, mmaWeightStagings, &weights))
    coopvecBufferAppendf(message,
                         "mma-weights=%s is not a weight staging; use "
                         "slices or whole",
                         options->mmaWeights);
  else if (!PARSE_WORD(options->training, trainingForms, &training))
    coopvecBufferAppendf(message,
                         "training=%s is not a form of the training ops; "
                         "use block or subgroup",
                         options->training);
  config->matvec = (GPUMatvecMode)matvec;
  config->mmaWeights = (GPUMMAWeights)weights;
  config->training = (GPUTrainingMode)training;
  return message->size == 0;
}

/// Checks the options into `config`; the message of the first bad one goes
/// to `message`.
static void resolveOptions(const ConvertOptions *options, GPUConfig *config,
                           CoopvecBuffer *message) {
  config->allowTF32 = options->allowTF32;
  config->blockSize = options->blockSize;
  config->subgroupSize = options->subgroupSize;
  config->workgroupMemory = options->workgroupMemory;
  config->registerElements = options->registerElements;
  config->builtinLaneId = options->builtinLaneId;
  config->boundsChecks = options->boundsChecks;
  config->emulateMMA = options->emulateMMA;
  config->mmaRegions = options->mmaRegions;
  config->tileThreads =
      gpuTileThreads(options->subgroupSize, options->emulateMMA);
  if (!resolveWords(options, config, message))
    return;
  if (!isPowerOfTwo(options->subgroupSize) || options->subgroupSize < 4 ||
      options->subgroupSize > 128)
    coopvecBufferAppendf(message,
                         "subgroup-size=%lld must be a power of "
                         "two from 4 to 128",
                         (long long)options->subgroupSize);
  else if (options->blockSize < options->subgroupSize ||
           options->blockSize > MAX_BLOCK_SIZE ||
           options->blockSize % options->subgroupSize != 0)
    coopvecBufferAppendf(message,
                         "block-size=%lld must be a multiple of "
                         "subgroup-size=%lld, at most %d",
                         (long long)options->blockSize,
                         (long long)options->subgroupSize, MAX_BLOCK_SIZE);
  else if (options->workgroupMemory < 0 ||
           options->workgroupMemory > MAX_WORKGROUP_MEMORY)
    coopvecBufferAppendf(message,
                         "workgroup-memory=%lld is out of range; use "
                         "0 to %d bytes",
                         (long long)options->workgroupMemory,
                         MAX_WORKGROUP_MEMORY);
  else if (options->registerElements < 0 ||
           options->registerElements > MAX_REGISTER_ELEMENTS)
    coopvecBufferAppendf(message,
                         "register-elements=%lld is out of range; use 1 to "
                         "%d, or 0 for the kernel's default",
                         (long long)options->registerElements,
                         MAX_REGISTER_ELEMENTS);
}

//===----------------------------------------------------------------------===//
// Checks (nothing changes until every per-thread function passes)
//===----------------------------------------------------------------------===//

static MlirBlock moduleBody(MlirOperation module) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
}

/// The kernels go into a new `gpu.module @coopvec_kernels`.
static bool checkGPUModuleName(MlirOperation module) {
  for (MlirOperation op = mlirBlockGetFirstOperation(moduleBody(module));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef name = coopvecSymbolNameOf(op);
    if (name.length == strlen(gpuModuleName) &&
        strncmp(name.data, gpuModuleName, name.length) == 0) {
      coopvecEmitOpError(op,
                         "is named @%s, the gpu.module %s creates for "
                         "the kernels",
                         gpuModuleName, passName);
      return false;
    }
  }
  return true;
}

typedef struct StoreSearch {
  CoopvecUniformity uniformity;
  bool ok;
} StoreSearch;

/// Whether `op` lies inside control flow whose condition, selector or
/// bounds vary between threads.
static bool underVaryingControl(const CoopvecUniformity *u, MlirOperation op) {
  for (MlirOperation parent = mlirOperationGetParentOperation(op);
       !mlirOperationIsNull(parent) && !coopvecOpIsNamed(parent, "func.func");
       parent = mlirOperationGetParentOperation(parent))
    if (coopvecControlIsVarying(u, parent))
      return true;
  return false;
}

static MlirWalkResult checkStore(MlirOperation op, void *userData) {
  StoreSearch *search = userData;
  bool store =
      coopvecOpIs(op, CoopvecOpStore) || coopvecOpIs(op, CoopvecOpMaskedStore);
  if (!store ||
      coopvecIsVarying(&search->uniformity, mlirOperationGetOperand(op, 2)) ||
      !underVaryingControl(&search->uniformity, op))
    return MlirWalkResultAdvance;
  coopvecEmitOpError(op,
                     "stores at an offset that is the same in every thread, "
                     "inside control flow that threads take differently; %s "
                     "cannot order the threads of a whole grid to let the "
                     "highest-numbered one that stores win (store at a "
                     "per-thread offset, or outside the control flow)",
                     passName);
  search->ok = false;
  return MlirWalkResultAdvance;
}

/// The GPU's own rule: the race of a store at a uniform offset is won by
/// the highest-numbered thread (thread n - 1 writes, since every thread
/// stores); under varying control flow that thread may not store.
static bool checkStores(MlirOperation func) {
  StoreSearch search = {{{0}}, true};
  coopvecAnalyzeUniformity(func, &search.uniformity);
  mlirOperationWalk(func, checkStore, &search, MlirWalkPreOrder);
  coopvecUniformityFree(&search.uniformity);
  return search.ok;
}

/// Checks every per-thread function (after inlining its calls) and plans
/// its matvecs (`plans[i]` for function i); reports every error before
/// returning.
static bool checkFunctions(MlirOperation module, CoopvecFunctionList *list,
                           const GPUConfig *config, GPUPlan *plans) {
  bool ok = list->count == 0 || checkGPUModuleName(module);
  if (!ok || !coopvecPrepareFunctions(module, list, passName, "_kernel", NULL))
    return false;
  for (intptr_t i = 0; i < list->count; ++i)
    ok &= checkStores(list->ops[i]) &&
          gpuPlanFunction(list->ops[i], config, passName, &plans[i]);
  return ok;
}

//===----------------------------------------------------------------------===//
// The gpu.module and the kernel
//===----------------------------------------------------------------------===//

/// `gpu.module @coopvec_kernels` at the end of `module`, which becomes a
/// `gpu.container_module`.
static MlirOperation createGPUModule(MlirOperation module) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirLocation loc = mlirOperationGetLocation(module);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, mlirBlockCreate(0, NULL, NULL));
  MlirNamedAttribute name = coopvecNamedAttr(
      ctx, "sym_name",
      mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(gpuModuleName)));
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString("gpu.module"), loc);
  mlirOperationStateAddAttributes(&state, 1, &name);
  mlirOperationStateAddOwnedRegions(&state, 1, &region);
  MlirOperation gpuModule = mlirOperationCreate(&state);
  mlirBlockAppendOwnedOperation(moduleBody(module), gpuModule);
  mlirOperationSetDiscardableAttributeByName(
      module, mlirStringRefCreateFromCString("gpu.container_module"),
      mlirUnitAttrGet(ctx));
  return gpuModule;
}

static MlirAttribute i64Attr(MlirContext ctx, int64_t value) {
  return mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), value);
}

/// The launch contract (docs/execution-model.md): blocks of blockSize
/// threads (`known_block_size`), grid = ceil(n / blockSize), and the
/// kernel's own workgroup memory, allocated statically.
static void addLaunchAttributes(MlirContext ctx, MlirOperationState *state,
                                const GPUConfig *config, const GPUPlan *plan) {
  int32_t blockSize[] = {(int32_t)config->blockSize, 1, 1};
  MlirNamedAttribute attributes[] = {
      coopvecNamedAttr(ctx, "gpu.kernel", mlirUnitAttrGet(ctx)),
      coopvecNamedAttr(ctx, "workgroup_attributions", i64Attr(ctx, 0)),
      coopvecNamedAttr(ctx, "known_block_size",
                       mlirDenseI32ArrayGet(ctx, 3, blockSize)),
      coopvecNamedAttr(ctx, "coopvec.block_size",
                       i64Attr(ctx, config->blockSize)),
      coopvecNamedAttr(ctx, "coopvec.subgroup_size",
                       i64Attr(ctx, config->subgroupSize)),
      coopvecNamedAttr(ctx, "coopvec.workgroup_memory",
                       i64Attr(ctx, gpuStagingBytes(&plan->staging))),
  };
  mlirOperationStateAddAttributes(
      state, sizeof(attributes) / sizeof(attributes[0]), attributes);
}

/// Creates `gpu.func @<name>_kernel(...) kernel` (empty entry block) at the
/// end of `gpuModule`.
static MlirOperation createKernel(MlirOperation gpuModule, MlirOperation func,
                                  const GPUConfig *config,
                                  const GPUPlan *plan) {
  MlirContext ctx = mlirOperationGetContext(func);
  MlirLocation loc = mlirOperationGetLocation(func);
  MlirType type = coopvecBatchedFunctionType(ctx, coopvecFunctionTypeOf(func));
  intptr_t numArgs = mlirFunctionTypeGetNumInputs(type);
  MlirBlock entry = mlirBlockCreate(0, NULL, NULL);
  for (intptr_t i = 0; i < numArgs; ++i)
    mlirBlockAddArgument(entry, mlirFunctionTypeGetInput(type, i), loc);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, entry);
  MlirStringRef name = coopvecSymbolNameOf(func);
  CoopvecBuffer kernelName = {0};
  coopvecBufferAppendf(&kernelName, "%.*s_kernel", (int)name.length, name.data);
  MlirNamedAttribute attributes[] = {
      coopvecNamedAttr(
          ctx, "sym_name",
          mlirStringAttrGet(
              ctx, mlirStringRefCreate(kernelName.data, kernelName.size))),
      coopvecNamedAttr(ctx, "function_type", mlirTypeAttrGet(type)),
  };
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString("gpu.func"), loc);
  mlirOperationStateAddAttributes(&state, 2, attributes);
  addLaunchAttributes(ctx, &state, config, plan);
  mlirOperationStateAddOwnedRegions(&state, 1, &region);
  MlirOperation kernel = mlirOperationCreate(&state);
  coopvecBufferFree(&kernelName);
  mlirBlockAppendOwnedOperation(
      mlirRegionGetFirstBlock(mlirOperationGetRegion(gpuModule, 0)), kernel);
  return kernel;
}

static MlirValue indexConstant(GPULowering *l, int64_t value) {
  return coopvecPerThreadIndex(&l->p, value);
}

/// The thread's place in the batch and in its subgroup. Points `entry`
/// before it (constants, private tiles, workgroup buffers) and `body`
/// before the gpu.return.
static void createPrologue(GPULowering *l, MlirLocation loc) {
  CoopvecBuilder end = coopvecBuilderAtEnd(l->entryBlock, loc);
  MlirOperation ret = coopvecBuild0(&end, "gpu.return", 0, NULL, 0, NULL);
  CoopvecBuilder *b = &l->p.body;
  *b = coopvecBuilderBefore(ret, loc);
  l->threadInBlock = coopvecBuildThreadIdX(b);
  l->p.entry =
      coopvecBuilderBefore(mlirOpResultGetOwner(l->threadInBlock), loc);
  MlirValue blockStart =
      coopvecBuildBinaryOp(b, "arith.muli", coopvecBuildBlockIdX(b),
                           indexConstant(l, l->config->blockSize));
  l->thread =
      coopvecBuildBinaryOp(b, "arith.addi", blockStart, l->threadInBlock);
  l->valid = coopvecBuildCmpI(b, COOPVEC_CMPI_ULT, l->thread, l->n);
  l->row = coopvecBuildSelect(b, l->valid, l->thread, indexConstant(l, 0));
  MlirValue lane =
      coopvecBuildBinaryOp(b, "arith.remui", l->threadInBlock,
                           indexConstant(l, l->config->subgroupSize));
  MlirValue inTile =
      l->config->tileThreads == l->config->subgroupSize
          ? lane
          : coopvecBuildBinaryOp(b, "arith.remui", l->threadInBlock,
                                 indexConstant(l, l->config->tileThreads));
  l->tileRow = coopvecBuildBinaryOp(b, "arith.subi", l->threadInBlock, inTile);
  if (l->config->builtinLaneId) {
    // Lane 0 of the subgroup the hardware formed, whatever its size; a
    // subgroup without a valid thread adds -0.0, which changes nothing.
    MlirValue laneId = coopvecBuild1(b, "gpu.lane_id", 0, NULL,
                                     mlirIndexTypeGet(l->p.ctx), 0, NULL);
    l->leader =
        coopvecBuildCmpI(b, COOPVEC_CMPI_EQ, laneId, indexConstant(l, 0));
  } else {
    MlirValue subgroupStart =
        coopvecBuildBinaryOp(b, "arith.subi", l->thread, lane);
    l->leader = coopvecBuildBinaryOp(
        b, "arith.andi",
        coopvecBuildCmpI(b, COOPVEC_CMPI_EQ, lane, indexConstant(l, 0)),
        coopvecBuildCmpI(b, COOPVEC_CMPI_ULT, subgroupStart, l->n));
  }
  l->isLast = coopvecBuildCmpI(
      b, COOPVEC_CMPI_EQ, l->thread,
      coopvecBuildBinaryOp(b, "arith.subi", l->n, indexConstant(l, 1)));
  l->p.active = l->valid;
}

/// One workgroup buffer of `count` elements, or null for none.
static MlirValue stagingBuffer(GPULowering *l, MlirType element,
                               int64_t count) {
  if (count == 0)
    return (MlirValue){NULL};
  return coopvecBuildWorkgroupAlloc(&l->p.entry, element, count,
                                    GPU_WORKGROUP_ALIGNMENT);
}

static void createStagingBuffers(GPULowering *l) {
  const GPUStaging *s = &l->plan->staging;
  MlirType f16 = mlirF16TypeGet(l->p.ctx);
  l->inputF16 = stagingBuffer(l, f16, s->inputF16);
  l->weightF16 = stagingBuffer(l, f16, s->weightF16);
  l->inputF32 = stagingBuffer(l, l->p.f32, s->inputF32);
  l->weightF32 = stagingBuffer(l, l->p.f32, s->weightF32);
  l->output = stagingBuffer(l, l->p.f32, s->output);
}

/// Vec arguments are loaded from their rows; the others are uniform and
/// used directly.
static void mapArguments(GPULowering *l, MlirBlock original) {
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(original); ++i) {
    MlirValue arg = mlirBlockGetArgument(original, i);
    MlirValue replacement = mlirBlockGetArgument(l->entryBlock, 1 + i);
    if (coopvecTypeIsAVec(mlirValueGetType(arg)))
      gpuLoadVecArgument(l, arg, replacement);
    else
      mlirValueReplaceAllUsesOfWith(arg, replacement);
  }
}

/// Which vecs stay in SSA form (registers): the option, or by default 128
/// elements in a kernel whose matvecs all run on tensor cores and 32 in
/// others. Wider vecs live in per-thread arrays, which NVIDIA puts in local
/// memory: 128 made the f16 MLPs of bench/mlp-gpu.mlir 6-9x faster on an
/// H200. A `simt` matvec of vecs in registers is unrolled over inputs and
/// outputs (16K FMAs for 128 x 128), which the driver's JIT takes minutes
/// over, hence 32 where one is planned.
static int64_t registerElementsFor(const GPUConfig *config,
                                   const GPUPlan *plan) {
  if (config->registerElements > 0)
    return config->registerElements;
  return plan->simtMatvecs ? GPU_REGISTER_ELEMENTS_SIMT
                           : GPU_REGISTER_ELEMENTS_MMA;
}

/// Builds @f_kernel from the checked per-thread function `func`, then
/// erases `func`.
static bool lowerFunction(MlirOperation gpuModule, MlirOperation func,
                          const GPUConfig *config, const GPUPlan *plan) {
  MlirContext ctx = mlirOperationGetContext(func);
  MlirLocation loc = mlirOperationGetLocation(func);
  GPULowering l;
  memset(&l, 0, sizeof(l));
  l.config = config;
  l.plan = plan;
  CoopvecThreadMapping mapping = gpuMapping;
  mapping.ssaMaxElements = registerElementsFor(config, plan);
  coopvecPerThreadInit(&l.p, ctx, &mapping, &l, mlirF32TypeGet(ctx));
  l.p.boundsChecks = config->boundsChecks;
  // auto: direct, today's code; local is not measured on a GPU yet.
  // expand: local (per-host-thread copies are a CPU engine's; a GPU
  // kernel has no host threads). docs/passes.md, "reduce-mode".
  l.p.reduceMode = config->reduceMode == CoopvecReduceLocal ||
                           config->reduceMode == CoopvecReduceExpand
                       ? CoopvecReduceLocal
                       : CoopvecReduceDirect;
  coopvecPerThreadAnalyze(&l.p, func);
  MlirOperation kernel = createKernel(gpuModule, func, config, plan);
  l.entryBlock = mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0));
  l.n = mlirBlockGetArgument(l.entryBlock, 0);
  createPrologue(&l, loc);
  createStagingBuffers(&l);
  MlirBlock original = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  mapArguments(&l, original);
  bool ok = coopvecPerThreadLowerBlock(&l.p, original);
  if (ok)
    gpuStoreResults(&l, mlirBlockGetTerminator(original),
                    1 + mlirBlockGetNumArguments(original));
  coopvecFinishStatusSignature(
      &l.p, l.entryBlock, kernel,
      mlirOperationGetParentOperation(mlirOperationGetParentOperation(kernel)));
  coopvecPerThreadFree(&l.p);
  mlirOperationDestroy(func);
  return ok;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

static void runConvert(MlirOperation module, MlirExternalPass pass,
                       const void *options) {
  GPUConfig config;
  CoopvecBuffer message = {0};
  resolveOptions(options, &config, &message);
  if (message.size) {
    coopvecBufferAppendf(&message, " (in %s)", passName);
    mlirEmitError(mlirOperationGetLocation(module), coopvecBufferStr(&message));
    coopvecBufferFree(&message);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  CoopvecFunctionList list = coopvecCollectPerThreadFunctions(module);
  GPUPlan *plans =
      calloc((size_t)(list.count ? list.count : 1), sizeof(GPUPlan));
  if (!plans)
    abort();
  bool ok = checkFunctions(module, &list, &config, plans);
  MlirOperation gpuModule = {NULL};
  if (ok && list.count)
    gpuModule = createGPUModule(module);
  for (intptr_t i = 0; ok && i < list.count; ++i)
    ok = lowerFunction(gpuModule, list.ops[i], &config, &plans[i]);
  for (intptr_t i = 0; i < list.count; ++i)
    gpuPlanFree(&plans[i]);
  free(plans);
  free(list.ops);
  if (!ok)
    mlirExternalPassSignalFailure(pass);
}

static MlirValue scalarElement(CoopvecPerThread *p, CoopvecBuilder *b,
                               MlirValue scalar) {
  (void)p;
  (void)b;
  return scalar; // one thread's element is a scalar
}

static const CoopvecThreadMapping gpuMapping = {
    .passName = passName,
    .broadcast = scalarElement,
    .allocTile = gpuAllocTile,
    .loadRow = gpuLoadRow,
    .storeRow = gpuStoreRow,
    .lowerStore = gpuLowerStore,
    .lowerMatvec = gpuLowerMatvec,
    .lowerOuterProduct = gpuLowerOuterProduct,
    .lowerReduceSum = gpuLowerReduceSum,
    .varyingType = gpuVaryingType,
    .anyActive = gpuAnyActive,
    .masksRegion = gpuMasksRegion,
    .memory = &gpuMemoryHooks,
};

static const CoopvecPassOption convertOptions[] = {
    {"matvec", CoopvecOptionString, offsetof(ConvertOptions, matvec), "auto",
     "matvec schedule: mma (tensor cores / cooperative matrices), simt "
     "(per-thread FMA loops) or auto (mma where the element type, the "
     "options and the workgroup memory allow it)"},
    {"allow-tf32", CoopvecOptionBool, offsetof(ConvertOptions, allowTF32),
     "false",
     "let f32 matvecs use tensor cores as tf32 (10-bit mantissa products)"},
    {"block-size", CoopvecOptionInt, offsetof(ConvertOptions, blockSize), "128",
     "threads per workgroup, a multiple of subgroup-size, at most 1024"},
    {"subgroup-size", CoopvecOptionInt, offsetof(ConvertOptions, subgroupSize),
     "32",
     "threads per subgroup (an NVIDIA warp: 32); the rows of a staged "
     "tensor-core tile"},
    {"workgroup-memory", CoopvecOptionInt,
     offsetof(ConvertOptions, workgroupMemory), "49152",
     "bytes of workgroup memory the tensor-core staging of a kernel may use "
     "(48 KiB: the static shared memory of every NVIDIA GPU)"},
    {"register-elements", CoopvecOptionInt,
     offsetof(ConvertOptions, registerElements), "0",
     "vecs of at most this many elements are kept in SSA values (registers) "
     "and their ops unrolled; wider ones live in per-thread arrays (local "
     "memory on NVIDIA) with element loops. 0: 128 in a kernel whose "
     "matvecs all run on tensor cores, 32 in others"},
    {"builtin-lane-id", CoopvecOptionBool,
     offsetof(ConvertOptions, builtinLaneId), "false",
     "the training ops elect lane 0 of each subgroup by gpu.lane_id (the "
     "hardware's subgroup invocation id) instead of thread_id modulo "
     "subgroup-size, so that simt kernels are right for any subgroup size "
     "(Vulkan drivers may pick it per pipeline)"},
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
     "atomic per thread), local (the threads of a subgroup adding to one "
     "address summed with subgroup reductions, one atomic per distinct "
     "address; their control flow runs masked), expand (the same as local "
     "on a GPU) or auto (direct)"},
    {"emulate-mma", CoopvecOptionBool, offsetof(ConvertOptions, emulateMMA),
     "false",
     "run the tensor-core schedule (its staging, indexing, barriers and "
     "masking) with each 16 x 16 tile product computed by the tile's "
     "threads in f32 FMAs instead of gpu.subgroup_mma ops, so that it runs "
     "and is tested where there are no tensor cores or cooperative "
     "matrices (lavapipe); a tile group is the subgroup, or 32 threads (a "
     "warp) when the subgroup is smaller"},
    {"mma-weights", CoopvecOptionString, offsetof(ConvertOptions, mmaWeights),
     "slices",
     "how a tensor-core matvec stages its weights in workgroup memory: "
     "slices (16 rows per 16-column output tile, a barrier pair each) or "
     "whole (every row at once, one barrier pair; the k-steps load each "
     "input fragment once for all output tiles, whose accumulators stay in "
     "registers: for matvecs of at most 8 tiles of accumulators per tile "
     "group, 64 outputs at 32 threads, whose rows fit workgroup-memory; "
     "others use slices)"},
    {"training", CoopvecOptionString, offsetof(ConvertOptions, training),
     "block",
     "how outer_product_accumulate and reduce_sum_accumulate sum over "
     "threads: block (the workgroup's rows staged in workgroup memory and "
     "multiplied as 16 x 16 tiles, on tensor cores for f16 unless "
     "matvec=simt or emulate-mma, then one atomic per gradient element and "
     "workgroup; an op whose staging does not fit workgroup-memory beside "
     "the matvecs', or a subgroup size that is not a multiple of 16, keeps "
     "the subgroup form) or subgroup (a subgroup reduction and one atomic "
     "per element and subgroup)"},
    {"mma-regions", CoopvecOptionBool, offsetof(ConvertOptions, mmaRegions),
     "false",
     "run f16 tensor-core matvecs of at most 128 outputs whose weight rows "
     "fit workgroup-memory whole on mma.sync fragments (nvgpu.mma.sync "
     "m16n8k16, each warp's 32 rows as two 16-row tiles, the accumulators "
     "starting at the bias): a chain of such matvecs and elementwise ops "
     "keeps its values in the fragment layout from one matvec to the next "
     "(no read-back to the threads, no barrier per output tile); NVIDIA "
     "warps of 32, or emulate-mma, which runs the same schedule with each "
     "lane's sums as FMAs (docs/execution-model.md, \"Cooperative "
     "regions\")"},
};

static MlirDialectHandle (*const convertDependentDialects[])(void) = {
    mlirGetDialectHandle__arith__,  mlirGetDialectHandle__gpu__,
    mlirGetDialectHandle__math__,   mlirGetDialectHandle__memref__,
    mlirGetDialectHandle__nvgpu__,  mlirGetDialectHandle__scf__,
    mlirGetDialectHandle__vector__,
};

const CoopvecPassDef coopvecConvertToGPUPassDef = {
    .argument = "convert-coopvec-to-gpu",
    .name = "ConvertCoopvecToGPU",
    .description = "Lower per-thread coopvec functions to GPU kernels over a "
                   "batch (gpu, arith, math, memref, scf, vector), matvecs "
                   "on subgroup MMA or per-thread FMA loops",
    .anchor = "builtin.module",
    .options = convertOptions,
    .numOptions = sizeof(convertOptions) / sizeof(convertOptions[0]),
    .optionsSize = sizeof(ConvertOptions),
    .dependentDialects = convertDependentDialects,
    .numDependentDialects =
        sizeof(convertDependentDialects) / sizeof(convertDependentDialects[0]),
    .run = runConvert,
};
