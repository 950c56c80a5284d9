//===- FloatControls.h - The float controls a lowering asks for ---*- C -*-===//
//
// The Vulkan backend lowers with `signed-zero-inf-nan-preserve=P`,
// `denorm-preserve=D` and `rounding-mode-rte=R` (docs/execution-model.md):
// with P true every entry point gets `SignedZeroInfNanPreserve 32`, and
// `16` when the module has f16 values (D: `DenormPreserve` likewise; R:
// `RoundingModeRTE`, and `64` for the f64 the lowering makes),
// which the device must offer or the module is refused (checkFloatControls
// in VulkanBackend.c). Deciding P from what the device offers keeps the
// default pipeline runnable on devices without them. The decision has no
// Vulkan types, so it builds without the Vulkan headers and is tested
// directly (test/CAPI/vulkan-float-controls.c): lavapipe offers the float
// controls, so the "device lacks them" path never runs in the suite.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_EXECUTIONENGINE_FLOATCONTROLS_H
#define COOPVEC_LIB_EXECUTIONENGINE_FLOATCONTROLS_H

#include <mlir-c/IR.h>

#include <stdbool.h>

/// Whether to lower `module` asking for a float control (the
/// signed-zero-inf-nan-preserve or denorm-preserve option) on a device
/// whose property for it (shaderSignedZeroInfNanPreserveFloat32 / Float16,
/// shaderDenormPreserveFloat32 / Float16) is `float32` / `float16`: it
/// needs `float32`, and `float16` too when the module holds f16 values
/// (coopvecHoldsF16).
bool coopvecUseFloatControl(MlirOperation module, bool float32, bool float16);

/// Whether to lower `module` with rounding-mode-rte=true on a device whose
/// shaderRoundingModeRTEFloat32 / Float16 / Float64 are `float32` /
/// `float16` / `float64`: coopvecUseFloatControl's rule, and `float64`
/// always, since the lowering computes f32 fmas in f64 (which `module`
/// does not show yet).
bool coopvecUseRoundingModeRTE(MlirOperation module, bool float32, bool float16,
                               bool float64);

#endif // COOPVEC_LIB_EXECUTIONENGINE_FLOATCONTROLS_H
