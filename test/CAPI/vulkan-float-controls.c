//===- vulkan-float-controls.c - The Vulkan lowering's float controls -----===//
//
// Which `signed-zero-inf-nan-preserve` (and, by the same rule,
// `denorm-preserve`) the Vulkan backend lowers with
// (lib/ExecutionEngine/FloatControls.h): true only where the device offers
// the Float32 property (shaderSignedZeroInfNanPreserveFloat32,
// shaderDenormPreserveFloat32), and Float16 too for modules with f16
// values; `rounding-mode-rte` needs shaderRoundingModeRTEFloat64 on top
// (the lowering's f64). lavapipe offers them all, so a device without them
// is only seen here. Includes an internal header: not a test of the embedding
// API.
//
//===----------------------------------------------------------------------===//

// RUN: coopvec-capi-vulkan-float-controls 2>&1 | FileCheck %s

#include "ExecutionEngine/FloatControls.h"
#include "IR/UpstreamBuilders.h"

#include "coopvec-c/Coopvec.h"

#include <stdio.h>

/// Each module has f16 in one place only (the first has none).
static const struct {
  const char *name, *source;
} kModules[] = {
    {"f32", "func.func @f(%x: !coopvec.vec<4, f32>, %w: memref<?xf32>) -> "
            "!coopvec.vec<4, f32> {\n"
            "  return %x : !coopvec.vec<4, f32>\n"
            "}\n"},
    {"op-result",
     "func.func @f(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {\n"
     "  %h = \"coopvec.cast\"(%x) : (!coopvec.vec<2, f32>) -> "
     "!coopvec.vec<2, f16>\n"
     "  %y = \"coopvec.cast\"(%h) : (!coopvec.vec<2, f16>) -> "
     "!coopvec.vec<2, f32>\n"
     "  return %y : !coopvec.vec<2, f32>\n"
     "}\n"},
    {"scalar-argument", "func.func private @f(f16)\n"},
    {"vector-result", "func.func private @f() -> vector<2xf16>\n"},
    {"memref-argument", "func.func private @f(memref<?xf16>)\n"},
    {"vec-argument", "func.func private @f(!coopvec.vec<4, f16>)\n"},
    {"matrix-argument",
     "func.func private @f(!coopvec.matrix<4, 4, f16, \"row_major\">)\n"},
    {"nested", "module {\n"
               "  func.func private @f() -> f32\n"
               "  module {\n"
               "    func.func private @g() -> f16\n"
               "  }\n"
               "}\n"},
};

/// One line per module: whether it holds f16, then P for each device
/// (Float32, Float16) in the order 00 01 10 11, then R for each
/// (Float32, Float16, Float64) in the order 000 001 ... 111.
static int printTable(MlirContext ctx) {
  for (size_t i = 0; i < sizeof(kModules) / sizeof(kModules[0]); ++i) {
    MlirModule module = mlirModuleCreateParse(
        ctx, mlirStringRefCreateFromCString(kModules[i].source));
    if (mlirModuleIsNull(module))
      return 1;
    MlirOperation op = mlirModuleGetOperation(module);
    printf("%s: f16=%d P=", kModules[i].name, coopvecHoldsF16(op));
    for (int device = 0; device < 4; ++device)
      printf("%d", coopvecUseFloatControl(op, device & 2, device & 1));
    printf(" R=");
    for (int device = 0; device < 8; ++device)
      printf("%d",
             coopvecUseRoundingModeRTE(op, device & 4, device & 2, device & 1));
    printf("\n");
    mlirModuleDestroy(module);
  }
  return 0;
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  if (mlirLogicalResultIsFailure(coopvecSetupContext(ctx)))
    return 1;
  // Without Float32 never; with it, f16 modules need Float16 too; R needs
  // Float64 as well.
  // CHECK:      f32: f16=0 P=0011 R=00000101
  // CHECK-NEXT: op-result: f16=1 P=0001 R=00000001
  // CHECK-NEXT: scalar-argument: f16=1 P=0001 R=00000001
  // CHECK-NEXT: vector-result: f16=1 P=0001 R=00000001
  // CHECK-NEXT: memref-argument: f16=1 P=0001 R=00000001
  // CHECK-NEXT: vec-argument: f16=1 P=0001 R=00000001
  // CHECK-NEXT: matrix-argument: f16=1 P=0001 R=00000001
  // CHECK-NEXT: nested: f16=1 P=0001 R=00000001
  int rc = printTable(ctx);
  mlirContextDestroy(ctx);
  return rc;
}
