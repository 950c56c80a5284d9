//===- AutodiffSnapshots.c - coopvec-autodiff: snapshots of local arrays --===//
//
// Local arrays (memref.alloca) read and written inside scf.if,
// scf.index_switch, scf.for and scf.while (docs/autodiff.md, "Local arrays
// in control flow"). The reverse of a region op R recomputes R's forward
// code (a branch, or a loop's state from its inits and then one iteration),
// but by then the array A of @NAME_grad holds what the whole forward left
// in it, and the recomputed stores change it further. So:
//
//   - snapshot: whenever R is recomputed from a block (the forward clone at
//     the top level, or the recomputation of the branch / loop body that
//     holds R inside another reverse), the ops first copy every local
//     array A defined outside R that R accesses into S(R, A), a second
//     alloca of A's type at @NAME_grad's entry;
//   - restore: the reverse of R copies S(R, A) back into A before each
//     recomputation it makes: before the reverse scf.if chain of a branch;
//     in each reverse iteration of a loop, before its state is recomputed
//     (and for scf.while also before the loop that counts n).
//
// Why each recomputed op then reads what the forward read (induction on
// the nesting of R): the snapshot is taken in the same block as, and just
// before, R's recomputation, whose values up to R are the forward's (at
// the top level: the forward clone runs the forward in order; nested: the
// induction hypothesis for the enclosing op). So S(R, A) is A at R's
// forward entry. The restore sets A to it; from there the recomputation
// runs R's forward code from R's entry (a branch; the k iterations of the
// state and iteration k itself; for scf.while, the counting loop, and the
// k rounds then before / after), i.e. the forward's stores in the
// forward's order, so every load and index reads the forward's values.
// The copies of ops nested in R are taken during that recomputation. In
// between, nothing reads A: the reverse rules of loads and stores read
// only the adjoint array and SSA values recomputed earlier, and another
// region op restores A itself before recomputing. A snapshot buffer is
// shared by every recomputation of R: each copy is read back by the
// reverse of R that follows it in the same block before R can be
// recomputed again (one op is cloned once per block).
//
// The adjoint array Ā is one array for the whole gradient (made at the top
// level, before the first reverse that touches A): the reverse sweep meets
// the forward's dynamic accesses in exactly the reverse order (reverse
// iterations n-1 .. 0, the branch each thread took), so the rules
// Ā[i] += ȳ and v̄ += Ā[i]; Ā[i] = 0 of AutodiffLocalArrays.c hold
// across branches and iterations as in straight-line code.
//
// Cost: one array of A's size per (region op, array) pair, and a copy of
// A (an scf.for nest of loads and stores: local arrays allow no
// memref.copy) at each recomputation of R and each restore, i.e. O(n) array
// copies for a loop of n iterations beside its O(n^2) body evaluations.
// Snapshots no reverse reads back (a region op whose reverse was skipped)
// are erased at the end.
//
//===----------------------------------------------------------------------===//

#include "Transforms/Autodiff.h"

#include "IR/UpstreamBuilders.h"
#include "Support/Alloc.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

/// Whether `inner` is nested in `op`, at any depth.
static bool isNestedIn(MlirOperation inner, MlirOperation op) {
  for (MlirOperation p = mlirOperationGetParentOperation(inner);
       !mlirOperationIsNull(p); p = mlirOperationGetParentOperation(p))
    if (mlirOperationEqual(p, op))
      return true;
  return false;
}

/// The local arrays defined outside a region op that its ops access.
typedef struct Arrays {
  MlirOperation op;
  MlirValue *values;
  intptr_t count, capacity;
} Arrays;

static MlirWalkResult collectArrays(MlirOperation inner, void *userData) {
  Arrays *a = userData;
  intptr_t position;
  if (coopvecOpIsNamed(inner, "memref.load"))
    position = 0;
  else if (coopvecOpIsNamed(inner, "memref.store") ||
           coopvecOpIsNamed(inner, "memref.atomic_rmw"))
    position = 1;
  else
    return MlirWalkResultAdvance;
  MlirValue array = mlirOperationGetOperand(inner, position);
  if (!coopvecADIsLocalArray(array) ||
      isNestedIn(mlirOpResultGetOwner(array), a->op))
    return MlirWalkResultAdvance;
  for (intptr_t k = 0; k < a->count; ++k)
    if (mlirValueEqual(a->values[k], array))
      return MlirWalkResultAdvance;
  a->values = coopvecGrowArray(a->values, &a->capacity, a->count + 1,
                               sizeof(MlirValue));
  a->values[a->count++] = array;
  return MlirWalkResultAdvance;
}

static Arrays accessedArrays(MlirOperation op) {
  Arrays a = {op, NULL, 0, 0};
  mlirOperationWalk(op, collectArrays, &a, MlirWalkPreOrder);
  return a;
}

/// The index of the snapshot S(`op`, `array`), made on first use: its
/// alloca goes to @NAME_grad's entry, so that every recomputation of `op`,
/// at any depth, can fill it.
static intptr_t snapshotOf(CoopvecAutodiff *ad, MlirOperation op,
                           MlirValue array) {
  for (intptr_t i = 0; i < ad->numSnapshots; ++i)
    if (mlirOperationEqual(ad->snapshots[i].region, op) &&
        mlirValueEqual(ad->snapshots[i].array, array))
      return i;
  ad->snapshots =
      coopvecGrowArray(ad->snapshots, &ad->snapshotsCapacity,
                       ad->numSnapshots + 1, sizeof(CoopvecADSnapshot));
  MlirOperation alloca = mlirOperationClone(mlirOpResultGetOwner(array));
  mlirBlockInsertOwnedOperation(ad->body, 0, alloca);
  CoopvecADSnapshot snapshot = {
      op, array, mlirOperationGetResult(alloca, 0), NULL, 0, 0, false};
  ad->snapshots[ad->numSnapshots] = snapshot;
  return ad->numSnapshots++;
}

/// Copies the elements of `from` into `to` (one static shape) from
/// dimension `dim` on, with `indices` set for the outer ones.
static void copyFrom(CoopvecBuilder *b, MlirValue from, MlirValue to,
                     MlirValue *indices, intptr_t dim) {
  MlirType type = mlirValueGetType(from);
  intptr_t rank = mlirShapedTypeGetRank(type);
  if (dim < rank) {
    CoopvecLoop loop = coopvecBuildFor(
        b, coopvecBuildIndexConstant(b, 0),
        coopvecBuildIndexConstant(b, mlirShapedTypeGetDimSize(type, dim)),
        coopvecBuildIndexConstant(b, 1), 0, NULL);
    indices[1 + dim] = loop.inductionVar;
    copyFrom(&loop.body, from, to, indices, dim + 1);
    coopvecFinishFor(&loop, 0, NULL);
    return;
  }
  indices[0] = from;
  MlirValue element =
      coopvecBuild1(b, "memref.load", 1 + rank, indices,
                    mlirShapedTypeGetElementType(type), 0, NULL);
  MlirValue operands[16];
  operands[0] = element;
  operands[1] = to;
  for (intptr_t i = 0; i < rank; ++i)
    operands[2 + i] = indices[1 + i];
  coopvecBuild0(b, "memref.store", 2 + rank, operands, 0, NULL);
}

/// Appends a copy of `from` into `to` at `b`; records its ops (the loop
/// nest, or a load and a store for rank 0) in snapshot `s`.
static void copyArray(CoopvecAutodiff *ad, CoopvecBuilder *b, intptr_t s,
                      MlirValue from, MlirValue to) {
  if (!mlirOperationIsNull(b->before))
    abort(); // the reverse sweep only appends
  MlirValue indices[15];
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(from));
  if (rank > 13)
    abort(); // the verifier's local arrays are small; see copyFrom's buffers
  copyFrom(b, from, to, indices, 0);
  // The ops just appended: the outer loop, or the load and the store.
  MlirOperation last = mlirBlockGetFirstOperation(b->block);
  for (MlirOperation op = last; !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    last = op;
  intptr_t count = rank == 0 ? 2 : 1;
  CoopvecADSnapshot *snapshot = &ad->snapshots[s];
  snapshot->copies =
      coopvecGrowArray(snapshot->copies, &snapshot->copiesCapacity,
                       snapshot->numCopies + count, sizeof(MlirOperation));
  if (count == 2)
    snapshot->copies[snapshot->numCopies++] =
        mlirOpResultGetOwner(mlirOperationGetOperand(last, 0));
  snapshot->copies[snapshot->numCopies++] = last;
}

void coopvecADTakeSnapshots(CoopvecAutodiff *ad, MlirOperation op,
                            MlirBlock block) {
  if (ad->stateDepth > 0)
    return; // a loop's state: nothing in it is reversed
  Arrays a = accessedArrays(op);
  CoopvecBuilder b = coopvecBuilderAtEnd(block, mlirOperationGetLocation(op));
  for (intptr_t k = 0; k < a.count; ++k) {
    intptr_t s = snapshotOf(ad, op, a.values[k]);
    copyArray(ad, &b, s, coopvecADClone(ad, a.values[k]),
              ad->snapshots[s].copy);
  }
  free(a.values);
}

void coopvecADRestoreSnapshots(CoopvecAutodiff *ad, MlirOperation op) {
  for (intptr_t s = 0; s < ad->numSnapshots; ++s) {
    if (!mlirOperationEqual(ad->snapshots[s].region, op))
      continue;
    ad->snapshots[s].restored = true;
    MlirValue array = coopvecADClone(ad, ad->snapshots[s].array);
    copyArray(ad, &ad->b, s, ad->snapshots[s].copy, array);
  }
}

bool coopvecADPrepareAdjointArrays(CoopvecAutodiff *ad, MlirOperation op) {
  Arrays a = accessedArrays(op);
  bool varied = false;
  for (intptr_t k = 0; k < a.count; ++k) {
    if (!coopvecADIsVaried(ad, a.values[k]))
      continue;
    varied = true;
    coopvecADAdjointArray(ad, a.values[k]);
  }
  free(a.values);
  return varied;
}

void coopvecADDropUnusedSnapshots(CoopvecAutodiff *ad) {
  for (intptr_t s = 0; s < ad->numSnapshots; ++s) {
    CoopvecADSnapshot *snapshot = &ad->snapshots[s];
    if (snapshot->restored)
      continue;
    // Last to first: a rank-0 copy's store uses its load.
    for (intptr_t i = snapshot->numCopies - 1; i >= 0; --i)
      mlirOperationDestroy(snapshot->copies[i]);
    mlirOperationDestroy(mlirOpResultGetOwner(snapshot->copy));
  }
}
