//===- LowerToSPIRV.c - The coopvec-lower-to-spirv pipeline ---------------===//
//
// From coopvec IR to a `gpu.binary` holding SPIR-V for Vulkan (read it with
// coopvecEmitSPIRV or `coopvec-opt --emit=spirv`); `binary=false` stops
// before gpu-module-to-binary, leaving the gpu.module with its nested
// spirv.module (docs/execution-model.md, "The Vulkan kernel ABI").
//
//   mode=portable            every matvec as per-thread FMA loops
//                            (convert-coopvec-to-gpu matvec=simt): any
//                            Vulkan device, any subgroup size;
//   mode=cooperative-matrix  f16 matvecs on KHR cooperative matrices
//                            (matvec=auto: tensor-core staging where it
//                            fits `workgroup-memory`), f32 ones as above;
//   mode=auto                one of the two from what the device has:
//                            `device-cooperative-matrix=true|false` must
//                            say it (the execution engine reads it from the
//                            device), else the pipeline is refused.
//
// `emulate-mma=true` runs the tensor-core schedule in either mode with its
// tile products as FMAs (convert-coopvec-to-gpu matvec=auto
// emulate-mma=true): no cooperative-matrix op, any device; CI runs the
// Integration suite so on lavapipe.
//
// Inside the gpu.module, coopvec-expand-math turns math.sin, exp, ... into
// arith + math.fma code first: convert-math-to-spirv would make them GLSL
// extended instructions, whose accuracy Vulkan leaves to the driver.
//
// The options are checked here (check), so that a bad one is reported at
// the pipeline's name before anything runs.
//
//===----------------------------------------------------------------------===//

#include "Pass/PassDef.h"
#include "Pipelines/PipelineOptions.h"

#include "coopvec-c/Support.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef enum Mode { ModePortable, ModeCooperativeMatrix, ModeAuto } Mode;

typedef struct SPIRVOptions {
  Mode mode;
  int deviceCooperativeMatrix;                      // -1: not given
  int64_t subgroupSize, blockSize, workgroupMemory; // blockSize 0: default
  bool atomicFloat, binary, preserve, denormPreserve, roundingModeRTE,
      opaqueF16Extension, boundsChecks, emulateMMA, mmaRegions;
  char shapes[128];
  const char *reduceMode; // convert-coopvec-to-gpu's reduce-mode
  const char *mmaWeights; // convert-coopvec-to-gpu's mma-weights
  const char *training;   // convert-coopvec-to-gpu's training
  CoopvecBuffer error;    // the first bad option
} SPIRVOptions;

static bool parseBool(MlirStringRef value, bool *out) {
  if (coopvecStringRefIs(value, "true") || coopvecStringRefIs(value, "false")) {
    *out = coopvecStringRefIs(value, "true");
    return true;
  }
  return false;
}

static bool parseInt(MlirStringRef value, int64_t low, int64_t high,
                     int64_t *out) {
  char text[32];
  if (value.length == 0 || value.length >= sizeof(text))
    return false;
  memcpy(text, value.data, value.length);
  text[value.length] = '\0';
  char *end;
  errno = 0;
  long long parsed = strtoll(text, &end, 10);
  if (errno || *end || parsed < low || parsed > high)
    return false;
  *out = parsed;
  return true;
}

static void badValue(SPIRVOptions *o, MlirStringRef key, MlirStringRef value,
                     const char *expected) {
  if (!o->error.size)
    coopvecBufferAppendf(&o->error, "%.*s=%.*s is not valid: expected %s",
                         (int)key.length, key.data, (int)value.length,
                         value.data, expected);
}

/// The word of `words` (NULL-terminated) that `value` spells, or NULL.
static const char *oneOf(MlirStringRef value, const char *const *words) {
  for (; *words; ++words)
    if (coopvecStringRefIs(value, *words))
      return *words;
  return NULL;
}

/// `*field` = the word of `words` that `value` is; otherwise the error.
static void setWord(SPIRVOptions *o, MlirStringRef key, MlirStringRef value,
                    const char *const *words, const char **field,
                    const char *expected) {
  const char *word = oneOf(value, words);
  if (word)
    *field = word;
  else
    badValue(o, key, value, expected);
}

static void setOption(SPIRVOptions *o, MlirStringRef key, MlirStringRef value) {
  bool flag;
  if (coopvecStringRefIs(key, "mode")) {
    if (coopvecStringRefIs(value, "portable"))
      o->mode = ModePortable;
    else if (coopvecStringRefIs(value, "cooperative-matrix"))
      o->mode = ModeCooperativeMatrix;
    else if (coopvecStringRefIs(value, "auto"))
      o->mode = ModeAuto;
    else
      badValue(o, key, value, "portable, cooperative-matrix or auto");
  } else if (coopvecStringRefIs(key, "device-cooperative-matrix")) {
    if (parseBool(value, &flag))
      o->deviceCooperativeMatrix = flag;
    else
      badValue(o, key, value, "true or false");
  } else if (coopvecStringRefIs(key, "subgroup-size")) {
    if (!parseInt(value, 1, 128, &o->subgroupSize) ||
        (o->subgroupSize & (o->subgroupSize - 1)))
      badValue(o, key, value, "a power of two from 1 to 128");
  } else if (coopvecStringRefIs(key, "block-size") ||
             coopvecStringRefIs(key, "workgroup-size")) {
    if (!parseInt(value, 1, 1024, &o->blockSize))
      badValue(o, key, value, "1 to 1024 threads");
  } else if (coopvecStringRefIs(key, "workgroup-memory")) {
    if (!parseInt(value, 0, 1 << 20, &o->workgroupMemory))
      badValue(o, key, value, "0 to 1048576 bytes");
  } else if (coopvecStringRefIs(key, "atomic-float")) {
    if (!parseBool(value, &o->atomicFloat))
      badValue(o, key, value, "true or false");
  } else if (coopvecStringRefIs(key, "signed-zero-inf-nan-preserve")) {
    if (!parseBool(value, &o->preserve))
      badValue(o, key, value, "true or false");
  } else if (coopvecStringRefIs(key, "denorm-preserve")) {
    if (!parseBool(value, &o->denormPreserve))
      badValue(o, key, value, "true or false");
  } else if (coopvecStringRefIs(key, "rounding-mode-rte")) {
    if (!parseBool(value, &o->roundingModeRTE))
      badValue(o, key, value, "true or false");
  } else if (coopvecStringRefIs(key, "opaque-f16-extension")) {
    if (!parseBool(value, &o->opaqueF16Extension))
      badValue(o, key, value, "true or false");
  } else if (coopvecStringRefIs(key, "binary")) {
    if (!parseBool(value, &o->binary))
      badValue(o, key, value, "true or false");
  } else if (coopvecStringRefIs(key, "bounds-checks")) {
    if (!parseBool(value, &o->boundsChecks))
      badValue(o, key, value, "true or false");
  } else if (coopvecStringRefIs(key, "emulate-mma")) {
    if (!parseBool(value, &o->emulateMMA))
      badValue(o, key, value, "true or false");
  } else if (coopvecStringRefIs(key, "mma-regions")) {
    if (!parseBool(value, &o->mmaRegions))
      badValue(o, key, value, "true or false");
  } else if (coopvecStringRefIs(key, "mma-weights")) {
    static const char *const stagings[] = {"slices", "whole", NULL};
    setWord(o, key, value, stagings, &o->mmaWeights, "slices or whole");
  } else if (coopvecStringRefIs(key, "training")) {
    static const char *const forms[] = {"block", "subgroup", NULL};
    setWord(o, key, value, forms, &o->training, "block or subgroup");
  } else if (coopvecStringRefIs(key, "reduce-mode")) {
    static const char *const modes[] = {"direct", "local", "expand", "auto",
                                        NULL};
    setWord(o, key, value, modes, &o->reduceMode,
            "direct, local, expand or auto");
  } else if (coopvecStringRefIs(key, "cooperative-matrix-shapes")) {
    if (value.length == 0 || value.length >= sizeof(o->shapes))
      badValue(o, key, value, "a comma list of MxNxK shapes");
    else {
      memcpy(o->shapes, value.data, value.length);
      o->shapes[value.length] = '\0';
    }
  } else if (!o->error.size) {
    coopvecBufferAppendf(
        &o->error,
        "unknown option '%.*s' (options: mode, device-cooperative-matrix, "
        "subgroup-size, block-size, workgroup-memory, atomic-float, "
        "cooperative-matrix-shapes, signed-zero-inf-nan-preserve, "
        "denorm-preserve, rounding-mode-rte, opaque-f16-extension, "
        "bounds-checks, reduce-mode, emulate-mma, mma-weights, training, "
        "mma-regions, binary)",
        (int)key.length, key.data);
  }
}

/// Reads `key=value` words (space separated, as pass options) and resolves
/// mode=auto; the first problem lands in `o->error`.
static void parseOptions(MlirStringRef text, SPIRVOptions *o) {
  memset(o, 0, sizeof(*o));
  o->mode = ModePortable;
  o->deviceCooperativeMatrix = -1;
  o->subgroupSize = 32;
  o->workgroupMemory = 32768;
  o->binary = true;
  o->preserve = true;
  o->denormPreserve = true;
  o->roundingModeRTE = true;
  o->opaqueF16Extension = true;
  o->boundsChecks = true;
  o->reduceMode = "auto";
  o->mmaWeights = "slices";
  o->training = "block";
  strcpy(o->shapes, "16x16x16");
  CoopvecOptionWord w;
  for (size_t pos = 0; coopvecNextOptionWord(text, &pos, &w);)
    setOption(o, w.key, w.value);
  if (o->mode == ModeAuto) {
    if (o->deviceCooperativeMatrix < 0 && !o->error.size)
      coopvecBufferAppendStr(
          &o->error,
          "mode=auto chooses between portable and cooperative-matrix from "
          "what the device has, and no device was described: give "
          "device-cooperative-matrix=true|false (whether the device "
          "multiplies the cooperative-matrix-shapes; the execution engine "
          "passes what the device reports) or mode=portable|"
          "cooperative-matrix");
    o->mode =
        o->deviceCooperativeMatrix == 1 ? ModeCooperativeMatrix : ModePortable;
  }
  if (o->mmaRegions && !o->emulateMMA && !o->error.size)
    coopvecBufferAppendStr(
        &o->error,
        "mma-regions=true needs emulate-mma=true on SPIR-V: the regions keep "
        "values in the mma.sync fragment layout, which cooperative matrices "
        "(opaque) do not expose (docs/execution-model.md, \"Cooperative "
        "regions\")");
  if (o->mode == ModeCooperativeMatrix && !o->emulateMMA &&
      o->subgroupSize % 16 && !o->error.size)
    coopvecBufferAppendf(
        &o->error,
        "mode=cooperative-matrix stages the vectors of a "
        "subgroup as rows of 16 x 16 tiles: subgroup-size=%lld "
        "must be a multiple of 16",
        (long long)o->subgroupSize);
}

/// The subgroup size convert-coopvec-to-gpu works with: portable kernels
/// do not depend on it (builtin-lane-id), but it takes 4 to 128.
static int64_t conversionSubgroupSize(const SPIRVOptions *o) {
  return o->subgroupSize < 4 ? 4 : o->subgroupSize;
}

static int64_t blockSizeOf(const SPIRVOptions *o) {
  if (o->blockSize)
    return o->blockSize;
  int64_t subgroup = conversionSubgroupSize(o);
  return subgroup > 64 ? subgroup : 64;
}

static void checkLowerToSPIRV(MlirStringRef text, MlirStringCallback error,
                              void *userData) {
  SPIRVOptions o;
  parseOptions(text, &o);
  if (!o.error.size && blockSizeOf(&o) % conversionSubgroupSize(&o))
    coopvecBufferAppendf(&o.error,
                         "block-size=%lld must be a multiple of the subgroup "
                         "size (%lld)",
                         (long long)blockSizeOf(&o),
                         (long long)conversionSubgroupSize(&o));
  if (o.error.size)
    error(mlirStringRefCreate(o.error.data, o.error.size), userData);
  coopvecBufferFree(&o.error);
}

static void expandLowerToSPIRV(MlirStringRef text, MlirStringCallback append,
                               void *userData) {
  SPIRVOptions o;
  parseOptions(text, &o); // checked by checkLowerToSPIRV
  // Emulated tile products need no cooperative matrix, in either mode.
  bool cooperative = o.mode == ModeCooperativeMatrix && !o.emulateMMA;
  CoopvecBuffer pipeline = {0};
  coopvecBufferAppendf(
      &pipeline,
      "coopvec-verify,"
      "convert-coopvec-to-gpu{matvec=%s block-size=%lld subgroup-size=%lld "
      "workgroup-memory=%lld builtin-lane-id=true bounds-checks=%s "
      "reduce-mode=%s emulate-mma=%s mma-weights=%s training=%s "
      "mma-regions=%s},"
      "gpu.module(coopvec-expand-math,canonicalize,cse,"
      "loop-invariant-code-motion,coopvec-prepare-spirv{subgroup-size=%lld "
      "atomic-float=%s "
      "cooperative-matrix=%s cooperative-matrix-shapes=%s "
      "signed-zero-inf-nan-preserve=%s denorm-preserve=%s "
      "rounding-mode-rte=%s opaque-f16-extension=%s},"
      "map-memref-spirv-storage-class{client-api=vulkan},"
      "convert-math-to-spirv),"
      "convert-gpu-to-spirv{use-64bit-index=false},"
      "coopvec-nest-spirv,"
      "gpu.module(spirv.module(spirv-lower-abi-attrs,"
      "coopvec-finish-spirv{signed-zero-inf-nan-preserve=%s "
      "denorm-preserve=%s rounding-mode-rte=%s},"
      "canonicalize,cse,spirv-update-vce,"
      "coopvec-declare-spirv-capabilities))%s",
      cooperative || o.emulateMMA ? "auto" : "simt", (long long)blockSizeOf(&o),
      (long long)conversionSubgroupSize(&o), (long long)o.workgroupMemory,
      o.boundsChecks ? "true" : "false", o.reduceMode,
      o.emulateMMA ? "true" : "false", o.mmaWeights, o.training,
      o.mmaRegions ? "true" : "false", (long long)o.subgroupSize,
      o.atomicFloat ? "true" : "false", cooperative ? "true" : "false",
      o.shapes, o.preserve ? "true" : "false",
      o.denormPreserve ? "true" : "false", o.roundingModeRTE ? "true" : "false",
      o.opaqueF16Extension ? "true" : "false", o.preserve ? "true" : "false",
      o.denormPreserve ? "true" : "false", o.roundingModeRTE ? "true" : "false",
      o.binary ? ",gpu-module-to-binary{format=bin}" : "");
  append(mlirStringRefCreate(pipeline.data, pipeline.size), userData);
  coopvecBufferFree(&pipeline);
  coopvecBufferFree(&o.error);
}

const CoopvecPipelineDef coopvecLowerToSPIRVPipelineDef = {
    .argument = "coopvec-lower-to-spirv",
    .description =
        "Lower coopvec IR to a gpu.binary with SPIR-V for Vulkan "
        "(mode=portable|cooperative-matrix|auto; "
        "convert-coopvec-to-gpu, coopvec-prepare-spirv, "
        "convert-gpu-to-spirv, coopvec-nest-spirv, "
        "coopvec-finish-spirv; binary=false: stop before "
        "gpu-module-to-binary). Options: mode, "
        "device-cooperative-matrix, subgroup-size, block-size, "
        "workgroup-memory, atomic-float, "
        "cooperative-matrix-shapes, "
        "signed-zero-inf-nan-preserve, denorm-preserve, "
        "rounding-mode-rte, opaque-f16-extension, bounds-checks, "
        "reduce-mode, emulate-mma, mma-weights, training, mma-regions, "
        "binary",
    .expand = expandLowerToSPIRV,
    .check = checkLowerToSPIRV,
};
