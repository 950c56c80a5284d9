//===- math-ulp.c - Accuracy of the lowered exp2, log2 and tanh -----------===//
//
// usage: math-ulp [step]    (default 1: every one of the 2^32 f32 inputs)
//
// Runs every f32 bit pattern (every step-th one with an argument) and every
// f16 bit pattern through coopvec.exp2, coopvec.log2 and coopvec.tanh as
// coopvec-lower-to-cpu compiles them (math_ulp.o, built from
// bench/math-ulp.mlir by this build's coopvec-opt) and compares each result
// with C's exp2 / log2 / tanh in double precision. Prints one Markdown table
// row per function and type:
//
//   - the largest error in ulps of the result type, |got - ref| / ulp(ref),
//     against the double value before rounding (ulp(ref): the spacing of
//     the result type's values in ref's binade; subnormals have the
//     smallest normal's), with the input where it occurs;
//   - how many results differ from the double reference rounded to nearest
//     even (not correctly rounded);
//   - special-value mismatches: where the reference is NaN, infinite or zero
//     the result must be exactly that (any NaN; the same infinity; a zero
//     of the same sign), and a NaN result needs a NaN reference.
//
// Exits 1 if any special value is wrong. A benchmark-style tool, not a test
// (the whole f32 range takes minutes): docs/execution-model.md records its
// output; test/Integration/CPU/math-accuracy.mlir checks the bound on a
// sample.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct MemRef1D {
  void *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} MemRef1D;

void _mlir_ciface_math_f32_batched(int64_t n, MemRef1D *x, MemRef1D *exp2,
                                   MemRef1D *log2, MemRef1D *tanh);
void _mlir_ciface_math_f16_batched(int64_t n, MemRef1D *x, MemRef1D *exp2,
                                   MemRef1D *log2, MemRef1D *tanh);

enum { NUM_FUNCTIONS = 3, CHUNK = 1 << 20 };
static const char *const functionNames[NUM_FUNCTIONS] = {"exp2", "log2",
                                                         "tanh"};

static double reference(int function, double x) {
  switch (function) {
  case 0:
    return exp2(x);
  case 1:
    return log2(x);
  default:
    return tanh(x);
  }
}

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

/// The spacing of `format`'s values around `value` (finite, nonzero).
static double ulpOf(const Format *format, double value) {
  int exponent = ilogb(value);
  if (exponent < format->minExponent)
    exponent = format->minExponent;
  if (exponent > format->maxExponent)
    exponent = format->maxExponent;
  return ldexp(1.0, exponent - format->mantissa);
}

/// `value` rounded to `format`, to nearest even, overflowing to infinity.
static double roundTo(const Format *format, double value) {
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

//===----------------------------------------------------------------------===//
// Statistics
//===----------------------------------------------------------------------===//

typedef struct Stats {
  double maxUlp, worstX, worstGot, worstRef;
  uint64_t inputs, notRounded, specialMismatches;
} Stats;

static bool sameSpecial(double got, double ref) {
  if (isnan(ref) || isnan(got))
    return isnan(ref) && isnan(got);
  return got == ref && signbit(got) == signbit(ref);
}

static void reportMismatch(int function, const Format *format, double x,
                           double got, double ref) {
  fprintf(stderr, "math-ulp: %s(%a) in %s: got %a, expected %a\n",
          functionNames[function], x, format->name, got, ref);
}

static void account(Stats *s, int function, const Format *format, double x,
                    double got) {
  double ref = reference(function, x);
  ++s->inputs;
  if (isnan(ref) || isinf(ref) || ref == 0 || isnan(got)) {
    if (!sameSpecial(got, ref) && s->specialMismatches++ < 10)
      reportMismatch(function, format, x, got, ref);
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
    s->worstGot = got;
    s->worstRef = ref;
  }
}

static void printHeader(void) {
  printf("| function | type | inputs | max error (ulp) | at x | result | "
         "reference | not correctly rounded | special mismatches |\n"
         "|---|---|--:|--:|---|---|---|--:|--:|\n");
}

static void printRow(int function, const Format *format, const Stats *s) {
  printf("| %s | %s | %llu | %.3f | %.9g | %.9g | %.9g | %llu (%.3g %%) | "
         "%llu |\n",
         functionNames[function], format->name, (unsigned long long)s->inputs,
         s->maxUlp, s->worstX, s->worstGot, s->worstRef,
         (unsigned long long)s->notRounded,
         100.0 * (double)s->notRounded / (double)s->inputs,
         (unsigned long long)s->specialMismatches);
}

//===----------------------------------------------------------------------===//
// Running the lowered code
//===----------------------------------------------------------------------===//

static MemRef1D memrefOf(void *data, int64_t size) {
  return (MemRef1D){data, data, 0, {size}, {1}};
}

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/// results[f][i] = function f of x[i], through the lowered f32 code.
static void runF32(float *x, int64_t n, float *results[NUM_FUNCTIONS]) {
  MemRef1D in = memrefOf(x, n), e = memrefOf(results[0], n),
           l = memrefOf(results[1], n), t = memrefOf(results[2], n);
  _mlir_ciface_math_f32_batched(n, &in, &e, &l, &t);
}

/// Every step-th f32 bit pattern, in chunks; returns the seconds spent in
/// the lowered code.
static double measureF32(uint64_t step, Stats stats[NUM_FUNCTIONS]) {
  float *x = malloc(sizeof(float) * CHUNK);
  float *results[NUM_FUNCTIONS];
  for (int f = 0; f < NUM_FUNCTIONS; ++f)
    results[f] = malloc(sizeof(float) * CHUNK);
  double lowered = 0;
  for (uint64_t bits = 0; bits < (UINT64_C(1) << 32);) {
    int64_t n = 0;
    for (; n < CHUNK && bits < (UINT64_C(1) << 32); ++n, bits += step) {
      uint32_t pattern = (uint32_t)bits;
      memcpy(&x[n], &pattern, sizeof(float));
    }
    double start = seconds();
    runF32(x, n, results);
    lowered += seconds() - start;
    for (int f = 0; f < NUM_FUNCTIONS; ++f)
      for (int64_t i = 0; i < n; ++i)
        account(&stats[f], f, &f32Format, x[i], results[f][i]);
  }
  free(x);
  for (int f = 0; f < NUM_FUNCTIONS; ++f)
    free(results[f]);
  return lowered;
}

/// Every f16 bit pattern.
static void measureF16(Stats stats[NUM_FUNCTIONS]) {
  enum { COUNT = 1 << 16 };
  static uint16_t x[COUNT], results[NUM_FUNCTIONS][COUNT];
  for (int i = 0; i < COUNT; ++i)
    x[i] = (uint16_t)i;
  MemRef1D in = memrefOf(x, COUNT), e = memrefOf(results[0], COUNT),
           l = memrefOf(results[1], COUNT), t = memrefOf(results[2], COUNT);
  _mlir_ciface_math_f16_batched(COUNT, &in, &e, &l, &t);
  for (int f = 0; f < NUM_FUNCTIONS; ++f)
    for (int i = 0; i < COUNT; ++i)
      account(&stats[f], f, &f16Format, halfToDouble(x[i]),
              halfToDouble(results[f][i]));
}

int main(int argc, char **argv) {
  uint64_t step = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
  if (argc > 2 || step == 0) {
    fprintf(stderr, "usage: math-ulp [step]\n");
    return 1;
  }
  Stats f32Stats[NUM_FUNCTIONS] = {0}, f16Stats[NUM_FUNCTIONS] = {0};
  double lowered = measureF32(step, f32Stats);
  measureF16(f16Stats);
  printHeader();
  uint64_t mismatches = 0;
  for (int f = 0; f < NUM_FUNCTIONS; ++f) {
    printRow(f, &f32Format, &f32Stats[f]);
    printRow(f, &f16Format, &f16Stats[f]);
    mismatches += f32Stats[f].specialMismatches + f16Stats[f].specialMismatches;
  }
  printf("\nlowered code: %.2f s for exp2 + log2 + tanh of %llu f32 inputs "
         "(%.2f ns per input)\n",
         lowered, (unsigned long long)f32Stats[0].inputs,
         1e9 * lowered / (double)f32Stats[0].inputs);
  return mismatches ? 1 : 0;
}
