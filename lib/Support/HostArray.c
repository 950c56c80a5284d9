//===- Half.c - IEEE binary16 conversions and host arrays -----------------===//
//
// The conversions are written with integer arithmetic on the bit patterns so
// that they do not depend on a compiler's _Float16 support or on the
// floating-point rounding mode.
//
//===----------------------------------------------------------------------===//

#include "coopvec-c/HostArray.h"

#include <math.h>
#include <string.h>

enum { HALF_SIGN = 0x8000, HALF_INF = 0x7c00, HALF_QUIET_NAN = 0x7e00 };

double coopvecHalfToDouble(uint16_t half) {
  int exponent = (half >> 10) & 0x1f;
  int mantissa = half & 0x3ff;
  double magnitude;
  if (exponent == 0x1f)
    magnitude = mantissa ? NAN : INFINITY;
  else if (exponent == 0) // subnormal: mantissa * 2^-24
    magnitude = ldexp((double)mantissa, -24);
  else
    magnitude = ldexp((double)(mantissa | 0x400), exponent - 25);
  return (half & HALF_SIGN) ? -magnitude : magnitude;
}

/// Shifts `mantissa` right by `shift` bits, rounding to nearest, ties to
/// even.
static uint64_t shiftRoundEven(uint64_t mantissa, int shift) {
  if (shift >= 64)
    return 0;
  uint64_t kept = mantissa >> shift;
  uint64_t rest = mantissa & ((UINT64_C(1) << shift) - 1);
  uint64_t halfway = UINT64_C(1) << (shift - 1);
  if (rest > halfway || (rest == halfway && (kept & 1)))
    ++kept;
  return kept;
}

uint16_t coopvecDoubleToHalf(double value) {
  uint64_t bits;
  memcpy(&bits, &value, sizeof(bits));
  uint16_t sign = (uint16_t)((bits >> 48) & HALF_SIGN);
  int biasedExponent = (int)((bits >> 52) & 0x7ff);
  uint64_t fraction = bits & ((UINT64_C(1) << 52) - 1);
  if (biasedExponent == 0x7ff)
    return sign | (fraction ? HALF_QUIET_NAN : HALF_INF);
  // 65520 is halfway between the largest half (65504) and 2^16; the tie
  // rounds to the even neighbour, infinity.
  if (fabs(value) >= 65520.0)
    return sign | HALF_INF;
  if (biasedExponent == 0) // double subnormals are far below half's range
    return sign;
  int exponent = biasedExponent - 1023;
  uint64_t mantissa = fraction | (UINT64_C(1) << 52);
  // Normal halves keep 10 fraction bits (shift 42); below 2^-14 the result
  // is subnormal and keeps fewer. A carry out of the rounding moves into
  // the exponent field, which is the correct next representable value.
  if (exponent >= -14) {
    uint64_t rounded = shiftRoundEven(mantissa, 42);
    return sign | (uint16_t)(((uint64_t)(exponent + 14) << 10) + rounded);
  }
  return sign | (uint16_t)shiftRoundEven(mantissa, 42 + (-14 - exponent));
}

float coopvecHalfToFloat(uint16_t half) {
  return (float)coopvecHalfToDouble(half);
}

uint16_t coopvecFloatToHalf(float value) {
  return coopvecDoubleToHalf((double)value);
}

int64_t coopvecDTypeGetSize(CoopvecDType dtype) {
  switch (dtype) {
  case CoopvecDTypeF16:
    return 2;
  case CoopvecDTypeF32:
  case CoopvecDTypeI32:
    return 4;
  case CoopvecDTypeF64:
  case CoopvecDTypeI64:
    return 8;
  case CoopvecDTypeI8:
    return 1;
  }
  return 0;
}

const char *coopvecDTypeGetName(CoopvecDType dtype) {
  switch (dtype) {
  case CoopvecDTypeF16:
    return "f16";
  case CoopvecDTypeF32:
    return "f32";
  case CoopvecDTypeF64:
    return "f64";
  case CoopvecDTypeI8:
    return "i8";
  case CoopvecDTypeI32:
    return "i32";
  case CoopvecDTypeI64:
    return "i64";
  }
  return "<invalid dtype>";
}

double coopvecArrayGet(const CoopvecArray *array, int64_t index) {
  switch (array->dtype) {
  case CoopvecDTypeF16:
    return coopvecHalfToDouble(((const uint16_t *)array->data)[index]);
  case CoopvecDTypeF32:
    return ((const float *)array->data)[index];
  case CoopvecDTypeF64:
    return ((const double *)array->data)[index];
  case CoopvecDTypeI8:
    return ((const int8_t *)array->data)[index];
  case CoopvecDTypeI32:
    return ((const int32_t *)array->data)[index];
  case CoopvecDTypeI64:
    return (double)((const int64_t *)array->data)[index];
  }
  return NAN;
}

/// Converts toward zero; NaN becomes 0 and out-of-range values saturate, as
/// a plain C cast would be undefined for them.
static int64_t doubleToInt(double value) {
  if (isnan(value))
    return 0;
  if (value >= 9223372036854775807.0)
    return INT64_MAX;
  if (value <= -9223372036854775808.0)
    return INT64_MIN;
  return (int64_t)value;
}

void coopvecArraySet(CoopvecArray *array, int64_t index, double value) {
  switch (array->dtype) {
  case CoopvecDTypeF16:
    ((uint16_t *)array->data)[index] = coopvecDoubleToHalf(value);
    return;
  case CoopvecDTypeF32:
    ((float *)array->data)[index] = (float)value;
    return;
  case CoopvecDTypeF64:
    ((double *)array->data)[index] = value;
    return;
  case CoopvecDTypeI8:
    ((int8_t *)array->data)[index] = (int8_t)(uint8_t)doubleToInt(value);
    return;
  case CoopvecDTypeI32:
    ((int32_t *)array->data)[index] = (int32_t)(uint32_t)doubleToInt(value);
    return;
  case CoopvecDTypeI64:
    ((int64_t *)array->data)[index] = doubleToInt(value);
    return;
  }
}
