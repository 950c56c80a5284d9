//===- per-thread-cpu.c - General per-thread programs on the CPU ----------===//
//
// usage: per-thread-cpu [--batch=N] [--rays=N] [--repetitions=R]
//                       [--lane-refill=true|false|auto]
//   --batch=N        threads of the branch programs (default 262144)
//   --rays=N         rays of the ray marcher (default 65536)
//   --repetitions=R  timed runs per variant (default 7)
//   --lane-refill=M  convert-coopvec-to-cpu's lane-refill for every program
//                    (true, false or auto; default: the pass's default)
//
// The price of the CPU's masked lanes (docs/execution-model.md, "Per-thread
// code on SIMD lanes"), measured through the public execution engine as a
// user calls it (coopvecFunctionRun on host arrays, target cpu, the default
// pipeline) on 1 and 2 host threads:
//
// - branch: bench/branch.mlir's @straight (the MLP of examples/mlp.mlir)
//   against @branched, the same MLP under an scf.if on the thread's first
//   input, with a threshold that every lane passes (agree), none passes
//   (none) or about half of each group passes (mixed). The target:
//   agree costs at most 10% over straight. @straight_loads_first, the MLP
//   with its bias loads first, separates the price of how the loads in the
//   branch are lowered from that of the branch. Every output is checked
//   bit for bit against @straight's (or zero where the branch is not
//   taken).
// - raymarch: examples/raymarch.mlir's @raymarch over a batch of rays
//   against bench/raymarch-field.mlir's @field, the loop body straight-line,
//   over as many samples as the rays took (and @field_as_loop, the same
//   with the ray marcher's order of loads). A variant of the ray marcher,
//   made here from the example's text, returns each ray's step count,
//   which counts the samples S and the lanes' utilization. GFLOP/s are
//   S * 3072 (the matvecs' multiply-adds) over the time; the issue's
//   target: raymarch at least 75% of field.
//
// Each variant runs once (warm-up), then the variants of a part take turns,
// R rounds, so that load from other processes falls on all alike; medians
// (and the fastest run). The .mlir files are read at run time from
// COOPVEC_BENCH_SOURCE_DIR. Exits 1 if a program fails to compile or run,
// or an output is wrong.
//
//===----------------------------------------------------------------------===//

#include "Timing.h"

#include "coopvec-c/Dialect.h"
#include "coopvec-c/ExecutionEngine.h"

#include <mlir-c/IR.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef COOPVEC_BENCH_SOURCE_DIR
#error "COOPVEC_BENCH_SOURCE_DIR must name the source tree"
#endif

enum { MAX_REPETITIONS = 1000, MAX_VARIANTS = 5 };
static const int threadCounts[] = {1, 2};
enum { NUM_THREAD_COUNTS = sizeof(threadCounts) / sizeof(threadCounts[0]) };

// The programs' sizes: inputs, outputs and weights per thread / program.
enum { MLP_IN = 32, MLP_OUT = 16, MLP_WEIGHTS = 11472 };
enum { RAY_IN = 8, RAY_OUT = 4, FIELD_IN = 4, FIELD_WEIGHTS = 1604 };
// Multiply-adds of the field's matvecs, 12 -> 32 -> 32 -> 4, as FLOPs.
static const double fieldFlopsPerSample = 2.0 * (32 * 12 + 32 * 32 + 4 * 32);
// Thresholds of @branched: inputs are in [-1, 1).
static const float thresholdAgree = -2.0f, thresholdNone = 2.0f,
                   thresholdMixed = 0.0f;

// The line of examples/raymarch.mlir that builds the result, and what the
// step-counting variant puts in its place: element 3 becomes the step
// count %res#0 instead of the transmittance %res#1.
static const char resultLine[] =
    "%result = \"coopvec.from_elements\"(%rgb#0, %rgb#1, %rgb#2, %res#1) : "
    "(f32, f32, f32, f32) -> !coopvec.vec<4, f32>";
static const char countingLines[] =
    "%steps = arith.sitofp %res#0 : i32 to f32\n"
    "  %result = \"coopvec.from_elements\"(%rgb#0, %rgb#1, %rgb#2, %steps) : "
    "(f32, f32, f32, f32) -> !coopvec.vec<4, f32>";

typedef struct Options {
  int64_t batch, rays, repetitions;
} Options;

/// --lane-refill=true|false|auto: convert-coopvec-to-cpu's lane-refill for
/// every program (NULL: the default).
static const char *laneRefill = NULL;
static char pipelineOptions[64];

//===----------------------------------------------------------------------===//
// Options, files, data
//===----------------------------------------------------------------------===//

static int usage(void) {
  fprintf(stderr, "usage: per-thread-cpu [--batch=N] [--rays=N] "
                  "[--repetitions=R] "
                  "[--lane-refill=true|false|auto]\n");
  return -1;
}

/// Parses `text` as an integer in [1, max] into `*value`.
static int parseCount(const char *text, int64_t max, int64_t *value) {
  char *end;
  errno = 0;
  long long parsed = strtoll(text, &end, 10);
  if (errno || end == text || *end || parsed < 1 || parsed > max) {
    fprintf(stderr, "per-thread-cpu: error: '%s' is not a count in [1, %lld]\n",
            text, (long long)max);
    return -1;
  }
  *value = parsed;
  return 0;
}

static int parseOptions(int argc, char **argv, Options *options) {
  *options = (Options){262144, 65536, 7};
  // Memory: 2^22 threads hold 512 MiB of inputs and 5 x 256 MiB of
  // outputs; 2^20 rays take up to 39 samples each, 16 bytes in and twice
  // 16 bytes out per sample: up to 1.9 GiB.
  const int64_t maxBatch = (int64_t)1 << 22, maxRays = (int64_t)1 << 20;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    int status;
    if (!strncmp(arg, "--batch=", 8))
      status = parseCount(arg + 8, maxBatch, &options->batch);
    else if (!strncmp(arg, "--rays=", 7))
      status = parseCount(arg + 7, maxRays, &options->rays);
    else if (!strncmp(arg, "--lane-refill=", 14) &&
             (!strcmp(arg + 14, "true") || !strcmp(arg + 14, "false") ||
              !strcmp(arg + 14, "auto")))
      status = (laneRefill = arg + 14, 0);
    else if (!strncmp(arg, "--repetitions=", 14))
      status = parseCount(arg + 14, MAX_REPETITIONS, &options->repetitions);
    else
      status = usage();
    if (status)
      return -1;
  }
  return 0;
}

/// `path` under the source tree, whole, NUL-terminated; NULL on error.
static char *readSource(const char *path) {
  char full[4096];
  snprintf(full, sizeof(full), "%s/%s", COOPVEC_BENCH_SOURCE_DIR, path);
  FILE *file = fopen(full, "rb");
  char *text = NULL;
  long size = -1;
  if (file && !fseek(file, 0, SEEK_END) && (size = ftell(file)) >= 0 &&
      !fseek(file, 0, SEEK_SET) && (text = malloc((size_t)size + 1)) &&
      fread(text, 1, (size_t)size, file) == (size_t)size) {
    text[size] = 0;
    fclose(file);
    return text;
  }
  fprintf(stderr, "per-thread-cpu: error: cannot read %s\n", full);
  free(text);
  if (file)
    fclose(file);
  return NULL;
}

/// `text` with its one occurrence of `from` replaced by `to`; NULL (and a
/// message) when `from` occurs not exactly once or memory runs out.
static char *replaceOnce(const char *text, const char *from, const char *to) {
  const char *at = strstr(text, from);
  if (!at || strstr(at + 1, from)) {
    fprintf(stderr,
            "per-thread-cpu: error: examples/raymarch.mlir does not hold the "
            "line\n  %s\nexactly once: the step-counting variant cannot be "
            "made (update resultLine in bench/per-thread-cpu.c)\n",
            from);
    return NULL;
  }
  size_t head = (size_t)(at - text), fromLength = strlen(from);
  size_t toLength = strlen(to), tail = strlen(at + fromLength);
  char *result = malloc(head + toLength + tail + 1);
  if (!result) {
    fprintf(stderr, "per-thread-cpu: error: out of memory\n");
    return NULL;
  }
  memcpy(result, text, head);
  memcpy(result + head, to, toLength);
  memcpy(result + head + toLength, at + fromLength, tail + 1);
  return result;
}

/// `count` floats; NULL (and a message) when memory runs out.
static float *allocateFloats(int64_t count) {
  float *data = malloc((size_t)count * sizeof(float));
  if (!data)
    fprintf(stderr, "per-thread-cpu: error: cannot allocate %lld floats\n",
            (long long)count);
  return data;
}

/// `count` floats uniform in [-scale, scale) from splitmix64 (for scale 1
/// the distribution of coopvec-run --random).
static float *randomFloats(int64_t count, float scale, uint64_t *state) {
  float *data = allocateFloats(count);
  for (int64_t i = 0; data && i < count; ++i) {
    float unit = (float)(benchSplitMix64(state) >> 40) * 0x1p-24f;
    data[i] = scale * (2.0f * unit - 1.0f);
  }
  return data;
}

/// The "model name" of /proc/cpuinfo, or "unknown".
static void printCpu(void) {
  char line[256], name[256] = "unknown";
  FILE *file = fopen("/proc/cpuinfo", "r");
  while (file && fgets(line, sizeof(line), file)) {
    char *colon = strchr(line, ':');
    if (!strncmp(line, "model name", 10) && colon) {
      snprintf(name, sizeof(name), "%s", colon + 1 + (colon[1] == ' '));
      name[strcspn(name, "\n")] = 0;
      break;
    }
  }
  if (file)
    fclose(file);
  printf("cpu: %s, %d online cores\n", name, coopvecGetDefaultNumThreads());
}

static void printLoad(const char *when) {
  char line[128] = "unknown";
  FILE *file = fopen("/proc/loadavg", "r");
  if (file && !fgets(line, sizeof(line), file))
    snprintf(line, sizeof(line), "unknown");
  if (file)
    fclose(file);
  line[strcspn(line, "\n")] = 0;
  printf("load average (%s): %s\n", when, line);
}

//===----------------------------------------------------------------------===//
// Engines and timed runs
//===----------------------------------------------------------------------===//

static bool engineFailed(const CoopvecEngine *engine, CoopvecStatus status,
                         const char *call, const char *what) {
  fprintf(stderr, "per-thread-cpu: error: %s of %s failed: %s: %s\n", call,
          what, coopvecStatusGetName(status),
          engine ? coopvecEngineGetError(engine) : "no engine");
  return false;
}

/// Parses `text` (named `what` in messages) and compiles it for the CPU
/// with the default options into `*engine`, which the caller destroys
/// (also on failure, when it is set).
static bool compileProgram(MlirContext context, const char *text,
                           const char *what, CoopvecEngine **engine) {
  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(text));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "per-thread-cpu: error: %s does not parse\n", what);
    return false;
  }
  // The engine keeps a clone of the module.
  CoopvecEngineOptions engineOptions = coopvecEngineOptionsGetDefault();
  if (laneRefill) {
    snprintf(pipelineOptions, sizeof(pipelineOptions), "lane-refill=%s",
             laneRefill);
    engineOptions.pipelineOptions = pipelineOptions;
  }
  CoopvecStatus status = coopvecEngineCreate(mlirModuleGetOperation(module),
                                             &engineOptions, engine);
  mlirModuleDestroy(module);
  if (status)
    return engineFailed(*engine, status, "coopvecEngineCreate", what);
  status = coopvecEngineCompile(*engine);
  if (status)
    return engineFailed(*engine, status, "coopvecEngineCompile", what);
  return true;
}

/// One program call: a function, its batch, its arguments and its result.
typedef struct Call {
  const char *name; // the row's name
  CoopvecEngine *engine;
  CoopvecFunction *function;
  int64_t batch;
  CoopvecArray args[3];
  int numArgs;
  CoopvecArray result;
} Call;

static bool lookUp(Call *call, const char *function) {
  CoopvecStatus status =
      coopvecEngineLookup(call->engine, function, &call->function);
  return !status ||
         engineFailed(call->engine, status, "coopvecEngineLookup", function);
}

/// Runs `call` on `threads` host threads: its seconds, or -1 on failure.
static double runCall(const Call *call, int threads) {
  double start = benchSeconds();
  CoopvecStatus status =
      coopvecFunctionRun(call->function, call->batch, call->args, call->numArgs,
                         &call->result, 1, threads);
  double seconds = benchSeconds() - start;
  if (status) {
    engineFailed(call->engine, status, "coopvecFunctionRun", call->name);
    return -1.0;
  }
  return seconds;
}

/// The seconds of a call's timed runs: their median and the fastest (load
/// from other processes only slows a run down).
typedef struct Timing {
  double median, best;
} Timing;

/// One warm-up run of each call, then `repetitions` rounds of one run of
/// each: the timing of each call in `timings`.
static bool timeCalls(const Call *calls, int count, int threads,
                      int repetitions, Timing *timings) {
  static double times[MAX_VARIANTS][MAX_REPETITIONS];
  for (int c = 0; c < count; ++c)
    if (runCall(&calls[c], threads) < 0)
      return false;
  for (int r = 0; r < repetitions; ++r)
    for (int c = 0; c < count; ++c)
      if ((times[c][r] = runCall(&calls[c], threads)) < 0)
        return false;
  for (int c = 0; c < count; ++c) {
    timings[c].median = benchMedian(times[c], repetitions); // sorts them
    timings[c].best = times[c][0];
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Branch
//===----------------------------------------------------------------------===//

// The calls of the branch part, in the order they take turns: @straight,
// @straight_loads_first, and @branched with the thresholds agree, none,
// mixed.
enum { STRAIGHT, LOADS_FIRST, AGREE, NONE, MIXED, NUM_BRANCH_CALLS };
_Static_assert((int)NUM_BRANCH_CALLS <= (int)MAX_VARIANTS,
               "timeCalls holds MAX_VARIANTS");

/// Arrays of the branch part; y[c] is call c's output.
typedef struct BranchData {
  int64_t batch;
  float *x, *w, *y[NUM_BRANCH_CALLS];
  float thresholds[NUM_BRANCH_CALLS]; // of the @branched calls
} BranchData;

static void destroyBranchData(BranchData *data) {
  free(data->x);
  free(data->w);
  for (int i = 0; i < NUM_BRANCH_CALLS; ++i)
    free(data->y[i]);
}

static bool createBranchData(int64_t batch, BranchData *data) {
  uint64_t seed = 0x5EEDull;
  *data = (BranchData){batch, NULL, NULL, {NULL}, {0}};
  data->thresholds[AGREE] = thresholdAgree;
  data->thresholds[NONE] = thresholdNone;
  data->thresholds[MIXED] = thresholdMixed;
  // Weights of 1/sqrt(64): the activations stay of order one through the
  // layers (no denormals, no overflow to time by accident). Drawn first,
  // so that they do not depend on the batch.
  data->w = randomFloats(MLP_WEIGHTS, 0.125f, &seed);
  data->x = randomFloats(batch * MLP_IN, 1.0f, &seed);
  bool ok = data->x && data->w;
  for (int i = 0; i < NUM_BRANCH_CALLS; ++i)
    ok = ok && (data->y[i] = allocateFloats(batch * MLP_OUT));
  return ok;
}

/// Sets up the calls and looks their functions up.
static bool setBranchCalls(CoopvecEngine *engine, BranchData *data,
                           Call *calls) {
  static const char *const names[NUM_BRANCH_CALLS] = {
      "straight", "straight, loads first", "branched, agree (-2)",
      "branched, none (2)", "branched, mixed (0)"};
  static const char *const functions[NUM_BRANCH_CALLS] = {
      "straight", "straight_loads_first", "branched", "branched", "branched"};
  bool ok = true;
  for (int i = 0; i < NUM_BRANCH_CALLS; ++i) {
    Call *call = &calls[i];
    *call = (Call){names[i],
                   engine,
                   NULL,
                   data->batch,
                   {{data->x, CoopvecDTypeF32, data->batch * MLP_IN},
                    {data->w, CoopvecDTypeF32, MLP_WEIGHTS},
                    {&data->thresholds[i], CoopvecDTypeF32, 1}},
                   i >= AGREE ? 3 : 2,
                   {data->y[i], CoopvecDTypeF32, data->batch * MLP_OUT}};
    ok = ok && lookUp(call, functions[i]);
  }
  return ok;
}

/// Whether thread t's output of call `c` is @straight's bit for bit, or,
/// for @branched, zeros where its first input does not exceed the
/// threshold.
static bool branchOutputIsRight(const BranchData *data, int c, int64_t t) {
  static const float zeros[MLP_OUT];
  bool taken = c < AGREE || data->x[t * MLP_IN] > data->thresholds[c];
  const float *want = taken ? data->y[STRAIGHT] + t * MLP_OUT : zeros;
  return !memcmp(data->y[c] + t * MLP_OUT, want, sizeof(zeros));
}

static bool checkBranch(const BranchData *data, const Call *calls,
                        int threads) {
  for (int c = LOADS_FIRST; c < NUM_BRANCH_CALLS; ++c)
    for (int64_t t = 0; t < data->batch; ++t)
      if (!branchOutputIsRight(data, c, t)) {
        fprintf(stderr,
                "per-thread-cpu: error: %s on %d threads: thread %lld's "
                "output differs from @straight's (or from zero where the "
                "branch is not taken)\n",
                calls[c].name, threads, (long long)t);
        return false;
      }
  return true;
}

static void printBranchRows(const Call *calls, const Timing *timings,
                            int threads) {
  for (int c = 0; c < NUM_BRANCH_CALLS; ++c)
    printf("| %-22s | %7d | %9.2f | %7.2f | %10.1f | %11.3f |\n", calls[c].name,
           threads, 1e3 * timings[c].median, 1e3 * timings[c].best,
           1e9 * timings[c].median / (double)calls[c].batch,
           timings[c].median / timings[STRAIGHT].median);
}

static void printBranchSummary(const Timing *timings, int threads) {
  double ratio = timings[AGREE].median / timings[STRAIGHT].median;
  printf("summary-branch: threads=%d agree_over_straight=%.3f (target <= "
         "1.10: %s) agree_over_loads_first=%.3f none_over_straight=%.3f "
         "mixed_over_straight=%.3f best_agree_over_best_straight=%.3f\n",
         threads, ratio, ratio <= 1.10 ? "met" : "missed",
         timings[AGREE].median / timings[LOADS_FIRST].median,
         timings[NONE].median / timings[STRAIGHT].median,
         timings[MIXED].median / timings[STRAIGHT].median,
         timings[AGREE].best / timings[STRAIGHT].best);
}

static bool measureBranch(const Options *options, BranchData *data,
                          Call *calls) {
  printf("\n### branch: bench/branch.mlir, MLP 32-64-64-64-16 ReLU f32, "
         "batch %lld\n\n",
         (long long)data->batch);
  printf("| %-22s | %7s | %9s | %7s | %10s | %11s |\n", "variant", "threads",
         "median ms", "best ms", "ns/sample", "vs straight");
  printf("|------------------------|--------:|----------:|--------:|"
         "-----------:|------------:|\n");
  Timing timings[NUM_THREAD_COUNTS][NUM_BRANCH_CALLS];
  for (int i = 0; i < NUM_THREAD_COUNTS; ++i) {
    if (!timeCalls(calls, NUM_BRANCH_CALLS, threadCounts[i],
                   (int)options->repetitions, timings[i]) ||
        !checkBranch(data, calls, threadCounts[i]))
      return false;
    printBranchRows(calls, timings[i], threadCounts[i]);
  }
  printf("\n");
  for (int i = 0; i < NUM_THREAD_COUNTS; ++i)
    printBranchSummary(timings[i], threadCounts[i]);
  return true;
}

static bool runBranch(MlirContext context, const Options *options) {
  char *text = readSource("bench/branch.mlir");
  if (!text)
    return false;
  CoopvecEngine *engine = NULL;
  BranchData data;
  Call calls[NUM_BRANCH_CALLS];
  bool ok = createBranchData(options->batch, &data) &&
            compileProgram(context, text, "bench/branch.mlir", &engine) &&
            setBranchCalls(engine, &data, calls) &&
            measureBranch(options, &data, calls);
  destroyBranchData(&data);
  coopvecEngineDestroy(engine); // before its context
  free(text);
  return ok;
}

//===----------------------------------------------------------------------===//
// Ray marcher
//===----------------------------------------------------------------------===//

// The calls of the ray part, in the order they take turns, and the
// engines: the ray marcher, its step-counting variant, the field module
// (@field and @field_as_loop).
enum { RAYMARCH, COUNTING, FIELD, FIELD_AS_LOOP, NUM_RAY_CALLS };
enum { NUM_ENGINES = 3 };
_Static_assert((int)NUM_RAY_CALLS <= (int)MAX_VARIANTS,
               "timeCalls holds MAX_VARIANTS");

/// The ray part's engines and arrays. out[RAYMARCH] holds (r, g, b, T) per
/// ray, out[COUNTING] (r, g, b, steps), out[FIELD*] one sample each.
typedef struct RayData {
  CoopvecEngine *engines[NUM_ENGINES];
  int64_t rays, samples;
  // For groups of 8, 16 and 32 lanes: lanes x steps of each group's
  // longest ray, summed.
  int64_t laneSteps[3];
  int lanes; // this host's default
  float *rays8, *w, *points, *out[NUM_RAY_CALLS];
} RayData;

static void destroyRayData(RayData *data) {
  for (int i = 0; i < NUM_ENGINES; ++i)
    coopvecEngineDestroy(data->engines[i]);
  for (int i = 0; i < NUM_RAY_CALLS; ++i)
    free(data->out[i]);
  free(data->rays8);
  free(data->w);
  free(data->points);
}

/// Compiles the ray marcher, its step-counting variant and the field.
static bool compileRayPrograms(MlirContext context, RayData *data) {
  char *raymarch = readSource("examples/raymarch.mlir");
  char *counting =
      raymarch ? replaceOnce(raymarch, resultLine, countingLines) : NULL;
  char *field = counting ? readSource("bench/raymarch-field.mlir") : NULL;
  bool ok = field &&
            compileProgram(context, raymarch, "examples/raymarch.mlir",
                           &data->engines[RAYMARCH]) &&
            compileProgram(context, counting,
                           "examples/raymarch.mlir (counting steps)",
                           &data->engines[COUNTING]) &&
            compileProgram(context, field, "bench/raymarch-field.mlir",
                           &data->engines[FIELD]);
  free(raymarch);
  free(counting);
  free(field);
  return ok;
}

/// Sets up `calls[which]` and looks its function up.
static bool setRayCall(RayData *data, int which, Call *calls) {
  static const char *const names[NUM_RAY_CALLS] = {
      "raymarch", "raymarch, counting", "field", "field_as_loop"};
  static const char *const functions[NUM_RAY_CALLS] = {
      "raymarch", "raymarch", "field", "field_as_loop"};
  bool field = which >= FIELD;
  int64_t batch = field ? data->samples : data->rays;
  int64_t inputs = batch * (field ? FIELD_IN : RAY_IN);
  calls[which] =
      (Call){names[which],
             data->engines[field ? FIELD : which],
             NULL,
             batch,
             {{field ? data->points : data->rays8, CoopvecDTypeF32, inputs},
              {data->w, CoopvecDTypeF32, FIELD_WEIGHTS}},
             2,
             {data->out[which], CoopvecDTypeF32, batch * RAY_OUT}};
  return lookUp(&calls[which], functions[which]);
}

/// The lanes per group the CPU lowering picks for this host by default
/// (lanes=0: two of its widest float registers of f32).
static int hostLanes(void) {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    return 32;
  return __builtin_cpu_supports("avx") ? 16 : 8;
}

/// Runs the counting variant once; S is the sum of its step counts. A group
/// of lanes (threads gL .. gL + L - 1: the engine's chunks start at
/// multiples of 64) loops until its longest ray ends, so it runs L times
/// that ray's steps of lane work: S over their sum is the share of the
/// lanes' work that was a sample.
static bool countSamples(RayData *data, const Call *counting) {
  if (runCall(counting, 0) < 0)
    return false;
  data->lanes = hostLanes();
  data->samples = 0;
  int64_t longest[3] = {0, 0, 0};
  for (int64_t r = 0; r < data->rays; ++r) {
    int64_t steps = (int64_t)data->out[COUNTING][r * RAY_OUT + 3];
    data->samples += steps;
    for (int i = 0; i < 3; ++i) {
      int lanes = 8 << i;
      longest[i] = steps > longest[i] ? steps : longest[i];
      if ((r + 1) % lanes == 0 || r + 1 == data->rays) {
        data->laneSteps[i] += lanes * longest[i];
        longest[i] = 0;
      }
    }
  }
  if (data->samples > 0)
    return true;
  fprintf(stderr, "per-thread-cpu: error: the rays took no samples\n");
  return false;
}

/// The rays and the weights uniform in [-1, 1) (as coopvec-run --random
/// makes them), then S sample points uniform in [-1, 1)^3 (element 3 is
/// not read), and the calls.
static bool createRayData(MlirContext context, int64_t rays, RayData *data,
                          Call *calls) {
  uint64_t seed = 0xBEA4ull;
  *data = (RayData){{NULL}, rays, 0, {0, 0, 0}, 0, NULL, NULL, NULL, {NULL}};
  // The weights first: the field, and so the step counts of the first
  // rays, do not depend on the number of rays.
  data->w = randomFloats(FIELD_WEIGHTS, 1.0f, &seed);
  data->rays8 = randomFloats(rays * RAY_IN, 1.0f, &seed);
  data->out[RAYMARCH] = allocateFloats(rays * RAY_OUT);
  data->out[COUNTING] = allocateFloats(rays * RAY_OUT);
  if (!data->rays8 || !data->w || !data->out[RAYMARCH] ||
      !data->out[COUNTING] || !compileRayPrograms(context, data) ||
      !setRayCall(data, COUNTING, calls) ||
      !countSamples(data, &calls[COUNTING]))
    return false;
  data->points = randomFloats(data->samples * FIELD_IN, 1.0f, &seed);
  data->out[FIELD] = allocateFloats(data->samples * RAY_OUT);
  data->out[FIELD_AS_LOOP] = allocateFloats(data->samples * RAY_OUT);
  return data->points && data->out[FIELD] && data->out[FIELD_AS_LOOP] &&
         setRayCall(data, RAYMARCH, calls) && setRayCall(data, FIELD, calls) &&
         setRayCall(data, FIELD_AS_LOOP, calls);
}

/// Whether the first `compared` floats of each of `count` 4-float rows of
/// `a` and `b` are equal bit for bit; else a message about `what`.
static bool sameBits(const float *a, const float *b, int64_t count,
                     int compared, int threads, const char *what) {
  for (int64_t i = 0; i < count; ++i)
    if (memcmp(a + i * RAY_OUT, b + i * RAY_OUT, compared * sizeof(float))) {
      fprintf(stderr, "per-thread-cpu: error: on %d threads %s %lld\n", threads,
              what, (long long)i);
      return false;
    }
  return true;
}

/// The variant differs from the ray marcher only in element 3, and the two
/// field functions only in where their loads are: their outputs must be
/// the same bit for bit.
static bool checkRays(const RayData *data, int threads) {
  return sameBits(data->out[RAYMARCH], data->out[COUNTING], data->rays, 3,
                  threads,
                  "the step-counting variant changes the colour of ray") &&
         sameBits(data->out[FIELD], data->out[FIELD_AS_LOOP], data->samples,
                  RAY_OUT, threads,
                  "@field and @field_as_loop disagree on sample");
}

static void printRayRows(const RayData *data, const Call *calls,
                         const Timing *timings, int threads) {
  double gflop = 1e-9 * fieldFlopsPerSample * (double)data->samples;
  for (int c = 0; c < NUM_RAY_CALLS; ++c) {
    char raysPerSecond[32] = "-";
    if (c < FIELD)
      snprintf(raysPerSecond, sizeof(raysPerSecond), "%.3g",
               (double)data->rays / timings[c].median);
    printf(
        "| %-18s | %7d | %9.2f | %7.2f | %8s | %9.1f | %7.2f | %8.3f |\n",
        calls[c].name, threads, 1e3 * timings[c].median, 1e3 * timings[c].best,
        raysPerSecond, 1e9 * timings[c].median / (double)data->samples,
        gflop / timings[c].median, timings[FIELD].median / timings[c].median);
  }
}

static void printRayHeader(const RayData *data) {
  printf("\n### raymarch: examples/raymarch.mlir, %lld rays, S = %lld "
         "samples (mean %.2f steps per ray), %.0f FLOPs/sample; field, "
         "field_as_loop: bench/raymarch-field.mlir over S samples\n",
         (long long)data->rays, (long long)data->samples,
         (double)data->samples / (double)data->rays, fieldFlopsPerSample);
  printf("lane utilization, S / (lanes x steps of each group's longest "
         "ray), this host's default %d lanes:",
         data->lanes);
  for (int i = 0; i < 3; ++i)
    printf(" %d lanes %.3f%s", 8 << i,
           (double)data->samples / (double)data->laneSteps[i],
           i < 2 ? "," : "\n\n");
  printf("| %-18s | %7s | %9s | %7s | %8s | %9s | %7s | %8s |\n", "variant",
         "threads", "median ms", "best ms", "rays/s", "ns/sample", "GFLOP/s",
         "vs field");
  printf("|--------------------|--------:|----------:|--------:|---------:|"
         "----------:|--------:|---------:|\n");
}

static void printRaySummary(const RayData *data, const Timing *timings,
                            int threads) {
  double gflop = 1e-9 * fieldFlopsPerSample * (double)data->samples;
  double ratio = timings[FIELD].median / timings[RAYMARCH].median;
  printf("summary-raymarch: threads=%d raymarch_gflops=%.2f "
         "field_gflops=%.2f ratio=%.3f (target >= 0.75: %s) "
         "ratio_vs_field_as_loop=%.3f best_ratio=%.3f\n",
         threads, gflop / timings[RAYMARCH].median,
         gflop / timings[FIELD].median, ratio, ratio >= 0.75 ? "met" : "missed",
         timings[FIELD_AS_LOOP].median / timings[RAYMARCH].median,
         timings[FIELD].best / timings[RAYMARCH].best);
}

static bool measureRays(const Options *options, const RayData *data,
                        const Call *calls) {
  printRayHeader(data);
  Timing timings[NUM_THREAD_COUNTS][NUM_RAY_CALLS];
  for (int i = 0; i < NUM_THREAD_COUNTS; ++i) {
    if (!timeCalls(calls, NUM_RAY_CALLS, threadCounts[i],
                   (int)options->repetitions, timings[i]) ||
        !checkRays(data, threadCounts[i]))
      return false;
    printRayRows(data, calls, timings[i], threadCounts[i]);
  }
  printf("\n");
  for (int i = 0; i < NUM_THREAD_COUNTS; ++i)
    printRaySummary(data, timings[i], threadCounts[i]);
  return true;
}

static bool runRays(MlirContext context, const Options *options) {
  RayData data;
  Call calls[NUM_RAY_CALLS];
  bool ok = createRayData(context, options->rays, &data, calls) &&
            measureRays(options, &data, calls);
  destroyRayData(&data);
  return ok;
}

//===----------------------------------------------------------------------===//
// main
//===----------------------------------------------------------------------===//

int main(int argc, char **argv) {
  Options options;
  if (parseOptions(argc, argv, &options))
    return 2;
  printf("per-thread-cpu: medians of %lld runs after one warm-up, variants "
         "in turn; engine target cpu, default pipeline\n",
         (long long)options.repetitions);
  printCpu();
  printLoad("start");
  MlirContext context = mlirContextCreate();
  bool ok = !mlirLogicalResultIsFailure(coopvecSetupContext(context));
  if (!ok)
    fprintf(stderr, "per-thread-cpu: error: coopvecSetupContext failed\n");
  ok = ok && runBranch(context, &options);
  ok = ok && runRays(context, &options);
  mlirContextDestroy(context);
  printLoad("end");
  fflush(stdout);
  return ok ? 0 : 1;
}
