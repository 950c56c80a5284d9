//===- CublasLt.h - The cuBLASLt API, loaded at run time ----------*- C -*-===//
//
// bench/mlp-gpu's cuBLASLt baseline calls libcublasLt through dlopen, so
// that the benchmark builds without the CUDA toolkit (CI) and runs, minus
// that baseline, where the library is missing; cublasLt.h is never included
// (lib/ExecutionEngine/CUDADriver.h does the same for the driver). The few
// types, values, the heuristic result's layout and the prototypes used are
// copied from CUDA 13's cublasLt.h (cuBLAS 13.1), cublas_api.h,
// library_types.h and driver_types.h: ABI facts that cuBLAS 12 shares.
// bench/cublaslt-check.c checks every one of them against those headers on
// a machine that has them (CMake builds it there with mlp-gpu).
//
// Each list is an X-macro so that the check can assert the same names and
// numbers against the real headers.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_BENCH_CUBLASLT_H
#define COOPVEC_BENCH_CUBLASLT_H

#include <stddef.h>
#include <stdint.h>

/// Enumerators used: name, value (cublas_api.h: status, operation, compute
/// type; library_types.h: data types; cublasLt.h: the attributes and
/// epilogues). The attribute values' C types (cublasLt.h's comments):
/// TRANSA / TRANSB int32_t, EPILOGUE uint32_t, BIAS_POINTER const void *
/// (void * for a bias gradient), EPILOGUE_AUX_POINTER void * (the forward
/// writes the ReLU bitmask) or const void * (DRELU_BGRAD reads it),
/// EPILOGUE_AUX_LD int64_t, PREF_MAX_WORKSPACE_BYTES uint64_t.
///
/// The training baseline's epilogues (cublasLt.h's cublasLtEpilogue_t;
/// NVIDIA's cuBLAS documentation, "cublasLtEpilogue_t", and nvmath-python's
/// cublasLt.Epilogue list the same numbers): RELU_AUX_BIAS = RELU | AUX
/// (128) | BIAS = 134 writes the ReLU bitmask of D to the aux buffer;
/// DRELU_BGRAD = DRELU (8 | 128) | 16 = 152 multiplies D by that bitmask
/// and writes the bias gradient (D's row sums over the n columns, in D's
/// type) to BIAS_POINTER; BGRADB = 512 writes the sums of B over the GEMM's
/// k dimension (one per column of D) to BIAS_POINTER. The bitmask has one
/// bit per element of D, column-major with EPILOGUE_AUX_LD bits per column,
/// which "must be divisible by 128 and be no less than the number of rows
/// in the output matrix" (cublasLt.h, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD).
#define COOPVEC_CUBLASLT_VALUES(X)                                             \
  X(CUBLAS_STATUS_SUCCESS, 0)                                                  \
  X(CUBLAS_OP_N, 0)                                                            \
  X(CUBLAS_OP_T, 1)                                                            \
  X(CUBLAS_COMPUTE_32F, 68)                                                    \
  X(CUDA_R_32F, 0)                                                             \
  X(CUDA_R_16F, 2)                                                             \
  X(CUBLASLT_MATMUL_DESC_TRANSA, 3)                                            \
  X(CUBLASLT_MATMUL_DESC_TRANSB, 4)                                            \
  X(CUBLASLT_MATMUL_DESC_EPILOGUE, 7)                                          \
  X(CUBLASLT_MATMUL_DESC_BIAS_POINTER, 8)                                      \
  X(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, 11)                             \
  X(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, 12)                                  \
  X(CUBLASLT_EPILOGUE_DEFAULT, 1)                                              \
  X(CUBLASLT_EPILOGUE_BIAS, 4)                                                 \
  X(CUBLASLT_EPILOGUE_RELU_BIAS, 6)                                            \
  X(CUBLASLT_EPILOGUE_RELU_AUX_BIAS, 134)                                      \
  X(CUBLASLT_EPILOGUE_DRELU_BGRAD, 152)                                        \
  X(CUBLASLT_EPILOGUE_BGRADB, 512)                                             \
  X(CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, 1)

/// cublasLtMatmulHeuristicResult_t: field, byte offset; and its size.
#define COOPVEC_CUBLASLT_HEURISTIC_FIELDS(X)                                   \
  X(algo, 0)                                                                   \
  X(workspaceSize, 64)                                                         \
  X(state, 72)                                                                 \
  X(wavesCount, 76)                                                            \
  X(reserved, 80)
enum { COOPVEC_CUBLASLT_HEURISTIC_SIZE = 96 };

/// The entry points used: return type, name, parameters.
#define COOPVEC_CUBLASLT_ENTRY_POINTS(X)                                       \
  X(cublasStatus_t, cublasLtCreate, (cublasLtHandle_t * handle))               \
  X(cublasStatus_t, cublasLtDestroy, (cublasLtHandle_t handle))                \
  X(const char *, cublasLtGetStatusName, (cublasStatus_t status))              \
  X(const char *, cublasLtGetStatusString, (cublasStatus_t status))            \
  X(size_t, cublasLtGetVersion, (void))                                        \
  X(size_t, cublasLtGetCudartVersion, (void))                                  \
  X(cublasStatus_t, cublasLtMatmulDescCreate,                                  \
    (cublasLtMatmulDesc_t * desc, cublasComputeType_t computeType,             \
     cudaDataType_t scaleType))                                                \
  X(cublasStatus_t, cublasLtMatmulDescDestroy, (cublasLtMatmulDesc_t desc))    \
  X(cublasStatus_t, cublasLtMatmulDescSetAttribute,                            \
    (cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attribute,      \
     const void *value, size_t bytes))                                         \
  X(cublasStatus_t, cublasLtMatrixLayoutCreate,                                \
    (cublasLtMatrixLayout_t * layout, cudaDataType type, uint64_t rows,        \
     uint64_t cols, int64_t ld))                                               \
  X(cublasStatus_t, cublasLtMatrixLayoutDestroy,                               \
    (cublasLtMatrixLayout_t layout))                                           \
  X(cublasStatus_t, cublasLtMatmulPreferenceCreate,                            \
    (cublasLtMatmulPreference_t * preference))                                 \
  X(cublasStatus_t, cublasLtMatmulPreferenceDestroy,                           \
    (cublasLtMatmulPreference_t preference))                                   \
  X(cublasStatus_t, cublasLtMatmulPreferenceSetAttribute,                      \
    (cublasLtMatmulPreference_t preference,                                    \
     cublasLtMatmulPreferenceAttributes_t attribute, const void *value,        \
     size_t bytes))                                                            \
  X(cublasStatus_t, cublasLtMatmulAlgoGetHeuristic,                            \
    (cublasLtHandle_t handle, cublasLtMatmulDesc_t desc,                       \
     cublasLtMatrixLayout_t a, cublasLtMatrixLayout_t b,                       \
     cublasLtMatrixLayout_t c, cublasLtMatrixLayout_t d,                       \
     cublasLtMatmulPreference_t preference, int requested,                     \
     cublasLtMatmulHeuristicResult_t results[], int *returned))                \
  X(cublasStatus_t, cublasLtMatmul,                                            \
    (cublasLtHandle_t handle, cublasLtMatmulDesc_t desc, const void *alpha,    \
     const void *A, cublasLtMatrixLayout_t a, const void *B,                   \
     cublasLtMatrixLayout_t b, const void *beta, const void *C,                \
     cublasLtMatrixLayout_t c, void *D, cublasLtMatrixLayout_t d,              \
     const cublasLtMatmulAlgo_t *algo, void *workspace, size_t workspaceBytes, \
     cudaStream_t stream))

// bench/cublaslt-check.c includes this header after cublasLt.h and takes
// the types from there.
#ifndef COOPVEC_CUBLASLT_CHECK

// The enums of the headers are passed as 32-bit ints (C enums without
// negative values; the check asserts their size).
typedef int cublasStatus_t;
typedef int cublasComputeType_t;
typedef int cudaDataType_t;
typedef int cudaDataType;
typedef int cublasLtMatmulDescAttributes_t;
typedef int cublasLtMatmulPreferenceAttributes_t;

typedef struct cublasLtContext *cublasLtHandle_t;
// Pointers to the headers' semi-opaque structs, which the caller never
// allocates.
typedef struct CoopvecCublasLtMatmulDesc *cublasLtMatmulDesc_t;
typedef struct CoopvecCublasLtMatrixLayout *cublasLtMatrixLayout_t;
typedef struct CoopvecCublasLtPreference *cublasLtMatmulPreference_t;
typedef struct CUstream_st *cudaStream_t;

typedef struct {
  uint64_t data[8];
} cublasLtMatmulAlgo_t;

typedef struct {
  cublasLtMatmulAlgo_t algo;
  size_t workspaceSize;
  cublasStatus_t state; // the other fields are valid only if SUCCESS
  float wavesCount;
  int reserved[4];
} cublasLtMatmulHeuristicResult_t;

#define COOPVEC_CUBLASLT_ENUMERATOR(name, value) name = value,
enum { COOPVEC_CUBLASLT_VALUES(COOPVEC_CUBLASLT_ENUMERATOR) };
#undef COOPVEC_CUBLASLT_ENUMERATOR

#define COOPVEC_CUBLASLT_OFFSET(field, offset)                                 \
  _Static_assert(offsetof(cublasLtMatmulHeuristicResult_t, field) == offset,   \
                 "cublasLtMatmulHeuristicResult_t." #field);
COOPVEC_CUBLASLT_HEURISTIC_FIELDS(COOPVEC_CUBLASLT_OFFSET)
#undef COOPVEC_CUBLASLT_OFFSET
_Static_assert(sizeof(cublasLtMatmulHeuristicResult_t) ==
                   COOPVEC_CUBLASLT_HEURISTIC_SIZE,
               "sizeof(cublasLtMatmulHeuristicResult_t)");

/// The library's entry points (each field is the function of its name).
#define COOPVEC_CUBLASLT_FIELD(type, name, params) type(*name) params;
typedef struct CublasLt {
  void *library; // the dlopen handle
  COOPVEC_CUBLASLT_ENTRY_POINTS(COOPVEC_CUBLASLT_FIELD)
} CublasLt;
#undef COOPVEC_CUBLASLT_FIELD

#endif // COOPVEC_CUBLASLT_CHECK

#endif // COOPVEC_BENCH_CUBLASLT_H
