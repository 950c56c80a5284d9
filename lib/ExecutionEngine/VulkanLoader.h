//===- VulkanLoader.h - The Vulkan API, loaded at run time --------*- C -*-===//
//
// The Vulkan backend calls the loader through `dlopen("libvulkan.so.1")`
// and vkGetInstanceProcAddr / vkGetDeviceProcAddr, so nothing links against
// it: binaries run, and say why the target cannot, on machines without a
// loader. The types come from the Vulkan headers (libvulkan-dev) with
// VK_NO_PROTOTYPES: only the entry points listed here are used.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_EXECUTIONENGINE_VULKANLOADER_H
#define COOPVEC_LIB_EXECUTIONENGINE_VULKANLOADER_H

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include "coopvec-c/Support.h"

#include <stdbool.h>

/// Entry points resolved with vkGetInstanceProcAddr(instance, ...).
#define COOPVEC_VULKAN_INSTANCE_FUNCTIONS(X)                                   \
  X(vkDestroyInstance)                                                         \
  X(vkEnumeratePhysicalDevices)                                                \
  X(vkGetPhysicalDeviceProperties2)                                            \
  X(vkGetPhysicalDeviceFeatures2)                                              \
  X(vkGetPhysicalDeviceQueueFamilyProperties)                                  \
  X(vkGetPhysicalDeviceMemoryProperties)                                       \
  X(vkEnumerateDeviceExtensionProperties)                                      \
  X(vkCreateDevice)                                                            \
  X(vkGetDeviceProcAddr)

/// Entry points resolved with vkGetDeviceProcAddr(device, ...).
#define COOPVEC_VULKAN_DEVICE_FUNCTIONS(X)                                     \
  X(vkDestroyDevice)                                                           \
  X(vkGetDeviceQueue)                                                          \
  X(vkCreateBuffer)                                                            \
  X(vkDestroyBuffer)                                                           \
  X(vkGetBufferMemoryRequirements)                                             \
  X(vkAllocateMemory)                                                          \
  X(vkFreeMemory)                                                              \
  X(vkBindBufferMemory)                                                        \
  X(vkMapMemory)                                                               \
  X(vkUnmapMemory)                                                             \
  X(vkCreateShaderModule)                                                      \
  X(vkDestroyShaderModule)                                                     \
  X(vkCreateDescriptorSetLayout)                                               \
  X(vkDestroyDescriptorSetLayout)                                              \
  X(vkCreatePipelineLayout)                                                    \
  X(vkDestroyPipelineLayout)                                                   \
  X(vkCreateComputePipelines)                                                  \
  X(vkDestroyPipeline)                                                         \
  X(vkCreateDescriptorPool)                                                    \
  X(vkDestroyDescriptorPool)                                                   \
  X(vkAllocateDescriptorSets)                                                  \
  X(vkUpdateDescriptorSets)                                                    \
  X(vkCreateCommandPool)                                                       \
  X(vkDestroyCommandPool)                                                      \
  X(vkAllocateCommandBuffers)                                                  \
  X(vkBeginCommandBuffer)                                                      \
  X(vkEndCommandBuffer)                                                        \
  X(vkCmdBindPipeline)                                                         \
  X(vkCmdBindDescriptorSets)                                                   \
  X(vkCmdDispatchBase)                                                         \
  X(vkCmdResetQueryPool)                                                       \
  X(vkCmdWriteTimestamp)                                                       \
  X(vkCreateQueryPool)                                                         \
  X(vkDestroyQueryPool)                                                        \
  X(vkGetQueryPoolResults)                                                     \
  X(vkQueueSubmit)                                                             \
  X(vkCreateFence)                                                             \
  X(vkDestroyFence)                                                            \
  X(vkWaitForFences)

#define COOPVEC_VULKAN_FIELD(name) PFN_##name name;

typedef struct CoopvecVulkanAPI {
  void *library; // the dlopen handle of the loader
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
  PFN_vkEnumerateInstanceVersion vkEnumerateInstanceVersion;
  PFN_vkCreateInstance vkCreateInstance;
  VkInstance instance;
  uint32_t instanceVersion; // the API version asked for: 1.2 or 1.3
  COOPVEC_VULKAN_INSTANCE_FUNCTIONS(COOPVEC_VULKAN_FIELD)
  VkDevice device;
  COOPVEC_VULKAN_DEVICE_FUNCTIONS(COOPVEC_VULKAN_FIELD)
} CoopvecVulkanAPI;

/// Loads the loader ($COOPVEC_LIBVULKAN when set, else libvulkan.so.1) and
/// creates a Vulkan 1.2 instance with its entry points. On failure,
/// appends why to `error` ("Vulkan: cannot load ... (no Vulkan loader)",
/// "no Vulkan driver") and leaves nothing created.
bool coopvecVulkanLoad(CoopvecVulkanAPI *api, CoopvecBuffer *error);

/// Resolves the device's entry points after vkCreateDevice set
/// `api->device`; false (and why in `error`) if one is missing.
bool coopvecVulkanLoadDevice(CoopvecVulkanAPI *api, CoopvecBuffer *error);

/// Destroys the device and the instance (whichever exist).
void coopvecVulkanUnload(CoopvecVulkanAPI *api);

/// "VK_ERROR_OUT_OF_DEVICE_MEMORY" and the like ("VkResult N" otherwise).
const char *coopvecVulkanResultName(VkResult result);

#endif // COOPVEC_LIB_EXECUTIONENGINE_VULKANLOADER_H
