//===- Builder.h - Creating upstream ops from C (internal) --------*- C -*-===//
//
// MLIR 22's C API builds ops only through the generic MlirOperationState.
// These helpers name the few shapes convert-coopvec-to-vector needs (an op
// with operands, one result and a few attributes written as MLIR text), so
// that the lowering reads as a list of arith / vector / memref ops.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_CONVERSION_COOPVECTOVECTOR_BUILDER_H
#define COOPVEC_LIB_CONVERSION_COOPVECTOVECTOR_BUILDER_H

#include <mlir-c/IR.h>

#include <stdint.h>

/// Where new ops go: before `before`, or at the end of `block` when
/// `before` is null. New ops get location `loc`.
typedef struct CvBuilder {
  MlirContext ctx;
  MlirLocation loc;
  MlirBlock block;
  MlirOperation before;
} CvBuilder;

/// Parses `format` (printf-style) as a type / attribute; null on error.
MlirType cvParseType(MlirContext ctx, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
MlirAttribute cvParseAttr(MlirContext ctx, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/// Inserts `op` at the builder's insertion point.
void cvInsert(CvBuilder *b, MlirOperation op);

/// Creates and inserts `name(operands) -> resultTypes`. `attributes` is an
/// attribute dictionary in MLIR syntax (`{kind = 0 : i64}`) or NULL.
MlirOperation cvCreate(CvBuilder *b, const char *name, intptr_t numOperands,
                       const MlirValue *operands, intptr_t numResults,
                       const MlirType *resultTypes, const char *attributes);

/// cvCreate for an op with one result; returns that result.
MlirValue cvCreate1(CvBuilder *b, const char *name, intptr_t numOperands,
                    const MlirValue *operands, MlirType resultType,
                    const char *attributes);

/// `name(lhs, rhs)` whose result has the type of `lhs` (arith.addf, ...).
MlirValue cvBinary(CvBuilder *b, const char *name, MlirValue lhs,
                   MlirValue rhs);
/// `name(operand)` whose result has the type of `operand` (arith.negf, ...).
MlirValue cvUnary(CvBuilder *b, const char *name, MlirValue operand);

/// `arith.constant <value>` where `value` is attribute text such as
/// `4 : index` or `dense<0.0> : vector<8xf32>`.
MlirValue cvConstant(CvBuilder *b, MlirType type, const char *value);

/// An `scf.for` under construction: `body` appends to its block until
/// cvFinishFor adds the scf.yield.
typedef struct CvLoop {
  MlirOperation op;
  MlirValue inductionVar;
  MlirBlock block;
  CvBuilder body;
} CvLoop;

/// Inserts `scf.for %iv = lower to upper step step iter_args(inits)`.
/// Iteration argument i is cvLoopIterArg(&loop, i).
CvLoop cvCreateFor(CvBuilder *b, MlirValue lower, MlirValue upper,
                   MlirValue step, intptr_t numInits, const MlirValue *inits);
MlirValue cvLoopIterArg(const CvLoop *loop, intptr_t i);
/// Ends the body with `scf.yield values`; the loop results are the op's.
void cvFinishFor(CvLoop *loop, intptr_t numValues, const MlirValue *values);

#endif // COOPVEC_LIB_CONVERSION_COOPVECTOVECTOR_BUILDER_H
