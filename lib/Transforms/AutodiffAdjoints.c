//===- AutodiffAdjoints.c - coopvec-autodiff: values and adjoints ---------===//
//
// The value table of coopvec-autodiff (clone, activity, adjoint, gradient
// buffer of every forward value) and the accumulation of adjoints with
// coopvec ops. See Autodiff.h.
//
//===----------------------------------------------------------------------===//

#include "Transforms/Autodiff.h"

#include "IR/UpstreamBuilders.h"
#include "Support/Alloc.h"

#include "coopvec-c/Dialect.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void coopvecADInit(CoopvecAutodiff *ad, MlirOperation forward,
                   MlirOperation grad) {
  memset(ad, 0, sizeof(*ad));
  ad->ctx = mlirOperationGetContext(forward);
  ad->forward = forward;
  ad->name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(
      forward, mlirStringRefCreateFromCString("sym_name")));
  ad->grad = grad;
  ad->body = mlirRegionGetFirstBlock(mlirOperationGetRegion(grad, 0));
  ad->b = coopvecBuilderAtEnd(ad->body, mlirOperationGetLocation(forward));
}

void coopvecADFree(CoopvecAutodiff *ad) {
  coopvecPointerMapFree(&ad->index);
  free(ad->values);
  free(ad->constants);
  for (intptr_t s = 0; s < ad->numSnapshots; ++s)
    free(ad->snapshots[s].copies);
  free(ad->snapshots);
  memset(ad, 0, sizeof(*ad));
}

CoopvecADValue *coopvecADEntry(CoopvecAutodiff *ad, MlirValue value) {
  intptr_t found = coopvecPointerMapFind(&ad->index, value.ptr);
  if (found >= 0)
    return &ad->values[found];
  ad->values = coopvecGrowArray(ad->values, &ad->valuesCapacity,
                                ad->numValues + 1, sizeof(CoopvecADValue));
  CoopvecADValue *entry = &ad->values[ad->numValues];
  memset(entry, 0, sizeof(*entry));
  coopvecPointerMapInsert(&ad->index, value.ptr, ad->numValues++);
  return entry;
}

MlirValue coopvecADClone(CoopvecAutodiff *ad, MlirValue value) {
  return coopvecADEntry(ad, value)->clone;
}

bool coopvecADIsVaried(CoopvecAutodiff *ad, MlirValue value) {
  return coopvecADEntry(ad, value)->varied;
}

MlirValue coopvecADAdjoint(CoopvecAutodiff *ad, MlirValue value) {
  return coopvecADEntry(ad, value)->adjoint;
}

/// Bitwise equality: -0.0 and +0.0 are different constants.
static bool sameBits(double a, double b) {
  uint64_t aBits, bBits;
  memcpy(&aBits, &a, sizeof(a));
  memcpy(&bBits, &b, sizeof(b));
  return aBits == bBits;
}

MlirValue coopvecADConstant(CoopvecAutodiff *ad, MlirType type, double value) {
  // A constant is built at the current end of the backward code, so it
  // dominates every later use in its block; one built in a branch of a
  // reversed scf.if is reused only in that block. The constants are few,
  // a linear search is enough.
  for (intptr_t i = 0; i < ad->numConstants; ++i)
    if (mlirTypeEqual(ad->constants[i].type, type) &&
        sameBits(ad->constants[i].value, value) &&
        (mlirBlockEqual(ad->constants[i].block, ad->body) ||
         mlirBlockEqual(ad->constants[i].block, ad->b.block)))
      return ad->constants[i].constant;
  MlirValue constant = coopvecBuildFloatConstant(&ad->b, type, value);
  ad->constants =
      coopvecGrowArray(ad->constants, &ad->constantsCapacity,
                       ad->numConstants + 1, sizeof(CoopvecADConstant));
  ad->constants[ad->numConstants++] =
      (CoopvecADConstant){type, value, constant, ad->b.block};
  return constant;
}

MlirValue coopvecADCastTo(CoopvecAutodiff *ad, MlirValue vec,
                          MlirType element) {
  MlirType from = coopvecVecTypeGetElementType(mlirValueGetType(vec));
  if (mlirTypeEqual(from, element))
    return vec;
  return coopvecBuildCast(&ad->b, vec, element);
}

/// The elements [begin, end) of the unpacked vec `parts`, padded with
/// -0.0 (x + -0.0 == x for every x) to `count` elements, as a vec.
static MlirValue packRange(CoopvecAutodiff *ad, MlirOperation parts,
                           intptr_t begin, intptr_t end, intptr_t count) {
  MlirValue *elements = malloc(sizeof(MlirValue) * (size_t)count);
  if (!elements)
    abort();
  MlirType element = mlirValueGetType(mlirOperationGetResult(parts, 0));
  for (intptr_t i = 0; i < count; ++i)
    elements[i] = begin + i < end ? mlirOperationGetResult(parts, begin + i)
                                  : coopvecADConstant(ad, element, -0.0);
  MlirValue vec = coopvecBuildFromElements(&ad->b, count, elements);
  free(elements);
  return vec;
}

/// The sum of the elements of vec `g`, as a vec<1>: halves are added
/// pairwise, so the sum takes log2(N) adds (the dialect has no reduction
/// over a thread's own elements).
static MlirValue sumElements(CoopvecAutodiff *ad, MlirValue g) {
  intptr_t size = coopvecVecTypeGetSize(mlirValueGetType(g));
  while (size > 1) {
    intptr_t half = (size + 1) / 2;
    MlirOperation parts = coopvecBuildUnpack(&ad->b, g);
    MlirValue low = packRange(ad, parts, 0, half, half);
    MlirValue high = packRange(ad, parts, half, size, half);
    g = coopvecBuildAdd(&ad->b, low, high);
    size = half;
  }
  return g;
}

/// Whether the adjoint of `target` is a per-thread scalar (an element of
/// `unpack`, or the result of scalar arith / math): then it is a scalar of
/// the element type, accumulated with arith ops.
static bool isScalarTarget(MlirValue target) {
  MlirType type = mlirValueGetType(target);
  return mlirTypeIsAFloat(type);
}

/// `g` in the shape of target's adjoint: a vec contribution to a scalar is
/// the sum of its elements.
static MlirValue shapeFor(CoopvecAutodiff *ad, MlirValue target, MlirValue g) {
  if (!isScalarTarget(target) || !coopvecTypeIsAVec(mlirValueGetType(g)))
    return g;
  MlirOperation sum = coopvecBuildUnpack(&ad->b, sumElements(ad, g));
  return mlirOperationGetResult(sum, 0);
}

/// lhs + rhs, lhs - rhs, -x and lhs * rhs of vecs (coopvec ops) or of
/// scalars (arith ops).
static MlirValue add(CoopvecAutodiff *ad, MlirValue lhs, MlirValue rhs) {
  return coopvecTypeIsAVec(mlirValueGetType(lhs))
             ? coopvecBuildAdd(&ad->b, lhs, rhs)
             : coopvecBuildBinaryOp(&ad->b, "arith.addf", lhs, rhs);
}

static MlirValue sub(CoopvecAutodiff *ad, MlirValue lhs, MlirValue rhs) {
  return coopvecTypeIsAVec(mlirValueGetType(lhs))
             ? coopvecBuildSub(&ad->b, lhs, rhs)
             : coopvecBuildBinaryOp(&ad->b, "arith.subf", lhs, rhs);
}

static MlirValue neg(CoopvecAutodiff *ad, MlirValue x) {
  return coopvecTypeIsAVec(mlirValueGetType(x))
             ? coopvecBuildNeg(&ad->b, x)
             : coopvecBuildUnaryOp(&ad->b, "arith.negf", x);
}

static MlirValue mul(CoopvecAutodiff *ad, MlirValue lhs, MlirValue rhs) {
  return coopvecTypeIsAVec(mlirValueGetType(lhs))
             ? coopvecBuildMul(&ad->b, lhs, rhs)
             : coopvecBuildBinaryOp(&ad->b, "arith.mulf", lhs, rhs);
}

void coopvecADAccumulate(CoopvecAutodiff *ad, MlirValue target, MlirValue g) {
  if (!coopvecADIsVaried(ad, target))
    return;
  g = shapeFor(ad, target, g);
  CoopvecADValue *entry = coopvecADEntry(ad, target);
  entry->adjoint =
      mlirValueIsNull(entry->adjoint) ? g : add(ad, entry->adjoint, g);
}

void coopvecADAccumulateNeg(CoopvecAutodiff *ad, MlirValue target,
                            MlirValue g) {
  if (!coopvecADIsVaried(ad, target))
    return;
  g = shapeFor(ad, target, g);
  CoopvecADValue *entry = coopvecADEntry(ad, target);
  entry->adjoint =
      mlirValueIsNull(entry->adjoint) ? neg(ad, g) : sub(ad, entry->adjoint, g);
}

void coopvecADAccumulateProduct(CoopvecAutodiff *ad, MlirValue target,
                                MlirValue g, MlirValue factor) {
  if (!coopvecADIsVaried(ad, target))
    return;
  if (isScalarTarget(target)) {
    coopvecADAccumulate(ad, target, mul(ad, g, factor));
    return;
  }
  // One fma per contribution: adjoint = g * factor + adjoint.
  CoopvecADValue *entry = coopvecADEntry(ad, target);
  entry->adjoint = mlirValueIsNull(entry->adjoint)
                       ? coopvecBuildMul(&ad->b, g, factor)
                       : coopvecBuildFma(&ad->b, g, factor, entry->adjoint);
}
