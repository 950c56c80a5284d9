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
// i8 atomics take the same loop: Vulkan allows atomics on 32- and 64-bit
// integers only (lavapipe ran OpAtomicIAdd on an i8 pointer; NVIDIA's
// compiler failed on it, "NVVM compilation failed", on an H200). The
// element is the byte at `shift` = 8 (index & 3) of word index >> 2,
// combined (addi, maxs, mins, maxu, minu) in i32, sign-extended for the
// signed kinds, and its low 8 bits put back.
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

const char *coopvecAtomicCombineOp(MlirOperation atomic) {
  MlirAttribute kind = mlirOperationGetAttributeByName(
      atomic, mlirStringRefCreateFromCString("kind"));
  if (mlirAttributeIsNull(kind) || !mlirAttributeIsAInteger(kind))
    return NULL;
  switch (mlirIntegerAttrGetValueInt(kind)) {
  case COOPVEC_ATOMIC_ADDF:
    return "arith.addf";
  case COOPVEC_ATOMIC_ADDI:
    return "arith.addi";
  case COOPVEC_ATOMIC_MAXIMUMF:
    return "arith.maximumf";
  case COOPVEC_ATOMIC_MINIMUMF:
    return "arith.minimumf";
  case COOPVEC_ATOMIC_MAXS:
    return "arith.maxsi";
  case COOPVEC_ATOMIC_MINS:
    return "arith.minsi";
  case COOPVEC_ATOMIC_MAXU:
    return "arith.maxui";
  case COOPVEC_ATOMIC_MINU:
    return "arith.minui";
  default:
    return NULL;
  }
}

/// Whether the arith op `name` ends with `suffix`: "f" for the float
/// combines (addf, maximumf, minimumf), "i" for the integer ones.
static bool endsWith(const char *name, const char *suffix) {
  size_t n = strlen(name), k = strlen(suffix);
  return n >= k && strcmp(name + n - k, suffix) == 0;
}

/// The combine of a float atomic_rmw, or NULL for another kind.
static const char *floatCombine(MlirOperation op) {
  const char *combine = coopvecAtomicCombineOp(op);
  return combine && endsWith(combine, "f") ? combine : NULL;
}

/// The combine of an i8 atomic_rmw, in i32, or NULL for another kind;
/// `isSigned`: the kind compares signed values.
static const char *byteCombine(MlirOperation op, bool *isSigned) {
  const char *combine = coopvecAtomicCombineOp(op);
  if (!combine || !endsWith(combine, "i"))
    return NULL;
  *isSigned = endsWith(combine, "si");
  return combine;
}

typedef struct Atomic {
  MlirContext ctx;
  MlirType i32, f32;
  int64_t argIndex;
  MlirValue value;     // f32 or f16; i8 values extended to i32
  const char *combine; // arith.addf, maximumf or minimumf; or byteCombine's
  bool isF16, isByte, isSigned;
  MlirValue word;  // i32 index of the 32-bit word (cas) / element (fadd)
  MlirValue shift; // f16: 0 or 16, i8: 0, 8, 16 or 24, the element's bit
                   // offset in the word
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

/// The byte at `shift` of `word`, extended to i32 (signed for the signed
/// kinds).
static MlirValue unpackByte(CoopvecBuilder *b, const Atomic *a,
                            MlirValue word) {
  MlirValue low = coopvecBuildBinaryOp(b, "arith.shrui", word, a->shift);
  if (!a->isSigned)
    return coopvecBuildBinaryOp(b, "arith.andi", low, i32Constant(b, a, 0xff));
  MlirValue top =
      coopvecBuildBinaryOp(b, "arith.shli", low, i32Constant(b, a, 24));
  return coopvecBuildBinaryOp(b, "arith.shrsi", top, i32Constant(b, a, 24));
}

/// `expected` with its byte replaced by combine(byte, value).
static MlirValue desiredByteWord(CoopvecBuilder *b, const Atomic *a,
                                 MlirValue expected) {
  MlirValue current = unpackByte(b, a, expected);
  MlirValue combined = coopvecBuildBinaryOp(b, a->combine, current, a->value);
  MlirValue byte =
      coopvecBuildBinaryOp(b, "arith.andi", combined, i32Constant(b, a, 0xff));
  MlirValue placed = coopvecBuildBinaryOp(b, "arith.shli", byte, a->shift);
  MlirValue mask =
      coopvecBuildBinaryOp(b, "arith.shli", i32Constant(b, a, 0xff), a->shift);
  MlirValue keep =
      coopvecBuildBinaryOp(b, "arith.xori", mask, i32Constant(b, a, -1));
  MlirValue kept = coopvecBuildBinaryOp(b, "arith.andi", expected, keep);
  return coopvecBuildBinaryOp(b, "arith.ori", kept, placed);
}

/// `expected` with its element replaced by combine(element, value).
static MlirValue desiredWord(CoopvecBuilder *b, const Atomic *a,
                             MlirValue expected) {
  if (a->isByte)
    return desiredByteWord(b, a, expected);
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

/// Whether `memref` is a rank-1 argument of the kernel whose entry block is
/// `entry`.
static bool isKernelArgument(MlirValue memref, MlirBlock entry) {
  return mlirValueIsABlockArgument(memref) &&
         mlirBlockEqual(mlirBlockArgumentGetOwner(memref), entry) &&
         mlirShapedTypeGetRank(mlirValueGetType(memref)) == 1;
}

/// An i8 atomic on a kernel argument as a compare-and-swap loop on its
/// word.
static bool lowerByteAtomic(MlirOperation op, MlirBlock entry,
                            const char *passName) {
  MlirValue memref = mlirOperationGetOperand(op, 1);
  MlirContext ctx = mlirOperationGetContext(op);
  Atomic a = {.ctx = ctx,
              .i32 = mlirIntegerTypeGet(ctx, 32),
              .f32 = mlirF32TypeGet(ctx),
              .isByte = true};
  a.combine = byteCombine(op, &a.isSigned);
  if (!a.combine || !isKernelArgument(memref, entry) ||
      mlirOperationGetNumOperands(op) != 3) {
    coopvecEmitOpError(op,
                       "is an i8 atomic that is not addi, maxs, mins, maxu or "
                       "minu on a rank-1 argument of the kernel, which %s "
                       "cannot lower to SPIR-V (Vulkan has no 8-bit atomics)",
                       passName);
    return false;
  }
  CoopvecBuilder b = coopvecBuilderBefore(op, mlirOperationGetLocation(op));
  a.argIndex = mlirBlockArgumentGetArgNumber(memref);
  a.value = coopvecBuildCast1(&b, a.isSigned ? "arith.extsi" : "arith.extui",
                              mlirOperationGetOperand(op, 0), a.i32);
  MlirValue index = coopvecBuildCast1(&b, "arith.index_cast",
                                      mlirOperationGetOperand(op, 2), a.i32);
  a.word =
      coopvecBuildBinaryOp(&b, "arith.shrui", index, i32Constant(&b, &a, 2));
  a.shift = coopvecBuildBinaryOp(
      &b, "arith.muli",
      coopvecBuildBinaryOp(&b, "arith.andi", index, i32Constant(&b, &a, 3)),
      i32Constant(&b, &a, 8));
  MlirValue oldWord = buildLoop(&b, &a);
  MlirValue result = mlirOperationGetResult(op, 0);
  if (!mlirOpOperandIsNull(mlirValueGetFirstUse(result)))
    mlirValueReplaceAllUsesOfWith(result,
                                  coopvecBuildCast1(&b, "arith.trunci",
                                                    unpackByte(&b, &a, oldWord),
                                                    mlirValueGetType(result)));
  mlirOperationDestroy(op);
  return true;
}

static bool lowerAtomic(MlirOperation op, MlirBlock entry, bool atomicFloat,
                        const char *passName) {
  const char *combine = floatCombine(op);
  if (!combine) {
    // Integer kinds of 32 and 64 bits are memref-to-spirv's; other float
    // kinds are not in the dialect (docs/dialect.md, "Memory").
    MlirType type = mlirValueGetType(mlirOperationGetResult(op, 0));
    if (mlirTypeIsAInteger(type) && mlirIntegerTypeGetWidth(type) == 8)
      return lowerByteAtomic(op, entry, passName);
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
  if (!isKernelArgument(memref, entry) ||
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
