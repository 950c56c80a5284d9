//===- math-ulp.c - Accuracy and speed of the expanded math ops -----------===//
//
// usage: math-ulp [step]    (default 1: every one of the 2^32 f32 inputs)
//
// Runs the math ops as coopvec-lower-to-cpu compiles them (math_ulp.o: the
// functions of bench/math-ulp.mlir, one per op and type, on vector<16xf32>
// lane vectors, expanded by coopvec-expand-math) and compares each result
// with C's double-precision libm (1/sqrt for rsqrt):
//
//   - one-operand ops: every f32 bit pattern (every step-th one with an
//     argument) and every f16 bit pattern. For the odd and even functions
//     (sin, tanh, atan, erf; cos) the negative inputs are checked against
//     the result of their positive twin, bit for bit, which proves the same
//     error; only a mismatch is compared with libm.
//   - atan2 and powf: 2^32 pairs are too many. They get every pair of a
//     grid of special and boundary values, 2^26 / step pairs of random bit
//     patterns, and 2^26 / step pairs aimed where the results are finite
//     and non-zero (powf: y = t / log2|x| for t uniform in [-160, 160], and
//     integer y with negative x; atan2: y = x m with m in [2^-8, 2^8]); the
//     random numbers are splitmix64 from fixed seeds. f16: the grid and
//     2^20 random pairs of f16 bit patterns.
//
// Prints one Markdown row per op and type: the largest error in ulps of the
// result type, |got - ref| / ulp(ref), against the double value before
// rounding (ulp(ref): the spacing of the result type's values in ref's
// binade; subnormals have the smallest normal's), with the input where it
// occurs; how many results differ from the double reference rounded to
// nearest even; special-value mismatches (where the reference is NaN,
// infinite or zero the result must be exactly that: any NaN, the same
// infinity, a zero of the same sign; a NaN result needs a NaN reference).
// Then the throughput of each f32 op on lane vectors against a plain C loop
// calling libm's float function (sinf, ...; 1.0f / sqrtf for rsqrt), on
// 2^16 inputs in a typical range, best of 5 runs of at least 0.1 s.
//
// Exits 1 if any special value is wrong. A benchmark-style tool, not a
// test: docs/execution-model.md ("Transcendentals") and docs/performance.md
// record its output.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE // sincos

#include "Timing.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct MemRef1D {
  void *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} MemRef1D;

typedef void (*UnaryFn)(int64_t n, MemRef1D *x, MemRef1D *result);
typedef void (*BinaryFn)(int64_t n, MemRef1D *x, MemRef1D *y, MemRef1D *result);

#define UNARY_OPS(X)                                                           \
  X(sin) X(cos) X(exp) X(exp2) X(log) X(log2) X(tanh) X(atan) X(erf) X(rsqrt)
#define BINARY_OPS(X) X(atan2) X(powf)
#define DECLARE_UNARY(op)                                                      \
  void _mlir_ciface_##op##_f32(int64_t, MemRef1D *, MemRef1D *);               \
  void _mlir_ciface_##op##_f16(int64_t, MemRef1D *, MemRef1D *);
#define DECLARE_BINARY(op)                                                     \
  void _mlir_ciface_##op##_f32(int64_t, MemRef1D *, MemRef1D *, MemRef1D *);   \
  void _mlir_ciface_##op##_f16(int64_t, MemRef1D *, MemRef1D *, MemRef1D *);
UNARY_OPS(DECLARE_UNARY)
BINARY_OPS(DECLARE_BINARY)

static double rsqrtDouble(double x) { return 1.0 / sqrt(x); }
static float rsqrtFloat(float x) { return 1.0f / sqrtf(x); }

/// Symmetry of a function: f(-x) = -f(x) (odd) or f(x) (even).
typedef enum Symmetry { None, Odd, Even } Symmetry;

typedef struct UnaryOp {
  const char *name;
  UnaryFn f32, f16;
  double (*reference)(double);
  float (*libm)(float);
  Symmetry symmetry;
  float low, high; // the throughput inputs
} UnaryOp;

static const UnaryOp unaryOps[] = {
    {"sin", _mlir_ciface_sin_f32, _mlir_ciface_sin_f16, sin, sinf, Odd, -10,
     10},
    {"cos", _mlir_ciface_cos_f32, _mlir_ciface_cos_f16, cos, cosf, Even, -10,
     10},
    {"exp", _mlir_ciface_exp_f32, _mlir_ciface_exp_f16, exp, expf, None, -80,
     80},
    {"exp2", _mlir_ciface_exp2_f32, _mlir_ciface_exp2_f16, exp2, exp2f, None,
     -120, 120},
    {"log", _mlir_ciface_log_f32, _mlir_ciface_log_f16, log, logf, None, 0,
     1000},
    {"log2", _mlir_ciface_log2_f32, _mlir_ciface_log2_f16, log2, log2f, None, 0,
     1000},
    {"tanh", _mlir_ciface_tanh_f32, _mlir_ciface_tanh_f16, tanh, tanhf, Odd, -5,
     5},
    {"atan", _mlir_ciface_atan_f32, _mlir_ciface_atan_f16, atan, atanf, Odd,
     -10, 10},
    {"erf", _mlir_ciface_erf_f32, _mlir_ciface_erf_f16, erf, erff, Odd, -5, 5},
    {"rsqrt", _mlir_ciface_rsqrt_f32, _mlir_ciface_rsqrt_f16, rsqrtDouble,
     rsqrtFloat, None, 0, 1000},
};
enum { NUM_UNARY = sizeof(unaryOps) / sizeof(unaryOps[0]) };

typedef struct BinaryOp {
  const char *name;
  BinaryFn f32, f16;
  double (*reference)(double, double);
  float (*libm)(float, float);
  bool power; // where the aimed pairs go: powf's or atan2's
} BinaryOp;

static const BinaryOp binaryOps[] = {
    {"atan2", _mlir_ciface_atan2_f32, _mlir_ciface_atan2_f16, atan2, atan2f,
     false},
    {"powf", _mlir_ciface_powf_f32, _mlir_ciface_powf_f16, pow, powf, true},
};
enum { NUM_BINARY = sizeof(binaryOps) / sizeof(binaryOps[0]) };

enum { CHUNK = 1 << 20 };

//===----------------------------------------------------------------------===//
// The two result types
//===----------------------------------------------------------------------===//

/// IEEE binary formats: `mantissa` fraction bits, exponents of the normal
/// numbers in [minExponent, maxExponent].
typedef struct Format {
  const char *name;
  int mantissa, minExponent, maxExponent;
  double max;
} Format;

static const Format f32Format = {"f32", 23, -126, 127, 0x1.fffffep127};
static const Format f16Format = {"f16", 10, -14, 15, 65504.0};

/// The spacing of `format`'s values around `value` (finite, nonzero, a
/// normal double), from the exponent bits: no libm call in the hot loop.
static double ulpOf(const Format *format, double value) {
  uint64_t bits;
  memcpy(&bits, &value, sizeof(bits));
  int exponent = (int)((bits >> 52) & 0x7ff) - 1023;
  if (exponent < format->minExponent)
    exponent = format->minExponent;
  if (exponent > format->maxExponent)
    exponent = format->maxExponent;
  uint64_t ulpBits = (uint64_t)(exponent - format->mantissa + 1023) << 52;
  double ulp;
  memcpy(&ulp, &ulpBits, sizeof(ulp));
  return ulp;
}

/// `value` rounded to `format`, to nearest even, overflowing to infinity.
static double roundTo(const Format *format, double value) {
  if (format == &f32Format)
    return (float)value; // the conversion rounds to nearest even
  if (!isfinite(value) || value == 0)
    return value;
  double ulp = ulpOf(format, value);
  double rounded = nearbyint(value / ulp) * ulp; // both steps exact
  return fabs(rounded) > format->max ? copysign(INFINITY, value) : rounded;
}

static double halfToDouble(uint16_t bits) {
  double sign = bits >> 15 ? -1.0 : 1.0;
  int exponent = (bits >> 10) & 31, fraction = bits & 1023;
  if (exponent == 31)
    return fraction ? NAN : sign * INFINITY;
  if (exponent == 0)
    return sign * ldexp(fraction, -24);
  return sign * ldexp(fraction + 1024, exponent - 25);
}

/// The f16 bit pattern of an f16 value held in a double.
static uint16_t doubleToHalf(double value) {
  uint16_t sign = signbit(value) ? 0x8000 : 0;
  double a = fabs(value);
  if (isnan(value))
    return 0x7e00;
  if (isinf(a))
    return sign | 0x7c00;
  if (a < 0x1p-14)
    return sign | (uint16_t)(a * 0x1p24);
  int exponent = ilogb(a);
  return sign | (uint16_t)((exponent + 15) << 10) |
         (uint16_t)(ldexp(a, 10 - exponent) - 1024);
}

//===----------------------------------------------------------------------===//
// Statistics
//===----------------------------------------------------------------------===//

typedef struct Stats {
  double maxUlp, worstX, worstY, worstGot, worstRef;
  uint64_t inputs, notRounded, specialMismatches;
} Stats;

static bool sameSpecial(double got, double ref) {
  if (isnan(ref) || isnan(got))
    return isnan(ref) && isnan(got);
  return got == ref && signbit(got) == signbit(ref);
}

static void account(Stats *s, const char *name, const Format *format, double x,
                    double y, double got, double ref) {
  ++s->inputs;
  if (isnan(ref) || isinf(ref) || ref == 0 || isnan(got)) {
    if (!sameSpecial(got, ref) && s->specialMismatches++ < 10)
      fprintf(stderr, "math-ulp: %s(%a, %a) in %s: got %a, expected %a\n", name,
              x, y, format->name, got, ref);
    return;
  }
  double rounded = roundTo(format, ref);
  if (got != rounded)
    ++s->notRounded;
  // An overflow to the right infinity is correctly rounded; any other
  // infinity is an infinite error.
  double error = isinf(got) ? (got == rounded ? 0 : INFINITY)
                            : fabs(got - ref) / ulpOf(format, ref);
  if (error > s->maxUlp) {
    s->maxUlp = error;
    s->worstX = x;
    s->worstY = y;
    s->worstGot = got;
    s->worstRef = ref;
  }
}

static void printHeader(void) {
  printf("| op | type | inputs | max error (ulp) | at x | at y | result | "
         "reference | not correctly rounded | special mismatches |\n"
         "|---|---|--:|--:|---|---|---|---|--:|--:|\n");
}

static void printRow(const char *name, const Format *format, const Stats *s,
                     bool binary) {
  char y[32] = "";
  if (binary)
    snprintf(y, sizeof(y), "%.9g", s->worstY);
  printf("| %s | %s | %llu | %.3f | %.9g | %s | %.9g | %.9g | %llu (%.3g %%) "
         "| %llu |\n",
         name, format->name, (unsigned long long)s->inputs, s->maxUlp,
         s->worstX, y, s->worstGot, s->worstRef,
         (unsigned long long)s->notRounded,
         100.0 * (double)s->notRounded / (double)s->inputs,
         (unsigned long long)s->specialMismatches);
}

//===----------------------------------------------------------------------===//
// Running the expanded code
//===----------------------------------------------------------------------===//

static MemRef1D memrefOf(void *data, int64_t size) {
  return (MemRef1D){data, data, 0, {size}, {1}};
}

/// n rounded up to the functions' 16 lanes (the buffers have room).
static int64_t padded(int64_t n) { return (n + 15) & ~(int64_t)15; }

static void runUnary(UnaryFn fn, void *x, void *result, int64_t n) {
  MemRef1D in = memrefOf(x, padded(n)), out = memrefOf(result, padded(n));
  fn(padded(n), &in, &out);
}

static void runBinary(BinaryFn fn, void *x, void *y, void *result, int64_t n) {
  MemRef1D a = memrefOf(x, padded(n)), b = memrefOf(y, padded(n)),
           out = memrefOf(result, padded(n));
  fn(padded(n), &a, &b, &out);
}

static void *allocate(size_t bytes) {
  void *p = calloc(1, bytes + 64);
  if (!p) {
    fprintf(stderr, "math-ulp: out of memory\n");
    exit(1);
  }
  return p;
}

static bool sameBits(float a, float b) { return memcmp(&a, &b, 4) == 0; }

//===----------------------------------------------------------------------===//
// One-operand ops over every f32 and f16
//===----------------------------------------------------------------------===//

typedef struct Buffers {
  float *positive, *negative, *gotPositive, *gotNegative;
} Buffers;

/// The chunk's results of op `u`: the positive inputs against libm (or
/// `references`, when not null), the negative ones against their twin
/// where the function is symmetric.
static void accountUnary(const UnaryOp *u, Stats *s, const Buffers *b,
                         const double *references, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    double x = b->positive[i];
    double ref = references ? references[i] : u->reference(x);
    account(s, u->name, &f32Format, x, 0, b->gotPositive[i], ref);
    float twin = u->symmetry == Odd ? -b->gotPositive[i] : b->gotPositive[i];
    if (u->symmetry != None && sameBits(twin, b->gotNegative[i])) {
      ++s->inputs;
      continue;
    }
    double negative = b->negative[i];
    account(s, u->name, &f32Format, negative, 0, b->gotNegative[i],
            u->reference(negative));
  }
}

/// sin and cos of the chunk's positive inputs in one call each (glibc's
/// sincos reduces a large argument once): libm's reduction of large
/// arguments dominates the run time.
static void sinCosReferences(const float *x, int64_t n, double *sines,
                             double *cosines) {
  for (int64_t i = 0; i < n; ++i)
    sincos(x[i], &sines[i], &cosines[i]);
}

/// Every step-th f32 bit pattern with its negation, in chunks.
static void measureUnaryF32(uint64_t step, Stats stats[NUM_UNARY]) {
  Buffers b = {allocate(sizeof(float) * CHUNK), allocate(sizeof(float) * CHUNK),
               allocate(sizeof(float) * CHUNK),
               allocate(sizeof(float) * CHUNK)};
  double *sines = allocate(sizeof(double) * CHUNK),
         *cosines = allocate(sizeof(double) * CHUNK);
  for (uint64_t bits = 0; bits < (UINT64_C(1) << 31);) {
    int64_t n = 0;
    for (; n < CHUNK && bits < (UINT64_C(1) << 31); ++n, bits += step) {
      uint32_t pattern = (uint32_t)bits, negated = pattern | 0x80000000u;
      memcpy(&b.positive[n], &pattern, sizeof(float));
      memcpy(&b.negative[n], &negated, sizeof(float));
    }
    sinCosReferences(b.positive, n, sines, cosines);
    for (int u = 0; u < NUM_UNARY; ++u) {
      runUnary(unaryOps[u].f32, b.positive, b.gotPositive, n);
      runUnary(unaryOps[u].f32, b.negative, b.gotNegative, n);
      const double *references = unaryOps[u].reference == sin   ? sines
                                 : unaryOps[u].reference == cos ? cosines
                                                                : NULL;
      accountUnary(&unaryOps[u], &stats[u], &b, references, n);
    }
  }
  free(sines);
  free(cosines);
  free(b.positive);
  free(b.negative);
  free(b.gotPositive);
  free(b.gotNegative);
}

/// Every f16 bit pattern.
static void measureUnaryF16(Stats stats[NUM_UNARY]) {
  enum { COUNT = 1 << 16 };
  static uint16_t x[COUNT], result[COUNT];
  for (int i = 0; i < COUNT; ++i)
    x[i] = (uint16_t)i;
  for (int u = 0; u < NUM_UNARY; ++u) {
    runUnary(unaryOps[u].f16, x, result, COUNT);
    for (int i = 0; i < COUNT; ++i) {
      double input = halfToDouble(x[i]);
      account(&stats[u], unaryOps[u].name, &f16Format, input, 0,
              halfToDouble(result[i]), unaryOps[u].reference(input));
    }
  }
}

//===----------------------------------------------------------------------===//
// atan2 and powf on pairs
//===----------------------------------------------------------------------===//

/// Special and boundary values, each with both signs: every pair of them
/// is measured.
static const float gridValues[] = {0.0f,
                                   0x1p-149f,
                                   0x1.fffffcp-127f,
                                   0x1p-126f,
                                   0x1p-60f,
                                   0.1f,
                                   0.5f,
                                   0x1.fffffep-1f,
                                   1.0f,
                                   0x1.000002p0f,
                                   1.5f,
                                   2.0f,
                                   2.5f,
                                   3.0f,
                                   0x1.a8279ap-2f,
                                   0x1.3504f4p1f,
                                   10.0f,
                                   100.0f,
                                   0x1.fffffep22f,
                                   0x1p23f,
                                   0x1.000002p23f,
                                   0x1p24f,
                                   0x1.000002p24f,
                                   1e10f,
                                   0x1.fffffep127f,
                                   INFINITY,
                                   NAN};
enum { GRID = 2 * sizeof(gridValues) / sizeof(gridValues[0]) };

static float gridValue(int i) {
  return i % 2 ? -gridValues[i / 2] : gridValues[i / 2];
}

static float randomBits(uint64_t *state) {
  uint32_t bits = (uint32_t)benchSplitMix64(state);
  float value;
  memcpy(&value, &bits, sizeof(value));
  return value;
}

/// A uniform double in [0, 1).
static double uniform(uint64_t *state) {
  return (double)(benchSplitMix64(state) >> 11) * 0x1p-53;
}

/// A pair aimed where powf's results are finite and non-zero: x of any
/// exponent, y = t / log2|x| with |t| <= 160, or a small integer with a
/// negative x.
static void aimedPowPair(uint64_t *state, float *x, float *y) {
  uint32_t bits = (uint32_t)benchSplitMix64(state) & 0x7fffffffu;
  memcpy(x, &bits, sizeof(*x));
  if (!isfinite(*x) || *x == 0)
    *x = 0.75f;
  if (benchSplitMix64(state) & 1) {
    *x = -*x;
    *y = (float)((int)(benchSplitMix64(state) % 81) - 40);
    return;
  }
  *y = (float)((uniform(state) * 320 - 160) / log2(*x));
}

/// A pair aimed at atan2's interesting ratios: y = x m, m in [2^-8, 2^8].
static void aimedAtan2Pair(uint64_t *state, float *x, float *y) {
  *x = randomBits(state);
  double m = exp2(uniform(state) * 16 - 8);
  *y = (float)((benchSplitMix64(state) & 1 ? m : -m) * *x);
}

/// Pair i of the measurement of `op`: the grid, then random bit patterns,
/// then aimed pairs.
static void pairOf(const BinaryOp *op, uint64_t i, uint64_t randomCount,
                   uint64_t *state, float *x, float *y) {
  if (i < (uint64_t)GRID * GRID) {
    *x = gridValue((int)(i / GRID));
    *y = gridValue((int)(i % GRID));
  } else if (i < (uint64_t)GRID * GRID + randomCount) {
    *x = randomBits(state);
    *y = randomBits(state);
  } else if (op->power) {
    aimedPowPair(state, x, y);
  } else {
    aimedAtan2Pair(state, x, y);
  }
}

/// The grid and 2 * randomCount more pairs through op `b`.
static void measureBinaryF32(const BinaryOp *op, uint64_t randomCount,
                             Stats *s) {
  float *x = allocate(sizeof(float) * CHUNK),
        *y = allocate(sizeof(float) * CHUNK),
        *got = allocate(sizeof(float) * CHUNK);
  uint64_t state = 0x5eed, total = (uint64_t)GRID * GRID + 2 * randomCount;
  for (uint64_t i = 0; i < total;) {
    int64_t n = 0;
    for (; n < CHUNK && i < total; ++n, ++i)
      pairOf(op, i, randomCount, &state, &x[n], &y[n]);
    runBinary(op->f32, x, y, got, n);
    for (int64_t k = 0; k < n; ++k)
      account(s, op->name, &f32Format, x[k], y[k], got[k],
              op->reference(x[k], y[k]));
  }
  free(x);
  free(y);
  free(got);
}

/// The grid (rounded to f16) and 2^20 random pairs of f16 bit patterns.
static void measureBinaryF16(const BinaryOp *op, Stats *s) {
  enum { COUNT = 1 << 20 };
  static uint16_t x[COUNT], y[COUNT], result[COUNT];
  uint64_t state = 0xf16;
  for (int i = 0; i < COUNT; ++i) {
    if (i < GRID * GRID) {
      x[i] = doubleToHalf(roundTo(&f16Format, gridValue(i / GRID)));
      y[i] = doubleToHalf(roundTo(&f16Format, gridValue(i % GRID)));
    } else {
      uint64_t bits = benchSplitMix64(&state);
      x[i] = (uint16_t)bits;
      y[i] = (uint16_t)(bits >> 16);
    }
  }
  runBinary(op->f16, x, y, result, COUNT);
  for (int i = 0; i < COUNT; ++i) {
    double a = halfToDouble(x[i]), b = halfToDouble(y[i]);
    account(s, op->name, &f16Format, a, b, halfToDouble(result[i]),
            op->reference(a, b));
  }
}

//===----------------------------------------------------------------------===//
// Throughput
//===----------------------------------------------------------------------===//

enum { SPEED_COUNT = 1 << 16, SPEED_RUNS = 5 };

/// Elements per second of `run` (which processes SPEED_COUNT elements per
/// call): the best of SPEED_RUNS runs of at least 0.1 s.
static double throughput(void (*run)(const void *), const void *context) {
  double best = 0;
  for (int r = 0; r < SPEED_RUNS; ++r) {
    double start = benchSeconds(), elapsed;
    uint64_t calls = 0;
    do {
      run(context);
      ++calls;
      elapsed = benchSeconds() - start;
    } while (elapsed < 0.1);
    double rate = (double)calls * SPEED_COUNT / elapsed;
    best = rate > best ? rate : best;
  }
  return best;
}

typedef struct SpeedCase {
  const UnaryOp *unary;
  const BinaryOp *binary;
  float *x, *y, *result;
} SpeedCase;

static void runExpanded(const void *context) {
  const SpeedCase *c = context;
  if (c->unary)
    runUnary(c->unary->f32, c->x, c->result, SPEED_COUNT);
  else
    runBinary(c->binary->f32, c->x, c->y, c->result, SPEED_COUNT);
}

static void runLibm(const void *context) {
  const SpeedCase *c = context;
  if (c->unary)
    for (int i = 0; i < SPEED_COUNT; ++i)
      c->result[i] = c->unary->libm(c->x[i]);
  else
    for (int i = 0; i < SPEED_COUNT; ++i)
      c->result[i] = c->binary->libm(c->x[i], c->y[i]);
}

static void printSpeed(const char *name, SpeedCase *c) {
  double expanded = throughput(runExpanded, c);
  double libm = throughput(runLibm, c);
  printf("| %s | %.0f | %.0f | %.2f |\n", name, expanded / 1e6, libm / 1e6,
         expanded / libm);
}

/// Throughput of every f32 op against libm, on inputs uniform in the op's
/// typical range (powf: x in [0, 10], y in [-8, 8]; atan2: both in
/// [-10, 10]).
static void measureSpeed(void) {
  float *x = allocate(sizeof(float) * SPEED_COUNT),
        *y = allocate(sizeof(float) * SPEED_COUNT),
        *result = allocate(sizeof(float) * SPEED_COUNT);
  printf("\n| op (f32) | expanded, M elements/s | libm, M elements/s | "
         "ratio |\n|---|--:|--:|--:|\n");
  uint64_t state = 0x5eed5;
  for (int u = 0; u < NUM_UNARY; ++u) {
    const UnaryOp *op = &unaryOps[u];
    for (int i = 0; i < SPEED_COUNT; ++i)
      x[i] = (float)(op->low + (op->high - op->low) * uniform(&state));
    SpeedCase c = {op, NULL, x, y, result};
    printSpeed(op->name, &c);
  }
  for (int b = 0; b < NUM_BINARY; ++b) {
    bool power = binaryOps[b].power;
    for (int i = 0; i < SPEED_COUNT; ++i) {
      x[i] = (float)(power ? 10 * uniform(&state) : 20 * uniform(&state) - 10);
      y[i] =
          (float)(power ? 16 * uniform(&state) - 8 : 20 * uniform(&state) - 10);
    }
    SpeedCase c = {NULL, &binaryOps[b], x, y, result};
    printSpeed(binaryOps[b].name, &c);
  }
  free(x);
  free(y);
  free(result);
}

int main(int argc, char **argv) {
  uint64_t step = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
  if (argc > 2 || step == 0) {
    fprintf(stderr, "usage: math-ulp [step]\n");
    return 1;
  }
  Stats unaryF32[NUM_UNARY] = {0}, unaryF16[NUM_UNARY] = {0};
  Stats binaryF32[NUM_BINARY] = {0}, binaryF16[NUM_BINARY] = {0};
  double start = benchSeconds();
  measureUnaryF32(step, unaryF32);
  measureUnaryF16(unaryF16);
  for (int b = 0; b < NUM_BINARY; ++b) {
    measureBinaryF32(&binaryOps[b], (UINT64_C(1) << 26) / step, &binaryF32[b]);
    measureBinaryF16(&binaryOps[b], &binaryF16[b]);
  }
  printHeader();
  uint64_t mismatches = 0;
  for (int u = 0; u < NUM_UNARY; ++u) {
    printRow(unaryOps[u].name, &f32Format, &unaryF32[u], false);
    printRow(unaryOps[u].name, &f16Format, &unaryF16[u], false);
    mismatches += unaryF32[u].specialMismatches + unaryF16[u].specialMismatches;
  }
  for (int b = 0; b < NUM_BINARY; ++b) {
    printRow(binaryOps[b].name, &f32Format, &binaryF32[b], true);
    printRow(binaryOps[b].name, &f16Format, &binaryF16[b], true);
    mismatches +=
        binaryF32[b].specialMismatches + binaryF16[b].specialMismatches;
  }
  printf("\naccuracy: %.0f s (step %llu)\n", benchSeconds() - start,
         (unsigned long long)step);
  measureSpeed();
  return mismatches ? 1 : 0;
}
