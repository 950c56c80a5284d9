//===- dialect.c - C API: loading coopvec and its types -------------------===//

// RUN: coopvec-capi-dialect 2>&1 | FileCheck %s

#include "coopvec-c/Coopvec.h"

#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Diagnostics.h>

#include <stdio.h>
#include <string.h>

static void printType(MlirType type) {
  mlirTypeDump(type);
  fflush(stderr);
}

// Diagnostics are counted, not printed, so invalid parameters can be probed.
static MlirLogicalResult countDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)diagnostic;
  ++*(int *)userData;
  return mlirLogicalResultSuccess();
}

static int testLoad(MlirContext ctx) {
  // CHECK-LABEL: testLoad
  fprintf(stderr, "testLoad\n");
  if (mlirLogicalResultIsFailure(coopvecLoadDialect(ctx)))
    return 1;
  // Loading again is a no-op.
  if (mlirLogicalResultIsFailure(coopvecLoadDialect(ctx)))
    return 2;
  MlirDialect dialect = mlirContextGetOrLoadDialect(
      ctx, mlirStringRefCreateFromCString("coopvec"));
  if (mlirDialectIsNull(dialect))
    return 3;
  MlirStringRef source = coopvecGetIRDLSource();
  // CHECK: irdl source has dialect: 1
  fprintf(stderr, "irdl source has dialect: %d\n",
          source.length > 0 && strstr(source.data, "irdl.dialect @coopvec"));
  // CHECK: version: 0.1.0
  fprintf(stderr, "version: %s\n", coopvecGetVersion());
  return 0;
}

static int testVecType(MlirContext ctx) {
  // CHECK-LABEL: testVecType
  fprintf(stderr, "testVecType\n");
  MlirType f16 = mlirF16TypeGet(ctx);
  MlirType vec = coopvecVecTypeGet(ctx, 17, f16);
  if (mlirTypeIsNull(vec))
    return 1;
  // CHECK: !coopvec.vec<17 : i64, f16>
  printType(vec);
  // CHECK: is vec: 1, is matrix: 0, size: 17, element is f16: 1
  fprintf(stderr, "is vec: %d, is matrix: %d, size: %lld, element is f16: %d\n",
          coopvecTypeIsAVec(vec), coopvecTypeIsAMatrix(vec),
          (long long)coopvecVecTypeGetSize(vec),
          mlirTypeEqual(coopvecVecTypeGetElementType(vec), f16));
  // Invalid parameters give a null type, not a crash.
  // CHECK: size 0: null 1, i32 element: null 1
  fprintf(
      stderr, "size 0: null %d, i32 element: null %d\n",
      mlirTypeIsNull(coopvecVecTypeGet(ctx, 0, f16)),
      mlirTypeIsNull(coopvecVecTypeGet(ctx, 4, mlirIntegerTypeGet(ctx, 32))));
  // Queries on other types answer "not a vec".
  MlirType f32 = mlirF32TypeGet(ctx);
  // CHECK: f32: is vec 0, size -1, element null 1
  fprintf(stderr, "f32: is vec %d, size %lld, element null %d\n",
          coopvecTypeIsAVec(f32), (long long)coopvecVecTypeGetSize(f32),
          mlirTypeIsNull(coopvecVecTypeGetElementType(f32)));
  return 0;
}

static int testMatrixType(MlirContext ctx) {
  // CHECK-LABEL: testMatrixType
  fprintf(stderr, "testMatrixType\n");
  MlirType f16 = mlirF16TypeGet(ctx);
  for (int layout = CoopvecLayoutRowMajor; layout <= CoopvecLayoutTraining;
       ++layout) {
    MlirType matrix =
        coopvecMatrixTypeGet(ctx, 7, 33, f16, (CoopvecLayout)layout);
    if (mlirTypeIsNull(matrix))
      return 1;
    CoopvecLayout roundTrip;
    if (!coopvecMatrixTypeGetLayout(matrix, &roundTrip) ||
        roundTrip != (CoopvecLayout)layout)
      return 2;
    // CHECK: !coopvec.matrix<7 : i64, 33 : i64, f16, "row_major">
    // CHECK: !coopvec.matrix<7 : i64, 33 : i64, f16, "col_major">
    // CHECK: !coopvec.matrix<7 : i64, 33 : i64, f16, "inference">
    // CHECK: !coopvec.matrix<7 : i64, 33 : i64, f16, "training">
    printType(matrix);
  }
  MlirType matrix = coopvecMatrixTypeGet(ctx, 3, 1, mlirF32TypeGet(ctx),
                                         CoopvecLayoutColMajor);
  // CHECK: rows 3 cols 1 f32 1 matrix 1 vec 0
  fprintf(stderr, "rows %lld cols %lld f32 %d matrix %d vec %d\n",
          (long long)coopvecMatrixTypeGetRows(matrix),
          (long long)coopvecMatrixTypeGetCols(matrix),
          mlirTypeIsAF32(coopvecMatrixTypeGetElementType(matrix)),
          coopvecTypeIsAMatrix(matrix), coopvecTypeIsAVec(matrix));
  CoopvecLayout parsed;
  // CHECK: layout names: training 1, bogus 0
  fprintf(
      stderr, "layout names: %s %d, bogus %d\n",
      coopvecLayoutGetName(CoopvecLayoutTraining),
      coopvecLayoutFromName(mlirStringRefCreateFromCString("training"),
                            &parsed) &&
          parsed == CoopvecLayoutTraining,
      coopvecLayoutFromName(mlirStringRefCreateFromCString("bogus"), &parsed));
  // CHECK: zero rows: null 1
  fprintf(stderr, "zero rows: null %d\n",
          mlirTypeIsNull(
              coopvecMatrixTypeGet(ctx, 0, 4, f16, CoopvecLayoutRowMajor)));
  return 0;
}

static int testParseRejectsBadParameters(MlirContext ctx) {
  // CHECK-LABEL: testParseRejectsBadParameters
  fprintf(stderr, "testParseRejectsBadParameters\n");
  int diagnostics = 0;
  MlirDiagnosticHandlerID handler = mlirContextAttachDiagnosticHandler(
      ctx, countDiagnostic, &diagnostics, NULL);
  // IRDL rejects an element type that is not listed.
  MlirType bad = mlirTypeParseGet(
      ctx, mlirStringRefCreateFromCString("!coopvec.vec<4, i32>"));
  mlirContextDetachDiagnosticHandler(ctx, handler);
  // CHECK: i32 vec rejected: 1, diagnostics: 1
  fprintf(stderr, "i32 vec rejected: %d, diagnostics: %d\n",
          mlirTypeIsNull(bad), diagnostics > 0);
  return 0;
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  if (mlirLogicalResultIsFailure(coopvecSetupContext(ctx)))
    return 1;
  int rc = testLoad(ctx);
  if (!rc)
    rc = testVecType(ctx);
  if (!rc)
    rc = testMatrixType(ctx);
  if (!rc)
    rc = testParseRejectsBadParameters(ctx);
  mlirContextDestroy(ctx);
  // CHECK: exit: 0
  fprintf(stderr, "exit: %d\n", rc);
  return rc;
}
