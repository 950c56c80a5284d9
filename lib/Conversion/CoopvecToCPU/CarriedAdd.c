//===- CarriedAdd.c - reduce-mode=local sums carried across lane groups ---===//
//
// Why: reduce-mode=local sums a lane group's adds at one address and adds
// the sum with one atomic, so a call of n threads that all add at one
// address still does n / L atomics; each is a `lock cmpxchg` loop (about
// 20 cycles on Zen 3, a full barrier) and, on two host threads, a transfer
// of the cache line between the cores (docs/performance.md, "Scatter-add").
//
// What: for a buffer that the function only adds into (nothing reads it,
// coopvecArgumentIsExpandable: no thread can observe when an add lands),
// each scatter-add op keeps one running (address, sums) pair in stack
// slots of the call, the sums a lane vector. A round whose address is the
// pair's adds its lanes' values into the pair's lanes (one vector add: no
// horizontal sum per round); a round at another address first adds the
// pair's lanes, summed, at the pair's address with one atomic, then starts
// the pair anew; the pair left at the end of the call is added the same
// way. A run of groups at one address (a 1-element buffer, a hot spot)
// then costs a vector add per group and one atomic per call.
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToCPU/CPU.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

bool *cpuAddOnlyArguments(MlirBlock original) {
  intptr_t count = mlirBlockGetNumArguments(original);
  bool *addOnly = calloc((size_t)count + 1, sizeof(bool));
  if (!addOnly)
    abort();
  for (intptr_t i = 0; i < count; ++i)
    addOnly[i] = coopvecArgumentIsExpandable(mlirBlockGetArgument(original, i));
  return addOnly;
}

bool cpuIsArgumentIn(const CPULowering *l, const bool *args, MlirValue buffer) {
  if (!args || !mlirValueIsABlockArgument(buffer) ||
      !mlirBlockEqual(mlirBlockArgumentGetOwner(buffer), l->entryBlock))
    return false;
  intptr_t arg = mlirBlockArgumentGetArgNumber(buffer) - 1; // after %n
  return arg >= 0 && arg < l->numArgs && args[arg];
}

/// No address: the pair holds nothing yet (an index no buffer reaches).
static MlirValue noAddress(CPULowering *l) {
  return coopvecPerThreadIndex(&l->p, -1);
}

static MlirValue slot(CPULowering *l, MlirType element, int64_t count) {
  MlirType type =
      mlirMemRefTypeContiguousGet(element, 1, &count, mlirAttributeGetNull());
  return coopvecBuildAlloca(&l->p.entry, type, 64);
}

static MlirValue loadSums(CPULowering *l, CoopvecBuilder *b,
                          const CPUCarriedAdd *c) {
  MlirValue operands[] = {c->sum, coopvecPerThreadIndex(&l->p, 0)};
  return coopvecBuild1(b, "vector.load", 2, operands, c->lanesType, 0, NULL);
}

static void storeSums(CPULowering *l, CoopvecBuilder *b, const CPUCarriedAdd *c,
                      MlirValue lanes) {
  MlirValue operands[] = {lanes, c->sum, coopvecPerThreadIndex(&l->p, 0)};
  coopvecBuild0(b, "vector.store", 3, operands, 0, NULL);
}

/// The sum of the pair's lanes added at its address, if it has one.
static void flush(CPULowering *l, CoopvecBuilder *b, const CPUCarriedAdd *c,
                  MlirValue address) {
  CoopvecIf held = coopvecBuildIf(
      b, coopvecBuildCmpI(b, COOPVEC_CMPI_NE, address, noAddress(l)));
  CoopvecBuilder *in = &held.then;
  coopvecBuildAtomic(in, c->kind, cpuSumLanes(in, loadSums(l, in, c)),
                     c->buffer, address);
  coopvecFinishIf(&held);
}

CPUCarriedAdd cpuCarriedAddCreate(CPULowering *l, MlirValue buffer,
                                  MlirAttribute kind, MlirType element) {
  int64_t lanes = l->lanes;
  CPUCarriedAdd c = {slot(l, l->p.index, 1), slot(l, element, lanes), buffer,
                     kind, mlirVectorTypeGet(1, &lanes, element)};
  MlirValue zero = coopvecPerThreadIndex(&l->p, 0);
  coopvecBuildMemrefStore(&l->p.entry, noAddress(l), c.address, zero);
  flush(l, &l->exit, &c, coopvecBuildMemrefLoad(&l->exit, c.address, zero));
  return c;
}

void cpuCarriedAdd(CPULowering *l, CoopvecBuilder *b, const CPUCarriedAdd *c,
                   MlirValue address, MlirValue lanes) {
  MlirValue zero = coopvecPerThreadIndex(&l->p, 0);
  MlirValue held = coopvecBuildMemrefLoad(b, c->address, zero);
  CoopvecIfElse same = coopvecBuildIfElse(
      b, coopvecBuildCmpI(b, COOPVEC_CMPI_EQ, address, held), 0, NULL);
  CoopvecBuilder *in = &same.then;
  const char *add = mlirTypeIsAFloat(mlirShapedTypeGetElementType(c->lanesType))
                        ? "arith.addf"
                        : "arith.addi";
  storeSums(l, in, c, coopvecBuildBinaryOp(in, add, loadSums(l, in, c), lanes));
  in = &same.otherwise;
  flush(l, in, c, held);
  coopvecBuildMemrefStore(in, address, c->address, zero);
  storeSums(l, in, c, lanes);
  coopvecFinishIfElse(&same, NULL, NULL);
}
