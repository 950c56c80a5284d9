//===- Operation.c - Small operation queries ------------------------------===//

#include "Support/Operation.h"

bool coopvecOpIsNamed(MlirOperation op, const char *name) {
  return !mlirOperationIsNull(op) &&
         mlirStringRefEqual(mlirIdentifierStr(mlirOperationGetName(op)),
                            mlirStringRefCreateFromCString(name));
}
