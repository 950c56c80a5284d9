//===- FloatControls.c - The float controls a lowering asks for -----------===//

#include "ExecutionEngine/FloatControls.h"

#include "IR/UpstreamBuilders.h"

bool coopvecUseFloatControl(MlirOperation module, bool float32, bool float16) {
  // The walk only matters when the device lacks the f16 mode.
  return float32 && (float16 || !coopvecHoldsF16(module));
}

bool coopvecUseRoundingModeRTE(MlirOperation module, bool float32, bool float16,
                               bool float64) {
  return float64 && coopvecUseFloatControl(module, float32, float16);
}
