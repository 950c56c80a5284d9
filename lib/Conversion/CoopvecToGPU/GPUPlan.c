//===- GPUPlan.c - Which matvecs run on tensor cores ----------------------===//
//
// Before anything changes, every matvec gets a schedule: tensor cores
// (f16, or f32 as tf32 when allowed) when the options, the subgroup size
// and the workgroup memory allow it, per-thread FMA loops otherwise. A
// tensor-core matvec stages each subgroup's inputs (subgroup size x K,
// padded, rows skewed by 16 bytes: GPU.h) and 16 weight rows in workgroup
// memory and reads its 16-column result tiles back from there; the
// matvecs of a kernel share these buffers, so the kernel needs the
// largest of their needs, which must fit `workgroup-memory` (the skews of
// the weight and result rows give way first: gpuPlanFunction).
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToGPU/GPU.h"

#include "Dialect/Verifier.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <string.h>

int64_t gpuRoundUp(int64_t value, int64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

int64_t gpuMMAKStep(GPUSchedule schedule) {
  return schedule == GPUScheduleMMATF32 ? 8 : 16;
}

int64_t gpuTileThreads(int64_t subgroupSize, bool emulateMMA) {
  return emulateMMA && subgroupSize < GPU_EMULATED_TILE_THREADS
             ? GPU_EMULATED_TILE_THREADS
             : subgroupSize;
}

/// Bytes of one element of a staged input tile: 2 (f16) or 4 (tf32).
static int64_t stagingElementBytes(GPUSchedule schedule) {
  return schedule == GPUScheduleMMAF16 ? 2 : 4;
}

int64_t gpuSkewedRowStride(int64_t padded, int64_t elementBytes) {
  return padded + GPU_STAGING_SKEW_BYTES / elementBytes;
}

int64_t gpuStagedRowStride(GPUSchedule schedule, int64_t paddedInputs) {
  return gpuSkewedRowStride(paddedInputs, stagingElementBytes(schedule));
}

int64_t gpuWeightRowStride(const GPUStaging *staging, GPUSchedule schedule,
                           int64_t paddedInputs) {
  return staging->skewedWeights ? gpuStagedRowStride(schedule, paddedInputs)
                                : paddedInputs;
}

int64_t gpuOutputRowStride(const GPUStaging *staging) {
  return staging->skewedOutput ? GPU_OUTPUT_ROW_STRIDE : GPU_MMA_TILE;
}

int64_t gpuStagingBytes(const GPUStaging *staging) {
  return 2 * (staging->inputF16 + staging->weightF16) +
         4 * (staging->inputF32 + staging->weightF32 + staging->output);
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/// `staging` grown by what one tensor-core matvec with `inputs` inputs
/// needs, staging `weightRows` weight rows at once.
static GPUStaging withMatvec(GPUStaging staging, const GPUConfig *config,
                             GPUSchedule schedule, int64_t inputs,
                             int64_t weightRows) {
  int64_t padded = gpuRoundUp(inputs, gpuMMAKStep(schedule));
  int64_t input = config->blockSize * gpuStagedRowStride(schedule, padded);
  int64_t weight = weightRows * gpuWeightRowStride(&staging, schedule, padded);
  if (schedule == GPUScheduleMMAF16) {
    staging.inputF16 = max64(staging.inputF16, input);
    staging.weightF16 = max64(staging.weightF16, weight);
  } else {
    staging.inputF32 = max64(staging.inputF32, input);
    staging.weightF32 = max64(staging.weightF32, weight);
  }
  staging.output =
      max64(staging.output, config->blockSize * gpuOutputRowStride(&staging));
  return staging;
}

/// The tensor-core schedule for `op`'s element type, or 0 with the reason
/// in `why` when it cannot have one.
static GPUSchedule tensorCoreSchedule(MlirOperation op, const GPUConfig *config,
                                      const char **why) {
  MlirType matrix = mlirValueGetType(mlirOperationGetOperand(op, 0));
  bool f16 = mlirTypeIsAF16(coopvecMatrixTypeGetElementType(matrix));
  if (config->tileThreads % GPU_MMA_TILE != 0 ||
      config->blockSize % config->tileThreads != 0) {
    *why = config->emulateMMA
               ? "a block size that is a multiple of 32 (the emulated "
                 "tile group)"
               : "a subgroup size that is a multiple of 16 (the "
                 "tensor-core tile)";
    return 0;
  }
  if (!f16 && !config->allowTF32) {
    *why = "allow-tf32=true for an f32 matrix (tensor cores multiply f32 "
           "as tf32, with 10-bit mantissas)";
    return 0;
  }
  return f16 ? GPUScheduleMMAF16 : GPUScheduleMMATF32;
}

static bool isTransposed(MlirOperation op) {
  return !mlirAttributeIsNull(mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("transpose")));
}

static int64_t matvecInputs(MlirOperation op) {
  MlirType matrix = mlirValueGetType(mlirOperationGetOperand(op, 0));
  return isTransposed(op) ? coopvecMatrixTypeGetRows(matrix)
                          : coopvecMatrixTypeGetCols(matrix);
}

static int64_t matvecOutputs(MlirOperation op) {
  MlirType matrix = mlirValueGetType(mlirOperationGetOperand(op, 0));
  return isTransposed(op) ? coopvecMatrixTypeGetCols(matrix)
                          : coopvecMatrixTypeGetRows(matrix);
}

/// The weight rows `op` stages at once with mma-weights=whole (all of
/// them, padded to whole tiles), or 0 where its accumulators would exceed
/// GPU_WHOLE_WEIGHTS_MAX_TILES or the option asks for slices.
static int64_t wholeWeightRows(MlirOperation op, const GPUConfig *config) {
  int64_t rows = gpuRoundUp(matvecOutputs(op), GPU_MMA_TILE);
  int64_t tiles = rows / GPU_MMA_TILE * (config->tileThreads / GPU_MMA_TILE);
  return config->mmaWeights == GPUMMAWeightsWhole &&
                 tiles <= GPU_WHOLE_WEIGHTS_MAX_TILES
             ? rows
             : 0;
}

/// mma-regions: whether `op` (on f16 tensor cores) may run on mma.sync
/// fragments: a warp's 32 rows as two m16 tiles (an NVIDIA warp, or the
/// emulated tile group of 32), at most GPU_FRAGMENT_MAX_OUTPUTS outputs,
/// and a bias every thread agrees on (the accumulators start from it, each
/// lane with the bias of its columns).
static bool takesFragments(MlirOperation op, const GPUConfig *config,
                           const CoopvecUniformity *uniformity) {
  return config->tileThreads == 32 &&
         matvecOutputs(op) <= GPU_FRAGMENT_MAX_OUTPUTS &&
         (mlirOperationGetNumOperands(op) < 3 ||
          gpuIsUniformVec(uniformity, mlirOperationGetOperand(op, 2)));
}

/// How a planning pass goes: whether it reports what cannot be honored,
/// and how many matvecs the workgroup memory kept off tensor cores.
typedef struct Planning {
  const GPUConfig *config;
  const char *passName;
  GPUPlan *plan;
  bool report, ok;
  int64_t offTensorCores;
  /// Which values vary between threads: a reduce_sum_accumulate at a
  /// varying offset is a scatter-add (ReduceMode.h), not a training sum.
  const CoopvecUniformity *uniformity;
  /// mma-regions: matvecs may run on fragments in this pass.
  bool fragments;
} Planning;

static void reportBudget(MlirOperation op, const Planning *planning,
                         const GPUStaging *grown) {
  coopvecEmitOpError(op,
                     "needs %lld bytes of workgroup memory on tensor "
                     "cores with block-size=%lld, more than %s's "
                     "workgroup-memory=%lld; use a smaller block-size "
                     "or matvec=simt",
                     (long long)gpuStagingBytes(grown),
                     (long long)planning->config->blockSize, planning->passName,
                     (long long)planning->config->workgroupMemory);
}

/// mma-regions: `op` on fragments, its weight rows staged whole, where
/// they fit beside the other staging; false (nothing planned) otherwise.
static bool planFragmentMatvec(MlirOperation op, Planning *planning) {
  GPUPlan *plan = planning->plan;
  if (!planning->fragments ||
      !takesFragments(op, planning->config, planning->uniformity))
    return false;
  GPUStaging grown =
      withMatvec(plan->staging, planning->config, GPUScheduleMMAF16,
                 matvecInputs(op), gpuRoundUp(matvecOutputs(op), GPU_MMA_TILE));
  if (gpuStagingBytes(&grown) > planning->config->workgroupMemory)
    return false;
  plan->staging = grown;
  coopvecPointerMapInsert(&plan->fragmentMatvecs, op.ptr, 1);
  coopvecPointerMapInsert(&plan->schedules, op.ptr, GPUScheduleMMAF16);
  return true;
}

/// Chooses `op`'s schedule; false where matvec=mma cannot be honored
/// (reported when `planning->report`).
static bool planMatvec(MlirOperation op, Planning *planning) {
  const GPUConfig *config = planning->config;
  GPUPlan *plan = planning->plan;
  GPUSchedule schedule = GPUScheduleSIMT;
  if (config->matvec != GPUMatvecSIMT) {
    const char *why = NULL;
    GPUSchedule mma = tensorCoreSchedule(op, config, &why);
    if (mma == GPUScheduleMMAF16 && planFragmentMatvec(op, planning))
      return true;
    GPUStaging grown = plan->staging;
    int64_t wholeRows = mma ? wholeWeightRows(op, config) : 0;
    if (wholeRows) {
      grown =
          withMatvec(plan->staging, config, mma, matvecInputs(op), wholeRows);
      if (gpuStagingBytes(&grown) <= config->workgroupMemory)
        coopvecPointerMapInsert(&plan->wholeWeights, op.ptr, 1);
      else
        wholeRows = 0; // slices need less
    }
    if (mma && !wholeRows)
      grown = withMatvec(plan->staging, config, mma, matvecInputs(op),
                         GPU_MMA_TILE);
    bool fits = gpuStagingBytes(&grown) <= config->workgroupMemory;
    planning->offTensorCores += mma && !fits;
    if (mma && fits) {
      schedule = mma;
      plan->staging = grown;
    } else if (config->matvec == GPUMatvecMMA) {
      if (planning->report && mma)
        reportBudget(op, planning, &grown);
      else if (planning->report)
        coopvecEmitOpError(
            op, "cannot run on tensor cores: matvec=mma needs %s", why);
      return false;
    }
  }
  coopvecPointerMapInsert(&plan->schedules, op.ptr, schedule);
  plan->simtMatvecs |= schedule == GPUScheduleSIMT;
  return true;
}

static MlirWalkResult planOp(MlirOperation op, void *userData) {
  Planning *planning = userData;
  if (coopvecOpIs(op, CoopvecOpMatvec))
    planning->ok &= planMatvec(op, planning);
  return MlirWalkResultAdvance;
}

/// `staging` grown by what a training op summed per workgroup needs:
/// `rows` staged rows of `rowElements` elements (f16 or f32), and the
/// result tiles of every tile group (an outer product's).
static GPUStaging withTraining(GPUStaging staging, const GPUConfig *config,
                               bool f16, int64_t rowElements, int64_t rows,
                               bool tiles) {
  int64_t *buffer = f16 ? &staging.inputF16 : &staging.inputF32;
  *buffer = max64(*buffer, rows * rowElements);
  if (tiles)
    staging.output =
        max64(staging.output, config->blockSize / config->tileThreads *
                                  GPU_MMA_TILE * gpuOutputRowStride(&staging));
  return staging;
}

/// A staged training row of `count` elements: padded to whole 16 x 16
/// tiles, skewed (GPUBlockTraining.c).
static int64_t trainingRowElements(int64_t count, bool f16) {
  return gpuSkewedRowStride(gpuRoundUp(count, GPU_MMA_TILE), f16 ? 2 : 4);
}

/// training=block: the most rows of the workgroup (the block, or a half,
/// a quarter, ... that is a multiple of 16) whose staging fits
/// workgroup-memory beside the matvecs' (planned first: they keep tensor
/// cores); no entry, the subgroup form, where even 16 rows do not fit or
/// the tile group is not whole tiles.
static void planTrainingOp(MlirOperation op, Planning *planning) {
  const GPUConfig *config = planning->config;
  GPUPlan *plan = planning->plan;
  bool outer = coopvecOpIs(op, CoopvecOpOuterProductAccumulate);
  if (config->training != GPUTrainingBlock ||
      config->tileThreads % GPU_MMA_TILE != 0 ||
      config->blockSize % config->tileThreads != 0 ||
      (!outer &&
       coopvecIsVarying(planning->uniformity, mlirOperationGetOperand(op, 2))))
    return;
  MlirType vecA = mlirValueGetType(mlirOperationGetOperand(op, 0));
  bool f16 = mlirTypeIsAF16(coopvecVecTypeGetElementType(vecA));
  int64_t rowElements = trainingRowElements(coopvecVecTypeGetSize(vecA), f16);
  if (outer)
    rowElements += trainingRowElements(
        coopvecVecTypeGetSize(mlirValueGetType(mlirOperationGetOperand(op, 1))),
        f16);
  for (int64_t rows = config->blockSize;
       rows % GPU_MMA_TILE == 0 && config->blockSize % rows == 0; rows /= 2) {
    GPUStaging grown =
        withTraining(plan->staging, config, f16, rowElements, rows, outer);
    if (gpuStagingBytes(&grown) > config->workgroupMemory)
      continue;
    plan->staging = grown;
    coopvecPointerMapInsert(&plan->blockRows, op.ptr, rows);
    bool tensorCores = f16 && config->matvec != GPUMatvecSIMT;
    coopvecPointerMapInsert(&plan->schedules, op.ptr,
                            tensorCores ? GPUScheduleMMAF16 : GPUScheduleSIMT);
    return;
  }
}

static MlirWalkResult planTrainingWalk(MlirOperation op, void *userData) {
  if (coopvecOpIs(op, CoopvecOpOuterProductAccumulate) ||
      coopvecOpIs(op, CoopvecOpReduceSumAccumulate))
    planTrainingOp(op, userData);
  return MlirWalkResultAdvance;
}

/// The skews a planning pass tries, best first.
typedef enum Skews { SkewAll, SkewWeights, SkewInputs } Skews;

static Planning planWith(MlirOperation func, const Planning *how, Skews skews,
                         bool report) {
  GPUPlan *plan = how->plan;
  gpuPlanFree(plan);
  memset(plan, 0, sizeof(*plan));
  plan->staging.skewedOutput = skews == SkewAll;
  plan->staging.skewedWeights = skews != SkewInputs;
  Planning planning = *how;
  planning.report = report;
  mlirOperationWalk(func, planOp, &planning, MlirWalkPreOrder);
  gpuPlanRegions(func, how->uniformity, plan);
  mlirOperationWalk(func, planTrainingWalk, &planning, MlirWalkPreOrder);
  return planning;
}

/// Every staged row skewed, unless dropping the result rows' skew (4-way
/// bank conflicts in the read-back) and then the weight rows' (8-way
/// conflicts in the tensor cores' loads of rows of 2^n bytes) keeps more
/// matvecs on tensor cores; a matvec too large for any keeps none of them
/// from their skews. The W = 128 MLP of bench/mlp-gpu.mlir at 128 threads
/// needs 49408 bytes with every skew, 256 more than 48 KiB, and 47360
/// with unskewed result rows.
bool gpuPlanFunction(MlirOperation func, const GPUConfig *config,
                     const char *passName, GPUPlan *plan) {
  memset(plan, 0, sizeof(*plan));
  CoopvecUniformity uniformity;
  coopvecAnalyzeUniformity(func, &uniformity);
  Planning how = {.config = config,
                  .passName = passName,
                  .plan = plan,
                  .ok = true,
                  .uniformity = &uniformity};
  Skews best = SkewAll;
  bool bestFragments = false;
  int64_t fewest = -1;
  // mma-regions: fragments first, but not where their whole weight rows
  // would keep more matvecs off tensor cores than the staging without.
  for (int fragments = config->mmaRegions; fragments >= 0; --fragments) {
    how.fragments = fragments;
    for (Skews skews = SkewAll; skews <= SkewInputs && fewest != 0; ++skews) {
      Planning planning = planWith(func, &how, skews, false);
      if (planning.ok && (fewest < 0 || planning.offTensorCores < fewest)) {
        best = skews;
        bestFragments = fragments;
        fewest = planning.offTensorCores;
      }
    }
  }
  // Where nothing fits (matvec=mma), the error gives the least it needs.
  if (fewest < 0)
    best = SkewInputs;
  how.fragments = bestFragments;
  bool ok = planWith(func, &how, best, true).ok;
  coopvecUniformityFree(&uniformity);
  return ok;
}

void gpuPlanFree(GPUPlan *plan) {
  coopvecPointerMapFree(&plan->schedules);
  coopvecPointerMapFree(&plan->wholeWeights);
  coopvecPointerMapFree(&plan->blockRows);
  coopvecPointerMapFree(&plan->fragmentMatvecs);
  coopvecPointerMapFree(&plan->fragmentValues);
}
