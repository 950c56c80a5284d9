//===- runtime-helpers.c - C API: dtypes, arrays, f16 conversions ---------===//

// RUN: coopvec-capi-runtime-helpers 2>&1 | FileCheck %s

#include "coopvec-c/Dialect.h"
#include "coopvec-c/HostArray.h"
#include "coopvec-c/Npy.h"

#include <mlir-c/BuiltinTypes.h>

#include <stdio.h>

int main(void) {
  // CHECK: sizes: f16 2, f32 4, f64 8
  fprintf(stderr, "sizes: f16 %lld, f32 %lld, f64 %lld\n",
          (long long)coopvecDTypeGetSize(CoopvecDTypeF16),
          (long long)coopvecDTypeGetSize(CoopvecDTypeF32),
          (long long)coopvecDTypeGetSize(CoopvecDTypeF64));
  // npy stores every dtype: floats, i64 (index and offset arguments), i32
  // and i8 (memrefs of per-thread programs), each under one name.
  // CHECK: npy: f16 <f2, f32 <f4, f64 <f8, i64 <i8, i32 <i4, i8 |i1
  fprintf(stderr, "npy: f16 %s, f32 %s, f64 %s, i64 %s, i32 %s, i8 %s\n",
          coopvecNpyDescr(CoopvecDTypeF16), coopvecNpyDescr(CoopvecDTypeF32),
          coopvecNpyDescr(CoopvecDTypeF64), coopvecNpyDescr(CoopvecDTypeI64),
          coopvecNpyDescr(CoopvecDTypeI32), coopvecNpyDescr(CoopvecDTypeI8));
  // CHECK: npy supported: 1 1 1 1 1 1
  fprintf(stderr, "npy supported: %d %d %d %d %d %d\n",
          coopvecNpyIsSupportedDType(CoopvecDTypeF16),
          coopvecNpyIsSupportedDType(CoopvecDTypeF32),
          coopvecNpyIsSupportedDType(CoopvecDTypeF64),
          coopvecNpyIsSupportedDType(CoopvecDTypeI64),
          coopvecNpyIsSupportedDType(CoopvecDTypeI32),
          coopvecNpyIsSupportedDType(CoopvecDTypeI8));

  // 1 + 2^-11 is halfway between 1 and the next half (1 + 2^-10): ties go
  // to even, i.e. down to 1.0 (0x3c00); 65520 overflows to +inf (0x7c00).
  // CHECK: half: 0x3c00 0x3c00 0x3c01 0x7c00 -2.5
  fprintf(stderr, "half: 0x%04x 0x%04x 0x%04x 0x%04x %g\n",
          coopvecFloatToHalf(1.0f), coopvecFloatToHalf(1.0f + 0x1p-11f),
          coopvecFloatToHalf(1.0f + 0x1.8p-11f), coopvecFloatToHalf(65520.0f),
          (double)coopvecHalfToFloat(0xc100));

  // Arrays convert on access: an f16 array rounds what it stores.
  uint16_t halves[2] = {0, 0};
  CoopvecArray array = {halves, CoopvecDTypeF16, 2};
  coopvecArraySet(&array, 0, 0.1);
  coopvecArraySet(&array, 1, -3.0);
  // CHECK: f16 array: 0.0999755859375 -3 raw 0x2e66
  fprintf(stderr, "f16 array: %.13g %g raw 0x%04x\n",
          coopvecArrayGet(&array, 0), coopvecArrayGet(&array, 1), halves[0]);

  MlirContext ctx = mlirContextCreate();
  if (mlirLogicalResultIsFailure(coopvecSetupContext(ctx)))
    return 1;
  // CHECK: element types: f16 1, f32 1, bf16 0, i8 0
  fprintf(stderr, "element types: f16 %d, f32 %d, bf16 %d, i8 %d\n",
          coopvecIsSupportedElementType(mlirF16TypeGet(ctx)),
          coopvecIsSupportedElementType(mlirF32TypeGet(ctx)),
          coopvecIsSupportedElementType(mlirBF16TypeGet(ctx)),
          coopvecIsSupportedElementType(mlirIntegerTypeGet(ctx, 8)));
  mlirContextDestroy(ctx);
  return 0;
}
