//===- CPURun.c - The CPU backend: run a batch on host threads ------------===//
//
// The ABI of lowered code (docs/execution-model.md): `@f_batched(%n, args...,
// results...)` with llvm.emit_c_interface; vec values are memref<?xT> of
// n*N elements, memrefs and scalars pass through. The packed entry point
// takes one pointer per argument of `_mlir_ciface_f_batched`: a pointer to
// a descriptor pointer for a memref, a pointer to the value for a scalar.
//
// The batch is cut into contiguous chunks of a multiple of 64 threads (up
// to 8 per host thread), each a call of the entry point on its slice of the
// vec buffers; host threads take chunks in turn, so a core that runs slower
// (another process, a hypervisor taking the vCPU) does not hold up the
// others. Chunks are multiples of 64 threads so that every chunk but the
// last fills whole lane groups (the lowering uses up to 64 lanes at powers
// of two): a thread's lane, and therefore its results, do not depend on the
// number of host threads. Shared memrefs are the same buffer in every
// chunk: accumulations are atomic adds in the compiled code; plain stores
// race, so the 64-thread group holding the last thread runs after all the
// others, and the last thread's store stays, as with one host thread
// (docs/execution-model.md). Buffers that reduce-mode=expand adds into
// without atomics (Expand.c) are the exception: each host thread gets its
// own zeroed copy, added into the buffer with atomics after the run (runs
// of other engines may add into the same buffer at once). Only an f16
// buffer's f32 shadow, which belongs to this run, is added into directly
// by the first host thread.
//
//===----------------------------------------------------------------------===//

// pthreads are POSIX, not C11.
#define _POSIX_C_SOURCE 200809L

#include "ExecutionEngine/Engine.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kChunkAlignment = 64, kChunksPerThread = 8 };

/// The most bytes of per-host-thread copies of expanded buffers one run
/// allocates (docs/execution-engine.md): beyond, fewer host threads run
/// (down to one).
static const int64_t kExpandBudgetBytes = (int64_t)256 << 20;
/// Under reduce-mode=auto, the expand variant runs when its copies take at
/// most this many bytes in all, else the atomic code on every host thread:
/// with larger copies, zeroing and merging them cost more than the
/// atomics they save (bench/scatter-add, docs/performance.md).
static const int64_t kAutoExpandBytes = (int64_t)8 << 20;

/// The C layout of a rank-1 memref descriptor.
typedef struct MemRef1D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
} MemRef1D;

/// The entry point of `@<name><variant>_batched` into `*entry`.
static CoopvecStatus resolve(CoopvecFunction *function, const char *variant,
                             CoopvecPackedFunction *entry) {
  if (*entry)
    return CoopvecStatusSuccess;
  char symbol[600];
  snprintf(symbol, sizeof(symbol), "_mlir_ciface_%s%s_batched", function->name,
           variant);
  *entry = (CoopvecPackedFunction)mlirExecutionEngineLookupPacked(
      function->engine->jit, mlirStringRefCreateFromCString(symbol));
  if (*entry)
    return CoopvecStatusSuccess;
  return coopvecEngineFail(function->engine, CoopvecStatusNotFound,
                           "the lowered module has no @%s%s_batched with "
                           "llvm.emit_c_interface",
                           function->name, variant);
}

static CoopvecStatus resolveEntry(CoopvecFunction *function) {
  return resolve(function, "", &function->entry);
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

/// One call of the entry point: threads [start, start + n), with its own
/// status words when the function checks accesses at run time (Status.c;
/// its thread numbers count from `start`).
typedef struct Call {
  CoopvecPackedFunction entry;
  int64_t n, start;
  int64_t status[2];
  MemRef1D *descriptors;
  MemRef1D **pointers;
  void **packed;
} Call;

static MemRef1D describe(const CoopvecArray *array, int64_t first,
                         int64_t count) {
  char *data = (char *)array->data + first * coopvecDTypeGetSize(array->dtype);
  MemRef1D descriptor = {data, data, 0, {count}, {1}};
  return descriptor;
}

/// Points slot `slot` of `call` at `array`: vecs at their rows [start,
/// start + n), memrefs whole, scalars by value.
static void bindSlot(Call *call, intptr_t slot, const CoopvecValueInfo *info,
                     const CoopvecArray *array, int64_t start) {
  if (info->kind == CoopvecValueKindScalar) {
    call->packed[slot] = array->data;
    return;
  }
  call->descriptors[slot] =
      info->kind == CoopvecValueKindVec
          ? describe(array, start * info->length, call->n * info->length)
          : describe(array, 0, array->size);
  call->pointers[slot] = &call->descriptors[slot];
  call->packed[slot] = &call->pointers[slot];
}

/// The trailing status argument: count 0, no first access yet.
static void bindStatus(Call *call, intptr_t slot) {
  call->status[0] = 0;
  call->status[1] = INT64_MAX;
  call->descriptors[slot] = (MemRef1D){call->status, call->status, 0, {2}, {1}};
  call->pointers[slot] = &call->descriptors[slot];
  call->packed[slot] = &call->pointers[slot];
}

static void bindCall(Call *call, const CoopvecFunction *function,
                     const CoopvecArray *args, const CoopvecArray *results,
                     int64_t start, bool checked) {
  call->entry = function->entry;
  call->start = start;
  call->packed[0] = &call->n;
  for (intptr_t i = 0; i < function->numArgs; ++i)
    bindSlot(call, 1 + i, &function->args[i], &args[i], start);
  for (intptr_t i = 0; i < function->numResults; ++i)
    bindSlot(call, 1 + function->numArgs + i, &function->results[i],
             &results[i], start);
  if (checked)
    bindStatus(call, 1 + function->numArgs + function->numResults);
}

static void runCall(Call *call) { call->entry(call->packed); }

/// The calls of one run: `numParallel` chunks that host threads take in
/// turn, then (for functions that store) the 64-thread group holding the
/// last thread.
typedef struct Plan {
  Call *calls;
  intptr_t numCalls, numParallel;
  atomic_intptr_t next; // the next chunk to take
  MemRef1D *descriptors;
  MemRef1D **pointers;
  void **packed;
  pthread_t *threads;
  struct Worker *workers;
  /// reduce-mode=expand (Expand.c): the expanded arguments, and the copies
  /// of host threads 0 .. hosts-1 (copies[host * count + i]; NULL where
  /// host 0 adds into a shadow of this run itself).
  const CoopvecExpandTable *expand;
  void **copies;
  int hosts;
} Plan;

typedef struct Worker {
  Plan *plan;
  int host; // 0: the calling thread
} Worker;

/// Points the expanded arguments of `call` at host `host`'s copies.
static void useCopies(const Plan *plan, Call *call, int host) {
  if (!plan->expand)
    return;
  for (intptr_t i = 0; i < plan->expand->count; ++i) {
    MemRef1D *descriptor = &call->descriptors[1 + plan->expand->args[i]];
    void *copy = plan->copies[(size_t)host * plan->expand->count + i];
    if (copy)
      descriptor->allocated = descriptor->aligned = copy;
  }
}

/// A host thread: takes chunks until none is left. Taking them one at a
/// time (rather than one fixed share per thread) keeps every core busy
/// when some run slower (another process, a hypervisor taking a vCPU).
static void *work(void *userData) {
  Worker *worker = userData;
  Plan *plan = worker->plan;
  intptr_t i;
  while ((i = atomic_fetch_add(&plan->next, 1)) < plan->numParallel) {
    useCopies(plan, &plan->calls[i], worker->host);
    runCall(&plan->calls[i]);
  }
  return NULL;
}

/// Runs the chunks on `threads` host threads, this one included (fewer if
/// threads cannot be created: the others take their chunks), then the
/// last thread's group.
static void runPlan(Plan *plan, int threads) {
  pthread_attr_t attr;
  // Lowered code keeps its tiles on the stack; do not depend on the
  // platform's default thread stack size.
  bool initialized = pthread_attr_init(&attr) == 0;
  bool hasAttr = initialized && pthread_attr_setstacksize(&attr, 8u << 20) == 0;
  int helpers =
      plan->numParallel < threads ? (int)plan->numParallel - 1 : threads - 1;
  int started = 0;
  // helpers is -1 for an empty batch: the calling thread still looks.
  for (int host = 0; host == 0 || host <= helpers; ++host)
    plan->workers[host] = (Worker){plan, host};
  while (started < helpers &&
         pthread_create(&plan->threads[started], hasAttr ? &attr : NULL, work,
                        &plan->workers[started + 1]) == 0)
    ++started;
  work(&plan->workers[0]);
  for (int i = 0; i < started; ++i)
    pthread_join(plan->threads[i], NULL);
  if (initialized)
    pthread_attr_destroy(&attr);
  if (plan->numCalls > plan->numParallel)
    runCall(&plan->calls[plan->numParallel]);
}

/// Chunks of [0, total) for `threads` threads: their number and `*size`, a
/// multiple of 64 threads; up to kChunksPerThread per host thread, and one
/// call for one thread (nothing to balance).
static intptr_t chunkCount(int64_t total, int threads, int64_t *size) {
  if (total == 0)
    return 0;
  int64_t chunks = threads == 1 ? 1 : (int64_t)threads * kChunksPerThread;
  int64_t even = (total - 1) / chunks + 1;
  int64_t groups = (even - 1) / kChunkAlignment + 1;
  *size = groups > total / kChunkAlignment ? total : groups * kChunkAlignment;
  return (intptr_t)((total - 1) / *size + 1);
}

static CoopvecStatus allocatePlan(CoopvecFunction *function, int threads,
                                  Plan *plan) {
  size_t calls = (size_t)plan->numCalls;
  size_t slots = 2 + (size_t)(function->numArgs + function->numResults);
  plan->calls = calloc(calls + 1, sizeof(Call));
  plan->descriptors = calloc(calls * slots + 1, sizeof(MemRef1D));
  plan->pointers = calloc(calls * slots + 1, sizeof(MemRef1D *));
  plan->packed = calloc(calls * slots + 1, sizeof(void *));
  plan->threads = calloc((size_t)threads + 1, sizeof(pthread_t));
  plan->workers = calloc((size_t)threads + 1, sizeof(Worker));
  if (plan->calls && plan->descriptors && plan->pointers && plan->packed &&
      plan->threads && plan->workers)
    return CoopvecStatusSuccess;
  return coopvecEngineFail(function->engine, CoopvecStatusOutOfMemory,
                           "out of memory");
}

static CoopvecStatus makePlan(CoopvecFunction *function, int64_t batch,
                              int threads, const CoopvecArray *args,
                              const CoopvecArray *results, Plan *plan) {
  int64_t parallelEnd = function->ordered && batch
                            ? (batch - 1) / kChunkAlignment * kChunkAlignment
                            : batch;
  int64_t size = 0;
  plan->numParallel = chunkCount(parallelEnd, threads, &size);
  plan->numCalls = plan->numParallel + (parallelEnd < batch);
  atomic_init(&plan->next, 0);
  CoopvecStatus status = allocatePlan(function, threads, plan);
  size_t slots = 2 + (size_t)(function->numArgs + function->numResults);
  bool checked = coopvecEngineChecksOf(function->engine, function->name);
  for (intptr_t i = 0; !status && i < plan->numCalls; ++i) {
    Call *call = &plan->calls[i];
    int64_t start = parallelEnd, end = batch; // the last thread's group
    if (i < plan->numParallel) {
      start = i * size;
      end = size < parallelEnd - start ? start + size : parallelEnd;
    }
    call->n = end - start;
    call->descriptors = &plan->descriptors[(size_t)i * slots];
    call->pointers = &plan->pointers[(size_t)i * slots];
    call->packed = &plan->packed[(size_t)i * slots];
    bindCall(call, function, args, results, start, checked);
  }
  return status;
}

static void freePlan(Plan *plan) {
  if (plan->copies && plan->expand)
    for (size_t i = 0; i < (size_t)plan->hosts * plan->expand->count; ++i)
      free(plan->copies[i]);
  free(plan->copies);
  free(plan->workers);
  free(plan->calls);
  free(plan->descriptors);
  free(plan->pointers);
  free(plan->packed);
  free(plan->threads);
}

/// The calls' status words together: every call's count, and the first
/// access by the lowest thread of the batch.
static CoopvecStatus reportPlan(CoopvecFunction *function, const Plan *plan) {
  int64_t count = 0, key = INT64_MAX;
  for (intptr_t i = 0; i < plan->numCalls; ++i) {
    const Call *call = &plan->calls[i];
    if (call->status[0] == 0)
      continue;
    count += call->status[0];
    int64_t first = ((call->start + (call->status[1] >> 16)) << 16) |
                    (call->status[1] & 0xffff);
    key = first < key ? first : key;
  }
  return coopvecEngineReportAccesses(function, count, key);
}

/// The host threads a run may use with the copies of its expanded buffers
/// within `budget` bytes.
static int hostsForCopies(const CoopvecExpandTable *expand,
                          const CoopvecArray *args, int threads,
                          int64_t budget) {
  int64_t bytes = 0;
  for (intptr_t i = 0; expand && i < expand->count; ++i) {
    const CoopvecArray *arg = &args[expand->args[i]];
    bytes += arg->size * coopvecDTypeGetSize(arg->dtype);
  }
  if (bytes == 0 || threads * bytes <= budget)
    return threads;
  return budget / bytes > 1 ? (int)(budget / bytes) : 1;
}

/// reduce-mode=auto: the expand variant of `function` when it has one and
/// its copies for `threads` host threads fit kAutoExpandBytes (then
/// `*entry` is its entry point); NULL to run the function itself.
static const CoopvecExpandTable *autoVariant(CoopvecFunction *function,
                                             const CoopvecArray *args,
                                             int threads,
                                             CoopvecStatus *status) {
  char name[600];
  snprintf(name, sizeof(name), "%s.expand", function->name);
  const CoopvecExpandTable *variant =
      coopvecEngineExpandedOf(function->engine, name);
  if (!variant ||
      hostsForCopies(variant, args, threads, kAutoExpandBytes) < threads)
    return NULL;
  *status = resolve(function, ".expand", &function->expandEntry);
  return variant;
}

/// Whether argument `index` is an f32 shadow of this run (Shadows.c), not
/// a buffer the caller may share with concurrent runs.
static bool isShadowOfRun(const CoopvecFunction *function, int64_t index) {
  return function->engine->shadows && function->shadowed &&
         function->shadowed[index];
}

/// Zeroed copies of the expanded buffers for every host thread, but for
/// host 0's of a shadow (it adds into the shadow itself).
static CoopvecStatus allocateCopies(CoopvecFunction *function,
                                    const CoopvecArray *args, Plan *plan) {
  intptr_t count = plan->expand->count;
  plan->copies = calloc((size_t)plan->hosts * count + 1, sizeof(void *));
  bool ok = plan->copies != NULL;
  for (int host = 0; ok && host < plan->hosts; ++host)
    for (intptr_t i = 0; ok && i < count; ++i) {
      const CoopvecArray *arg = &args[plan->expand->args[i]];
      if (host == 0 && isShadowOfRun(function, plan->expand->args[i]))
        continue;
      ok =
          (plan->copies[(size_t)host * count + i] = calloc(
               (size_t)arg->size + 1, (size_t)coopvecDTypeGetSize(arg->dtype)));
    }
  return ok ? CoopvecStatusSuccess
            : coopvecEngineFail(function->engine, CoopvecStatusOutOfMemory,
                                "out of memory for the per-thread copies of "
                                "reduce-mode=expand");
}

CoopvecStatus coopvecCPURun(CoopvecFunction *function, int64_t batch,
                            const CoopvecArray *args,
                            const CoopvecArray *results, int numThreads) {
  CoopvecStatus status = resolveEntry(function);
  int threads = numThreads ? numThreads : coopvecGetDefaultNumThreads();
  Plan plan;
  memset(&plan, 0, sizeof(plan));
  plan.expand = coopvecEngineExpandedOf(function->engine, function->name);
  const CoopvecExpandTable *variant =
      plan.expand || status ? NULL
                            : autoVariant(function, args, threads, &status);
  if (plan.expand)
    threads = hostsForCopies(plan.expand, args, threads, kExpandBudgetBytes);
  if (variant)
    plan.expand = variant;
  plan.hosts = threads;
  if (!status)
    status = makePlan(function, batch, threads, args, results, &plan);
  for (intptr_t i = 0; !status && variant && i < plan.numCalls; ++i)
    plan.calls[i].entry = function->expandEntry;
  if (!status && plan.expand)
    status = allocateCopies(function, args, &plan);
  if (!status)
    runPlan(&plan, threads);
  if (!status && plan.expand)
    coopvecExpandMerge(plan.expand, args, plan.copies, plan.hosts);
  if (!status)
    status = reportPlan(function, &plan);
  freePlan(&plan);
  return status;
}
