//===- UpstreamBuilders.h - Building upstream ops (internal) ------*- C -*-===//
//
// The arith / vector / memref / scf ops the lowerings and patterns create,
// one function per shape, on the same CoopvecBuilder as the public coopvec
// builders (coopvec-c/Builders.h): one IR-building layer for the library.
// Attributes are built with the C API's attribute constructors; the few
// upstream attributes that have none (`#vector.kind`, `#arith.fastmath`) are
// parsed once from their spelling.
//
// These builders create ops whose shape the caller guarantees; a refusal by
// MLIR is a bug in the library and aborts.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_IR_UPSTREAMBUILDERS_H
#define COOPVEC_LIB_IR_UPSTREAMBUILDERS_H

#include "coopvec-c/Builders.h"

#include <mlir-c/IR.h>

#include <stdint.h>

/// `name(operands) -> resultType {attributes}`; returns its result.
MlirValue coopvecBuild1(CoopvecBuilder *b, const char *name,
                        intptr_t numOperands, const MlirValue *operands,
                        MlirType resultType, intptr_t numAttributes,
                        const MlirNamedAttribute *attributes);
/// `name(operands)` without results; returns the op.
MlirOperation coopvecBuild0(CoopvecBuilder *b, const char *name,
                            intptr_t numOperands, const MlirValue *operands,
                            intptr_t numAttributes,
                            const MlirNamedAttribute *attributes);
/// `name(lhs, rhs)` / `name(x)` whose result has the type of the first
/// operand (arith.addf, arith.negf, math.fma's first two, ...).
MlirValue coopvecBuildBinaryOp(CoopvecBuilder *b, const char *name,
                               MlirValue lhs, MlirValue rhs);
MlirValue coopvecBuildUnaryOp(CoopvecBuilder *b, const char *name, MlirValue x);
MlirValue coopvecBuildTernaryOp(CoopvecBuilder *b, const char *name,
                                MlirValue x, MlirValue y, MlirValue z);

MlirNamedAttribute coopvecNamedAttr(MlirContext ctx, const char *name,
                                    MlirAttribute attr);

/// arith.constant of an index, a float scalar (rounded to `type` to nearest
/// even), a float vector splat, an integer vector.
MlirValue coopvecBuildIndexConstant(CoopvecBuilder *b, int64_t value);
MlirValue coopvecBuildIntConstant(CoopvecBuilder *b, MlirType type,
                                  int64_t value);
MlirValue coopvecBuildFloatConstant(CoopvecBuilder *b, MlirType type,
                                    double value);
MlirValue coopvecBuildFloatSplatConstant(CoopvecBuilder *b, MlirType vectorType,
                                         double value);
MlirValue coopvecBuildIntSplatConstant(CoopvecBuilder *b, MlirType vectorType,
                                       int64_t value);
MlirValue coopvecBuildI32VectorConstant(CoopvecBuilder *b, intptr_t count,
                                        const int32_t *values);
/// A float / integer constant of `type`, a scalar or a vector (then a splat):
/// for code that works on scalars and vectors alike.
MlirValue coopvecBuildFloatConstantLike(CoopvecBuilder *b, MlirType type,
                                        double value);
MlirValue coopvecBuildIntConstantLike(CoopvecBuilder *b, MlirType type,
                                      int64_t value);

/// arith.cmpf / arith.cmpi with an upstream predicate number; the result is
/// i1 or vector<..xi1> shaped like the operands.
enum {
  COOPVEC_CMPF_OLT = 4,
  COOPVEC_CMPF_UNO = 14,
  COOPVEC_CMPF_OEQ = 1,
  COOPVEC_CMPF_OGT = 2,
  COOPVEC_CMPF_OGE = 3,
  COOPVEC_CMPF_OLE = 5,
  COOPVEC_CMPF_ONE = 6,
  COOPVEC_CMPF_UEQ = 8,
  COOPVEC_CMPF_UGE = 10,
  COOPVEC_CMPF_ULT = 11,
  COOPVEC_CMPF_UNE = 13
};
enum {
  COOPVEC_CMPI_EQ = 0,
  COOPVEC_CMPI_NE = 1,
  COOPVEC_CMPI_SLT = 2,
  COOPVEC_CMPI_SLE = 3,
  COOPVEC_CMPI_SGT = 4,
  COOPVEC_CMPI_SGE = 5,
  COOPVEC_CMPI_ULT = 6,
  COOPVEC_CMPI_UGT = 8
};
MlirValue coopvecBuildCmpF(CoopvecBuilder *b, int predicate, MlirValue lhs,
                           MlirValue rhs);
MlirValue coopvecBuildCmpI(CoopvecBuilder *b, int predicate, MlirValue lhs,
                           MlirValue rhs);
MlirValue coopvecBuildSelect(CoopvecBuilder *b, MlirValue condition,
                             MlirValue trueValue, MlirValue falseValue);
/// arith.extf / truncf / bitcast / sitofp ... to `type`.
MlirValue coopvecBuildCast1(CoopvecBuilder *b, const char *name, MlirValue x,
                            MlirType type);

/// vector.broadcast of a scalar to `vectorType`.
MlirValue coopvecBuildBroadcast(CoopvecBuilder *b, MlirValue scalar,
                                MlirType vectorType);
/// vector.extract at a static / dynamic position of a 1-D vector.
MlirValue coopvecBuildExtract(CoopvecBuilder *b, MlirValue vector,
                              int64_t position);
MlirValue coopvecBuildExtractDynamic(CoopvecBuilder *b, MlirValue vector,
                                     MlirValue position);
/// vector.insert of a scalar at a dynamic position of a 1-D vector.
MlirValue coopvecBuildInsertDynamic(CoopvecBuilder *b, MlirValue scalar,
                                    MlirValue vector, MlirValue position);
/// vector.reduction <add> with reassoc: the sum of a vector's elements.
MlirValue coopvecBuildReduceAdd(CoopvecBuilder *b, MlirValue vector);
/// vector.create_mask %bound : vector<count x i1>.
MlirValue coopvecBuildCreateMask(CoopvecBuilder *b, int64_t count,
                                 MlirValue bound);

/// arith::AtomicRMWKind values (the `kind` of memref.atomic_rmw is an i64
/// attribute holding one; checked against MLIR 22's mlir-opt).
enum {
  COOPVEC_ATOMIC_ADDF = 0,
  COOPVEC_ATOMIC_ADDI = 1,
  COOPVEC_ATOMIC_MAXIMUMF = 4,
  COOPVEC_ATOMIC_MAXS = 6,
  COOPVEC_ATOMIC_MAXU = 7,
  COOPVEC_ATOMIC_MINIMUMF = 8,
  COOPVEC_ATOMIC_MINS = 10,
  COOPVEC_ATOMIC_MINU = 11,
};
MlirAttribute coopvecAtomicKindAttr(MlirContext ctx, int kind);
/// `memref.atomic_rmw <kind> %value, %buffer[%index]`: the old value.
MlirValue coopvecBuildAtomic(CoopvecBuilder *b, MlirAttribute kind,
                             MlirValue value, MlirValue buffer,
                             MlirValue index);

/// memref.alloca() : `type`, with `alignment` bytes.
MlirValue coopvecBuildAlloca(CoopvecBuilder *b, MlirType type,
                             int64_t alignment);
/// memref.atomic_rmw addf `value`, `buffer`[`index`].
void coopvecBuildAtomicAdd(CoopvecBuilder *b, MlirValue value, MlirValue buffer,
                           MlirValue index);

/// Inserts an op created from an MlirOperationState (ops with regions are
/// not made by coopvecBuildOperation) where `b` inserts.
void coopvecInsertAt(CoopvecBuilder *b, MlirOperation op);

/// An `scf.for` under construction: `body` appends to its block until
/// coopvecFinishFor adds the scf.yield.
typedef struct CoopvecLoop {
  MlirOperation op;
  MlirValue inductionVar;
  MlirBlock block;
  CoopvecBuilder body;
} CoopvecLoop;

/// Inserts `scf.for %iv = lower to upper step step iter_args(inits)`.
CoopvecLoop coopvecBuildFor(CoopvecBuilder *b, MlirValue lower, MlirValue upper,
                            MlirValue step, intptr_t numInits,
                            const MlirValue *inits);
MlirValue coopvecLoopIterArg(const CoopvecLoop *loop, intptr_t i);
/// Asks LLVM not to unroll the loop (an `llvm.loop_annotation`, which
/// convert-scf-to-cf moves to the back edge).
void coopvecSetNoUnroll(CoopvecLoop *loop);
/// Ends the body with `scf.yield values`; the loop results are the op's.
void coopvecFinishFor(CoopvecLoop *loop, intptr_t numValues,
                      const MlirValue *values);

/// memref.load `memref`[`index`] / memref.store `value`, `memref`[`index`]
/// of a rank-1 memref.
MlirValue coopvecBuildMemrefLoad(CoopvecBuilder *b, MlirValue memref,
                                 MlirValue index);
void coopvecBuildMemrefStore(CoopvecBuilder *b, MlirValue value,
                             MlirValue memref, MlirValue index);

/// An `scf.if` without results and without an else region, under
/// construction: `then` appends to its block until coopvecFinishIf adds the
/// scf.yield.
typedef struct CoopvecIf {
  MlirOperation op;
  CoopvecBuilder then;
} CoopvecIf;

CoopvecIf coopvecBuildIf(CoopvecBuilder *b, MlirValue condition);
void coopvecFinishIf(CoopvecIf *branch);

/// `scf.if %condition -> (types) { then } else { otherwise }` at `b`; the
/// builders append to the two blocks. Close it with coopvecFinishIfElse,
/// which yields `numResults` values from each block.
typedef struct CoopvecIfElse {
  MlirOperation op;
  intptr_t numResults;
  CoopvecBuilder then, otherwise;
} CoopvecIfElse;
CoopvecIfElse coopvecBuildIfElse(CoopvecBuilder *b, MlirValue condition,
                                 intptr_t numResults, const MlirType *types);
void coopvecFinishIfElse(CoopvecIfElse *branch, const MlirValue *thenValues,
                         const MlirValue *elseValues);

/// `type` with its element type replaced (vectors keep their shape).
MlirType coopvecWithElementType(MlirType type, MlirType element);
/// The element type of a vector, or `type` itself.
MlirType coopvecElementTypeOf(MlirType type);
/// Whether `op` or an op nested in it has an f16 value: an op result or a
/// `function_type` input or result whose type is f16 or a memref / vector /
/// tensor / !coopvec.vec / !coopvec.matrix of f16. Block arguments count
/// through the function types and the results of the ops that own them.
bool coopvecHoldsF16(MlirOperation op);
/// The same for f64 (the wide fmas of coopvec-prepare-spirv make them).
bool coopvecHoldsF64(MlirOperation op);

#endif // COOPVEC_LIB_IR_UPSTREAMBUILDERS_H
