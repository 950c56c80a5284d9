//===- OpRules.c - Per-op rules of coopvec-verify -------------------------===//
//
// Dispatches a coopvec op to its rule (the `rule` column of Ops.def).
// coopvecVerify has run the IRDL verifier first, so a rule may rely on the
// operand and result counts and on every type relation IRDL unifies. Ops
// whose rule is NULL are fully checked by their IRDL definition.
//
//===----------------------------------------------------------------------===//

#include "Dialect/OpRules.h"
#include "Dialect/OpTable.h"
#include "Dialect/Verifier.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinTypes.h>

#include <stdio.h>

typedef bool (*OpRule)(MlirOperation op);

/// The rule column of Ops.def, indexed by CoopvecOpId.
static const OpRule opRules[] = {
#define COOPVEC_OP(Id, mnemonic, Class, minOps, maxOps, broadcast, Effect,     \
                   rule)                                                       \
  rule,
#include "Dialect/Ops.def"
};

bool coopvecVerifyOpRules(MlirOperation op) {
  const CoopvecOpInfo *info = coopvecLookupOp(op);
  return !info || !opRules[info->id] || opRules[info->id](op);
}

CoopvecTypeText coopvecTypeText(MlirType type) {
  CoopvecTypeText result = {{0}};
  if (mlirTypeIsNull(type)) {
    snprintf(result.text, sizeof(result.text), "<<null type>>");
    return result;
  }
  CoopvecBuffer printed = {0};
  mlirTypePrint(type, coopvecBufferCallback, &printed);
  snprintf(result.text, sizeof(result.text), "%s", coopvecBufferStr(&printed));
  coopvecBufferFree(&printed);
  return result;
}

MlirType coopvecOperandType(MlirOperation op, intptr_t index) {
  return mlirValueGetType(mlirOperationGetOperand(op, index));
}

MlirType coopvecResultType(MlirOperation op, intptr_t index) {
  return mlirValueGetType(mlirOperationGetResult(op, index));
}

/// Offsets count elements from element 0, and the targets move N
/// consecutive elements with one vector access: the buffer's elements must
/// be adjacent in memory.
static bool checkUnitStride(MlirOperation op, const char *role,
                            MlirType buffer) {
  int64_t stride = 0, offset = 0;
  if (mlirLogicalResultIsSuccess(
          mlirMemRefTypeGetStridesAndOffset(buffer, &stride, &offset)) &&
      stride == 1)
    return true;
  coopvecEmitOpError(op, "%s %s must have unit stride", role,
                     coopvecTypeText(buffer).text);
  return false;
}

bool coopvecCheckBuffer(MlirOperation op, const char *role, MlirType buffer,
                        MlirType element) {
  if (mlirTypeIsAMemRef(buffer) && mlirShapedTypeGetRank(buffer) == 1 &&
      mlirTypeEqual(mlirShapedTypeGetElementType(buffer), element))
    return checkUnitStride(op, role, buffer);
  coopvecEmitOpError(op, "%s must be a rank-1 memref of %s, got %s", role,
                     coopvecTypeText(element).text,
                     coopvecTypeText(buffer).text);
  return false;
}
