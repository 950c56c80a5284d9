//===- Verifier.h - coopvec-verify internals ----------------------*- C -*-===//

#ifndef COOPVEC_LIB_DIALECT_VERIFIER_H
#define COOPVEC_LIB_DIALECT_VERIFIER_H

#include <mlir-c/IR.h>

#include <stdbool.h>

/// Emits "'<op name>' op <message>" at the op's location.
void coopvecEmitOpError(MlirOperation op, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/// Checks the op-specific rules of a coopvec op (OpRules.c); other ops pass.
/// Returns false after emitting an error.
bool coopvecVerifyOpRules(MlirOperation op);

#endif // COOPVEC_LIB_DIALECT_VERIFIER_H
