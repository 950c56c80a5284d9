//===- PrepareNVVM.c - coopvec-prepare-nvvm -------------------------------===//
//
// What a gpu.module from convert-coopvec-to-gpu needs before MLIR's NVVM
// lowering, which convert-gpu-to-nvvm does not do itself (all checked on
// MLIR 22.1.8):
//
//   - workgroup buffers: `memref.alloc` in address space 3 (the form the
//     SPIR-V lowering wants) becomes a `malloc` per thread in
//     convert-gpu-to-nvvm, not shared memory. Each becomes a
//     `memref.global` in address space 3 with the alloc's alignment (PTX
//     `.shared .align N`) and a `memref.get_global`; in a kernel whose
//     allocs exceed 48 KiB, the static limit, they are views of one
//     `gpu.dynamic_shared_memory` instead (DynamicSharedMemory.c);
//   - `gpu.subgroup_reduce add` of f32 has no NVVM lowering, and i32 add /
//     minui only redux.sync (sm_80) through patterns convert-gpu-to-nvvm
//     does not run: each becomes a butterfly of `gpu.shuffle xor` over the
//     32 lanes, which leaves the same result in every lane;
//   - a `gpu.barrier {coopvec.subgroup_barrier}` (GPUBuilders.h) orders
//     only the threads of one subgroup, a warp here:
//     `nvvm.bar.warp.sync -1`, which also orders their shared-memory
//     accesses, instead of the block's `bar.sync`;
//   - math.floor, ceil, round, roundeven, absf, copysign and sqrt, which
//     convert-gpu-to-nvvm refuses as llvm.intr.* ops (it wants libdevice
//     calls), become calls of the same LLVM intrinsics (MathIntrinsics.c);
//   - a `vector.load` of a kernel's memref argument at a constant, 16-byte
//     aligned index says so (`alignment = 16`, AlignedLoads.c), as the
//     kernel ABI aligns the arguments: LLVM reads it in 16-byte vectors;
//   - the target: LLVM's NVPTX backend only warns about an unknown chip or
//     feature and aborts the process on an instruction the chip lacks, so
//     the `#nvvm.target` is checked first: a chip LLVM knows, sm_70 or newer
//     (warp-synchronous shuffles, f16 tensor cores), sm_80 for tf32 MMA,
//     and kernels converted for 32-thread subgroups.
//
//===----------------------------------------------------------------------===//

#include "Conversion/PrepareNVVM/PrepareNVVM.h"

#include "Dialect/Verifier.h"
#include "IR/GPUBuilders.h"
#include "Pass/PassDef.h"
#include "Support/Alloc.h"
#include "Target/NVPTXTarget.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Dialect/GPU.h>
#include <mlir-c/Dialect/LLVM.h>
#include <mlir-c/Dialect/MemRef.h>
#include <mlir-c/Dialect/NVVM.h>
#include <mlir-c/Dialect/Vector.h>

#include <stdlib.h>
#include <string.h>

static const char passName[] = "coopvec-prepare-nvvm";

enum { MIN_SM = 70, TF32_SM = 80, WARP_SIZE = 32 };

/// The ops of a gpu.module that need a rewrite or a check.
typedef struct Worklist {
  MlirOperation *ops;
  intptr_t count, capacity;
} Worklist;

static bool isSubgroupBarrier(MlirOperation op) {
  return coopvecOpIsNamed(op, "gpu.barrier") &&
         !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
             op,
             mlirStringRefCreateFromCString(COOPVEC_SUBGROUP_BARRIER_ATTR)));
}

static MlirWalkResult collectOp(MlirOperation op, void *userData) {
  Worklist *list = userData;
  if (coopvecOpIsNamed(op, "memref.alloc") ||
      coopvecOpIsNamed(op, "gpu.subgroup_reduce") ||
      coopvecOpIsNamed(op, "gpu.subgroup_mma_compute") ||
      isSubgroupBarrier(op) || coopvecOpIsNamed(op, "gpu.func")) {
    list->ops = coopvecGrowArray(list->ops, &list->capacity, list->count + 1,
                                 sizeof(MlirOperation));
    list->ops[list->count++] = op;
  }
  return MlirWalkResultAdvance;
}

//===----------------------------------------------------------------------===//
// The target
//===----------------------------------------------------------------------===//

/// Reads and checks the gpu.module's #nvvm.target into `target`.
static bool checkTarget(MlirOperation gpuModule, CoopvecNVVMTarget *target) {
  MlirAttribute targets = mlirOperationGetAttributeByName(
      gpuModule, mlirStringRefCreateFromCString("targets"));
  int found = 0;
  for (intptr_t i = 0; !mlirAttributeIsNull(targets) &&
                       i < mlirArrayAttrGetNumElements(targets);
       ++i)
    found += coopvecReadNVVMTarget(mlirArrayAttrGetElement(targets, i), target);
  CoopvecBuffer error = {0};
  if (found != 1)
    coopvecBufferAppendf(&error,
                         "needs exactly one #nvvm.target (found %d; "
                         "attach one with nvvm-attach-target)",
                         found);
  else if (coopvecNVPTXCheckNVVMTarget(target, &error) &&
           coopvecNVPTXChipVersion(target->chip) < MIN_SM)
    coopvecBufferAppendf(&error,
                         "targets %s; %s needs sm_70 or newer "
                         "(warp-synchronous shuffles, tensor cores)",
                         target->chip, passName);
  bool ok = error.size == 0;
  if (!ok)
    coopvecEmitOpError(gpuModule, "%s", coopvecBufferStr(&error));
  coopvecBufferFree(&error);
  return ok;
}

/// Whether an MMA operand type reads f32 (as tf32).
static bool isTF32Fragment(MlirType type) {
  CoopvecBuffer text = {0};
  mlirTypePrint(type, coopvecBufferCallback, &text);
  bool tf32 = strstr(coopvecBufferStr(&text), "xf32") != NULL;
  coopvecBufferFree(&text);
  return tf32;
}

static bool checkOp(MlirOperation op, const CoopvecNVVMTarget *target) {
  if (coopvecOpIsNamed(op, "gpu.subgroup_mma_compute") &&
      isTF32Fragment(mlirValueGetType(mlirOperationGetOperand(op, 0))) &&
      coopvecNVPTXChipVersion(target->chip) < TF32_SM) {
    coopvecEmitOpError(op,
                       "multiplies tf32 on tensor cores, which needs "
                       "sm_80 or newer; the target is %s (convert with "
                       "allow-tf32=false)",
                       target->chip);
    return false;
  }
  MlirAttribute subgroup = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("coopvec.subgroup_size"));
  if (coopvecOpIsNamed(op, "gpu.func") && !mlirAttributeIsNull(subgroup) &&
      mlirIntegerAttrGetValueInt(subgroup) != WARP_SIZE) {
    coopvecEmitOpError(op,
                       "was converted for subgroups of %lld threads; "
                       "NVIDIA warps have 32 (convert with "
                       "subgroup-size=32)",
                       (long long)mlirIntegerAttrGetValueInt(subgroup));
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Rewrites
//===----------------------------------------------------------------------===//

bool coopvecIsWorkgroupAlloc(MlirOperation op) {
  if (!coopvecOpIsNamed(op, "memref.alloc"))
    return false;
  MlirAttribute space = mlirMemRefTypeGetMemorySpace(
      mlirValueGetType(mlirOperationGetResult(op, 0)));
  return !mlirAttributeIsNull(space) && mlirAttributeIsAInteger(space) &&
         mlirIntegerAttrGetValueInt(space) == 3;
}

int64_t coopvecMemRefElementBytes(MlirType memref) {
  MlirType element = mlirShapedTypeGetElementType(memref);
  if (mlirTypeIsAFloat(element))
    return mlirFloatTypeGetWidth(element) / 8;
  if (mlirTypeIsAInteger(element))
    return mlirIntegerTypeGetWidth(element) / 8;
  return 0;
}

/// `memref.global "private" @name : type {alignment}` at the start of the
/// gpu.module.
static void createGlobal(MlirOperation gpuModule, MlirOperation alloc,
                         const char *name) {
  MlirContext ctx = mlirOperationGetContext(alloc);
  MlirType type = mlirValueGetType(mlirOperationGetResult(alloc, 0));
  MlirAttribute alignment = mlirOperationGetAttributeByName(
      alloc, mlirStringRefCreateFromCString("alignment"));
  MlirNamedAttribute attrs[] = {
      coopvecNamedAttr(
          ctx, "sym_name",
          mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(name))),
      coopvecNamedAttr(
          ctx, "sym_visibility",
          mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("private"))),
      coopvecNamedAttr(ctx, "type", mlirTypeAttrGet(type)),
      coopvecNamedAttr(ctx, "alignment", alignment),
  };
  MlirBlock body =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(gpuModule, 0));
  CoopvecBuilder b =
      mlirOperationIsNull(mlirBlockGetFirstOperation(body))
          ? coopvecBuilderAtEnd(body, mlirOperationGetLocation(alloc))
          : coopvecBuilderBefore(mlirBlockGetFirstOperation(body),
                                 mlirOperationGetLocation(alloc));
  coopvecBuild0(&b, "memref.global", 0, NULL,
                mlirAttributeIsNull(alignment) ? 3 : 4, attrs);
}

/// A statically shaped workgroup `memref.alloc` -> `memref.global` +
/// `memref.get_global`, named after its kernel.
static bool rewriteAlloc(MlirOperation gpuModule, MlirOperation alloc,
                         MlirStringRef kernel, int index) {
  MlirValue result = mlirOperationGetResult(alloc, 0);
  if (!mlirShapedTypeHasStaticShape(mlirValueGetType(result))) {
    coopvecEmitOpError(alloc,
                       "allocates workgroup memory of a dynamic "
                       "size, which %s cannot make a static buffer",
                       passName);
    return false;
  }
  MlirContext ctx = mlirOperationGetContext(alloc);
  CoopvecBuffer name = {0};
  coopvecBufferAppendf(&name, "__coopvec_wg_%.*s_%d", (int)kernel.length,
                       kernel.data, index);
  createGlobal(gpuModule, alloc, coopvecBufferStr(&name));
  CoopvecBuilder b =
      coopvecBuilderBefore(alloc, mlirOperationGetLocation(alloc));
  MlirNamedAttribute symbol = coopvecNamedAttr(
      ctx, "name",
      mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreate(name.data, name.size)));
  MlirValue global = coopvecBuild1(&b, "memref.get_global", 0, NULL,
                                   mlirValueGetType(result), 1, &symbol);
  mlirValueReplaceAllUsesOfWith(result, global);
  mlirOperationDestroy(alloc);
  coopvecBufferFree(&name);
  return true;
}

/// Whether `reduce` is an add of f32 over the whole subgroup (what
/// convert-coopvec-to-gpu emits; the shuffles move 32-bit values).
/// The arith op that combines two lanes of a whole-warp subgroup_reduce
/// this pass rewrites: f32 add (the training ops) and i32 add / minui
/// (reduce-mode=local's votes and leader choice), which convert-gpu-to-nvvm
/// lowers only as redux.sync (sm_80) or not at all; NULL for others.
static const char *butterflyCombiner(MlirOperation reduce) {
  if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(
          reduce, mlirStringRefCreateFromCString("cluster_size"))))
    return NULL;
  CoopvecBuffer text = {0};
  mlirAttributePrint(mlirOperationGetAttributeByName(
                         reduce, mlirStringRefCreateFromCString("op")),
                     coopvecBufferCallback, &text);
  const char *op = coopvecBufferStr(&text);
  MlirType type = mlirValueGetType(mlirOperationGetResult(reduce, 0));
  bool i32 = mlirTypeIsAInteger(type) && mlirIntegerTypeGetWidth(type) == 32;
  const char *combiner = NULL;
  if (strcmp(op, "#gpu<all_reduce_op add>") == 0 && mlirTypeIsAF32(type))
    combiner = "arith.addf";
  else if (strcmp(op, "#gpu<all_reduce_op add>") == 0 && i32)
    combiner = "arith.addi";
  else if (strcmp(op, "#gpu<all_reduce_op minui>") == 0 && i32)
    combiner = "arith.minui";
  coopvecBufferFree(&text);
  return combiner;
}

/// The reduction over the warp by a xor butterfly: after the step with
/// offset s, every lane holds the result of its aligned group of 2s lanes,
/// the same value in each of them (the combiners commute exactly).
static void rewriteReduce(MlirOperation reduce, const char *combiner) {
  CoopvecBuilder b =
      coopvecBuilderBefore(reduce, mlirOperationGetLocation(reduce));
  MlirValue sum = mlirOperationGetOperand(reduce, 0);
  for (int32_t offset = WARP_SIZE / 2; offset >= 1; offset /= 2)
    sum = coopvecBuildBinaryOp(
        &b, combiner, sum, coopvecBuildShuffleXor(&b, sum, offset, WARP_SIZE));
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(reduce, 0), sum);
  mlirOperationDestroy(reduce);
}

/// `nvvm.bar.warp.sync` of all 32 lanes (checkOp made sure that the
/// kernel's subgroups are warps).
static void rewriteSubgroupBarrier(MlirOperation barrier) {
  CoopvecBuilder b =
      coopvecBuilderBefore(barrier, mlirOperationGetLocation(barrier));
  MlirValue allLanes =
      coopvecBuildIntConstant(&b, mlirIntegerTypeGet(b.context, 32), -1);
  coopvecBuild0(&b, "nvvm.bar.warp.sync", 1, &allLanes, 0, NULL);
  mlirOperationDestroy(barrier);
}

/// Rewrites one collected op; `kernel` and `allocs` follow the enclosing
/// gpu.func (the walk visits a func before its body).
static bool rewriteOp(MlirOperation gpuModule, MlirOperation op,
                      MlirStringRef *kernel, int *allocs) {
  if (coopvecOpIsNamed(op, "gpu.func")) {
    MlirAttribute name = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("sym_name"));
    *kernel = mlirStringAttrGetValue(name);
    *allocs = 0;
  } else if (coopvecIsWorkgroupAlloc(op)) {
    return rewriteAlloc(gpuModule, op, *kernel, (*allocs)++);
  } else if (coopvecOpIsNamed(op, "gpu.subgroup_reduce") &&
             butterflyCombiner(op)) {
    rewriteReduce(op, butterflyCombiner(op));
  } else if (isSubgroupBarrier(op)) {
    rewriteSubgroupBarrier(op);
  }
  return true;
}

static void runPrepare(MlirOperation gpuModule, MlirExternalPass pass,
                       const void *options) {
  (void)options;
  CoopvecNVVMTarget target;
  if (!checkTarget(gpuModule, &target)) {
    mlirExternalPassSignalFailure(pass);
    return;
  }
  // Before the worklist: it replaces the allocs of large kernels.
  coopvecPlaceDynamicSharedMemory(gpuModule);
  Worklist list = {NULL, 0, 0};
  mlirOperationWalk(gpuModule, collectOp, &list, MlirWalkPreOrder);
  bool ok = true;
  // The first problem is enough: every tensor-core op of a matvec would
  // report the same one.
  for (intptr_t i = 0; ok && i < list.count; ++i)
    ok = checkOp(list.ops[i], &target);
  MlirStringRef kernel = mlirStringRefCreate("", 0);
  int allocs = 0;
  for (intptr_t i = 0; ok && i < list.count; ++i)
    ok = rewriteOp(gpuModule, list.ops[i], &kernel, &allocs);
  free(list.ops);
  if (ok) {
    coopvecRewriteMathIntrinsics(gpuModule);
    coopvecAlignKernelArgumentLoads(gpuModule);
  } else
    mlirExternalPassSignalFailure(pass);
}

static MlirDialectHandle (*const prepareDependentDialects[])(void) = {
    mlirGetDialectHandle__gpu__,    mlirGetDialectHandle__llvm__,
    mlirGetDialectHandle__memref__, mlirGetDialectHandle__nvvm__,
    mlirGetDialectHandle__vector__,
};

const CoopvecPassDef coopvecPrepareNVVMPassDef = {
    .argument = "coopvec-prepare-nvvm",
    .name = "CoopvecPrepareNVVM",
    .description = "Check a gpu.module's #nvvm.target and make workgroup "
                   "allocs, float subgroup reductions, subgroup barriers "
                   "and math.floor, ceil, "
                   "round, roundeven, absf, copysign and sqrt lowerable by "
                   "convert-gpu-to-nvvm",
    .anchor = "gpu.module",
    .dependentDialects = prepareDependentDialects,
    .numDependentDialects =
        sizeof(prepareDependentDialects) / sizeof(prepareDependentDialects[0]),
    .run = runPrepare,
};
