//===- LaneLoop.c - A loop over the set lanes of a mask -------------------===//
//
// Why: moving a few lanes' values between memory and lane vectors with a
// masked vector.gather / vector.scatter costs a test and a branch per lane
// on targets without fast gathers (LLVM scalarizes them; on AVX2 Zen 3
// every x86 target but those with AVX-512), and the branches mispredict
// when the set lanes are few and random: lane refill's gathers of the
// arguments of the 1 or 2 lanes that take a new thread, and its scatters
// of the results of those that finish (docs/performance.md, "Lane refill:
// the refill's branches").
//
// What: `while (bits) { lane = cttz(bits); body(lane, rank); bits &= bits
// - 1; ++rank }` over the lanes' bits (one movmsk-style instruction): the
// body runs once per set lane, in increasing lane order, and the loop
// costs one branch per set lane plus its exit.
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToCPU/CPU.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinTypes.h>

MlirValue cpuLaneBits(CPULowering *l, CoopvecBuilder *b, MlirValue mask) {
  int64_t one = 1;
  MlirType bits = mlirVectorTypeGet(
      1, &one, mlirIntegerTypeGet(l->p.ctx, (unsigned)l->lanes));
  return coopvecBuildExtract(
      b, coopvecBuild1(b, "vector.bitcast", 1, &mask, bits, 0, NULL), 0);
}

/// `scf.while` over (bits, values...) that runs while bits != 0, inserted
/// at `b`: its before region hands all `n` values to the after region,
/// whose block is returned (the caller fills and ends it).
static MlirBlock buildBitsWhile(CoopvecBuilder *b, intptr_t n,
                                const MlirValue *inits) {
  MlirLocation loc = b->location;
  MlirType types[2];
  MlirLocation locs[] = {loc, loc};
  for (intptr_t i = 0; i < n; ++i)
    types[i] = mlirValueGetType(inits[i]);
  MlirBlock before = mlirBlockCreate(n, types, locs);
  MlirBlock after = mlirBlockCreate(n, types, locs);
  MlirRegion regions[2] = {mlirRegionCreate(), mlirRegionCreate()};
  mlirRegionAppendOwnedBlock(regions[0], before);
  mlirRegionAppendOwnedBlock(regions[1], after);
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString("scf.while"), loc);
  mlirOperationStateAddOperands(&state, n, inits);
  mlirOperationStateAddResults(&state, n, types);
  mlirOperationStateAddOwnedRegions(&state, 2, regions);
  coopvecInsertAt(b, mlirOperationCreate(&state));
  CoopvecBuilder in = coopvecBuilderAtEnd(before, loc);
  MlirValue left = mlirBlockGetArgument(before, 0);
  MlirValue operands[3] = {coopvecBuildCmpI(
      &in, COOPVEC_CMPI_NE, left, coopvecBuildIntConstant(&in, types[0], 0))};
  for (intptr_t i = 0; i < n; ++i)
    operands[1 + i] = mlirBlockGetArgument(before, i);
  coopvecBuild0(&in, "scf.condition", 1 + n, operands, 0, NULL);
  return after;
}

MlirBlock cpuBuildBitsLoop(CPULowering *l, CoopvecBuilder *b, MlirValue bits) {
  (void)l;
  return buildBitsWhile(b, 1, &bits);
}

MlirValue cpuLowestSetLane(CPULowering *l, CoopvecBuilder *b, MlirValue bits) {
  return coopvecBuildCast1(b, "arith.index_castui",
                           coopvecBuildUnaryOp(b, "math.cttz", bits),
                           l->p.index);
}

void cpuForEachSetLane(CPULowering *l, CoopvecBuilder *b, MlirValue mask,
                       CPULaneBody body, void *userData) {
  MlirValue inits[] = {cpuLaneBits(l, b, mask),
                       coopvecPerThreadIndex(&l->p, 0)};
  MlirBlock block = buildBitsWhile(b, 2, inits);
  CoopvecBuilder in = coopvecBuilderAtEnd(block, b->location);
  MlirValue bits = mlirBlockGetArgument(block, 0);
  MlirValue rank = mlirBlockGetArgument(block, 1);
  body(l, &in, cpuLowestSetLane(l, &in, bits), rank, userData);
  // bits & (bits - 1) clears the lowest set bit: the lane just done.
  MlirValue rest = coopvecBuildBinaryOp(
      &in, "arith.andi", bits,
      coopvecBuildBinaryOp(
          &in, "arith.subi", bits,
          coopvecBuildIntConstant(&in, mlirValueGetType(bits), 1)));
  MlirValue yielded[] = {rest,
                         coopvecBuildBinaryOp(&in, "arith.addi", rank,
                                              coopvecPerThreadIndex(&l->p, 1))};
  coopvecBuild0(&in, "scf.yield", 2, yielded, 0, NULL);
}
