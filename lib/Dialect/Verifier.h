//===- Verifier.h - coopvec-verify internals ----------------------*- C -*-===//

#ifndef COOPVEC_LIB_DIALECT_VERIFIER_H
#define COOPVEC_LIB_DIALECT_VERIFIER_H

#include <mlir-c/IR.h>

#include <stdbool.h>

/// The largest vec size and matrix dimension coopvec accepts. Real layers
/// are 16..128 wide; the bound keeps unpack/from_elements lists, unrolled
/// lowerings and the byte size of a matrix (4096 * 4096 * 4 bytes < 2^31)
/// within 32-bit index arithmetic on GPUs.
#define COOPVEC_MAX_DIMENSION 4096

/// Emits "'<op name>' op <message>" at the op's location.
void coopvecEmitOpError(MlirOperation op, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/// Checks the op-specific rules of a coopvec op (OpRules.c); other ops pass.
/// Returns false after emitting an error.
bool coopvecVerifyOpRules(MlirOperation op);

#endif // COOPVEC_LIB_DIALECT_VERIFIER_H
