//===- CPUTransfers.c - Arguments, results, stores and uniform ops --------===//
//
// Thread t's vec argument of N elements is row t of an n x N buffer, and
// the group's element i is column i of the group's L x N block: the
// argument's tile (memref<N x L x f32>) is the block transposed. A full
// group moves it in B x B sub-blocks (B = one vector register of f32, see
// cpuTransposeBlock): B contiguous row loads, log2(B) stages of shuffles,
// B row stores, so that nothing is gathered element by element (x86 CPUs
// without fast gathers, Zen among them, get scalar loads from LLVM for a
// vector.gather). The last, partial group, and the N % B elements past the
// last sub-block, use strided gathers (stride N) with the lane mask. A
// full group of a narrow vec (N < B: a 2-D or 3-D position, an RGB
// colour) loads B threads' N x B contiguous elements as one vector and
// picks each element's B lanes out with a shuffle (and stores the other
// way round), instead of N gathers. Results are written the same way, with
// scatters where a gather would be. Every transfer is a loop, so the code
// does not grow with N x L.
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToCPU/CPU.h"

#include "Dialect/Verifier.h"
#include "Support/Alloc.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

static MlirValue indexConstant(CPULowering *l, int64_t value) {
  return coopvecPerThreadIndex(&l->p, value);
}

/// dense<[0, N, 2N, ...]> : vector<L x i32>: thread l's element i of a
/// row-major n x N buffer is at (threadBase + l) * N + i.
static MlirValue laneStrides(CPULowering *l, intptr_t size) {
  int32_t *strides = malloc(sizeof(int32_t) * (size_t)l->lanes);
  if (!strides)
    abort();
  for (int64_t lane = 0; lane < l->lanes; ++lane)
    strides[lane] = (int32_t)(lane * size);
  MlirValue constant =
      coopvecBuildI32VectorConstant(&l->p.entry, l->lanes, strides);
  free(strides);
  return constant;
}

/// The element index of element `i` (an index value) of the group's first
/// thread: threadBase * N + i.
static MlirValue groupElementIndex(CPULowering *l, CoopvecBuilder *b,
                                   intptr_t size, MlirValue i) {
  MlirValue base = size == 1
                       ? l->threadBase
                       : coopvecBuildBinaryOp(b, "arith.muli", l->threadBase,
                                              indexConstant(l, size));
  return coopvecBuildBinaryOp(b, "arith.addi", base, i);
}

/// The vector type of `count` elements of `element` (f16 or f32).
static MlirType vectorOf(int64_t count, MlirType element) {
  return mlirVectorTypeGet(1, &count, element);
}

//===----------------------------------------------------------------------===//
// Block transposes
//===----------------------------------------------------------------------===//

int64_t cpuTransposeBlock(int64_t lanes, int64_t vectorFloats) {
  // The largest power of two up to a register of f32 (and 16) dividing the
  // lane count: the shuffle network swaps one bit per stage. 1 would be a
  // plain copy; then the group is gathered.
  int64_t block = 16;
  while (block > 1 && (block > vectorFloats || lanes % block))
    block /= 2;
  return block > 1 ? block : 0;
}

/// vector.shuffle %lhs, %rhs with mask[c] for c < count.
static MlirValue buildShuffle(CoopvecBuilder *b, MlirValue lhs, MlirValue rhs,
                              int64_t count, const int64_t *mask) {
  MlirContext ctx = b->context;
  MlirNamedAttribute attribute =
      coopvecNamedAttr(ctx, "mask", mlirDenseI64ArrayGet(ctx, count, mask));
  MlirValue operands[] = {lhs, rhs};
  return coopvecBuild1(b, "vector.shuffle", 2, operands, mlirValueGetType(lhs),
                       1, &attribute);
}

/// Transposes the B x B matrix whose rows are rows[0 .. B) (B a power of two
/// up to 16). Stage `bit` swaps that bit of the row and the column number:
/// rows r and r | bit (r without the bit) exchange the elements whose
/// column has the bit clear in one and set in the other. LLVM selects
/// unpck / shufps / vperm2f128-style instructions for the stages.
void cpuTransposeRows(CoopvecBuilder *b, MlirValue *rows, int64_t block) {
  int64_t low[16], high[16];
  for (int64_t bit = 1; bit < block; bit <<= 1) {
    for (int64_t c = 0; c < block; ++c) {
      low[c] = c & bit ? block + (c & ~bit) : c;
      high[c] = c & bit ? block + c : c | bit;
    }
    for (int64_t r = 0; r < block; ++r) {
      if (r & bit)
        continue;
      MlirValue first = rows[r], second = rows[r | bit];
      rows[r] = buildShuffle(b, first, second, block, low);
      rows[r | bit] = buildShuffle(b, first, second, block, high);
    }
  }
}

/// The loops over the sub-blocks of a full group, built at `b`: for e <
/// blocks * B step B, and, when L > B, for t < L step B.
typedef struct BlockLoops {
  CoopvecLoop elements, threads; // threads.op is null when L == B
  CoopvecBuilder *body;          // the innermost loop's body
  MlirValue element, thread;     // e, and t (or 0)
  MlirValue start; // (threadBase + t) * N + e: thread t's element e
} BlockLoops;

static void openBlockLoops(CPULowering *l, CoopvecBuilder *b, intptr_t size,
                           int64_t blocks, BlockLoops *loops) {
  int64_t block = l->transposeBlock;
  MlirValue zero = indexConstant(l, 0), step = indexConstant(l, block);
  loops->elements =
      coopvecBuildFor(b, zero, indexConstant(l, blocks * block), step, 0, NULL);
  coopvecSetNoUnroll(&loops->elements);
  loops->body = &loops->elements.body;
  loops->element = loops->elements.inductionVar;
  loops->threads.op = (MlirOperation){NULL};
  loops->thread = zero;
  MlirValue thread = l->threadBase;
  if (l->lanes > block) {
    loops->threads = coopvecBuildFor(loops->body, zero,
                                     indexConstant(l, l->lanes), step, 0, NULL);
    loops->body = &loops->threads.body;
    loops->thread = loops->threads.inductionVar;
    thread =
        coopvecBuildBinaryOp(loops->body, "arith.addi", thread, loops->thread);
  }
  MlirValue row = coopvecBuildBinaryOp(loops->body, "arith.muli", thread,
                                       indexConstant(l, size));
  loops->start =
      coopvecBuildBinaryOp(loops->body, "arith.addi", row, loops->element);
}

static void closeBlockLoops(BlockLoops *loops) {
  if (!mlirOperationIsNull(loops->threads.op))
    coopvecFinishFor(&loops->threads, 0, NULL);
  coopvecFinishFor(&loops->elements, 0, NULL);
}

/// At the loops' body: `value` + `constant`.
static MlirValue addIndex(CPULowering *l, BlockLoops *loops, MlirValue value,
                          int64_t constant) {
  if (constant == 0)
    return value;
  return coopvecBuildBinaryOp(loops->body, "arith.addi", value,
                              indexConstant(l, constant));
}

/// for each B x B sub-block of the first blocks * B elements: B rows of
/// `buffer` (one per thread) loaded, widened, transposed into the tile.
static void loadBlocks(CPULowering *l, CoopvecBuilder *b, MlirValue buffer,
                       MlirType element, intptr_t size, int64_t blocks,
                       MlirValue tile) {
  int64_t block = l->transposeBlock;
  BlockLoops loops;
  openBlockLoops(l, b, size, blocks, &loops);
  CoopvecBuilder *in = loops.body;
  MlirValue rows[16];
  for (int64_t k = 0; k < block; ++k) {
    MlirValue operands[] = {buffer, addIndex(l, &loops, loops.start, k * size)};
    rows[k] =
        coopvecWidenToF32(in, coopvecBuild1(in, "vector.load", 2, operands,
                                            vectorOf(block, element), 0, NULL));
  }
  cpuTransposeRows(in, rows, block);
  for (int64_t j = 0; j < block; ++j) {
    MlirValue operands[] = {
        rows[j], tile, addIndex(l, &loops, loops.element, j), loops.thread};
    coopvecBuild0(in, "vector.store", 4, operands, 0, NULL);
  }
  closeBlockLoops(&loops);
}

/// The inverse of loadBlocks: tile rows transposed back into thread rows,
/// rounded to `element`, stored to `buffer`.
static void storeBlocks(CPULowering *l, CoopvecBuilder *b, MlirValue buffer,
                        MlirType element, intptr_t size, int64_t blocks,
                        MlirValue tile) {
  int64_t block = l->transposeBlock;
  BlockLoops loops;
  openBlockLoops(l, b, size, blocks, &loops);
  CoopvecBuilder *in = loops.body;
  MlirValue rows[16];
  for (int64_t j = 0; j < block; ++j) {
    MlirValue operands[] = {tile, addIndex(l, &loops, loops.element, j),
                            loops.thread};
    rows[j] = coopvecBuild1(in, "vector.load", 3, operands,
                            vectorOf(block, l->p.f32), 0, NULL);
  }
  cpuTransposeRows(in, rows, block);
  for (int64_t k = 0; k < block; ++k) {
    MlirValue operands[] = {coopvecNarrowTo(in, rows[k], element), buffer,
                            addIndex(l, &loops, loops.start, k * size)};
    coopvecBuild0(in, "vector.store", 3, operands, 0, NULL);
  }
  closeBlockLoops(&loops);
}

//===----------------------------------------------------------------------===//
// Narrow vecs (N < B)
//===----------------------------------------------------------------------===//

/// The most elements (N x B) one narrow transfer moves as one vector:
/// 8 registers of f32 on AVX2. Wider vecs are gathered.
enum { kNarrowMaxElements = 64 };

/// vector.shuffle %lhs, %rhs into `count` elements picked by `mask`.
static MlirValue shuffleTo(CoopvecBuilder *b, MlirValue lhs, MlirValue rhs,
                           int64_t count, const int64_t *mask) {
  MlirType element = mlirShapedTypeGetElementType(mlirValueGetType(lhs));
  MlirContext ctx = b->context;
  MlirNamedAttribute attribute =
      coopvecNamedAttr(ctx, "mask", mlirDenseI64ArrayGet(ctx, count, mask));
  MlirValue operands[] = {lhs, rhs};
  return coopvecBuild1(b, "vector.shuffle", 2, operands,
                       vectorOf(count, element), 1, &attribute);
}

/// The loop `loop` over a full group's threads in steps of B (none, a
/// null op, when L == B): *body is its body, *start the buffer index
/// (threadBase + t) * N of its first thread's element 0, *thread t.
static void openNarrowLoop(CPULowering *l, CoopvecBuilder *b, intptr_t size,
                           CoopvecLoop *loop, CoopvecBuilder **body,
                           MlirValue *start, MlirValue *thread) {
  loop->op = (MlirOperation){NULL};
  *body = b;
  *thread = indexConstant(l, 0);
  MlirValue first = l->threadBase;
  if (l->lanes > l->transposeBlock) {
    *loop = coopvecBuildFor(b, indexConstant(l, 0), indexConstant(l, l->lanes),
                            indexConstant(l, l->transposeBlock), 0, NULL);
    coopvecSetNoUnroll(loop);
    *body = &loop->body;
    *thread = loop->inductionVar;
    first = coopvecBuildBinaryOp(*body, "arith.addi", first, *thread);
  }
  *start =
      coopvecBuildBinaryOp(*body, "arith.muli", first, indexConstant(l, size));
}

static void closeNarrowLoop(CoopvecLoop *loop) {
  if (!mlirOperationIsNull(loop->op))
    coopvecFinishFor(loop, 0, NULL);
}

/// A full group of a narrow vec: per B threads, their N x B elements as
/// one contiguous load; element i's lanes are flat[i], flat[i + N], ...
static void loadNarrow(CPULowering *l, CoopvecBuilder *b, MlirValue buffer,
                       MlirType element, intptr_t size, MlirValue tile) {
  int64_t block = l->transposeBlock, mask[16];
  CoopvecBuilder *in;
  MlirValue start, thread;
  CoopvecLoop loop;
  openNarrowLoop(l, b, size, &loop, &in, &start, &thread);
  MlirValue operands[] = {buffer, start};
  MlirValue flat = coopvecBuild1(in, "vector.load", 2, operands,
                                 vectorOf(size * block, element), 0, NULL);
  for (intptr_t i = 0; i < size; ++i) {
    for (int64_t j = 0; j < block; ++j)
      mask[j] = j * size + i;
    MlirValue row = coopvecWidenToF32(
        in, size == 1 ? flat : shuffleTo(in, flat, flat, block, mask));
    MlirValue stored[] = {row, tile, indexConstant(l, i), thread};
    coopvecBuild0(in, "vector.store", 4, stored, 0, NULL);
  }
  closeNarrowLoop(&loop);
}

/// The inverse of loadNarrow: the N rows of B lanes concatenated (a tree
/// of shuffles of equal-sized halves, padded to a power of two), then
/// interleaved into one N x B store.
static void storeNarrow(CPULowering *l, CoopvecBuilder *b, MlirValue buffer,
                        MlirType element, intptr_t size, MlirValue tile) {
  int64_t block = l->transposeBlock, mask[kNarrowMaxElements];
  CoopvecBuilder *in;
  MlirValue start, thread, parts[kNarrowMaxElements / 2];
  CoopvecLoop loop;
  openNarrowLoop(l, b, size, &loop, &in, &start, &thread);
  int64_t count = 1;
  while (count < size)
    count *= 2;
  for (int64_t i = 0; i < size; ++i) {
    MlirValue operands[] = {tile, indexConstant(l, i), thread};
    parts[i] =
        coopvecNarrowTo(in,
                        coopvecBuild1(in, "vector.load", 3, operands,
                                      vectorOf(block, l->p.f32), 0, NULL),
                        element);
  }
  for (int64_t i = size; i < count; ++i)
    parts[i] = parts[0]; // padding, never picked
  for (int64_t width = block; count > 1; width *= 2, count /= 2)
    for (int64_t k = 0; k < count / 2; ++k) {
      for (int64_t c = 0; c < 2 * width; ++c)
        mask[c] = c;
      parts[k] = shuffleTo(in, parts[2 * k], parts[2 * k + 1], 2 * width, mask);
    }
  for (intptr_t i = 0; i < size; ++i)
    for (int64_t j = 0; j < block; ++j)
      mask[j * size + i] = i * block + j;
  MlirValue operands[] = {
      size == 1 ? parts[0]
                : shuffleTo(in, parts[0], parts[0], size * block, mask),
      buffer, start};
  coopvecBuild0(in, "vector.store", 3, operands, 0, NULL);
  closeNarrowLoop(&loop);
}

//===----------------------------------------------------------------------===//
// Gathers and scatters
//===----------------------------------------------------------------------===//

/// An element loop over [first, size) at `b`.
static CoopvecLoop elementLoopFrom(CPULowering *l, CoopvecBuilder *b,
                                   intptr_t first, intptr_t size) {
  CoopvecLoop loop =
      coopvecBuildFor(b, indexConstant(l, first), indexConstant(l, size),
                      indexConstant(l, 1), 0, NULL);
  coopvecSetNoUnroll(&loop);
  return loop;
}

/// for first <= i < size: tile[i] = gather(buffer, group element i), masked.
static void gatherToTile(CPULowering *l, CoopvecBuilder *at, MlirValue buffer,
                         MlirType element, intptr_t first, intptr_t size,
                         MlirValue tile) {
  MlirType loadType = vectorOf(l->lanes, element);
  MlirValue strides = laneStrides(l, size);
  MlirValue passThrough =
      coopvecBuildFloatSplatConstant(&l->p.entry, loadType, 0.0);
  CoopvecLoop loop = elementLoopFrom(l, at, first, size);
  CoopvecBuilder *b = &loop.body;
  MlirValue operands[] = {buffer,
                          groupElementIndex(l, b, size, loop.inductionVar),
                          strides, l->mask, passThrough};
  MlirValue lanes = coopvecWidenToF32(
      b, coopvecBuild1(b, "vector.gather", 5, operands, loadType, 0, NULL));
  cpuStoreRow(&l->p, b, tile, loop.inductionVar, lanes);
  coopvecFinishFor(&loop, 0, NULL);
}

/// for first <= i < size: scatter(buffer, group element i) = tile[i], masked.
static void scatterFromTile(CPULowering *l, CoopvecBuilder *at,
                            MlirValue buffer, MlirType element, intptr_t first,
                            intptr_t size, MlirValue tile) {
  MlirValue strides = laneStrides(l, size);
  CoopvecLoop loop = elementLoopFrom(l, at, first, size);
  CoopvecBuilder *b = &loop.body;
  MlirValue lanes = coopvecNarrowTo(
      b, cpuLoadRow(&l->p, b, tile, loop.inductionVar), element);
  MlirValue operands[] = {buffer,
                          groupElementIndex(l, b, size, loop.inductionVar),
                          strides, l->mask, lanes};
  coopvecBuild0(b, "vector.scatter", 5, operands, 0, NULL);
  coopvecFinishFor(&loop, 0, NULL);
}

//===----------------------------------------------------------------------===//
// Full and partial groups
//===----------------------------------------------------------------------===//

/// Whether every lane of the group holds a thread (all but the last group).
static MlirValue fullGroup(CPULowering *l) {
  if (mlirValueIsNull(l->fullGroup))
    l->fullGroup = coopvecBuildCmpI(&l->p.body, COOPVEC_CMPI_EQ, l->validLanes,
                                    indexConstant(l, l->lanes));
  return l->fullGroup;
}

enum { CACHE_LINE_BYTES = 64 };

/// Prefetches the next group's L x N block of `buffer` (for writing when
/// `write`), one prefetch per cache line, at `b`. Between two groups'
/// transfers lie thousands of cycles of compute, which cover the memory
/// latency; the hardware prefetchers, which see a burst of a few KB per
/// group, do not run that far ahead (the first loads of each group missed:
/// 2-7% of the MLP's time on Zen 3). Only lines of the buffer are
/// prefetched: the loop ends at n x N.
static void prefetchNextGroup(CPULowering *l, CoopvecBuilder *b,
                              MlirValue buffer, MlirType element, intptr_t size,
                              bool write) {
  int64_t bytes = mlirTypeIsAF16(element) ? 2 : 4;
  MlirValue n = mlirBlockGetArgument(l->entryBlock, 0);
  MlirValue next = coopvecBuildBinaryOp(b, "arith.addi", l->threadBase,
                                        indexConstant(l, l->lanes));
  MlirValue begin =
      coopvecBuildBinaryOp(b, "arith.muli", next, indexConstant(l, size));
  MlirValue end = coopvecBuildBinaryOp(
      b, "arith.minsi",
      coopvecBuildBinaryOp(b, "arith.addi", begin,
                           indexConstant(l, l->lanes * size)),
      coopvecBuildBinaryOp(b, "arith.muli", n, indexConstant(l, size)));
  CoopvecLoop loop = coopvecBuildFor(
      b, begin, end, indexConstant(l, CACHE_LINE_BYTES / bytes), 0, NULL);
  coopvecSetNoUnroll(&loop);
  MlirContext ctx = l->p.ctx;
  MlirNamedAttribute attributes[] = {
      coopvecNamedAttr(ctx, "isDataCache", mlirBoolAttrGet(ctx, 1)),
      coopvecNamedAttr(ctx, "isWrite", mlirBoolAttrGet(ctx, write)),
      coopvecNamedAttr(ctx, "localityHint",
                       mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 32), 3))};
  MlirValue operands[] = {buffer, loop.inductionVar};
  coopvecBuild0(&loop.body, "memref.prefetch", 2, operands, 3, attributes);
  coopvecFinishFor(&loop, 0, NULL);
}

typedef void (*BlockTransfer)(CPULowering *l, CoopvecBuilder *b,
                              MlirValue buffer, MlirType element, intptr_t size,
                              int64_t blocks, MlirValue tile);
typedef void (*NarrowTransfer)(CPULowering *l, CoopvecBuilder *b,
                               MlirValue buffer, MlirType element,
                               intptr_t size, MlirValue tile);
typedef void (*ElementTransfer)(CPULowering *l, CoopvecBuilder *b,
                                MlirValue buffer, MlirType element,
                                intptr_t first, intptr_t size, MlirValue tile);

/// Moves the group's `size` elements between `buffer` and `tile`: full
/// groups by sub-block transposes (then element transfers for the rest),
/// or, for a narrow vec, by contiguous transfers and shuffles, after
/// prefetching the next group's block (for writing when `write`); the last
/// group by element transfers alone.
static void transfer(CPULowering *l, MlirValue buffer, MlirType element,
                     intptr_t size, MlirValue tile, bool write,
                     BlockTransfer blocked, NarrowTransfer narrow,
                     ElementTransfer elementwise) {
  int64_t block = l->transposeBlock;
  int64_t blocks = block ? size / block : 0;
  if (block == 0 || (blocks == 0 && size * block > kNarrowMaxElements)) {
    elementwise(l, &l->p.body, buffer, element, 0, size, tile);
    return;
  }
  CoopvecIfElse branches =
      coopvecBuildIfElse(&l->p.body, fullGroup(l), 0, NULL);
  prefetchNextGroup(l, &branches.then, buffer, element, size, write);
  if (blocks == 0)
    narrow(l, &branches.then, buffer, element, size, tile);
  else
    blocked(l, &branches.then, buffer, element, size, blocks, tile);
  if (blocks && blocks * block < size)
    elementwise(l, &branches.then, buffer, element, blocks * block, size, tile);
  elementwise(l, &branches.otherwise, buffer, element, 0, size, tile);
  coopvecFinishIfElse(&branches, NULL, NULL);
}

void cpuLoadVecArgument(CPULowering *l, MlirValue arg, MlirValue buffer) {
  MlirType vecType = mlirValueGetType(arg);
  intptr_t size = (intptr_t)coopvecVecTypeGetSize(vecType);
  // A pooled tile: once the argument is dead, later values reuse it.
  MlirValue tile = coopvecScratchTile(&l->p, size);
  transfer(l, buffer, coopvecVecTypeGetElementType(vecType), size, tile, false,
           loadBlocks, loadNarrow, gatherToTile);
  if (coopvecWantsTile(&l->p, size)) {
    coopvecMapTile(&l->p, arg, size, tile);
    return;
  }
  MlirValue lanes[CPU_SSA_MAX_ELEMENTS];
  for (intptr_t i = 0; i < size && i < CPU_SSA_MAX_ELEMENTS; ++i)
    lanes[i] = cpuLoadRow(&l->p, &l->p.body, tile, indexConstant(l, i));
  coopvecMapElements(&l->p, arg, size, lanes);
}

void cpuStoreResults(CPULowering *l, MlirOperation ret, intptr_t firstOutput) {
  for (intptr_t r = 0; r < mlirOperationGetNumOperands(ret); ++r) {
    MlirValue value = mlirOperationGetOperand(ret, r);
    transfer(l, mlirBlockGetArgument(l->entryBlock, firstOutput + r),
             coopvecVecElementOf(value), coopvecVecSizeOf(value),
             coopvecTileOf(&l->p, value), true, storeBlocks, storeNarrow,
             scatterFromTile);
  }
}

//===----------------------------------------------------------------------===//
// Stores
//===----------------------------------------------------------------------===//

/// Caches `last` as the last active lane of the current mask (kept with the
/// lowered values, which the lowering frees).
static MlirValue remember(CPULowering *l, MlirValue last) {
  l->p.lowered = coopvecGrowArray(l->p.lowered, &l->p.loweredCapacity,
                                  l->p.numLowered + 1, sizeof(MlirValue));
  l->p.lowered[l->p.numLowered] = last;
  coopvecPointerMapInsert(&l->lastLanes, l->p.active.ptr, l->p.numLowered++);
  return last;
}

/// The lane of the group's last active thread: a per-thread store to a
/// uniform address is a race between threads, and the CPU writes the value
/// of the highest-numbered thread that stores, as if threads ran one after
/// another.
static MlirValue lastThreadLane(CPULowering *l) {
  intptr_t cached = coopvecPointerMapFind(&l->lastLanes, l->p.active.ptr);
  if (cached >= 0)
    return l->p.lowered[cached];
  CoopvecBuilder at = coopvecBuilderAfter(&l->p, l->p.active);
  CoopvecBuilder *b = &at;
  // The group's valid lanes are the first ones: the last is one subtraction.
  if (mlirValueEqual(l->p.active, l->mask))
    return remember(l, coopvecBuildBinaryOp(b, "arith.subi", l->validLanes,
                                            indexConstant(l, 1)));
  int64_t lanes = l->lanes;
  MlirType type = mlirVectorTypeGet(1, &lanes, l->p.index);
  MlirValue ids = coopvecBuild1(b, "vector.step", 0, NULL, type, 0, NULL);
  MlirValue active = coopvecBuildSelect(
      b, l->p.active, ids, coopvecBuildIntSplatConstant(b, type, 0));
  MlirNamedAttribute attr = coopvecNamedAttr(
      l->p.ctx, "kind",
      mlirAttributeParseGet(
          l->p.ctx, mlirStringRefCreateFromCString("#vector.kind<maxui>")));
  return remember(l, coopvecBuild1(b, "vector.reduction", 1, &active,
                                   l->p.index, 1, &attr));
}

/// The group's last thread's elements, gathered into one vector<N x T> by
/// an element loop, then stored like vector.store / vector.maskedstore.
bool cpuLowerStore(CoopvecPerThread *p, MlirOperation op) {
  CPULowering *l = cpuOf(p);
  MlirValue value = mlirOperationGetOperand(op, 0);
  MlirValue base = mlirOperationGetOperand(op, 1);
  MlirType element = mlirShapedTypeGetElementType(mlirValueGetType(base));
  int64_t size = coopvecVecSizeOf(value);
  MlirType vectorType = mlirVectorTypeGet(1, &size, element);
  MlirValue lastLane = lastThreadLane(l);
  MlirValue init = coopvecBuildFloatSplatConstant(&p->body, vectorType, 0.0);
  coopvecPrepareForLoop(p, value);
  CoopvecLoop loop =
      coopvecBuildFor(&p->body, indexConstant(l, 0), indexConstant(l, size),
                      indexConstant(l, 1), 1, &init);
  CoopvecBuilder *b = &loop.body;
  MlirValue row = coopvecOperandRow(p, b, value, loop.inductionVar);
  MlirValue scalar =
      coopvecNarrowTo(b, coopvecBuildExtractDynamic(b, row, lastLane), element);
  MlirValue inserted = coopvecBuildInsertDynamic(
      b, scalar, coopvecLoopIterArg(&loop, 0), loop.inductionVar);
  coopvecFinishFor(&loop, 1, &inserted);
  MlirValue vector = mlirOperationGetResult(loop.op, 0);
  MlirValue offset = coopvecScalarOperand(p, mlirOperationGetOperand(op, 2));
  MlirValue mask = coopvecTransferMask(
      p, &p->body,
      coopvecOpIs(op, CoopvecOpMaskedStore)
          ? coopvecScalarOperand(p, mlirOperationGetOperand(op, 3))
          : (MlirValue){NULL});
  if (!mlirValueIsNull(mask)) {
    MlirValue operands[] = {base, offset, mask, vector};
    coopvecBuild0(&p->body, "vector.maskedstore", 4, operands, 0, NULL);
  } else {
    MlirValue operands[] = {vector, base, offset};
    coopvecBuild0(&p->body, "vector.store", 3, operands, 0, NULL);
  }
  return true;
}
