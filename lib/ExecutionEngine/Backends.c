//===- Backends.c - Which backend runs each target ------------------------===//
//
// A target's backend compiles and runs; see CoopvecBackend in Engine.h.
// Backends that depend on a library found at build time register here
// only when it was.
//
//===----------------------------------------------------------------------===//

#include "ExecutionEngine/Engine.h"

CoopvecStatus coopvecCPUCompile(CoopvecEngine *engine);
bool coopvecCPUIsCompiled(const CoopvecEngine *engine);
CoopvecStatus coopvecCPURun(CoopvecFunction *function, int64_t batch,
                            const CoopvecArray *args,
                            const CoopvecArray *results, int numThreads);
void coopvecCPUDestroy(CoopvecEngine *engine);

const CoopvecBackend coopvecCPUBackend = {
    .compile = coopvecCPUCompile,
    .isCompiled = coopvecCPUIsCompiled,
    .run = coopvecCPURun,
    .destroy = coopvecCPUDestroy,
};

const CoopvecBackend *coopvecGetBackend(CoopvecTarget target,
                                        const char **reason) {
  switch (target) {
  case CoopvecTargetCPU:
    return &coopvecCPUBackend;
  case CoopvecTargetCUDA:
    *reason = "not implemented yet";
    return NULL;
  case CoopvecTargetVulkan:
    *reason = "not implemented yet";
    return NULL;
  }
  *reason = "unknown target";
  return NULL;
}
