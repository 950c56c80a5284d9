//===- Constants.h - Values of arith.constant (internal) ----------*- C -*-===//
//
// The passes read loop bounds, offsets, indices and conditions that are
// constants; this is the one place that knows how to.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_DIALECT_CONSTANTS_H
#define COOPVEC_LIB_DIALECT_CONSTANTS_H

#include <mlir-c/IR.h>

#include <stdbool.h>
#include <stdint.h>

/// Whether `value` is the result of an integer (or index, or i1)
/// `arith.constant`; its value, sign-extended, in `*out`.
bool coopvecIntegerConstant(MlirValue value, int64_t *out);

#endif // COOPVEC_LIB_DIALECT_CONSTANTS_H
