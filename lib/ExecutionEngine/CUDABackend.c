//===- CUDABackend.c - The CUDA backend: device, lowering, PTX ------------===//
//
// Compiling for CUDA:
//   1. load the driver (CUDADriver.c) and open device
//      CoopvecEngineOptions.device, 0 by default (CUDA_VISIBLE_DEVICES
//      chooses which GPUs count): its compute capability picks the chip;
//   2. lower a clone with the engine's pipeline, by default
//      coopvec-lower-to-nvvm{chip=sm_XY binary=false}, which stops before
//      gpu-module-to-binary;
//   3. read each kernel's launch contract (coopvec.block_size,
//      coopvec.workgroup_memory, coopvec.dynamic_workgroup_memory) from the
//      lowered gpu.module: PTX keeps only `.maxntid`, an upper bound, and
//      the kernels need exactly their block size (thread = block_id * B +
//      thread_id) and the dynamic shared memory coopvec-prepare-nvvm gave
//      them (beyond 48 KiB: allowed by cuFuncSetAttribute, given at
//      launch);
//   4. serialize (gpu-module-to-binary{format=isa}), take the PTX
//      (coopvecEmitGPU) and let the driver JIT-compile it for the device
//      (cuModuleLoadDataEx, whose error log becomes the message).
// Every driver call runs with the device's primary context pushed and
// popped again, so a caller's own CUDA context is left as it was, and
// engines share the device with the CUDA runtime (cuBLAS, frameworks).
//
//===----------------------------------------------------------------------===//

// clock_gettime(CLOCK_MONOTONIC) is POSIX, not C11.
#define _POSIX_C_SOURCE 200809L

#include "ExecutionEngine/CUDABackend.h"
#include "ExecutionEngine/Shadows.h"

#include "Target/NVPTXTarget.h"

#include "coopvec-c/Support.h"
#include "coopvec-c/Target.h"

#include <mlir-c/BuiltinAttributes.h>

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/// The oldest GPUs coopvec-prepare-nvvm accepts (shfl.sync, f16 wmma).
enum { kMinSMVersion = 70, kJitLogBytes = 8192 };

static const char kSerializePipeline[] =
    "builtin.module(gpu-module-to-binary{format=isa})";

static double nowSeconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

CoopvecStatus coopvecCUDAFail(CoopvecEngine *engine, CUresult result,
                              const char *call, CoopvecStatus otherwise) {
  const CoopvecCUDAState *state = engine->backendState;
  coopvecBufferClear(&engine->error);
  coopvecBufferAppendStr(&engine->error, "CUDA: ");
  coopvecCUDACheck(&state->driver, result, call, &engine->error);
  return result == CUDA_ERROR_OUT_OF_MEMORY ? CoopvecStatusOutOfMemory
                                            : otherwise;
}

/// Starts the engine's message with "CUDA: <formatted>"; returns `status`.
static CoopvecStatus failWith(CoopvecEngine *engine, CoopvecStatus status,
                              const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static CoopvecStatus failWith(CoopvecEngine *engine, CoopvecStatus status,
                              const char *format, ...) {
  char message[1024];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  return coopvecEngineFail(engine, status, "CUDA: %s", message);
}

//===----------------------------------------------------------------------===//
// The device
//===----------------------------------------------------------------------===//

static CoopvecStatus readAttribute(CoopvecEngine *engine, int attribute,
                                   int *value) {
  CoopvecCUDAState *state = engine->backendState;
  CUresult result =
      state->driver.cuDeviceGetAttribute(value, attribute, state->device);
  if (result == CUDA_SUCCESS)
    return CoopvecStatusSuccess;
  return coopvecCUDAFail(engine, result, "cuDeviceGetAttribute",
                         CoopvecStatusNoDevice);
}

static CoopvecStatus describeDevice(CoopvecEngine *engine) {
  CoopvecCUDAState *state = engine->backendState;
  int major = 0, minor = 0;
  CoopvecStatus status = readAttribute(
      engine, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &major);
  if (!status)
    status = readAttribute(engine, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                           &minor);
  if (!status)
    status =
        readAttribute(engine, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
                      &state->maxSharedMemory);
  if (!status)
    status = readAttribute(
        engine, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
        &state->maxSharedMemoryOptin);
  if (!status)
    status = readAttribute(engine, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
                           &state->maxGridX);
  if (status)
    return status;
  if (state->driver.cuDeviceGetName(state->deviceName,
                                    (int)sizeof(state->deviceName),
                                    state->device) != CUDA_SUCCESS)
    snprintf(state->deviceName, sizeof(state->deviceName), "unnamed GPU");
  state->smVersion = 10 * major + minor;
  if (state->smVersion >= kMinSMVersion)
    return CoopvecStatusSuccess;
  return failWith(engine, CoopvecStatusNoDevice,
                  "device %d (%s) has compute capability %d.%d; the NVIDIA "
                  "target needs 7.0 (sm_70) or newer",
                  engine->device, state->deviceName, major, minor);
}

/// Loads the driver, opens the engine's device and retains its primary
/// context.
static CoopvecStatus openDevice(CoopvecEngine *engine) {
  CoopvecCUDAState *state = engine->backendState;
  CoopvecBuffer reason = {0};
  bool loaded = coopvecCUDADriverLoad(&state->driver, &reason);
  if (!loaded)
    coopvecEngineFail(engine, CoopvecStatusNoDevice, "%s",
                      coopvecBufferStr(&reason));
  coopvecBufferFree(&reason);
  if (!loaded)
    return CoopvecStatusNoDevice;
  int count = 0;
  CUresult result = state->driver.cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS)
    return coopvecCUDAFail(engine, result, "cuDeviceGetCount",
                           CoopvecStatusNoDevice);
  if (count == 0)
    return failWith(engine, CoopvecStatusNoDevice,
                    "no device (the NVIDIA driver found no GPU; "
                    "CUDA_VISIBLE_DEVICES may hide them)");
  if (engine->device >= count)
    return failWith(engine, CoopvecStatusNoDevice,
                    "no device %d: there %s %d (0 to %d)", engine->device,
                    count == 1 ? "is" : "are", count, count - 1);
  result = state->driver.cuDeviceGet(&state->device, engine->device);
  if (result != CUDA_SUCCESS)
    return coopvecCUDAFail(engine, result, "cuDeviceGet",
                           CoopvecStatusNoDevice);
  CoopvecStatus status = describeDevice(engine);
  if (status)
    return status;
  result =
      state->driver.cuDevicePrimaryCtxRetain(&state->context, state->device);
  if (result != CUDA_SUCCESS) {
    state->context = NULL;
    return coopvecCUDAFail(engine, result, "cuDevicePrimaryCtxRetain",
                           CoopvecStatusDeviceError);
  }
  return CoopvecStatusSuccess;
}

//===----------------------------------------------------------------------===//
// Launch contracts
//===----------------------------------------------------------------------===//

static MlirAttribute attributeOf(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op,
                                         mlirStringRefCreateFromCString(name));
}

/// x of an `array<i32: x, 1, 1>` attribute, or -1.
static int64_t blockOfArray(MlirAttribute attr) {
  if (mlirAttributeIsNull(attr) || !mlirAttributeIsADenseI32Array(attr) ||
      mlirDenseArrayGetNumElements(attr) != 3 ||
      mlirDenseI32ArrayGetElement(attr, 1) != 1 ||
      mlirDenseI32ArrayGetElement(attr, 2) != 1)
    return -1;
  return mlirDenseI32ArrayGetElement(attr, 0);
}

/// The exact block size of a kernel: convert-coopvec-to-gpu's
/// coopvec.block_size, else an exact upstream attribute (a kernel lowered
/// by hand). nvvm.maxntid is only a bound and does not count.
static int64_t blockSizeOf(MlirOperation func) {
  MlirAttribute attr = attributeOf(func, "coopvec.block_size");
  if (!mlirAttributeIsNull(attr) && mlirAttributeIsAInteger(attr))
    return mlirIntegerAttrGetValueInt(attr);
  int64_t size = blockOfArray(attributeOf(func, "gpu.known_block_size"));
  return size > 0 ? size : blockOfArray(attributeOf(func, "nvvm.reqntid"));
}

static int64_t integerAttributeOf(MlirOperation func, const char *name) {
  MlirAttribute attr = attributeOf(func, name);
  return !mlirAttributeIsNull(attr) && mlirAttributeIsAInteger(attr)
             ? mlirIntegerAttrGetValueInt(attr)
             : 0;
}

/// Reads the kernel's workgroup memory and checks that the device gives
/// it: static up to the device's limit per block (48 KiB), dynamic
/// (coopvec-prepare-nvvm's placement beyond that) up to the limit a kernel
/// may be allowed (227 KiB on an H100 / H200).
static CoopvecStatus checkSharedMemory(CoopvecEngine *engine,
                                       MlirOperation func,
                                       CoopvecCUDAKernel *kernel) {
  CoopvecCUDAState *state = engine->backendState;
  kernel->workgroupMemory =
      integerAttributeOf(func, "coopvec.workgroup_memory");
  kernel->dynamicWorkgroupMemory =
      integerAttributeOf(func, "coopvec.dynamic_workgroup_memory");
  bool dynamic = kernel->dynamicWorkgroupMemory > 0;
  int64_t needs =
      dynamic ? kernel->dynamicWorkgroupMemory : kernel->workgroupMemory;
  int limit = dynamic ? state->maxSharedMemoryOptin : state->maxSharedMemory;
  if (needs <= limit)
    return CoopvecStatusSuccess;
  if (dynamic)
    return failWith(engine, CoopvecStatusCompileError,
                    "kernel @%s needs %lld bytes of dynamic workgroup memory; "
                    "%s has %d per block (lower with a smaller block-size or "
                    "workgroup-memory)",
                    kernel->name, (long long)needs, state->deviceName, limit);
  return failWith(engine, CoopvecStatusCompileError,
                  "kernel @%s needs %lld bytes of workgroup memory; %s has "
                  "%d per block (lower with a smaller block-size)",
                  kernel->name, (long long)needs, state->deviceName, limit);
}

static bool isKernel(MlirOperation op) {
  return coopvecOpIsNamed(op, "llvm.func") &&
         (!mlirAttributeIsNull(attributeOf(op, "nvvm.kernel")) ||
          !mlirAttributeIsNull(attributeOf(op, "gpu.kernel")));
}

static CoopvecStatus addKernel(CoopvecEngine *engine, MlirOperation func) {
  CoopvecCUDAState *state = engine->backendState;
  MlirStringRef name = mlirStringAttrGetValue(attributeOf(func, "sym_name"));
  int64_t blockSize = blockSizeOf(func);
  if (blockSize < 1 || blockSize > 1024)
    return failWith(engine, CoopvecStatusCompileError,
                    "kernel @%.*s has no launch contract the engine can use "
                    "(coopvec.block_size, gpu.known_block_size or "
                    "nvvm.reqntid = [B, 1, 1], 1 <= B <= 1024)",
                    (int)name.length, name.data);
  CoopvecCUDAKernel *grown =
      realloc(state->kernels,
              (size_t)(state->numKernels + 1) * sizeof(CoopvecCUDAKernel));
  if (!grown)
    return coopvecEngineFail(engine, CoopvecStatusOutOfMemory, "out of memory");
  state->kernels = grown;
  CoopvecCUDAKernel *kernel = &state->kernels[state->numKernels];
  memset(kernel, 0, sizeof(*kernel));
  kernel->name = calloc(name.length + 1, 1);
  if (!kernel->name)
    return coopvecEngineFail(engine, CoopvecStatusOutOfMemory, "out of memory");
  memcpy(kernel->name, name.data, name.length);
  ++state->numKernels;
  kernel->blockSize = blockSize;
  return checkSharedMemory(engine, func, kernel);
}

/// The gpu.module's chip must be one the device runs: PTX runs on its own
/// and later architectures, sm_XYa code on sm_XY only.
static CoopvecStatus checkChip(CoopvecEngine *engine, MlirOperation gpuModule) {
  CoopvecCUDAState *state = engine->backendState;
  MlirAttribute targets = attributeOf(gpuModule, "targets");
  CoopvecNVVMTarget target;
  intptr_t count =
      !mlirAttributeIsNull(targets) && mlirAttributeIsAArray(targets)
          ? mlirArrayAttrGetNumElements(targets)
          : 0;
  if (count != 1 ||
      !coopvecReadNVVMTarget(mlirArrayAttrGetElement(targets, 0), &target))
    return failWith(engine, CoopvecStatusCompileError,
                    "the lowered gpu.module needs exactly one #nvvm.target "
                    "(it has %ld targets)",
                    (long)count);
  int version = coopvecNVPTXChipVersion(target.chip);
  size_t length = strlen(target.chip);
  bool specific = length && !isdigit((unsigned char)target.chip[length - 1]);
  if (version >= 0 &&
      (specific ? version == state->smVersion : version <= state->smVersion))
    return CoopvecStatusSuccess;
  return failWith(engine, CoopvecStatusHostMismatch,
                  "the kernels were compiled for %s, which device %d (%s, "
                  "sm_%d) cannot run",
                  target.chip, engine->device, state->deviceName,
                  state->smVersion);
}

static CoopvecStatus readModule(CoopvecEngine *engine,
                                MlirOperation gpuModule) {
  CoopvecStatus status = checkChip(engine, gpuModule);
  MlirBlock body =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(gpuModule, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !status && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (isKernel(op))
      status = addKernel(engine, op);
  return status;
}

/// Reads the launch contract of every kernel of the lowered module.
static CoopvecStatus readKernels(CoopvecEngine *engine, MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  int gpuModules = 0, binaries = 0;
  CoopvecStatus status = CoopvecStatusSuccess;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !status && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    binaries += coopvecOpIsNamed(op, "gpu.binary");
    if (coopvecOpIsNamed(op, "gpu.module")) {
      ++gpuModules;
      status = readModule(engine, op);
    }
  }
  if (status || gpuModules == 1)
    return status;
  if (gpuModules > 1)
    return failWith(engine, CoopvecStatusCompileError,
                    "the lowered module holds %d gpu.module ops; the engine "
                    "loads exactly one",
                    gpuModules);
  return failWith(
      engine, CoopvecStatusCompileError, "%s",
      binaries ? "the pipeline already ran gpu-module-to-binary: the engine "
                 "reads each kernel's launch contract (coopvec.block_size) "
                 "from the gpu.module and serializes it itself, so the "
                 "pipeline must stop before (coopvec-lower-to-nvvm{... "
                 "binary=false})"
               : "the lowered module has no gpu.module: the pipeline must "
                 "lower to a gpu.module in the NVVM dialect "
                 "(coopvec-lower-to-nvvm{... binary=false})");
}

//===----------------------------------------------------------------------===//
// PTX and the driver's module
//===----------------------------------------------------------------------===//

/// gpu-module-to-binary, then the PTX text, NUL-terminated for the driver.
static CoopvecStatus serialize(CoopvecEngine *engine, MlirOperation module,
                               CoopvecBuffer *ptx) {
  CoopvecStatus status = coopvecEngineLower(engine, module, kSerializePipeline);
  if (status)
    return status;
  CoopvecBuffer error = {0};
  bool ok = mlirLogicalResultIsSuccess(
      coopvecEmitGPU(module, CoopvecEmitPTX, coopvecBufferCallback, ptx,
                     coopvecBufferCallback, &error));
  if (!ok)
    failWith(engine, CoopvecStatusCompileError, "no PTX: %s",
             coopvecBufferStr(&error));
  coopvecBufferFree(&error);
  // coopvecBufferStr keeps the text NUL-terminated; the object's text in
  // the attribute is not.
  return ok ? CoopvecStatusSuccess : CoopvecStatusCompileError;
}

/// cuModuleLoadDataEx with the JIT's error log in the message.
static CoopvecStatus loadPTX(CoopvecEngine *engine, const char *ptx) {
  CoopvecCUDAState *state = engine->backendState;
  char log[kJitLogBytes] = {0};
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  // The driver API passes the log size in a pointer-sized slot.
  void *values[] = {log, (void *)(uintptr_t)sizeof(log)}; // NOLINT
  CUresult result =
      state->driver.cuModuleLoadDataEx(&state->module, ptx, 2, options, values);
  if (result == CUDA_SUCCESS)
    return CoopvecStatusSuccess;
  state->module = NULL;
  CoopvecStatus status = coopvecCUDAFail(engine, result, "cuModuleLoadDataEx",
                                         CoopvecStatusCompileError);
  log[sizeof(log) - 1] = '\0';
  if (log[0])
    coopvecBufferAppendf(&engine->error, "\n%s", log);
  return status;
}

/// The kernel's handle, and a check that the device can give it its block.
static CoopvecStatus resolveKernel(CoopvecEngine *engine,
                                   CoopvecCUDAKernel *kernel) {
  CoopvecCUDAState *state = engine->backendState;
  const char *call = "cuModuleGetFunction";
  CUresult result = state->driver.cuModuleGetFunction(
      &kernel->function, state->module, kernel->name);
  int maxThreads = 0, registers = 0;
  if (result == CUDA_SUCCESS) {
    call = "cuFuncGetAttribute";
    result = state->driver.cuFuncGetAttribute(
        &maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, kernel->function);
  }
  if (result == CUDA_SUCCESS)
    result = state->driver.cuFuncGetAttribute(
        &registers, CU_FUNC_ATTRIBUTE_NUM_REGS, kernel->function);
  // Dynamic shared memory beyond 48 KiB must be allowed per kernel.
  if (result == CUDA_SUCCESS && kernel->dynamicWorkgroupMemory > 0) {
    call = "cuFuncSetAttribute";
    result = state->driver.cuFuncSetAttribute(
        kernel->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        (int)kernel->dynamicWorkgroupMemory);
  }
  if (result != CUDA_SUCCESS) {
    CoopvecStatus status =
        coopvecCUDAFail(engine, result, call, CoopvecStatusCompileError);
    coopvecBufferAppendf(&engine->error, " (kernel @%s)", kernel->name);
    return status;
  }
  if (maxThreads >= kernel->blockSize)
    return CoopvecStatusSuccess;
  return failWith(engine, CoopvecStatusCompileError,
                  "kernel @%s runs in blocks of %lld threads, but with its "
                  "%d registers per thread %s allows %d (lower with a smaller "
                  "block-size)",
                  kernel->name, (long long)kernel->blockSize, registers,
                  state->deviceName, maxThreads);
}

static CoopvecStatus load(CoopvecEngine *engine, const char *ptx) {
  CoopvecCUDAState *state = engine->backendState;
  CUresult pushed = state->driver.cuCtxPushCurrent(state->context);
  if (pushed != CUDA_SUCCESS)
    return coopvecCUDAFail(engine, pushed, "cuCtxPushCurrent",
                           CoopvecStatusDeviceError);
  CoopvecStatus status = loadPTX(engine, ptx);
  for (intptr_t i = 0; !status && i < state->numKernels; ++i)
    status = resolveKernel(engine, &state->kernels[i]);
  CUcontext popped;
  state->driver.cuCtxPopCurrent(&popped);
  return status;
}

//===----------------------------------------------------------------------===//
// The backend
//===----------------------------------------------------------------------===//

static CoopvecStatus lowerForDevice(CoopvecEngine *engine,
                                    MlirOperation module) {
  CoopvecCUDAState *state = engine->backendState;
  if (engine->pipeline)
    return coopvecEngineLower(engine, module, engine->pipeline);
  char chip[32];
  if (!coopvecNVPTXChipForDevice(state->smVersion, chip, sizeof(chip)))
    return failWith(engine, CoopvecStatusCompileError,
                    "LLVM's NVPTX backend knows no chip for sm_%d (%s)",
                    state->smVersion, state->deviceName);
  CoopvecBuffer pipeline = {0};
  coopvecBufferAppendf(
      &pipeline,
      "builtin.module(coopvec-lower-to-nvvm{chip=%s binary=false%s%s})", chip,
      engine->pipelineOptions ? " " : "",
      engine->pipelineOptions ? engine->pipelineOptions : "");
  CoopvecStatus status =
      coopvecEngineLower(engine, module, coopvecBufferStr(&pipeline));
  coopvecBufferFree(&pipeline);
  return status;
}

static CoopvecStatus compileOnDevice(CoopvecEngine *engine) {
  double start = nowSeconds();
  MlirOperation module;
  CoopvecStatus status = coopvecEngineCloneForLowering(engine, &module);
  if (!status)
    status = lowerForDevice(engine, module);
  if (!status)
    status = readKernels(engine, module);
  if (!status)
    coopvecEngineCollectChecks(engine, module, "_kernel");
  double lowered = nowSeconds();
  CoopvecBuffer ptx = {0};
  if (!status)
    status = serialize(engine, module, &ptx);
  mlirOperationDestroy(module);
  if (!status)
    status = load(engine, coopvecBufferStr(&ptx));
  coopvecBufferFree(&ptx);
  engine->loweringSeconds = lowered - start;
  engine->jitSeconds = nowSeconds() - lowered;
  return status;
}

void coopvecCUDADestroy(CoopvecEngine *engine) {
  CoopvecCUDAState *state = engine->backendState;
  if (!state)
    return;
  if (state->module &&
      state->driver.cuCtxPushCurrent(state->context) == CUDA_SUCCESS) {
    state->driver.cuModuleUnload(state->module);
    CUcontext popped;
    state->driver.cuCtxPopCurrent(&popped);
  }
  if (state->context)
    state->driver.cuDevicePrimaryCtxRelease(state->device);
  for (intptr_t i = 0; i < state->numKernels; ++i)
    free(state->kernels[i].name);
  free(state->kernels);
  free(state);
  engine->backendState = NULL;
  coopvecEngineFreeChecks(engine);
}

CoopvecStatus coopvecCUDACompile(CoopvecEngine *engine) {
  // A failed attempt leaves nothing behind; the next one starts afresh.
  coopvecCUDADestroy(engine);
  engine->backendState = calloc(1, sizeof(CoopvecCUDAState));
  if (!engine->backendState)
    return coopvecEngineFail(engine, CoopvecStatusOutOfMemory, "out of memory");
  CoopvecStatus status = openDevice(engine);
  if (!status)
    status = compileOnDevice(engine);
  if (status)
    coopvecCUDADestroy(engine);
  return status;
}

bool coopvecCUDAIsCompiled(const CoopvecEngine *engine) {
  const CoopvecCUDAState *state = engine->backendState;
  return state && state->module;
}
