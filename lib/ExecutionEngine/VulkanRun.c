//===- VulkanRun.c - The Vulkan backend: one dispatch per run -------------===//
//
// The kernel ABI (docs/execution-model.md, "The Vulkan kernel ABI"): the
// storage buffer named `<f>_kernel_arg_<i>` holds argument i of
// `@f_kernel(%n, args..., results...)`: %n and every scalar argument as a
// buffer of one element (index as the kernel's integer type, 32 bits by
// default), vecs as n * N elements and memrefs as they are.
//
// A run creates one host-visible, coherent buffer per bound argument
// (every Vulkan device has such memory; the transfers are then plain
// copies), a descriptor set, and one command buffer that dispatches
// ceil(n / B) workgroups (in chunks of the device's largest workgroup
// count, with vkCmdDispatchBase so that WorkgroupId keeps counting) between
// two timestamps. It waits on a fence, copies the results and the memrefs
// the function may write back, and frees everything, also on failure:
// nothing is copied back unless the kernel completed.
//
//===----------------------------------------------------------------------===//

#include "ExecutionEngine/VulkanBackend.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// A buffer of one binding.
typedef struct Slot {
  VkBuffer buffer;
  VkDeviceMemory memory;
  void *mapped;
  VkDeviceSize bytes;
} Slot;

typedef struct Dispatch {
  CoopvecFunction *function;
  CoopvecVulkanState *state;
  const CoopvecVulkanKernel *kernel;
  const CoopvecArray *args, *results;
  int64_t n;
  Slot *slots; // per binding of the kernel
  VkDescriptorPool descriptorPool;
  VkCommandPool commandPool;
  VkQueryPool queryPool;
  VkFence fence;
} Dispatch;

static CoopvecStatus fail(Dispatch *dispatch, VkResult result,
                          const char *call) {
  return coopvecVulkanFail(dispatch->function->engine, result, call,
                           CoopvecStatusDeviceError);
}

/// The array of kernel argument `argIndex` (0 is %n: NULL) and its info.
static const CoopvecArray *arrayOf(const Dispatch *dispatch, int argIndex,
                                   const CoopvecValueInfo **info) {
  const CoopvecFunction *function = dispatch->function;
  intptr_t index = argIndex - 1;
  if (index < 0)
    return NULL;
  if (index < function->numArgs) {
    *info = &function->args[index];
    return &dispatch->args[index];
  }
  *info = &function->results[index - function->numArgs];
  return &dispatch->results[index - function->numArgs];
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

static int64_t memoryType(const CoopvecVulkanState *state, uint32_t allowed) {
  VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                 VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  for (uint32_t i = 0; i < state->memory.memoryTypeCount; ++i)
    if ((allowed & (1u << i)) &&
        (state->memory.memoryTypes[i].propertyFlags & wanted) == wanted)
      return i;
  return -1;
}

static CoopvecStatus createSlot(Dispatch *dispatch, Slot *slot,
                                VkDeviceSize bytes) {
  const CoopvecVulkanAPI *api = &dispatch->state->api;
  // Storage buffers are read in 4-byte words; none may be empty.
  slot->bytes = bytes < 4 ? 4 : (bytes + 3) / 4 * 4;
  VkBufferCreateInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = slot->bytes,
                             .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
  VkResult result =
      api->vkCreateBuffer(api->device, &info, NULL, &slot->buffer);
  if (result != VK_SUCCESS) {
    slot->buffer = VK_NULL_HANDLE;
    return fail(dispatch, result, "vkCreateBuffer");
  }
  VkMemoryRequirements needs;
  api->vkGetBufferMemoryRequirements(api->device, slot->buffer, &needs);
  int64_t type = memoryType(dispatch->state, needs.memoryTypeBits);
  if (type < 0)
    return coopvecEngineFail(dispatch->function->engine,
                             CoopvecStatusDeviceError,
                             "Vulkan: the device has no host-visible, "
                             "coherent memory for storage buffers");
  VkMemoryAllocateInfo allocation = {.sType =
                                         VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                     .allocationSize = needs.size,
                                     .memoryTypeIndex = (uint32_t)type};
  result = api->vkAllocateMemory(api->device, &allocation, NULL, &slot->memory);
  if (result != VK_SUCCESS) {
    slot->memory = VK_NULL_HANDLE;
    return fail(dispatch, result, "vkAllocateMemory");
  }
  result = api->vkBindBufferMemory(api->device, slot->buffer, slot->memory, 0);
  if (result == VK_SUCCESS)
    result = api->vkMapMemory(api->device, slot->memory, 0, VK_WHOLE_SIZE, 0,
                              &slot->mapped);
  if (result != VK_SUCCESS)
    return fail(dispatch, result, "vkMapMemory");
  memset(slot->mapped, 0, slot->bytes);
  return CoopvecStatusSuccess;
}

/// Writes an integer into a scalar buffer of `bits` bits, if it fits.
static bool storeInteger(void *to, uint32_t bits, int64_t value) {
  if (bits == 64) {
    memcpy(to, &value, 8);
    return true;
  }
  if (bits != 32 || value < INT32_MIN || value > INT32_MAX)
    return false;
  int32_t narrow = (int32_t)value;
  memcpy(to, &narrow, 4);
  return true;
}

static int64_t integerOf(const CoopvecArray *array) {
  switch (array->dtype) {
  case CoopvecDTypeI8:
    return *(const int8_t *)array->data;
  case CoopvecDTypeI32:
    return *(const int32_t *)array->data;
  default:
    return *(const int64_t *)array->data;
  }
}

/// Fills a scalar buffer: floats as they are, integers in the kernel's
/// width (index is 32 bits unless the kernel was lowered with 64).
static bool storeScalar(void *to, const CoopvecSPIRVBinding *binding,
                        const CoopvecArray *array) {
  CoopvecDType dtype = array->dtype;
  bool isFloat = dtype == CoopvecDTypeF16 || dtype == CoopvecDTypeF32 ||
                 dtype == CoopvecDTypeF64;
  if (isFloat != binding->isFloat)
    return false;
  if (!isFloat)
    return storeInteger(to, binding->elementBits, integerOf(array));
  if ((int64_t)binding->elementBits != 8 * coopvecDTypeGetSize(dtype))
    return false;
  memcpy(to, array->data, binding->elementBits / 8);
  return true;
}

static CoopvecStatus refuseBinding(Dispatch *dispatch,
                                   const CoopvecSPIRVBinding *binding,
                                   const CoopvecValueInfo *info,
                                   const char *why) {
  return coopvecEngineFail(
      dispatch->function->engine, CoopvecStatusCompileError,
      "Vulkan: argument %d of %s (%s of @%s) %s: its storage buffer holds "
      "%u-bit %s",
      binding->argIndex, dispatch->kernel->name, info ? info->type : "index",
      dispatch->function->name, why, binding->elementBits,
      binding->isFloat ? "floats" : "integers");
}

/// Whether binding `binding` is the status buffer of a kernel that checks
/// accesses at run time: the argument after the results (Status.c).
static bool isStatus(const Dispatch *dispatch,
                     const CoopvecSPIRVBinding *binding) {
  const CoopvecFunction *function = dispatch->function;
  return binding->argIndex == 1 + function->numArgs + function->numResults &&
         coopvecEngineChecksOf(function->engine, function->name);
}

/// The status buffer: no access yet, and the sizes of the kernel's
/// arguments (Status.c).
static CoopvecStatus uploadStatus(Dispatch *dispatch, Slot *slot) {
  const CoopvecFunction *function = dispatch->function;
  intptr_t words = 3 + function->numArgs + function->numResults;
  CoopvecStatus status =
      createSlot(dispatch, slot, (VkDeviceSize)words * sizeof(int64_t));
  if (status)
    return status;
  int64_t *status64 = slot->mapped;
  status64[1] = INT64_MAX;
  for (intptr_t i = 1; i < words - 2; ++i) {
    const CoopvecValueInfo *info = NULL;
    const CoopvecArray *array = arrayOf(dispatch, (int)i, &info);
    status64[2 + i] = array ? array->size : 0;
  }
  return CoopvecStatusSuccess;
}

/// Creates the binding's buffer and copies its argument in.
static CoopvecStatus upload(Dispatch *dispatch, int index) {
  const CoopvecSPIRVBinding *binding = &dispatch->kernel->bindings[index];
  const CoopvecFunction *function = dispatch->function;
  if (isStatus(dispatch, binding))
    return uploadStatus(dispatch, &dispatch->slots[index]);
  if (binding->argIndex > function->numArgs + function->numResults)
    return coopvecEngineFail(function->engine, CoopvecStatusCompileError,
                             "Vulkan: %s has a storage buffer for argument "
                             "%d; @%s has %ld arguments and %ld results",
                             dispatch->kernel->name, binding->argIndex,
                             function->name, (long)function->numArgs,
                             (long)function->numResults);
  const CoopvecValueInfo *info = NULL;
  const CoopvecArray *array = arrayOf(dispatch, binding->argIndex, &info);
  Slot *slot = &dispatch->slots[index];
  bool scalar = !array || info->kind == CoopvecValueKindScalar;
  if (scalar != (binding->shape == CoopvecSPIRVScalar))
    return refuseBinding(dispatch, binding, info, "is not passed as declared");
  if (!scalar &&
      (int64_t)binding->elementBits != 8 * coopvecDTypeGetSize(array->dtype))
    return refuseBinding(dispatch, binding, info, "has another element size");
  // The kernels index their buffers with 32-bit integers.
  if (!scalar && array->size > INT32_MAX)
    return coopvecEngineFail(
        function->engine, CoopvecStatusInvalidArgument,
        "Vulkan: argument %d of %s (%s of @%s) holds %lld elements; the "
        "kernels index at most 2^31-1",
        binding->argIndex, dispatch->kernel->name, info->type, function->name,
        (long long)array->size);
  VkDeviceSize bytes =
      scalar ? binding->elementBits / 8
             : (VkDeviceSize)array->size *
                   (VkDeviceSize)coopvecDTypeGetSize(array->dtype);
  CoopvecStatus status = createSlot(dispatch, slot, bytes);
  if (status)
    return status;
  if (!array)
    return storeInteger(slot->mapped, binding->elementBits, dispatch->n)
               ? CoopvecStatusSuccess
               : refuseBinding(dispatch, binding, NULL,
                               "cannot hold the batch size");
  if (scalar)
    return storeScalar(slot->mapped, binding, array)
               ? CoopvecStatusSuccess
               : refuseBinding(dispatch, binding, info,
                               "cannot hold the value given");
  if (binding->argIndex <= dispatch->function->numArgs)
    memcpy(slot->mapped, array->data, bytes);
  return CoopvecStatusSuccess;
}

/// The run's out-of-bounds accesses, from the status buffer if any.
static CoopvecStatus reportStatus(Dispatch *dispatch) {
  for (int i = 0; i < dispatch->kernel->numBindings; ++i) {
    if (!isStatus(dispatch, &dispatch->kernel->bindings[i]))
      continue;
    const int64_t *status = dispatch->slots[i].mapped;
    return coopvecEngineReportAccesses(dispatch->function, status[0],
                                       status[1]);
  }
  return CoopvecStatusSuccess;
}

/// Copies a result, or a memref the function may write, back.
static void download(Dispatch *dispatch, int index) {
  const CoopvecSPIRVBinding *binding = &dispatch->kernel->bindings[index];
  if (isStatus(dispatch, binding))
    return;
  const CoopvecValueInfo *info = NULL;
  const CoopvecArray *array = arrayOf(dispatch, binding->argIndex, &info);
  bool isResult = binding->argIndex > dispatch->function->numArgs;
  if (!array ||
      !(isResult || (info->kind == CoopvecValueKindMemRef && info->written)))
    return;
  memcpy(array->data, dispatch->slots[index].mapped,
         (size_t)array->size * (size_t)coopvecDTypeGetSize(array->dtype));
}

//===----------------------------------------------------------------------===//
// The descriptor set and the commands
//===----------------------------------------------------------------------===//

static CoopvecStatus bindSlots(Dispatch *dispatch, VkDescriptorSet *set) {
  const CoopvecVulkanAPI *api = &dispatch->state->api;
  const CoopvecVulkanKernel *kernel = dispatch->kernel;
  uint32_t count = (uint32_t)kernel->numBindings;
  VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                               count ? count : 1};
  VkDescriptorPoolCreateInfo pool = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
      .maxSets = 1,
      .poolSizeCount = 1,
      .pPoolSizes = &size};
  VkResult result = api->vkCreateDescriptorPool(api->device, &pool, NULL,
                                                &dispatch->descriptorPool);
  if (result != VK_SUCCESS) {
    dispatch->descriptorPool = VK_NULL_HANDLE;
    return fail(dispatch, result, "vkCreateDescriptorPool");
  }
  VkDescriptorSetAllocateInfo allocation = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
      .descriptorPool = dispatch->descriptorPool,
      .descriptorSetCount = 1,
      .pSetLayouts = &kernel->setLayout};
  result = api->vkAllocateDescriptorSets(api->device, &allocation, set);
  if (result != VK_SUCCESS)
    return fail(dispatch, result, "vkAllocateDescriptorSets");
  VkDescriptorBufferInfo *buffers =
      calloc(count + 1, sizeof(VkDescriptorBufferInfo));
  VkWriteDescriptorSet *writes =
      calloc(count + 1, sizeof(VkWriteDescriptorSet));
  for (uint32_t i = 0; buffers && writes && i < count; ++i) {
    buffers[i] =
        (VkDescriptorBufferInfo){dispatch->slots[i].buffer, 0, VK_WHOLE_SIZE};
    writes[i] = (VkWriteDescriptorSet){
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = *set,
        .dstBinding = kernel->bindings[i].binding,
        .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
        .pBufferInfo = &buffers[i]};
  }
  if (buffers && writes)
    api->vkUpdateDescriptorSets(api->device, count, writes, 0, NULL);
  bool allocated = buffers && writes;
  free(buffers);
  free(writes);
  return allocated
             ? CoopvecStatusSuccess
             : coopvecEngineFail(dispatch->function->engine,
                                 CoopvecStatusOutOfMemory, "out of memory");
}

/// Records ceil(n / B) workgroups between two timestamps (when the queue
/// has them).
static void recordDispatch(Dispatch *dispatch, VkCommandBuffer commands,
                           VkDescriptorSet set) {
  const CoopvecVulkanAPI *api = &dispatch->state->api;
  const CoopvecVulkanKernel *kernel = dispatch->kernel;
  uint32_t maxGroups = dispatch->state->device.properties.properties.limits
                           .maxComputeWorkGroupCount[0];
  int64_t groups = (dispatch->n - 1) / kernel->blockSize + 1;
  if (dispatch->queryPool) {
    api->vkCmdResetQueryPool(commands, dispatch->queryPool, 0, 2);
    api->vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                             dispatch->queryPool, 0);
  }
  api->vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                         kernel->pipeline);
  api->vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                               kernel->pipelineLayout, 0, 1, &set, 0, NULL);
  for (int64_t base = 0; base < groups; base += maxGroups) {
    int64_t count = groups - base < maxGroups ? groups - base : maxGroups;
    api->vkCmdDispatchBase(commands, (uint32_t)base, 0, 0, (uint32_t)count, 1,
                           1);
  }
  if (dispatch->queryPool)
    api->vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                             dispatch->queryPool, 1);
}

static CoopvecStatus createCommands(Dispatch *dispatch,
                                    VkCommandBuffer *commands) {
  const CoopvecVulkanAPI *api = &dispatch->state->api;
  VkCommandPoolCreateInfo pool = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
      .queueFamilyIndex = (uint32_t)dispatch->state->device.queueFamily};
  VkResult result = api->vkCreateCommandPool(api->device, &pool, NULL,
                                             &dispatch->commandPool);
  if (result != VK_SUCCESS) {
    dispatch->commandPool = VK_NULL_HANDLE;
    return fail(dispatch, result, "vkCreateCommandPool");
  }
  VkCommandBufferAllocateInfo allocation = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .commandPool = dispatch->commandPool,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = 1};
  result = api->vkAllocateCommandBuffers(api->device, &allocation, commands);
  if (result != VK_SUCCESS)
    return fail(dispatch, result, "vkAllocateCommandBuffers");
  if (!dispatch->state->device.timestampBits)
    return CoopvecStatusSuccess;
  VkQueryPoolCreateInfo queries = {.sType =
                                       VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                   .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                   .queryCount = 2};
  result =
      api->vkCreateQueryPool(api->device, &queries, NULL, &dispatch->queryPool);
  if (result == VK_SUCCESS)
    return CoopvecStatusSuccess;
  dispatch->queryPool = VK_NULL_HANDLE;
  return fail(dispatch, result, "vkCreateQueryPool");
}

/// The device's seconds between the two timestamps; -1 without them.
static double kernelSeconds(Dispatch *dispatch) {
  const CoopvecVulkanAPI *api = &dispatch->state->api;
  const CoopvecVulkanDevice *device = &dispatch->state->device;
  uint64_t ticks[2];
  if (!dispatch->queryPool ||
      api->vkGetQueryPoolResults(api->device, dispatch->queryPool, 0, 2,
                                 sizeof(ticks), ticks, sizeof(uint64_t),
                                 VK_QUERY_RESULT_64_BIT |
                                     VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS)
    return -1;
  uint64_t mask = device->timestampBits >= 64
                      ? UINT64_MAX
                      : (UINT64_C(1) << device->timestampBits) - 1;
  uint64_t elapsed = (ticks[1] - ticks[0]) & mask;
  return 1e-9 * (double)elapsed *
         (double)device->properties.properties.limits.timestampPeriod;
}

static CoopvecStatus submit(Dispatch *dispatch) {
  const CoopvecVulkanAPI *api = &dispatch->state->api;
  VkDescriptorSet set = VK_NULL_HANDLE;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  CoopvecStatus status = bindSlots(dispatch, &set);
  if (!status)
    status = createCommands(dispatch, &commands);
  if (status)
    return status;
  VkCommandBufferBeginInfo begin = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
      .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
  VkResult result = api->vkBeginCommandBuffer(commands, &begin);
  if (result != VK_SUCCESS)
    return fail(dispatch, result, "vkBeginCommandBuffer");
  recordDispatch(dispatch, commands, set);
  result = api->vkEndCommandBuffer(commands);
  if (result != VK_SUCCESS)
    return fail(dispatch, result, "vkEndCommandBuffer");
  VkFenceCreateInfo fence = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  result = api->vkCreateFence(api->device, &fence, NULL, &dispatch->fence);
  if (result != VK_SUCCESS) {
    dispatch->fence = VK_NULL_HANDLE;
    return fail(dispatch, result, "vkCreateFence");
  }
  VkSubmitInfo info = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                       .commandBufferCount = 1,
                       .pCommandBuffers = &commands};
  result =
      api->vkQueueSubmit(dispatch->state->queue, 1, &info, dispatch->fence);
  if (result != VK_SUCCESS)
    return fail(dispatch, result, "vkQueueSubmit");
  // Faults inside the kernel surface here (VK_ERROR_DEVICE_LOST).
  result = api->vkWaitForFences(api->device, 1, &dispatch->fence, VK_TRUE,
                                UINT64_MAX);
  if (result != VK_SUCCESS)
    return fail(dispatch, result, "the kernel (vkWaitForFences)");
  dispatch->function->engine->deviceSeconds = kernelSeconds(dispatch);
  return CoopvecStatusSuccess;
}

//===----------------------------------------------------------------------===//
// The run
//===----------------------------------------------------------------------===//

static void freeDispatch(Dispatch *dispatch) {
  const CoopvecVulkanAPI *api = &dispatch->state->api;
  if (dispatch->fence)
    api->vkDestroyFence(api->device, dispatch->fence, NULL);
  if (dispatch->queryPool)
    api->vkDestroyQueryPool(api->device, dispatch->queryPool, NULL);
  if (dispatch->commandPool)
    api->vkDestroyCommandPool(api->device, dispatch->commandPool, NULL);
  if (dispatch->descriptorPool)
    api->vkDestroyDescriptorPool(api->device, dispatch->descriptorPool, NULL);
  for (int i = 0; dispatch->slots && i < dispatch->kernel->numBindings; ++i) {
    Slot *slot = &dispatch->slots[i];
    if (slot->buffer)
      api->vkDestroyBuffer(api->device, slot->buffer, NULL);
    if (slot->memory) // unmapped with it
      api->vkFreeMemory(api->device, slot->memory, NULL);
  }
  free(dispatch->slots);
}

static const CoopvecVulkanKernel *findKernel(CoopvecFunction *function) {
  CoopvecVulkanState *state = function->engine->backendState;
  size_t length = strlen(function->name);
  for (intptr_t i = 0; i < state->numKernels; ++i) {
    const char *name = state->kernels[i].name;
    if (strncmp(name, function->name, length) == 0 &&
        strcmp(name + length, "_kernel") == 0)
      return &state->kernels[i];
  }
  return NULL;
}

CoopvecStatus coopvecVulkanRun(CoopvecFunction *function, int64_t batch,
                               const CoopvecArray *args,
                               const CoopvecArray *results, int numThreads) {
  (void)numThreads; // host threads do not apply: the device runs the batch
  CoopvecEngine *engine = function->engine;
  engine->deviceSeconds = -1;
  const CoopvecVulkanKernel *kernel = findKernel(function);
  if (!kernel)
    return coopvecEngineFail(engine, CoopvecStatusNotFound,
                             "the lowered module has no kernel @%s_kernel",
                             function->name);
  if (batch == 0) // the contract: no dispatch for n = 0
    return CoopvecStatusSuccess;
  if (batch > INT32_MAX)
    return coopvecEngineFail(engine, CoopvecStatusInvalidArgument,
                             "Vulkan: a batch of %lld threads; the kernels "
                             "count threads in 32 bits (at most %d)",
                             (long long)batch, INT32_MAX);
  Dispatch dispatch = {.function = function,
                       .state = engine->backendState,
                       .kernel = kernel,
                       .args = args,
                       .results = results,
                       .n = batch};
  dispatch.slots = calloc((size_t)kernel->numBindings + 1, sizeof(Slot));
  if (!dispatch.slots)
    return coopvecEngineFail(engine, CoopvecStatusOutOfMemory, "out of memory");
  CoopvecStatus status = CoopvecStatusSuccess;
  for (int i = 0; !status && i < kernel->numBindings; ++i)
    status = upload(&dispatch, i);
  if (!status)
    status = submit(&dispatch);
  for (int i = 0; !status && i < kernel->numBindings; ++i)
    download(&dispatch, i);
  if (!status)
    status = reportStatus(&dispatch);
  freeDispatch(&dispatch);
  return status;
}
