//===- builders.c - C API: building coopvec IR with Builders.h ------------===//

// RUN: coopvec-capi-builders 2>&1 | FileCheck %s

#include "coopvec-c/Coopvec.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Diagnostics.h>
#include <mlir-c/Pass.h>
#include <mlir-c/Rewrite.h>

#include <stdio.h>
#include <string.h>

static void printToStderr(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stderr);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  fprintf(stderr, "diagnostic: ");
  mlirDiagnosticPrint(diagnostic, printToStderr, NULL);
  fprintf(stderr, "\n");
  return mlirLogicalResultSuccess();
}

static void printOperation(MlirOperation op) {
  mlirOperationPrint(op, printToStderr, NULL);
  fprintf(stderr, "\n");
  fflush(stderr);
}

static MlirType memrefOf(MlirType element) {
  int64_t shape[] = {mlirShapedTypeGetDynamicSize()};
  return mlirMemRefTypeContiguousGet(element, 1, shape, mlirAttributeGetNull());
}

static MlirType vectorOf(int64_t size, MlirType element) {
  return mlirVectorTypeGet(1, &size, element);
}

static intptr_t countOps(MlirBlock block) {
  intptr_t count = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    ++count;
  return count;
}

/// A module holding `func.func @<name>(inputs) -> (results)` with an empty
/// entry block.
typedef struct Function {
  MlirModule module;
  MlirOperation func;
  MlirBlock block;
  MlirLocation loc;
} Function;

static Function createFunction(MlirContext ctx, const char *name,
                               intptr_t numInputs, const MlirType *inputs,
                               intptr_t numResults, const MlirType *results) {
  Function f;
  f.loc = mlirLocationUnknownGet(ctx);
  f.module = mlirModuleCreateEmpty(f.loc);
  MlirLocation locs[16];
  for (intptr_t i = 0; i < numInputs; ++i)
    locs[i] = f.loc;
  MlirRegion region = mlirRegionCreate();
  f.block = mlirBlockCreate(numInputs, inputs, locs);
  mlirRegionAppendOwnedBlock(region, f.block);
  MlirType type =
      mlirFunctionTypeGet(ctx, numInputs, inputs, numResults, results);
  MlirNamedAttribute attributes[] = {
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("sym_name")),
          mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(name))),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx,
                            mlirStringRefCreateFromCString("function_type")),
          mlirTypeAttrGet(type)),
  };
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString("func.func"), f.loc);
  mlirOperationStateAddAttributes(&state, 2, attributes);
  mlirOperationStateAddOwnedRegions(&state, 1, &region);
  f.func = mlirOperationCreate(&state);
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(f.module), f.func);
  return f;
}

static MlirValue arg(const Function *f, intptr_t i) {
  return mlirBlockGetArgument(f->block, i);
}

/// `func.return values` at the end of the function, with the generic
/// builder.
static MlirOperation buildReturn(Function *f, intptr_t count,
                                 const MlirValue *values) {
  CoopvecBuilder b = coopvecBuilderAtEnd(f->block, f->loc);
  return coopvecBuildOperation(&b, "func.return", count, values, 0, NULL, 0,
                               NULL);
}

static bool isNull(MlirValue value) { return mlirValueIsNull(value); }

/// Verifies (MLIR's verifier, IRDL, then the coopvec rules) and prints the
/// module.
static int verifyAndPrint(Function *f) {
  printOperation(mlirModuleGetOperation(f->module));
  bool ok = mlirLogicalResultIsSuccess(
      coopvecVerify(mlirModuleGetOperation(f->module)));
  fprintf(stderr, "verified: %d\n", ok);
  return ok ? 0 : 1;
}

//===----------------------------------------------------------------------===//
// Insertion points
//===----------------------------------------------------------------------===//

static int testInsertionPoints(MlirContext ctx) {
  // CHECK-LABEL: testInsertionPoints
  fprintf(stderr, "testInsertionPoints\n");
  MlirType f32 = mlirF32TypeGet(ctx);
  Function f = createFunction(ctx, "positions", 1, &f32, 0, NULL);
  // A plain builder appends to the block; coopvecBuildOperation creates any
  // op (here upstream ones).
  CoopvecBuilder atEnd = coopvecBuilderAtEnd(f.block, f.loc);
  MlirNamedAttribute value = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("value")),
      mlirFloatAttrDoubleGet(ctx, f32, 2.0));
  MlirOperation constant = coopvecBuildOperation(&atEnd, "arith.constant", 0,
                                                 NULL, 1, &f32, 1, &value);
  MlirOperation ret = buildReturn(&f, 0, NULL);
  if (mlirOperationIsNull(constant) || mlirOperationIsNull(ret))
    return 1;
  // coopvecBuilderBefore inserts before an op, in creation order.
  CoopvecBuilder before = coopvecBuilderBefore(ret, f.loc);
  MlirType vec4 = coopvecVecTypeGet(ctx, 4, f32);
  MlirValue splat =
      coopvecBuildSplat(&before, vec4, mlirOperationGetResult(constant, 0));
  MlirValue sum = coopvecBuildAdd(&before, splat, arg(&f, 0));
  // A rewriter (no pattern needed) inserts at its insertion point: before
  // the splat's user here.
  MlirRewriterBase rewriter = mlirIRRewriterCreate(ctx);
  mlirRewriterBaseSetInsertionPointBefore(rewriter, mlirOpResultGetOwner(sum));
  CoopvecBuilder through = coopvecBuilderFromRewriter(rewriter, f.loc);
  MlirValue neg = coopvecBuildNeg(&through, splat);
  mlirIRRewriterDestroy(rewriter);
  if (isNull(splat) || isNull(sum) || isNull(neg))
    return 2;
  // CHECK: ops: 5
  fprintf(stderr, "ops: %ld\n", (long)countOps(f.block));
  // CHECK:      func.func @positions(%[[A:.*]]: f32) {
  // CHECK-NEXT:   %[[C:.*]] = arith.constant 2.000000e+00 : f32
  // CHECK-NEXT:   %[[S:.*]] = "coopvec.splat"(%[[C]]) : (f32) -> !coopvec.vec<4 : i64, f32>
  // CHECK-NEXT:   %[[N:.*]] = "coopvec.neg"(%[[S]]) : (!coopvec.vec<4 : i64, f32>) -> !coopvec.vec<4 : i64, f32>
  // CHECK-NEXT:   %{{.*}} = "coopvec.add"(%[[S]], %[[A]]) : (!coopvec.vec<4 : i64, f32>, f32) -> !coopvec.vec<4 : i64, f32>
  // CHECK-NEXT:   return
  // CHECK-NEXT: }
  // CHECK: verified: 1
  int rc = verifyAndPrint(&f) ? 3 : 0;
  mlirModuleDestroy(f.module);
  return rc;
}

//===----------------------------------------------------------------------===//
// One group per section of Builders.h
//===----------------------------------------------------------------------===//

static int testConstruction(MlirContext ctx) {
  // CHECK-LABEL: testConstruction
  fprintf(stderr, "testConstruction\n");
  MlirType f32 = mlirF32TypeGet(ctx), f16 = mlirF16TypeGet(ctx);
  MlirType inputs[] = {f32, f32, vectorOf(2, f16),
                       coopvecVecTypeGet(ctx, 2, f32)};
  Function f = createFunction(ctx, "construction", 4, inputs, 0, NULL);
  CoopvecBuilder b = coopvecBuilderAtEnd(f.block, f.loc);
  MlirValue elements[] = {arg(&f, 1), arg(&f, 0)};
  MlirValue fromElements = coopvecBuildFromElements(&b, 2, elements);
  MlirValue splat =
      coopvecBuildSplat(&b, coopvecVecTypeGet(ctx, 3, f32), arg(&f, 0));
  MlirOperation unpack = coopvecBuildUnpack(&b, arg(&f, 3));
  MlirValue fromVector = coopvecBuildFromVector(&b, arg(&f, 2));
  MlirValue toVector = coopvecBuildToVector(&b, arg(&f, 3));
  MlirValue cast = coopvecBuildCast(&b, fromElements, f16);
  if (isNull(fromElements) || isNull(splat) || mlirOperationIsNull(unpack) ||
      isNull(fromVector) || isNull(toVector) || isNull(cast))
    return 1;
  // CHECK: unpack results: 2
  fprintf(stderr, "unpack results: %ld\n",
          (long)mlirOperationGetNumResults(unpack));
  buildReturn(&f, 0, NULL);
  // CHECK:      func.func @construction(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[W:.*]]: vector<2xf16>, %[[V:.*]]: !coopvec.vec<2 : i64, f32>) {
  // CHECK-NEXT:   %[[FE:.*]] = "coopvec.from_elements"(%[[B]], %[[A]]) : (f32, f32) -> !coopvec.vec<2 : i64, f32>
  // CHECK-NEXT:   "coopvec.splat"(%[[A]]) : (f32) -> !coopvec.vec<3 : i64, f32>
  // CHECK-NEXT:   "coopvec.unpack"(%[[V]]) : (!coopvec.vec<2 : i64, f32>) -> (f32, f32)
  // CHECK-NEXT:   "coopvec.from_vector"(%[[W]]) : (vector<2xf16>) -> !coopvec.vec<2 : i64, f16>
  // CHECK-NEXT:   "coopvec.to_vector"(%[[V]]) : (!coopvec.vec<2 : i64, f32>) -> vector<2xf32>
  // CHECK-NEXT:   "coopvec.cast"(%[[FE]]) : (!coopvec.vec<2 : i64, f32>) -> !coopvec.vec<2 : i64, f16>
  // CHECK-NEXT:   return
  // CHECK: verified: 1
  int rc = verifyAndPrint(&f) ? 2 : 0;
  mlirModuleDestroy(f.module);
  return rc;
}

static int testTransfer(MlirContext ctx) {
  // CHECK-LABEL: testTransfer
  fprintf(stderr, "testTransfer\n");
  MlirType f16 = mlirF16TypeGet(ctx);
  MlirType i1 = mlirIntegerTypeGet(ctx, 1);
  MlirType inputs[] = {memrefOf(f16), mlirIndexTypeGet(ctx), vectorOf(4, i1),
                       f16, memrefOf(f16)};
  Function f = createFunction(ctx, "transfer", 5, inputs, 0, NULL);
  CoopvecBuilder b = coopvecBuilderAtEnd(f.block, f.loc);
  MlirType vec4 = coopvecVecTypeGet(ctx, 4, f16);
  MlirValue load = coopvecBuildLoad(&b, vec4, arg(&f, 0), arg(&f, 1));
  MlirValue masked = coopvecBuildMaskedLoad(&b, vec4, arg(&f, 0), arg(&f, 1),
                                            arg(&f, 2), arg(&f, 3));
  MlirOperation store = coopvecBuildStore(&b, load, arg(&f, 4), arg(&f, 1));
  MlirOperation maskedStore =
      coopvecBuildMaskedStore(&b, masked, arg(&f, 4), arg(&f, 1), arg(&f, 2));
  MlirValue view = coopvecBuildMatrixView(
      &b, arg(&f, 0), 128,
      coopvecMatrixTypeGet(ctx, 4, 4, f16, CoopvecLayoutInference));
  if (isNull(load) || isNull(masked) || mlirOperationIsNull(store) ||
      mlirOperationIsNull(maskedStore) || isNull(view))
    return 1;
  buildReturn(&f, 0, NULL);
  // CHECK:      func.func @transfer(%[[BUF:.*]]: memref<?xf16>, %[[OFF:.*]]: index, %[[M:.*]]: vector<4xi1>, %[[PAD:.*]]: f16, %[[OUT:.*]]: memref<?xf16>) {
  // CHECK-NEXT:   %[[L:.*]] = "coopvec.load"(%[[BUF]], %[[OFF]]) : (memref<?xf16>, index) -> !coopvec.vec<4 : i64, f16>
  // CHECK-NEXT:   %[[ML:.*]] = "coopvec.masked_load"(%[[BUF]], %[[OFF]], %[[M]], %[[PAD]]) : (memref<?xf16>, index, vector<4xi1>, f16) -> !coopvec.vec<4 : i64, f16>
  // CHECK-NEXT:   "coopvec.store"(%[[L]], %[[OUT]], %[[OFF]]) : (!coopvec.vec<4 : i64, f16>, memref<?xf16>, index) -> ()
  // CHECK-NEXT:   "coopvec.masked_store"(%[[ML]], %[[OUT]], %[[OFF]], %[[M]]) : (!coopvec.vec<4 : i64, f16>, memref<?xf16>, index, vector<4xi1>) -> ()
  // CHECK-NEXT:   "coopvec.matrix_view"(%[[BUF]]) {offset = 128 : i64} : (memref<?xf16>) -> !coopvec.matrix<4 : i64, 4 : i64, f16, "inference">
  // CHECK-NEXT:   return
  // CHECK: verified: 1
  int rc = verifyAndPrint(&f) ? 2 : 0;
  mlirModuleDestroy(f.module);
  return rc;
}

static int testElementwise(MlirContext ctx) {
  // CHECK-LABEL: testElementwise
  fprintf(stderr, "testElementwise\n");
  MlirType f32 = mlirF32TypeGet(ctx);
  MlirType vec = coopvecVecTypeGet(ctx, 8, f32);
  MlirType inputs[] = {vec, vec, f32};
  Function f = createFunction(ctx, "elementwise", 3, inputs, 1, &vec);
  CoopvecBuilder b = coopvecBuilderAtEnd(f.block, f.loc);
  MlirValue x = arg(&f, 0), y = arg(&f, 1), s = arg(&f, 2);
  MlirValue v = coopvecBuildAdd(&b, x, y);
  v = coopvecBuildSub(&b, v, s);
  v = coopvecBuildMul(&b, v, y);
  v = coopvecBuildMin(&b, v, s);
  v = coopvecBuildMax(&b, v, y);
  v = coopvecBuildStep(&b, v, s);
  v = coopvecBuildFma(&b, v, s, y);
  v = coopvecBuildFma(&b, v, y, s);
  v = coopvecBuildNeg(&b, v);
  v = coopvecBuildExp2(&b, v);
  v = coopvecBuildLog2(&b, v);
  v = coopvecBuildTanh(&b, v);
  if (isNull(v))
    return 1;
  buildReturn(&f, 1, &v);
  // Scalars are accepted as the rhs (and fma's b and c); the result has
  // the lhs's type.
  // CHECK:      func.func @elementwise(%[[X:.*]]: !coopvec.vec<8 : i64, f32>, %[[Y:.*]]: !coopvec.vec<8 : i64, f32>, %[[S:.*]]: f32) -> !coopvec.vec<8 : i64, f32> {
  // CHECK-NEXT:   %[[V0:.*]] = "coopvec.add"(%[[X]], %[[Y]]) : (!coopvec.vec<8 : i64, f32>, !coopvec.vec<8 : i64, f32>) -> !coopvec.vec<8 : i64, f32>
  // CHECK-NEXT:   %[[V1:.*]] = "coopvec.sub"(%[[V0]], %[[S]]) : (!coopvec.vec<8 : i64, f32>, f32) -> !coopvec.vec<8 : i64, f32>
  // CHECK-NEXT:   %[[V2:.*]] = "coopvec.mul"(%[[V1]], %[[Y]])
  // CHECK-NEXT:   %[[V3:.*]] = "coopvec.min"(%[[V2]], %[[S]]) : (!coopvec.vec<8 : i64, f32>, f32)
  // CHECK-NEXT:   %[[V4:.*]] = "coopvec.max"(%[[V3]], %[[Y]])
  // CHECK-NEXT:   %[[V5:.*]] = "coopvec.step"(%[[V4]], %[[S]])
  // CHECK-NEXT:   %[[V6:.*]] = "coopvec.fma"(%[[V5]], %[[S]], %[[Y]]) : (!coopvec.vec<8 : i64, f32>, f32, !coopvec.vec<8 : i64, f32>) -> !coopvec.vec<8 : i64, f32>
  // CHECK-NEXT:   %[[V7:.*]] = "coopvec.fma"(%[[V6]], %[[Y]], %[[S]]) : (!coopvec.vec<8 : i64, f32>, !coopvec.vec<8 : i64, f32>, f32) -> !coopvec.vec<8 : i64, f32>
  // CHECK-NEXT:   %[[V8:.*]] = "coopvec.neg"(%[[V7]]) : (!coopvec.vec<8 : i64, f32>) -> !coopvec.vec<8 : i64, f32>
  // CHECK-NEXT:   %[[V9:.*]] = "coopvec.exp2"(%[[V8]])
  // CHECK-NEXT:   %[[V10:.*]] = "coopvec.log2"(%[[V9]])
  // CHECK-NEXT:   %[[V11:.*]] = "coopvec.tanh"(%[[V10]])
  // CHECK-NEXT:   return %[[V11]] : !coopvec.vec<8 : i64, f32>
  // CHECK: verified: 1
  int rc = verifyAndPrint(&f) ? 2 : 0;
  mlirModuleDestroy(f.module);
  return rc;
}

static int testMatvecAndTraining(MlirContext ctx) {
  // CHECK-LABEL: testMatvecAndTraining
  fprintf(stderr, "testMatvecAndTraining\n");
  MlirType f16 = mlirF16TypeGet(ctx);
  MlirType index = mlirIndexTypeGet(ctx);
  MlirType inputs[] = {coopvecVecTypeGet(ctx, 3, f16), memrefOf(f16),
                       memrefOf(f16), index};
  Function f = createFunction(ctx, "matvec", 4, inputs, 0, NULL);
  CoopvecBuilder b = coopvecBuilderAtEnd(f.block, f.loc);
  MlirValue a = coopvecBuildMatrixView(
      &b, arg(&f, 1), 0,
      coopvecMatrixTypeGet(ctx, 5, 3, f16, CoopvecLayoutRowMajor));
  // The result is a vec of the matrix's rows, or of its columns with
  // transpose; the bias is optional.
  MlirValue h = coopvecBuildMatvec(&b, a, arg(&f, 0), (MlirValue){NULL}, false);
  MlirValue bias = coopvecBuildLoad(&b, coopvecVecTypeGet(ctx, 3, f16),
                                    arg(&f, 1), arg(&f, 3));
  MlirValue t = coopvecBuildMatvec(&b, a, h, bias, true);
  MlirValue g = coopvecBuildMatrixView(
      &b, arg(&f, 2), 64,
      coopvecMatrixTypeGet(ctx, 5, 3, f16, CoopvecLayoutTraining));
  MlirOperation outer = coopvecBuildOuterProductAccumulate(&b, h, t, g);
  MlirOperation reduce =
      coopvecBuildReduceSumAccumulate(&b, h, arg(&f, 2), arg(&f, 3));
  if (isNull(a) || isNull(h) || isNull(bias) || isNull(t) || isNull(g) ||
      mlirOperationIsNull(outer) || mlirOperationIsNull(reduce))
    return 1;
  buildReturn(&f, 0, NULL);
  // CHECK:      func.func @matvec(%[[X:.*]]: !coopvec.vec<3 : i64, f16>, %[[W:.*]]: memref<?xf16>, %[[G:.*]]: memref<?xf16>, %[[OFF:.*]]: index) {
  // CHECK-NEXT:   %[[A:.*]] = "coopvec.matrix_view"(%[[W]]) {offset = 0 : i64} : (memref<?xf16>) -> !coopvec.matrix<5 : i64, 3 : i64, f16, "row_major">
  // CHECK-NEXT:   %[[H:.*]] = "coopvec.matvec"(%[[A]], %[[X]]) : (!coopvec.matrix<5 : i64, 3 : i64, f16, "row_major">, !coopvec.vec<3 : i64, f16>) -> !coopvec.vec<5 : i64, f16>
  // CHECK-NEXT:   %[[B:.*]] = "coopvec.load"(%[[W]], %[[OFF]])
  // CHECK-NEXT:   %[[T:.*]] = "coopvec.matvec"(%[[A]], %[[H]], %[[B]]) {transpose} : (!coopvec.matrix<5 : i64, 3 : i64, f16, "row_major">, !coopvec.vec<5 : i64, f16>, !coopvec.vec<3 : i64, f16>) -> !coopvec.vec<3 : i64, f16>
  // CHECK-NEXT:   %[[GV:.*]] = "coopvec.matrix_view"(%[[G]]) {offset = 64 : i64} : (memref<?xf16>) -> !coopvec.matrix<5 : i64, 3 : i64, f16, "training">
  // CHECK-NEXT:   "coopvec.outer_product_accumulate"(%[[H]], %[[T]], %[[GV]]) : (!coopvec.vec<5 : i64, f16>, !coopvec.vec<3 : i64, f16>, !coopvec.matrix<5 : i64, 3 : i64, f16, "training">) -> ()
  // CHECK-NEXT:   "coopvec.reduce_sum_accumulate"(%[[H]], %[[G]], %[[OFF]]) : (!coopvec.vec<5 : i64, f16>, memref<?xf16>, index) -> ()
  // CHECK-NEXT:   return
  // CHECK: verified: 1
  int rc = verifyAndPrint(&f) ? 2 : 0;
  mlirModuleDestroy(f.module);
  return rc;
}

//===----------------------------------------------------------------------===//
// A whole per-thread function
//===----------------------------------------------------------------------===//

/// relu(A x + b) and its transposed product, with loads, stores, unpack /
/// from_elements and the training ops, then lowered for the CPU.
static int testWholeFunction(MlirContext ctx) {
  // CHECK-LABEL: testWholeFunction
  fprintf(stderr, "testWholeFunction\n");
  MlirType f32 = mlirF32TypeGet(ctx);
  MlirType index = mlirIndexTypeGet(ctx);
  MlirType vec3 = coopvecVecTypeGet(ctx, 3, f32);
  MlirType vec7 = coopvecVecTypeGet(ctx, 7, f32);
  MlirType inputs[] = {vec3,
                       memrefOf(f32),
                       index,
                       f32,
                       vectorOf(3, mlirIntegerTypeGet(ctx, 1)),
                       memrefOf(f32),
                       memrefOf(f32),
                       memrefOf(f32)};
  MlirType results[] = {vec7, vec3};
  Function f = createFunction(ctx, "layer", 8, inputs, 2, results);
  CoopvecBuilder b = coopvecBuilderAtEnd(f.block, f.loc);
  MlirValue x = arg(&f, 0), w = arg(&f, 1), off = arg(&f, 2), s = arg(&f, 3);
  MlirValue mask = arg(&f, 4), out = arg(&f, 5), gw = arg(&f, 6),
            gb = arg(&f, 7);
  MlirValue a = coopvecBuildMatrixView(
      &b, w, 0, coopvecMatrixTypeGet(ctx, 7, 3, f32, CoopvecLayoutRowMajor));
  MlirValue bias = coopvecBuildLoad(&b, vec7, w, off);
  MlirValue h = coopvecBuildMatvec(&b, a, x, bias, false);
  MlirValue y = coopvecBuildMax(&b, h, s);
  MlirValue t = coopvecBuildMatvec(&b, a, y, (MlirValue){NULL}, true);
  MlirOperation unpack = coopvecBuildUnpack(&b, t);
  if (isNull(a) || isNull(bias) || isNull(h) || isNull(y) || isNull(t) ||
      mlirOperationIsNull(unpack))
    return 1;
  MlirValue reversed[] = {mlirOperationGetResult(unpack, 2),
                          mlirOperationGetResult(unpack, 1),
                          mlirOperationGetResult(unpack, 0)};
  MlirValue r = coopvecBuildFromElements(&b, 3, reversed);
  MlirValue padded = coopvecBuildMaskedLoad(&b, vec3, w, off, mask, s);
  MlirValue z = coopvecBuildFma(&b, r, s, padded);
  coopvecBuildStore(&b, z, out, off);
  coopvecBuildMaskedStore(&b, z, out, off, mask);
  MlirValue grad = coopvecBuildMatrixView(
      &b, gw, 0, coopvecMatrixTypeGet(ctx, 7, 3, f32, CoopvecLayoutRowMajor));
  coopvecBuildOuterProductAccumulate(&b, y, x, grad);
  coopvecBuildReduceSumAccumulate(&b, y, gb, off);
  MlirValue returned[] = {y, z};
  if (isNull(r) || isNull(padded) || isNull(z) || isNull(grad) ||
      mlirOperationIsNull(buildReturn(&f, 2, returned)))
    return 2;
  // CHECK:      func.func @layer(%[[X:.*]]: !coopvec.vec<3 : i64, f32>, %[[W:.*]]: memref<?xf32>, %[[OFF:.*]]: index, %[[S:.*]]: f32, %[[M:.*]]: vector<3xi1>, %[[OUT:.*]]: memref<?xf32>, %[[GW:.*]]: memref<?xf32>, %[[GB:.*]]: memref<?xf32>) -> (!coopvec.vec<7 : i64, f32>, !coopvec.vec<3 : i64, f32>) {
  // CHECK-NEXT:   %[[A:.*]] = "coopvec.matrix_view"(%[[W]]) {offset = 0 : i64} : (memref<?xf32>) -> !coopvec.matrix<7 : i64, 3 : i64, f32, "row_major">
  // CHECK-NEXT:   %[[B:.*]] = "coopvec.load"(%[[W]], %[[OFF]]) : (memref<?xf32>, index) -> !coopvec.vec<7 : i64, f32>
  // CHECK-NEXT:   %[[H:.*]] = "coopvec.matvec"(%[[A]], %[[X]], %[[B]]) : (!coopvec.matrix<7 : i64, 3 : i64, f32, "row_major">, !coopvec.vec<3 : i64, f32>, !coopvec.vec<7 : i64, f32>) -> !coopvec.vec<7 : i64, f32>
  // CHECK-NEXT:   %[[Y:.*]] = "coopvec.max"(%[[H]], %[[S]]) : (!coopvec.vec<7 : i64, f32>, f32) -> !coopvec.vec<7 : i64, f32>
  // CHECK-NEXT:   %[[T:.*]] = "coopvec.matvec"(%[[A]], %[[Y]]) {transpose} : (!coopvec.matrix<7 : i64, 3 : i64, f32, "row_major">, !coopvec.vec<7 : i64, f32>) -> !coopvec.vec<3 : i64, f32>
  // CHECK-NEXT:   %[[E:.*]]:3 = "coopvec.unpack"(%[[T]]) : (!coopvec.vec<3 : i64, f32>) -> (f32, f32, f32)
  // CHECK-NEXT:   %[[R:.*]] = "coopvec.from_elements"(%[[E]]#2, %[[E]]#1, %[[E]]#0) : (f32, f32, f32) -> !coopvec.vec<3 : i64, f32>
  // CHECK-NEXT:   %[[P:.*]] = "coopvec.masked_load"(%[[W]], %[[OFF]], %[[M]], %[[S]]) : (memref<?xf32>, index, vector<3xi1>, f32) -> !coopvec.vec<3 : i64, f32>
  // CHECK-NEXT:   %[[Z:.*]] = "coopvec.fma"(%[[R]], %[[S]], %[[P]]) : (!coopvec.vec<3 : i64, f32>, f32, !coopvec.vec<3 : i64, f32>) -> !coopvec.vec<3 : i64, f32>
  // CHECK-NEXT:   "coopvec.store"(%[[Z]], %[[OUT]], %[[OFF]])
  // CHECK-NEXT:   "coopvec.masked_store"(%[[Z]], %[[OUT]], %[[OFF]], %[[M]])
  // CHECK-NEXT:   %[[G:.*]] = "coopvec.matrix_view"(%[[GW]]) {offset = 0 : i64}
  // CHECK-NEXT:   "coopvec.outer_product_accumulate"(%[[Y]], %[[X]], %[[G]])
  // CHECK-NEXT:   "coopvec.reduce_sum_accumulate"(%[[Y]], %[[GB]], %[[OFF]])
  // CHECK-NEXT:   return %[[Y]], %[[Z]] : !coopvec.vec<7 : i64, f32>, !coopvec.vec<3 : i64, f32>
  // CHECK-NEXT: }
  // CHECK: verified: 1
  if (verifyAndPrint(&f))
    return 3;
  // The built function is a valid per-thread function: it lowers.
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  CoopvecBuffer errors = {0};
  MlirPass convert = coopvecCreatePass(
      mlirStringRefCreateFromCString("convert-coopvec-to-cpu"),
      mlirStringRefCreateFromCString("target-cpu=x86-64 lanes=4"),
      coopvecBufferCallback, &errors);
  if (convert.ptr == NULL) {
    fprintf(stderr, "%s\n", coopvecBufferStr(&errors));
    coopvecBufferFree(&errors);
    mlirPassManagerDestroy(pm);
    return 4;
  }
  coopvecBufferFree(&errors);
  mlirPassManagerAddOwnedPass(pm, convert);
  bool lowered = mlirLogicalResultIsSuccess(
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(f.module)));
  mlirPassManagerDestroy(pm);
  MlirOperation first = mlirBlockGetFirstOperation(mlirModuleGetBody(f.module));
  MlirAttribute name = mlirOperationGetAttributeByName(
      first, mlirStringRefCreateFromCString("sym_name"));
  // CHECK: lowered: 1, first function: layer_batched
  MlirStringRef nameText = mlirStringAttrGetValue(name);
  fprintf(stderr, "lowered: %d, first function: %.*s\n", lowered,
          (int)nameText.length, nameText.data);
  mlirModuleDestroy(f.module);
  return 0;
}

//===----------------------------------------------------------------------===//
// Bad operands: a null value, and nothing created
//===----------------------------------------------------------------------===//

static int testBadOperands(MlirContext ctx) {
  // CHECK-LABEL: testBadOperands
  fprintf(stderr, "testBadOperands\n");
  MlirType f32 = mlirF32TypeGet(ctx), f16 = mlirF16TypeGet(ctx);
  MlirType i32 = mlirIntegerTypeGet(ctx, 32);
  MlirType vec4 = coopvecVecTypeGet(ctx, 4, f32);
  int64_t shape2d[] = {2, 2};
  MlirType inputs[] = {vec4,
                       f32,
                       memrefOf(f32),
                       mlirIndexTypeGet(ctx),
                       vectorOf(4, mlirIntegerTypeGet(ctx, 1)),
                       i32,
                       vectorOf(4, i32),
                       mlirVectorTypeGet(2, shape2d, f32)};
  Function f = createFunction(ctx, "bad", 8, inputs, 0, NULL);
  CoopvecBuilder b = coopvecBuilderAtEnd(f.block, f.loc);
  MlirValue v = arg(&f, 0), s = arg(&f, 1), buf = arg(&f, 2), off = arg(&f, 3),
            mask = arg(&f, 4), si = arg(&f, 5), vi = arg(&f, 6),
            v2d = arg(&f, 7);
  MlirValue none = {NULL};
  MlirType matrix = coopvecMatrixTypeGet(ctx, 4, 4, f32, CoopvecLayoutRowMajor);
  MlirValue a = coopvecBuildMatrixView(&b, buf, 0, matrix);
  if (isNull(a))
    return 1;
  intptr_t before = countOps(f.block);
  MlirValue noElements[] = {none};
  MlirValue ints[] = {si, si};
  MlirValue withNull[] = {s, none};
  struct {
    const char *what;
    bool isNull;
  } cases[] = {
      {"from_elements of 0 elements",
       isNull(coopvecBuildFromElements(&b, 0, noElements))},
      {"from_elements of a null element",
       isNull(coopvecBuildFromElements(&b, 2, withNull))},
      {"from_elements of i32", isNull(coopvecBuildFromElements(&b, 2, ints))},
      {"splat to a non-vec type", isNull(coopvecBuildSplat(&b, f32, s))},
      {"splat of null", isNull(coopvecBuildSplat(&b, vec4, none))},
      {"unpack of a scalar", mlirOperationIsNull(coopvecBuildUnpack(&b, s))},
      {"unpack of null", mlirOperationIsNull(coopvecBuildUnpack(&b, none))},
      {"from_vector of a scalar", isNull(coopvecBuildFromVector(&b, s))},
      {"from_vector of a 2-D vector", isNull(coopvecBuildFromVector(&b, v2d))},
      {"from_vector of vector<4xi32>", isNull(coopvecBuildFromVector(&b, vi))},
      {"from_vector of null", isNull(coopvecBuildFromVector(&b, none))},
      {"to_vector of a scalar", isNull(coopvecBuildToVector(&b, s))},
      {"to_vector of null", isNull(coopvecBuildToVector(&b, none))},
      {"cast of a scalar", isNull(coopvecBuildCast(&b, s, f16))},
      {"cast to i32", isNull(coopvecBuildCast(&b, v, i32))},
      {"load of a non-vec type", isNull(coopvecBuildLoad(&b, f32, buf, off))},
      {"load with a null offset",
       isNull(coopvecBuildLoad(&b, vec4, buf, none))},
      {"masked_load with a null mask",
       isNull(coopvecBuildMaskedLoad(&b, vec4, buf, off, none, s))},
      {"masked_load of a non-vec type",
       isNull(coopvecBuildMaskedLoad(&b, f32, buf, off, mask, s))},
      {"store of null",
       mlirOperationIsNull(coopvecBuildStore(&b, none, buf, off))},
      {"masked_store with a null mask",
       mlirOperationIsNull(coopvecBuildMaskedStore(&b, v, buf, off, none))},
      {"matrix_view of a null buffer",
       isNull(coopvecBuildMatrixView(&b, none, 0, matrix))},
      {"matrix_view as a non-matrix type",
       isNull(coopvecBuildMatrixView(&b, buf, 0, vec4))},
      {"add with a scalar lhs", isNull(coopvecBuildAdd(&b, s, v))},
      {"sub with a null rhs", isNull(coopvecBuildSub(&b, v, none))},
      {"mul of null", isNull(coopvecBuildMul(&b, none, v))},
      {"min with a scalar lhs", isNull(coopvecBuildMin(&b, s, s))},
      {"max with a null rhs", isNull(coopvecBuildMax(&b, v, none))},
      {"step with a scalar lhs", isNull(coopvecBuildStep(&b, s, v))},
      {"fma with a null c", isNull(coopvecBuildFma(&b, v, v, none))},
      {"fma with a scalar a", isNull(coopvecBuildFma(&b, s, v, v))},
      {"neg of a scalar", isNull(coopvecBuildNeg(&b, s))},
      {"exp2 of null", isNull(coopvecBuildExp2(&b, none))},
      {"log2 of a scalar", isNull(coopvecBuildLog2(&b, s))},
      {"tanh of a memref", isNull(coopvecBuildTanh(&b, buf))},
      {"matvec of a vec as matrix",
       isNull(coopvecBuildMatvec(&b, v, v, none, false))},
      {"matvec of a null matrix",
       isNull(coopvecBuildMatvec(&b, none, v, none, false))},
      {"matvec of a scalar input",
       isNull(coopvecBuildMatvec(&b, a, s, none, true))},
      {"outer_product_accumulate with a null gradient",
       mlirOperationIsNull(coopvecBuildOuterProductAccumulate(&b, v, v, none))},
      {"reduce_sum_accumulate with a null offset",
       mlirOperationIsNull(coopvecBuildReduceSumAccumulate(&b, v, buf, none))},
  };
  int failures = 0;
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    if (cases[i].isNull)
      continue;
    fprintf(stderr, "not null: %s\n", cases[i].what);
    ++failures;
  }
  // CHECK-NOT: not null:
  // CHECK: cases: 40, not null: 0, ops created: 0
  fprintf(stderr, "cases: %ld, not null: %d, ops created: %ld\n",
          (long)(sizeof(cases) / sizeof(cases[0])), failures,
          (long)(countOps(f.block) - before));
  mlirModuleDestroy(f.module);
  return failures ? 1 : 0;
}

/// Builders check only what the result type depends on; coopvecVerify
/// catches the rest (here a rhs of another size).
static int testVerifyCatchesTheRest(MlirContext ctx) {
  // CHECK-LABEL: testVerifyCatchesTheRest
  fprintf(stderr, "testVerifyCatchesTheRest\n");
  MlirType f32 = mlirF32TypeGet(ctx);
  MlirType inputs[] = {coopvecVecTypeGet(ctx, 4, f32),
                       coopvecVecTypeGet(ctx, 8, f32)};
  Function f = createFunction(ctx, "mismatch", 2, inputs, 0, NULL);
  CoopvecBuilder b = coopvecBuilderAtEnd(f.block, f.loc);
  MlirValue sum = coopvecBuildAdd(&b, arg(&f, 0), arg(&f, 1));
  buildReturn(&f, 0, NULL);
  // CHECK: built: 1
  fprintf(stderr, "built: %d\n", !isNull(sum));
  MlirDiagnosticHandlerID handler =
      mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
  bool ok = mlirLogicalResultIsSuccess(
      coopvecVerify(mlirModuleGetOperation(f.module)));
  mlirContextDetachDiagnosticHandler(ctx, handler);
  // CHECK: diagnostic: 'coopvec.add' op
  // CHECK: verified: 0
  fprintf(stderr, "verified: %d\n", ok);
  mlirModuleDestroy(f.module);
  return ok ? 1 : 0;
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  if (mlirLogicalResultIsFailure(coopvecSetupContext(ctx)))
    return 1;
  // Upstream dialects are registered; ops of a dialect can only be created
  // once it is loaded.
  mlirContextGetOrLoadDialect(ctx, mlirStringRefCreateFromCString("arith"));
  mlirContextGetOrLoadDialect(ctx, mlirStringRefCreateFromCString("func"));
  int (*tests[])(MlirContext) = {
      testInsertionPoints, testConstruction,         testTransfer,
      testElementwise,     testMatvecAndTraining,    testWholeFunction,
      testBadOperands,     testVerifyCatchesTheRest,
  };
  int rc = 0;
  for (size_t i = 0; !rc && i < sizeof(tests) / sizeof(tests[0]); ++i) {
    int code = tests[i](ctx);
    if (code) // test i + 1, failure `code`
      rc = (int)(100 * (i + 1)) + code;
  }
  mlirContextDestroy(ctx);
  // CHECK: exit: 0
  fprintf(stderr, "exit: %d\n", rc);
  return rc;
}
