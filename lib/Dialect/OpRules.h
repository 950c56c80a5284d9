//===- OpRules.h - Per-op rules of coopvec-verify (internal) ------*- C -*-===//
//
// Each coopvec op whose rules IRDL cannot express has one short check in
// OpRulesVector.c, OpRulesMemory.c or OpRulesMatrix.c, named in the `rule`
// column of Ops.def and dispatched by OpRules.c. Rules run on IR that passed
// the IRDL verifier, so operand and result counts and every type relation IRDL
// unifies already hold.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_DIALECT_OPRULES_H
#define COOPVEC_LIB_DIALECT_OPRULES_H

#include <mlir-c/IR.h>

#include <stdbool.h>
#include <stdint.h>

/// A type printed for a diagnostic. Returned by value so that
/// `coopvecTypeText(t).text` can be passed straight to a printf-style call
/// without anything to free; long types are truncated.
typedef struct CoopvecTypeText {
  char text[192];
} CoopvecTypeText;

CoopvecTypeText coopvecTypeText(MlirType type);

MlirType coopvecOperandType(MlirOperation op, intptr_t index);
MlirType coopvecResultType(MlirOperation op, intptr_t index);

/// `buffer` must be a ranked rank-1 memref whose element type is `element`.
/// `role` names the operand in the message ("base", "gradient", ...).
bool coopvecCheckBuffer(MlirOperation op, const char *role, MlirType buffer,
                        MlirType element);

/// A transfer of a `vec` through operand `bufferOperand` at the index
/// operand `offsetOperand`, with the mask operand `maskOperand` (-1 for
/// none): a constant offset must not be negative, and must keep the access
/// inside a statically sized buffer (OpRulesRanges.c).
bool coopvecCheckConstantAccess(MlirOperation op, intptr_t bufferOperand,
                                intptr_t offsetOperand, intptr_t maskOperand,
                                MlirType vec);
/// outer_product_accumulate / reduce_sum_accumulate must not add into
/// elements that the same block reads (matvec weights, loads): what a
/// thread reads would depend on how far other threads have got.
bool coopvecCheckAccumulationTarget(MlirOperation op);

/// Rules of the ops that build, unpack and compute on vecs.
bool coopvecVerifyFromElements(MlirOperation op);
bool coopvecVerifyUnpack(MlirOperation op);
bool coopvecVerifyFromVector(MlirOperation op);
bool coopvecVerifyToVector(MlirOperation op);
/// The broadcast operands of an elementwise op (Ops.def) are its vec type
/// or that type's element type.
bool coopvecVerifyElementwise(MlirOperation op);

/// Rules of the ops that read and write memrefs.
bool coopvecVerifyLoad(MlirOperation op);
bool coopvecVerifyMaskedLoad(MlirOperation op);
bool coopvecVerifyStore(MlirOperation op);
bool coopvecVerifyMaskedStore(MlirOperation op);
bool coopvecVerifyMatrixView(MlirOperation op);
bool coopvecVerifyReduceSumAccumulate(MlirOperation op);

/// Rules of the matrix ops.
bool coopvecVerifyMatvec(MlirOperation op);
bool coopvecVerifyOuterProductAccumulate(MlirOperation op);

#endif // COOPVEC_LIB_DIALECT_OPRULES_H
