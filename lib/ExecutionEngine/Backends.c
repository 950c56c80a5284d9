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

CoopvecStatus coopvecVulkanCompile(CoopvecEngine *engine);
bool coopvecVulkanIsCompiled(const CoopvecEngine *engine);
CoopvecStatus coopvecVulkanRun(CoopvecFunction *function, int64_t batch,
                               const CoopvecArray *args,
                               const CoopvecArray *results, int numThreads);
void coopvecVulkanDestroy(CoopvecEngine *engine);
CoopvecStatus coopvecVulkanListDevices(CoopvecBuffer *text);

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

#ifdef COOPVEC_HAVE_VULKAN
// Built when the Vulkan headers were found; the loader is loaded with
// dlopen when an engine compiles.
const CoopvecBackend coopvecVulkanBackend = {
    .compile = coopvecVulkanCompile,
    .isCompiled = coopvecVulkanIsCompiled,
    .run = coopvecVulkanRun,
    .destroy = coopvecVulkanDestroy,
};
#endif

static const char kNoVulkanHeaders[] =
    "this build found no Vulkan headers (vulkan/vulkan.h: install "
    "libvulkan-dev and configure again)";

const CoopvecBackend *coopvecGetBackend(CoopvecTarget target,
                                        const char **reason) {
  switch (target) {
  case CoopvecTargetCPU:
    return &coopvecCPUBackend;
  case CoopvecTargetCUDA:
    return &coopvecCUDABackend;
  case CoopvecTargetVulkan:
#ifdef COOPVEC_HAVE_VULKAN
    return &coopvecVulkanBackend;
#else
    *reason = kNoVulkanHeaders;
    return NULL;
#endif
  }
  *reason = "unknown target";
  return NULL;
}

CoopvecStatus coopvecTargetListDevices(CoopvecTarget target,
                                       MlirStringCallback callback,
                                       void *userData) {
  CoopvecBuffer text = {0};
  CoopvecStatus status = CoopvecStatusNoBackend;
#ifdef COOPVEC_HAVE_VULKAN
  if (target == CoopvecTargetVulkan)
    status = coopvecVulkanListDevices(&text);
#endif
  if (status == CoopvecStatusNoBackend)
    coopvecBufferAppendf(&text, "%s: %s", coopvecTargetGetName(target),
                         target == CoopvecTargetVulkan
                             ? kNoVulkanHeaders
                             : "device listing is implemented for the "
                               "vulkan target only");
  if (callback)
    callback(mlirStringRefCreate(coopvecBufferStr(&text), text.size), userData);
  coopvecBufferFree(&text);
  return status;
}
