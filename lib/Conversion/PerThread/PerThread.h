//===- PerThread.h - The target-independent per-thread layer ------*- C -*-===//
//
// Every target lowers a per-thread coopvec function the same way, except
// for how threads map onto the hardware. This layer owns the common part
// (docs/architecture.md):
//
//   - the value map: a per-thread !coopvec.vec<N, T> is N "element
//     values", each of the target's element type (the CPU: vector<L x f32>,
//     element i of L threads in SIMD lanes; a GPU thread: f32). They are
//     either SSA values, or the rows of a "tile" (a memref<N x ...> the
//     target provides, e.g. a stack buffer on the CPU) that ops walk with a
//     loop over elements, so that code size does not grow with N. A
//     per-thread scalar (an unpacked element) is one SSA element value.
//     Arithmetic runs in f32 whatever T is; f16 is widened after loads and
//     rounded at stores and at coopvec.cast.
//   - the semantics of every per-thread op on element values: construction,
//     casts, elementwise ops (with the special-value rules of
//     docs/dialect.md), loads at uniform offsets, matrix views.
//   - the walk over the function body, dispatched through the op table, and
//     the liveness that lets a dead value's tile be reused.
//
// A target supplies a CoopvecThreadMapping: its element type, how a
// uniform scalar becomes an element value, optionally tiles, and the ops
// where threads cooperate or race (matvec, the training ops, stores), plus
// what to do with the function's uniform (non-coopvec) ops.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_CONVERSION_PERTHREAD_PERTHREAD_H
#define COOPVEC_LIB_CONVERSION_PERTHREAD_PERTHREAD_H

#include "Dialect/Functions.h"
#include "Dialect/OpTable.h"
#include "IR/UpstreamBuilders.h"
#include "Support/PointerMap.h"

#include "coopvec-c/Dialect.h"

#include <mlir-c/IR.h>

#include <stdbool.h>
#include <stdint.h>

struct CoopvecPerThread;

/// What a `coopvec.matrix_view` result denotes; it emits no code.
typedef struct CoopvecMatrixView {
  MlirValue buffer;
  int64_t base; // element offset of the matrix in `buffer`
  int64_t rows, cols;
  CoopvecLayout layout;
  MlirType element; // f16 or f32
} CoopvecMatrixView;

typedef struct CoopvecConstant {
  bool isIndex;
  int64_t bits; // the index, or the double's bits
  MlirValue value;
} CoopvecConstant;

typedef bool (*CoopvecOpHook)(struct CoopvecPerThread *p, MlirOperation op);

/// How a target maps threads onto hardware.
typedef struct CoopvecThreadMapping {
  const char *passName; // for messages: "convert-coopvec-to-cpu"
  /// A uniform f32 scalar as an element value at `b` (CPU: broadcast to
  /// lanes).
  MlirValue (*broadcast)(struct CoopvecPerThread *p, CoopvecBuilder *b,
                         MlirValue scalar);
  /// Tiles (NULL: the target keeps every element value in SSA form): a
  /// buffer of `rows` element values that dominates the body, and access
  /// to row `row` (an index value) at `b`. Vecs of more than
  /// `ssaMaxElements` elements are tiled.
  MlirValue (*allocTile)(struct CoopvecPerThread *p, int64_t rows);
  MlirValue (*loadRow)(struct CoopvecPerThread *p, CoopvecBuilder *b,
                       MlirValue tile, MlirValue row);
  void (*storeRow)(struct CoopvecPerThread *p, CoopvecBuilder *b,
                   MlirValue tile, MlirValue row, MlirValue value);
  int64_t ssaMaxElements;
  /// Ops where threads cooperate or race.
  CoopvecOpHook lowerStore;        // store, masked_store
  CoopvecOpHook lowerMatvec;       // matvec
  CoopvecOpHook lowerOuterProduct; // outer_product_accumulate
  CoopvecOpHook lowerReduceSum;    // reduce_sum_accumulate
  /// A non-coopvec op of the body (uniform: it sees no per-thread value).
  CoopvecOpHook lowerUniformOp;
  /// Whether lowerMatvec reads a bias that is a deferred load
  /// (coopvecDeferredLoad) from memory itself. A coopvec.load whose only
  /// use is as the bias of the matvec right after it then emits nothing.
  bool matvecReadsBiasLoads;
} CoopvecThreadMapping;

/// The element values of one per-thread value: `count` of them, in SSA
/// form (`values`), as the rows of `tile`, or, when `uniform`, all equal to
/// values[0] (a splat).
typedef struct CoopvecElements {
  intptr_t count;
  bool uniform;
  MlirValue *values; // SSA form or uniform; NULL when tiled
  MlirValue tile;
  int64_t lastUse; // index of the last op of the block using the value
} CoopvecElements;

/// A tile of the target: free when no value maps to it and no op uses it
/// as scratch.
typedef struct CoopvecTile {
  MlirValue memref;
  int64_t rows;
  int64_t users; // values mapped to it
  bool scratch;  // held until the current op is lowered
} CoopvecTile;

typedef struct CoopvecPerThread {
  MlirContext ctx;
  const CoopvecThreadMapping *mapping;
  void *target; // the target's own state
  /// `body` is where per-thread code goes; `entry` is a point that
  /// dominates it and runs once (constants).
  CoopvecBuilder body, entry;
  MlirType f32, index;
  MlirType elementType;       // of every element value
  CoopvecPointerMap valueMap; // MlirValue.ptr -> index into `elements`
  CoopvecElements *elements;
  intptr_t numElements, elementsCapacity;
  CoopvecTile *tiles;
  intptr_t numTiles, tilesCapacity;
  CoopvecPointerMap lastUses; // MlirValue.ptr -> index of its last user
  CoopvecPointerMap scratch;  // MlirValue.ptr -> its scratch tile (this op)
  int64_t opIndex;            // of the op being lowered
  CoopvecPointerMap viewMap;  // MlirValue.ptr -> index into `views`
  CoopvecMatrixView *views;
  intptr_t numViews, viewsCapacity;
  /// Constants created at `entry`, reused: index constants (the map's key
  /// is 2 * value + 1, never NULL) and element values with every lane
  /// equal (few: searched linearly).
  CoopvecPointerMap deferredLoads;  // load result -> 1 (matvecReadsBiasLoads)
  CoopvecPointerMap loweredAhead;   // op -> 1: lowered by an earlier op's hook
  CoopvecPointerMap indexConstants; // key -> index into `constants`
  CoopvecConstant *constants;
  intptr_t numConstants, constantsCapacity;
} CoopvecPerThread;

/// Starts a lowering; `body` / `entry` are set by the target before use.
void coopvecPerThreadInit(CoopvecPerThread *p, MlirContext ctx,
                          const CoopvecThreadMapping *mapping, void *target,
                          MlirType elementType);
void coopvecPerThreadFree(CoopvecPerThread *p);

/// Lowers every op of `block` (a per-thread function's body, without its
/// terminator) in order. Returns false after emitting an error at an op.
bool coopvecPerThreadLowerBlock(CoopvecPerThread *p, MlirBlock block);

/// An array of `count` null values (at least one); out of memory aborts,
/// so the result is never NULL.
__attribute__((returns_nonnull)) MlirValue *coopvecAllocValues(intptr_t count);
/// Records that `key` is represented by `count` SSA element values (copied).
void coopvecMapElements(CoopvecPerThread *p, MlirValue key, intptr_t count,
                        const MlirValue *values);
/// Records that every one of the `count` elements of `key` is `value`.
void coopvecMapUniform(CoopvecPerThread *p, MlirValue key, intptr_t count,
                       MlirValue value);
/// Records that `key` is the rows of `tile` (from coopvecTileFor).
void coopvecMapTile(CoopvecPerThread *p, MlirValue key, intptr_t count,
                    MlirValue tile);
/// The element values of `key`, or NULL if it is not per-thread.
const CoopvecElements *coopvecLookupElements(const CoopvecPerThread *p,
                                             MlirValue key);
/// Element `i` of a vec (a row load at `b` when tiled) or the one value of
/// a per-thread scalar, or a uniform scalar (f16 widened) as an element
/// value.
MlirValue coopvecOperandElement(CoopvecPerThread *p, MlirValue value,
                                intptr_t i);
/// Prepares `value` for coopvecOperandRow inside an element loop: a uniform
/// scalar is broadcast, and a vec in SSA form is stored to a scratch tile
/// (both at `p->body`, before the loop).
void coopvecPrepareForLoop(CoopvecPerThread *p, MlirValue value);
/// Element `i` (an index value) of a prepared operand at `b`: a row of its
/// tile, or its uniform / scalar value.
MlirValue coopvecOperandRow(CoopvecPerThread *p, CoopvecBuilder *b,
                            MlirValue value, MlirValue i);

/// Whether the result `value` of the current op is kept in a tile.
bool coopvecWantsTile(const CoopvecPerThread *p, intptr_t count);
/// A free tile of at least `count` rows for a result of the current op.
/// The tile of an operand in `inPlaceOperands` (bit o: operand o) that dies
/// at this op may be reused: right for ops that read row i of it only
/// before they write row i.
MlirValue coopvecTileFor(CoopvecPerThread *p, MlirOperation op, intptr_t count,
                         unsigned inPlaceOperands);
/// A tile of at least `rows` rows for the current op only.
MlirValue coopvecScratchTile(CoopvecPerThread *p, intptr_t rows);
/// A tile holding the element values of `value`: its own, or a scratch
/// tile they are stored to (freed after the current op).
MlirValue coopvecTileOf(CoopvecPerThread *p, MlirValue value);

/// Whether `value` is a coopvec.load left to the matvec that uses it as its
/// bias (CoopvecThreadMapping.matvecReadsBiasLoads): it has no element
/// values; the matvec reads the load's buffer at its offset.
bool coopvecIsDeferredLoad(const CoopvecPerThread *p, MlirValue value);
/// Records that the hook lowering the current op also lowered `op`, a later
/// op of the block (e.g. an activation fused into a matvec): the walk does
/// not lower it again, but releases the tiles of the operands dying there.
void coopvecMarkLoweredAhead(CoopvecPerThread *p, MlirOperation op);

/// An scf.for over [0, count) at `p->body`; element loops of the tiled
/// form. Close it with coopvecFinishFor.
CoopvecLoop coopvecElementLoop(CoopvecPerThread *p, intptr_t count);

const CoopvecMatrixView *coopvecLookupView(const CoopvecPerThread *p,
                                           MlirValue matrix);

/// `arith.constant value : index` at `entry`, created once.
MlirValue coopvecPerThreadIndex(CoopvecPerThread *p, int64_t value);
/// An element value with every lane `value`, created once at `entry`.
MlirValue coopvecPerThreadConstant(CoopvecPerThread *p, double value);

/// f16 -> f32 for a loaded scalar or vector; f32 unchanged.
MlirValue coopvecWidenToF32(CoopvecBuilder *b, MlirValue value);
/// f32 -> `element` (round to nearest even) for values about to be stored.
MlirValue coopvecNarrowTo(CoopvecBuilder *b, MlirValue value, MlirType element);

/// The number of elements / element type of a !coopvec.vec value.
intptr_t coopvecVecSizeOf(MlirValue vec);
MlirType coopvecVecElementOf(MlirValue vec);

/// The elementwise op `id` (a row of class Elementwise* in Ops.def) applied
/// to element values, with the special-value rules of docs/dialect.md.
/// Shared by every target; `operands` are f32 scalars or vectors of f32;
/// `element` is the op's element type (f16 results need less precision).
MlirValue coopvecEmitElementwise(CoopvecBuilder *b, CoopvecOpId id,
                                 MlirType element, const MlirValue *operands);

//===----------------------------------------------------------------------===//
// Per-thread functions (Functions.c)
//===----------------------------------------------------------------------===//

typedef struct CoopvecFunctionList {
  MlirOperation *ops;
  intptr_t count;
} CoopvecFunctionList;

/// The func.func ops of `module` with per-thread semantics: coopvec types
/// in the signature or coopvec ops in the body. Free `ops` with free().
CoopvecFunctionList coopvecCollectPerThreadFunctions(MlirOperation module);

/// A target's extra check of one coopvec op (e.g. size limits); NULL for
/// none. Returns false after emitting an error.
typedef bool (*CoopvecTargetOpCheck)(MlirOperation op);

/// Checks, before anything changes, that `func` can be lowered: a
/// definition of one block; a signature the batched form can express; the
/// name `<func><suffix>` free in `module`; no references to `func` outside
/// the per-thread functions (it is erased); no calls between per-thread
/// functions; non-coopvec ops that are uniform (they use no per-thread
/// value and define no coopvec value) and free of read-modify-write effects
/// and regions. Emits errors naming `passName`.
bool coopvecCheckPerThreadFunction(MlirOperation func, MlirOperation module,
                                   const CoopvecFunctionList *perThread,
                                   const char *passName, const char *suffix,
                                   CoopvecTargetOpCheck targetCheck);

#endif // COOPVEC_LIB_CONVERSION_PERTHREAD_PERTHREAD_H
