//===- Math.c - exp2, log2 and tanh on element values ---------------------===//
//
// The math dialect's ops; each target's pipeline lowers them (the CPU: LLVM
// intrinsics and libm, tanh through math-expand-ops).
//
//===----------------------------------------------------------------------===//

#include "Conversion/PerThread/Math.h"

#include "IR/UpstreamBuilders.h"

MlirValue coopvecEmitExp2(CoopvecBuilder *b, MlirValue x) {
  return coopvecBuildUnaryOp(b, "math.exp2", x);
}

MlirValue coopvecEmitLog2(CoopvecBuilder *b, MlirValue x) {
  return coopvecBuildUnaryOp(b, "math.log2", x);
}

MlirValue coopvecEmitTanh(CoopvecBuilder *b, MlirValue x) {
  return coopvecBuildUnaryOp(b, "math.tanh", x);
}
