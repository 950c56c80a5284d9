//===- Constants.c - Values of arith.constant -----------------------------===//

#include "Dialect/Constants.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>

bool coopvecIntegerConstant(MlirValue value, int64_t *out) {
  if (!mlirValueIsAOpResult(value))
    return false;
  MlirOperation def = mlirOpResultGetOwner(value);
  if (!coopvecOpIsNamed(def, "arith.constant"))
    return false;
  MlirAttribute attr = mlirOperationGetAttributeByName(
      def, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(attr) || !mlirAttributeIsAInteger(attr))
    return false;
  *out = mlirIntegerAttrGetValueInt(attr);
  return true;
}
