//===- fake-libcublaslt.c - A test double of cuBLASLt on the host ---------===//
//
// bench/mlp-gpu's cuBLASLt baselines, run on machines without a GPU: with
// test/cuda's fake driver (whose device memory is host memory) as
// COOPVEC_LIBCUDA and this library as COOPVEC_LIBCUBLASLT, every
// cublasLtMatmul is computed here on the CPU, so that the benchmark's
// checks see real numbers: its layouts, transposes, pointers and the order
// of its GEMMs are tested before a GPU runs them.
//
// Only what bench/CublasLt.h declares, with the semantics of NVIDIA's
// documentation (cublasLt.h): column-major matrices of f16, f32 compute,
// D = alpha op(A) op(B) + beta C, then the epilogue: BIAS (+ bias[row]),
// RELU_BIAS, RELU_AUX_BIAS (also the ReLU bitmask, bit row + col * ld of
// the aux buffer: the real layout is cuBLASLt's own, which only cuBLASLt
// reads), DRELU_BGRAD (times that bitmask; bias = the sums of the rows of
// D), BGRADB (bias = the sums of op(B)'s columns over k) and DEFAULT.
// Anything else (another type, epilogue or attribute, an ld that is not
// allowed) fails with CUBLAS_STATUS_NOT_SUPPORTED and a message on stderr,
// as a real library would refuse it.
//
//===----------------------------------------------------------------------===//

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  kSuccess = 0,
  kInvalidValue = 7,
  kNotSupported = 15,
  kRelu = 2,
  kBias = 4,
  kDefault = 1,
  kReluBias = 6,
  kReluAuxBias = 134,
  kDReluBGrad = 152,
  kBGradB = 512,
};

typedef struct Desc {
  int32_t transA, transB;
  uint32_t epilogue;
  void *bias, *aux;
  int64_t auxLd;
} Desc;

typedef struct Layout {
  uint64_t rows, cols;
  int64_t ld;
} Layout;

static int refuse(const char *what) {
  fprintf(stderr, "fake cuBLASLt: not supported: %s\n", what);
  return kNotSupported;
}

int cublasLtCreate(void **handle) {
  static int theHandle;
  *handle = &theHandle;
  return kSuccess;
}
int cublasLtDestroy(void *handle) {
  (void)handle;
  return kSuccess;
}
const char *cublasLtGetStatusName(int status) {
  return status == kSuccess ? "CUBLAS_STATUS_SUCCESS" : "CUBLAS_STATUS_FAKE";
}
const char *cublasLtGetStatusString(int status) {
  return status == kSuccess ? "success" : "refused by the fake cuBLASLt";
}
size_t cublasLtGetVersion(void) { return 130100; }
size_t cublasLtGetCudartVersion(void) { return 13000; }

int cublasLtMatmulDescCreate(Desc **desc, int computeType, int scaleType) {
  if (computeType != 68 || scaleType != 0) // CUBLAS_COMPUTE_32F, CUDA_R_32F
    return refuse("a compute or scale type other than f32");
  *desc = calloc(1, sizeof(Desc));
  (*desc)->epilogue = kDefault;
  return kSuccess;
}
int cublasLtMatmulDescDestroy(Desc *desc) {
  free(desc);
  return kSuccess;
}

/// Copies an attribute of exactly `size` bytes, as the library checks.
static int setValue(void *field, size_t size, const void *value, size_t bytes) {
  if (bytes != size)
    return kInvalidValue;
  memcpy(field, value, size);
  return kSuccess;
}

int cublasLtMatmulDescSetAttribute(Desc *desc, int attribute, const void *value,
                                   size_t bytes) {
  switch (attribute) {
  case 3: // TRANSA
    return setValue(&desc->transA, sizeof(int32_t), value, bytes);
  case 4: // TRANSB
    return setValue(&desc->transB, sizeof(int32_t), value, bytes);
  case 7: // EPILOGUE
    return setValue(&desc->epilogue, sizeof(uint32_t), value, bytes);
  case 8: // BIAS_POINTER
    return setValue(&desc->bias, sizeof(void *), value, bytes);
  case 11: // EPILOGUE_AUX_POINTER
    return setValue(&desc->aux, sizeof(void *), value, bytes);
  case 12: // EPILOGUE_AUX_LD
    return setValue(&desc->auxLd, sizeof(int64_t), value, bytes);
  default:
    return refuse("a matmul attribute the benchmark does not set");
  }
}

int cublasLtMatrixLayoutCreate(Layout **layout, int type, uint64_t rows,
                               uint64_t cols, int64_t ld) {
  if (type != 2) // CUDA_R_16F
    return refuse("a matrix type other than f16");
  if (ld < (int64_t)rows)
    return kInvalidValue;
  *layout = malloc(sizeof(Layout));
  **layout = (Layout){rows, cols, ld};
  return kSuccess;
}
int cublasLtMatrixLayoutDestroy(Layout *layout) {
  free(layout);
  return kSuccess;
}

int cublasLtMatmulPreferenceCreate(void **preference) {
  static int thePreference;
  *preference = &thePreference;
  return kSuccess;
}
int cublasLtMatmulPreferenceDestroy(void *preference) {
  (void)preference;
  return kSuccess;
}
int cublasLtMatmulPreferenceSetAttribute(void *preference, int attribute,
                                         const void *value, size_t bytes) {
  (void)preference;
  (void)value;
  return attribute == 1 && bytes == 8 ? kSuccess : refuse("a preference");
}

/// m, n, k of D = op(A) op(B); 0 unless the layouts agree.
static int shape(const Desc *d, const Layout *a, const Layout *b,
                 const Layout *c, uint64_t *m, uint64_t *n, uint64_t *k) {
  *m = d->transA ? a->cols : a->rows;
  *k = d->transA ? a->rows : a->cols;
  *n = d->transB ? b->rows : b->cols;
  uint64_t kb = d->transB ? b->cols : b->rows;
  return kb == *k && c->rows == *m && c->cols == *n;
}

static int checkEpilogue(const Desc *d, uint64_t m) {
  uint32_t e = d->epilogue;
  if (e != kDefault && e != kBias && e != kReluBias && e != kReluAuxBias &&
      e != kDReluBGrad && e != kBGradB)
    return refuse("an epilogue the double does not compute");
  if (e != kDefault && !d->bias)
    return refuse("an epilogue without BIAS_POINTER");
  int aux = e == kReluAuxBias || e == kDReluBGrad;
  if (aux && (!d->aux || d->auxLd % 128 || d->auxLd < (int64_t)m))
    return refuse("a ReLU bitmask without a pointer or with a bad ld");
  return kSuccess;
}

int cublasLtMatmulAlgoGetHeuristic(void *handle, Desc *desc, Layout *a,
                                   Layout *b, Layout *c, Layout *d,
                                   void *preference, int requested,
                                   void *results, int *returned) {
  (void)handle;
  (void)preference;
  uint64_t m, n, k;
  *returned = 0;
  if (requested < 1 || !shape(desc, a, b, d, &m, &n, &k) || c != d)
    return kInvalidValue;
  int status = checkEpilogue(desc, m);
  if (status)
    return status;
  memset(results, 0, 96); // cublasLtMatmulHeuristicResult_t: state 0
  *returned = 1;
  return kSuccess;
}

/// f16 bits to float, exactly (no _Float16: clang 14 builds this too).
static float fromHalf(uint16_t h) {
  int exponent = h >> 10 & 0x1f, mantissa = h & 0x3ff;
  float magnitude = exponent == 0x1f ? (mantissa ? NAN : INFINITY)
                    : exponent == 0
                        ? ldexpf((float)mantissa, -24)
                        : ldexpf((float)(mantissa | 0x400), exponent - 25);
  return h >> 15 ? -magnitude : magnitude;
}

/// Rounds to the nearest f16, ties to even, with overflow to infinity and
/// gradual underflow.
static uint16_t toHalf(float value) {
  uint16_t sign = signbit(value) ? 0x8000 : 0;
  float magnitude = fabsf(value);
  if (isnan(value))
    return 0x7e00;
  if (magnitude >= 65520.0f)
    return sign | 0x7c00;
  int exponent;
  frexpf(magnitude, &exponent); // magnitude = f * 2^exponent, f in [0.5, 1)
  int ulp = exponent - 11 < -24 ? -24 : exponent - 11;
  float units = nearbyintf(ldexpf(magnitude, -ulp)); // ties to even
  float rounded = ldexpf(units, ulp);
  if (rounded == 0)
    return sign;
  int e;
  frexpf(rounded, &e);
  if (e - 1 < -14) // subnormal: the units are the mantissa
    return sign | (uint16_t)units;
  return sign | (uint16_t)((e - 1 + 15) << 10) |
         (uint16_t)(ldexpf(rounded, 11 - e) - 1024);
}

static float load(const void *base, uint64_t i) {
  return fromHalf(((const uint16_t *)base)[i]);
}

/// op(A)(i, p) op(B)(p, j) summed over p, in f32.
static float dot(const Desc *d, const void *a, const Layout *la, const void *b,
                 const Layout *lb, uint64_t i, uint64_t j, uint64_t k) {
  float sum = 0;
  for (uint64_t p = 0; p < k; ++p) {
    float x = d->transA ? load(a, p + i * la->ld) : load(a, i + p * la->ld);
    float y = d->transB ? load(b, j + p * lb->ld) : load(b, p + j * lb->ld);
    sum += x * y;
  }
  return sum;
}

/// The epilogue of element (i, j) before it is stored.
static float epilogue(const Desc *d, float v, uint64_t i, uint64_t j) {
  uint8_t *mask = d->aux;
  uint64_t bit = i + j * (uint64_t)d->auxLd;
  if (d->epilogue == kBias || d->epilogue == kReluBias ||
      d->epilogue == kReluAuxBias)
    v += load(d->bias, i);
  if (d->epilogue == kReluAuxBias) {
    mask[bit / 8] = (uint8_t)((mask[bit / 8] & ~(1u << bit % 8)) |
                              (unsigned)(v > 0) << bit % 8);
  }
  if (d->epilogue & kRelu)
    v = v > 0 ? v : 0;
  if (d->epilogue == kDReluBGrad && !(mask[bit / 8] >> bit % 8 & 1))
    v = 0;
  return v;
}

/// The bias gradients: D's row sums, or op(B)'s column sums over k.
static void biasGradient(const Desc *d, const void *b, const Layout *lb,
                         const void *out, const Layout *ld, uint64_t m,
                         uint64_t n, uint64_t k) {
  uint16_t *bias = d->bias;
  for (uint64_t i = 0; d->epilogue == kDReluBGrad && i < m; ++i) {
    float sum = 0;
    for (uint64_t j = 0; j < n; ++j)
      sum += load(out, i + j * ld->ld);
    bias[i] = toHalf(sum);
  }
  for (uint64_t j = 0; d->epilogue == kBGradB && j < n; ++j) {
    float sum = 0;
    for (uint64_t p = 0; p < k; ++p)
      sum += d->transB ? load(b, j + p * lb->ld) : load(b, p + j * lb->ld);
    bias[j] = toHalf(sum);
  }
}

int cublasLtMatmul(void *handle, Desc *desc, const float *alpha, const void *a,
                   Layout *la, const void *b, Layout *lb, const float *beta,
                   const void *c, Layout *lc, void *d, Layout *ld,
                   const void *algo, void *workspace, size_t workspaceBytes,
                   void *stream) {
  (void)handle;
  (void)algo;
  (void)workspace;
  (void)workspaceBytes;
  (void)stream;
  uint64_t m, n, k;
  if (!shape(desc, la, lb, ld, &m, &n, &k) || lc != ld || c != d || *beta != 0)
    return refuse("C other than D, or beta other than 0");
  int status = checkEpilogue(desc, m);
  if (status)
    return status;
  for (uint64_t j = 0; j < n; ++j)
    for (uint64_t i = 0; i < m; ++i)
      ((uint16_t *)d)[i + j * ld->ld] = toHalf(
          epilogue(desc, *alpha * dot(desc, a, la, b, lb, i, j, k), i, j));
  biasGradient(desc, b, lb, d, ld, m, n, k);
  return kSuccess;
}
