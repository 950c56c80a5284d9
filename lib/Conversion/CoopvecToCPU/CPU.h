//===- CPU.h - convert-coopvec-to-cpu internals -------------------*- C -*-===//
//
// The CPU target's thread mapping: a per-thread function runs for L threads
// at once, one per SIMD lane, so every element value is a lane vector
// vector<L x f32> (element i of L threads). @f becomes @f_batched, an
// scf.for over groups of L threads whose last group is masked
// (docs/execution-model.md). The shared per-thread layer
// (lib/Conversion/PerThread) lowers everything but the ops in this
// target's hooks: stores, matvec and the training ops (CPUMatvec.c,
// CPUTraining.c, CPUTransfers.c).
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_CONVERSION_COOPVECTOCPU_CPU_H
#define COOPVEC_LIB_CONVERSION_COOPVECTOCPU_CPU_H

#include "Conversion/PerThread/PerThread.h"

typedef struct CPULowering {
  CoopvecPerThread p;
  int64_t lanes;
  int64_t rowBlock;       // output rows per matvec micro-kernel block
  int64_t transposeBlock; // B of the B x B transposes of transfers; 0: none
  bool fusedMultiplyAdd;  // the target has an FMA instruction
  MlirBlock entryBlock;   // of @f_batched: %n, arguments, outputs
  CoopvecBuilder exit;    // after the lane loop, before the func.return
  MlirType laneType;      // vector<L x f32>
  MlirValue threadBase;   // first thread of this group (the induction var)
  MlirValue validLanes;   // min(n - threadBase, L)
  MlirValue mask;         // vector<L x i1>: lane < validLanes
  MlirValue fullGroup;    // i1: validLanes == L, created on first use
  MlirValue laneIds;      // vector<L x index> 0 .. L-1, created on first use
  /// Lane refill (LaneRefill.c): the thread each lane holds in the code
  /// being emitted, vector<L x index>; null in the group loop's code.
  MlirValue threadIds;
  /// The highest active lane of each active mask (stores), built after it.
  CoopvecPointerMap lastLanes; // mask MlirValue.ptr -> index into p.lowered
  /// f32 copies of f16 matrices, made once per call before the lane loop
  /// (CPUMatvec.c, widenedCopy).
  struct CPUWidenedMatrix *widened;
  intptr_t numWidened, widenedCapacity;
  /// reduce-mode=expand: which arguments of the per-thread function get
  /// per-host-thread copies (ReduceMode.h); NULL in other modes.
  bool *expandedArgs;
  /// reduce-mode=local: the arguments the function only adds into, whose
  /// scatter-adds carry their sums across lane groups (CarriedAdd.c); NULL
  /// in other modes.
  bool *addOnlyArgs;
  intptr_t numArgs;
} CPULowering;

static inline CPULowering *cpuOf(CoopvecPerThread *p) {
  return (CPULowering *)p->target;
}

/// Thread-mapping hooks (CoopvecThreadMapping).
bool cpuLowerStore(CoopvecPerThread *p, MlirOperation op);
bool cpuLowerMatvec(CoopvecPerThread *p, MlirOperation op);
bool cpuLowerOuterProduct(CoopvecPerThread *p, MlirOperation op);
bool cpuLowerReduceSum(CoopvecPerThread *p, MlirOperation op);

/// Varying values and masks (CPUMemory.c): a varying T is vector<L x T>;
/// a mask tests and reduces over the lanes.
MlirType cpuVaryingType(CoopvecPerThread *p, MlirType scalar);
MlirValue cpuAnyActive(CoopvecPerThread *p, CoopvecBuilder *b, MlirValue mask);
/// Whether every lane of the lane mask `mask` is set (an i1).
MlirValue cpuAllActive(CoopvecPerThread *p, CoopvecBuilder *b, MlirValue mask);
extern const CoopvecMemoryHooks cpuMemoryHooks;

/// Tiles (CoopvecThreadMapping): stack buffers of lane vectors,
/// memref<rows x L x f32>, 64-byte aligned, before the lane loop.
MlirValue cpuAllocTile(CoopvecPerThread *p, int64_t rows);
MlirValue cpuLoadRow(CoopvecPerThread *p, CoopvecBuilder *b, MlirValue tile,
                     MlirValue row);
void cpuStoreRow(CoopvecPerThread *p, CoopvecBuilder *b, MlirValue tile,
                 MlirValue row, MlirValue value);

/// B of the B x B transposes that move full groups between row-major
/// buffers and tiles: the largest power of two that divides `lanes` and
/// fits a vector register of f32 (at most 16); 0 if that is 1 (gathers and
/// scatters only).
int64_t cpuTransposeBlock(int64_t lanes, int64_t vectorFloats);
/// Reads vec argument `arg` from its n x N buffer into lane vectors.
void cpuLoadVecArgument(CPULowering *l, MlirValue arg, MlirValue buffer);
/// Writes the returned vecs to their n x N output buffers.
void cpuStoreResults(CPULowering *l, MlirOperation ret, intptr_t firstOutput);

/// Lane refill (LaneRefill.c, docs/passes.md "lane-refill").
typedef enum CPULaneRefill {
  CPULaneRefillFalse,
  CPULaneRefillTrue,
  CPULaneRefillAuto,
} CPULaneRefill;
/// Parses `true`, `false` or `auto`; false for anything else.
bool cpuParseLaneRefill(const char *text, CPULaneRefill *out);
/// The top-level scf.while of the per-thread function `func` (analyzed by
/// `p`) that lane refill runs with persistent lanes, or a null op when the
/// function's shape does not fit (or, under auto, refill would not pay).
MlirOperation cpuLaneRefillLoop(CoopvecPerThread *p, MlirOperation func,
                                CPULaneRefill mode);
/// Builds the body of @f_batched (entry block `l->entryBlock`, its
/// func.return not yet built) from the body `original` of the per-thread
/// function with lane refill around `loop`; results are written to the
/// outputs from batched argument `firstOutput` on.
bool cpuLowerWithLaneRefill(CPULowering *l, MlirBlock original,
                            MlirOperation loop, intptr_t firstOutput);

/// The lanes of `mask` (vector<L x i1>) as the bits of an L-bit integer:
/// one movmsk-style instruction on x86 (LaneLoop.c).
MlirValue cpuLaneBits(CPULowering *l, CoopvecBuilder *b, MlirValue mask);
/// Inserts at `b` `scf.while` over the L-bit integer `bits` while it is not
/// 0, and returns its body's block (argument: the bits), which the caller
/// ends with `scf.yield` of the bits left (LaneLoop.c).
MlirBlock cpuBuildBitsLoop(CPULowering *l, CoopvecBuilder *b, MlirValue bits);
/// The index of the lowest set bit of `bits` (not 0), as an index.
MlirValue cpuLowestSetLane(CPULowering *l, CoopvecBuilder *b, MlirValue bits);
/// The body of a loop over set lanes: `lane` (index) is the lane, `rank`
/// (index) the number of set lanes below it.
typedef void (*CPULaneBody)(CPULowering *l, CoopvecBuilder *b, MlirValue lane,
                            MlirValue rank, void *userData);
/// Inserts at `b` a loop that calls `body` once for each set lane of
/// `mask`, in increasing lane order (LaneLoop.c).
void cpuForEachSetLane(CPULowering *l, CoopvecBuilder *b, MlirValue mask,
                       CPULaneBody body, void *userData);

/// The sum of the lanes of `lanes` (a lane vector of floats, summed with
/// reassociation, or of integers) at `b` (CPUMemory.c).
MlirValue cpuSumLanes(CoopvecBuilder *b, MlirValue lanes);

/// reduce-mode=local's running sum of one scatter-add op at one address,
/// carried across the op's rounds and lane groups in two stack slots of
/// the call (CarriedAdd.c).
typedef struct CPUCarriedAdd {
  MlirValue address, sum; // memref<1 x index>, memref<L x element>
  MlirValue buffer;
  MlirAttribute kind;
  MlirType lanesType; // vector<L x element>
} CPUCarriedAdd;
/// The arguments of the per-thread function's body `original` that it only
/// adds into (coopvecArgumentIsExpandable), by argument number.
bool *cpuAddOnlyArguments(MlirBlock original);
/// Whether `buffer` (lowered) is an argument of @f_batched marked in `args`
/// (indexed as the per-thread function's arguments; NULL: none).
bool cpuIsArgumentIn(const CPULowering *l, const bool *args, MlirValue buffer);
/// The slots of a new running sum into `buffer` (an atomic `kind`, addf or
/// addi, of `element` values), empty, and its final add at `l->exit`.
CPUCarriedAdd cpuCarriedAddCreate(CPULowering *l, MlirValue buffer,
                                  MlirAttribute kind, MlirType element);
/// Adds the lanes of `lanes` (vector<L x element>, zero in the lanes that
/// do not add) at `address` through the running sums at `b`: into them
/// when they are at `address`; else their sum is added at their address
/// (an atomic) and they restart at `address` with `lanes`.
void cpuCarriedAdd(CPULowering *l, CoopvecBuilder *b, const CPUCarriedAdd *c,
                   MlirValue address, MlirValue lanes);

/// `value` at `b` with the lanes of inactive threads (past the end, or not
/// taking the control flow around) set to zero.
MlirValue cpuMaskLanes(CPULowering *l, CoopvecBuilder *b, MlirValue value);
/// A memref<rows x cols x f32> before the lane loop (gradient tiles).
MlirValue cpuAllocaMatrix(CPULowering *l, int64_t rows, int64_t cols);

/// Opens an scf.for in the lane loop body and moves the body builder into
/// it; cpuCloseLoop yields `values` and moves it back (CPUMatvec.c).
CoopvecLoop cpuOpenLoop(CPULowering *l, MlirValue lower, MlirValue upper,
                        MlirValue step, intptr_t numInits,
                        const MlirValue *inits, CoopvecBuilder *saved);
void cpuCloseLoop(CPULowering *l, CoopvecLoop *loop, intptr_t numValues,
                  const MlirValue *values, const CoopvecBuilder *saved);
/// acc + x * y on lane vectors at `b`: math.fma where the target has an
/// FMA instruction, else a multiply and an add.
MlirValue cpuMultiplyAdd(CPULowering *l, CoopvecBuilder *b, MlirValue x,
                         MlirValue y, MlirValue acc);
/// The view `matrix` (an operand of `op`) was made from, or null after an
/// error at `op`.
const CoopvecMatrixView *cpuCheckedView(CoopvecPerThread *p, MlirOperation op,
                                        MlirValue matrix);
/// Transposes the B x B matrix whose rows are the vector<B x f32> values
/// rows[0 .. B) in place, B a power of two up to 16 (CPUTransfers.c).
void cpuTransposeRows(CoopvecBuilder *b, MlirValue *rows, int64_t block);

/// Vecs of more elements live in stack tiles and are processed by element
/// loops; smaller ones are SSA lane vectors (docs/execution-model.md).
enum { CPU_SSA_MAX_ELEMENTS = 16 };

/// The largest M * K of a matvec or outer product (their tiles are on the
/// stack).
enum { CPU_MAX_MATRIX_ELEMENTS = 128 * 128 };

#endif // COOPVEC_LIB_CONVERSION_COOPVECTOCPU_CPU_H
