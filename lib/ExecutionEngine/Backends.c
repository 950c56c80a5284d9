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

CoopvecStatus coopvecCUDACompile(CoopvecEngine *engine);
bool coopvecCUDAIsCompiled(const CoopvecEngine *engine);
CoopvecStatus coopvecCUDARun(CoopvecFunction *function, int64_t batch,
                             const CoopvecArray *args,
                             const CoopvecArray *results, int numThreads);
void coopvecCUDADestroy(CoopvecEngine *engine);

const CoopvecBackend coopvecCPUBackend = {
    .compile = coopvecCPUCompile,
    .isCompiled = coopvecCPUIsCompiled,
    .run = coopvecCPURun,
    .destroy = coopvecCPUDestroy,
};

// Always built: the driver is loaded with dlopen when an engine compiles.
const CoopvecBackend coopvecCUDABackend = {
    .compile = coopvecCUDACompile,
    .isCompiled = coopvecCUDAIsCompiled,
    .run = coopvecCUDARun,
    .destroy = coopvecCUDADestroy,
};

const CoopvecBackend *coopvecGetBackend(CoopvecTarget target,
                                        const char **reason) {
  switch (target) {
  case CoopvecTargetCPU:
    return &coopvecCPUBackend;
  case CoopvecTargetCUDA:
    return &coopvecCUDABackend;
  case CoopvecTargetVulkan:
    *reason = "not implemented yet";
    return NULL;
  }
  *reason = "unknown target";
  return NULL;
}
