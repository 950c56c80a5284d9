//===- Math.h - The math library on element values (internal) -----*- C -*-===//
//
// Transcendental functions (and an exact fmod) as straight-line arith code and
// math.fma (no calls, loops or branches: selects for the special cases) on f32
// scalars or vectors of f32 of any shape, created where `b` inserts. Every
// target runs the same code, so one measured ulp bound holds on every engine.
// Special values are C99 Annex F's; subnormal inputs and results are kept.
// The code assumes IEEE f32 arithmetic with a fused fma, correctly rounded
// division and the default environment (round to nearest even, no
// flush-to-zero). Bounds: docs/execution-model.md, "Transcendentals".
//
// Callers: the per-thread lowering (coopvec.exp2 / log2 / tanh on element
// values) and coopvec-expand-math (the math dialect ops, f16 widened).
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_MATH_MATH_H
#define COOPVEC_LIB_MATH_MATH_H

#include "coopvec-c/Builders.h"

/// Exp.c: 2^x, e^x, tanh(x).
MlirValue coopvecEmitExp2(CoopvecBuilder *b, MlirValue x);
MlirValue coopvecEmitExp(CoopvecBuilder *b, MlirValue x);
MlirValue coopvecEmitTanh(CoopvecBuilder *b, MlirValue x);
/// tanh for results that are rounded to f16: relative error below 2^-21
/// before that rounding, in a fifth of the operations of coopvecEmitTanh.
MlirValue coopvecEmitTanhForF16(CoopvecBuilder *b, MlirValue x);

/// Log.c: log2(x), ln(x), x^y (math.powf).
MlirValue coopvecEmitLog2(CoopvecBuilder *b, MlirValue x);
MlirValue coopvecEmitLog(CoopvecBuilder *b, MlirValue x);
MlirValue coopvecEmitPow(CoopvecBuilder *b, MlirValue x, MlirValue y);

/// Trig.c: sin(x), cos(x), with an exact reduction for every f32.
MlirValue coopvecEmitSin(CoopvecBuilder *b, MlirValue x);
MlirValue coopvecEmitCos(CoopvecBuilder *b, MlirValue x);

/// Atan.c: atan(x), and atan2(y, x) (math.atan2's operand order).
MlirValue coopvecEmitAtan(CoopvecBuilder *b, MlirValue x);
MlirValue coopvecEmitAtan2(CoopvecBuilder *b, MlirValue y, MlirValue x);

/// Erf.c: erf(x).
MlirValue coopvecEmitErf(CoopvecBuilder *b, MlirValue x);

/// Rsqrt.c: 1/sqrt(x), without math.sqrt.
MlirValue coopvecEmitRsqrt(CoopvecBuilder *b, MlirValue x);

/// Fmod.c: fmod(x, y) (arith.remf), exact for every pair; no fma or
/// division per step, so a target's unfused fma or inexact division does
/// not change it.
MlirValue coopvecEmitFmod(CoopvecBuilder *b, MlirValue x, MlirValue y);
/// fmod for x and y that are f16 values (widened to f32): 3 reduction steps
/// in place of 22, enough for f16's exponent range.
MlirValue coopvecEmitFmodOfF16(CoopvecBuilder *b, MlirValue x, MlirValue y);

#endif // COOPVEC_LIB_MATH_MATH_H
