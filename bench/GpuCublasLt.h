//===- GpuCublasLt.h - What bench/mlp-gpu's cuBLASLt files share --*- C -*-===//
//
// The loaded library and its handle (GpuCublasLt.c opens them) and the
// helpers that both the forward baseline (GpuCublasLt.c) and the training
// baseline (GpuCublasLtTrain.c) call.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_BENCH_GPUCUBLASLT_H
#define COOPVEC_BENCH_GPUCUBLASLT_H

#include "CublasLt.h"
#include "MlpGpu.h"

/// The workspace cuBLASLt's algorithms may use (the heuristic is told).
#define GPU_CUBLASLT_WORKSPACE_BYTES (32u << 20)

struct GpuCublasLt {
  const GpuDevice *device;
  CublasLt api;
  cublasLtHandle_t handle;
  cublasLtMatmulPreference_t preference;
  CUdeviceptr workspace; // GPU_CUBLASLT_WORKSPACE_BYTES
};

/// Prints "mlp-gpu: cublaslt: <call> failed: CUBLAS_STATUS_X (text)"
/// unless `status` is CUBLAS_STATUS_SUCCESS; returns whether it is.
bool gpuLtCheck(const GpuCublasLt *lt, cublasStatus_t status, const char *call);

/// A device address as cuBLASLt takes it (the driver's CUdeviceptr is an
/// integer).
void *gpuLtPointer(CUdeviceptr pointer);

/// cuMemAlloc (256-byte aligned, as cuBLASLt's heuristic assumes); 0 and
/// false after printing why.
bool gpuLtAllocate(const GpuCublasLt *lt, CUdeviceptr *pointer, size_t bytes,
                   const char *what);
/// Allocates `*pointer` and copies `bytes` of `data` into it.
bool gpuLtUpload(const GpuCublasLt *lt, CUdeviceptr *pointer, const void *data,
                 size_t bytes, const char *what);

#endif // COOPVEC_BENCH_GPUCUBLASLT_H
