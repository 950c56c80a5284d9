//===- Autodiff.h - coopvec-autodiff internals --------------------*- C -*-===//
//
// coopvec-autodiff builds `@NAME_grad` beside `@NAME` (docs/autodiff.md):
// the gradient function first recomputes the forward ops (clones of
// @NAME's body), then walks @NAME's ops in reverse and applies one rule per
// op, accumulating the adjoint of every forward value it reaches.
//
//   Autodiff.c             the pass: options, function checks, signature
//   AutodiffForward.c      activity ("varied") and the forward clone
//   AutodiffAdjoints.c     the value table and adjoint accumulation
//   AutodiffRules.c        the reverse rule of each coopvec op, gathers
//   AutodiffScalarRules.c  the reverse rules of scalar arith / math
//   AutodiffControlFlow.c  the reverse of scf.if, index_switch and for
//   AutodiffWhile.c        the reverse of scf.while
//   AutodiffLocalArrays.c  adjoint arrays of local arrays
//   AutodiffSnapshots.c    snapshots of local arrays around control flow
//
// A vec's adjoint has its type, a builtin vector's (from to_vector) is the
// vec of the same shape, and a per-thread scalar's (an element of unpack,
// a gathered table entry, scalar arith / math) is a scalar of its type:
// every target lowers scalar arith / math on per-thread values
// (docs/dialect.md, "Per-thread programs").
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_TRANSFORMS_AUTODIFF_H
#define COOPVEC_LIB_TRANSFORMS_AUTODIFF_H

#include "Support/PointerMap.h"

#include "coopvec-c/Builders.h"

#include <mlir-c/IR.h>

#include <stdbool.h>
#include <stdint.h>

/// What the pass knows about one value of @NAME.
typedef struct CoopvecADValue {
  MlirValue clone;   // the value recomputed in @NAME_grad
  MlirValue adjoint; // accumulated adjoint; null while it is zero
  /// A differentiated memref argument: its gradient buffer (an argument of
  /// @NAME_grad). A varied matrix: its view of that buffer, once built. A
  /// varied local array: its adjoint array, once built.
  MlirValue gradient;
  bool varied; // depends on a differentiated input
} CoopvecADValue;

/// A float constant built once per (type, value) in the backward code.
typedef struct CoopvecADConstant {
  MlirType type;
  double value;
  MlirValue constant;
  MlirBlock block; // where it is built
} CoopvecADConstant;

/// A snapshot of a local array for one region op of @NAME
/// (AutodiffSnapshots.c): `copy` holds the array as it was when the op was
/// last recomputed; `copies` are the ops that filled it.
typedef struct CoopvecADSnapshot {
  MlirOperation region; // the forward scf.if / index_switch / for / while
  MlirValue array;      // the forward local array
  MlirValue copy;       // a memref.alloca at @NAME_grad's entry
  MlirOperation *copies;
  intptr_t numCopies, copiesCapacity;
  bool restored; // some reverse reads it back (else it is dropped)
} CoopvecADSnapshot;

typedef struct CoopvecAutodiff {
  MlirContext ctx;
  MlirOperation forward;   // @NAME
  MlirStringRef name;      // NAME
  MlirOperation grad;      // @NAME_grad under construction
  MlirBlock body;          // of @NAME_grad
  CoopvecBuilder b;        // appends to `body`
  CoopvecPointerMap index; // forward value -> entry of `values`
  CoopvecADValue *values;
  intptr_t numValues, valuesCapacity;
  CoopvecADConstant *constants;
  intptr_t numConstants, constantsCapacity;
  CoopvecADSnapshot *snapshots;
  intptr_t numSnapshots, snapshotsCapacity;
  intptr_t numVariedArrays; // local arrays found varied so far (fixpoints)
  int stateDepth;           // >0 while recomputing a loop's state: no snapshots
} CoopvecAutodiff;

//===----------------------------------------------------------------------===//
// AutodiffAdjoints.c
//===----------------------------------------------------------------------===//

void coopvecADInit(CoopvecAutodiff *ad, MlirOperation forward,
                   MlirOperation grad);
void coopvecADFree(CoopvecAutodiff *ad);

/// The entry of forward value `value`, created (empty) if absent.
CoopvecADValue *coopvecADEntry(CoopvecAutodiff *ad, MlirValue value);
/// The recomputed value / whether it is varied / its adjoint (null: zero).
MlirValue coopvecADClone(CoopvecAutodiff *ad, MlirValue value);
bool coopvecADIsVaried(CoopvecAutodiff *ad, MlirValue value);
MlirValue coopvecADAdjoint(CoopvecAutodiff *ad, MlirValue value);

/// adjoint(target) += g, -= g, += g * factor, where `g` is a vec shaped
/// like the op's result and `factor` a vec of that type or a scalar. A
/// scalar target receives the sum of g's elements. Nothing happens when
/// `target` is not varied.
void coopvecADAccumulate(CoopvecAutodiff *ad, MlirValue target, MlirValue g);
void coopvecADAccumulateNeg(CoopvecAutodiff *ad, MlirValue target, MlirValue g);
void coopvecADAccumulateProduct(CoopvecAutodiff *ad, MlirValue target,
                                MlirValue g, MlirValue factor);

/// An `arith.constant value : type` for the backward code, built once.
MlirValue coopvecADConstant(CoopvecAutodiff *ad, MlirType type, double value);
/// `vec` converted to element type `element` (no op when it has it).
MlirValue coopvecADCastTo(CoopvecAutodiff *ad, MlirValue vec, MlirType element);

//===----------------------------------------------------------------------===//
// AutodiffForward.c
//===----------------------------------------------------------------------===//

/// Whether `value` is a local array (a memref.alloca).
bool coopvecADIsLocalArray(MlirValue value);

/// Marks the memref arguments of `func` that get a gradient buffer: those
/// the forward reads a vector, bias or matvec matrix from. `differentiated`
/// has one entry per argument.
void coopvecADFindDifferentiatedMemrefs(MlirOperation func,
                                        bool *differentiated);

/// Clones every op of @NAME's body but the terminator into @NAME_grad,
/// recording clones and activity; the forward's writes are not cloned.
/// Returns false after emitting an error at an op that cannot be
/// differentiated.
bool coopvecADCloneForward(CoopvecAutodiff *ad);
/// Clones the ops of the forward block `from` but its terminator and its
/// writes to the end of `to` (recomputing them there), recording clones.
void coopvecADCloneOps(CoopvecAutodiff *ad, MlirBlock from, MlirBlock to);

//===----------------------------------------------------------------------===//
// AutodiffRules.c
//===----------------------------------------------------------------------===//

/// Applies the reverse rule of `op` (an op of @NAME whose results have
/// adjoints). Returns false after emitting an error at `op`.
bool coopvecADBackward(CoopvecAutodiff *ad, MlirOperation op);

//===----------------------------------------------------------------------===//
// AutodiffControlFlow.c
//===----------------------------------------------------------------------===//

/// The reverse of an scf.if of @NAME whose results have adjoints.
bool coopvecADBackwardIf(CoopvecAutodiff *ad, MlirOperation op);
/// The reverse of an scf.index_switch: a chain of reverse branches.
bool coopvecADBackwardSwitch(CoopvecAutodiff *ad, MlirOperation op);
/// The reverse of an scf.for, by recomputation.
bool coopvecADBackwardFor(CoopvecAutodiff *ad, MlirOperation op);
/// The varied values defined outside `op` that the ops in its regions use
/// (malloc'ed; `*count` of them).
MlirValue *coopvecADCollectCaptures(CoopvecAutodiff *ad, MlirOperation op,
                                    intptr_t *count);
/// The type of the adjoint of `value`: a builtin vector's is the vec of
/// its shape.
MlirType coopvecADAdjointType(MlirValue value);
/// The adjoint of `value` accumulated so far, or a zero of its type.
MlirValue coopvecADAdjointOrZero(CoopvecAutodiff *ad, MlirValue value);

//===----------------------------------------------------------------------===//
// AutodiffWhile.c
//===----------------------------------------------------------------------===//

/// The reverse of an scf.while, by recomputation with a counted trip count.
bool coopvecADBackwardWhile(CoopvecAutodiff *ad, MlirOperation op);

//===----------------------------------------------------------------------===//
// AutodiffLocalArrays.c
//===----------------------------------------------------------------------===//

/// Whether `op` is a memref.load / memref.store of a varied local array.
bool coopvecADIsLocalAccess(CoopvecAutodiff *ad, MlirOperation op);
/// The reverse of such an access (`dy`: the adjoint of a load's result).
void coopvecADBackwardLocalAccess(CoopvecAutodiff *ad, MlirOperation op,
                                  MlirValue dy);
/// The adjoint array of the varied local array `array`, made (zero) at the
/// builder's point on first use.
MlirValue coopvecADAdjointArray(CoopvecAutodiff *ad, MlirValue array);

//===----------------------------------------------------------------------===//
// AutodiffSnapshots.c
//===----------------------------------------------------------------------===//

/// Copies, before the region op `op` is recomputed at the end of `block`,
/// every local array defined outside `op` that it accesses.
void coopvecADTakeSnapshots(CoopvecAutodiff *ad, MlirOperation op,
                            MlirBlock block);
/// Copies those arrays back (at the builder's point), so that a
/// recomputation of `op` reads what the forward read.
void coopvecADRestoreSnapshots(CoopvecAutodiff *ad, MlirOperation op);
/// Whether the region op `op` accesses a varied local array; if so, the
/// adjoint arrays of the ones it accesses are made (at the builder's
/// point) and `op` must be reversed even when its results have no adjoint.
bool coopvecADPrepareAdjointArrays(CoopvecAutodiff *ad, MlirOperation op);
/// Erases the snapshots no reverse reads back.
void coopvecADDropUnusedSnapshots(CoopvecAutodiff *ad);

//===----------------------------------------------------------------------===//
// Autodiff.c
//===----------------------------------------------------------------------===//

/// Applies the reverse rules of the ops of forward block `block` (but its
/// terminator), last to first.
bool coopvecADBackwardBlock(CoopvecAutodiff *ad, MlirBlock block);

//===----------------------------------------------------------------------===//
// AutodiffScalarRules.c
//===----------------------------------------------------------------------===//

/// Whether `op` is a scalar arith / math op with a float result that has a
/// reverse rule.
bool coopvecADHasScalarRule(MlirOperation op);
/// Whether `op` is math.floor / ceil / round / trunc: its float result is
/// piecewise constant (derivative zero), never varied.
bool coopvecADIsPiecewiseConstant(MlirOperation op);
/// Applies the reverse rule of the scalar op `op`, whose result has the
/// adjoint `dy`.
bool coopvecADBackwardScalar(CoopvecAutodiff *ad, MlirOperation op,
                             MlirValue dy);

#endif // COOPVEC_LIB_TRANSFORMS_AUTODIFF_H
