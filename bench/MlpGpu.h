//===- MlpGpu.h - Shared declarations of the MLP GPU benchmark ----*- C -*-===//
//
// bench/mlp-gpu evaluates the fused f16 MLP of bench/mlp-gpu.mlir (32 -> W
// -> W -> W -> W -> 16, ReLU after all but the last layer) over a batch on
// one CUDA GPU: coopvec through the execution engine (tensor-core and SIMT
// matvecs) against cuBLASLt layer by layer, on the same inputs, each checked
// against a double-precision reference on the host (docs/performance.md).
// It also times a training step (GpuTrain.c): coopvec's gradient of the
// MLP, made by coopvec-autodiff, against cuBLASLt's forward and backward
// GEMMs, each gradient checked against a reference on the host.
// The weight buffer holds, per layer, the row-major W (out x in) followed by
// the bias b (out); a gradient buffer has the same layout. Inputs are batch
// x 32, outputs and their upstream gradient dy batch x 16, row-major;
// everything is f16, kept as its uint16_t bits.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_BENCH_MLPGPU_H
#define COOPVEC_BENCH_MLPGPU_H

#include "ExecutionEngine/CUDADriver.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
  GPU_MLP_LAYERS = 5,
  GPU_MLP_INPUTS = 32,
  GPU_MLP_OUTPUTS = 16,
  GPU_MLP_MAX_WIDTH = 128,
  GPU_MLP_MAX_REPS = 1000,
};

typedef struct GpuLayer {
  int inputs, outputs;
  int64_t weightOffset, biasOffset; // in elements, into the weight buffer
} GpuLayer;

/// The MLP of width W: @mlp_reluW of bench/mlp-gpu.mlir.
typedef struct GpuMlp {
  int width;
  char function[32];
  GpuLayer layers[GPU_MLP_LAYERS];
  int64_t numWeights;
} GpuMlp;

/// The layers of width `width` (64 or 128), in the .mlir file's layout.
void gpuMlpInit(GpuMlp *mlp, int width);
/// Two FLOPs per multiply-add; bias adds and ReLUs are not counted.
double gpuMlpFlopsPerSample(const GpuMlp *mlp);

/// The device every variant runs on. Its primary context stays current
/// for the whole run: cuBLASLt (the CUDA runtime) uses the current context,
/// and the engine pushes the same primary context for its own calls.
typedef struct GpuDevice {
  CoopvecCUDADriver driver;
  int ordinal;
  CUdevice device;
  CUcontext context; // the primary context, retained and pushed
  char name[256];
  int smVersion; // compute capability 9.0 -> 90
  int multiprocessors;
} GpuDevice;

/// Prints "mlp-gpu: <call> failed: CUDA_ERROR_X (description)" unless
/// `result` is CUDA_SUCCESS; returns whether it is.
bool gpuCheck(const GpuDevice *device, CUresult result, const char *call);

/// One measurement: the MLP over `batch` samples.
typedef struct GpuProblem {
  const GpuMlp *mlp;
  int64_t batch;
  const uint16_t *x; // batch x 32
  const uint16_t *w; // mlp->numWeights
} GpuProblem;

/// What a variant measured for one problem.
typedef struct GpuTiming {
  double medianMs; // one forward pass over the batch
  /// "kernel" (the engine's events around its launch), "events" (ours
  /// around the 5 matmuls) or "wall" (the engine's whole run, copies
  /// included, where it did not measure the kernel).
  const char *timed;
} GpuTiming;

/// `value` printed into `text` with `format`, or "n/a" unless it is
/// positive and finite (a time or rate that was not measured); `text`.
const char *gpuFormatted(char *text, size_t size, const char *format,
                         double value);

/// f16 <-> double (GpuData.c): exact, and round to nearest even.
double gpuHalfToDouble(uint16_t half);
uint16_t gpuDoubleToHalf(double value);

/// Inputs uniform in [-1, 1]; weights in +-1/sqrt(in), biases in +-0.1.
void gpuFillInputs(uint16_t *x, int64_t count, uint64_t seed);
void gpuFillWeights(const GpuMlp *mlp, uint16_t *w, uint64_t seed);

/// The weights in double (GpuData.c), converted once for the references'
/// loops; NULL after printing that the host is out of memory.
double *gpuWeightsToDouble(const GpuMlp *mlp, const uint16_t *w);

/// One sample's forward in double precision: each layer's input (x, then
/// the ReLUs) and its pre-activation z = W in + b rounded to f16. The
/// outputs are z[GPU_MLP_LAYERS - 1][0 .. 16). `w`: gpuWeightsToDouble's.
typedef struct GpuSample {
  double in[GPU_MLP_LAYERS][GPU_MLP_MAX_WIDTH];
  double z[GPU_MLP_LAYERS][GPU_MLP_MAX_WIDTH];
} GpuSample;
void gpuForwardSample(const GpuMlp *mlp, const double *w, const uint16_t *x,
                      GpuSample *s);

/// An output passes if |got - ref| <= GPU_MLP_TOLERANCE * max(1, |ref|).
/// Each of the 5 layers rounds its outputs to f16 (relative 2^-11, 4.9e-4)
/// in the reference and, at other places or not at all, on the GPU (an f32
/// sum in another order can round the other way; a target may keep f32
/// between layers): up to 2 roundings per layer. The weights (+-1/sqrt(in))
/// do not amplify these independent errors (a layer maps an error d per
/// input to about d / sqrt(3) per output), so the outputs are off by at
/// most about 2 * 4.9e-4 * (1 + 1/sqrt(3) + 1/3 + ...) = 2.5e-3 of the
/// activations' size, which stays at or below the inputs' (|x| <= 1); f32
/// accumulation adds 32..128 errors of 2^-24 (negligible). The floor of 1
/// is that size: a small output is a sum of larger terms and carries their
/// absolute error. 1e-2 leaves a margin of 4; a wrong layout, operand or
/// epilogue is off by far more.
#define GPU_MLP_TOLERANCE 1e-2

typedef struct GpuCheck {
  int64_t samples;
  double maxError;   // the largest finite |got - ref|
  int64_t nonFinite; // outputs whose error is a NaN or infinite
  double worstRatio; // the largest error / allowed error
  int64_t worstSample;
  int worstOutput;
  double worstGot, worstReference;
  bool passed; // worstRatio <= 1
} GpuCheck;

/// Checks the first 4096 and the last 37 samples of `y` (batch x 16).
void gpuCheckOutputs(const GpuProblem *problem, const uint16_t *y,
                     GpuCheck *check);
/// How many samples gpuCheckOutputs checks.
int64_t gpuCheckedSamples(int64_t batch);

//===----------------------------------------------------------------------===//
// Training (GpuTrainData.c, GpuTrain.c)
//===----------------------------------------------------------------------===//

/// One training step: the gradient of sum(dy . MLP(x)) with respect to
/// every weight and bias, for the upstream gradient dy of the outputs.
typedef struct GpuTrainProblem {
  const GpuMlp *mlp;
  int64_t batch;
  const uint16_t *x;  // batch x 32
  const uint16_t *w;  // mlp->numWeights
  const uint16_t *dy; // batch x 16
} GpuTrainProblem;

/// What a variant measured for one training problem.
typedef struct GpuTrainTiming {
  double stepMs; // one step: forward and backward over the batch
  /// The backward alone; < 0 where it is not separate (coopvec's gradient
  /// function recomputes the forward in the same kernel).
  double backwardMs;
  int reps; // the timed steps (fewer than asked once the time cap passed)
  const char *timed; // as GpuTiming's
} GpuTrainTiming;

/// dy uniform in [-1, 1] (a fixed seed of its own), rounded to f16.
void gpuFillUpstream(uint16_t *dy, int64_t count);
/// Two FLOPs per multiply-add of a step: the forward, every layer's weight
/// gradient and the input gradients of layers 1-4 (none for the inputs).
double gpuTrainFlopsPerSample(const GpuMlp *mlp);

/// A ReLU whose f16 pre-activation z the reference puts within this of 0
/// may fall on the other side on a device, whose z differs by its own
/// roundings (GPU_MLP_TOLERANCE: at most 2.5e-3 of the activations' size,
/// which stays at or below 1; in practice about 1e-4): 2^-8 = 3.9e-3.
#define GPU_MLP_RELU_MARGIN 0x1p-8

/// The gradients of a training problem in double precision, laid out like
/// the weights.
typedef struct GpuGradReference {
  double *grad;    // the sums of the terms over the batch
  double *squares; // the sums of their squares
  /// The sums of |term| over the samples where the term's ReLU is within
  /// GPU_MLP_RELU_MARGIN of its threshold (a device may drop or add them).
  double *uncertain;
} GpuGradReference;

/// Fills `ref` (mlp->numWeights elements each). Per sample, each layer's
/// pre-activations z and input gradients are rounded to f16 as the dialect
/// and cuBLASLt round them; ReLU's derivative is 1 for z > 0, 0 for z < 0
/// and 1/2 at z == 0, coopvec-autodiff's rule for max at a tie
/// (docs/autodiff.md, "Ties of max and min").
/// False after printing why (out of memory).
bool gpuGradientReference(const GpuTrainProblem *problem,
                          const GpuGradReference *ref);

/// A gradient element e passes if |got - ref| <= GPU_MLP_GRAD_TOLERANCE *
/// max(rss_e, rss_p / 2) + uncertain_e, where rss_e = sqrt(squares[e]),
/// the root of the sum of the squares of e's terms over the batch (dz * a
/// for a weight, dz for a bias), rss_p the root mean square of rss_e over
/// e's parameter (one layer's W, or its b), and uncertain_e the terms of
/// samples whose ReLU is near its threshold (GpuGradReference). Why rss: a
/// gradient is a sum of terms of either sign, so a sum that is wrong (a
/// wrong layout, operand or epilogue: another element's sum, or half the
/// terms missing or added) is off by about rss_e, while the device's
/// legitimate errors are far smaller:
///   - each term's factors carry the roundings the device makes at other
///     places than the reference, or not at all (f16 values kept in f32
///     between ops: docs/dialect.md, "Arithmetic"): about one f16 rounding,
///     2^-11 = 4.9e-4 relative, per factor and layer; independent
///     round-to-nearest errors of either sign add like a random walk, a
///     few times 4.9e-4 * rss_e;
///   - the f16 gradient is rounded once, 2^-11 |g| <= 2^-11 sqrt(n) rss_e
///     (Cauchy-Schwarz), 0.03 rss_e at the check batch 4099 and 0.12
///     rss_e at the largest check batch allowed, 65536;
///   - a ReLU that takes the other side adds or drops one sample's term:
///     within GPU_MLP_RELU_MARGIN that is uncertain_e; a flip there also
///     changes the sample's gradients in the layers below by about one
///     term / sqrt(W), inside the random walk; the floor rss_p / 2 covers
///     a unit active in no or few samples, whose rss_e is about 0.
/// 0.25 is twice the sum of the first two (at most 0.12 + a few 4.9e-4)
/// and a quarter of a wrong sum's error. On the CPU target, which keeps
/// f16 values in f32 between ops, the worst element at batch 4099 is at 0.28 of
/// this for W = 64 and 0.64 for W = 128 (there a ReLU within the margin took
/// the other side: uncertain_e covers it), and below 0.01 against a reference
/// without the f16 roundings; a wrong sum exceeds it by 4x at a typical element
/// and by 15-30x at the worst one of the thousands checked (the self-test
/// checks that a transposed layer and a shifted bias are refused).
#define GPU_MLP_GRAD_TOLERANCE 0.25

typedef struct GpuGradCheck {
  int64_t elements;
  int64_t nonFinite;  // elements that are a NaN or infinite
  double worstRatio;  // the largest error / allowed error
  int64_t worstIndex; // into the weight layout
  double worstGot, worstReference, worstAllowed;
  bool passed; // worstRatio <= 1 and no non-finite element
} GpuGradCheck;

/// Checks `got` (f16, mlp->numWeights) against gpuGradientReference's.
void gpuCheckGradients(const GpuMlp *mlp, const GpuGradReference *ref,
                       const uint16_t *got, GpuGradCheck *check);
/// Counts the non-finite elements of `got` (a batch too large to check).
int64_t gpuCountNonFinite(const uint16_t *got, int64_t count);
/// "layer 2 W[5][9]" or "layer 2 b[5]" for an index into the weights.
void gpuDescribeElement(const GpuMlp *mlp, int64_t index, char *text,
                        size_t size);

/// bench/mlp-gpu.mlir, embedded at build time (bench/CMakeLists.txt), so
/// that the binary runs wherever it is copied.
extern const char mlpGpuSource[];

/// A coopvec variant (GpuCoopvec.c): @mlp_reluW compiled by the engine for
/// the device with `pipeline` (NULL: the CUDA target's default).
typedef struct GpuCoopvec GpuCoopvec;
/// Compiles; NULL after printing why.
GpuCoopvec *gpuCoopvecOpen(const GpuDevice *device, const GpuMlp *mlp,
                           const char *pipeline);
/// Seconds of coopvecEngineCompile: lowering, and PTX + the driver's JIT.
void gpuCoopvecCompileTimes(const GpuCoopvec *coopvec, double *lowering,
                            double *jit);
/// One warm-up run, then `reps` timed runs; `y` gets the outputs (batch x
/// 16). False after printing why.
bool gpuCoopvecRun(GpuCoopvec *coopvec, const GpuProblem *problem, int reps,
                   uint16_t *y, GpuTiming *timing);
void gpuCoopvecClose(GpuCoopvec *coopvec);

/// @mlp_reluW_grad: coopvec-autodiff{func=mlp_reluW input-gradients=false}
/// run on bench/mlp-gpu.mlir at startup, compiled by the engine for
/// `device` (NULL: the CPU target, for the self-test) with `pipeline`
/// (NULL: the target's default). NULL after printing why.
GpuCoopvec *gpuCoopvecOpenGradient(const GpuDevice *device, const GpuMlp *mlp,
                                   const char *pipeline);
/// One warm-up step, then `reps` timed ones, stopping early (after at least
/// one) once they took `maxSeconds`; each step zeroes `grad` (f16, laid out
/// like the weights) and adds the batch's gradient into it. False after
/// printing why.
bool gpuCoopvecTrain(GpuCoopvec *coopvec, const GpuTrainProblem *problem,
                     int reps, double maxSeconds, uint16_t *grad,
                     GpuTrainTiming *timing);

/// The cuBLASLt baseline (GpuCublasLt.c), loaded with dlopen.
typedef struct GpuCublasLt GpuCublasLt;
/// Loads the library and creates a handle; NULL after printing why.
GpuCublasLt *gpuCublasLtOpen(const GpuDevice *device);
/// Two warm-up passes, then `reps` passes timed by events; `y` gets the
/// outputs. False after printing why.
bool gpuCublasLtRun(GpuCublasLt *lt, const GpuProblem *problem, int reps,
                    uint16_t *y, GpuTiming *timing);
void gpuCublasLtClose(GpuCublasLt *lt);
/// The training step layer by layer (GpuCublasLtTrain.c): two warm-up
/// steps, then `reps` timed ones (stopping early as gpuCoopvecTrain does);
/// `grad` gets the gradient of the last step. False after printing why.
bool gpuCublasLtTrain(GpuCublasLt *lt, const GpuTrainProblem *problem, int reps,
                      double maxSeconds, uint16_t *grad,
                      GpuTrainTiming *timing);

/// The training runs' settings (mlp-gpu's options).
typedef struct GpuTrainOptions {
  const int64_t *batches; // the timed batches
  int numBatches;
  int64_t checkBatch; // the batch checked against the reference
  int reps;
  double maxSeconds;    // of timed steps per variant and batch
  const char *pipeline; // coopvec's lowering; NULL: the CUDA default
} GpuTrainOptions;

enum { GPU_TRAIN_VARIANTS = 2 }; // coopvec, cublaslt

/// One variant's numbers for one (width, batch).
typedef struct GpuTrainRow {
  bool ran;            // timed, with gradients that passed the check
  const char *missing; // why there are no numbers (NULL if it ran)
  GpuTrainTiming timing;
  double lowering, jit; // coopvec's compile seconds; < 0 for cuBLASLt
  GpuGradCheck check;   // at the check batch
  int64_t nonFinite;    // elements of this batch's gradient
} GpuTrainRow;

typedef struct GpuTrainResult {
  int width;
  int64_t batch;
  double flops; // per step
  GpuTrainRow rows[GPU_TRAIN_VARIANTS];
} GpuTrainResult;

/// One width's training step (GpuTrain.c): compiles coopvec's gradient,
/// checks both variants at the check batch, then times every batch whose
/// variant passed and prints its table. `results` gets one entry per batch
/// (`lt` NULL: no cuBLASLt rows). False if a variant failed or was wrong.
bool gpuTrainWidth(const GpuDevice *device, GpuCublasLt *lt,
                   const GpuTrainOptions *options, int width,
                   GpuTrainResult *results);
/// `summary: train width=W batch=B coopvec_step_ms=X cublaslt_step_ms=Y
/// cublaslt_backward_ms=Z ratio=R` (R = Y / X: >= 1 where coopvec is
/// faster).
void gpuTrainPrintSummary(const GpuTrainResult *result);

/// Runs coopvec's gradient on the CPU target at batches 1, 7, 33 and 4099
/// for W = 64 and 128 against gpuGradientReference (GpuSelfTest.c): the
/// gradient module, the buffers' layouts, dy and the check, without a GPU.
/// Returns the exit status: 0 if every check passed.
int gpuSelfTestCpu(void);

#endif // COOPVEC_BENCH_MLPGPU_H
