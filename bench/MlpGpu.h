//===- MlpGpu.h - Shared declarations of the MLP GPU benchmark ----*- C -*-===//
//
// bench/mlp-gpu evaluates the fused f16 MLP of bench/mlp-gpu.mlir (32 -> W
// -> W -> W -> W -> 16, ReLU after all but the last layer) over a batch on
// one CUDA GPU: coopvec through the execution engine (tensor-core and SIMT
// matvecs) against cuBLASLt layer by layer, on the same inputs, each checked
// against a double-precision reference on the host (docs/performance.md).
// The weight buffer holds, per layer, the row-major W (out x in) followed by
// the bias b (out); inputs are batch x 32 and outputs batch x 16,
// row-major; everything is f16, kept as its uint16_t bits.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_BENCH_MLPGPU_H
#define COOPVEC_BENCH_MLPGPU_H

#include "ExecutionEngine/CUDADriver.h"

#include <stdbool.h>
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

/// f16 <-> double (GpuData.c): exact, and round to nearest even.
double gpuHalfToDouble(uint16_t half);
uint16_t gpuDoubleToHalf(double value);

/// Inputs uniform in [-1, 1]; weights in +-1/sqrt(in), biases in +-0.1.
void gpuFillInputs(uint16_t *x, int64_t count, uint64_t seed);
void gpuFillWeights(const GpuMlp *mlp, uint16_t *w, uint64_t seed);

/// The 16 outputs of the sample `x` (32 inputs) in double precision, each
/// layer's outputs rounded to f16.
void gpuReference(const GpuMlp *mlp, const uint16_t *w, const uint16_t *x,
                  double *y);

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

/// The cuBLASLt baseline (GpuCublasLt.c), loaded with dlopen.
typedef struct GpuCublasLt GpuCublasLt;
/// Loads the library and creates a handle; NULL after printing why.
GpuCublasLt *gpuCublasLtOpen(const GpuDevice *device);
/// Two warm-up passes, then `reps` passes timed by events; `y` gets the
/// outputs. False after printing why.
bool gpuCublasLtRun(GpuCublasLt *lt, const GpuProblem *problem, int reps,
                    uint16_t *y, GpuTiming *timing);
void gpuCublasLtClose(GpuCublasLt *lt);

#endif // COOPVEC_BENCH_MLPGPU_H
