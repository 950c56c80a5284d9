//===- CUDADriver.h - The CUDA driver API, loaded at run time -----*- C -*-===//
//
// The CUDA backend (and bench/mlp-gpu) call the NVIDIA driver through
// `dlopen("libcuda.so.1")`, so nothing links against CUDA: binaries build
// without the toolkit and run, saying why the target cannot, on machines
// without a driver. The few types, values and entry points used are
// declared here, copied from the CUDA 13.0 `cuda.h` (signatures and enum
// values are ABI facts that every driver keeps); cuda.h itself is never
// included. Entry points are looked up by their versioned names
// (`cuMemAlloc_v2`, ...): the unversioned symbols are older ABIs kept for
// old binaries (32-bit sizes, for instance).
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_EXECUTIONENGINE_CUDADRIVER_H
#define COOPVEC_LIB_EXECUTIONENGINE_CUDADRIVER_H

#include "coopvec-c/Support.h"

#include <stdbool.h>
#include <stddef.h>

// Types of cuda.h (64-bit platforms).
typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;

// Values of cuda.h's enums that coopvec uses.
enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_STUB_LIBRARY = 34, // the toolkit's stub libcuda.so
  CUDA_ERROR_NO_DEVICE = 100,
};
enum {
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
  CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13, // kHz
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
};
enum {
  CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};
enum { // CUjit_option
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

/// The driver's entry points (each field is named after the function of
/// cuda.h it holds; the symbol looked up is in CUDADriver.c).
typedef struct CoopvecCUDADriver {
  void *library; // the dlopen handle
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuGetErrorName)(CUresult error, const char **name);
  CUresult (*cuGetErrorString)(CUresult error, const char **text);
  CUresult (*cuDeviceGetCount)(int *count);
  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal);
  CUresult (*cuDeviceGetName)(char *name, int length, CUdevice device);
  CUresult (*cuDeviceGetAttribute)(int *value, int attribute, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *context, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device);
  CUresult (*cuCtxPushCurrent)(CUcontext context);
  CUresult (*cuCtxPopCurrent)(CUcontext *context);
  CUresult (*cuCtxSynchronize)(void);
  CUresult (*cuModuleLoadDataEx)(CUmodule *module, const void *image,
                                 unsigned numOptions, int *options,
                                 void **values);
  CUresult (*cuModuleUnload)(CUmodule module);
  CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module,
                                  const char *name);
  CUresult (*cuFuncGetAttribute)(int *value, int attribute,
                                 CUfunction function);
  CUresult (*cuFuncSetAttribute)(CUfunction function, int attribute, int value);
  CUresult (*cuMemAlloc)(CUdeviceptr *pointer, size_t bytes);
  CUresult (*cuMemFree)(CUdeviceptr pointer);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr destination, const void *source,
                           size_t bytes);
  CUresult (*cuMemcpyDtoH)(void *destination, CUdeviceptr source, size_t bytes);
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned gridX,
                             unsigned gridY, unsigned gridZ, unsigned blockX,
                             unsigned blockY, unsigned blockZ,
                             unsigned sharedMemBytes, CUstream stream,
                             void **params, void **extra);
  CUresult (*cuEventCreate)(CUevent *event, unsigned flags);
  CUresult (*cuEventRecord)(CUevent event, CUstream stream);
  CUresult (*cuEventSynchronize)(CUevent event);
  CUresult (*cuEventElapsedTime)(float *milliseconds, CUevent start,
                                 CUevent end);
  CUresult (*cuEventDestroy)(CUevent event);
} CoopvecCUDADriver;

/// Loads the driver library ($COOPVEC_LIBCUDA when set, else
/// libcuda.so.1), resolves every entry point and calls cuInit(0). On
/// failure, appends why to `error` ("CUDA: cannot load libcuda.so.1 (no
/// NVIDIA driver): ...", the stub library, a driver without a GPU) and
/// leaves nothing loaded.
bool coopvecCUDADriverLoad(CoopvecCUDADriver *driver, CoopvecBuffer *error);

/// Appends "CUDA_ERROR_X (the driver's description)" for `result`.
void coopvecCUDAAppendError(const CoopvecCUDADriver *driver, CUresult result,
                            CoopvecBuffer *text);

/// Appends "<call> failed: CUDA_ERROR_X (description)" and returns false
/// unless `result` is CUDA_SUCCESS (then true, nothing appended).
bool coopvecCUDACheck(const CoopvecCUDADriver *driver, CUresult result,
                      const char *call, CoopvecBuffer *text);

#endif // COOPVEC_LIB_EXECUTIONENGINE_CUDADRIVER_H
