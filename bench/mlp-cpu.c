//===- mlp-cpu.c - The fused MLP on the CPU against its baselines ---------===//
//
// usage: mlp-cpu [batch] [repetitions]      (defaults: 1048576 and 7)
//
// Times examples/mlp.mlir compiled by coopvec-opt, plain C loops and OpenBLAS
// layer by layer on 1 and 2 threads, next to the measured FMA peak, and
// checks every output against the plain C one. Prints one Markdown table: the
// median of the repetitions for each variant and thread count (for the FMA
// peak, the best). Exits 1 if a variant fails or disagrees.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "Bench.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
  NUM_THREAD_COUNTS = 2,
  MAX_REPETITIONS = 1000,
  MAX_ROWS = 16,
};
static const int threadCounts[NUM_THREAD_COUNTS] = {1, 2};
// Larger batches would overflow OpenBLAS's 32-bit dimensions and this
// machine's memory long before.
static const int64_t maxBatch = (int64_t)1 << 28;
// Outputs may differ by rounding (FMA contraction, summation order).
static const double relativeTolerance = 1e-3;

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

static uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Uniform in [-limit, limit).
static float uniform(uint64_t *state, float limit) {
  float unit = (float)(splitmix64(state) >> 40) * 0x1p-24f;
  return limit * (2.0f * unit - 1.0f);
}

/// He-uniform weights keep the activations of order one through the ReLUs.
static void fillWeights(float *w, uint64_t *state) {
  for (int l = 0; l < MLP_NUM_LAYERS; ++l) {
    const MlpLayer *layer = &mlpLayers[l];
    float limit = sqrtf(6.0f / (float)layer->inputs);
    for (int i = 0; i < layer->inputs * layer->outputs; ++i)
      w[layer->weightOffset + i] = uniform(state, limit);
    for (int i = 0; i < layer->outputs; ++i)
      w[layer->biasOffset + i] = uniform(state, 0.1f);
  }
}

static float *allocateFloats(int64_t count) {
  size_t bytes = ((size_t)count * sizeof(float) + 63) / 64 * 64;
  float *data = aligned_alloc(64, bytes);
  if (!data)
    fprintf(stderr, "mlp-cpu: cannot allocate %zu bytes\n", bytes);
  return data;
}

//===----------------------------------------------------------------------===//
// Timing and checking
//===----------------------------------------------------------------------===//

typedef struct Variant {
  const char *name;
  int (*run)(void *state, const MlpProblem *problem, int threads);
  void *state;
} Variant;

static int plainVariant(void *state, const MlpProblem *problem, int threads) {
  (void)state;
  return runPlainC(problem, threads);
}

static int coopvecVariant(void *state, const MlpProblem *problem, int threads) {
  (void)state;
  return runCoopvec(problem, threads);
}

static int openblasVariant(void *state, const MlpProblem *problem,
                           int threads) {
  return runOpenBLAS(state, problem, threads);
}

static double seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

static int compareDoubles(const void *lhs, const void *rhs) {
  double a = *(const double *)lhs, b = *(const double *)rhs;
  return (a > b) - (a < b);
}

static double median(double *values, int count) {
  qsort(values, (size_t)count, sizeof(double), compareDoubles);
  return count % 2 ? values[count / 2]
                   : 0.5 * (values[count / 2 - 1] + values[count / 2]);
}

/// The median wall time of `repetitions` runs after one warm-up run, or a
/// negative value if a run failed.
static double timeVariant(const Variant *variant, const MlpProblem *problem,
                          int threads, int repetitions) {
  double times[MAX_REPETITIONS];
  if (variant->run(variant->state, problem, threads))
    return -1.0;
  for (int r = 0; r < repetitions; ++r) {
    double start = seconds();
    if (variant->run(variant->state, problem, threads))
      return -1.0;
    times[r] = seconds() - start;
  }
  return median(times, repetitions);
}

/// The largest |output - reference|; NaN if any output is NaN.
static double maxAbsError(const float *output, const float *reference,
                          int64_t count) {
  double worst = 0.0;
  for (int64_t i = 0; i < count; ++i) {
    double error = fabs((double)output[i] - (double)reference[i]);
    if (!(error <= worst))
      worst = error; // also propagates NaN
    if (isnan(worst))
      return worst;
  }
  return worst;
}

static double maxAbsValue(const float *values, int64_t count) {
  double largest = 0.0;
  for (int64_t i = 0; i < count; ++i)
    largest = fmax(largest, fabs((double)values[i]));
  return largest;
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

typedef struct Row {
  char name[32];
  int threads;
  double seconds; // negative for the peak rows, which have no fixed work
  double gflops;
  double error; // max abs error against plain C; negative for the peaks
} Row;

typedef struct Table {
  Row rows[MAX_ROWS];
  int count;
} Table;

static void addRow(Table *table, const char *name, int threads, double seconds,
                   double gflops, double error) {
  if (table->count == MAX_ROWS)
    return; // the variant list fits; this keeps a future one from overflowing
  Row *row = &table->rows[table->count++];
  snprintf(row->name, sizeof(row->name), "%s", name);
  row->threads = threads;
  row->seconds = seconds;
  row->gflops = gflops;
  row->error = error;
}

/// The GFLOP/s of the first row named `name` (prefix) at `threads`, or 0.
static double findGflops(const Table *table, const char *prefix, int threads) {
  for (int i = 0; i < table->count; ++i)
    if (table->rows[i].threads == threads &&
        !strncmp(table->rows[i].name, prefix, strlen(prefix)))
      return table->rows[i].gflops;
  return 0.0;
}

static void printRow(const Table *table, const Row *row) {
  double openblas = findGflops(table, "openblas", row->threads);
  double peak = findGflops(table, "fma-peak", row->threads);
  printf("| %-16s | %7d | ", row->name, row->threads);
  if (row->seconds < 0)
    printf("%9s | %8.1f | %11s | ", "-", row->gflops, "-");
  else
    printf("%9.1f | %8.1f | %10.2fx | ", 1e3 * row->seconds, row->gflops,
           openblas > 0 ? row->gflops / openblas : 0.0);
  printf("%8.1f%% | ", peak > 0 ? 100.0 * row->gflops / peak : 0.0);
  if (row->error < 0)
    printf("%11s |\n", "-");
  else
    printf("%11.2e |\n", row->error);
}

static void printTable(const Table *table) {
  printf("| %-16s | %7s | %9s | %8s | %11s | %9s | %11s |\n", "variant",
         "threads", "median ms", "GFLOP/s", "vs OpenBLAS", "% of peak",
         "max abs err");
  printf("|------------------|--------:|----------:|---------:|------------:|"
         "----------:|------------:|\n");
  for (int i = 0; i < table->count; ++i)
    printRow(table, &table->rows[i]);
}

//===----------------------------------------------------------------------===//
// Measuring
//===----------------------------------------------------------------------===//

/// The best of `repetitions` peak measurements: interference from other
/// processes can only lower a throughput, so the best is the estimate of
/// what the machine can do (the MLP variants report medians).
static double bestPeak(int threads, int vectorBits, int repetitions) {
  double best = -1.0;
  for (int r = 0; r < repetitions; ++r) {
    double gflops = measureFmaPeak(threads, vectorBits);
    if (gflops < 0)
      return -1.0;
    best = fmax(best, gflops);
  }
  return best;
}

/// The widest FMA first (the peak every % refers to); on AVX-512 machines
/// also 256-bit, the width compilers often prefer there.
static int measurePeaks(Table *table, int threads, int repetitions) {
  int widths[2] = {widestFmaBits(), 256};
  int numWidths = widths[0] == 512 ? 2 : 1;
  for (int i = 0; i < numWidths; ++i) {
    double gflops = bestPeak(threads, widths[i], repetitions);
    if (gflops < 0) {
      fprintf(stderr, "mlp-cpu: FMA peak measurement failed\n");
      return -1;
    }
    char name[32];
    snprintf(name, sizeof(name), "fma-peak-%dbit", widths[i]);
    addRow(table, name, threads, -1.0, gflops, -1.0);
  }
  return 0;
}

/// Times one variant and checks its output; -1 if it failed or disagrees.
static int measureVariant(Table *table, const Variant *variant,
                          const MlpProblem *problem, int threads,
                          int repetitions, const float *reference) {
  int64_t outputs = problem->batch * MLP_OUTPUTS;
  // A variant that does not write its output must not inherit another's.
  for (int64_t i = 0; i < outputs; ++i)
    problem->y[i] = NAN;
  double elapsed = timeVariant(variant, problem, threads, repetitions);
  if (elapsed < 0) {
    fprintf(stderr, "mlp-cpu: %s failed on %d threads\n", variant->name,
            threads);
    return -1;
  }
  double error = maxAbsError(problem->y, reference, outputs);
  double scale = fmax(1.0, maxAbsValue(reference, outputs));
  double gflops = MLP_FLOPS_PER_SAMPLE * (double)problem->batch / elapsed;
  addRow(table, variant->name, threads, elapsed, 1e-9 * gflops, error);
  if (!(error <= relativeTolerance * scale)) {
    fprintf(stderr,
            "mlp-cpu: error: %s on %d threads disagrees with plain C: max "
            "abs error %g, allowed %g\n",
            variant->name, threads, error, relativeTolerance * scale);
    return -1;
  }
  return 0;
}

static int runAll(Table *table, const Variant *variants, int numVariants,
                  const MlpProblem *problem, int repetitions,
                  const float *reference) {
  int status = 0;
  for (int t = 0; t < NUM_THREAD_COUNTS; ++t) {
    if (measurePeaks(table, threadCounts[t], repetitions))
      return -1;
    // A disagreeing variant is reported and the others still measured.
    for (int v = 0; v < numVariants; ++v)
      if (measureVariant(table, &variants[v], problem, threadCounts[t],
                         repetitions, reference))
        status = -1;
  }
  return status;
}

//===----------------------------------------------------------------------===//
// main
//===----------------------------------------------------------------------===//

/// Parses argv[index] as an integer in [1, max]; keeps `*value` if absent.
static int parseCount(int argc, char **argv, int index, int64_t max,
                      int64_t *value) {
  if (index >= argc)
    return 0;
  char *end;
  errno = 0;
  long long parsed = strtoll(argv[index], &end, 10);
  if (errno || end == argv[index] || *end || parsed < 1 || parsed > max) {
    fprintf(stderr,
            "mlp-cpu: error: '%s' is not a count in [1, %lld]\n"
            "usage: mlp-cpu [batch] [repetitions]\n",
            argv[index], (long long)max);
    return -1;
  }
  *value = parsed;
  return 0;
}

typedef struct Buffers {
  float *x, *w, *y, *reference;
  OpenBLASWorkspace *openblas;
} Buffers;

static void destroyBuffers(Buffers *buffers) {
  free(buffers->x);
  free(buffers->w);
  free(buffers->y);
  free(buffers->reference);
  openblasWorkspaceDestroy(buffers->openblas);
}

static int createBuffers(Buffers *buffers, int64_t batch) {
  *buffers = (Buffers){
      allocateFloats(batch * MLP_INPUTS), allocateFloats(MLP_NUM_WEIGHTS),
      allocateFloats(batch * MLP_OUTPUTS), allocateFloats(batch * MLP_OUTPUTS),
      openblasWorkspaceCreate(batch)};
  if (buffers->x && buffers->w && buffers->y && buffers->reference &&
      buffers->openblas)
    return 0;
  if (!buffers->openblas)
    fprintf(stderr, "mlp-cpu: cannot allocate the OpenBLAS workspace\n");
  destroyBuffers(buffers);
  return -1;
}

static void printHeader(int64_t batch, int64_t repetitions) {
  printf("MLP 32-64-64-64-16 f32, batch %lld: median of %lld runs after one "
         "warm-up (FMA peak: best of %lld); %.0f FLOPs/sample (multiply-adds "
         "only)\n",
         (long long)batch, (long long)repetitions, (long long)repetitions,
         MLP_FLOPS_PER_SAMPLE);
  printf("OpenBLAS: %s\n\n", openblasDescription());
}

int main(int argc, char **argv) {
  int64_t batch = (int64_t)1 << 20, repetitions = 7;
  if (argc > 3) {
    fprintf(stderr, "usage: mlp-cpu [batch] [repetitions]\n");
    return 2;
  }
  if (parseCount(argc, argv, 1, maxBatch, &batch) ||
      parseCount(argc, argv, 2, MAX_REPETITIONS, &repetitions))
    return 2;
  Buffers buffers;
  if (createBuffers(&buffers, batch))
    return 1;
  uint64_t seed = 0x5EEDull;
  fillWeights(buffers.w, &seed);
  for (int64_t i = 0; i < batch * MLP_INPUTS; ++i)
    buffers.x[i] = uniform(&seed, 1.0f);
  printHeader(batch, repetitions);

  MlpProblem reference = {batch, buffers.x, buffers.w, buffers.reference};
  MlpProblem problem = {batch, buffers.x, buffers.w, buffers.y};
  // OpenBLAS last for each thread count: after a multithreaded call its
  // workers keep spinning for a while and would slow whatever ran next (a
  // 1-thread call runs on the calling thread alone).
  Variant variants[] = {{"plain-c", plainVariant, NULL},
                        {"coopvec", coopvecVariant, NULL},
                        {"openblas", openblasVariant, buffers.openblas}};
  Table table = {.count = 0};
  int status = runPlainC(&reference, 1);
  if (!status)
    status = runAll(&table, variants, sizeof(variants) / sizeof(variants[0]),
                    &problem, (int)repetitions, buffers.reference);
  printTable(&table);
  destroyBuffers(&buffers);
  return status ? 1 : 0;
}
