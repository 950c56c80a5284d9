//===- CUDADriver.c - Load the CUDA driver with dlopen --------------------===//
//
// The driver library stays loaded for the rest of the process once cuInit
// succeeded: the NVIDIA driver starts threads and registers exit handlers
// that must not outlive its code, so it is never dlclose'd (dlopen counts
// references: loading it again per engine is cheap). A library that fails
// (missing symbols, the toolkit's stub) is closed at once.
//
//===----------------------------------------------------------------------===//

// dladdr is a GNU extension (dlopen and dlsym are POSIX).
#define _GNU_SOURCE

#include "ExecutionEngine/CUDADriver.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

static const char kDefaultLibrary[] = "libcuda.so.1";

/// One entry point: its field in CoopvecCUDADriver, its versioned symbol and
/// an older symbol with the same signature for drivers that predate it.
typedef struct EntryPoint {
  size_t offset;
  const char *symbol;
  const char *fallback;
} EntryPoint;

#define ENTRY(field, symbol, fallback)                                         \
  { offsetof(CoopvecCUDADriver, field), symbol, fallback }

static const EntryPoint kEntryPoints[] = {
    ENTRY(cuInit, "cuInit", NULL),
    ENTRY(cuGetErrorName, "cuGetErrorName", NULL),
    ENTRY(cuGetErrorString, "cuGetErrorString", NULL),
    ENTRY(cuDeviceGetCount, "cuDeviceGetCount", NULL),
    ENTRY(cuDeviceGet, "cuDeviceGet", NULL),
    ENTRY(cuDeviceGetName, "cuDeviceGetName", NULL),
    ENTRY(cuDeviceGetAttribute, "cuDeviceGetAttribute", NULL),
    ENTRY(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", NULL),
    ENTRY(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", NULL),
    ENTRY(cuCtxPushCurrent, "cuCtxPushCurrent_v2", NULL),
    ENTRY(cuCtxPopCurrent, "cuCtxPopCurrent_v2", NULL),
    ENTRY(cuCtxSynchronize, "cuCtxSynchronize", NULL),
    ENTRY(cuModuleLoadDataEx, "cuModuleLoadDataEx", NULL),
    ENTRY(cuModuleUnload, "cuModuleUnload", NULL),
    ENTRY(cuModuleGetFunction, "cuModuleGetFunction", NULL),
    ENTRY(cuFuncGetAttribute, "cuFuncGetAttribute", NULL),
    ENTRY(cuFuncSetAttribute, "cuFuncSetAttribute", NULL),
    ENTRY(cuMemAlloc, "cuMemAlloc_v2", NULL),
    ENTRY(cuMemFree, "cuMemFree_v2", NULL),
    ENTRY(cuMemcpyHtoD, "cuMemcpyHtoD_v2", NULL),
    ENTRY(cuMemcpyDtoH, "cuMemcpyDtoH_v2", NULL),
    ENTRY(cuLaunchKernel, "cuLaunchKernel", NULL),
    ENTRY(cuEventCreate, "cuEventCreate", NULL),
    ENTRY(cuEventRecord, "cuEventRecord", NULL),
    ENTRY(cuEventSynchronize, "cuEventSynchronize", NULL),
    // _v2 since CUDA 12.8; the same signature before.
    ENTRY(cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime"),
    ENTRY(cuEventDestroy, "cuEventDestroy_v2", NULL),
};

/// Names the driver cannot name itself: the stub library's cuGetErrorName
/// fails too.
static const char *knownErrorName(CUresult result) {
  switch (result) {
  case CUDA_ERROR_STUB_LIBRARY:
    return "CUDA_ERROR_STUB_LIBRARY (the CUDA toolkit's stub libcuda.so was "
           "loaded instead of the NVIDIA driver)";
  case CUDA_ERROR_NO_DEVICE:
    return "CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)";
  default:
    return NULL;
  }
}

void coopvecCUDAAppendError(const CoopvecCUDADriver *driver, CUresult result,
                            CoopvecBuffer *text) {
  const char *name = NULL, *description = NULL;
  if (driver->cuGetErrorName &&
      driver->cuGetErrorName(result, &name) != CUDA_SUCCESS)
    name = NULL;
  if (driver->cuGetErrorString &&
      driver->cuGetErrorString(result, &description) != CUDA_SUCCESS)
    description = NULL;
  if (name && description)
    coopvecBufferAppendf(text, "%s (%s)", name, description);
  else if (knownErrorName(result))
    coopvecBufferAppendStr(text, knownErrorName(result));
  else
    coopvecBufferAppendf(text, "CUDA error %d", result);
}

bool coopvecCUDACheck(const CoopvecCUDADriver *driver, CUresult result,
                      const char *call, CoopvecBuffer *text) {
  if (result == CUDA_SUCCESS)
    return true;
  coopvecBufferAppendf(text, "%s failed: ", call);
  coopvecCUDAAppendError(driver, result, text);
  return false;
}

/// The file the dynamic loader actually opened, for messages (a soname
/// alone does not say which libcuda it found).
static const char *loadedPath(const CoopvecCUDADriver *driver,
                              const char *requested) {
  Dl_info info;
  void *symbol = dlsym(driver->library, "cuInit");
  if (symbol && dladdr(symbol, &info) && info.dli_fname)
    return info.dli_fname;
  return requested;
}

static bool resolve(CoopvecCUDADriver *driver, const char *path,
                    CoopvecBuffer *error) {
  for (size_t i = 0; i < sizeof(kEntryPoints) / sizeof(kEntryPoints[0]); ++i) {
    const EntryPoint *entry = &kEntryPoints[i];
    void *symbol = dlsym(driver->library, entry->symbol);
    if (!symbol && entry->fallback)
      symbol = dlsym(driver->library, entry->fallback);
    if (!symbol) {
      coopvecBufferAppendf(error,
                           "CUDA: %s has no %s (the NVIDIA driver is too old "
                           "or this is not the CUDA driver library)",
                           path, entry->symbol);
      return false;
    }
    // POSIX: a data pointer from dlsym holds the function's address.
    memcpy((char *)driver + entry->offset, &symbol, sizeof(symbol));
  }
  return true;
}

static bool initialize(CoopvecCUDADriver *driver, const char *path,
                       CoopvecBuffer *error) {
  CUresult result = driver->cuInit(0);
  if (result == CUDA_SUCCESS)
    return true;
  if (result == CUDA_ERROR_STUB_LIBRARY) {
    coopvecBufferAppendf(error,
                         "CUDA: %s is the CUDA toolkit's stub library, not "
                         "the NVIDIA driver (no NVIDIA driver is installed)",
                         loadedPath(driver, path));
    return false;
  }
  coopvecBufferAppendStr(error, result == CUDA_ERROR_NO_DEVICE
                                    ? "CUDA: no device: "
                                    : "CUDA: the driver cannot start: ");
  coopvecCUDACheck(driver, result, "cuInit", error);
  return false;
}

bool coopvecCUDADriverLoad(CoopvecCUDADriver *driver, CoopvecBuffer *error) {
  memset(driver, 0, sizeof(*driver));
  const char *chosen = getenv("COOPVEC_LIBCUDA");
  const char *path = chosen && *chosen ? chosen : kDefaultLibrary;
  driver->library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!driver->library) {
    const char *reason = dlerror();
    coopvecBufferAppendf(error, "CUDA: cannot load %s (no NVIDIA driver): %s",
                         path, reason ? reason : "unknown error");
    return false;
  }
  if (resolve(driver, path, error) && initialize(driver, path, error))
    return true;
  dlclose(driver->library);
  memset(driver, 0, sizeof(*driver));
  return false;
}
