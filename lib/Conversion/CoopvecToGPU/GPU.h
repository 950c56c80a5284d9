//===- GPU.h - convert-coopvec-to-gpu internals -------------------*- C -*-===//
//
// The GPU thread mapping: a per-thread function @f becomes a kernel
// @f_kernel in which GPU thread i runs thread i of the batch, so every
// element value is an f32 scalar of one GPU thread. Only the ops where
// threads cooperate differ from the per-thread program: matvec (the
// vectors of a subgroup staged in workgroup memory and multiplied on
// tensor cores / cooperative matrices, or per-thread FMA loops), the
// training ops (subgroup reductions, then atomics) and the racing stores.
// Only target-neutral dialects are emitted (gpu, arith, math, memref, scf,
// vector), so the SPIR-V target reuses this lowering
// (docs/execution-model.md, "GPU targets"); but mma-regions without
// emulate-mma emits nvgpu.mma.sync, whose fragment layout is NVIDIA's.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_CONVERSION_COOPVECTOGPU_GPU_H
#define COOPVEC_LIB_CONVERSION_COOPVECTOGPU_GPU_H

#include "Conversion/PerThread/PerThread.h"
#include "IR/GPUBuilders.h"

/// A unit attribute on the two `memref.atomic_rmw` of a run-time bounds
/// check's report (GPUThreads.c) into the status buffer: a target may
/// gather them per thread and add them once at the kernel's end
/// (coopvec-prepare-spirv does, lib/Conversion/PrepareSPIRV/Status.c).
#define COOPVEC_GPU_STATUS_REPORT_ATTR "coopvec.status_report"

/// A unit attribute on the `math.fma`s of a `simt` matvec's dot products
/// (GPUMatvec.c), whose rounding the dialect leaves to the target: a
/// target that computes other f32 fmas in f64 to round them once (coopvec-
/// prepare-spirv, lib/Conversion/PrepareSPIRV/F32Fma.c) keeps these fast.
#define COOPVEC_GPU_ACCUMULATE_ATTR "coopvec.accumulate"

typedef enum GPUMatvecMode {
  GPUMatvecAuto,
  GPUMatvecMMA,
  GPUMatvecSIMT,
} GPUMatvecMode;

/// How tensor-core matvecs stage their weights (mma-weights): 16 rows per
/// 16-column output tile, or every row at once with the output tiles'
/// accumulators kept over the k-steps (GPUMatvec.c).
typedef enum GPUMMAWeights {
  GPUMMAWeightsSlices,
  GPUMMAWeightsWhole,
} GPUMMAWeights;

/// How the training ops sum over threads (training=): per workgroup, the
/// block's rows staged and multiplied as tiles, one atomic per gradient
/// element and workgroup (GPUBlockTraining.c); or per subgroup, a
/// reduction and one atomic per element and subgroup (GPUTraining.c).
typedef enum GPUTrainingMode {
  GPUTrainingBlock,
  GPUTrainingSubgroup,
} GPUTrainingMode;

/// How one matvec runs, decided before anything changes (GPUPlan.c).
typedef enum GPUSchedule {
  GPUScheduleSIMT = 1,
  GPUScheduleMMAF16,  // f16 x f16 -> f32 tiles of 16 x 16 x 16
  GPUScheduleMMATF32, // f32 read as tf32 -> f32, tiles of 16 x 16 x 8
} GPUSchedule;

/// The pass options, checked.
typedef struct GPUConfig {
  GPUMatvecMode matvec;
  bool allowTF32;
  int64_t blockSize;            // threads per workgroup
  int64_t subgroupSize;         // threads per subgroup (an NVIDIA warp: 32)
  int64_t workgroupMemory;      // bytes the tensor-core staging may use
  int64_t registerElements;     // vecs up to this size stay in SSA; 0: auto
  bool builtinLaneId;           // leader: gpu.lane_id == 0 (any subgroup size)
  bool boundsChecks;            // run-time checks of accesses (Memory.c)
  CoopvecReduceMode reduceMode; // scatter-adds (ReduceMode.h), resolved
  bool emulateMMA;              // tile products in FMAs (GPUMatvec.c)
  GPUMMAWeights mmaWeights;     // weight staging of tensor-core matvecs
  int64_t tileThreads;          // threads whose rows form the staged tiles
  GPUTrainingMode training;     // how the training ops sum over threads
  bool mmaRegions; // chains of matvecs on mma.sync fragments (GPURegions.c)
} GPUConfig;

/// The workgroup buffers the tensor-core matvecs of a kernel share, in
/// elements (0: not needed). Each is as large as the largest need of any
/// of them; barriers separate their uses.
typedef struct GPUStaging {
  int64_t inputF16, weightF16; // subgroup input tiles, weight slice (f16)
  int64_t inputF32, weightF32; // the same for tf32
  int64_t output;              // f32 result tiles
  /// Whether the result rows and the weight rows are skewed as the input
  /// rows are; not where the skews would push a kernel past
  /// `workgroup-memory` (GPUPlan.c).
  bool skewedOutput, skewedWeights;
} GPUStaging;

typedef struct GPUPlan {
  CoopvecPointerMap schedules; // coopvec.matvec op -> GPUSchedule
  /// Tensor-core matvec op -> 1: its weights staged whole (mma-weights=
  /// whole, where the accumulators and the workgroup memory allow).
  CoopvecPointerMap wholeWeights;
  /// Training op -> the rows of the workgroup it stages at once (a divisor
  /// of the block size, a multiple of 16): summed per workgroup
  /// (training=block, where the workgroup memory allows; absent: per
  /// subgroup). Its schedule (GPUScheduleMMAF16: f16 tiles on tensor cores
  /// unless emulated; GPUScheduleSIMT: tiles of FMAs) is in `schedules`.
  CoopvecPointerMap blockRows;
  /// mma-regions=true: tensor-core matvec op -> 1 where it runs on
  /// mma.sync fragments (GPUFragmentMatvec.c), its weight rows staged
  /// whole; and the vec values held in the fragment layout between them
  /// (value -> 1: GPURegions.c).
  CoopvecPointerMap fragmentMatvecs, fragmentValues;
  GPUStaging staging;
  bool simtMatvecs; // some matvec runs as per-thread FMA loops
} GPUPlan;

int64_t gpuStagingBytes(const GPUStaging *staging);
/// Picks a schedule for every matvec of `func` (a checked per-thread
/// function) and sizes the staging buffers. Returns false after emitting
/// an error at a matvec that cannot run as `config` asks.
bool gpuPlanFunction(MlirOperation func, const GPUConfig *config,
                     const char *passName, GPUPlan *plan);
void gpuPlanFree(GPUPlan *plan);
/// mma-regions: the rows of one matvec on fragments are at most this many
/// outputs (GPUFragmentMatvec.c: 64 f32 accumulator registers per row
/// tile of a warp).
enum { GPU_FRAGMENT_MAX_OUTPUTS = 128 };
/// Whether the vec `value` is the same in every thread: made by loads at
/// uniform offsets, splats, ... of uniform scalars (GPURegions.c).
bool gpuIsUniformVec(const CoopvecUniformity *uniformity, MlirValue value);
/// Which values of `func` hold the fragment layout (plan->fragmentValues)
/// between the matvecs of plan->fragmentMatvecs (GPURegions.c).
void gpuPlanRegions(MlirOperation func, const CoopvecUniformity *uniformity,
                    GPUPlan *plan);

/// Tensor-core tiles: 16 x 16 outputs; k is 16 for f16 and 8 for tf32.
enum { GPU_MMA_TILE = 16 };
/// mma-weights=whole keeps the accumulators of every output tile of every
/// row tile of a tile group over the k-steps: at most this many 16 x 16 f32
/// tiles, 8 registers each per thread of a warp (64 registers: a W = 64
/// matvec at 32-thread tile groups; the W = 64 kernel of bench/mlp-gpu used
/// 168 registers without spills before them).
enum { GPU_WHOLE_WEIGHTS_MAX_TILES = 8 };
int64_t gpuMMAKStep(GPUSchedule schedule);
/// The threads whose rows one tensor-core tile group stages and
/// multiplies: the subgroup (the MMA ops are subgroup operations); when
/// emulating, at least 32, an NVIDIA warp (two 16-row tiles, each result
/// tile computed 8 results a thread, as there), which may span subgroups.
enum { GPU_EMULATED_TILE_THREADS = 32 };
int64_t gpuTileThreads(int64_t subgroupSize, bool emulateMMA);
/// Threads move their rows of the staged tiles in 16-byte vectors, and
/// every row is 16 bytes longer than its data (a skew, as tiny-cuda-nn's
/// SKEW): a 16-byte access is served in phases of 8 threads, and rows
/// whose stride is 16 modulo 128 bytes put those 8 threads on 8
/// different groups of 4 banks. Unskewed rows of 64 f16 (128 bytes) put
/// all 32 threads of a warp on one bank. The skew keeps every row and
/// every tensor-core tile 32-byte aligned (wmma's rule).
enum { GPU_STAGING_CHUNK_BYTES = 16, GPU_STAGING_SKEW_BYTES = 16 };
/// The 16-byte vector of `element` (f16 or f32) the staging moves.
MlirType gpuStagingChunkType(MlirType element);
/// One thread's row of a staged tile (GPUStagedRows.c): `vec`'s `count`
/// elements rounded to the buffer's type, then +0.0 to `padded` (a
/// multiple of the chunk), from element `start` of `buffer`; all +0.0
/// where `keep` (an i1; null: always) is false.
typedef struct GPUStagedRow {
  MlirValue vec;
  int64_t count, padded;
  MlirValue buffer, start, keep;
} GPUStagedRow;
/// `padded` elements of `elementBytes` bytes and the skew.
int64_t gpuSkewedRowStride(int64_t padded, int64_t elementBytes);
/// The element stride of a staged input row of `paddedInputs` elements.
int64_t gpuStagedRowStride(GPUSchedule schedule, int64_t paddedInputs);
/// The element stride of a staged weight row: skewed as the input rows
/// where `staging` says so, else `paddedInputs`.
int64_t gpuWeightRowStride(const GPUStaging *staging, GPUSchedule schedule,
                           int64_t paddedInputs);
/// The f32 stride of a skewed row of the result tiles: 16 + the skew.
enum { GPU_OUTPUT_ROW_STRIDE = GPU_MMA_TILE + GPU_STAGING_SKEW_BYTES / 4 };
/// The f32 stride of a result row: skewed where `staging` says so, else 16.
int64_t gpuOutputRowStride(const GPUStaging *staging);
int64_t gpuRoundUp(int64_t value, int64_t multiple);

typedef struct GPULowering {
  CoopvecPerThread p;
  const GPUConfig *config;
  const GPUPlan *plan;
  MlirBlock entryBlock; // of the kernel: %n, arguments, outputs
  MlirValue n;
  MlirValue threadInBlock; // gpu.thread_id x
  MlirValue thread;        // block_id * blockSize + threadInBlock
  MlirValue valid;         // thread < n
  MlirValue row;           // valid ? thread : 0: a row every argument has
  MlirValue tileRow;       // threadInBlock of its tile group's first thread
  MlirValue leader;        // lane 0 of a subgroup with a valid thread
  MlirValue isLast;        // thread == n - 1
  /// Staging buffers in workgroup memory (null when not needed).
  MlirValue inputF16, weightF16, inputF32, weightF32, output;
  MlirValue vote; // one index of workgroup memory for votes (GPUThreads.c)
  /// The private array the fragment matvecs' zero-sign branch uses
  /// (GPUFragmentMatvec.c), made at the first.
  MlirValue fragmentScratch;
} GPULowering;

static inline GPULowering *gpuOf(CoopvecPerThread *p) {
  return (GPULowering *)p->target;
}

/// fma(w, x, acc) with w widened to f32, marked as a dot product's step
/// (COOPVEC_GPU_ACCUMULATE_ATTR: the target may round it twice).
MlirValue gpuBuildAccumulate(CoopvecBuilder *b, MlirValue w, MlirValue x,
                             MlirValue acc);
/// One operand of a 16 x 16 tile product, staged in workgroup memory:
/// element (i, k) of A (i a row of the tile), or (j, k) of B^T (j a column
/// of the tile), is at start + i * stride + k * kStride (a null start is
/// 0). A matvec's
/// operands hold k along their rows (kStride 1); an outer product's hold
/// the block's rows (k) one staged row apart (stride 1).
typedef struct GPUTileOperand {
  MlirValue buffer, start;
  int64_t stride, kStride;
} GPUTileOperand;
/// Y = sum over k < `k` of A B from -0.0 (f32), stored to rows
/// [outputRow, outputRow + 16) of l->output (gpuOutputRowStride f32 a row).
typedef struct GPUTileProduct {
  GPUTileOperand a, b;
  int64_t k; // a multiple of the schedule's k-step
  MlirValue outputRow;
} GPUTileProduct;
/// The fragment types of a tile product on tensor cores: A (16 x k) and B
/// (k x 16) of the staging type, the f32 accumulator C (16 x 16), and C's
/// -0.0 (the empty sum) built at `b`.
typedef struct GPUFragments {
  int64_t kStep;
  MlirType a, b, c;
  MlirValue zero;
} GPUFragments;
GPUFragments gpuFragments(GPULowering *l, GPUSchedule schedule, MlirType stage,
                          CoopvecBuilder *b);
/// The product on tensor cores (gpu.subgroup_mma_*, a transposed load where
/// an operand's k is not contiguous), or emulated where config->emulateMMA
/// or `schedule` is GPUScheduleSIMT (GPUTileProduct.c).
void gpuMultiplyTile(GPULowering *l, GPUSchedule schedule,
                     const GPUTileProduct *product);
/// The product without tensor cores: each of the tile group's threads
/// computes 256 / tileThreads results in f32 FMAs (GPUEmulatedMMA.c).
void gpuEmulateTileProduct(GPULowering *l, const GPUTileProduct *product);
/// start + x at `b`, or x where `start` is null.
MlirValue gpuOffsetIndex(CoopvecBuilder *b, MlirValue start, MlirValue x);
/// A thread reads what its tile group stored: a subgroup barrier, or a
/// block barrier where the group spans subgroups.
void gpuSyncTileGroup(GPULowering *l);
/// One matvec as GPUMatvec.c lowers it.
typedef struct GPUMatvec {
  const CoopvecMatrixView *view;
  MlirOperation op;
  MlirValue input, bias; // bias: null without one
  int64_t numOutputs, numInputs;
  /// W(o, k) is at view->base + o * outputStride + k * inputStride.
  int64_t outputStride, inputStride;
  GPUSchedule schedule;
  /// Tensor cores: the padded input count, the element strides of the
  /// staged input rows and weight rows, and the staging buffers.
  int64_t paddedInputs, rowStride, weightStride;
  MlirValue inputBuffer, weightBuffer;
  /// mma-weights=whole: every weight row staged at once; weightStart is
  /// the first element of the slice of the output tile being read back.
  bool wholeWeights;
  int64_t weightStart;
  /// The result: its tile, or its SSA values.
  MlirValue tile;
  MlirValue *values;
} GPUMatvec;
/// Every thread writes its input row to the staged input tile.
void gpuStageMatvecInput(GPULowering *l, const GPUMatvec *m);
/// The workgroup copies `rows` weight rows R[j, k] = W(16 tile + j, k).
void gpuStageMatvecWeights(GPULowering *l, const GPUMatvec *m, int64_t tile,
                           int64_t rows);
/// Sets output element `o` (a constant) of `m`'s result to `value`.
void gpuSetMatvecOutput(GPULowering *l, GPUMatvec *m, int64_t o,
                        MlirValue value);
/// sum + (w x where that product is a zero, else +0.0), at `b`, w widened
/// to f32: summed from -0.0 over k, -0.0 exactly when every product is
/// -0.0, the sign of a zero matvec result (GPUMatvec.c, fixZeroSigns).
MlirValue gpuAddZeroProduct(GPULowering *l, CoopvecBuilder *b, MlirValue w,
                            MlirValue x, MlirValue sum);
/// A matvec of plan->fragmentMatvecs on mma.sync fragments
/// (GPUFragmentMatvec.c); the result is mapped by the caller unless it is
/// a fragment value, which this maps.
void gpuEmitFragmentMatvec(GPULowering *l, GPUMatvec *m);

/// Thread-mapping hooks (CoopvecThreadMapping).
bool gpuLowerStore(CoopvecPerThread *p, MlirOperation op);
bool gpuLowerMatvec(CoopvecPerThread *p, MlirOperation op);
bool gpuLowerOuterProduct(CoopvecPerThread *p, MlirOperation op);
bool gpuLowerReduceSum(CoopvecPerThread *p, MlirOperation op);
/// The training ops summed per workgroup (GPUBlockTraining.c), for ops in
/// plan->blockRows.
void gpuLowerBlockOuterProduct(GPULowering *l, MlirOperation op,
                               const CoopvecMatrixView *view);
void gpuLowerBlockReduceSum(GPULowering *l, MlirOperation op);

/// Varying values, masked control flow and memory of GPU threads
/// (GPUThreads.c).
MlirType gpuVaryingType(CoopvecPerThread *p, MlirType scalar);
MlirValue gpuAnyActive(CoopvecPerThread *p, CoopvecBuilder *b, MlirValue mask);
bool gpuMasksRegion(CoopvecPerThread *p, MlirOperation op);
extern const CoopvecMemoryHooks gpuMemoryHooks;

/// Tiles: per-thread private arrays memref<rows x f32> (memref.alloca at
/// the kernel's entry), so that ops on large vecs are element loops.
MlirValue gpuAllocTile(CoopvecPerThread *p, int64_t rows);
MlirValue gpuLoadRow(CoopvecPerThread *p, CoopvecBuilder *b, MlirValue tile,
                     MlirValue row);
/// vector.load / vector.store of a 1-D `vectorType` of f16 or f32 (a
/// 16-byte staging chunk, a fragment's pair) at element `index` of a
/// buffer, declared aligned to its size (the index must be a multiple of
/// the vector's length) so that NVVM moves it in one access;
/// coopvec-prepare-spirv splits it into elements.
MlirValue gpuBuildAlignedVectorLoad(CoopvecBuilder *b, MlirType vectorType,
                                    MlirValue buffer, MlirValue index);
void gpuBuildAlignedVectorStore(CoopvecBuilder *b, MlirValue vector,
                                MlirValue buffer, MlirValue index);
void gpuStoreRow(CoopvecPerThread *p, CoopvecBuilder *b, MlirValue tile,
                 MlirValue row, MlirValue value);
/// Stores `row` at `b` in 16-byte vectors: a tiled vec's whole chunks by a
/// loop, the rest unrolled.
void gpuStageRow(GPULowering *l, CoopvecBuilder *b, const GPUStagedRow *row);

/// Calls `fn` at `b` for every element of the per-thread vec `value`
/// (unrolled in SSA form, an element loop when tiled); `index` is the
/// element's number as an index value.
typedef void (*GPUElementFn)(GPULowering *l, CoopvecBuilder *b,
                             MlirValue element, MlirValue index, void *state);
void gpuForEachElement(GPULowering *l, CoopvecBuilder *b, MlirValue value,
                       GPUElementFn fn, void *state);

/// Loads vec argument `arg` (thread t's elements are row t of `buffer`).
void gpuLoadVecArgument(GPULowering *l, MlirValue arg, MlirValue buffer);
/// Valid threads write the returned vecs to their rows of the outputs.
void gpuStoreResults(GPULowering *l, MlirOperation ret, intptr_t firstOutput);

/// The view of a matrix operand, or NULL after an error at `op`.
const CoopvecMatrixView *gpuCheckedView(CoopvecPerThread *p, MlirOperation op,
                                        MlirValue matrix);
/// Element strides of a matrix in its layout: W[i, j] is at
/// view->base + i * rowStride + j * colStride. The opaque `inference` and
/// `training` layouts are row-major on GPUs (docs/execution-model.md).
void gpuMatrixStrides(const CoopvecMatrixView *view, int64_t *rowStride,
                      int64_t *colStride);

/// `x * c` and `x + c` for an index value `x` at `b`, without an op when
/// `c` is 1 (0).
MlirValue gpuMulIndex(GPULowering *l, CoopvecBuilder *b, MlirValue x,
                      int64_t c);
MlirValue gpuAddIndex(GPULowering *l, CoopvecBuilder *b, MlirValue x,
                      int64_t c);

/// Workgroup buffers are aligned for tensor-core loads (wmma needs 32
/// bytes; a misaligned buffer is not caught by ptxas, it fails on the GPU).
enum { GPU_WORKGROUP_ALIGNMENT = 128 };

#endif // COOPVEC_LIB_CONVERSION_COOPVECTOGPU_GPU_H
