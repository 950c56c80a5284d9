//===- Lowering.h - convert-coopvec-to-vector internals -----------*- C -*-===//
//
// The state shared by the per-op lowerings of convert-coopvec-to-vector.
//
// A per-thread function runs for L threads at once, one per SIMD lane.
// Every per-thread value therefore becomes lane vectors of type
// vector<L x f32>: a !coopvec.vec<N, T> becomes N of them (element i of all
// L threads), a per-thread scalar (a `coopvec.unpack` result) one. f16 data
// is computed in f32 (see docs/execution-model.md). Values that are the same
// for every thread (memrefs, indices, scalars computed from arguments) are
// "uniform": their ops are moved unchanged into the lane loop.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_CONVERSION_COOPVECTOVECTOR_LOWERING_H
#define COOPVEC_LIB_CONVERSION_COOPVECTOVECTOR_LOWERING_H

#include "Conversion/CoopvecToVector/Builder.h"

#include "coopvec-c/Dialect.h"

#include <mlir-c/IR.h>

#include <stdbool.h>
#include <stdint.h>

/// The lane vectors standing for one per-thread value.
typedef struct LaneValue {
  MlirValue key;
  intptr_t count;
  MlirValue *lanes;
} LaneValue;

/// What a `coopvec.matrix_view` result denotes; it emits no code.
typedef struct MatrixView {
  MlirValue key;
  MlirValue buffer;
  int64_t base; // first element of the matrix in `buffer`
  int64_t rows, cols;
  CoopvecLayout layout;
} MatrixView;

typedef struct IndexConstant {
  int64_t value;
  MlirValue result; // null for an empty slot
} IndexConstant;

/// Per vec size N: the lane strides dense<[0, N, 2N, ...]> and the group's
/// first element index threadBase * N, shared by all arguments / results.
typedef struct GroupLayout {
  intptr_t size;
  MlirValue strides, groupBase;
} GroupLayout;

typedef struct Lowering {
  MlirContext ctx;
  int64_t lanes;
  int64_t rowBlock; // output rows per matvec micro-kernel block
  /// Before the lane loop (constants); inside it, before its scf.yield;
  /// after it, before the func.return.
  CvBuilder entry, body, exit;
  MlirType f32, index;
  MlirType laneType;      // vector<L x f32>
  MlirValue threadBase;   // first thread of this group (loop induction var)
  MlirValue validLanes;   // min(n - threadBase, L)
  MlirValue mask;         // vector<L x i1>: lane < validLanes
  MlirValue zeroLanes;    // dense<0.0> : vector<L x f32>
  MlirValue oneLanes;     // dense<1.0>, created on first use (step)
  MlirValue negZeroLanes; // dense<-0.0>, created on first use (matvec)
  MlirValue lastLane;     // validLanes - 1, created on first use (store)
  /// Stack tiles of lane vectors (memref<R x L x f32>, one row per lane
  /// vector) shared by all matvecs and outer products of the function,
  /// created on first use (LowerMatvec.c).
  MlirValue inputTile, outputTile;
  LaneValue *values;
  intptr_t numValues, valuesCapacity;
  MatrixView *matrices;
  intptr_t numMatrices, matricesCapacity;
  GroupLayout *layouts;
  intptr_t numLayouts, layoutsCapacity;
  IndexConstant *constants; // open addressing, power-of-two capacity
  intptr_t numConstants, constantsCapacity;
} Lowering;

/// Records that `key` is represented by `count` lane vectors (copied).
void cvMapLanes(Lowering *l, MlirValue key, intptr_t count,
                const MlirValue *lanes);
/// The lane vectors of `key`, or NULL if it is not per-thread.
const LaneValue *cvLookupLanes(const Lowering *l, MlirValue key);
/// Lane vector `i` of a vec, or the lanes of a per-thread scalar, or a
/// broadcast of a uniform scalar (f16 extended to f32).
MlirValue cvOperandLane(Lowering *l, MlirValue value, intptr_t i);

void cvMapMatrix(Lowering *l, const MatrixView *view);
const MatrixView *cvLookupMatrix(const Lowering *l, MlirValue key);
/// The element offset of (row, col) of `view` in its buffer.
int64_t cvMatrixElementIndex(const MatrixView *view, int64_t row, int64_t col);

/// `arith.constant value : index`, created once before the lane loop.
MlirValue cvIndexConstant(Lowering *l, int64_t value);

/// f16 -> f32 (arith.extf) for loaded scalars or lane vectors; f32 as is.
MlirValue cvExtendToF32(Lowering *l, MlirValue value);
/// f32 -> `element` (arith.truncf) for values about to be stored.
MlirValue cvTruncateTo(Lowering *l, MlirValue value, MlirType element);
/// The number of elements of a !coopvec.vec value.
intptr_t cvVecSize(MlirValue vec);
/// The element type of a !coopvec.vec value.
MlirType cvVecElementType(MlirValue vec);
/// A vector<L x f32> constant with all lanes `value`, before the loop.
MlirValue cvLaneConstant(Lowering *l, double value);
/// vector<L x f32> broadcast of an f32 scalar.
MlirValue cvBroadcastLanes(Lowering *l, MlirValue scalar);
/// `value` with the lanes of threads past the end set to zero.
MlirValue cvMaskLanes(Lowering *l, MlirValue value);
/// The sum over valid lanes (vector.reduction <add>, reassociable).
MlirValue cvSumLanes(Lowering *l, MlirValue value);
/// `memref.atomic_rmw addf value, buffer[index]`.
void cvAtomicAdd(Lowering *l, MlirValue value, MlirValue buffer,
                 MlirValue index);

/// Lowers one coopvec op into the lane loop. Returns false after emitting
/// an error at the op.
typedef bool (*CvOpLowering)(Lowering *l, MlirOperation op);
/// The lowering for a coopvec op name, or NULL.
CvOpLowering cvLookupOpLowering(MlirStringRef name);

/// Per-file lowerings (LowerElementwise.c, LowerMemory.c, LowerMatvec.c).
bool cvLowerElementwise(Lowering *l, MlirOperation op);
bool cvLowerFromElements(Lowering *l, MlirOperation op);
bool cvLowerSplat(Lowering *l, MlirOperation op);
bool cvLowerUnpack(Lowering *l, MlirOperation op);
bool cvLowerFromVector(Lowering *l, MlirOperation op);
bool cvLowerToVector(Lowering *l, MlirOperation op);
bool cvLowerCast(Lowering *l, MlirOperation op);
bool cvLowerLoad(Lowering *l, MlirOperation op);
bool cvLowerStore(Lowering *l, MlirOperation op);
bool cvLowerMatrixView(Lowering *l, MlirOperation op);
bool cvLowerMatvec(Lowering *l, MlirOperation op);
bool cvLowerOuterProduct(Lowering *l, MlirOperation op);
bool cvLowerReduceSum(Lowering *l, MlirOperation op);

/// The largest M * K of a matvec or outer product (their tiles are on the
/// stack).
enum { CV_MAX_MATRIX_ELEMENTS = 128 * 128 };

#endif // COOPVEC_LIB_CONVERSION_COOPVECTOVECTOR_LOWERING_H
