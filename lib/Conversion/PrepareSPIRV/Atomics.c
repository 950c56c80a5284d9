//===- Atomics.c - Float atomics for SPIR-V -------------------------------===//
//
// MLIR 22's memref-to-spirv converts integer `memref.atomic_rmw` kinds
// only; the training ops add floats (`addf`, f32 or f16) into a gradient
// buffer, a kernel argument, and per-thread programs may also take the
// `maximumf` / `minimumf` of one (the same compare-and-swap loop below,
// combining with arith.maximumf / minimumf instead of addf). SPIR-V has
// `OpAtomicFAddEXT` (f32: SPV_EXT_shader_atomic_float_add, a device
// feature) and, everywhere,
// `OpAtomicCompareExchange` on integers. Neither can be written before
// convert-gpu-to-spirv (they take SPIR-V pointers, which do not exist yet,
// and an unrealized cast to one is not legal in that conversion), so each
// atomic becomes a placeholder that the conversion leaves alone: a
// `spirv.GL.SClamp` of i32 operands (legal, with legal types) marked
// `coopvec.atomic = "fadd" | "cas"` and `coopvec.atomic_arg = <the
// buffer's argument index>`. After spirv-lower-abi-attrs has made the
// buffers global variables, coopvec-finish-spirv replaces it:
//
//   fadd: SClamp(index, bits(v), bits(v))       -> bits(OpAtomicFAddEXT)
//   cas:  SClamp(word, expected, desired)       -> OpAtomicCompareExchange
//                                                  on word `word` of the
//                                                  buffer seen as i32[]
//
// The compare-and-swap loop itself is built here, from ops the conversion
// knows (scf.while, arith, and for f16 the GLSL pack/unpack ops):
//
//   expected = 0
//   loop: desired = expected with its element replaced by element + v
//         got = cas(word, expected, desired)
//         if got != expected: expected = got, again
//
// (starting from 0 costs at most one extra compare-exchange and is right
// whatever the memory holds). An f16 element is one half of its 32-bit
// word: `UnpackHalf2x16` widens it to f32, the sum is rounded back by
// `PackHalf2x16` (f32 then f16 rounding of a sum of two f16 values is the
// f16 sum: 24 >= 2 * 11 + 2 bits), and the other half is kept. No 16-bit
// integer or float arithmetic is needed.
//
//===----------------------------------------------------------------------===//

#include "Conversion/PrepareSPIRV/PrepareSPIRV.h"

#include "Dialect/Verifier.h"
#include "IR/UpstreamBuilders.h"
#include "Support/Alloc.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>
#include <string.h>

typedef struct OpList {
  MlirOperation *ops;
  intptr_t count, capacity;
} OpList;

static MlirWalkResult collectAtomic(MlirOperation op, void *userData) {
  OpList *list = userData;
  if (coopvecOpIsNamed(op, "memref.atomic_rmw")) {
    list->ops = coopvecGrowArray(list->ops, &list->capacity, list->count + 1,
                                 sizeof(MlirOperation));
    list->ops[list->count++] = op;
  }
  return MlirWalkResultAdvance;
}

/// The arith op that combines the element with the value of a float
/// atomic_rmw (its `kind` is arith::AtomicRMWKind, an I64EnumAttr), or
/// NULL for another kind.
static const char *floatCombine(MlirOperation op) {
  MlirAttribute kind = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("kind"));
  if (mlirAttributeIsNull(kind) || !mlirAttributeIsAInteger(kind))
    return NULL;
  switch (mlirIntegerAttrGetValueInt(kind)) {
  case COOPVEC_ATOMIC_ADDF:
    return "arith.addf";
  case COOPVEC_ATOMIC_MAXIMUMF:
    return "arith.maximumf";
  case COOPVEC_ATOMIC_MINIMUMF:
    return "arith.minimumf";
  default:
    return NULL;
  }
}

typedef struct Atomic {
  MlirContext ctx;
  MlirType i32, f32;
  int64_t argIndex;
  MlirValue value;     // f32 or f16
  const char *combine; // arith.addf, maximumf or minimumf
  bool isF16;
  MlirValue word;  // i32 index of the 32-bit word (cas) / element (fadd)
  MlirValue shift; // f16: 0 or 16, the element's bit offset in the word
} Atomic;

static MlirValue i32Constant(CoopvecBuilder *b, const Atomic *a, int64_t v) {
  return coopvecBuildIntConstant(b, a->i32, v);
}

/// `spirv.GL.SClamp x, y, z {coopvec.atomic = kind, coopvec.atomic_arg}`.
static MlirValue placeholder(CoopvecBuilder *b, const Atomic *a,
                             const char *kind, MlirValue x, MlirValue y,
                             MlirValue z) {
  MlirValue operands[] = {x, y, z};
  MlirNamedAttribute attrs[] = {
      coopvecNamedAttr(
          a->ctx, COOPVEC_SPIRV_ATOMIC_ATTR,
          mlirStringAttrGet(a->ctx, mlirStringRefCreateFromCString(kind))),
      coopvecNamedAttr(
          a->ctx, COOPVEC_SPIRV_ATOMIC_ARG_ATTR,
          mlirIntegerAttrGet(mlirIntegerTypeGet(a->ctx, 64), a->argIndex)),
  };
  return coopvecBuild1(b, "spirv.GL.SClamp", 3, operands, a->i32, 2, attrs);
}

/// The f16 half at `shift` of `word`, widened to f32.
static MlirValue unpackHalf(CoopvecBuilder *b, const Atomic *a,
                            MlirValue word) {
  MlirValue low = coopvecBuildBinaryOp(b, "arith.shrui", word, a->shift);
  int64_t two = 2;
  MlirType pair = mlirVectorTypeGet(1, &two, a->f32);
  MlirValue both =
      coopvecBuild1(b, "spirv.GL.UnpackHalf2x16", 1, &low, pair, 0, NULL);
  MlirAttribute zero = mlirIntegerAttrGet(a->i32, 0);
  MlirNamedAttribute indices =
      coopvecNamedAttr(a->ctx, "indices", mlirArrayAttrGet(a->ctx, 1, &zero));
  return coopvecBuild1(b, "spirv.CompositeExtract", 1, &both, a->f32, 1,
                       &indices);
}

/// `expected` with its element replaced by combine(element, value).
static MlirValue desiredWord(CoopvecBuilder *b, const Atomic *a,
                             MlirValue expected) {
  if (!a->isF16) {
    MlirValue current = coopvecBuildCast1(b, "arith.bitcast", expected, a->f32);
    MlirValue sum = coopvecBuildBinaryOp(b, a->combine, current, a->value);
    return coopvecBuildCast1(b, "arith.bitcast", sum, a->i32);
  }
  MlirValue current = unpackHalf(b, a, expected);
  MlirValue addend = coopvecBuildCast1(b, "arith.extf", a->value, a->f32);
  MlirValue sum = coopvecBuildBinaryOp(b, a->combine, current, addend);
  int64_t two = 2;
  MlirType pairType = mlirVectorTypeGet(1, &two, a->f32);
  MlirValue parts[] = {sum, coopvecBuildFloatConstant(b, a->f32, 0.0)};
  MlirValue pair =
      coopvecBuild1(b, "spirv.CompositeConstruct", 2, parts, pairType, 0, NULL);
  MlirValue packed =
      coopvecBuild1(b, "spirv.GL.PackHalf2x16", 1, &pair, a->i32, 0, NULL);
  MlirValue half =
      coopvecBuildBinaryOp(b, "arith.andi", packed, i32Constant(b, a, 0xffff));
  MlirValue placed = coopvecBuildBinaryOp(b, "arith.shli", half, a->shift);
  MlirValue mask = coopvecBuildBinaryOp(b, "arith.shli",
                                        i32Constant(b, a, 0xffff), a->shift);
  MlirValue keep =
      coopvecBuildBinaryOp(b, "arith.xori", mask, i32Constant(b, a, -1));
  MlirValue kept = coopvecBuildBinaryOp(b, "arith.andi", expected, keep);
  return coopvecBuildBinaryOp(b, "arith.ori", kept, placed);
}

/// The compare-and-swap loop; returns the word as it was before the add.
static MlirValue buildLoop(CoopvecBuilder *b, const Atomic *a) {
  MlirLocation loc = b->location;
  MlirBlock before = mlirBlockCreate(1, &a->i32, &loc);
  MlirBlock after = mlirBlockCreate(1, &a->i32, &loc);
  MlirRegion regions[] = {mlirRegionCreate(), mlirRegionCreate()};
  mlirRegionAppendOwnedBlock(regions[0], before);
  mlirRegionAppendOwnedBlock(regions[1], after);
  MlirValue init = i32Constant(b, a, 0);
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString("scf.while"), loc);
  mlirOperationStateAddOperands(&state, 1, &init);
  mlirOperationStateAddResults(&state, 1, &a->i32);
  mlirOperationStateAddOwnedRegions(&state, 2, regions);
  MlirOperation loop = mlirOperationCreate(&state);
  if (mlirOperationIsNull(loop))
    abort(); // one i32 carried through two one-argument blocks
  mlirBlockInsertOwnedOperationBefore(b->block, b->before, loop);

  CoopvecBuilder in = coopvecBuilderAtEnd(before, loc);
  MlirValue expected = mlirBlockGetArgument(before, 0);
  MlirValue desired = desiredWord(&in, a, expected);
  MlirValue got = placeholder(&in, a, "cas", a->word, expected, desired);
  MlirValue again = coopvecBuildCmpI(&in, COOPVEC_CMPI_NE, got, expected);
  MlirValue condition[] = {again, got};
  coopvecBuild0(&in, "scf.condition", 2, condition, 0, NULL);
  CoopvecBuilder next = coopvecBuilderAtEnd(after, loc);
  MlirValue carried = mlirBlockGetArgument(after, 0);
  coopvecBuild0(&next, "scf.yield", 1, &carried, 0, NULL);
  return mlirOperationGetResult(loop, 0);
}

static bool lowerAtomic(MlirOperation op, MlirBlock entry, bool atomicFloat,
                        const char *passName) {
  const char *combine = floatCombine(op);
  if (!combine) {
    // Integer kinds are memref-to-spirv's; other float kinds are not in
    // the dialect (docs/dialect.md, "Memory").
    MlirType type = mlirValueGetType(mlirOperationGetResult(op, 0));
    if (mlirTypeIsAInteger(type))
      return true;
    coopvecEmitOpError(op,
                       "is a float atomic other than addf, maximumf and "
                       "minimumf, which %s cannot lower to SPIR-V",
                       passName);
    return false;
  }
  MlirValue memref = mlirOperationGetOperand(op, 1);
  MlirType element = mlirShapedTypeGetElementType(mlirValueGetType(memref));
  bool isKernelArgument =
      mlirValueIsABlockArgument(memref) &&
      mlirBlockEqual(mlirBlockArgumentGetOwner(memref), entry);
  if (!isKernelArgument ||
      mlirShapedTypeGetRank(mlirValueGetType(memref)) != 1 ||
      mlirOperationGetNumOperands(op) != 3 ||
      !(mlirTypeIsAF32(element) || mlirTypeIsAF16(element))) {
    coopvecEmitOpError(op,
                       "works on a memref that is not an f32 or f16 rank-1 "
                       "argument of the kernel; %s lowers float atomics on "
                       "kernel arguments only",
                       passName);
    return false;
  }
  MlirContext ctx = mlirOperationGetContext(op);
  CoopvecBuilder b = coopvecBuilderBefore(op, mlirOperationGetLocation(op));
  Atomic a = {.ctx = ctx,
              .i32 = mlirIntegerTypeGet(ctx, 32),
              .f32 = mlirF32TypeGet(ctx),
              .argIndex = mlirBlockArgumentGetArgNumber(memref),
              .value = mlirOperationGetOperand(op, 0),
              .combine = combine,
              .isF16 = mlirTypeIsAF16(element)};
  MlirValue index = coopvecBuildCast1(&b, "arith.index_cast",
                                      mlirOperationGetOperand(op, 2), a.i32);
  MlirValue result = mlirOperationGetResult(op, 0);
  bool used = !mlirOpOperandIsNull(mlirValueGetFirstUse(result));
  MlirValue old = {NULL}; // the element before the add, when used
  if (atomicFloat && !a.isF16 && strcmp(combine, "arith.addf") == 0) {
    MlirValue bits = coopvecBuildCast1(&b, "arith.bitcast", a.value, a.i32);
    MlirValue oldBits = placeholder(&b, &a, "fadd", index, bits, bits);
    if (used)
      old = coopvecBuildCast1(&b, "arith.bitcast", oldBits, a.f32);
  } else {
    a.word = a.isF16 ? coopvecBuildBinaryOp(&b, "arith.shrui", index,
                                            i32Constant(&b, &a, 1))
                     : index;
    if (a.isF16)
      a.shift = coopvecBuildBinaryOp(
          &b, "arith.muli",
          coopvecBuildBinaryOp(&b, "arith.andi", index, i32Constant(&b, &a, 1)),
          i32Constant(&b, &a, 16));
    MlirValue oldWord = buildLoop(&b, &a);
    if (used)
      old = a.isF16 ? coopvecBuildCast1(&b, "arith.truncf",
                                        unpackHalf(&b, &a, oldWord), element)
                    : coopvecBuildCast1(&b, "arith.bitcast", oldWord, a.f32);
  }
  if (used)
    mlirValueReplaceAllUsesOfWith(result, old);
  mlirOperationDestroy(op);
  return true;
}

bool coopvecLowerFloatAtomics(MlirOperation kernel, bool atomicFloat,
                              const char *passName) {
  OpList list = {NULL, 0, 0};
  mlirOperationWalk(kernel, collectAtomic, &list, MlirWalkPreOrder);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0));
  bool ok = true;
  for (intptr_t i = 0; ok && i < list.count; ++i)
    ok = lowerAtomic(list.ops[i], entry, atomicFloat, passName);
  free(list.ops);
  return ok;
}
