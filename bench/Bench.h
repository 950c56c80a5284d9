//===- Bench.h - Shared declarations of the MLP CPU benchmark -------------===//
//
// The benchmark evaluates the MLP of examples/mlp.mlir (32 -> 64 -> 64 -> 64
// -> 16, ReLU between layers, f32) over a batch of samples. Every variant
// reads the same packed weight buffer: per layer, the row-major W (out x in)
// followed by the bias b (out). Inputs are batch x 32 and outputs batch x 16,
// both row-major.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_BENCH_BENCH_H
#define COOPVEC_BENCH_BENCH_H

#include <stdint.h>

enum {
  MLP_NUM_LAYERS = 4,
  MLP_INPUTS = 32,
  MLP_OUTPUTS = 16,
  MLP_MAX_WIDTH = 64,
  MLP_NUM_WEIGHTS = 11472,
};

/// Multiply-adds are counted as two FLOPs; bias adds and ReLUs are not
/// counted, so that every variant is credited with the same work.
#define MLP_FLOPS_PER_SAMPLE (2.0 * (32 * 64 + 64 * 64 + 64 * 64 + 64 * 16))

typedef struct MlpLayer {
  int inputs, outputs;
  int weightOffset, biasOffset; // in floats, into the weight buffer
} MlpLayer;

/// The layers of examples/mlp.mlir, in order.
extern const MlpLayer mlpLayers[MLP_NUM_LAYERS];

/// One evaluation: y[batch x 16] = mlp(x[batch x 32]) with weights w.
typedef struct MlpProblem {
  int64_t batch;
  const float *x;
  const float *w;
  float *y;
} MlpProblem;

/// Runs `body(context, begin, end)` on `threads` threads, each over one
/// contiguous chunk of [0, count). Chunks start on multiples of 64 so that
/// no two threads write to the same cache line of a row-major output.
/// Returns 0, or -1 (after printing why) if a thread could not be started.
int runParallel(int threads, int64_t count,
                void (*body)(void *context, int64_t begin, int64_t end),
                void *context);

/// The plain C loops (PlainC.c, compiled with -O3 -march=native): one sample
/// at a time, layer by layer, dot products over rows of W.
int runPlainC(const MlpProblem *problem, int threads);

/// The fused MLP compiled by coopvec-opt from examples/mlp.mlir (Coopvec.c).
int runCoopvec(const MlpProblem *problem, int threads);

/// OpenBLAS layer by layer (OpenBLAS.c): one sgemm per layer over the whole
/// batch, then a bias + ReLU pass; activations round-trip through memory.
typedef struct OpenBLASWorkspace OpenBLASWorkspace;
OpenBLASWorkspace *openblasWorkspaceCreate(int64_t batch);
void openblasWorkspaceDestroy(OpenBLASWorkspace *workspace);
int runOpenBLAS(OpenBLASWorkspace *workspace, const MlpProblem *problem,
                int threads);
/// OpenBLAS's build configuration and the kernel set it chose at run time.
const char *openblasDescription(void);

/// The FMA peak (Peak.c): GFLOP/s of independent FMA chains on `threads`
/// threads, with vectors of `vectorBits` (512, 256 or 32 for scalar).
/// Returns a negative value if this build cannot run that width.
double measureFmaPeak(int threads, int vectorBits);
/// The widest vector width measureFmaPeak supports in this build.
int widestFmaBits(void);

#endif // COOPVEC_BENCH_BENCH_H
