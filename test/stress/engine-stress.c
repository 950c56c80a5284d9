//===- engine-stress.c - Many engines on many threads ---------------------===//
//
// A concurrency stress test of the threaded execution engine
// (docs/execution-engine.md, "Threads"; docs/reliability.md):
//
//  1. independent engines: each of H host threads sets up its own context,
//     parses the module, and compiles an engine of its own (a different lane
//     count each, so the lowered code differs) while the others do the
//     same; then it runs rounds of batches of 1 to 4099 threads on 1 to 4
//     worker threads each. Every forward result is compared with a plain-C
//     reference, and every run accumulates gradients into ONE gradient
//     buffer shared by all host threads and engines;
//  2. one context, several engines: engines compiled in one context are run
//     concurrently from different host threads, also into the shared
//     gradients;
//  3. one engine handed over: host threads take turns on one engine under a
//     mutex (an engine allows one call at a time, from any thread).
//
// All values are small integers, so every sum is exact in f32 whatever the
// order of the additions: results must equal the reference exactly, and
// the shared gradients the sum of every thread's contribution, which only
// holds if the compiled code's accumulations are atomic across engines.
// The gradient buffer is small, so the pipelines' default reduce-mode=auto
// runs the expand variant: per-host-thread copies the engine adds into the
// shared buffer after each run (lib/ExecutionEngine/Expand.c), which must
// be atomic too.
// The test is also built with ThreadSanitizer (COOPVEC_TSAN=ON,
// scripts/tsan.sh), where it checks the engine's own threads, counters and
// hand-over for data races.
//
//   coopvec-stress [HOST_THREADS] [ROUNDS]     (defaults: 4, 3)
//
//===----------------------------------------------------------------------===//

// pthreads are POSIX, not C11.
#define _POSIX_C_SOURCE 200809L

#include "coopvec-c/Coopvec.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  IN = 8,          // x: vec<8>
  OUT = 4,         // y, dy: vec<4>
  BIAS = IN * OUT, // b at w[32, 36), db at g[32, 36)
  WEIGHTS = BIAS + OUT,
  MAX_HOST = 16,
};

/// y = relu(W x + b); the gradients of a layer, summed over all threads:
/// g[0, 32) += dy x^T (row-major 4 x 8), g[32, 36) += dy.
static const char kModule[] =
    "func.func @forward(%x: !coopvec.vec<8, f32>, %w: memref<?xf32>)\n"
    "    -> !coopvec.vec<4, f32> {\n"
    "  %zero = arith.constant 0.0 : f32\n"
    "  %c32 = arith.constant 32 : index\n"
    "  %W = \"coopvec.matrix_view\"(%w) {offset = 0} : (memref<?xf32>)\n"
    "      -> !coopvec.matrix<4, 8, f32, \"row_major\">\n"
    "  %b = \"coopvec.load\"(%w, %c32) : (memref<?xf32>, index)\n"
    "      -> !coopvec.vec<4, f32>\n"
    "  %h = \"coopvec.matvec\"(%W, %x, %b) : (!coopvec.matrix<4, 8, f32,\n"
    "      \"row_major\">, !coopvec.vec<8, f32>, !coopvec.vec<4, f32>)\n"
    "      -> !coopvec.vec<4, f32>\n"
    "  %y = \"coopvec.max\"(%h, %zero) : (!coopvec.vec<4, f32>, f32)\n"
    "      -> !coopvec.vec<4, f32>\n"
    "  return %y : !coopvec.vec<4, f32>\n"
    "}\n"
    "func.func @backward(%x: !coopvec.vec<8, f32>, %dy: !coopvec.vec<4, f32>,\n"
    "                    %g: memref<?xf32>) {\n"
    "  %c32 = arith.constant 32 : index\n"
    "  %G = \"coopvec.matrix_view\"(%g) {offset = 0} : (memref<?xf32>)\n"
    "      -> !coopvec.matrix<4, 8, f32, \"row_major\">\n"
    "  \"coopvec.outer_product_accumulate\"(%dy, %x, %G) :\n"
    "      (!coopvec.vec<4, f32>, !coopvec.vec<8, f32>,\n"
    "       !coopvec.matrix<4, 8, f32, \"row_major\">) -> ()\n"
    "  \"coopvec.reduce_sum_accumulate\"(%dy, %g, %c32) :\n"
    "      (!coopvec.vec<4, f32>, memref<?xf32>, index) -> ()\n"
    "  return\n"
    "}\n";

static const int kBatches[] = {1, 17, 64, 1000, 4099};
static const char *const kPipelines[] = {
    NULL, // the default: the host's lane count
    "builtin.module(coopvec-lower-to-cpu{lanes=4})",
    "builtin.module(coopvec-lower-to-cpu{lanes=8 row-block=2})",
    "builtin.module(coopvec-lower-to-cpu{lanes=1})",
};
enum { NUM_PIPELINES = sizeof(kPipelines) / sizeof(kPipelines[0]) };

/// Shared by every engine and thread: weights (read only) and gradients
/// (accumulated by the compiled code, read after all threads joined).
static float weights[WEIGHTS];
static float gradients[WEIGHTS];

/// Serializes failure messages only.
static pthread_mutex_t printLock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what, const char *detail) {
  pthread_mutex_lock(&printLock);
  fprintf(stderr, "FAIL: %s: %s\n", what, detail ? detail : "");
  pthread_mutex_unlock(&printLock);
  exit(1);
}

/// Small integers, different for every (seed, thread, element).
static float smallInt(unsigned seed, int64_t thread, int element) {
  uint64_t h = (uint64_t)seed * 2654435761u + (uint64_t)thread * 40503u +
               (uint64_t)element * 2246822519u;
  h ^= h >> 13;
  return (float)((int)(h % 5) - 2);
}

//===----------------------------------------------------------------------===//
// One engine and its runs
//===----------------------------------------------------------------------===//

typedef struct Worker {
  int id;
  int rounds;
  MlirContext ctx;          // phase 1: the worker's own; else shared
  CoopvecEngine *engine;    // phases 2 and 3: compiled by main
  pthread_mutex_t *lock;    // phase 3: taken around every call
  double expected[WEIGHTS]; // what this worker added to the gradients
  long runs;
} Worker;

static void check(CoopvecEngine *engine, CoopvecStatus status,
                  const char *what) {
  if (status != CoopvecStatusSuccess)
    fail(what,
         engine ? coopvecEngineGetError(engine) : coopvecStatusGetName(status));
}

static CoopvecEngine *compileEngine(MlirContext ctx, const char *pipeline) {
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  if (mlirModuleIsNull(module))
    fail("parse", "the module does not parse");
  CoopvecEngineOptions options = coopvecEngineOptionsGetDefault();
  options.pipeline = pipeline;
  CoopvecEngine *engine = NULL;
  check(engine,
        coopvecEngineCreate(mlirModuleGetOperation(module), &options, &engine),
        "create");
  // The engine keeps a clone: the module may go at once.
  mlirModuleDestroy(module);
  check(engine, coopvecEngineCompile(engine), "compile");
  return engine;
}

/// relu(W x + b) for one thread, in double (exact: small integers).
static void reference(const float *x, double *y) {
  for (int i = 0; i < OUT; ++i) {
    double sum = weights[BIAS + i];
    for (int j = 0; j < IN; ++j)
      sum += (double)weights[i * IN + j] * x[j];
    y[i] = sum > 0 ? sum : 0;
  }
}

/// One round: forward (checked) and backward (into the shared gradients).
static void runRound(Worker *worker, unsigned seed, int64_t batch,
                     int threads) {
  CoopvecFunction *forward = NULL, *backward = NULL;
  check(worker->engine,
        coopvecEngineLookup(worker->engine, "forward", &forward),
        "lookup forward");
  check(worker->engine,
        coopvecEngineLookup(worker->engine, "backward", &backward),
        "lookup backward");
  float *x = malloc(sizeof(float) * (size_t)batch * IN);
  float *y = malloc(sizeof(float) * (size_t)batch * OUT);
  float *dy = malloc(sizeof(float) * (size_t)batch * OUT);
  if (!x || !y || !dy)
    fail("malloc", NULL);
  for (int64_t t = 0; t < batch; ++t) {
    for (int j = 0; j < IN; ++j)
      x[t * IN + j] = smallInt(seed, t, j);
    for (int i = 0; i < OUT; ++i)
      dy[t * OUT + i] = smallInt(seed + 1, t, i);
  }
  CoopvecArray args[3] = {{x, CoopvecDTypeF32, batch * IN},
                          {weights, CoopvecDTypeF32, WEIGHTS}};
  CoopvecArray results[1] = {{y, CoopvecDTypeF32, batch * OUT}};
  check(worker->engine,
        coopvecFunctionRun(forward, batch, args, 2, results, 1, threads),
        "run forward");
  for (int64_t t = 0; t < batch; ++t) {
    double want[OUT];
    reference(&x[t * IN], want);
    for (int i = 0; i < OUT; ++i)
      if ((double)y[t * OUT + i] != want[i])
        fail("forward", "a result differs from the reference");
  }
  args[1] = (CoopvecArray){dy, CoopvecDTypeF32, batch * OUT};
  args[2] = (CoopvecArray){gradients, CoopvecDTypeF32, WEIGHTS};
  check(worker->engine,
        coopvecFunctionRun(backward, batch, args, 3, NULL, 0, threads),
        "run backward");
  for (int64_t t = 0; t < batch; ++t)
    for (int i = 0; i < OUT; ++i) {
      for (int j = 0; j < IN; ++j)
        worker->expected[i * IN + j] += (double)dy[t * OUT + i] * x[t * IN + j];
      worker->expected[BIAS + i] += dy[t * OUT + i];
    }
  worker->runs += 2;
  free(x);
  free(y);
  free(dy);
}

static void runRounds(Worker *worker) {
  for (int r = 0; r < worker->rounds; ++r) {
    int64_t batch = kBatches[(worker->id + r) % 5];
    int threads = 1 + (worker->id + r) % 4;
    if (worker->lock)
      pthread_mutex_lock(worker->lock);
    runRound(worker, (unsigned)(worker->id * 1000 + r), batch, threads);
    if (worker->lock)
      pthread_mutex_unlock(worker->lock);
  }
}

//===----------------------------------------------------------------------===//
// The phases
//===----------------------------------------------------------------------===//

/// Phase 1: a context and an engine of the worker's own, compiled
/// concurrently with the other workers'.
static void *ownEngine(void *userData) {
  Worker *worker = userData;
  worker->ctx = mlirContextCreate();
  if (mlirLogicalResultIsFailure(coopvecSetupContext(worker->ctx)))
    fail("setup", "coopvecSetupContext failed");
  worker->engine =
      compileEngine(worker->ctx, kPipelines[worker->id % NUM_PIPELINES]);
  runRounds(worker);
  coopvecEngineDestroy(worker->engine);
  mlirContextDestroy(worker->ctx);
  return NULL;
}

/// Phases 2 and 3: an engine compiled by main.
static void *givenEngine(void *userData) {
  runRounds(userData);
  return NULL;
}

static void startAll(Worker *workers, int count, void *(*body)(void *)) {
  pthread_t threads[MAX_HOST];
  for (int i = 0; i < count; ++i)
    if (pthread_create(&threads[i], NULL, body, &workers[i]) != 0)
      fail("pthread_create", NULL);
  for (int i = 0; i < count; ++i)
    pthread_join(threads[i], NULL);
}

static long sumExpected(const Worker *workers, int count,
                        double expected[WEIGHTS]) {
  long runs = 0;
  for (int i = 0; i < count; ++i) {
    for (int k = 0; k < WEIGHTS; ++k)
      expected[k] += workers[i].expected[k];
    runs += workers[i].runs;
  }
  return runs;
}

int main(int argc, char **argv) {
  int hosts = argc > 1 ? atoi(argv[1]) : 4;
  int rounds = argc > 2 ? atoi(argv[2]) : 3;
  if (hosts < 1 || hosts > MAX_HOST || rounds < 1) {
    fprintf(stderr, "usage: coopvec-stress [HOST_THREADS 1-16] [ROUNDS]\n");
    return 2;
  }
  for (int k = 0; k < WEIGHTS; ++k)
    weights[k] = smallInt(7, 0, k);
  double expected[WEIGHTS] = {0};
  long runs = 0;

  Worker workers[MAX_HOST];
  memset(workers, 0, sizeof(workers));
  for (int i = 0; i < hosts; ++i)
    workers[i] = (Worker){.id = i, .rounds = rounds};
  startAll(workers, hosts, ownEngine);
  runs += sumExpected(workers, hosts, expected);
  printf("phase 1: %d host threads, each its own context and engine\n", hosts);

  MlirContext ctx = mlirContextCreate();
  if (mlirLogicalResultIsFailure(coopvecSetupContext(ctx)))
    fail("setup", "coopvecSetupContext failed");
  CoopvecEngine *engines[MAX_HOST];
  memset(workers, 0, sizeof(workers));
  for (int i = 0; i < hosts; ++i) {
    engines[i] = compileEngine(ctx, kPipelines[i % NUM_PIPELINES]);
    workers[i] =
        (Worker){.id = i + 100, .rounds = rounds, .engine = engines[i]};
  }
  startAll(workers, hosts, givenEngine);
  runs += sumExpected(workers, hosts, expected);
  printf("phase 2: %d engines of one context, run concurrently\n", hosts);

  pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  memset(workers, 0, sizeof(workers));
  for (int i = 0; i < hosts; ++i)
    workers[i] = (Worker){
        .id = i + 200, .rounds = rounds, .engine = engines[0], .lock = &lock};
  startAll(workers, hosts, givenEngine);
  runs += sumExpected(workers, hosts, expected);
  printf("phase 3: one engine handed over between %d host threads\n", hosts);
  for (int i = 0; i < hosts; ++i)
    coopvecEngineDestroy(engines[i]);
  mlirContextDestroy(ctx);

  for (int k = 0; k < WEIGHTS; ++k)
    if ((double)gradients[k] != expected[k]) {
      fprintf(stderr, "FAIL: gradient %d is %.1f, expected %.1f\n", k,
              gradients[k], expected[k]);
      return 1;
    }
  printf("%ld runs, gradients exact: PASS\n", runs);
  return 0;
}
