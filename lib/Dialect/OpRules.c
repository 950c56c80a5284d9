//===- OpRules.c - Per-op rules of coopvec-verify -------------------------===//
//
// Dispatches a coopvec op to its rule by name. coopvecVerify has run the
// IRDL verifier first, so a rule may rely on the operand and result counts
// and on every type relation IRDL unifies. Ops without a row here (splat,
// cast, neg, exp2, log2, tanh) are fully checked by their IRDL definition.
//
//===----------------------------------------------------------------------===//

#include "Dialect/OpRules.h"
#include "Dialect/Verifier.h"

#include "Support/Buffer.h"

#include <mlir-c/BuiltinTypes.h>

#include <stdio.h>
#include <string.h>

typedef bool (*OpRule)(MlirOperation op);

typedef struct OpRuleEntry {
  const char *name; // without the "coopvec." prefix
  OpRule check;
} OpRuleEntry;

static const OpRuleEntry opRules[] = {
    {"from_elements", coopvecVerifyFromElements},
    {"unpack", coopvecVerifyUnpack},
    {"from_vector", coopvecVerifyFromVector},
    {"to_vector", coopvecVerifyToVector},
    {"load", coopvecVerifyLoad},
    {"masked_load", coopvecVerifyMaskedLoad},
    {"store", coopvecVerifyStore},
    {"masked_store", coopvecVerifyMaskedStore},
    {"matrix_view", coopvecVerifyMatrixView},
    {"add", coopvecVerifyBinary},
    {"sub", coopvecVerifyBinary},
    {"mul", coopvecVerifyBinary},
    {"min", coopvecVerifyBinary},
    {"max", coopvecVerifyBinary},
    {"step", coopvecVerifyBinary},
    {"fma", coopvecVerifyFma},
    {"matvec", coopvecVerifyMatvec},
    {"outer_product_accumulate", coopvecVerifyOuterProductAccumulate},
    {"reduce_sum_accumulate", coopvecVerifyReduceSumAccumulate},
};

static const char dialectPrefix[] = "coopvec.";

/// The table row for `op`, or NULL if it is not a coopvec op with rules.
static const OpRuleEntry *lookupRule(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  size_t prefixLength = sizeof(dialectPrefix) - 1;
  if (name.length <= prefixLength ||
      strncmp(name.data, dialectPrefix, prefixLength) != 0)
    return NULL;
  const char *mnemonic = name.data + prefixLength;
  size_t mnemonicLength = name.length - prefixLength;
  for (size_t i = 0; i < sizeof(opRules) / sizeof(opRules[0]); ++i)
    if (strlen(opRules[i].name) == mnemonicLength &&
        strncmp(opRules[i].name, mnemonic, mnemonicLength) == 0)
      return &opRules[i];
  return NULL;
}

bool coopvecVerifyOpRules(MlirOperation op) {
  const OpRuleEntry *rule = lookupRule(op);
  return !rule || rule->check(op);
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

bool coopvecCheckBuffer(MlirOperation op, const char *role, MlirType buffer,
                        MlirType element) {
  if (mlirTypeIsAMemRef(buffer) && mlirShapedTypeGetRank(buffer) == 1 &&
      mlirTypeEqual(mlirShapedTypeGetElementType(buffer), element))
    return true;
  coopvecEmitOpError(op, "%s must be a rank-1 memref of %s, got %s", role,
                     coopvecTypeText(element).text,
                     coopvecTypeText(buffer).text);
  return false;
}
