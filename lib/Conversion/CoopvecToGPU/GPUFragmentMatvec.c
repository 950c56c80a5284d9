//===- GPUFragmentMatvec.c - matvec on mma.sync fragments -----------------===//
//
// mma-regions=true (docs/execution-model.md, "Cooperative regions"). A
// warp's 32 rows (one per thread) are two 16-row tiles r of the layer's
// activations, multiplied with `mma.sync.m16n8k16` (nvgpu.mma.sync) in the
// fragment layout the hardware defines: lane l, g = l / 4, t = l % 4,
//
//   A (16 x 16, f16)  vector<4x2xf16>: rows g, g + 8 x columns 2t, 2t + 1,
//                     then the same 8 columns on
//   B (16 x 8, f16)   vector<2x2xf16>: column g x k = 2t, 2t + 1, 2t + 8, +9
//   C (16 x 8, f32)   vector<2x2xf32>: rows g, g + 8 x columns 2t, 2t + 1
//
// so a lane holds M values of an M-column result, element
// ((r * M/8 + j) * 2 + h) * 2 + i being (row 16r + 8h + g, column 8j + 2t
// + i); two adjacent 8-column accumulator tiles, rounded to f16 and
// packed in pairs, are the A operand of the next matvec's 16-column k
// tile. The matvec:
//
//   barrier
//   X rows: a per-thread input staged by its thread (GPUMatvec.c); a
//     fragment input stored by its lanes at their (row, column)s
//   R = every weight row, staged as GPUMatvec.c does (-0.0 padding)
//   barrier
//   for each row tile: C = the bias of each lane's columns (-0.0 without
//     one or past M); C += A B per k tile and 8-column tile (mma.sync; the
//     A fragments loaded from X, the B fragments from R); emulate-mma: the
//     same sums as f32 FMAs over k from X and R, each lane its own (row,
//     column)s
//   zero signs (below)
//   a result in the fragment layout stays in the lanes' registers; a
//     per-thread one goes through the result tiles (stored by the lanes at
//     their positions, read back by each thread from its row).
//
// A fragment input goes through X too (holding both row tiles' A
// registers spilled at W = 128), and the zero signs and the emulation read
// X. Tensor cores give +0.0 for a
// sum of -0.0 products; an exact-zero result (bias + products) is -0.0
// only when the bias and every product are -0.0 zeros, so a zero result
// with a zero bias takes the sign of the sum of its zero products and the
// bias (recomputed from X and R, with a trip count of 0 in lanes without
// one), and a zero result with a non-zero bias (exact cancellation) is
// +0.0.
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToGPU/GPU.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

enum {
  ROW_TILES = 2,         // of a warp's 32 rows
  N_TILE = 8,            // columns of an accumulator tile
  K_TILE = 16,           // k of one mma.sync
  LANES_PER_ROW = 4,     // t: the lanes holding one row of a tile
  VALUES_PER_N_TILE = 4, // (h, i) of a lane in an accumulator tile
  MAX_N_TILES = GPU_FRAGMENT_MAX_OUTPUTS / N_TILE,
  MAX_VALUES = ROW_TILES * MAX_N_TILES * VALUES_PER_N_TILE,
};

typedef struct Fragments {
  GPULowering *l;
  GPUMatvec *m;
  int64_t nTiles, kTiles;       // padded outputs / 8, padded inputs / 16
  MlirValue g, t;               // lane / 4, lane % 4
  MlirValue rows[ROW_TILES][2]; // row 16r + 8h + g of the block's tiles
  /// A bias loaded from memory with nothing written in between: the
  /// buffer and offset, read again per use (else bias[j][i], the bias of
  /// column 8j + 2t + i, chosen once from its elements).
  MlirValue biasBuffer, biasOffset;
  MlirValue bias[MAX_N_TILES][2];
  bool fragmentInput;
  MlirValue values[MAX_VALUES]; // the results, in the fragment order
} Fragments;

static int64_t valueIndex(int64_t nTiles, int64_t r, int64_t j, int64_t h,
                          int64_t i) {
  return ((r * nTiles + j) * 2 + h) * 2 + i;
}

static MlirValue indexConstant(GPULowering *l, int64_t value) {
  return coopvecPerThreadIndex(&l->p, value);
}

static MlirValue addIndex(CoopvecBuilder *b, MlirValue x, MlirValue y) {
  return coopvecBuildBinaryOp(b, "arith.addi", x, y);
}

/// Column 8j + 2t + i.
static MlirValue columnOf(const Fragments *f, CoopvecBuilder *b, int64_t j,
                          int64_t i) {
  return gpuAddIndex(f->l, b, gpuMulIndex(f->l, b, f->t, 2), N_TILE * j + i);
}

/// Column 8j + 2t + i of the index value j.
static MlirValue columnAt(const Fragments *f, CoopvecBuilder *b, MlirValue j,
                          int64_t i) {
  return addIndex(b, gpuMulIndex(f->l, b, j, N_TILE), columnOf(f, b, 0, i));
}

static MlirType vectorOf(MlirType element, int64_t rows, int64_t cols) {
  int64_t shape[] = {rows, cols};
  return rows ? mlirVectorTypeGet(2, shape, element)
              : mlirVectorTypeGet(1, &shape[1], element);
}

static MlirValue fromElements(CoopvecBuilder *b, MlirType type, intptr_t count,
                              const MlirValue *elements) {
  return coopvecBuild1(b, "vector.from_elements", count, elements, type, 0,
                       NULL);
}

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

/// Whether no op between `from` and `to` (in one block) may write memory.
static bool writesNothingBetween(MlirOperation from, MlirOperation to) {
  for (MlirOperation op = mlirOperationGetNextInBlock(from);
       !mlirOperationIsNull(op) && !mlirOperationEqual(op, to);
       op = mlirOperationGetNextInBlock(op)) {
    const CoopvecOpInfo *info = coopvecLookupOp(op);
    bool pure =
        info ? coopvecOpIsPure(info) : coopvecOpIsNamed(op, "arith.constant");
    if (!pure)
      return false;
  }
  return true;
}

/// The bias's buffer and offset where it is a `coopvec.load` in the
/// matvec's block, not checked at run time, with no write before the
/// matvec: each lane then reads its columns' biases where it uses them
/// (the 32 f32 registers of chosen biases at W = 128 held through the
/// products caused spills).
static void findBiasLoad(Fragments *f) {
  MlirValue bias = f->m->bias;
  if (mlirValueIsNull(bias) || !mlirValueIsAOpResult(bias))
    return;
  MlirOperation load = mlirOpResultGetOwner(bias);
  if (!coopvecOpIs(load, CoopvecOpLoad) ||
      !mlirBlockEqual(mlirOperationGetBlock(load),
                      mlirOperationGetBlock(f->m->op)) ||
      coopvecIsCheckedAtRunTime(&f->l->p, load) ||
      !writesNothingBetween(load, f->m->op))
    return;
  f->biasBuffer =
      coopvecScalarOperand(&f->l->p, mlirOperationGetOperand(load, 0));
  f->biasOffset =
      coopvecScalarOperand(&f->l->p, mlirOperationGetOperand(load, 1));
}

/// The bias of `column` read from memory at `b` (-0.0 past the outputs,
/// the read clamped inside).
static MlirValue loadLaneBias(const Fragments *f, CoopvecBuilder *b,
                              MlirValue column) {
  GPULowering *l = f->l;
  int64_t outputs = f->m->numOutputs;
  bool partial = outputs % N_TILE != 0;
  MlirValue read = partial ? coopvecBuildBinaryOp(b, "arith.minui", column,
                                                  indexConstant(l, outputs - 1))
                           : column;
  MlirValue value = coopvecWidenToF32(
      b, coopvecBuildMemrefLoad(b, f->biasBuffer,
                                addIndex(b, f->biasOffset, read)));
  if (!partial)
    return value;
  MlirValue inside =
      coopvecBuildCmpI(b, COOPVEC_CMPI_ULT, column, indexConstant(l, outputs));
  return coopvecBuildSelect(b, inside, value,
                            coopvecPerThreadConstant(&l->p, -0.0));
}

/// The bias of column 8j + 2t + i for this lane, at `b`.
static MlirValue laneBias(const Fragments *f, CoopvecBuilder *b, int64_t j,
                          int64_t i) {
  return mlirValueIsNull(f->biasBuffer)
             ? f->bias[j][i]
             : loadLaneBias(f, b, columnOf(f, b, j, i));
}

/// The bias of column 8j + 2t + i for this lane's t: one of four uniform
/// elements (-0.0 past the outputs, or without a bias).
static MlirValue chooseLaneBias(Fragments *f, int64_t j, int64_t i) {
  GPULowering *l = f->l;
  CoopvecBuilder *b = &l->p.body;
  MlirValue noBias = coopvecPerThreadConstant(&l->p, -0.0);
  MlirValue chosen = noBias;
  for (int64_t t = 0; !mlirValueIsNull(f->m->bias) && t < LANES_PER_ROW; ++t) {
    int64_t column = N_TILE * j + 2 * t + i;
    MlirValue value = column < f->m->numOutputs
                          ? coopvecOperandElement(&l->p, f->m->bias, column)
                          : noBias;
    chosen = t == 0
                 ? value
                 : coopvecBuildSelect(b,
                                      coopvecBuildCmpI(b, COOPVEC_CMPI_EQ, f->t,
                                                       indexConstant(l, t)),
                                      value, chosen);
  }
  return chosen;
}

/// Element (row (r, h), column 16 kTile + 8 half + 2t + i) of X: its index.
static MlirValue inputAt(const Fragments *f, CoopvecBuilder *b, int64_t r,
                         int64_t kTile, int64_t h, int64_t half) {
  GPULowering *l = f->l;
  return addIndex(b, gpuMulIndex(l, b, f->rows[r][h], f->m->rowStride),
                  gpuAddIndex(l, b, gpuMulIndex(l, b, f->t, 2),
                              K_TILE * kTile + N_TILE * half));
}

/// A fragment input's values, rounded to f16 as staging rounds, stored in
/// pairs at the lanes' places in X, from where they are the A operands
/// (the registers of both row tiles' A fragments held through the products
/// spilled at W = 128: docs/performance.md).
static void storeFragmentInput(Fragments *f) {
  GPULowering *l = f->l;
  CoopvecBuilder *b = &l->p.body;
  MlirType f16 = mlirF16TypeGet(mlirTypeGetContext(l->p.f32));
  MlirType pair = vectorOf(f16, 0, 2);
  int64_t inputTiles = f->m->numInputs / N_TILE;
  for (int64_t r = 0; r < ROW_TILES; ++r)
    for (int64_t k = 0; k < f->kTiles; ++k)
      for (int64_t h = 0; h < 2; ++h)
        for (int64_t half = 0; half < 2; ++half) {
          MlirValue halves[2];
          for (int64_t i = 0; i < 2; ++i)
            halves[i] = coopvecBuildCast1(
                b, "arith.truncf",
                coopvecOperandElement(
                    &l->p, f->m->input,
                    valueIndex(inputTiles, r, 2 * k + half, h, i)),
                f16);
          gpuBuildAlignedVectorStore(b, fromElements(b, pair, 2, halves),
                                     f->m->inputBuffer,
                                     inputAt(f, b, r, k, h, half));
        }
}

//===----------------------------------------------------------------------===//
// Products
//===----------------------------------------------------------------------===//

/// The scalars of `count` 1-D vectors, in order, as a vector of `type`.
static MlirValue joinPairs(CoopvecBuilder *b, MlirType type, intptr_t count,
                           const MlirValue *pairs) {
  MlirValue scalars[8];
  for (intptr_t p = 0; p < count; ++p)
    for (int64_t i = 0; i < 2; ++i)
      scalars[2 * p + i] = coopvecBuildExtract(b, pairs[p], i);
  return fromElements(b, type, 2 * count, scalars);
}

/// A of row tile r, k tile `k`: a0 (g, 2t), a1 (g + 8, 2t), a2 (g, 2t + 8),
/// a3 (g + 8, 2t + 8), each a pair of columns.
static MlirValue aFragment(const Fragments *f, int64_t r, int64_t k) {
  CoopvecBuilder *b = &f->l->p.body;
  MlirType f16 =
      mlirShapedTypeGetElementType(mlirValueGetType(f->m->inputBuffer));
  MlirValue regs[4];
  for (int64_t half = 0; half < 2; ++half)
    for (int64_t h = 0; h < 2; ++h)
      regs[2 * half + h] =
          gpuBuildAlignedVectorLoad(b, vectorOf(f16, 0, 2), f->m->inputBuffer,
                                    inputAt(f, b, r, k, h, half));
  return joinPairs(b, vectorOf(f16, 4, 2), 4, regs);
}

/// B of k tile `k`, column tile j: weight row 8j + g, k = 16k + 2t (+1)
/// and 16k + 2t + 8 (+9), from R.
static MlirValue bFragment(const Fragments *f, int64_t k, int64_t j) {
  GPULowering *l = f->l;
  CoopvecBuilder *b = &l->p.body;
  MlirType f16 =
      mlirShapedTypeGetElementType(mlirValueGetType(f->m->weightBuffer));
  MlirValue row = gpuAddIndex(l, b, f->g, N_TILE * j);
  MlirValue at =
      addIndex(b, gpuMulIndex(l, b, row, f->m->weightStride),
               gpuAddIndex(l, b, gpuMulIndex(l, b, f->t, 2), K_TILE * k));
  MlirValue regs[2];
  for (int64_t half = 0; half < 2; ++half)
    regs[half] =
        gpuBuildAlignedVectorLoad(b, vectorOf(f16, 0, 2), f->m->weightBuffer,
                                  gpuAddIndex(l, b, at, N_TILE * half));
  return joinPairs(b, vectorOf(f16, 2, 2), 2, regs);
}

static MlirValue mmaSync(CoopvecBuilder *b, MlirValue a, MlirValue bFrag,
                         MlirValue c) {
  MlirContext ctx = b->context;
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  MlirAttribute shape[] = {mlirIntegerAttrGet(i64, GPU_MMA_TILE), // m
                           mlirIntegerAttrGet(i64, N_TILE),
                           mlirIntegerAttrGet(i64, K_TILE)};
  MlirNamedAttribute attr =
      coopvecNamedAttr(ctx, "mmaShape", mlirArrayAttrGet(ctx, 3, shape));
  MlirValue operands[] = {a, bFrag, c};
  return coopvecBuild1(b, "nvgpu.mma.sync", 3, operands, mlirValueGetType(c), 1,
                       &attr);
}

static MlirValue extract2D(CoopvecBuilder *b, MlirValue vector, int64_t h,
                           int64_t i) {
  int64_t position[] = {h, i};
  MlirNamedAttribute attr =
      coopvecNamedAttr(b->context, "static_position",
                       mlirDenseI64ArrayGet(b->context, 2, position));
  return coopvecBuild1(b, "vector.extract", 1, &vector,
                       mlirShapedTypeGetElementType(mlirValueGetType(vector)),
                       1, &attr);
}

/// Row tile r on tensor cores: the accumulators from the biases, one
/// mma.sync per k tile and column tile.
static void multiplyOnTensorCores(Fragments *f, int64_t r) {
  CoopvecBuilder *b = &f->l->p.body;
  MlirType accType = vectorOf(f->l->p.f32, 2, 2);
  MlirValue acc[MAX_N_TILES];
  for (int64_t j = 0; j < f->nTiles; ++j) {
    MlirValue bias[] = {laneBias(f, b, j, 0), laneBias(f, b, j, 1)};
    MlirValue init[] = {bias[0], bias[1], bias[0], bias[1]};
    acc[j] = fromElements(b, accType, 4, init);
  }
  for (int64_t k = 0; k < f->kTiles; ++k) {
    MlirValue a = aFragment(f, r, k);
    for (int64_t j = 0; j < f->nTiles; ++j)
      acc[j] = mmaSync(b, a, bFragment(f, k, j), acc[j]);
  }
  for (int64_t j = 0; j < f->nTiles; ++j)
    for (int64_t h = 0; h < 2; ++h)
      for (int64_t i = 0; i < 2; ++i)
        f->values[valueIndex(f->nTiles, r, j, h, i)] =
            extract2D(b, acc[j], h, i);
}

/// Where the loops over k read: X at the rows (r, h) and R at the columns
/// (j, i), for k = 0, of row tile r and column tile j (index values).
typedef struct Operands {
  MlirValue x[2], w[2];
} Operands;

static Operands operandsAt(const Fragments *f, CoopvecBuilder *b, MlirValue r,
                           MlirValue j) {
  GPULowering *l = f->l;
  Operands o;
  MlirValue first = addIndex(b, gpuMulIndex(l, b, r, GPU_MMA_TILE),
                             addIndex(b, l->tileRow, f->g));
  for (int64_t h = 0; h < 2; ++h)
    o.x[h] = gpuMulIndex(l, b, gpuAddIndex(l, b, first, N_TILE * h),
                         f->m->rowStride);
  for (int64_t i = 0; i < 2; ++i)
    o.w[i] = gpuMulIndex(l, b, columnAt(f, b, j, i), f->m->weightStride);
  return o;
}

/// The four products X(row h, k) R(column i, k) at `b`, in f32.
static void productsAt(const Fragments *f, CoopvecBuilder *b, const Operands *o,
                       MlirValue k, MlirValue *w, MlirValue *x) {
  for (int64_t h = 0; h < 2; ++h)
    x[h] =
        coopvecWidenToF32(b, coopvecBuildMemrefLoad(b, f->m->inputBuffer,
                                                    addIndex(b, o->x[h], k)));
  for (int64_t i = 0; i < 2; ++i)
    w[i] =
        coopvecBuildMemrefLoad(b, f->m->weightBuffer, addIndex(b, o->w[i], k));
}

/// emulate-mma: each lane sums its own (row, column)s of row tile r from
/// the biases over the padded k, in f32 FMAs (f16 products are exact).
static void multiplyEmulated(Fragments *f, int64_t r) {
  GPULowering *l = f->l;
  for (int64_t j = 0; j < f->nTiles; ++j) {
    Operands o =
        operandsAt(f, &l->p.body, indexConstant(l, r), indexConstant(l, j));
    MlirValue bias[] = {laneBias(f, &l->p.body, j, 0),
                        laneBias(f, &l->p.body, j, 1)};
    MlirValue sums[4] = {bias[0], bias[1], bias[0], bias[1]};
    CoopvecLoop loop = coopvecBuildFor(&l->p.body, indexConstant(l, 0),
                                       indexConstant(l, f->m->paddedInputs),
                                       indexConstant(l, 1), 4, sums);
    MlirValue w[2], x[2];
    productsAt(f, &loop.body, &o, loop.inductionVar, w, x);
    for (int64_t h = 0; h < 2; ++h)
      for (int64_t i = 0; i < 2; ++i)
        sums[2 * h + i] = gpuBuildAccumulate(
            &loop.body, w[i], x[h], coopvecLoopIterArg(&loop, 2 * h + i));
    coopvecFinishFor(&loop, 4, sums);
    for (int64_t v = 0; v < 4; ++v)
      f->values[valueIndex(f->nTiles, r, j, v / 2, v % 2)] =
          mlirOperationGetResult(loop.op, v);
  }
}

//===----------------------------------------------------------------------===//
// Zero signs
//===----------------------------------------------------------------------===//

/// The sums from -0.0 of the zero products of one tile's four (row,
/// column)s (`o`), over k < K, at `b`; the loop runs only where one of
/// them needs it (`any`).
static void sumZeroProducts(const Fragments *f, CoopvecBuilder *b,
                            const Operands *o, MlirValue any, MlirValue *sums) {
  GPULowering *l = f->l;
  for (int64_t v = 0; v < 4; ++v)
    sums[v] = coopvecPerThreadConstant(&l->p, -0.0);
  MlirValue trips = coopvecBuildSelect(
      b, any, indexConstant(l, f->m->numInputs), indexConstant(l, 0));
  CoopvecLoop loop = coopvecBuildFor(b, indexConstant(l, 0), trips,
                                     indexConstant(l, 1), 4, sums);
  CoopvecBuilder *in = &loop.body;
  MlirValue w[2], x[2];
  productsAt(f, in, o, loop.inductionVar, w, x);
  for (int64_t h = 0; h < 2; ++h)
    for (int64_t i = 0; i < 2; ++i)
      sums[2 * h + i] = gpuAddZeroProduct(l, in, w[i], x[h],
                                          coopvecLoopIterArg(&loop, 2 * h + i));
  coopvecFinishFor(&loop, 4, sums);
  for (int64_t v = 0; v < 4; ++v)
    sums[v] = mlirOperationGetResult(loop.op, v);
}

/// Where the cold branch keeps the lane's values (and the chosen biases,
/// if any, after them): a private array, so that one loop over the tiles
/// fixes them (unrolled per tile, the loops' addresses stayed live through
/// the products and spilled 2.7 KB at W = 128).
typedef struct Scratch {
  MlirValue array;
  int64_t count; // values
} Scratch;

/// Tile q = (r, j)'s four values in the scratch at `b`: a zero result with
/// a zero bias is the zero products' sum plus the bias; a zero result with
/// another bias (exact cancellation) is +0.0.
static void fixTileAt(const Fragments *f, CoopvecBuilder *b,
                      const Scratch *scratch, MlirValue q) {
  GPULowering *l = f->l;
  MlirValue zero = coopvecPerThreadConstant(&l->p, 0.0);
  MlirValue tiles = indexConstant(l, f->nTiles);
  MlirValue r = coopvecBuildBinaryOp(b, "arith.divui", q, tiles);
  MlirValue j = coopvecBuildBinaryOp(b, "arith.remui", q, tiles);
  MlirValue first = gpuMulIndex(l, b, q, VALUES_PER_N_TILE);
  MlirValue values[4], bias[2], isZero[4], zeroBias[4], any = {NULL};
  for (int64_t i = 0; i < 2; ++i)
    bias[i] =
        mlirValueIsNull(f->biasBuffer)
            ? coopvecBuildMemrefLoad(b, scratch->array,
                                     gpuAddIndex(l, b, gpuMulIndex(l, b, j, 2),
                                                 scratch->count + i))
            : loadLaneBias(f, b, columnAt(f, b, j, i));
  for (int64_t v = 0; v < 4; ++v) {
    values[v] =
        coopvecBuildMemrefLoad(b, scratch->array, gpuAddIndex(l, b, first, v));
    isZero[v] = coopvecBuildCmpF(b, COOPVEC_CMPF_OEQ, values[v], zero);
    zeroBias[v] = coopvecBuildCmpF(b, COOPVEC_CMPF_OEQ, bias[v % 2], zero);
    MlirValue needs =
        coopvecBuildBinaryOp(b, "arith.andi", isZero[v], zeroBias[v]);
    any = v ? coopvecBuildBinaryOp(b, "arith.ori", any, needs) : needs;
  }
  Operands o = operandsAt(f, b, r, j);
  MlirValue sums[4];
  sumZeroProducts(f, b, &o, any, sums);
  for (int64_t v = 0; v < 4; ++v) {
    MlirValue signed_ =
        coopvecBuildBinaryOp(b, "arith.addf", sums[v], bias[v % 2]);
    MlirValue zeroValue = coopvecBuildSelect(b, zeroBias[v], signed_, zero);
    coopvecBuildMemrefStore(
        b, coopvecBuildSelect(b, isZero[v], zeroValue, values[v]),
        scratch->array, gpuAddIndex(l, b, first, v));
  }
}

/// Tensor cores do not keep IEEE signed zeros, so a lane with a zero
/// result takes a cold branch that fixes them: the hot path is one
/// comparison per value.
static void fixZeroSigns(Fragments *f) {
  GPULowering *l = f->l;
  CoopvecBuilder *b = &l->p.body;
  int64_t tiles = ROW_TILES * f->nTiles;
  int64_t count = tiles * VALUES_PER_N_TILE;
  bool chosen = mlirValueIsNull(f->biasBuffer);
  MlirValue zero = coopvecPerThreadConstant(&l->p, 0.0);
  MlirValue any = {NULL};
  MlirType types[MAX_VALUES];
  for (int64_t v = 0; v < count; ++v) {
    MlirValue isZero =
        coopvecBuildCmpF(b, COOPVEC_CMPF_OEQ, f->values[v], zero);
    any = v ? coopvecBuildBinaryOp(b, "arith.ori", any, isZero) : isZero;
    types[v] = l->p.f32;
  }
  // One array for every fragment matvec of the kernel, as large as the
  // largest can need (values and chosen biases).
  if (mlirValueIsNull(l->fragmentScratch))
    l->fragmentScratch = gpuAllocTile(&l->p, MAX_VALUES + 2 * MAX_N_TILES);
  Scratch scratch = {l->fragmentScratch, count};
  CoopvecIfElse branch = coopvecBuildIfElse(b, any, count, types);
  CoopvecBuilder *in = &branch.then;
  for (int64_t v = 0; v < count; ++v)
    coopvecBuildMemrefStore(in, f->values[v], scratch.array,
                            indexConstant(l, v));
  for (int64_t j = 0; chosen && j < f->nTiles; ++j)
    for (int64_t i = 0; i < 2; ++i)
      coopvecBuildMemrefStore(in, f->bias[j][i], scratch.array,
                              indexConstant(l, count + 2 * j + i));
  CoopvecLoop loop =
      coopvecBuildFor(in, indexConstant(l, 0), indexConstant(l, tiles),
                      indexConstant(l, 1), 0, NULL);
  fixTileAt(f, &loop.body, &scratch, loop.inductionVar);
  coopvecFinishFor(&loop, 0, NULL);
  MlirValue fixed[MAX_VALUES];
  for (int64_t v = 0; v < count; ++v)
    fixed[v] = coopvecBuildMemrefLoad(in, scratch.array, indexConstant(l, v));
  coopvecFinishIfElse(&branch, fixed, f->values);
  for (int64_t v = 0; v < count; ++v)
    f->values[v] = mlirOperationGetResult(branch.op, v);
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

/// A per-thread result: per 16-column output tile, the lanes store their
/// values at their (row, column)s of the result tiles, and each thread
/// reads its row.
static void writeBackToThreads(Fragments *f) {
  GPULowering *l = f->l;
  GPUMatvec *m = f->m;
  CoopvecBuilder *b = &l->p.body;
  int64_t stride = gpuOutputRowStride(&l->plan->staging);
  MlirType pair = vectorOf(l->p.f32, 0, 2);
  MlirType chunk = gpuStagingChunkType(l->p.f32);
  int64_t width = mlirShapedTypeGetDimSize(chunk, 0);
  MlirValue ownRow = gpuMulIndex(l, b, l->threadInBlock, stride);
  for (int64_t tile = 0; tile < f->nTiles / 2; ++tile) {
    if (tile)
      gpuSyncTileGroup(l); // the group read the previous tile
    for (int64_t r = 0; r < ROW_TILES; ++r)
      for (int64_t half = 0; half < 2; ++half)
        for (int64_t h = 0; h < 2; ++h) {
          int64_t j = 2 * tile + half;
          MlirValue at = addIndex(b, gpuMulIndex(l, b, f->rows[r][h], stride),
                                  columnOf(f, b, half, 0));
          gpuBuildAlignedVectorStore(
              b,
              fromElements(b, pair, 2,
                           &f->values[valueIndex(f->nTiles, r, j, h, 0)]),
              l->output, at);
        }
    gpuSyncTileGroup(l);
    MlirValue vector = {NULL};
    for (int64_t c = 0; c < GPU_MMA_TILE; ++c) {
      int64_t o = GPU_MMA_TILE * tile + c;
      if (o >= m->numOutputs)
        break;
      if (c % width == 0)
        vector = gpuBuildAlignedVectorLoad(b, chunk, l->output,
                                           gpuAddIndex(l, b, ownRow, c));
      gpuSetMatvecOutput(l, m, o, coopvecBuildExtract(b, vector, c % width));
    }
  }
}

static void setUpLanes(Fragments *f) {
  GPULowering *l = f->l;
  CoopvecBuilder *b = &l->p.body;
  MlirValue lane =
      coopvecBuildBinaryOp(b, "arith.subi", l->threadInBlock, l->tileRow);
  MlirValue four = indexConstant(l, LANES_PER_ROW);
  f->g = coopvecBuildBinaryOp(b, "arith.divui", lane, four);
  f->t = coopvecBuildBinaryOp(b, "arith.remui", lane, four);
  for (int64_t r = 0; r < ROW_TILES; ++r)
    for (int64_t h = 0; h < 2; ++h)
      f->rows[r][h] = addIndex(
          b, gpuAddIndex(l, b, l->tileRow, GPU_MMA_TILE * r + N_TILE * h),
          f->g);
}

void gpuEmitFragmentMatvec(GPULowering *l, GPUMatvec *m) {
  Fragments f = {.l = l, .m = m};
  int64_t paddedOutputs = gpuRoundUp(m->numOutputs, GPU_MMA_TILE);
  f.nTiles = paddedOutputs / N_TILE;
  f.kTiles = m->paddedInputs / K_TILE;
  f.fragmentInput =
      coopvecPointerMapFind(&l->plan->fragmentValues, m->input.ptr) >= 0;
  setUpLanes(&f);
  findBiasLoad(&f);
  for (int64_t j = 0; mlirValueIsNull(f.biasBuffer) && j < f.nTiles; ++j)
    for (int64_t i = 0; i < 2; ++i)
      f.bias[j][i] = chooseLaneBias(&f, j, i);
  // Earlier readers of X, R and the result tiles are done.
  coopvecBuildBarrier(&l->p.body);
  if (f.fragmentInput)
    storeFragmentInput(&f);
  else
    gpuStageMatvecInput(l, m);
  gpuStageMatvecWeights(l, m, 0, paddedOutputs);
  coopvecBuildBarrier(&l->p.body);
  for (int64_t r = 0; r < ROW_TILES; ++r) {
    if (l->config->emulateMMA)
      multiplyEmulated(&f, r);
    else
      multiplyOnTensorCores(&f, r);
  }
  fixZeroSigns(&f);
  MlirValue result = mlirOperationGetResult(m->op, 0);
  if (coopvecPointerMapFind(&l->plan->fragmentValues, result.ptr) >= 0)
    coopvecMapElements(&l->p, result, paddedOutputs, f.values);
  else
    writeBackToThreads(&f);
}
