//===- Operation.h - Small operation queries (internal) -----------*- C -*-===//

#ifndef COOPVEC_LIB_SUPPORT_OPERATION_H
#define COOPVEC_LIB_SUPPORT_OPERATION_H

#include <mlir-c/IR.h>

#include <stdbool.h>

/// Whether `op` is non-null and named `name` (e.g. "coopvec.matvec").
bool coopvecOpIsNamed(MlirOperation op, const char *name);

#endif // COOPVEC_LIB_SUPPORT_OPERATION_H
