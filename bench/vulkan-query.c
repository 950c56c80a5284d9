//===- vulkan-query.c - What a GPU's Vulkan driver offers for coopvec -----===//
//
// Prints, for every Vulkan device: its name, driver and API versions, its
// float controls, the device extensions whose name mentions "cooperative", the
// shapes vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR lists, and, where
// the driver has VK_NV_cooperative_vector, its features, its limits and every
// combination vkGetPhysicalDeviceCooperativeVectorPropertiesNV returns.
// Issue 22 asks for this record from a GPU machine: a later backend may
// build on VK_NV_cooperative_vector. It loads libvulkan.so.1 itself and
// links nothing of the library, so it runs from scripts/gpu-run.sh on a
// machine where the engine might not.
//
// The Debian 12 headers (1.3.239) predate both extensions: the backend's
// declarations of VK_KHR_cooperative_matrix are shared
// (lib/ExecutionEngine/VulkanCooperativeMatrix.h); those of
// VK_NV_cooperative_vector, which only this tool reads, are copied from the
// Vulkan registry (vk.xml) here, prefixed Q_.
//
//===----------------------------------------------------------------------===//

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include "ExecutionEngine/VulkanCooperativeMatrix.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define Q_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_VECTOR_FEATURES_NV        \
  ((VkStructureType)1000491000)
#define Q_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_VECTOR_PROPERTIES_NV      \
  ((VkStructureType)1000491001)
#define Q_STRUCTURE_TYPE_COOPERATIVE_VECTOR_PROPERTIES_NV                      \
  ((VkStructureType)1000491002)

typedef struct QCooperativeVectorFeatures {
  VkStructureType sType;
  void *pNext;
  VkBool32 cooperativeVector;
  VkBool32 cooperativeVectorTraining;
} QCooperativeVectorFeatures;

typedef struct QCooperativeVectorDeviceProperties {
  VkStructureType sType;
  void *pNext;
  VkShaderStageFlags cooperativeVectorSupportedStages;
  VkBool32 cooperativeVectorTrainingFloat16Accumulation;
  VkBool32 cooperativeVectorTrainingFloat32Accumulation;
  uint32_t maxCooperativeVectorComponents;
} QCooperativeVectorDeviceProperties;

typedef struct QCooperativeVectorProperties {
  VkStructureType sType;
  void *pNext;
  uint32_t inputType, inputInterpretation, matrixInterpretation,
      biasInterpretation, resultType;
  VkBool32 transpose;
} QCooperativeVectorProperties;

typedef VkResult (*QListFn)(VkPhysicalDevice, uint32_t *, void *);

/// vkGetInstanceProcAddr(instance, name) as a function pointer of type T.
#define LOOKUP(T, get, instance, name)                                         \
  T name = NULL;                                                               \
  do {                                                                         \
    PFN_vkVoidFunction found = get(instance, #name);                           \
    memcpy(&name, &found, sizeof(found));                                      \
  } while (0)

/// VkComponentTypeKHR's names, the NV extension's packed and fp8 types too.
static const char *componentName(uint32_t type) {
  static const char *const names[] = {"f16", "f32", "f64", "s8",  "s16", "s32",
                                      "s64", "u8",  "u16", "u32", "u64"};
  if (type < sizeof(names) / sizeof(names[0]))
    return names[type];
  switch (type) {
  case 1000141000: // VK_KHR_shader_bfloat16
    return "bf16";
  case 1000491000:
    return "s8-packed";
  case 1000491001:
    return "u8-packed";
  case 1000491002:
    return "e4m3";
  case 1000491003:
    return "e5m2";
  default:
    return "?";
  }
}

/// Calls the two-call enumeration `name` (count, then fill) into a zeroed
/// array of `size`-byte structs whose sType is `sType`; returns it and its
/// count (none where the driver lacks the function).
static void *enumerate(PFN_vkGetInstanceProcAddr get, VkInstance instance,
                       const char *name, VkPhysicalDevice device, size_t size,
                       VkStructureType sType, uint32_t *count) {
  QListFn list = NULL;
  PFN_vkVoidFunction found = get(instance, name);
  memcpy(&list, &found, sizeof(found));
  *count = 0;
  if (!list || list(device, count, NULL) != VK_SUCCESS || !*count)
    return NULL;
  unsigned char *items = calloc(*count, size);
  if (!items)
    return NULL;
  for (uint32_t i = 0; i < *count; ++i)
    memcpy(items + i * size, &sType, sizeof(sType));
  if (list(device, count, items) < 0) {
    free(items);
    return NULL;
  }
  return items;
}

static int printExtensions(PFN_vkGetInstanceProcAddr get, VkInstance instance,
                           VkPhysicalDevice device) {
  LOOKUP(PFN_vkEnumerateDeviceExtensionProperties, get, instance,
         vkEnumerateDeviceExtensionProperties);
  uint32_t count = 0;
  if (vkEnumerateDeviceExtensionProperties(device, NULL, &count, NULL))
    return 0;
  VkExtensionProperties *list = calloc(count + 1, sizeof(*list));
  int hasVector = 0;
  if (list && !vkEnumerateDeviceExtensionProperties(device, NULL, &count, list))
    for (uint32_t i = 0; i < count; ++i) {
      if (!strstr(list[i].extensionName, "ooperative"))
        continue;
      printf("  extension %s (spec version %u)\n", list[i].extensionName,
             list[i].specVersion);
      hasVector |= !strcmp(list[i].extensionName, "VK_NV_cooperative_vector");
    }
  printf("  %u device extensions in all\n", count);
  free(list);
  return hasVector;
}

static void printMatrixShapes(PFN_vkGetInstanceProcAddr get,
                              VkInstance instance, VkPhysicalDevice device) {
  uint32_t count;
  CoopvecVkCooperativeMatrixProperties *shapes = enumerate(
      get, instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR",
      device, sizeof(*shapes),
      (VkStructureType)
          COOPVEC_VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR,
      &count);
  for (uint32_t i = 0; i < count; ++i)
    printf("  cooperative matrix %ux%ux%u A=%s B=%s C=%s result=%s "
           "saturating=%u scope=%u\n",
           shapes[i].MSize, shapes[i].NSize, shapes[i].KSize,
           componentName(shapes[i].AType), componentName(shapes[i].BType),
           componentName(shapes[i].CType), componentName(shapes[i].ResultType),
           shapes[i].saturatingAccumulation, shapes[i].scope);
  free(shapes);
}

static void printVectorLimits(PFN_vkGetInstanceProcAddr get,
                              VkInstance instance, VkPhysicalDevice device) {
  LOOKUP(PFN_vkGetPhysicalDeviceFeatures2, get, instance,
         vkGetPhysicalDeviceFeatures2);
  LOOKUP(PFN_vkGetPhysicalDeviceProperties2, get, instance,
         vkGetPhysicalDeviceProperties2);
  QCooperativeVectorFeatures features = {
      .sType = Q_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_VECTOR_FEATURES_NV};
  VkPhysicalDeviceFeatures2 features2 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
      .pNext = &features};
  QCooperativeVectorDeviceProperties limits = {
      .sType =
          Q_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_VECTOR_PROPERTIES_NV};
  VkPhysicalDeviceProperties2 properties2 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
      .pNext = &limits};
  vkGetPhysicalDeviceFeatures2(device, &features2);
  vkGetPhysicalDeviceProperties2(device, &properties2);
  printf("  cooperative vector: feature cooperativeVector=%u "
         "cooperativeVectorTraining=%u; supported stages 0x%x, training f16 "
         "accumulation %u, f32 accumulation %u, max components %u\n",
         features.cooperativeVector, features.cooperativeVectorTraining,
         limits.cooperativeVectorSupportedStages,
         limits.cooperativeVectorTrainingFloat16Accumulation,
         limits.cooperativeVectorTrainingFloat32Accumulation,
         limits.maxCooperativeVectorComponents);
}

static void printVectorCombinations(PFN_vkGetInstanceProcAddr get,
                                    VkInstance instance,
                                    VkPhysicalDevice device) {
  uint32_t count;
  QCooperativeVectorProperties *combos = enumerate(
      get, instance, "vkGetPhysicalDeviceCooperativeVectorPropertiesNV", device,
      sizeof(*combos), Q_STRUCTURE_TYPE_COOPERATIVE_VECTOR_PROPERTIES_NV,
      &count);
  printf("  %u cooperative vector combinations\n", count);
  for (uint32_t i = 0; i < count; ++i)
    printf("  cooperative vector input=%s as=%s matrix=%s bias=%s result=%s "
           "transpose=%u\n",
           componentName(combos[i].inputType),
           componentName(combos[i].inputInterpretation),
           componentName(combos[i].matrixInterpretation),
           componentName(combos[i].biasInterpretation),
           componentName(combos[i].resultType), combos[i].transpose);
  free(combos);
}

/// The float controls (Vulkan 1.2): which execution modes a kernel may ask
/// for, per float width (coopvec-finish-spirv asks for three of them).
static void printFloatControls(PFN_vkGetInstanceProcAddr get,
                               VkInstance instance, VkPhysicalDevice device) {
  LOOKUP(PFN_vkGetPhysicalDeviceProperties2, get, instance,
         vkGetPhysicalDeviceProperties2);
  VkPhysicalDeviceFloatControlsProperties p = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES};
  VkPhysicalDeviceProperties2 properties2 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &p};
  vkGetPhysicalDeviceProperties2(device, &properties2);
  printf("  float controls (f16 f32 f64): DenormPreserve %u%u%u, "
         "DenormFlushToZero %u%u%u, SignedZeroInfNanPreserve %u%u%u, "
         "RoundingModeRTE %u%u%u, RoundingModeRTZ %u%u%u; independence: "
         "denorm %d, rounding %d\n",
         p.shaderDenormPreserveFloat16, p.shaderDenormPreserveFloat32,
         p.shaderDenormPreserveFloat64, p.shaderDenormFlushToZeroFloat16,
         p.shaderDenormFlushToZeroFloat32, p.shaderDenormFlushToZeroFloat64,
         p.shaderSignedZeroInfNanPreserveFloat16,
         p.shaderSignedZeroInfNanPreserveFloat32,
         p.shaderSignedZeroInfNanPreserveFloat64,
         p.shaderRoundingModeRTEFloat16, p.shaderRoundingModeRTEFloat32,
         p.shaderRoundingModeRTEFloat64, p.shaderRoundingModeRTZFloat16,
         p.shaderRoundingModeRTZFloat32, p.shaderRoundingModeRTZFloat64,
         (int)p.denormBehaviorIndependence, (int)p.roundingModeIndependence);
}

static void describe(PFN_vkGetInstanceProcAddr get, VkInstance instance,
                     VkPhysicalDevice device) {
  LOOKUP(PFN_vkGetPhysicalDeviceProperties, get, instance,
         vkGetPhysicalDeviceProperties);
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(device, &properties);
  uint32_t api = properties.apiVersion, driver = properties.driverVersion;
  // NVIDIA packs its driver version as 10.8.8.6 bits.
  printf("device %s, Vulkan %u.%u.%u, driver version 0x%x (NVIDIA: "
         "%u.%u.%u)\n",
         properties.deviceName, VK_API_VERSION_MAJOR(api),
         VK_API_VERSION_MINOR(api), VK_API_VERSION_PATCH(api), driver,
         driver >> 22, (driver >> 14) & 0xff, (driver >> 6) & 0xff);
  printFloatControls(get, instance, device);
  int hasVector = printExtensions(get, instance, device);
  printMatrixShapes(get, instance, device);
  if (!hasVector) {
    printf("  no VK_NV_cooperative_vector\n");
    return;
  }
  printVectorLimits(get, instance, device);
  printVectorCombinations(get, instance, device);
}

static int queryAll(PFN_vkGetInstanceProcAddr get, VkInstance instance) {
  LOOKUP(PFN_vkEnumeratePhysicalDevices, get, instance,
         vkEnumeratePhysicalDevices);
  uint32_t count = 0;
  if (vkEnumeratePhysicalDevices(instance, &count, NULL) || !count) {
    printf("no Vulkan device\n");
    return 1;
  }
  VkPhysicalDevice *devices = calloc(count, sizeof(*devices));
  if (!devices || vkEnumeratePhysicalDevices(instance, &count, devices) < 0) {
    free(devices);
    return 1;
  }
  for (uint32_t i = 0; i < count; ++i)
    describe(get, instance, devices[i]);
  free(devices);
  return 0;
}

int main(void) {
  void *library = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    printf("no Vulkan loader: %s\n", dlerror());
    return 1;
  }
  PFN_vkGetInstanceProcAddr get = NULL;
  void *symbol = dlsym(library, "vkGetInstanceProcAddr");
  memcpy(&get, &symbol, sizeof(symbol));
  if (!get)
    return 1;
  LOOKUP(PFN_vkCreateInstance, get, NULL, vkCreateInstance);
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                           .apiVersion = VK_API_VERSION_1_3};
  VkInstanceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pApplicationInfo = &app};
  VkInstance instance;
  VkResult result = vkCreateInstance(&info, NULL, &instance);
  if (result != VK_SUCCESS) {
    printf("vkCreateInstance failed with VkResult %d\n", (int)result);
    return 1;
  }
  int status = queryAll(get, instance);
  LOOKUP(PFN_vkDestroyInstance, get, instance, vkDestroyInstance);
  vkDestroyInstance(instance, NULL);
  dlclose(library);
  return status;
}
