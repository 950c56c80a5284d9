//===- CUDARun.c - The CUDA backend: one kernel launch per run ------------===//
//
// The kernel ABI of convert-coopvec-to-gpu (docs/execution-model.md, "GPU
// targets"): `@f_kernel(%n: index, args..., results...)` where every vec
// and memref is a memref<?xT> (or memref<SxT>) and scalars are passed as
// they are. In PTX, as LLVM lays out the lowered llvm.func:
//   index / i64      one .u64 parameter
//   f32 / f64        one .f32 / .f64 parameter
//   f16              one `.align 2 .b8 [2]` parameter (its bits)
//   memref           five: allocated pointer, aligned pointer, offset, size,
//                    stride (.u64 each): device buffer, same, 0, elements, 1
// cuLaunchKernel takes one pointer per parameter and copies as many bytes
// as the kernel's parameter declares, so a scalar is passed as a pointer to
// the caller's host value.
//
// A run allocates device buffers sized from the checked host arrays,
// copies the vec and memref arguments in, launches ceil(n / B) blocks of
// exactly B threads (the kernel's contract) between two events that time
// it, waits, copies the results and the memrefs the function may write
// back, and frees everything, also on failure. Nothing is copied back unless
// the kernel completed: a run that fails before or in the kernel leaves the
// caller's arrays as they were.
//
//===----------------------------------------------------------------------===//

#include "ExecutionEngine/CUDABackend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// A memref's five parameters.
enum { kMemRefWords = 5 };

/// The buffers and parameters of one launch. Slot s is argument s, then
/// result s - numArgs.
typedef struct Launch {
  CoopvecFunction *function;
  CoopvecCUDAState *state;
  const CoopvecArray *args, *results;
  intptr_t numSlots;
  CUdeviceptr *buffers; // per slot; 0 for scalars and empty arrays
  uint64_t *words;      // per slot: a memref's parameters
  void **params;        // what cuLaunchKernel reads
  int64_t n;
  /// The status buffer of a kernel that checks accesses at run time
  /// (Status.c): its words on the host, on the device, its parameters.
  int64_t *status;
  intptr_t statusWords;
  CUdeviceptr statusBuffer;
  uint64_t statusParams[kMemRefWords];
} Launch;

static const CoopvecArray *arrayOf(const Launch *launch, intptr_t slot) {
  intptr_t numArgs = launch->function->numArgs;
  return slot < numArgs ? &launch->args[slot]
                        : &launch->results[slot - numArgs];
}

static const CoopvecValueInfo *infoOf(const Launch *launch, intptr_t slot) {
  intptr_t numArgs = launch->function->numArgs;
  return slot < numArgs ? &launch->function->args[slot]
                        : &launch->function->results[slot - numArgs];
}

/// "argument #i" or "result #i" of @f, for messages.
static void describeSlot(const Launch *launch, intptr_t slot, char *text,
                         size_t size) {
  intptr_t numArgs = launch->function->numArgs;
  snprintf(text, size, "%s #%ld of @%s", slot < numArgs ? "argument" : "result",
           (long)(slot < numArgs ? slot : slot - numArgs),
           launch->function->name);
}

static CoopvecStatus failSlot(Launch *launch, CUresult result, const char *call,
                              intptr_t slot) {
  CoopvecEngine *engine = launch->function->engine;
  CoopvecStatus status =
      coopvecCUDAFail(engine, result, call, CoopvecStatusDeviceError);
  char what[256];
  describeSlot(launch, slot, what, sizeof(what));
  coopvecBufferAppendf(
      &engine->error, " (%s, %lld bytes)", what,
      (long long)arrayOf(launch, slot)->size *
          (long long)coopvecDTypeGetSize(arrayOf(launch, slot)->dtype));
  return status;
}

static size_t bytesOf(const CoopvecArray *array) {
  return (size_t)array->size * (size_t)coopvecDTypeGetSize(array->dtype);
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

/// Allocates the slot's device buffer; copies arguments in (results are
/// written by every valid thread, whole rows).
static CoopvecStatus upload(Launch *launch, intptr_t slot) {
  const CoopvecCUDADriver *driver = &launch->state->driver;
  const CoopvecArray *array = arrayOf(launch, slot);
  if (infoOf(launch, slot)->kind == CoopvecValueKindScalar || !array->size)
    return CoopvecStatusSuccess;
  CUresult result = driver->cuMemAlloc(&launch->buffers[slot], bytesOf(array));
  if (result != CUDA_SUCCESS) {
    launch->buffers[slot] = 0;
    return failSlot(launch, result, "cuMemAlloc", slot);
  }
  if (slot >= launch->function->numArgs)
    return CoopvecStatusSuccess;
  result =
      driver->cuMemcpyHtoD(launch->buffers[slot], array->data, bytesOf(array));
  return result == CUDA_SUCCESS
             ? CoopvecStatusSuccess
             : failSlot(launch, result, "cuMemcpyHtoD", slot);
}

/// Copies a result, or a memref the function may write, back to the host.
static CoopvecStatus download(Launch *launch, intptr_t slot) {
  const CoopvecValueInfo *info = infoOf(launch, slot);
  bool isResult = slot >= launch->function->numArgs;
  if (!launch->buffers[slot] ||
      !(isResult || (info->kind == CoopvecValueKindMemRef && info->written)))
    return CoopvecStatusSuccess;
  const CoopvecArray *array = arrayOf(launch, slot);
  CUresult result = launch->state->driver.cuMemcpyDtoH(
      array->data, launch->buffers[slot], bytesOf(array));
  return result == CUDA_SUCCESS
             ? CoopvecStatusSuccess
             : failSlot(launch, result, "cuMemcpyDtoH", slot);
}

//===----------------------------------------------------------------------===//
// Parameters
//===----------------------------------------------------------------------===//

/// Appends the slot's parameters at `*next`: a scalar by value (its host
/// element), anything else as a memref descriptor of its device buffer.
static void packSlot(Launch *launch, intptr_t slot, intptr_t *next) {
  const CoopvecArray *array = arrayOf(launch, slot);
  if (infoOf(launch, slot)->kind == CoopvecValueKindScalar) {
    launch->params[(*next)++] = array->data;
    return;
  }
  uint64_t *words = &launch->words[slot * kMemRefWords];
  words[0] = launch->buffers[slot]; // allocated
  words[1] = launch->buffers[slot]; // aligned
  words[2] = 0;                     // offset
  words[3] = (uint64_t)array->size; // size
  words[4] = 1;                     // stride
  for (int i = 0; i < kMemRefWords; ++i)
    launch->params[(*next)++] = &words[i];
}

static void pack(Launch *launch) {
  intptr_t next = 0;
  launch->params[next++] = &launch->n;
  for (intptr_t slot = 0; slot < launch->numSlots; ++slot)
    packSlot(launch, slot, &next);
  if (!launch->status)
    return;
  uint64_t *words = launch->statusParams;
  words[0] = words[1] = launch->statusBuffer;
  words[2] = 0;
  words[3] = (uint64_t)launch->statusWords;
  words[4] = 1;
  for (int i = 0; i < kMemRefWords; ++i)
    launch->params[next++] = &words[i];
}

//===----------------------------------------------------------------------===//
// The status buffer
//===----------------------------------------------------------------------===//

/// No access yet, and the sizes of the kernel's arguments (Status.c).
static CoopvecStatus uploadStatus(Launch *launch) {
  const CoopvecFunction *function = launch->function;
  if (!coopvecEngineChecksOf(function->engine, function->name))
    return CoopvecStatusSuccess;
  launch->statusWords = 3 + launch->numSlots;
  launch->status = calloc((size_t)launch->statusWords, sizeof(int64_t));
  if (!launch->status)
    return coopvecEngineFail(function->engine, CoopvecStatusOutOfMemory,
                             "out of memory");
  launch->status[1] = INT64_MAX;
  for (intptr_t slot = 0; slot < launch->numSlots; ++slot)
    launch->status[3 + slot] = arrayOf(launch, slot)->size;
  size_t bytes = (size_t)launch->statusWords * sizeof(int64_t);
  const CoopvecCUDADriver *driver = &launch->state->driver;
  CUresult result = driver->cuMemAlloc(&launch->statusBuffer, bytes);
  if (result == CUDA_SUCCESS)
    result = driver->cuMemcpyHtoD(launch->statusBuffer, launch->status, bytes);
  if (result == CUDA_SUCCESS)
    return CoopvecStatusSuccess;
  return coopvecCUDAFail(function->engine, result, "the status buffer",
                         CoopvecStatusDeviceError);
}

static CoopvecStatus downloadStatus(Launch *launch) {
  if (!launch->status)
    return CoopvecStatusSuccess;
  CUresult result = launch->state->driver.cuMemcpyDtoH(
      launch->status, launch->statusBuffer, 2 * sizeof(int64_t));
  if (result != CUDA_SUCCESS)
    return coopvecCUDAFail(launch->function->engine, result,
                           "the status buffer", CoopvecStatusDeviceError);
  return coopvecEngineReportAccesses(launch->function, launch->status[0],
                                     launch->status[1]);
}

//===----------------------------------------------------------------------===//
// The run
//===----------------------------------------------------------------------===//

static CoopvecCUDAKernel *findKernel(CoopvecFunction *function) {
  CoopvecCUDAState *state = function->engine->backendState;
  size_t length = strlen(function->name);
  for (intptr_t i = 0; i < state->numKernels; ++i) {
    const char *name = state->kernels[i].name;
    if (strncmp(name, function->name, length) == 0 &&
        strcmp(name + length, "_kernel") == 0)
      return &state->kernels[i];
  }
  return NULL;
}

static CoopvecStatus allocateLaunch(Launch *launch) {
  size_t slots = (size_t)launch->numSlots + 1;
  launch->buffers = calloc(slots, sizeof(CUdeviceptr));
  launch->words = calloc(slots * kMemRefWords, sizeof(uint64_t));
  // One more memref's parameters for the status buffer.
  launch->params = calloc(1 + (slots + 1) * kMemRefWords, sizeof(void *));
  if (launch->buffers && launch->words && launch->params)
    return CoopvecStatusSuccess;
  return coopvecEngineFail(launch->function->engine, CoopvecStatusOutOfMemory,
                           "out of memory");
}

/// The launch between two events: their interval is the kernel's own time
/// (coopvecEngineGetDeviceSeconds), without the copies around it.
typedef struct LaunchTimer {
  CUevent start, end;
} LaunchTimer;

static CoopvecStatus createTimer(Launch *launch, LaunchTimer *timer) {
  const CoopvecCUDADriver *driver = &launch->state->driver;
  CUresult result = driver->cuEventCreate(&timer->start, 0);
  if (result == CUDA_SUCCESS)
    result = driver->cuEventCreate(&timer->end, 0);
  if (result == CUDA_SUCCESS)
    return CoopvecStatusSuccess;
  return coopvecCUDAFail(launch->function->engine, result, "cuEventCreate",
                         CoopvecStatusDeviceError);
}

static void destroyTimer(Launch *launch, LaunchTimer *timer) {
  const CoopvecCUDADriver *driver = &launch->state->driver;
  if (timer->start)
    driver->cuEventDestroy(timer->start);
  if (timer->end)
    driver->cuEventDestroy(timer->end);
}

/// Seconds between the events, once the kernel completed.
static CoopvecStatus readTimer(Launch *launch, const LaunchTimer *timer) {
  const CoopvecCUDADriver *driver = &launch->state->driver;
  float milliseconds = 0;
  CUresult result =
      driver->cuEventElapsedTime(&milliseconds, timer->start, timer->end);
  if (result != CUDA_SUCCESS)
    return coopvecCUDAFail(launch->function->engine, result,
                           "cuEventElapsedTime", CoopvecStatusDeviceError);
  launch->function->engine->deviceSeconds = 1e-3 * (double)milliseconds;
  return CoopvecStatusSuccess;
}

static CoopvecStatus launchBetween(Launch *launch,
                                   const CoopvecCUDAKernel *kernel,
                                   const LaunchTimer *timer) {
  const CoopvecCUDADriver *driver = &launch->state->driver;
  CoopvecEngine *engine = launch->function->engine;
  unsigned blocks = (unsigned)((launch->n - 1) / kernel->blockSize + 1);
  pack(launch);
  CUresult result = driver->cuEventRecord(timer->start, NULL);
  if (result != CUDA_SUCCESS)
    return coopvecCUDAFail(engine, result, "cuEventRecord",
                           CoopvecStatusDeviceError);
  // A kernel declares its static shared memory; the dynamic, where
  // coopvec-prepare-nvvm placed its buffers there, is given here.
  result = driver->cuLaunchKernel(
      kernel->function, blocks, 1, 1, (unsigned)kernel->blockSize, 1, 1,
      (unsigned)kernel->dynamicWorkgroupMemory, NULL, launch->params, NULL);
  if (result != CUDA_SUCCESS)
    return coopvecCUDAFail(engine, result, "cuLaunchKernel",
                           CoopvecStatusDeviceError);
  result = driver->cuEventRecord(timer->end, NULL);
  if (result != CUDA_SUCCESS)
    return coopvecCUDAFail(engine, result, "cuEventRecord",
                           CoopvecStatusDeviceError);
  // Faults inside the kernel surface here.
  result = driver->cuCtxSynchronize();
  if (result != CUDA_SUCCESS)
    return coopvecCUDAFail(engine, result, "the kernel (cuCtxSynchronize)",
                           CoopvecStatusDeviceError);
  return readTimer(launch, timer);
}

static CoopvecStatus launchKernel(Launch *launch,
                                  const CoopvecCUDAKernel *kernel) {
  LaunchTimer timer = {NULL, NULL};
  CoopvecStatus status = createTimer(launch, &timer);
  if (!status)
    status = launchBetween(launch, kernel, &timer);
  destroyTimer(launch, &timer);
  return status;
}

/// Uploads, launches, downloads; the caller frees.
static CoopvecStatus runLaunch(Launch *launch,
                               const CoopvecCUDAKernel *kernel) {
  CoopvecStatus status = allocateLaunch(launch);
  for (intptr_t slot = 0; !status && slot < launch->numSlots; ++slot)
    status = upload(launch, slot);
  if (!status)
    status = uploadStatus(launch);
  if (!status)
    status = launchKernel(launch, kernel);
  for (intptr_t slot = 0; !status && slot < launch->numSlots; ++slot)
    status = download(launch, slot);
  if (!status)
    status = downloadStatus(launch);
  return status;
}

static void freeLaunch(Launch *launch) {
  for (intptr_t slot = 0; launch->buffers && slot < launch->numSlots; ++slot)
    if (launch->buffers[slot])
      launch->state->driver.cuMemFree(launch->buffers[slot]);
  if (launch->statusBuffer)
    launch->state->driver.cuMemFree(launch->statusBuffer);
  free(launch->status);
  free(launch->buffers);
  free(launch->words);
  free(launch->params);
}

/// The launch contract allows ceil(n / B) blocks up to the device's grid.
static CoopvecStatus checkGrid(CoopvecFunction *function,
                               const CoopvecCUDAKernel *kernel, int64_t n) {
  CoopvecCUDAState *state = function->engine->backendState;
  int64_t blocks = (n - 1) / kernel->blockSize + 1;
  if (blocks <= state->maxGridX)
    return CoopvecStatusSuccess;
  return coopvecEngineFail(function->engine, CoopvecStatusInvalidArgument,
                           "CUDA: a batch of %lld threads needs %lld blocks "
                           "of %lld; %s launches at most %d",
                           (long long)n, (long long)blocks,
                           (long long)kernel->blockSize, state->deviceName,
                           state->maxGridX);
}

CoopvecStatus coopvecCUDARun(CoopvecFunction *function, int64_t batch,
                             const CoopvecArray *args,
                             const CoopvecArray *results, int numThreads) {
  (void)numThreads; // host threads do not apply: the GPU runs the batch
  CoopvecEngine *engine = function->engine;
  engine->deviceSeconds = -1;
  CoopvecCUDAState *state = engine->backendState;
  const CoopvecCUDAKernel *kernel = findKernel(function);
  if (!kernel)
    return coopvecEngineFail(engine, CoopvecStatusNotFound,
                             "the lowered module has no kernel @%s_kernel",
                             function->name);
  if (batch == 0) // the contract: no launch for n = 0
    return CoopvecStatusSuccess;
  CoopvecStatus status = checkGrid(function, kernel, batch);
  if (status)
    return status;
  CUresult pushed = state->driver.cuCtxPushCurrent(state->context);
  if (pushed != CUDA_SUCCESS)
    return coopvecCUDAFail(engine, pushed, "cuCtxPushCurrent",
                           CoopvecStatusDeviceError);
  Launch launch = {.function = function,
                   .state = state,
                   .args = args,
                   .results = results,
                   .numSlots = function->numArgs + function->numResults,
                   .n = batch};
  status = runLaunch(&launch, kernel);
  freeLaunch(&launch);
  CUcontext popped;
  state->driver.cuCtxPopCurrent(&popped);
  return status;
}
