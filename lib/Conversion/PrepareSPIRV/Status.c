//===- Status.c - Run-time bounds reports gathered per thread -------------===//
//
// A run-time bounds check that fails reports to the status buffer with two
// i64 atomics (lib/Conversion/CoopvecToGPU/GPUThreads.c): add 1 to word 0,
// signed min of thread * 2^16 + check into word 1. lavapipe (Mesa 22.3.6)
// runs a loop wrong when it holds a 64-bit atomic and its trip count
// differs between threads: a bounds-checked load in such a loop made the
// kernel write zeros everywhere (the atomic need not even run; a 64-bit
// load or store in its place, or an i32 atomic, was right). So each thread
// gathers its reports in two private i64 variables (Function storage), a
// count from 0 and a smallest key from INT64_MAX, and adds them to the
// status buffer once, before the kernel returns, when its count is not 0:
// the same sum and the same minimum, outside every loop, and one atomic
// pair per reporting thread instead of one per failed access.
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToGPU/GPU.h"
#include "Conversion/PrepareSPIRV/PrepareSPIRV.h"

#include "Dialect/Verifier.h"
#include "IR/UpstreamBuilders.h"
#include "Support/Alloc.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdint.h>
#include <stdlib.h>

typedef struct Reports {
  MlirOperation *ops;
  intptr_t count, capacity;
} Reports;

static MlirWalkResult collectReport(MlirOperation op, void *userData) {
  Reports *reports = userData;
  if (coopvecOpIsNamed(op, "memref.atomic_rmw") &&
      !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
          op,
          mlirStringRefCreateFromCString(COOPVEC_GPU_STATUS_REPORT_ATTR)))) {
    reports->ops = coopvecGrowArray(reports->ops, &reports->capacity,
                                    reports->count + 1, sizeof(MlirOperation));
    reports->ops[reports->count++] = op;
  }
  return MlirWalkResultAdvance;
}

/// The two private variables and the status buffer of one kernel.
typedef struct Gathered {
  MlirValue count, first; // memref<1xi64, Function>
  MlirValue status;       // the kernel's status buffer
  MlirType i64;
} Gathered;

static int64_t kindOf(MlirOperation op) {
  MlirAttribute kind = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("kind"));
  return mlirIntegerAttrGetValueInt(kind);
}

/// memref<1xi64> in Function storage holding `initial`.
static MlirValue privateVariable(CoopvecBuilder *b, MlirType i64,
                                 int64_t initial) {
  int64_t one = 1;
  MlirAttribute function = mlirAttributeParseGet(
      b->context,
      mlirStringRefCreateFromCString("#spirv.storage_class<Function>"));
  MlirType type =
      mlirMemRefTypeGet(i64, 1, &one, mlirAttributeGetNull(), function);
  MlirValue variable = coopvecBuildAlloca(b, type, 8);
  MlirValue value = coopvecBuildIntConstant(b, i64, initial);
  MlirValue zero = coopvecBuildIndexConstant(b, 0);
  coopvecBuildMemrefStore(b, value, variable, zero);
  return variable;
}

/// `variable[0] = combine(variable[0], value)`.
static void accumulate(CoopvecBuilder *b, const char *combine,
                       MlirValue variable, MlirValue value) {
  MlirValue zero = coopvecBuildIndexConstant(b, 0);
  MlirValue old = coopvecBuildMemrefLoad(b, variable, zero);
  MlirValue combined = coopvecBuildBinaryOp(b, combine, old, value);
  coopvecBuildMemrefStore(b, combined, variable, zero);
}

/// Replaces a report's atomic by its private accumulation.
static void gatherReport(MlirOperation op, const Gathered *g) {
  CoopvecBuilder b = coopvecBuilderBefore(op, mlirOperationGetLocation(op));
  MlirValue value = mlirOperationGetOperand(op, 0);
  if (kindOf(op) == COOPVEC_ATOMIC_ADDI)
    accumulate(&b, "arith.addi", g->count, value);
  else
    accumulate(&b, "arith.minsi", g->first, value);
  mlirOperationDestroy(op); // its old value is never used
}

/// Before `ret`: if the thread reported, add its count and key.
static void flushBefore(MlirOperation ret, const Gathered *g) {
  CoopvecBuilder b = coopvecBuilderBefore(ret, mlirOperationGetLocation(ret));
  MlirValue zero = coopvecBuildIndexConstant(&b, 0);
  MlirValue count = coopvecBuildMemrefLoad(&b, g->count, zero);
  MlirValue reported = coopvecBuildCmpI(&b, COOPVEC_CMPI_NE, count,
                                        coopvecBuildIntConstant(&b, g->i64, 0));
  CoopvecIf branch = coopvecBuildIf(&b, reported);
  CoopvecBuilder *in = &branch.then;
  MlirValue first =
      coopvecBuildMemrefLoad(in, g->first, coopvecBuildIndexConstant(in, 0));
  MlirContext ctx = b.context;
  coopvecBuildAtomic(in, coopvecAtomicKindAttr(ctx, COOPVEC_ATOMIC_ADDI), count,
                     g->status, coopvecBuildIndexConstant(in, 0));
  coopvecBuildAtomic(in, coopvecAtomicKindAttr(ctx, COOPVEC_ATOMIC_MINS), first,
                     g->status, coopvecBuildIndexConstant(in, 1));
  coopvecFinishIf(&branch);
}

void coopvecGatherStatusReports(MlirOperation kernel) {
  Reports reports = {NULL, 0, 0};
  mlirOperationWalk(kernel, collectReport, &reports, MlirWalkPreOrder);
  if (reports.count == 0)
    return;
  MlirRegion body = mlirOperationGetRegion(kernel, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(body);
  MlirOperation start = mlirBlockGetFirstOperation(entry);
  CoopvecBuilder b =
      coopvecBuilderBefore(start, mlirOperationGetLocation(kernel));
  Gathered g = {.i64 = mlirIntegerTypeGet(b.context, 64),
                .status = mlirOperationGetOperand(reports.ops[0], 1)};
  g.count = privateVariable(&b, g.i64, 0);
  g.first = privateVariable(&b, g.i64, INT64_MAX);
  for (intptr_t i = 0; i < reports.count; ++i)
    gatherReport(reports.ops[i], &g);
  free(reports.ops);
  for (MlirBlock block = entry; !mlirBlockIsNull(block);
       block = mlirBlockGetNextInRegion(block)) {
    MlirOperation ret = mlirBlockGetTerminator(block);
    if (!mlirOperationIsNull(ret) && coopvecOpIsNamed(ret, "gpu.return"))
      flushBefore(ret, &g);
  }
}
