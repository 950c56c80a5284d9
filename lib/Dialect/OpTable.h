//===- OpTable.h - The coopvec op table (internal) ----------------*- C -*-===//
//
// The expansion of Ops.def that the rest of the library uses: an id per op,
// its class, operand counts, broadcast operands and memory effect, and the
// lookup from an MlirOperation to its row.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_DIALECT_OPTABLE_H
#define COOPVEC_LIB_DIALECT_OPTABLE_H

#include <mlir-c/IR.h>

#include <stdbool.h>

typedef enum CoopvecOpId {
#define COOPVEC_OP(Id, mnemonic, Class, minOps, maxOps, broadcast, Effect,     \
                   rule)                                                       \
  CoopvecOp##Id,
#include "Dialect/Ops.def"
  CoopvecOpCount,
} CoopvecOpId;

/// How the targets treat an op (docs/architecture.md).
typedef enum CoopvecOpClass {
  /// Builds or takes apart a vec; per-thread, target-independent.
  CoopvecOpClassConstruction,
  /// Moves data between memrefs and vecs, or names a matrix.
  CoopvecOpClassTransfer,
  /// One scalar op applied to every element.
  CoopvecOpClassElementwiseUnary,
  CoopvecOpClassElementwiseBinary,
  CoopvecOpClassElementwiseTernary,
  /// A matrix-vector product: where threads cooperate.
  CoopvecOpClassMatvec,
  /// Accumulates over all threads into a shared buffer.
  CoopvecOpClassTraining,
} CoopvecOpClass;

typedef enum CoopvecEffect {
  CoopvecEffectNone,
  CoopvecEffectRead,
  CoopvecEffectWrite,
  CoopvecEffectReadWrite,
} CoopvecEffect;

typedef struct CoopvecOpInfo {
  CoopvecOpId id;
  const char *name;     // "coopvec.add"
  const char *mnemonic; // "add"
  CoopvecOpClass opClass;
  int minOperands, maxOperands; // maxOperands -1: variadic
  unsigned broadcastOperands;   // bit i: operand i may be a scalar
  CoopvecEffect effect;
} CoopvecOpInfo;

/// The row of `id`.
const CoopvecOpInfo *coopvecGetOpInfo(CoopvecOpId id);
/// The row of the coopvec op `op`, or NULL for any other op.
const CoopvecOpInfo *coopvecLookupOp(MlirOperation op);
/// The row of the op named `name` ("coopvec.add"), or NULL.
const CoopvecOpInfo *coopvecLookupOpName(MlirStringRef name);

/// Whether `op` is the coopvec op `id`.
bool coopvecOpIs(MlirOperation op, CoopvecOpId id);

static inline bool coopvecOpClassIsElementwise(CoopvecOpClass opClass) {
  return opClass == CoopvecOpClassElementwiseUnary ||
         opClass == CoopvecOpClassElementwiseBinary ||
         opClass == CoopvecOpClassElementwiseTernary;
}

/// An unused result of an op without memory writes can be erased.
static inline bool coopvecOpIsPure(const CoopvecOpInfo *info) {
  return info->effect == CoopvecEffectNone || info->effect == CoopvecEffectRead;
}

#endif // COOPVEC_LIB_DIALECT_OPTABLE_H
