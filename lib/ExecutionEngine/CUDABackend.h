//===- CUDABackend.h - The CUDA backend's state (internal) --------*- C -*-===//
//
// What CUDABackend.c (device, lowering, loading) leaves for CUDARun.c
// (launching): the device's context and limits, the loaded PTX module and
// each kernel's launch contract, read from the lowered module before
// gpu-module-to-binary replaced it with PTX.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_EXECUTIONENGINE_CUDABACKEND_H
#define COOPVEC_LIB_EXECUTIONENGINE_CUDABACKEND_H

#include "ExecutionEngine/CUDADriver.h"
#include "ExecutionEngine/Engine.h"

/// One kernel of the loaded module and its launch contract
/// (docs/execution-model.md, "The launch contract").
typedef struct CoopvecCUDAKernel {
  char *name;              // "<f>_kernel"
  int64_t blockSize;       // exactly this many threads per block, in x
  int64_t workgroupMemory; // bytes of static shared memory (0: not stated)
  /// Bytes of dynamic shared memory (coopvec-prepare-nvvm places a
  /// kernel's buffers there beyond 48 KiB): set with cuFuncSetAttribute,
  /// given at launch.
  int64_t dynamicWorkgroupMemory;
  CUfunction function;
} CoopvecCUDAKernel;

typedef struct CoopvecCUDAState {
  CoopvecCUDADriver driver;
  CUdevice device;
  CUcontext context; // the device's primary context, retained
  char deviceName[256];
  int smVersion;            // compute capability 9.0 -> 90
  int maxSharedMemory;      // bytes of shared memory per block
  int maxSharedMemoryOptin; // ... that a kernel may be allowed (dynamic)
  int maxGridX;
  CUmodule module; // NULL until the PTX is loaded
  CoopvecCUDAKernel *kernels;
  intptr_t numKernels;
} CoopvecCUDAState;

/// Sets the engine's message to "CUDA: <call> failed: CUDA_ERROR_X (the
/// driver's description)" for a failed `result` and returns its status:
/// OutOfMemory for CUDA_ERROR_OUT_OF_MEMORY, else `otherwise`.
CoopvecStatus coopvecCUDAFail(CoopvecEngine *engine, CUresult result,
                              const char *call, CoopvecStatus otherwise);

#endif // COOPVEC_LIB_EXECUTIONENGINE_CUDABACKEND_H
