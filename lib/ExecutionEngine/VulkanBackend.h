//===- VulkanBackend.h - The Vulkan backend's state (internal) ----*- C -*-===//
//
// What VulkanBackend.c (device, lowering, pipelines) leaves for
// VulkanRun.c (buffers, descriptor sets, dispatch): the device and what it
// offers, and one compute pipeline per kernel with the storage buffers its
// SPIR-V declares (SPIRVReflect.c).
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_EXECUTIONENGINE_VULKANBACKEND_H
#define COOPVEC_LIB_EXECUTIONENGINE_VULKANBACKEND_H

#include "ExecutionEngine/Engine.h"
#include "ExecutionEngine/SPIRVReflect.h"
#include "ExecutionEngine/VulkanCooperativeMatrix.h"
#include "ExecutionEngine/VulkanLoader.h"

/// A physical device and what it offers, read before anything is lowered
/// (the lowering's options depend on it).
typedef struct CoopvecVulkanDevice {
  VkPhysicalDevice physical;
  VkPhysicalDeviceProperties2 properties;
  VkPhysicalDeviceSubgroupProperties subgroup;
  VkPhysicalDeviceSubgroupSizeControlProperties sizeControl;
  VkPhysicalDeviceVulkan12Properties properties12; // the float controls
  // The feature chain, passed as it is to vkCreateDevice: every feature
  // the device has is enabled.
  VkPhysicalDeviceFeatures2 features;
  VkPhysicalDeviceVulkan11Features features11;
  VkPhysicalDeviceVulkan12Features features12;
  VkPhysicalDeviceVulkan13Features features13;
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomicFloat;
  CoopvecVkCooperativeMatrixFeatures cooperativeMatrix;
  uint32_t apiVersion; // the device's, capped at the instance's
  bool hasAtomicFloat, hasCooperativeMatrix; // the extensions
  bool f16CooperativeShape; // 16x16x16 f16 x f16 + f32, subgroup scope
  int64_t queueFamily;      // with compute; -1 if none
  uint32_t timestampBits;   // of that family; 0: no timestamps
} CoopvecVulkanDevice;

typedef struct CoopvecVulkanKernel {
  char *name; // "<f>_kernel", the SPIR-V entry point
  uint32_t blockSize;
  CoopvecSPIRVBinding *bindings; // by argument index
  int numBindings;
  VkDescriptorSetLayout setLayout;
  VkPipelineLayout pipelineLayout;
  VkPipeline pipeline;
} CoopvecVulkanKernel;

typedef struct CoopvecVulkanState {
  CoopvecVulkanAPI api;
  CoopvecVulkanDevice device;
  int deviceIndex;
  VkQueue queue;
  VkPhysicalDeviceMemoryProperties memory;
  VkShaderModule shader;
  CoopvecVulkanKernel *kernels;
  intptr_t numKernels;
  bool compiled;
} CoopvecVulkanState;

/// Sets the engine's message to "Vulkan: <call> failed: VK_ERROR_X" and
/// returns OutOfMemory for the out-of-memory results, else `otherwise`.
CoopvecStatus coopvecVulkanFail(CoopvecEngine *engine, VkResult result,
                                const char *call, CoopvecStatus otherwise);

/// Reads what physical device `physical` offers.
void coopvecVulkanDescribe(const CoopvecVulkanAPI *api,
                           VkPhysicalDevice physical,
                           CoopvecVulkanDevice *device);

#endif // COOPVEC_LIB_EXECUTIONENGINE_VULKANBACKEND_H
