//===- VulkanCooperativeMatrix.h - VK_KHR_cooperative_matrix ------*- C -*-===//
//
// The values and structs of VK_KHR_cooperative_matrix, which Debian 12's
// Vulkan headers (1.3.239) predate, from the Vulkan registry: for the
// Vulkan backend and for bench/vulkan-query, which prints a driver's
// cooperative-matrix shapes without the library.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_EXECUTIONENGINE_VULKANCOOPERATIVEMATRIX_H
#define COOPVEC_LIB_EXECUTIONENGINE_VULKANCOOPERATIVEMATRIX_H

#include <vulkan/vulkan.h>

#include <stdint.h>

/// VK_KHR_cooperative_matrix, which the 1.3.239 headers predate (values
/// and layouts from the Vulkan registry).
#define COOPVEC_VK_KHR_COOPERATIVE_MATRIX "VK_KHR_cooperative_matrix"
enum {
  COOPVEC_VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_FEATURES_KHR = 1000506000,
  COOPVEC_VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR = 1000506001,
  COOPVEC_VK_COMPONENT_TYPE_FLOAT16_KHR = 0,
  COOPVEC_VK_COMPONENT_TYPE_FLOAT32_KHR = 1,
  COOPVEC_VK_SCOPE_SUBGROUP_KHR = 3,
};
typedef struct CoopvecVkCooperativeMatrixFeatures {
  VkStructureType sType;
  void *pNext;
  VkBool32 cooperativeMatrix;
  VkBool32 cooperativeMatrixRobustBufferAccess;
} CoopvecVkCooperativeMatrixFeatures;
typedef struct CoopvecVkCooperativeMatrixProperties {
  VkStructureType sType;
  void *pNext;
  uint32_t MSize, NSize, KSize;
  uint32_t AType, BType, CType, ResultType;
  VkBool32 saturatingAccumulation;
  uint32_t scope;
} CoopvecVkCooperativeMatrixProperties;

#endif // COOPVEC_LIB_EXECUTIONENGINE_VULKANCOOPERATIVEMATRIX_H
