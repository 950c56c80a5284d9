//===- Bench.h - Shared declarations of the MLP CPU benchmark -------------===//
//
// bench/mlp-cpu evaluates small MLPs over a batch of samples with coopvec and
// with baselines that compute the same function in the same run
// (docs/performance.md). A workload is one MLP: its layers, its activation
// and how its data is stored. Every variant reads the same packed weight
// buffer: per layer, the row-major W (out x in) followed by the bias b (out).
// Inputs are batch x inputs and outputs batch x outputs, both row-major, in
// the workload's storage type.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_BENCH_BENCH_H
#define COOPVEC_BENCH_BENCH_H

#include <stdint.h>

enum { MLP_MAX_LAYERS = 4, MLP_MAX_WIDTH = 128 };

typedef enum MlpActivation { MLP_RELU, MLP_TANH } MlpActivation;
typedef enum MlpStorage { MLP_F32, MLP_F16 } MlpStorage;

typedef struct MlpLayer {
  int inputs, outputs;
  int weightOffset, biasOffset; // in elements, into the weight buffer
} MlpLayer;

/// One rank-1 memref descriptor of MLIR's C interface (f32 or f16 data).
typedef struct MemRef1D {
  void *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} MemRef1D;

/// `_mlir_ciface_<name>_batched` of a per-thread function (x, w) -> y.
typedef void (*CoopvecEntry)(int64_t n, MemRef1D *x, MemRef1D *w, MemRef1D *y);

typedef struct MlpWorkload {
  const char *name;   // "relu-f32", "tanh-f16-64", ...
  const char *source; // the .mlir file coopvec-opt compiles
  CoopvecEntry coopvec;
  CoopvecEntry coopvecAvx2; // the program compiled for haswell (--isa=avx2)
  int numLayers;
  MlpLayer layers[MLP_MAX_LAYERS];
  int numWeights;
  MlpActivation activation; // between layers; the last layer is linear
  MlpStorage storage;       // of inputs, weights, biases and outputs
} MlpWorkload;

/// The workloads of the benchmark (Common.c), the first is the main one.
extern const MlpWorkload mlpWorkloads[];
extern const int mlpNumWorkloads;

int mlpInputs(const MlpWorkload *workload);
int mlpOutputs(const MlpWorkload *workload);
int mlpMaxWidth(const MlpWorkload *workload);
/// Multiply-adds count two FLOPs; bias adds and activations are not
/// counted, so that every variant is credited with the same work.
double mlpFlopsPerSample(const MlpWorkload *workload);
/// Bytes per stored element (4 or 2).
int mlpElementBytes(const MlpWorkload *workload);

/// One evaluation: y = mlp(x) for `batch` samples. x, w and y are in the
/// workload's storage type; `w32` is w widened to f32 once, for the
/// baselines that compute in f32 from f32 weights (as a user of an f32 BLAS
/// converts f16 weights once, not per call).
typedef struct MlpProblem {
  const MlpWorkload *workload;
  int64_t batch;
  const void *x;
  const void *w;
  const float *w32;
  void *y;
  int avx2; // run coopvec's haswell code (mlp-cpu --isa=avx2)
} MlpProblem;

/// Runs `body(context, thread, begin, end)` on `threads` threads, thread t
/// over the t-th contiguous chunk of [0, count). Chunks start on multiples
/// of 64 so that no two threads write to the same cache line of a row-major
/// output. Returns 0, or -1 (after printing why) if a thread could not be
/// started.
enum { MLP_MAX_THREADS = 64 };
int runParallel(int threads, int64_t count,
                void (*body)(void *context, int thread, int64_t begin,
                             int64_t end),
                void *context);

/// The first ISA extension that the benchmark's C code was built for
/// (COOPVEC_BENCH_MARCH: AVX2, FMA, F16C, AVX-512 F/BW/DQ/VL, AVX512-FP16)
/// and this CPU lacks, or NULL. A benchmark built for another CPU says so
/// instead of dying of SIGILL.
const char *mlpMissingIsa(void);

/// f16 <-> f32 (F16C when the compiler has it): `count` elements.
void widenHalves(const uint16_t *from, float *to, int64_t count);
void narrowFloats(const float *from, uint16_t *to, int64_t count);

/// rows x width of `values` (row-major): v = activation(v + bias), or
/// v + bias without activation (Activation.c, vectorized as a framework's
/// bias kernel is: -O3 -march=native -ffast-math, tanhf from libmvec).
void biasActivation(float *values, int64_t rows, int width, const float *bias,
                    int activate, MlpActivation activation);

/// A variant of the benchmark: a name, and a run over a problem on a number
/// of threads (0 on success). `create` prepares what it needs for a problem
/// (its weights are fixed from then on; NULL if it cannot); `tile` is the
/// batch tile of tiled baselines, 0 for the others. `destroy` frees it.
typedef struct Variant {
  const char *name;
  void *(*create)(const MlpProblem *problem, int tile);
  int (*run)(void *state, const MlpProblem *problem, int threads);
  void (*destroy)(void *state);
  int tiled; // whether `tile` matters (the benchmark sweeps it)
  /// Why the variant is missing from this build, or NULL if it is there.
  const char *missing;
} Variant;

extern const Variant plainCVariant;  // PlainC.c
extern const Variant coopvecVariant; // Coopvec.c
/// OpenBLAS.c: layer by layer over the whole batch (how a framework without
/// fusion runs it), and over tiles of the batch that stay in cache.
extern const Variant openblasVariant, openblasTiledVariant;
extern const Variant onednnVariant;  // OneDNN.c
extern const Variant libxsmmVariant; // Libxsmm.c

/// The tiled layer-by-layer MLP on top of a GEMM (Tiled.c): per thread, per
/// tile of `tile` samples: the inputs widened to f32 if stored as f16; per
/// layer H_out = H_in W^T by `gemm`, then bias + activation; the outputs
/// rounded to f16 if stored so. Activations stay in per-thread buffers.
typedef void (*TiledGemm)(void *context, int layer, int64_t rows,
                          const float *input, float *output);
typedef struct TiledMlp TiledMlp;
TiledMlp *tiledMlpCreate(const MlpWorkload *workload, int tile, TiledGemm gemm,
                         void *context);
void tiledMlpDestroy(TiledMlp *mlp);
int tiledMlpRun(TiledMlp *mlp, const MlpProblem *problem, int threads);

/// The libraries' versions and configurations, or NULL without them.
const char *openblasDescription(void);
const char *onednnDescription(void);
const char *libxsmmDescription(void);

/// The FMA peak (Peak.c): GFLOP/s of independent FMA chains on `threads`
/// threads, with vectors of `vectorBits` (512, 256 or 32 for scalar).
/// Returns a negative value if this build cannot run that width.
double measureFmaPeak(int threads, int vectorBits);
/// The widest vector width measureFmaPeak supports in this build.
int widestFmaBits(void);

#endif // COOPVEC_BENCH_BENCH_H
