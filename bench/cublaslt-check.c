//===- cublaslt-check.c - CublasLt.h against the CUDA toolkit's headers ---===//
//
// Compiled (never run) where cublasLt.h is installed: every value, the
// heuristic result's layout and every prototype that bench/CublasLt.h
// copied must be those of the real headers, or the build fails.
//
//===----------------------------------------------------------------------===//

#include <cublasLt.h>

#define COOPVEC_CUBLASLT_CHECK
#include "CublasLt.h"

#define CHECK_VALUE(name, value)                                               \
  _Static_assert(name == value, #name " differs from cublasLt.h");
COOPVEC_CUBLASLT_VALUES(CHECK_VALUE)

#define CHECK_OFFSET(field, offset)                                            \
  _Static_assert(offsetof(cublasLtMatmulHeuristicResult_t, field) == offset,   \
                 "cublasLtMatmulHeuristicResult_t." #field);
COOPVEC_CUBLASLT_HEURISTIC_FIELDS(CHECK_OFFSET)
_Static_assert(sizeof(cublasLtMatmulHeuristicResult_t) ==
                   COOPVEC_CUBLASLT_HEURISTIC_SIZE,
               "sizeof(cublasLtMatmulHeuristicResult_t)");
_Static_assert(sizeof(cublasLtMatmulAlgo_t) == 64, "sizeof(algo)");

// CublasLt.h declares these enums as int.
_Static_assert(sizeof(cublasStatus_t) == sizeof(int), "cublasStatus_t");
_Static_assert(sizeof(cublasComputeType_t) == sizeof(int), "compute type");
_Static_assert(sizeof(cudaDataType_t) == sizeof(int), "cudaDataType_t");
_Static_assert(sizeof(cublasLtMatmulDescAttributes_t) == sizeof(int),
               "cublasLtMatmulDescAttributes_t");
_Static_assert(sizeof(cublasLtMatmulPreferenceAttributes_t) == sizeof(int),
               "cublasLtMatmulPreferenceAttributes_t");

#define CHECK_ENTRY(type, name, params)                                        \
  _Static_assert(                                                              \
      __builtin_types_compatible_p(__typeof__(&name), type(*) params),         \
      #name " has another prototype in cublasLt.h");
COOPVEC_CUBLASLT_ENTRY_POINTS(CHECK_ENTRY)
