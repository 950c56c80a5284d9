//===- Math.h - exp2, log2 and tanh on element values (internal) --*- C -*-===//
//
// The transcendental elementwise ops, on f32 scalars or vectors of f32, with
// the special values of docs/dialect.md. Shared by every target.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_CONVERSION_PERTHREAD_MATH_H
#define COOPVEC_LIB_CONVERSION_PERTHREAD_MATH_H

#include "coopvec-c/Builders.h"

MlirValue coopvecEmitExp2(CoopvecBuilder *b, MlirValue x);
MlirValue coopvecEmitLog2(CoopvecBuilder *b, MlirValue x);
MlirValue coopvecEmitTanh(CoopvecBuilder *b, MlirValue x);
/// tanh for results that are rounded to f16: relative error below 2^-21
/// before that rounding, in a fifth of the operations of coopvecEmitTanh.
MlirValue coopvecEmitTanhForF16(CoopvecBuilder *b, MlirValue x);

#endif // COOPVEC_LIB_CONVERSION_PERTHREAD_MATH_H
