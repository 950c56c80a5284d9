//===- scatter-add.c - Contended scatter-adds on the CPU ------------------===//
//
// usage: scatter-add [--adds=N] [--repetitions=R] [--csv=FILE]
//   --adds=N         adds per run (default 10000000)
//   --repetitions=R  timed runs per mode, size and thread count (default 5)
//   --csv=FILE       also write the table as CSV (default scatter-add.csv)
//
// Dr.Jit's scatter-add microbenchmark: N random values in [-1, 1) added at
// uniformly random positions of a zeroed f32 buffer of 1, 10, ..., 10^7
// elements, one thread per add (`memref.atomic_rmw addf`, old value
// unused), through the public execution engine on 1 and 2 host threads,
// once per `reduce-mode` of coopvec-lower-to-cpu (docs/passes.md):
// direct is the baseline, one atomic per thread. Prints adds/s per mode
// and size with local's and expand's ratios to direct, and the ratio of
// the fastest mode to auto; writes the same rows as CSV
// (scripts/plot-scatter-add.py draws them). The modes take turns, R rounds, so
// load from other processes falls on all alike; medians. Every run's buffer is
// checked against the sums in double (f32 sums reassociate: within 1e-4 of the
// sum of |values| at the element, plus 1e-5). Exits 1 on a failure.
//
//===----------------------------------------------------------------------===//

#include "Timing.h"

#include "coopvec-c/Dialect.h"
#include "coopvec-c/ExecutionEngine.h"

#include <mlir-c/IR.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_REPETITIONS = 100, NUM_MODES = 4, NUM_SIZES = 8 };
static const char *const modes[NUM_MODES] = {"direct", "local", "expand",
                                             "auto"};
static const int threadCounts[] = {1, 2};
enum { NUM_THREAD_COUNTS = sizeof(threadCounts) / sizeof(threadCounts[0]) };

// Thread t adds x[t][1] at element x[t][0] (an integer below 2^24, exact
// in f32).
static const char program[] =
    "func.func @scatter(%x: !coopvec.vec<2, f32>, %g: memref<?xf32>) {\n"
    "  %e:2 = \"coopvec.unpack\"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)\n"
    "  %i = arith.fptosi %e#0 : f32 to i32\n"
    "  %at = arith.index_cast %i : i32 to index\n"
    "  %old = memref.atomic_rmw addf %e#1, %g[%at] : (f32, memref<?xf32>) "
    "-> f32\n"
    "  return\n"
    "}\n";

typedef struct Options {
  int64_t adds, repetitions;
  const char *csv;
} Options;

static int usage(void) {
  fprintf(stderr, "usage: scatter-add [--adds=N] [--repetitions=R] "
                  "[--csv=FILE]\n");
  return -1;
}

static int parseCount(const char *text, int64_t max, int64_t *value) {
  char *end;
  long long parsed = strtoll(text, &end, 10);
  if (*text == 0 || *end != 0 || parsed < 1 || parsed > max) {
    fprintf(stderr, "scatter-add: error: '%s' is not a count in [1, %lld]\n",
            text, (long long)max);
    return -1;
  }
  *value = parsed;
  return 0;
}

static int parseOptions(int argc, char **argv, Options *options) {
  *options = (Options){10000000, 5, "scatter-add.csv"};
  // 2^27 adds hold 1 GiB of inputs.
  const int64_t maxAdds = (int64_t)1 << 27;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    int status = 0;
    if (!strncmp(arg, "--adds=", 7))
      status = parseCount(arg + 7, maxAdds, &options->adds);
    else if (!strncmp(arg, "--repetitions=", 14))
      status = parseCount(arg + 14, MAX_REPETITIONS, &options->repetitions);
    else if (!strncmp(arg, "--csv=", 6) && arg[6])
      options->csv = arg + 6;
    else
      status = usage();
    if (status)
      return -1;
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// Engines
//===----------------------------------------------------------------------===//

static bool engineFailed(const CoopvecEngine *engine, CoopvecStatus status,
                         const char *call, const char *what) {
  fprintf(stderr, "scatter-add: error: %s of %s failed: %s: %s\n", call, what,
          coopvecStatusGetName(status),
          engine ? coopvecEngineGetError(engine) : "no engine");
  return false;
}

/// Compiles the program with reduce-mode=`mode` and looks up @scatter; the
/// caller destroys `*engine` (also on failure, when it is set).
static bool compileMode(MlirContext context, const char *mode,
                        CoopvecEngine **engine, CoopvecFunction **function) {
  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(program));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "scatter-add: error: the program does not parse\n");
    return false;
  }
  char pipeline[128];
  snprintf(pipeline, sizeof(pipeline),
           "builtin.module(coopvec-lower-to-cpu{reduce-mode=%s})", mode);
  CoopvecEngineOptions options = coopvecEngineOptionsGetDefault();
  options.pipeline = pipeline;
  CoopvecStatus status =
      coopvecEngineCreate(mlirModuleGetOperation(module), &options, engine);
  mlirModuleDestroy(module); // the engine keeps a clone
  if (status)
    return engineFailed(*engine, status, "coopvecEngineCreate", mode);
  if ((status = coopvecEngineCompile(*engine)))
    return engineFailed(*engine, status, "coopvecEngineCompile", mode);
  if ((status = coopvecEngineLookup(*engine, "scatter", function)))
    return engineFailed(*engine, status, "coopvecEngineLookup", mode);
  return true;
}

//===----------------------------------------------------------------------===//
// Data and checks
//===----------------------------------------------------------------------===//

typedef struct Data {
  int64_t adds, size;
  float *inputs;   // adds x 2: position, value
  float *buffer;   // size
  double *sums;    // size: the exact sums, in double
  double *weights; // size: sum of |value|, the scale of the f32 error
} Data;

/// Positions uniform in [0, size), values uniform in [-1, 1).
static void fillInputs(Data *data, uint64_t seed) {
  memset(data->sums, 0, (size_t)data->size * sizeof(double));
  memset(data->weights, 0, (size_t)data->size * sizeof(double));
  for (int64_t t = 0; t < data->adds; ++t) {
    int64_t at = (int64_t)(benchSplitMix64(&seed) % (uint64_t)data->size);
    double value =
        (double)(benchSplitMix64(&seed) >> 40) / (double)(1 << 23) - 1.0;
    data->inputs[2 * t] = (float)at;
    data->inputs[2 * t + 1] = (float)value;
    data->sums[at] += (float)value;
    data->weights[at] += fabsf((float)value);
  }
}

static bool checkBuffer(const Data *data, const char *mode, int threads) {
  for (int64_t e = 0; e < data->size; ++e) {
    double error = fabs((double)data->buffer[e] - data->sums[e]);
    if (!(error <= 1e-4 * data->weights[e] + 1e-5)) {
      fprintf(stderr,
              "scatter-add: error: reduce-mode=%s, %d threads, size %lld: "
              "element %lld is %.9g, expected %.9g\n",
              mode, threads, (long long)data->size, (long long)e,
              (double)data->buffer[e], data->sums[e]);
      return false;
    }
  }
  return true;
}

/// One run into the zeroed buffer: its seconds, or -1 on failure.
static double runOnce(CoopvecFunction *function, Data *data, int threads) {
  memset(data->buffer, 0, (size_t)data->size * sizeof(float));
  CoopvecArray args[2] = {
      {data->inputs, CoopvecDTypeF32, 2 * data->adds},
      {data->buffer, CoopvecDTypeF32, data->size},
  };
  double start = benchSeconds();
  CoopvecStatus status =
      coopvecFunctionRun(function, data->adds, args, 2, NULL, 0, threads);
  double seconds = benchSeconds() - start;
  return status ? -1.0 : seconds;
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

/// Median adds/s of each mode at one size and thread count, modes taking
/// turns (one warm-up run each first).
static bool timeModes(CoopvecFunction **functions, Data *data, int threads,
                      int64_t repetitions, double rates[NUM_MODES]) {
  static double times[NUM_MODES][MAX_REPETITIONS];
  for (int r = -1; r < repetitions; ++r)
    for (int m = 0; m < NUM_MODES; ++m) {
      double seconds = runOnce(functions[m], data, threads);
      if (seconds < 0 || !checkBuffer(data, modes[m], threads)) {
        if (seconds < 0)
          fprintf(stderr, "scatter-add: error: reduce-mode=%s failed\n",
                  modes[m]);
        return false;
      }
      if (r >= 0)
        times[m][r] = seconds;
    }
  for (int m = 0; m < NUM_MODES; ++m)
    rates[m] = (double)data->adds / benchMedian(times[m], (int)repetitions);
  return true;
}

static void printRow(FILE *csv, int threads, int64_t size,
                     const double rates[NUM_MODES]) {
  double best = rates[0];
  for (int m = 1; m < NUM_MODES; ++m)
    best = rates[m] > best ? rates[m] : best;
  printf("| %7d | %8lld |", threads, (long long)size);
  for (int m = 0; m < NUM_MODES; ++m)
    printf(" %9.1f |", rates[m] / 1e6);
  printf(" %11.2f | %11.2f | %13.2f |\n", rates[1] / rates[0],
         rates[2] / rates[0], best / rates[3]);
  fprintf(csv, "%d,%lld,%.6g,%.6g,%.6g,%.6g\n", threads, (long long)size,
          rates[0], rates[1], rates[2], rates[3]);
  fflush(stdout);
}

static bool runTable(CoopvecFunction **functions, Data *data,
                     const Options *options, FILE *csv) {
  printf("| threads |     size | direct M/s | local M/s | expand M/s | "
         "auto M/s | local/direct | expand/direct | best/auto |\n");
  printf("|---|---|---|---|---|---|---|---|---|\n");
  fprintf(csv, "threads,size,direct,local,expand,auto\n");
  for (int t = 0; t < NUM_THREAD_COUNTS; ++t) {
    int64_t size = 1;
    for (int s = 0; s < NUM_SIZES; ++s, size *= 10) {
      data->size = size;
      fillInputs(data, 0x5ca77e4ull + (uint64_t)s);
      double rates[NUM_MODES];
      if (!timeModes(functions, data, threadCounts[t], options->repetitions,
                     rates))
        return false;
      printRow(csv, threadCounts[t], size, rates);
    }
  }
  return true;
}

static bool allocate(Data *data, int64_t adds, int64_t maxSize) {
  data->adds = adds;
  data->inputs = malloc((size_t)adds * 2 * sizeof(float));
  data->buffer = malloc((size_t)maxSize * sizeof(float));
  data->sums = malloc((size_t)maxSize * sizeof(double));
  data->weights = malloc((size_t)maxSize * sizeof(double));
  if (data->inputs && data->buffer && data->sums && data->weights)
    return true;
  fprintf(stderr, "scatter-add: error: out of memory\n");
  return false;
}

static void release(Data *data) {
  free(data->inputs);
  free(data->buffer);
  free(data->sums);
  free(data->weights);
}

int main(int argc, char **argv) {
  Options options;
  if (parseOptions(argc, argv, &options))
    return 1;
  MlirContext context = mlirContextCreate();
  CoopvecEngine *engines[NUM_MODES] = {NULL};
  CoopvecFunction *functions[NUM_MODES] = {NULL};
  bool ok = !mlirLogicalResultIsFailure(coopvecSetupContext(context));
  for (int m = 0; ok && m < NUM_MODES; ++m)
    ok = compileMode(context, modes[m], &engines[m], &functions[m]);
  Data data = {0};
  FILE *csv = NULL;
  ok = ok && allocate(&data, options.adds, 10000000);
  if (ok && !(csv = fopen(options.csv, "w"))) {
    fprintf(stderr, "scatter-add: error: cannot write %s\n", options.csv);
    ok = false;
  }
  if (ok)
    printf("scatter-add: %lld adds per run, median of %lld runs; baseline "
           "direct\n",
           (long long)options.adds, (long long)options.repetitions);
  ok = ok && runTable(functions, &data, &options, csv);
  if (csv && fclose(csv))
    ok = false;
  release(&data);
  for (int m = 0; m < NUM_MODES; ++m)
    coopvecEngineDestroy(engines[m]); // before their context
  mlirContextDestroy(context);
  return ok ? 0 : 1;
}
