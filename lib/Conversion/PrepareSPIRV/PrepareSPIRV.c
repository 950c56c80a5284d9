//===- PrepareSPIRV.c - coopvec-prepare-spirv -----------------------------===//
//
// What a gpu.module from convert-coopvec-to-gpu needs before MLIR's
// `convert-gpu-to-spirv` for Vulkan (checked on MLIR 22.1.8):
//
//   - the target environment: a `#spirv.target_env` (Vulkan, the
//     capabilities the kernels may use, the subgroup size in the resource
//     limits, the cooperative-matrix shapes) as the gpu.module's
//     `spirv.target_env` attribute and in its `targets`, unless it has one
//     (then that one is used as it is). SPIR-V 1.3, except for modules
//     with cooperative-matrix ops, whose KHR ops need 1.6. The version
//     matters beyond the ops: from 1.4 on, spirv-lower-abi-attrs lists
//     every global variable in the entry point's interface, which is
//     invalid in the 1.0 module spirv-update-vce makes of a kernel whose
//     ops need nothing newer (lavapipe rejected such modules); a 1.6 module
//     has 1.6 ops, so spirv-update-vce keeps 1.6;
//   - `spirv.entry_point_abi` (the workgroup size) on every kernel, from
//     its `known_block_size`: convert-gpu-to-spirv refuses a kernel
//     without;
//   - builtin vectors split into their elements (Scalarize.c);
//   - per-thread arrays (`memref.alloca`) in the Function storage class,
//     the one memref-to-spirv makes private arrays of;
//   - subgroup reductions without `uniform`, which would make them
//     OpGroupFAdd (capability Groups, not in Vulkan) instead of
//     OpGroupNonUniformFAdd;
//   - local arrays: atomics on them as load, combine, store, and arrays of
//     index as arrays of i32 (LocalArrays.c);
//   - scf.index_switch as a chain of scf.if (IndexSwitch.c);
//   - scf.for with results guarded by `lb < ub` (ZeroTripLoops.c: the
//     conversion leaves the results of a loop that never runs undefined);
//   - math.trunc, arith.ceildivsi / ceildivui / floordivsi, which the
//     conversions have no pattern for, expanded (Expand.c);
//   - f16 math.fma in f32, rounded to odd, then to f16 (F16Fma.c:
//     lavapipe's GLSL Fma is not fused, and in f16 that is far off), and
//     f32 math.fma in f64 likewise (F32Fma.c), except the matvec's dot
//     products (marked coopvec.accumulate), after the vectors are split
//     (vector.fma is math.fma then; no f64 vectors);
//   - f16 values extended to f32 through an integer or with a run-time
//     0, which keeps a driver from folding extf(truncf(y)) to y
//     (F16Extension.c: NVIDIA's did; opaque-f16-extension=false leaves
//     them);
//   - the status atomics of run-time bounds reports gathered per thread
//     and added once at the kernel's end (Status.c: lavapipe runs loops
//     that hold 64-bit atomics wrong);
//   - float atomic adds (Atomics.c);
//   - arith.maximumf / minimumf as compares and selects (MinMax.c: GLSL's
//     FMax / FMin leave the sign of max(-0, +0) to the driver);
//   - checks: a cooperative-matrix kernel converted for another subgroup
//     size (it stages the rows of its tiles by subgroup), vector kernel
//     arguments (no Vulkan binding holds one), cooperative-matrix ops when
//     the target has none or not their shape.
//
//===----------------------------------------------------------------------===//

#include "Conversion/PrepareSPIRV/PrepareSPIRV.h"

#include "Dialect/Verifier.h"
#include "IR/UpstreamBuilders.h"
#include "Pass/PassDef.h"
#include "Support/Alloc.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Dialect/Arith.h>
#include <mlir-c/Dialect/GPU.h>
#include <mlir-c/Dialect/MemRef.h>
#include <mlir-c/Dialect/SCF.h>
#include <mlir-c/Dialect/SPIRV.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char passName[] = "coopvec-prepare-spirv";

typedef struct PrepareOptions {
  int64_t subgroupSize;
  bool atomicFloat;
  bool cooperativeMatrix;
  char shapes[COOPVEC_OPTION_STRING_MAX];
  bool signedZeroInfNanPreserve;
  bool denormPreserve;
  bool roundingModeRTE;
  bool opaqueF16Extension;
  int64_t indexBitwidth;
} PrepareOptions;

enum { MAX_SHAPES = 16 };

/// An M x N x K cooperative-matrix shape: f16 x f16 + f32 -> f32 in a
/// subgroup.
typedef struct Shape {
  int64_t m, n, k;
} Shape;

typedef struct Target {
  const PrepareOptions *options;
  bool attached;   // the env was made here from the options
  bool multiplies; // the gpu.module has cooperative-matrix ops
  Shape shapes[MAX_SHAPES];
  int numShapes;
} Target;

static MlirAttribute attributeOf(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op,
                                         mlirStringRefCreateFromCString(name));
}

static void setAttribute(MlirOperation op, const char *name,
                         MlirAttribute attr) {
  mlirOperationSetDiscardableAttributeByName(
      op, mlirStringRefCreateFromCString(name), attr);
}

static bool printsAs(MlirAttribute attr, const char *prefix) {
  CoopvecBuffer text = {0};
  mlirAttributePrint(attr, coopvecBufferCallback, &text);
  bool is = strncmp(coopvecBufferStr(&text), prefix, strlen(prefix)) == 0;
  coopvecBufferFree(&text);
  return is;
}

//===----------------------------------------------------------------------===//
// Options and the target environment
//===----------------------------------------------------------------------===//

/// Parses `MxNxK[,MxNxK...]` into `target`; false with a message.
static bool parseShapes(const char *text, Target *target,
                        CoopvecBuffer *message) {
  target->numShapes = 0;
  const char *p = text;
  while (*p) {
    long long m, n, k;
    int used = 0;
    if (target->numShapes == MAX_SHAPES ||
        sscanf(p, "%lldx%lldx%lld%n", &m, &n, &k, &used) != 3 || m <= 0 ||
        n <= 0 || k <= 0 || m > 256 || n > 256 || k > 256 ||
        (p[used] != ',' && p[used] != '\0')) {
      coopvecBufferAppendf(message,
                           "cooperative-matrix-shapes=%s is not a comma list "
                           "of MxNxK shapes (at most %d, sides 1 to 256)",
                           text, MAX_SHAPES);
      return false;
    }
    target->shapes[target->numShapes++] = (Shape){m, n, k};
    p += used + (p[used] == ',');
  }
  return true;
}

static bool checkOptions(const PrepareOptions *options, Target *target,
                         CoopvecBuffer *message) {
  int64_t s = options->subgroupSize;
  if (options->indexBitwidth != 32 && options->indexBitwidth != 64) {
    coopvecBufferAppendf(message, "index-bitwidth=%lld must be 32 or 64",
                         (long long)options->indexBitwidth);
    return false;
  }
  if (s < 1 || s > 128 || (s & (s - 1)) != 0) {
    coopvecBufferAppendf(message,
                         "subgroup-size=%lld must be a power of two from 1 "
                         "to 128",
                         (long long)s);
    return false;
  }
  return parseShapes(options->shapes, target, message);
}

/// The `#spirv.target_env` of the options.
static MlirAttribute buildTargetEnv(MlirContext ctx, const Target *target) {
  const PrepareOptions *o = target->options;
  CoopvecBuffer text = {0};
  coopvecBufferAppendf(
      &text,
      "#spirv.target_env<#spirv.vce<%s, [Shader, Int8, Int16, Int64, "
      "Int64Atomics, "
      "Float16, Float64, StorageBuffer8BitAccess, StorageBuffer16BitAccess, "
      "GroupNonUniform, GroupNonUniformArithmetic%s%s%s%s%s], "
      "[SPV_KHR_8bit_storage, SPV_KHR_16bit_storage, "
      "SPV_KHR_storage_buffer_storage_class%s%s%s]>, api=Vulkan, "
      "#spirv.resource_limits<max_compute_workgroup_invocations = 1024, "
      "max_compute_workgroup_size = [1024, 1024, 64], subgroup_size = %lld",
      target->multiplies && o->cooperativeMatrix ? "v1.6" : "v1.4",
      o->atomicFloat ? ", AtomicFloat32AddEXT" : "",
      o->cooperativeMatrix ? ", CooperativeMatrixKHR" : "",
      o->signedZeroInfNanPreserve ? ", SignedZeroInfNanPreserve" : "",
      o->denormPreserve ? ", DenormPreserve" : "",
      o->roundingModeRTE ? ", RoundingModeRTE" : "",
      o->atomicFloat ? ", SPV_EXT_shader_atomic_float_add" : "",
      o->cooperativeMatrix ? ", SPV_KHR_cooperative_matrix" : "",
      o->signedZeroInfNanPreserve || o->denormPreserve || o->roundingModeRTE
          ? ", SPV_KHR_float_controls"
          : "",
      (long long)o->subgroupSize);
  if (o->cooperativeMatrix) {
    coopvecBufferAppendStr(&text, ", cooperative_matrix_properties_khr = [");
    for (int i = 0; i < target->numShapes; ++i)
      coopvecBufferAppendf(
          &text,
          "%s#spirv.coop_matrix_props_khr<m_size = %lld, n_size = %lld, "
          "k_size = %lld, a_type = f16, b_type = f16, c_type = f32, "
          "result_type = f32, acc_sat = false, scope = <Subgroup>>",
          i ? ", " : "", (long long)target->shapes[i].m,
          (long long)target->shapes[i].n, (long long)target->shapes[i].k);
    coopvecBufferAppendStr(&text, "]");
  }
  coopvecBufferAppendStr(&text, ">>");
  MlirAttribute env =
      mlirAttributeParseGet(ctx, mlirStringRefCreate(text.data, text.size));
  if (mlirAttributeIsNull(env)) {
    fprintf(stderr, "coopvec: internal error: cannot parse '%s'\n",
            coopvecBufferStr(&text));
    abort();
  }
  coopvecBufferFree(&text);
  return env;
}

/// Gives `gpuModule` its target environment; false after an error.
static bool attachTarget(MlirOperation gpuModule, Target *target) {
  MlirContext ctx = mlirOperationGetContext(gpuModule);
  MlirAttribute env = attributeOf(gpuModule, "spirv.target_env");
  target->attached = mlirAttributeIsNull(env);
  if (target->attached) {
    env = buildTargetEnv(ctx, target);
    setAttribute(gpuModule, "spirv.target_env", env);
  }
  MlirAttribute targets = attributeOf(gpuModule, "targets");
  intptr_t count =
      mlirAttributeIsNull(targets) ? 0 : mlirArrayAttrGetNumElements(targets);
  for (intptr_t i = 0; i < count; ++i) {
    MlirAttribute element = mlirArrayAttrGetElement(targets, i);
    if (!printsAs(element, "#spirv.target_env")) {
      coopvecEmitOpError(gpuModule,
                         "has a target that is not SPIR-V; %s prepares "
                         "modules for Vulkan only",
                         passName);
      return false;
    }
  }
  if (count == 0) // an inherent attribute of gpu.module
    mlirOperationSetInherentAttributeByName(
        gpuModule, mlirStringRefCreateFromCString("targets"),
        mlirArrayAttrGet(ctx, 1, &env));
  return true;
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

static MlirAttribute parseAttr(MlirContext ctx, const char *text) {
  MlirAttribute attr =
      mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString(text));
  if (mlirAttributeIsNull(attr)) {
    fprintf(stderr, "coopvec: internal error: cannot parse '%s'\n", text);
    abort();
  }
  return attr;
}

/// `spirv.entry_point_abi` from the kernel's block size.
static bool addEntryPointABI(MlirOperation kernel) {
  if (!mlirAttributeIsNull(attributeOf(kernel, "spirv.entry_point_abi")))
    return true;
  int64_t size[3] = {0, 1, 1};
  MlirAttribute known = attributeOf(kernel, "known_block_size");
  MlirAttribute blockSize = attributeOf(kernel, "coopvec.block_size");
  if (!mlirAttributeIsNull(known) && mlirAttributeIsADenseI32Array(known) &&
      mlirDenseArrayGetNumElements(known) == 3) {
    for (int i = 0; i < 3; ++i)
      size[i] = mlirDenseI32ArrayGetElement(known, i);
  } else if (!mlirAttributeIsNull(blockSize) &&
             mlirAttributeIsAInteger(blockSize)) {
    size[0] = mlirIntegerAttrGetValueInt(blockSize);
  }
  if (size[0] <= 0 || size[1] <= 0 || size[2] <= 0) {
    coopvecEmitOpError(kernel,
                       "has no workgroup size: %s needs known_block_size "
                       "(or coopvec.block_size) on every kernel",
                       passName);
    return false;
  }
  char text[160];
  snprintf(text, sizeof(text),
           "#spirv.entry_point_abi<workgroup_size = [%lld, %lld, %lld]>",
           (long long)size[0], (long long)size[1], (long long)size[2]);
  setAttribute(kernel, "spirv.entry_point_abi",
               parseAttr(mlirOperationGetContext(kernel), text));
  return true;
}

static bool checkSubgroupSize(MlirOperation kernel, const Target *target) {
  MlirAttribute size = attributeOf(kernel, "coopvec.subgroup_size");
  if (!target->attached || mlirAttributeIsNull(size) ||
      !mlirAttributeIsAInteger(size) ||
      mlirIntegerAttrGetValueInt(size) == target->options->subgroupSize)
    return true;
  coopvecEmitOpError(kernel,
                     "was converted for subgroups of %lld threads, but the "
                     "target's subgroup-size is %lld (convert with the same "
                     "subgroup-size)",
                     (long long)mlirIntegerAttrGetValueInt(size),
                     (long long)target->options->subgroupSize);
  return false;
}

static bool checkArguments(MlirOperation kernel) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0));
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); ++i) {
    MlirType type = mlirValueGetType(mlirBlockGetArgument(entry, i));
    if (mlirTypeIsAVector(type)) {
      coopvecEmitOpError(kernel,
                         "takes a builtin vector as argument %ld; a Vulkan "
                         "kernel argument is a scalar or a memref (one "
                         "storage buffer each)",
                         (long)i);
      return false;
    }
  }
  return true;
}

/// Rows and columns of a `!gpu.mma_matrix<RxCx...>`, from its spelling.
static bool mmaShape(MlirType type, int64_t *rows, int64_t *cols, bool *isF16) {
  CoopvecBuffer text = {0};
  mlirTypePrint(type, coopvecBufferCallback, &text);
  long long r = 0, c = 0;
  bool ok = sscanf(coopvecBufferStr(&text), "!gpu.mma_matrix<%lldx%lldx", &r,
                   &c) == 2;
  *isF16 = strstr(coopvecBufferStr(&text), "xf16") != NULL;
  coopvecBufferFree(&text);
  *rows = r;
  *cols = c;
  return ok;
}

/// A cooperative-matrix multiply needs the target to have its shape.
static bool checkMMA(MlirOperation op, const Target *target) {
  if (!target->options->cooperativeMatrix && target->attached) {
    coopvecEmitOpError(op,
                       "multiplies cooperative matrices, which the target "
                       "does not have (%s with cooperative-matrix=true, "
                       "coopvec-lower-to-spirv with "
                       "mode=cooperative-matrix; or convert with "
                       "matvec=simt)",
                       passName);
    return false;
  }
  int64_t m, k, k2, n;
  bool aF16, bF16;
  if (!mmaShape(mlirValueGetType(mlirOperationGetOperand(op, 0)), &m, &k,
                &aF16) ||
      !mmaShape(mlirValueGetType(mlirOperationGetOperand(op, 1)), &k2, &n,
                &bF16))
    return true; // not ours to judge: the conversion will say
  if (!aF16 || !bF16) {
    coopvecEmitOpError(op, "multiplies f32 (tf32) cooperative matrices; the "
                           "SPIR-V target multiplies f16 ones only (convert "
                           "with allow-tf32=false)");
    return false;
  }
  if (!target->attached)
    return true;
  for (int i = 0; i < target->numShapes; ++i)
    if (target->shapes[i].m == m && target->shapes[i].n == n &&
        target->shapes[i].k == k)
      return true;
  coopvecEmitOpError(op,
                     "multiplies %lldx%lldx%lld (MxNxK) cooperative "
                     "matrices, which are not among the target's "
                     "cooperative-matrix-shapes=%s",
                     (long long)m, (long long)n, (long long)k,
                     target->options->shapes);
  return false;
}

typedef struct OpList {
  MlirOperation *ops;
  intptr_t count, capacity;
} OpList;

static MlirWalkResult collectOp(MlirOperation op, void *userData) {
  if (coopvecOpIsNamed(op, "memref.alloca") ||
      coopvecOpIsNamed(op, "gpu.subgroup_reduce") ||
      coopvecOpIsNamed(op, "gpu.subgroup_mma_compute")) {
    OpList *list = userData;
    list->ops = coopvecGrowArray(list->ops, &list->capacity, list->count + 1,
                                 sizeof(MlirOperation));
    list->ops[list->count++] = op;
  }
  return MlirWalkResultAdvance;
}

/// An alloca without a memory space (or space 0) into Function storage.
static void moveToFunctionStorage(MlirOperation alloca) {
  MlirValue result = mlirOperationGetResult(alloca, 0);
  MlirType type = mlirValueGetType(result);
  MlirAttribute space = mlirMemRefTypeGetMemorySpace(type);
  if (!mlirAttributeIsNull(space) && !(mlirAttributeIsAInteger(space) &&
                                       mlirIntegerAttrGetValueInt(space) == 0))
    return;
  intptr_t rank = mlirShapedTypeGetRank(type);
  int64_t shape[8];
  if (rank > 8)
    return;
  for (intptr_t i = 0; i < rank; ++i)
    shape[i] = mlirShapedTypeGetDimSize(type, i);
  MlirContext ctx = mlirOperationGetContext(alloca);
  MlirType moved =
      mlirMemRefTypeGet(mlirShapedTypeGetElementType(type), rank, shape,
                        mlirMemRefTypeGetLayout(type),
                        parseAttr(ctx, "#spirv.storage_class<Function>"));
  mlirValueSetType(result, moved);
}

static bool prepareKernel(MlirOperation kernel, const Target *target) {
  if (!checkArguments(kernel) || !addEntryPointABI(kernel))
    return false;
  coopvecGatherStatusReports(kernel);
  if (!coopvecPrepareLocalArrays(
          kernel, (unsigned)target->options->indexBitwidth, passName))
    return false;
  coopvecLowerIndexSwitches(kernel);
  coopvecGuardZeroTripLoops(kernel);
  coopvecExpandForSPIRV(kernel);
  coopvecExpandF16Fma(kernel);
  OpList list = {NULL, 0, 0};
  mlirOperationWalk(kernel, collectOp, &list, MlirWalkPreOrder);
  bool ok = true, multiplies = false;
  for (intptr_t i = 0; ok && i < list.count; ++i)
    if (coopvecOpIsNamed(list.ops[i], "gpu.subgroup_mma_compute")) {
      ok = checkMMA(list.ops[i], target);
      multiplies = true;
    }
  // Only the cooperative-matrix staging depends on the subgroup size.
  ok = ok && (!multiplies || checkSubgroupSize(kernel, target));
  ok = ok && coopvecScalarizeVectors(kernel, passName) &&
       coopvecExpandF32Fma(kernel, passName);
  if (ok && target->options->opaqueF16Extension)
    coopvecHideF16Extensions(kernel);
  for (intptr_t i = 0; ok && i < list.count; ++i) {
    if (coopvecOpIsNamed(list.ops[i], "memref.alloca"))
      moveToFunctionStorage(list.ops[i]);
    // A `uniform` reduction becomes OpGroupFAdd, whose Groups capability
    // Vulkan does not have; without it, OpGroupNonUniformFAdd (every lane
    // takes part anyway).
    if (coopvecOpIsNamed(list.ops[i], "gpu.subgroup_reduce"))
      mlirOperationSetInherentAttributeByName(
          list.ops[i], mlirStringRefCreateFromCString("uniform"),
          mlirAttributeGetNull());
  }
  free(list.ops);
  // Allocas the scalarization made are in Function storage already.
  if (!ok ||
      !coopvecLowerFloatAtomics(kernel, target->options->atomicFloat, passName))
    return false;
  // Last: the atomics' compare-and-swap loops compute maximumf / minimumf.
  coopvecExpandMinMax(kernel);
  return true;
}

static MlirWalkResult findMMA(MlirOperation op, void *userData) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  bool *found = userData;
  *found = name.length > 18 && strncmp(name.data, "gpu.subgroup_mma_", 17) == 0;
  return *found ? MlirWalkResultInterrupt : MlirWalkResultAdvance;
}

static void runPrepare(MlirOperation gpuModule, MlirExternalPass pass,
                       const void *options) {
  Target target = {.options = options};
  mlirOperationWalk(gpuModule, findMMA, &target.multiplies, MlirWalkPreOrder);
  CoopvecBuffer message = {0};
  if (!checkOptions(options, &target, &message)) {
    coopvecBufferAppendf(&message, " (in %s)", passName);
    mlirEmitError(mlirOperationGetLocation(gpuModule),
                  coopvecBufferStr(&message));
    coopvecBufferFree(&message);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  bool ok = attachTarget(gpuModule, &target);
  MlirBlock body =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(gpuModule, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       ok && !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (coopvecOpIsNamed(op, "gpu.func") &&
        !mlirAttributeIsNull(attributeOf(op, "gpu.kernel")))
      ok = prepareKernel(op, &target);
  if (!ok)
    mlirExternalPassSignalFailure(pass);
}

static const CoopvecPassOption prepareOptions[] = {
    {"subgroup-size", CoopvecOptionInt, offsetof(PrepareOptions, subgroupSize),
     "32",
     "the target's subgroup size (resource limits); kernels with "
     "cooperative-matrix ops converted for another one are refused"},
    {"atomic-float", CoopvecOptionBool, offsetof(PrepareOptions, atomicFloat),
     "false",
     "f32 atomic adds as OpAtomicFAddEXT (SPV_EXT_shader_atomic_float_add; "
     "the device needs shaderBufferFloat32AtomicAdd) instead of "
     "compare-and-swap loops"},
    {"cooperative-matrix", CoopvecOptionBool,
     offsetof(PrepareOptions, cooperativeMatrix), "false",
     "the target has SPV_KHR_cooperative_matrix (gpu.subgroup_mma_* become "
     "spirv.KHR.CooperativeMatrix* ops)"},
    {"cooperative-matrix-shapes", CoopvecOptionString,
     offsetof(PrepareOptions, shapes), "16x16x16",
     "the MxNxK shapes of f16 x f16 + f32 cooperative matrices the target "
     "multiplies in a subgroup"},
    {"signed-zero-inf-nan-preserve", CoopvecOptionBool,
     offsetof(PrepareOptions, signedZeroInfNanPreserve), "true",
     "the target has the SignedZeroInfNanPreserve float controls "
     "(SPV_KHR_float_controls), which coopvec-finish-spirv asks for"},
    {"denorm-preserve", CoopvecOptionBool,
     offsetof(PrepareOptions, denormPreserve), "true",
     "the target has the DenormPreserve float controls "
     "(SPV_KHR_float_controls), which coopvec-finish-spirv asks for"},
    {"rounding-mode-rte", CoopvecOptionBool,
     offsetof(PrepareOptions, roundingModeRTE), "true",
     "the target has the RoundingModeRTE float controls "
     "(SPV_KHR_float_controls), which coopvec-finish-spirv asks for"},
    {"opaque-f16-extension", CoopvecOptionBool,
     offsetof(PrepareOptions, opaqueF16Extension), "true",
     "extend f16 values to f32 through an integer or with a run-time 0, "
     "so that no driver folds extf(truncf(y)) to y and drops the rounding "
     "to f16 (NVIDIA's did; F16Extension.c)"},
    {"index-bitwidth", CoopvecOptionInt,
     offsetof(PrepareOptions, indexBitwidth), "32",
     "the index width of the SPIR-V conversion that follows (32, or 64 "
     "with convert-gpu-to-spirv{use-64bit-index=true}): local arrays of "
     "index hold integers of this width"},
};

static MlirDialectHandle (*const prepareDependentDialects[])(void) = {
    mlirGetDialectHandle__arith__,
    mlirGetDialectHandle__memref__,
    mlirGetDialectHandle__scf__,
    mlirGetDialectHandle__spirv__,
};

const CoopvecPassDef coopvecPrepareSPIRVPassDef = {
    .argument = "coopvec-prepare-spirv",
    .name = "CoopvecPrepareSPIRV",
    .description = "Give a gpu.module its Vulkan target environment and make "
                   "its kernels convertible by convert-gpu-to-spirv (entry "
                   "point ABI, vectors split, private arrays, float atomics, "
                   "ops the conversions refuse or get wrong expanded)",
    .anchor = "gpu.module",
    .options = prepareOptions,
    .numOptions = sizeof(prepareOptions) / sizeof(prepareOptions[0]),
    .optionsSize = sizeof(PrepareOptions),
    .dependentDialects = prepareDependentDialects,
    .numDependentDialects =
        sizeof(prepareDependentDialects) / sizeof(prepareDependentDialects[0]),
    .run = runPrepare,
};
