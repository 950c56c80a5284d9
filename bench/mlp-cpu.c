//===- mlp-cpu.c - The fused MLPs on the CPU against their baselines ------===//
//
// usage: mlp-cpu [options] [batch [repetitions]]
//   --batch=N         samples of relu-f32 (default 1048576); the other
//                     workloads get as many FLOPs per run
//   --repetitions=R   timed runs per variant (default 7)
//   --workloads=LIST  comma list of relu-f32, tanh-f16-64, tanh-f16-128
//                     (default: all)
//   --variants=LIST   comma list of variants to time (default: all)
//   --tile=N          batch tile of the tiled baselines (default: the best
//                     of a sweep over 256 .. 4096)
//   --no-compile-time skip timing coopvec-opt on the benchmark programs
//   --isa=avx2        measure an AVX2 machine on an AVX-512 one: coopvec's
//                     objects compiled for haswell, the libraries held to
//                     AVX2 (DNNL_MAX_CPU_ISA, LIBXSMM_TARGET,
//                     OPENBLAS_CORETYPE, set before they load: mlp-cpu runs
//                     itself again), every % of the 256-bit FMA peak
//
// mlp-cpu always runs itself again once, with OPENBLAS_THREAD_TIMEOUT=4
// unless it is set: see setLibraryEnvironment.
//
// For each workload: times coopvec and the baselines on 1 and 2 threads next
// to the measured FMA peak, checks every output against plain C, prints one
// Markdown table (medians of the repetitions after one warm-up run; the FMA
// peak is the best of as many measurements) and, per thread count, one line
//   summary: threads=T coopvec_gflops=X peak_pct=P best_baseline=NAME
//            best_baseline_gflops=Y ratio=R
// (on one line; "summary:" for the first workload, "summary-NAME:" for the
// others). Exits 1 if a variant fails or disagrees with plain C.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "Bench.h"
#include "Report.h"
#include "Timing.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_REPETITIONS = 1000, PLAIN_REPETITIONS = 3 };
static const int threadCounts[] = {1, 2};
enum { NUM_THREAD_COUNTS = sizeof(threadCounts) / sizeof(threadCounts[0]) };
static const int sweepTiles[] = {256, 512, 1024, 2048, 4096};
enum { NUM_SWEEP_TILES = sizeof(sweepTiles) / sizeof(sweepTiles[0]) };
// Larger batches would overflow OpenBLAS's 32-bit dimensions and this
// machine's memory long before.
static const int64_t maxBatch = (int64_t)1 << 28;

/// The variants in the order they run for each thread count. The layer by
/// layer OpenBLAS run is last: after a multithreaded call its workers keep
/// spinning for a while and would slow whatever ran next.
static const Variant *const allVariants[] = {
    &plainCVariant,  &coopvecVariant, &openblasTiledVariant,
    &libxsmmVariant, &onednnVariant,  &openblasVariant};
enum { NUM_VARIANTS = sizeof(allVariants) / sizeof(allVariants[0]) };

typedef struct Options {
  int64_t batch, repetitions;
  int tile; // 0: sweep
  int compileTime;
  int avx2; // --isa=avx2
  int workloads[8], numWorkloads;
  const Variant *variants[NUM_VARIANTS];
  int numVariants;
} Options;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

static int usage(void) {
  fprintf(stderr, "usage: mlp-cpu [--batch=N] [--repetitions=R] "
                  "[--workloads=LIST] [--variants=LIST] [--tile=N] "
                  "[--no-compile-time] [--isa=native|avx2] "
                  "[batch [repetitions]]\n");
  return -1;
}

/// Parses `text` as an integer in [1, max] into `*value`.
static int parseCount(const char *text, int64_t max, int64_t *value) {
  char *end;
  errno = 0;
  long long parsed = strtoll(text, &end, 10);
  if (errno || end == text || *end || parsed < 1 || parsed > max) {
    fprintf(stderr, "mlp-cpu: error: '%s' is not a count in [1, %lld]\n", text,
            (long long)max);
    return -1;
  }
  *value = parsed;
  return 0;
}

/// Whether `name` is an element of the comma list `list`.
static int listHas(const char *list, const char *name) {
  size_t length = strlen(name);
  for (const char *p = list; *p;) {
    size_t item = strcspn(p, ",");
    if (item == length && !strncmp(p, name, length))
      return 1;
    p += item + (p[item] == ',');
  }
  return 0;
}

static int selectWorkloads(Options *options, const char *list) {
  options->numWorkloads = 0;
  for (int w = 0; w < mlpNumWorkloads; ++w)
    if (!list || listHas(list, mlpWorkloads[w].name))
      options->workloads[options->numWorkloads++] = w;
  if (options->numWorkloads)
    return 0;
  // Only a list selects nothing, but gcc -O3 cannot tell: a NULL for %s is
  // its format-overflow error (the Release build failed).
  fprintf(stderr, "mlp-cpu: error: no workload in '%s'\n", list ? list : "");
  return -1;
}

static int selectVariants(Options *options, const char *list) {
  options->numVariants = 0;
  for (int v = 0; v < NUM_VARIANTS; ++v)
    if (!list || listHas(list, allVariants[v]->name))
      options->variants[options->numVariants++] = allVariants[v];
  if (options->numVariants)
    return 0;
  fprintf(stderr, "mlp-cpu: error: no variant in '%s'\n", list ? list : "");
  return -1;
}

/// One option or positional argument; -1 on error.
static int parseArgument(Options *options, const char *arg, int *positional) {
  int64_t value;
  if (!strncmp(arg, "--batch=", 8))
    return parseCount(arg + 8, maxBatch, &options->batch);
  if (!strncmp(arg, "--repetitions=", 14))
    return parseCount(arg + 14, MAX_REPETITIONS, &options->repetitions);
  if (!strncmp(arg, "--workloads=", 12))
    return selectWorkloads(options, arg + 12);
  if (!strncmp(arg, "--variants=", 11))
    return selectVariants(options, arg + 11);
  if (!strncmp(arg, "--tile=", 7)) {
    if (parseCount(arg + 7, 1 << 20, &value))
      return -1;
    options->tile = (int)value;
    return 0;
  }
  if (!strcmp(arg, "--no-compile-time")) {
    options->compileTime = 0;
    return 0;
  }
  if (!strcmp(arg, "--isa=native") || !strcmp(arg, "--isa=avx2")) {
    options->avx2 = arg[6] == 'a';
    return 0;
  }
  if (arg[0] == '-' || *positional >= 2)
    return usage();
  return (*positional)++ == 0
             ? parseCount(arg, maxBatch, &options->batch)
             : parseCount(arg, MAX_REPETITIONS, &options->repetitions);
}

static int parseOptions(int argc, char **argv, Options *options) {
  *options =
      (Options){.batch = (int64_t)1 << 20, .repetitions = 7, .compileTime = 1};
  if (selectWorkloads(options, NULL) || selectVariants(options, NULL))
    return -1;
  int positional = 0;
  for (int i = 1; i < argc; ++i)
    if (parseArgument(options, argv[i], &positional))
      return -1;
  return 0;
}

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

/// Uniform in [-limit, limit).
static float uniform(uint64_t *state, float limit) {
  float unit = (float)(benchSplitMix64(state) >> 40) * 0x1p-24f;
  return limit * (2.0f * unit - 1.0f);
}

/// He-uniform weights keep the activations of order one through the ReLUs
/// (and the tanh layers out of saturation). In f32; rounded to f16 later
/// for f16 workloads.
static void fillWeights(const MlpWorkload *workload, float *w,
                        uint64_t *state) {
  for (int l = 0; l < workload->numLayers; ++l) {
    const MlpLayer *layer = &workload->layers[l];
    float limit = sqrtf(6.0f / (float)layer->inputs);
    for (int i = 0; i < layer->inputs * layer->outputs; ++i)
      w[layer->weightOffset + i] = uniform(state, limit);
    for (int i = 0; i < layer->outputs; ++i)
      w[layer->biasOffset + i] = uniform(state, 0.1f);
  }
}

static void *allocateBytes(size_t bytes) {
  bytes = (bytes + 63) / 64 * 64;
  void *data = aligned_alloc(64, bytes ? bytes : 64);
  if (!data)
    fprintf(stderr, "mlp-cpu: cannot allocate %zu bytes\n", bytes);
  return data;
}

/// The buffers of one workload: x, w (storage type), w32, y, reference.
typedef struct Buffers {
  void *x, *w, *y, *reference;
  float *w32;
} Buffers;

static void destroyBuffers(Buffers *buffers) {
  free(buffers->x);
  free(buffers->w);
  free(buffers->w32);
  free(buffers->y);
  free(buffers->reference);
}

/// Stores `count` f32 values in the workload's storage type.
static void storeValues(const MlpWorkload *workload, const float *values,
                        void *to, int64_t count) {
  if (workload->storage == MLP_F16)
    narrowFloats(values, to, count);
  else
    memcpy(to, values, (size_t)count * sizeof(float));
}

static int createBuffers(const MlpWorkload *workload, int64_t batch,
                         Buffers *buffers) {
  size_t bytes = (size_t)mlpElementBytes(workload);
  int64_t inputs = batch * mlpInputs(workload);
  int64_t outputs = batch * mlpOutputs(workload);
  *buffers = (Buffers){allocateBytes(bytes * (size_t)inputs),
                       allocateBytes(bytes * (size_t)workload->numWeights),
                       allocateBytes(bytes * (size_t)outputs),
                       allocateBytes(bytes * (size_t)outputs),
                       allocateBytes(sizeof(float) * workload->numWeights)};
  float *staging = allocateBytes(sizeof(float) * (size_t)inputs);
  if (!buffers->x || !buffers->w || !buffers->y || !buffers->reference ||
      !buffers->w32 || !staging) {
    free(staging);
    destroyBuffers(buffers);
    return -1;
  }
  uint64_t seed = 0x5EEDull;
  fillWeights(workload, buffers->w32, &seed);
  storeValues(workload, buffers->w32, buffers->w, workload->numWeights);
  // The f32 weights are the stored ones, rounded if stored as f16.
  if (workload->storage == MLP_F16)
    widenHalves(buffers->w, buffers->w32, workload->numWeights);
  for (int64_t i = 0; i < inputs; ++i)
    staging[i] = uniform(&seed, 1.0f);
  storeValues(workload, staging, buffers->x, inputs);
  free(staging);
  return 0;
}

//===----------------------------------------------------------------------===//
// Timing and checking
//===----------------------------------------------------------------------===//

/// The largest |output - reference| over `count` values of the workload's
/// storage type (NaN if any output is NaN), and max |reference| in `scale`.
static double maxAbsError(const MlpWorkload *workload, const void *output,
                          const void *reference, int64_t count, double *scale) {
  double worst = 0.0;
  *scale = 0.0;
  float got[256], want[256];
  for (int64_t i = 0; i < count; i += 256) {
    int64_t n = count - i < 256 ? count - i : 256;
    int bytes = mlpElementBytes(workload);
    if (workload->storage == MLP_F16) {
      widenHalves((const uint16_t *)output + i, got, n);
      widenHalves((const uint16_t *)reference + i, want, n);
    } else {
      memcpy(got, (const char *)output + i * bytes, (size_t)n * 4);
      memcpy(want, (const char *)reference + i * bytes, (size_t)n * 4);
    }
    for (int64_t j = 0; j < n; ++j) {
      double error = fabs((double)got[j] - (double)want[j]);
      if (!(error <= worst))
        worst = error; // also propagates NaN
      *scale = fmax(*scale, fabs((double)want[j]));
    }
  }
  return worst;
}

/// Outputs may differ by rounding (FMA contraction, summation order, the
/// libraries' tanh): 1e-3 of the largest output (at least 1); f16 outputs
/// may also round to neighbouring f16 values, one f16 ulp of that size.
static double allowedError(const MlpWorkload *workload, double scale) {
  scale = fmax(1.0, scale);
  double allowed = 1e-3 * scale;
  if (workload->storage == MLP_F16)
    allowed += ldexp(1.0, ilogb(scale) - 10);
  return allowed;
}

/// Runs `variant` once (its warm-up; `*ran` says whether that worked) and
/// checks its output: 0, or -1 if it failed or disagrees; the error goes to
/// `*error`.
static int checkVariant(const Variant *variant, void *state,
                        const MlpProblem *problem, const void *reference,
                        int threads, int *ran, double *error) {
  const MlpWorkload *workload = problem->workload;
  int64_t outputs = problem->batch * mlpOutputs(workload);
  // A variant that does not write its output must not inherit another's.
  memset(problem->y, 0xff, (size_t)outputs * mlpElementBytes(workload));
  *ran = timeRun(variant, state, problem, threads) >= 0;
  if (!*ran)
    return -1;
  double scale;
  *error = maxAbsError(workload, problem->y, reference, outputs, &scale);
  double allowed = allowedError(workload, scale);
  if (*error <= allowed)
    return 0;
  fprintf(stderr,
          "mlp-cpu: error: %s on %d threads disagrees with plain C: max abs "
          "error %g, allowed %g\n",
          variant->name, threads, *error, allowed);
  return -1;
}

//===----------------------------------------------------------------------===//
// One workload
//===----------------------------------------------------------------------===//

/// The tile of a tiled variant: --tile, or the best median of a sweep on
/// one thread over a quarter of the batch.
static int chooseTile(const Options *options, const Variant *variant,
                      const MlpProblem *problem, Table *table) {
  if (options->tile)
    return options->tile;
  MlpProblem part = *problem;
  part.batch = problem->batch / 4 > 4096 ? problem->batch / 4 : problem->batch;
  int best = sweepTiles[0];
  double bestGflops = -1.0;
  for (int i = 0; i < NUM_SWEEP_TILES; ++i) {
    void *state = variant->create(&part, sweepTiles[i]);
    Measurement m;
    int failed = !state || timeRuns(variant, state, &part, 1, 3, &m);
    if (state)
      variant->destroy(state);
    if (failed)
      continue;
    addSweep(table, variant->name, sweepTiles[i], m.gflops);
    if (m.gflops > bestGflops)
      bestGflops = m.gflops, best = sweepTiles[i];
  }
  return best;
}

/// A variant being measured on one thread count.
typedef struct Timed {
  const Variant *variant;
  void *state;
  int tile, repetitions, runs, ran; // ran: whether its check run worked
  double error, times[MAX_REPETITIONS];
} Timed;

/// Creates and checks the selected variants present in this build.
static int prepareTimed(const Options *options, const MlpProblem *problem,
                        const void *reference, const int *tiles, int threads,
                        Timed *timed, int *count) {
  int status = 0;
  *count = 0;
  for (int v = 0; v < options->numVariants; ++v) {
    const Variant *variant = options->variants[v];
    if (variant->missing)
      continue;
    Timed *t = &timed[*count];
    *t = (Timed){variant,
                 variant->create(problem, tiles[v]),
                 tiles[v],
                 variant == &plainCVariant ? PLAIN_REPETITIONS
                                           : (int)options->repetitions,
                 0,
                 0,
                 0.0,
                 {0}};
    if (!t->state) {
      fprintf(stderr, "mlp-cpu: %s: setup failed\n", variant->name);
      status = -1;
      continue;
    }
    ++*count;
    status |= checkVariant(variant, t->state, problem, reference, threads,
                           &t->ran, &t->error);
  }
  return status;
}

/// Times every selected variant present in this build on `threads`, round
/// robin: one run of each in turn, so that load from other processes on a
/// shared machine falls on all of them alike. Plain C, 30 times slower than
/// the others, runs only in the first PLAIN_REPETITIONS rounds.
static int measureVariants(const Options *options, const MlpProblem *problem,
                           const void *reference, const int *tiles, int threads,
                           Table *table) {
  static Timed timed[NUM_VARIANTS];
  int count;
  int status =
      prepareTimed(options, problem, reference, tiles, threads, timed, &count);
  for (int r = 0; r < options->repetitions; ++r)
    for (int i = 0; i < count; ++i) {
      Timed *t = &timed[i];
      if (!t->ran || r >= t->repetitions)
        continue;
      double time = timeRun(t->variant, t->state, problem, threads);
      t->ran = time >= 0;
      t->times[t->runs++] = time;
    }
  double gflop = 1e-9 * mlpFlopsPerSample(problem->workload) * problem->batch;
  for (int i = 0; i < count; ++i) {
    Timed *t = &timed[i];
    if (t->ran) {
      Measurement m = summarizeRuns(t->times, t->runs, gflop);
      m.error = t->error;
      addRow(table, t->variant->name, t->variant->tiled ? t->tile : 0, threads,
             &m);
    }
    status |= t->ran ? 0 : -1;
    t->variant->destroy(t->state);
  }
  return status;
}

static int runWorkload(const Options *options, const MlpWorkload *workload) {
  double flops = mlpFlopsPerSample(workload);
  int64_t batch = (int64_t)((double)options->batch *
                            mlpFlopsPerSample(&mlpWorkloads[0]) / flops);
  batch = batch < 64 ? 64 : batch / 64 * 64;
  Buffers buffers;
  if (createBuffers(workload, batch, &buffers))
    return -1;
  MlpProblem reference = {workload,     batch,       buffers.x,
                          buffers.w,    buffers.w32, buffers.reference,
                          options->avx2};
  MlpProblem problem = reference;
  problem.y = buffers.y;
  Table table = {.workload = workload,
                 .batch = batch,
                 .repetitions = (int)options->repetitions,
                 .maxVectorBits = options->avx2 ? 256 : 512};
  int status = plainCVariant.run(NULL, &reference, 1);
  int tiles[NUM_VARIANTS] = {0};
  for (int v = 0; !status && v < options->numVariants; ++v)
    if (options->variants[v]->tiled && !options->variants[v]->missing)
      tiles[v] = chooseTile(options, options->variants[v], &problem, &table);
  for (int t = 0; !status && t < NUM_THREAD_COUNTS; ++t) {
    if (measurePeaks(&table, threadCounts[t], (int)options->repetitions))
      return destroyBuffers(&buffers), -1;
    status |= measureVariants(options, &problem, buffers.reference, tiles,
                              threadCounts[t], &table);
  }
  printTable(&table, workload == &mlpWorkloads[0]);
  destroyBuffers(&buffers);
  return status;
}

//===----------------------------------------------------------------------===//
// main
//===----------------------------------------------------------------------===//

/// The libraries read their settings when they load, before main, so
/// mlp-cpu sets them and runs itself again. Always: OpenBLAS's idle workers
/// sleep at once (OPENBLAS_THREAD_TIMEOUT=4, 2^4 cycles) instead of
/// spinning with sched_yield for 2^28 cycles after each call, which took a
/// core from whichever variant the round robin timed next: coopvec's
/// 2-thread runs lost up to half of their speed after the 2-thread
/// `openblas` variant.
/// --isa=avx2 also holds the libraries to AVX2. Returns only if that is
/// done (0) or impossible (-1).
static int setLibraryEnvironment(char **argv, int avx2) {
  static const char *const avx2Variables[][2] = {
      {"DNNL_MAX_CPU_ISA", "AVX2"},
      {"LIBXSMM_TARGET", "hsw"},
      {"OPENBLAS_CORETYPE", "Haswell"}};
  if (avx2 &&
      (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))) {
    fprintf(stderr, "mlp-cpu: error: --isa=avx2 needs a CPU with AVX2 and "
                    "FMA\n");
    return -1;
  }
  const char *isa = avx2 ? "avx2" : "native";
  const char *done = getenv("COOPVEC_BENCH_ISA");
  if (done && !strcmp(done, isa))
    return 0;
  setenv("OPENBLAS_THREAD_TIMEOUT", "4", 0); // the user's value wins
  for (size_t i = 0; avx2 && i < sizeof(avx2Variables) / sizeof(*avx2Variables);
       ++i)
    setenv(avx2Variables[i][0], avx2Variables[i][1], 1);
  setenv("COOPVEC_BENCH_ISA", isa, 1);
  execv("/proc/self/exe", argv);
  fprintf(stderr, "mlp-cpu: error: cannot run itself again: %s\n",
          strerror(errno));
  return -1;
}

int main(int argc, char **argv) {
  Options options;
  if (parseOptions(argc, argv, &options))
    return 2;
  const char *missing = mlpMissingIsa();
  if (missing) {
    fprintf(stderr,
            "mlp-cpu: error: built for a CPU with %s, which this one lacks "
            "(COOPVEC_BENCH_MARCH, docs/performance.md)\n",
            missing);
    return 2;
  }
  if (setLibraryEnvironment(argv, options.avx2))
    return 2;
  printHeader((int)options.repetitions, PLAIN_REPETITIONS,
              options.avx2 ? "isa: avx2 (coopvec for haswell; "
                             "DNNL_MAX_CPU_ISA=AVX2 LIBXSMM_TARGET=hsw "
                             "OPENBLAS_CORETYPE=Haswell; % of the 256-bit "
                             "FMA peak)"
                           : NULL);
  for (int v = 0; v < options.numVariants; ++v)
    if (options.variants[v]->missing)
      printf("%s: skipped, %s\n", options.variants[v]->name,
             options.variants[v]->missing);
  for (int i = 0; options.compileTime && i < options.numWorkloads; ++i) {
    const MlpWorkload *workload = &mlpWorkloads[options.workloads[i]];
    int seen = 0; // workloads may share a program
    for (int j = 0; j < i; ++j)
      seen |=
          !strcmp(mlpWorkloads[options.workloads[j]].source, workload->source);
    if (!seen)
      printCompileTime(workload->source);
  }
  int status = 0;
  for (int i = 0; i < options.numWorkloads; ++i)
    status |= runWorkload(&options, &mlpWorkloads[options.workloads[i]]);
  printLoad("end");
  return status ? 1 : 0;
}
