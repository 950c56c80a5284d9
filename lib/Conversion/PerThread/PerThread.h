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
//   - the walk over the function body and the regions of its control flow
//     (Walk.c), dispatched through the op table, and the liveness that lets
//     a dead value's tile be reused;
//   - general per-thread code (docs/dialect.md, "Per-thread programs"):
//     scalar arith / math on varying values (Scalars.c), structured control
//     flow, plain or under an active mask (ControlFlow.c), memory at
//     varying indices and local arrays with run-time bounds checks
//     (Memory.c); which values are varying is Uniformity.c's analysis.
//
// A target supplies a CoopvecThreadMapping: its element type, how a
// uniform scalar becomes a varying value, optionally tiles, the ops where
// threads cooperate or race (matvec, the training ops, stores), how it
// tests a mask and which control flow it runs masked, and its memory
// primitives.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_CONVERSION_PERTHREAD_PERTHREAD_H
#define COOPVEC_LIB_CONVERSION_PERTHREAD_PERTHREAD_H

#include "Conversion/PerThread/ReduceMode.h"
#include "Conversion/PerThread/Uniformity.h"
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

/// One element access of memory (Memory.c): element `index` of `buffer`,
/// where `index` is a varying or uniform index value, or for a local array
/// the linear element index into its storage.
typedef struct CoopvecElementAccess {
  MlirOperation op;
  MlirValue buffer; // a memref argument, or a local array's storage
  bool local;       // a local array (the target's private storage)
  MlirValue index;
  MlirType element; // the element type in memory
} CoopvecElementAccess;

/// The i32 (or vector of i32) `index` was sign-extended from by an
/// arith.index_cast, or null: comparisons of such indices may be made on
/// the narrower values (Memory.c's bounds checks, the CPU's reduce-mode
/// rounds).
MlirValue coopvecSignExtendedI32(MlirValue index);

/// What a target does with memory at varying places (Memory.c decides
/// what is accessed and whether it is in bounds). `mask` is an i1 of the
/// index's form (varying or uniform) or null for "every active thread":
/// elements whose bit is clear are not accessed; a load gives 0 there.
typedef struct CoopvecMemoryHooks {
  MlirValue (*load)(struct CoopvecPerThread *p, CoopvecBuilder *b,
                    const CoopvecElementAccess *a, MlirValue mask);
  void (*store)(struct CoopvecPerThread *p, CoopvecBuilder *b,
                const CoopvecElementAccess *a, MlirValue value, MlirValue mask);
  /// memref.atomic_rmw of `kind` ("addf", "maxs", ...): the old value.
  MlirValue (*atomic)(struct CoopvecPerThread *p, CoopvecBuilder *b,
                      const CoopvecElementAccess *a, MlirAttribute kind,
                      MlirValue value, MlirValue mask);
  /// Storage for a local array of `count` elements of `element` (at the
  /// function's entry), and zeroing it at `b`.
  MlirValue (*allocLocal)(struct CoopvecPerThread *p, int64_t count,
                          MlirType element);
  void (*zeroLocal)(struct CoopvecPerThread *p, CoopvecBuilder *b,
                    MlirValue storage, int64_t count);
  /// The number of elements of memref argument `memref` (lowered), built at
  /// the function's entry.
  MlirValue (*bufferSize)(struct CoopvecPerThread *p, MlirValue memref);
  /// Adds the threads of `outside` (a varying or uniform i1: the active
  /// threads whose access `checkId` is out of bounds) to the run's status.
  void (*report)(struct CoopvecPerThread *p, CoopvecBuilder *b,
                 MlirValue outside, int64_t checkId);
} CoopvecMemoryHooks;

/// How a target maps threads onto hardware.
typedef struct CoopvecThreadMapping {
  const char *passName; // for messages: "convert-coopvec-to-cpu"
  /// A uniform scalar (of any type) as a varying value at `b` (CPU:
  /// broadcast to the lanes; GPU: the scalar itself).
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
  /// The type of a varying scalar of type `scalar` (CPU: vector<L x
  /// scalar>; a GPU thread: `scalar`).
  MlirType (*varyingType)(struct CoopvecPerThread *p, MlirType scalar);
  /// Whether some thread of the varying i1 `mask` is set, as an i1 every
  /// thread of the group agrees on (CPU: an OR of the lanes; GPU: a vote of
  /// the workgroup).
  MlirValue (*anyActive)(struct CoopvecPerThread *p, CoopvecBuilder *b,
                         MlirValue mask);
  /// Whether region op `op`, whose control is varying, runs masked (every
  /// thread of the group through it, the active mask selecting) rather than
  /// as divergent thread code (ControlFlow.c).
  bool (*masksRegion)(struct CoopvecPerThread *p, MlirOperation op);
  const CoopvecMemoryHooks *memory;
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
} CoopvecElements;

/// A tile of the target: free when no value maps to it and no op uses it
/// as scratch.
typedef struct CoopvecTile {
  MlirValue memref;
  int64_t rows;
  int64_t users; // values mapped to it
  bool scratch;  // held until the current op is lowered
} CoopvecTile;

/// A value defined in the open fused element loop (ElementLoopFusion.c):
/// its row in the loop body and the ops storing the row to its tile (none
/// once erased).
#define COOPVEC_FUSED_MAX_STORES 4
typedef struct CoopvecFusedValue {
  MlirValue source;
  MlirValue row;
  MlirOperation stores[COOPVEC_FUSED_MAX_STORES];
  int numStores;
} CoopvecFusedValue;

/// The element loop later elementwise ops may join (null `loop`: none).
typedef struct CoopvecFusedLoop {
  MlirOperation loop;
  intptr_t count;
  MlirValue index;        // the loop's induction variable
  CoopvecPointerMap ops;  // source op -> 1: lowered into the loop
  CoopvecPointerMap rows; // source value -> index into `defined`
  CoopvecFusedValue *defined;
  intptr_t numDefined, definedCapacity;
} CoopvecFusedLoop;

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
  /// Liveness (Walk.c): the last use of a value is the index, in the block
  /// that defines it, of the op that uses it last (an op holding the use
  /// in its regions counts); a value dies there.
  CoopvecPointerMap lastUses;      // MlirValue.ptr -> index of its last user
  CoopvecPointerMap definingBlock; // MlirValue.ptr -> MlirBlock.ptr
  CoopvecPointerMap opIndices;     // MlirOperation.ptr -> index in its block
  CoopvecPointerMap scratch; // MlirValue.ptr -> its scratch tile (this op)
  MlirBlock block;           // the original block being lowered
  int64_t opIndex;           // of the op being lowered in `block`
  /// Varying and uniform (Uniformity.c), and the lowered form of every
  /// non-vec value whose lowered value is not the value itself: varying
  /// scalars, new region results and block arguments, local arrays.
  CoopvecUniformity uniformity;
  CoopvecPointerMap loweredMap; // MlirValue.ptr -> index into `lowered`
  MlirValue *lowered;
  intptr_t numLowered, loweredCapacity;
  CoopvecPointerMap broadcasts; // uniform MlirValue.ptr -> its varying form
  /// The threads for which the code being emitted runs: a varying i1. At
  /// the function's top level the valid threads; narrower under masked
  /// control flow. `allActive`: every thread that runs this code is active
  /// (divergent GPU code entered by active threads only).
  MlirValue active;
  bool allActive;
  /// Run-time bounds checks (Memory.c): the accesses checked, in order (a
  /// report names one by its index), and the status buffer they report to.
  bool boundsChecks;
  /// How the target builds scatter-adds (ReduceMode.h); auto is resolved
  /// by the target before lowering.
  CoopvecReduceMode reduceMode;
  /// While a coopvec transfer at a uniform offset that is checked at run
  /// time is lowered: the elements inside its buffer (a uniform
  /// vector<N x i1>); null otherwise. The targets' store and reduce_sum
  /// hooks access only those (coopvecTransferMask).
  MlirValue boundsMask;
  /// With boundsMask: how many of its elements are inside the buffer (a
  /// uniform index), for element loops that test element i alone.
  MlirValue boundsLeft;
  MlirOperation *checks;
  intptr_t numChecks, checksCapacity;
  MlirValue status;
  /// Local arrays (memref.alloca; Memory.c): original result -> index.
  CoopvecPointerMap localMap;
  struct CoopvecLocalArray *locals;
  intptr_t numLocals, localsCapacity;
  CoopvecPointerMap sizes; // memref argument -> index into `lowered`
  /// Accesses the engine checks before the run (Dialect/Accesses.h),
  /// decided on the function as written: op -> 1.
  CoopvecPointerMap prechecked;
  CoopvecPointerMap viewMap; // MlirValue.ptr -> index into `views`
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
  CoopvecFusedLoop fused;
} CoopvecPerThread;

/// Starts a lowering; `body` / `entry` are set by the target before use.
void coopvecPerThreadInit(CoopvecPerThread *p, MlirContext ctx,
                          const CoopvecThreadMapping *mapping, void *target,
                          MlirType elementType);
void coopvecPerThreadFree(CoopvecPerThread *p);

/// Analyzes per-thread function `func` before the target changes it
/// (before its arguments are mapped): which values are varying, which
/// accesses the engine checks before the run.
void coopvecPerThreadAnalyze(CoopvecPerThread *p, MlirOperation func);
/// Lowers the body `block` of per-thread function `func` (without its
/// terminator), ops in order and control flow region by region, under the
/// active mask `p->active`. Returns false after emitting an error at an op.
bool coopvecPerThreadLowerBlock(CoopvecPerThread *p, MlirBlock block);
/// Lowering the function body `block` op by op, in an order of the
/// target's own (lane refill, CoopvecToCPU/LaneRefill.c): the liveness of
/// the function first; then each top-level op with coopvecPerThreadLowerOp
/// at `p->body`, under `p->active` (the tiles of the values dying at it
/// are released after it, as in coopvecPerThreadLowerBlock).
void coopvecPerThreadBeginBlock(CoopvecPerThread *p, MlirBlock block);
bool coopvecPerThreadLowerOp(CoopvecPerThread *p, MlirOperation op);
/// Keeps the tile of `value` (a value of the body) from being released:
/// for values that code lowered out of order still reads.
void coopvecPerThreadKeepAlive(CoopvecPerThread *p, MlirValue value);
/// Lowers the ops of a nested block (without its terminator) at `p->body`;
/// Walk.c saves and restores the position (ControlFlow.c).
bool coopvecLowerNestedBlock(CoopvecPerThread *p, MlirBlock block);

/// Records the lowered form of the non-vec value `key`.
void coopvecMapValue(CoopvecPerThread *p, MlirValue key, MlirValue lowered);
/// The lowered form of non-vec `value` in its own type: a varying one in
/// the target's varying type, a uniform one as a scalar. An unpacked
/// element is rounded to its scalar type (docs/dialect.md).
MlirValue coopvecScalarOperand(CoopvecPerThread *p, MlirValue value);
/// The same in the varying form, broadcast if `value` is uniform.
MlirValue coopvecVaryingOperand(CoopvecPerThread *p, MlirValue value);
bool coopvecValueIsVarying(const CoopvecPerThread *p, MlirValue value);
/// A builder right after the definition of `value` (an op result or a
/// block argument of lowered code): values built there dominate every
/// later use, inside or outside the regions built since (caches of values
/// derived from one value are safe there).
CoopvecBuilder coopvecBuilderAfter(CoopvecPerThread *p, MlirValue value);
/// The varying form of the lowered uniform value `value` (cached, built
/// right after its definition so that every later use is dominated).
MlirValue coopvecBroadcastUniform(CoopvecPerThread *p, MlirValue value);
/// Where the lowered types of the values `original` (region results,
/// loop-carried values) go: a vec as its elements in SSA form, a scalar as
/// its lowered type. Returns the number of types written to `types` (NULL
/// to count).
intptr_t coopvecLoweredTypes(CoopvecPerThread *p, intptr_t count,
                             const MlirValue *original, MlirType *types);
/// The lowered values of `values` (yields, inits) in the layout of
/// coopvecLoweredTypes of `like` (the values they become): vecs as their
/// SSA elements, scalars in the form of `like`. Returns the count.
intptr_t coopvecLoweredValues(CoopvecPerThread *p, intptr_t count,
                              const MlirValue *values, const MlirValue *like,
                              MlirValue *out);
/// Maps each of `original` to the lowered values `lowered` (in the layout
/// of coopvecLoweredTypes).
void coopvecMapLoweredValues(CoopvecPerThread *p, intptr_t count,
                             const MlirValue *original,
                             const MlirValue *lowered);

/// Drops the lowered form of `value` (its element values too): the next
/// lowering of its definition maps it anew (lane refill lowers a value
/// mapped to block arguments before its definition is lowered).
void coopvecForgetValue(CoopvecPerThread *p, MlirValue value);

/// Non-coopvec ops without regions (Scalars.c): uniform ops are moved,
/// varying ones rebuilt on varying values, and the cases upstream leaves
/// undefined (division by zero, over-wide shifts, float to integer
/// overflow) are given their defined results.
bool coopvecLowerScalarOp(CoopvecPerThread *p, MlirOperation op);
/// Region ops (ControlFlow.c): scf.if, for, while, index_switch.
bool coopvecLowerControlFlow(CoopvecPerThread *p, MlirOperation op);
/// Liveness (Walk.c): whether `value` is used for the last time by the op
/// being lowered; releasing a dead value's tile; freeing scratch tiles.
bool coopvecValueDiesHere(const CoopvecPerThread *p, MlirValue value);
void coopvecReleaseValue(CoopvecPerThread *p, MlirValue value);
void coopvecReleaseScratch(CoopvecPerThread *p);

/// memref.load / store / atomic_rmw / alloca (Memory.c).
bool coopvecLowerMemrefOp(CoopvecPerThread *p, MlirOperation op);
/// coopvec.load / masked_load / store / masked_store / reduce_sum_accumulate
/// at a varying offset (Memory.c).
bool coopvecLowerVaryingTransfer(CoopvecPerThread *p, MlirOperation op);
/// Whether the coopvec transfer `op` at a uniform offset is checked at run
/// time (the engine could not check it before the run).
bool coopvecIsCheckedAtRunTime(const CoopvecPerThread *p, MlirOperation op);
/// Whether a coopvec transfer's offset is varying.
bool coopvecTransferIsVarying(const CoopvecPerThread *p, MlirOperation op);
/// Lowers a coopvec transfer at a uniform offset with `lower` (the load
/// or the target's store / reduce_sum hook). When the transfer is checked
/// at run time, the active threads are reported if it leaves its buffer,
/// and `lower` runs with `boundsMask` set (Memory.c).
bool coopvecLowerUniformTransfer(CoopvecPerThread *p, MlirOperation op,
                                 bool (*lower)(CoopvecPerThread *,
                                               MlirOperation));
/// The elements a uniform transfer accesses: its own mask (a masked op's
/// `mask`, or null) and `boundsMask` combined, or null when every element
/// is accessed.
MlirValue coopvecTransferMask(CoopvecPerThread *p, CoopvecBuilder *b,
                              MlirValue mask);
/// The index of the run-time bounds check of `op` (a new one).
int64_t coopvecAddCheck(CoopvecPerThread *p, MlirOperation op);
/// Records the checks of lowered function `lowered` in `module`'s
/// `coopvec.bounds_checks` dictionary: "<location> ('<op>')" per check,
/// which the engine names an out-of-bounds access by (the module's
/// attributes survive every pipeline; docs/execution-engine.md).
void coopvecRecordBoundsChecks(const CoopvecPerThread *p, MlirOperation module,
                               MlirStringRef lowered);
/// With run-time bounds checks, the lowered function `lowered` (whose body
/// is `entry`) took a status argument (last): its type joins the
/// signature, and the checks are recorded in `module`. Nothing without.
void coopvecFinishStatusSignature(const CoopvecPerThread *p, MlirBlock entry,
                                  MlirOperation lowered, MlirOperation module);

/// An array of `count` null values (at least one); out of memory aborts,
/// so the result is never NULL.
__attribute__((returns_nonnull)) MlirValue *coopvecAllocValues(intptr_t count);
/// The same for types.
__attribute__((returns_nonnull)) MlirType *coopvecAllocTypes(intptr_t count);
/// The results of `op`, its operands from `first` on, or the arguments of
/// `block` from `first` on, as a new array (free it).
MlirValue *coopvecResultsOf(MlirOperation op);
MlirValue *coopvecOperandsOf(MlirOperation op, intptr_t first);
MlirValue *coopvecArgumentsOf(MlirBlock block, intptr_t first);
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

/// Where an element function computes: at `b`, element `index` (an index
/// value); `constant` is the element's number when unrolled into SSA form
/// and -1 inside an element loop.
typedef struct CoopvecElementAt {
  CoopvecBuilder *b;
  MlirValue index;
  intptr_t constant;
} CoopvecElementAt;

typedef MlirValue (*CoopvecElementFn)(CoopvecPerThread *p, MlirOperation op,
                                      CoopvecElementAt at, const void *state);
/// Defines result 0 of `op` (`count` elements) by `fn`: unrolled into SSA
/// element values, or, when the target tiles vecs this large, an element
/// loop writing a tile (see coopvecTileFor for `inPlace`). Bit o of
/// `rowOperands` marks an operand `fn` reads with coopvecElementOperand.
void coopvecDefineElements(CoopvecPerThread *p, MlirOperation op,
                           intptr_t count, unsigned rowOperands,
                           unsigned inPlace, CoopvecElementFn fn,
                           const void *state);
/// Element `at` of operand `o` of `op` (a vec or a broadcast scalar).
MlirValue coopvecElementOperand(CoopvecPerThread *p, MlirOperation op,
                                intptr_t o, CoopvecElementAt at);
/// Element loops (ElementLoopFusion.c): the body of an element loop of
/// `count` iterations for `op` (a builder before its terminator) and its
/// induction variable in `*index`: the open loop of the elementwise ops
/// lowered just before when `op` may join it, else a new loop.
CoopvecBuilder coopvecElementLoopFor(CoopvecPerThread *p, MlirOperation op,
                                     intptr_t count, MlirValue *index);
/// Stores `row`, result 0 of `op` at `index`, to `tile` at `body`; in the
/// fused loop it is recorded for the later ops, and row stores only the
/// loop reads are erased.
void coopvecStoreElementRow(CoopvecPerThread *p, MlirOperation op,
                            CoopvecBuilder *body, MlirValue tile,
                            MlirValue index, MlirValue row);
/// The row of `value` in the fused loop at `index`, or null.
MlirValue coopvecFusedRow(const CoopvecPerThread *p, MlirValue value,
                          MlirValue index);
void coopvecFreeFusedLoop(CoopvecPerThread *p);
/// Calls `fn` for every element of vec `value` at `p->body`: unrolled over
/// its SSA elements, or an element loop over its tile.
typedef void (*CoopvecEachElementFn)(CoopvecPerThread *p, CoopvecBuilder *b,
                                     MlirValue element, MlirValue index,
                                     void *state);
void coopvecForEachElement(CoopvecPerThread *p, MlirValue value,
                           CoopvecEachElementFn fn, void *state);

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
/// the per-thread functions (it is erased); and every op of its body, at
/// any depth, one that per-thread code allows (coopvecCheckPerThreadOps).
/// Emits errors naming `passName`.
bool coopvecCheckPerThreadFunction(MlirOperation func, MlirOperation module,
                                   const CoopvecFunctionList *perThread,
                                   const char *passName, const char *suffix,
                                   CoopvecTargetOpCheck targetCheck);

/// Every call of the per-thread functions checked (no recursion, no
/// declarations) and inlined; then the private functions they called
/// (helpers, which need no batched form) erased from `module` and from
/// `perThread`, unless something else refers to them. Reports every error
/// it finds.
bool coopvecInlineAndEraseHelpers(MlirOperation module,
                                  CoopvecFunctionList *perThread,
                                  const char *passName);

/// What the lowering passes do before lowering anything: every call of
/// the per-thread functions checked (no recursion, no declarations) and
/// inlined; the private functions they called (helpers) erased from the
/// module and from `perThread`; then every function checked. Reports every
/// error it finds.
bool coopvecPrepareFunctions(MlirOperation module,
                             CoopvecFunctionList *perThread,
                             const char *passName, const char *suffix,
                             CoopvecTargetOpCheck targetCheck);

/// The op rules of per-thread code (Checks.c, docs/dialect.md, "Per-thread
/// programs"): the ops, types and uses allowed on varying and uniform
/// values, structured control flow, memory and local arrays; each op
/// outside them is a located error.
bool coopvecCheckPerThreadOps(MlirOperation func, const char *passName,
                              CoopvecTargetOpCheck targetCheck);

#endif // COOPVEC_LIB_CONVERSION_PERTHREAD_PERTHREAD_H
