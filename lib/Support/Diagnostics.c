//===- Diagnostics.c - Shared diagnostic helpers --------------------------===//

#include "Support/Diagnostics.h"

const char *coopvecSeverityName(MlirDiagnosticSeverity severity) {
  switch (severity) {
  case MlirDiagnosticError:
    return "error";
  case MlirDiagnosticWarning:
    return "warning";
  case MlirDiagnosticNote:
    return "note";
  case MlirDiagnosticRemark:
    return "remark";
  }
  return "diagnostic";
}
