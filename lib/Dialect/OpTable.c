//===- OpTable.c - The coopvec op table -----------------------------------===//

#include "Dialect/OpTable.h"

#include "coopvec-c/Dialect.h"

#include <string.h>

static const CoopvecOpInfo opInfos[] = {
#define COOPVEC_OP(Id, mnemonic, Class, minOps, maxOps, broadcast, Effect,     \
                   rule)                                                       \
  {CoopvecOp##Id, "coopvec." mnemonic,                                         \
   mnemonic,      CoopvecOpClass##Class,                                       \
   minOps,        maxOps,                                                      \
   broadcast,     CoopvecEffect##Effect},
#include "Dialect/Ops.def"
};

_Static_assert(sizeof(opInfos) / sizeof(opInfos[0]) == CoopvecOpCount,
               "one row per op id");

static const char *const classNames[] = {
    "construction",
    "transfer",
    "elementwise-unary",
    "elementwise-binary",
    "elementwise-ternary",
    "matvec",
    "training",
};

const CoopvecOpInfo *coopvecGetOpInfo(CoopvecOpId id) {
  return (unsigned)id < CoopvecOpCount ? &opInfos[id] : NULL;
}

static const char dialectPrefix[] = "coopvec.";

const CoopvecOpInfo *coopvecLookupOpName(MlirStringRef name) {
  size_t prefixLength = sizeof(dialectPrefix) - 1;
  if (name.length <= prefixLength ||
      memcmp(name.data, dialectPrefix, prefixLength) != 0)
    return NULL;
  const char *mnemonic = name.data + prefixLength;
  size_t length = name.length - prefixLength;
  for (size_t i = 0; i < CoopvecOpCount; ++i)
    if (strlen(opInfos[i].mnemonic) == length &&
        memcmp(opInfos[i].mnemonic, mnemonic, length) == 0)
      return &opInfos[i];
  return NULL;
}

const CoopvecOpInfo *coopvecLookupOp(MlirOperation op) {
  if (mlirOperationIsNull(op))
    return NULL;
  return coopvecLookupOpName(mlirIdentifierStr(mlirOperationGetName(op)));
}

bool coopvecOpIs(MlirOperation op, CoopvecOpId id) {
  const CoopvecOpInfo *info = coopvecLookupOp(op);
  return info && info->id == id;
}

intptr_t coopvecGetNumOps(void) { return CoopvecOpCount; }

MlirStringRef coopvecOpGetName(intptr_t index) {
  const CoopvecOpInfo *info = coopvecGetOpInfo((CoopvecOpId)index);
  return mlirStringRefCreateFromCString(info ? info->name : "");
}

MlirStringRef coopvecOpGetClassName(intptr_t index) {
  const CoopvecOpInfo *info = coopvecGetOpInfo((CoopvecOpId)index);
  return mlirStringRefCreateFromCString(info ? classNames[info->opClass] : "");
}
