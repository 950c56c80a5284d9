//===- Diagnostics.h - Shared diagnostic helpers (internal) -------*- C -*-===//

#ifndef COOPVEC_LIB_SUPPORT_DIAGNOSTICS_H
#define COOPVEC_LIB_SUPPORT_DIAGNOSTICS_H

#include <mlir-c/Diagnostics.h>

/// "error", "warning", "note" or "remark", as MLIR prints severities.
const char *coopvecSeverityName(MlirDiagnosticSeverity severity);

#endif // COOPVEC_LIB_SUPPORT_DIAGNOSTICS_H
