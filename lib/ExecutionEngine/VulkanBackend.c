//===- VulkanBackend.c - The Vulkan backend: device, lowering, pipelines --===//
//
// Compiling for Vulkan:
//   1. load the loader (VulkanLoader.c), create an instance and read what
//      physical device `CoopvecEngineOptions.device` offers: its subgroup
//      size, VK_EXT_shader_atomic_float, VK_KHR_cooperative_matrix;
//   2. lower a clone with the engine's pipeline, by default
//      coopvec-lower-to-spirv{mode=... subgroup-size=S atomic-float=B
//      binary=false}, and serialize it (gpu-module-to-binary) unless the
//      pipeline did;
//   3. read the SPIR-V words (SPIRVReflect.c) and refuse any capability or
//      extension the device lacks, before the driver sees the module:
//      drivers are not required to reject what they do not support, and
//      lavapipe fails with VK_ERROR_UNKNOWN or crashes;
//   4. create the logical device with every feature it has, a shader
//      module and one compute pipeline per entry point, whose workgroup
//      size (OpExecutionMode LocalSize) is the kernel's block size.
//
//===----------------------------------------------------------------------===//

// clock_gettime(CLOCK_MONOTONIC) is POSIX, not C11.
#define _POSIX_C_SOURCE 200809L

#include "ExecutionEngine/VulkanBackend.h"
#include "ExecutionEngine/FloatControls.h"
#include "ExecutionEngine/Shadows.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/Dialect/GPU.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/// The most workgroup memory coopvec-lower-to-spirv accepts to plan with.
enum { kMaxWorkgroupMemory = 1 << 20 };

static const char kSerializePipeline[] =
    "builtin.module(gpu-module-to-binary{format=bin})";

static double nowSeconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

CoopvecStatus coopvecVulkanFail(CoopvecEngine *engine, VkResult result,
                                const char *call, CoopvecStatus otherwise) {
  const char *name = coopvecVulkanResultName(result);
  coopvecEngineFail(engine, otherwise, "Vulkan: %s failed: %s", call,
                    name ? name : "an unknown VkResult");
  if (!name)
    coopvecBufferAppendf(&engine->error, " (%d)", (int)result);
  return result == VK_ERROR_OUT_OF_HOST_MEMORY ||
                 result == VK_ERROR_OUT_OF_DEVICE_MEMORY
             ? CoopvecStatusOutOfMemory
             : otherwise;
}

/// Starts the engine's message with "Vulkan: <formatted>"; returns `status`.
static CoopvecStatus failWith(CoopvecEngine *engine, CoopvecStatus status,
                              const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static CoopvecStatus failWith(CoopvecEngine *engine, CoopvecStatus status,
                              const char *format, ...) {
  char message[1024];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  return coopvecEngineFail(engine, status, "Vulkan: %s", message);
}

//===----------------------------------------------------------------------===//
// What a physical device offers
//===----------------------------------------------------------------------===//

static void readExtensions(const CoopvecVulkanAPI *api,
                           CoopvecVulkanDevice *device) {
  uint32_t count = 0;
  api->vkEnumerateDeviceExtensionProperties(device->physical, NULL, &count,
                                            NULL);
  VkExtensionProperties *extensions =
      calloc(count + 1, sizeof(VkExtensionProperties));
  if (extensions && api->vkEnumerateDeviceExtensionProperties(
                        device->physical, NULL, &count, extensions) >= 0)
    for (uint32_t i = 0; i < count; ++i) {
      const char *name = extensions[i].extensionName;
      device->hasAtomicFloat |=
          strcmp(name, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME) == 0;
      device->hasCooperativeMatrix |=
          strcmp(name, COOPVEC_VK_KHR_COOPERATIVE_MATRIX) == 0;
    }
  free(extensions);
}

/// Chains the feature structs the device's version and extensions allow.
static void readFeatures(const CoopvecVulkanAPI *api,
                         CoopvecVulkanDevice *device) {
  device->features = (VkPhysicalDeviceFeatures2){
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
      .pNext = &device->features11};
  device->features11 = (VkPhysicalDeviceVulkan11Features){
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
      .pNext = &device->features12};
  device->features12 = (VkPhysicalDeviceVulkan12Features){
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
      .pNext = NULL};
  void **next = &device->features12.pNext;
  if (device->apiVersion >= VK_API_VERSION_1_3) {
    device->features13 = (VkPhysicalDeviceVulkan13Features){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .pNext = NULL};
    *next = &device->features13;
    next = &device->features13.pNext;
  }
  if (device->hasAtomicFloat) {
    device->atomicFloat = (VkPhysicalDeviceShaderAtomicFloatFeaturesEXT){
        .sType =
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT,
        .pNext = NULL};
    *next = &device->atomicFloat;
    next = &device->atomicFloat.pNext;
  }
  if (device->hasCooperativeMatrix) {
    device->cooperativeMatrix = (CoopvecVkCooperativeMatrixFeatures){
        .sType = (VkStructureType)
            COOPVEC_VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_FEATURES_KHR};
    *next = &device->cooperativeMatrix;
  }
  api->vkGetPhysicalDeviceFeatures2(device->physical, &device->features);
}

typedef VkResult (*CooperativeMatrixPropertiesFn)(
    VkPhysicalDevice, uint32_t *, CoopvecVkCooperativeMatrixProperties *);

/// Whether the device multiplies 16x16 f16 tiles into f32 in a subgroup,
/// the shape coopvec-lower-to-spirv{mode=cooperative-matrix} uses.
static bool hasF16Shape(const CoopvecVulkanAPI *api,
                        VkPhysicalDevice physical) {
  CooperativeMatrixPropertiesFn query = NULL;
  PFN_vkVoidFunction function = api->vkGetInstanceProcAddr(
      api->instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR");
  memcpy(&query, &function, sizeof(query));
  uint32_t count = 0;
  if (!query || query(physical, &count, NULL) != VK_SUCCESS)
    return false;
  CoopvecVkCooperativeMatrixProperties *shapes =
      calloc(count + 1, sizeof(CoopvecVkCooperativeMatrixProperties));
  bool found = false;
  for (uint32_t i = 0; shapes && i < count; ++i)
    shapes[i].sType = (VkStructureType)
        COOPVEC_VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR;
  if (shapes && query(physical, &count, shapes) >= 0)
    for (uint32_t i = 0; i < count; ++i) {
      const CoopvecVkCooperativeMatrixProperties *s = &shapes[i];
      found |= s->MSize == 16 && s->NSize == 16 && s->KSize == 16 &&
               s->AType == COOPVEC_VK_COMPONENT_TYPE_FLOAT16_KHR &&
               s->BType == COOPVEC_VK_COMPONENT_TYPE_FLOAT16_KHR &&
               s->CType == COOPVEC_VK_COMPONENT_TYPE_FLOAT32_KHR &&
               s->ResultType == COOPVEC_VK_COMPONENT_TYPE_FLOAT32_KHR &&
               s->scope == COOPVEC_VK_SCOPE_SUBGROUP_KHR;
    }
  free(shapes);
  return found;
}

static void readQueues(const CoopvecVulkanAPI *api,
                       CoopvecVulkanDevice *device) {
  uint32_t count = 0;
  api->vkGetPhysicalDeviceQueueFamilyProperties(device->physical, &count, NULL);
  VkQueueFamilyProperties *families =
      calloc(count + 1, sizeof(VkQueueFamilyProperties));
  device->queueFamily = -1;
  if (families)
    api->vkGetPhysicalDeviceQueueFamilyProperties(device->physical, &count,
                                                  families);
  for (uint32_t i = 0; families && i < count; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      device->queueFamily = i;
      device->timestampBits = families[i].timestampValidBits;
      break;
    }
  free(families);
}

void coopvecVulkanDescribe(const CoopvecVulkanAPI *api,
                           VkPhysicalDevice physical,
                           CoopvecVulkanDevice *device) {
  memset(device, 0, sizeof(*device));
  device->physical = physical;
  device->subgroup = (VkPhysicalDeviceSubgroupProperties){
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
      .pNext = NULL};
  device->properties = (VkPhysicalDeviceProperties2){
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
      .pNext = &device->subgroup};
  api->vkGetPhysicalDeviceProperties2(physical, &device->properties);
  uint32_t version = device->properties.properties.apiVersion;
  device->apiVersion =
      version < api->instanceVersion ? version : api->instanceVersion;
  // The 1.2 and 1.3 structs only where the device knows them: it is
  // asked again then.
  if (device->apiVersion >= VK_API_VERSION_1_2) {
    device->properties12 = (VkPhysicalDeviceVulkan12Properties){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
    device->subgroup.pNext = &device->properties12;
    api->vkGetPhysicalDeviceProperties2(physical, &device->properties);
  }
  if (device->apiVersion >= VK_API_VERSION_1_3) {
    device->sizeControl = (VkPhysicalDeviceSubgroupSizeControlProperties){
        .sType =
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES,
        .pNext = NULL};
    device->properties12.pNext = &device->sizeControl;
    api->vkGetPhysicalDeviceProperties2(physical, &device->properties);
  }
  if (device->apiVersion < VK_API_VERSION_1_2)
    return;
  readExtensions(api, device);
  readFeatures(api, device);
  readQueues(api, device);
  device->f16CooperativeShape = device->hasCooperativeMatrix &&
                                device->cooperativeMatrix.cooperativeMatrix &&
                                hasF16Shape(api, physical);
}

//===----------------------------------------------------------------------===//
// Choosing the device
//===----------------------------------------------------------------------===//

/// The physical devices (freed by the caller), or NULL and the message.
static VkPhysicalDevice *enumerateDevices(const CoopvecVulkanAPI *api,
                                          uint32_t *count,
                                          CoopvecBuffer *error) {
  *count = 0;
  VkResult result = api->vkEnumeratePhysicalDevices(api->instance, count, NULL);
  VkPhysicalDevice *devices = result == VK_SUCCESS
                                  ? calloc(*count + 1, sizeof(VkPhysicalDevice))
                                  : NULL;
  if (devices)
    result = api->vkEnumeratePhysicalDevices(api->instance, count, devices);
  if (devices && result >= 0 && *count > 0)
    return devices;
  free(devices);
  const char *name = coopvecVulkanResultName(result);
  if (result < 0)
    coopvecBufferAppendf(error,
                         "Vulkan: no device: vkEnumeratePhysicalDevices "
                         "failed: %s",
                         name ? name : "an unknown VkResult");
  else
    coopvecBufferAppendStr(error, "Vulkan: no device (the Vulkan drivers "
                                  "found none; VK_ICD_FILENAMES may hide "
                                  "them)");
  return NULL;
}

static CoopvecStatus selectDevice(CoopvecEngine *engine, int index) {
  CoopvecVulkanState *state = engine->backendState;
  CoopvecBuffer reason = {0};
  uint32_t count = 0;
  VkPhysicalDevice *devices = enumerateDevices(&state->api, &count, &reason);
  if (!devices)
    coopvecEngineFail(engine, CoopvecStatusNoDevice, "%s",
                      coopvecBufferStr(&reason));
  coopvecBufferFree(&reason);
  if (!devices)
    return CoopvecStatusNoDevice;
  if (index < 0 || (uint32_t)index >= count) {
    free(devices);
    return failWith(engine, CoopvecStatusNoDevice,
                    "no device %d: there %s %u (0 to %u; coopvec-run "
                    "--list-devices lists them)",
                    index, count == 1 ? "is" : "are", count, count - 1);
  }
  coopvecVulkanDescribe(&state->api, devices[index], &state->device);
  free(devices);
  const CoopvecVulkanDevice *device = &state->device;
  const char *name = device->properties.properties.deviceName;
  if (device->apiVersion < VK_API_VERSION_1_2)
    return failWith(engine, CoopvecStatusNoDevice,
                    "device %d (%s) supports Vulkan %u.%u; the backend needs "
                    "1.2",
                    index, name, VK_API_VERSION_MAJOR(device->apiVersion),
                    VK_API_VERSION_MINOR(device->apiVersion));
  if (device->queueFamily < 0)
    return failWith(engine, CoopvecStatusNoDevice,
                    "device %d (%s) has no compute queue", index, name);
  return CoopvecStatusSuccess;
}

static CoopvecStatus openInstance(CoopvecEngine *engine) {
  CoopvecVulkanState *state = engine->backendState;
  CoopvecBuffer reason = {0};
  bool loaded = coopvecVulkanLoad(&state->api, &reason);
  if (!loaded)
    coopvecEngineFail(engine, CoopvecStatusNoDevice, "%s",
                      coopvecBufferStr(&reason));
  coopvecBufferFree(&reason);
  return loaded ? CoopvecStatusSuccess : CoopvecStatusNoDevice;
}

//===----------------------------------------------------------------------===//
// Lowering and the SPIR-V words
//===----------------------------------------------------------------------===//

static const char *modeFor(const CoopvecVulkanDevice *device) {
  return device->f16CooperativeShape ? "cooperative-matrix" : "portable";
}

static CoopvecStatus lowerForDevice(CoopvecEngine *engine,
                                    MlirOperation module) {
  CoopvecVulkanState *state = engine->backendState;
  if (engine->pipeline)
    return coopvecEngineLower(engine, module, engine->pipeline);
  const CoopvecVulkanDevice *device = &state->device;
  bool atomicFloat = device->hasAtomicFloat &&
                     device->atomicFloat.shaderBufferFloat32AtomicAdd;
  // The staging of cooperative-matrix matvecs fits the device's memory.
  uint32_t shared =
      device->properties.properties.limits.maxComputeSharedMemorySize;
  // Float controls the device lacks would get the module refused
  // (checkFloatControls); without them the default pipeline still runs.
  const VkPhysicalDeviceVulkan12Properties *p12 = &device->properties12;
  bool preserve =
      coopvecUseFloatControl(module, p12->shaderSignedZeroInfNanPreserveFloat32,
                             p12->shaderSignedZeroInfNanPreserveFloat16);
  bool denorms =
      coopvecUseFloatControl(module, p12->shaderDenormPreserveFloat32,
                             p12->shaderDenormPreserveFloat16);
  bool nearest = coopvecUseRoundingModeRTE(
      module, p12->shaderRoundingModeRTEFloat32,
      p12->shaderRoundingModeRTEFloat16, p12->shaderRoundingModeRTEFloat64);
  CoopvecBuffer pipeline = {0};
  coopvecBufferAppendf(
      &pipeline,
      "builtin.module(coopvec-lower-to-spirv{mode=%s binary=false "
      "subgroup-size=%u atomic-float=%s workgroup-memory=%u "
      "signed-zero-inf-nan-preserve=%s denorm-preserve=%s "
      "rounding-mode-rte=%s%s%s})",
      modeFor(device), device->subgroup.subgroupSize,
      atomicFloat ? "true" : "false",
      shared < kMaxWorkgroupMemory ? shared : kMaxWorkgroupMemory,
      preserve ? "true" : "false", denorms ? "true" : "false",
      nearest ? "true" : "false", engine->pipelineOptions ? " " : "",
      engine->pipelineOptions ? engine->pipelineOptions : "");
  CoopvecStatus status =
      coopvecEngineLower(engine, module, coopvecBufferStr(&pipeline));
  coopvecBufferFree(&pipeline);
  return status;
}

static MlirAttribute attributeOf(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op,
                                         mlirStringRefCreateFromCString(name));
}

/// Counts the gpu.binary and gpu.module ops at the top of `module`; sets
/// `*binary` to the last binary.
static void countGPUOps(MlirOperation module, int *binaries, int *gpuModules,
                        MlirOperation *binary) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  *binaries = *gpuModules = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (coopvecOpIsNamed(op, "gpu.binary")) {
      ++*binaries;
      *binary = op;
    }
    *gpuModules += coopvecOpIsNamed(op, "gpu.module");
  }
}

/// Copies the words of the binary's one object (aligned for reading).
static CoopvecStatus copyWords(CoopvecEngine *engine, MlirOperation binary,
                               uint32_t **words, size_t *numWords) {
  MlirAttribute objects = attributeOf(binary, "objects");
  intptr_t count =
      !mlirAttributeIsNull(objects) && mlirAttributeIsAArray(objects)
          ? mlirArrayAttrGetNumElements(objects)
          : 0;
  MlirAttribute object =
      count == 1 ? mlirArrayAttrGetElement(objects, 0) : mlirAttributeGetNull();
  if (mlirAttributeIsNull(object) || !mlirAttributeIsAGPUObjectAttr(object))
    return failWith(engine, CoopvecStatusCompileError,
                    "the gpu.binary holds %ld objects; the engine loads "
                    "exactly one SPIR-V object",
                    (long)count);
  MlirStringRef bytes = mlirGPUObjectAttrGetObject(object);
  if (bytes.length < 20 || bytes.length % 4)
    return failWith(engine, CoopvecStatusCompileError,
                    "the gpu.binary's object (%zu bytes) is not SPIR-V",
                    bytes.length);
  *words = malloc(bytes.length);
  if (!*words)
    return coopvecEngineFail(engine, CoopvecStatusOutOfMemory, "out of memory");
  memcpy(*words, bytes.data, bytes.length);
  *numWords = bytes.length / 4;
  return CoopvecStatusSuccess;
}

/// Serializes the lowered gpu.module unless the pipeline did, and copies
/// out the SPIR-V words.
static CoopvecStatus serialize(CoopvecEngine *engine, MlirOperation module,
                               uint32_t **words, size_t *numWords) {
  int binaries, gpuModules;
  MlirOperation binary = {NULL};
  countGPUOps(module, &binaries, &gpuModules, &binary);
  if (binaries + gpuModules != 1)
    return failWith(engine, CoopvecStatusCompileError,
                    "the lowered module holds %d gpu.module and %d gpu.binary "
                    "ops; the engine loads exactly one (lower with "
                    "coopvec-lower-to-spirv)",
                    gpuModules, binaries);
  if (gpuModules) {
    CoopvecStatus status =
        coopvecEngineLower(engine, module, kSerializePipeline);
    if (status)
      return status;
    countGPUOps(module, &binaries, &gpuModules, &binary);
  }
  return copyWords(engine, binary, words, numWords);
}

//===----------------------------------------------------------------------===//
// Capabilities against the device
//===----------------------------------------------------------------------===//

/// NULL when the device offers `capability`; else what it lacks.
static const char *missingFor(const CoopvecVulkanDevice *d,
                              uint32_t capability) {
  const VkPhysicalDeviceFeatures *core = &d->features.features;
  bool computeSubgroups =
      d->subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT;
  switch (capability) {
  case 0: // Matrix
  case 1: // Shader
    return NULL;
  case 9:
    return d->features12.shaderFloat16 ? NULL : "the shaderFloat16 feature";
  case 10:
    return core->shaderFloat64 ? NULL : "the shaderFloat64 feature";
  case 11:
    return core->shaderInt64 ? NULL : "the shaderInt64 feature";
  case 12:
    return d->features12.shaderBufferInt64Atomics
               ? NULL
               : "the shaderBufferInt64Atomics feature";
  case 22:
    return core->shaderInt16 ? NULL : "the shaderInt16 feature";
  case 39:
    return d->features12.shaderInt8 ? NULL : "the shaderInt8 feature";
  case 61:
  case 62:
  case 63:
  case 64:
  case 65:
  case 66:
  case 67:
  case 68:
    // VkSubgroupFeatureFlagBits follow the capabilities' order.
    return computeSubgroups &&
                   (d->subgroup.supportedOperations & (1u << (capability - 61)))
               ? NULL
               : "that subgroup operation in compute shaders";
  case 4433:
    return d->features11.storageBuffer16BitAccess
               ? NULL
               : "the storageBuffer16BitAccess feature";
  case 4434:
    return d->features11.uniformAndStorageBuffer16BitAccess
               ? NULL
               : "the uniformAndStorageBuffer16BitAccess feature";
  case 4441:
    return d->features11.variablePointersStorageBuffer
               ? NULL
               : "the variablePointersStorageBuffer feature";
  case 4442:
    return d->features11.variablePointers ? NULL
                                          : "the variablePointers feature";
  case 4448:
    return d->features12.storageBuffer8BitAccess
               ? NULL
               : "the storageBuffer8BitAccess feature";
  case 5345:
    return d->features12.vulkanMemoryModel ? NULL
                                           : "the vulkanMemoryModel feature";
  case 4464: // DenormPreserve .. RoundingModeRTZ: checked by execution
  case 4465: // mode and width in checkFloatControls
  case 4466:
  case 4467:
  case 4468:
    return NULL;
  case 6022:
    return d->hasCooperativeMatrix && d->cooperativeMatrix.cooperativeMatrix
               ? NULL
               : "the VK_KHR_cooperative_matrix extension";
  case 6033:
    return d->hasAtomicFloat && d->atomicFloat.shaderBufferFloat32AtomicAdd
               ? NULL
               : "the shaderBufferFloat32AtomicAdd feature of "
                 "VK_EXT_shader_atomic_float";
  case 5357:
    return "VK_NV_cooperative_matrix, which the backend does not enable";
  case 5394:
    return "VK_NV_cooperative_vector, which the backend does not enable";
  default:
    return "a check: the Vulkan backend does not know this capability";
  }
}

/// NULL when the device offers the SPIR-V extension; else what it lacks.
static const char *missingExtension(const CoopvecVulkanDevice *d,
                                    const char *extension) {
  static const char *const kCore[] = {"SPV_KHR_storage_buffer_storage_class",
                                      "SPV_KHR_16bit_storage",
                                      "SPV_KHR_8bit_storage",
                                      "SPV_KHR_variable_pointers",
                                      "SPV_KHR_vulkan_memory_model",
                                      "SPV_KHR_float_controls"};
  for (size_t i = 0; i < sizeof(kCore) / sizeof(kCore[0]); ++i)
    if (strcmp(extension, kCore[i]) == 0)
      return NULL; // core in Vulkan 1.2; their capabilities are checked
  if (strcmp(extension, "SPV_KHR_cooperative_matrix") == 0)
    return d->hasCooperativeMatrix ? NULL
                                   : "the VK_KHR_cooperative_matrix extension";
  if (strcmp(extension, "SPV_EXT_shader_atomic_float_add") == 0)
    return d->hasAtomicFloat ? NULL
                             : "the VK_EXT_shader_atomic_float extension";
  return "a check: the Vulkan backend does not know this extension";
}

/// The device's float-control properties in the layout of
/// CoopvecSPIRVModule.floatControls.
static uint32_t supportedFloatControls(const CoopvecVulkanDevice *d) {
  const VkPhysicalDeviceVulkan12Properties *p = &d->properties12;
  const VkBool32 modes[5][3] = {
      {p->shaderDenormPreserveFloat16, p->shaderDenormPreserveFloat32,
       p->shaderDenormPreserveFloat64},
      {p->shaderDenormFlushToZeroFloat16, p->shaderDenormFlushToZeroFloat32,
       p->shaderDenormFlushToZeroFloat64},
      {p->shaderSignedZeroInfNanPreserveFloat16,
       p->shaderSignedZeroInfNanPreserveFloat32,
       p->shaderSignedZeroInfNanPreserveFloat64},
      {p->shaderRoundingModeRTEFloat16, p->shaderRoundingModeRTEFloat32,
       p->shaderRoundingModeRTEFloat64},
      {p->shaderRoundingModeRTZFloat16, p->shaderRoundingModeRTZFloat32,
       p->shaderRoundingModeRTZFloat64}};
  uint32_t bits = 0;
  for (int m = 0; m < 5; ++m)
    for (int w = 0; w < 3; ++w)
      bits |= modes[m][w] ? 1u << (4 * m + w) : 0;
  return bits;
}

static CoopvecStatus checkFloatControls(CoopvecEngine *engine,
                                        const CoopvecSPIRVModule *module) {
  static const char *const kModes[] = {"DenormPreserve", "DenormFlushToZero",
                                       "SignedZeroInfNanPreserve",
                                       "RoundingModeRTE", "RoundingModeRTZ"};
  static const char *const kWidths[] = {"16", "32", "64", "other"};
  CoopvecVulkanState *state = engine->backendState;
  uint32_t missing =
      module->floatControls & ~supportedFloatControls(&state->device);
  for (int bit = 0; bit < 20; ++bit)
    if (missing & (1u << bit))
      return failWith(engine, CoopvecStatusHostMismatch,
                      "the kernels need execution mode %s for %s-bit floats, "
                      "which device %d (%s) does not offer (its float "
                      "controls properties)",
                      kModes[bit / 4], kWidths[bit % 4], state->deviceIndex,
                      state->device.properties.properties.deviceName);
  return CoopvecStatusSuccess;
}

/// What a refusal of `capability` suggests, after its reason.
static const char *hintFor(uint32_t capability) {
  if (capability == 6022 || capability == 5357)
    return " (lower with coopvec-lower-to-spirv{mode=portable})";
  if (capability == 10) // the only f64 of a lowering
    return " (coopvec-prepare-spirv computes f32 fmas in f64 to round them "
           "once: docs/passes.md)";
  return "";
}

static CoopvecStatus checkModule(CoopvecEngine *engine,
                                 const CoopvecSPIRVModule *module) {
  CoopvecVulkanState *state = engine->backendState;
  const char *device = state->device.properties.properties.deviceName;
  for (int i = 0; i < module->numCapabilities; ++i) {
    uint32_t capability = module->capabilities[i];
    const char *missing = missingFor(&state->device, capability);
    const char *name = coopvecSPIRVCapabilityName(capability);
    if (missing)
      return failWith(engine, CoopvecStatusHostMismatch,
                      "the kernels need SPIR-V capability %s (%u), which "
                      "device %d (%s) does not offer: it lacks %s%s",
                      name ? name : "?", capability, state->deviceIndex, device,
                      missing, hintFor(capability));
  }
  CoopvecStatus status = checkFloatControls(engine, module);
  if (status)
    return status;
  uint32_t shared =
      state->device.properties.properties.limits.maxComputeSharedMemorySize;
  if (module->workgroupBytes > shared)
    return failWith(engine, CoopvecStatusCompileError,
                    "the kernels need %llu bytes of workgroup memory; "
                    "device %d (%s) has %u (lower with a smaller block-size)",
                    (unsigned long long)module->workgroupBytes,
                    state->deviceIndex, device, shared);
  for (int i = 0; i < module->numExtensions; ++i) {
    const char *missing =
        missingExtension(&state->device, module->extensions[i]);
    if (missing)
      return failWith(engine, CoopvecStatusHostMismatch,
                      "the kernels need SPIR-V extension %s, which device %d "
                      "(%s) does not offer: it lacks %s",
                      module->extensions[i], state->deviceIndex, device,
                      missing);
  }
  return CoopvecStatusSuccess;
}

//===----------------------------------------------------------------------===//
// The logical device and the pipelines
//===----------------------------------------------------------------------===//

static CoopvecStatus createDevice(CoopvecEngine *engine) {
  CoopvecVulkanState *state = engine->backendState;
  CoopvecVulkanDevice *device = &state->device;
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
      .queueFamilyIndex = (uint32_t)device->queueFamily,
      .queueCount = 1,
      .pQueuePriorities = &priority};
  const char *extensions[2];
  uint32_t numExtensions = 0;
  if (device->hasAtomicFloat)
    extensions[numExtensions++] = VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME;
  if (device->hasCooperativeMatrix)
    extensions[numExtensions++] = COOPVEC_VK_KHR_COOPERATIVE_MATRIX;
  VkDeviceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .pNext = &device->features,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &queue,
                             .enabledExtensionCount = numExtensions,
                             .ppEnabledExtensionNames = extensions};
  VkResult result = state->api.vkCreateDevice(device->physical, &info, NULL,
                                              &state->api.device);
  if (result != VK_SUCCESS) {
    state->api.device = VK_NULL_HANDLE;
    return coopvecVulkanFail(engine, result, "vkCreateDevice",
                             CoopvecStatusDeviceError);
  }
  CoopvecBuffer reason = {0};
  bool loaded = coopvecVulkanLoadDevice(&state->api, &reason);
  if (!loaded)
    coopvecEngineFail(engine, CoopvecStatusDeviceError, "%s",
                      coopvecBufferStr(&reason));
  coopvecBufferFree(&reason);
  if (!loaded)
    return CoopvecStatusDeviceError;
  state->api.vkGetDeviceQueue(state->api.device, (uint32_t)device->queueFamily,
                              0, &state->queue);
  state->api.vkGetPhysicalDeviceMemoryProperties(device->physical,
                                                 &state->memory);
  return CoopvecStatusSuccess;
}

/// The workgroup size and buffers of an entry point, checked against the
/// device's limits.
static CoopvecStatus checkEntryPoint(CoopvecEngine *engine,
                                     const CoopvecSPIRVEntryPoint *entry) {
  CoopvecVulkanState *state = engine->backendState;
  const VkPhysicalDeviceLimits *limits =
      &state->device.properties.properties.limits;
  const uint32_t *size = entry->localSize;
  if (size[0] < 1 || size[1] != 1 || size[2] != 1)
    return failWith(engine, CoopvecStatusCompileError,
                    "entry point %s has no workgroup size the engine can use "
                    "(OpExecutionMode LocalSize B 1 1)",
                    entry->name);
  if (size[0] > limits->maxComputeWorkGroupSize[0] ||
      size[0] > limits->maxComputeWorkGroupInvocations)
    return failWith(engine, CoopvecStatusCompileError,
                    "entry point %s runs workgroups of %u threads; device %d "
                    "allows %u (lower with a smaller block-size)",
                    entry->name, size[0], state->deviceIndex,
                    limits->maxComputeWorkGroupInvocations);
  // One storage buffer per argument and result: beyond the device's
  // limits the descriptor set layout is invalid (lavapipe, which allows
  // 32 per stage, crashes while running such a kernel).
  uint32_t most = limits->maxPerStageDescriptorStorageBuffers <
                          limits->maxDescriptorSetStorageBuffers
                      ? limits->maxPerStageDescriptorStorageBuffers
                      : limits->maxDescriptorSetStorageBuffers;
  if ((uint32_t)entry->numBindings > most)
    return failWith(engine, CoopvecStatusCompileError,
                    "entry point %s binds %d storage buffers (one per "
                    "argument, result and the batch size); device %d "
                    "allows %u in a compute shader",
                    entry->name, entry->numBindings, state->deviceIndex, most);
  for (int i = 0; i < entry->numBindings; ++i) {
    const CoopvecSPIRVBinding *binding = &entry->bindings[i];
    if (binding->set != 0 || binding->shape == CoopvecSPIRVUnknown ||
        (i > 0 && binding->argIndex == entry->bindings[i - 1].argIndex))
      return failWith(engine, CoopvecStatusCompileError,
                      "argument %d of entry point %s is not a storage buffer "
                      "the engine can bind (descriptor set 0, one scalar or "
                      "an array of scalars, one binding per argument)",
                      binding->argIndex, entry->name);
  }
  return CoopvecStatusSuccess;
}

static CoopvecStatus createLayouts(CoopvecEngine *engine,
                                   CoopvecVulkanKernel *kernel) {
  CoopvecVulkanState *state = engine->backendState;
  VkDescriptorSetLayoutBinding *bindings = calloc(
      (size_t)kernel->numBindings + 1, sizeof(VkDescriptorSetLayoutBinding));
  if (!bindings)
    return coopvecEngineFail(engine, CoopvecStatusOutOfMemory, "out of memory");
  for (int i = 0; i < kernel->numBindings; ++i)
    bindings[i] = (VkDescriptorSetLayoutBinding){
        .binding = kernel->bindings[i].binding,
        .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
        .descriptorCount = 1,
        .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
  VkDescriptorSetLayoutCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
      .bindingCount = (uint32_t)kernel->numBindings,
      .pBindings = bindings};
  VkResult result = state->api.vkCreateDescriptorSetLayout(
      state->api.device, &info, NULL, &kernel->setLayout);
  free(bindings);
  if (result != VK_SUCCESS)
    return coopvecVulkanFail(engine, result, "vkCreateDescriptorSetLayout",
                             CoopvecStatusDeviceError);
  VkPipelineLayoutCreateInfo layout = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
      .setLayoutCount = 1,
      .pSetLayouts = &kernel->setLayout};
  result = state->api.vkCreatePipelineLayout(state->api.device, &layout, NULL,
                                             &kernel->pipelineLayout);
  return result == VK_SUCCESS
             ? CoopvecStatusSuccess
             : coopvecVulkanFail(engine, result, "vkCreatePipelineLayout",
                                 CoopvecStatusDeviceError);
}

/// Asks for the subgroup size the kernels were lowered for, where the
/// device lets compute shaders choose (their reductions depend on it).
static bool requireSubgroupSize(
    const CoopvecVulkanState *state, uint32_t blockSize,
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo *required) {
  const CoopvecVulkanDevice *device = &state->device;
  uint32_t size = device->subgroup.subgroupSize;
  const VkPhysicalDeviceSubgroupSizeControlProperties *control =
      &device->sizeControl;
  if (!device->features13.subgroupSizeControl ||
      !(control->requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT) ||
      size < control->minSubgroupSize || size > control->maxSubgroupSize ||
      (blockSize + size - 1) / size > control->maxComputeWorkgroupSubgroups)
    return false;
  *required = (VkPipelineShaderStageRequiredSubgroupSizeCreateInfo){
      .sType =
          VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
      .requiredSubgroupSize = size};
  return true;
}

static CoopvecStatus createPipeline(CoopvecEngine *engine,
                                    CoopvecVulkanKernel *kernel) {
  CoopvecVulkanState *state = engine->backendState;
  CoopvecStatus status = createLayouts(engine, kernel);
  if (status)
    return status;
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required;
  bool sized = requireSubgroupSize(state, kernel->blockSize, &required);
  // Cooperative-matrix kernels stage whole subgroups of consecutive
  // invocations (docs/execution-model.md, "The Vulkan kernel ABI").
  bool full = sized && state->device.features13.computeFullSubgroups &&
              kernel->blockSize % required.requiredSubgroupSize == 0;
  VkComputePipelineCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      // vkCmdDispatchBase: batches beyond one dispatch's workgroup count.
      .flags = VK_PIPELINE_CREATE_DISPATCH_BASE_BIT,
      .stage =
          {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
           .pNext = sized ? &required : NULL,
           .flags =
               full ? VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT
                    : 0,
           .stage = VK_SHADER_STAGE_COMPUTE_BIT,
           .module = state->shader,
           .pName = kernel->name},
      .layout = kernel->pipelineLayout};
  VkResult result = state->api.vkCreateComputePipelines(
      state->api.device, VK_NULL_HANDLE, 1, &info, NULL, &kernel->pipeline);
  if (result == VK_SUCCESS)
    return CoopvecStatusSuccess;
  kernel->pipeline = VK_NULL_HANDLE;
  status = coopvecVulkanFail(engine, result, "vkCreateComputePipelines",
                             CoopvecStatusCompileError);
  coopvecBufferAppendf(&engine->error, " (entry point %s)", kernel->name);
  return status;
}

static CoopvecStatus addKernel(CoopvecEngine *engine,
                               CoopvecSPIRVEntryPoint *entry) {
  CoopvecVulkanState *state = engine->backendState;
  CoopvecStatus status = checkEntryPoint(engine, entry);
  if (status)
    return status;
  CoopvecVulkanKernel *kernel = &state->kernels[state->numKernels++];
  // The kernel takes the entry point's name and bindings.
  kernel->name = entry->name;
  kernel->bindings = entry->bindings;
  kernel->numBindings = entry->numBindings;
  kernel->blockSize = entry->localSize[0];
  entry->name = NULL;
  entry->bindings = NULL;
  return createPipeline(engine, kernel);
}

static CoopvecStatus createPipelines(CoopvecEngine *engine,
                                     const uint32_t *words, size_t numWords,
                                     CoopvecSPIRVModule *module) {
  CoopvecVulkanState *state = engine->backendState;
  VkShaderModuleCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
      .codeSize = numWords * 4,
      .pCode = words};
  VkResult result = state->api.vkCreateShaderModule(state->api.device, &info,
                                                    NULL, &state->shader);
  if (result != VK_SUCCESS) {
    state->shader = VK_NULL_HANDLE;
    return coopvecVulkanFail(engine, result, "vkCreateShaderModule",
                             CoopvecStatusCompileError);
  }
  state->kernels =
      calloc((size_t)module->numEntryPoints + 1, sizeof(CoopvecVulkanKernel));
  if (!state->kernels)
    return coopvecEngineFail(engine, CoopvecStatusOutOfMemory, "out of memory");
  CoopvecStatus status = CoopvecStatusSuccess;
  for (int i = 0; !status && i < module->numEntryPoints; ++i)
    status = addKernel(engine, &module->entryPoints[i]);
  return status;
}

//===----------------------------------------------------------------------===//
// The backend
//===----------------------------------------------------------------------===//

/// Reads and checks the words, then hands them to the driver.
static CoopvecStatus load(CoopvecEngine *engine, const uint32_t *words,
                          size_t numWords) {
  CoopvecSPIRVModule module;
  CoopvecBuffer reason = {0};
  CoopvecStatus status = CoopvecStatusSuccess;
  if (!coopvecSPIRVModuleRead(words, numWords, &module, &reason))
    status = failWith(engine, CoopvecStatusCompileError, "%s",
                      coopvecBufferStr(&reason));
  coopvecBufferFree(&reason);
  if (!status)
    status = checkModule(engine, &module);
  if (!status)
    status = createDevice(engine);
  if (!status)
    status = createPipelines(engine, words, numWords, &module);
  coopvecSPIRVModuleFree(&module);
  return status;
}

static CoopvecStatus compileOnDevice(CoopvecEngine *engine) {
  double start = nowSeconds();
  MlirOperation module;
  CoopvecStatus status = coopvecEngineCloneForLowering(engine, &module);
  if (!status)
    status = lowerForDevice(engine, module);
  if (!status)
    coopvecEngineCollectChecks(engine, module, "_kernel");
  uint32_t *words = NULL;
  size_t numWords = 0;
  if (!status)
    status = serialize(engine, module, &words, &numWords);
  mlirOperationDestroy(module);
  double lowered = nowSeconds();
  if (!status)
    status = load(engine, words, numWords);
  free(words);
  engine->loweringSeconds = lowered - start;
  engine->jitSeconds = nowSeconds() - lowered;
  return status;
}

void coopvecVulkanDestroy(CoopvecEngine *engine) {
  CoopvecVulkanState *state = engine->backendState;
  if (!state)
    return;
  const CoopvecVulkanAPI *api = &state->api;
  for (intptr_t i = 0; i < state->numKernels; ++i) {
    CoopvecVulkanKernel *kernel = &state->kernels[i];
    if (kernel->pipeline)
      api->vkDestroyPipeline(api->device, kernel->pipeline, NULL);
    if (kernel->pipelineLayout)
      api->vkDestroyPipelineLayout(api->device, kernel->pipelineLayout, NULL);
    if (kernel->setLayout)
      api->vkDestroyDescriptorSetLayout(api->device, kernel->setLayout, NULL);
    free(kernel->name);
    free(kernel->bindings);
  }
  free(state->kernels);
  coopvecEngineFreeChecks(engine);
  if (state->shader)
    api->vkDestroyShaderModule(api->device, state->shader, NULL);
  coopvecVulkanUnload(&state->api);
  free(state);
  engine->backendState = NULL;
}

CoopvecStatus coopvecVulkanCompile(CoopvecEngine *engine) {
  // A failed attempt leaves nothing behind; the next one starts afresh.
  coopvecVulkanDestroy(engine);
  CoopvecVulkanState *state = calloc(1, sizeof(CoopvecVulkanState));
  engine->backendState = state;
  if (!state)
    return coopvecEngineFail(engine, CoopvecStatusOutOfMemory, "out of memory");
  state->deviceIndex = engine->device;
  CoopvecStatus status = openInstance(engine);
  if (!status)
    status = selectDevice(engine, state->deviceIndex);
  if (!status)
    status = compileOnDevice(engine);
  if (status)
    coopvecVulkanDestroy(engine);
  else
    state->compiled = true;
  return status;
}

bool coopvecVulkanIsCompiled(const CoopvecEngine *engine) {
  const CoopvecVulkanState *state = engine->backendState;
  return state && state->compiled;
}

//===----------------------------------------------------------------------===//
// Listing the devices
//===----------------------------------------------------------------------===//

static const char *typeName(VkPhysicalDeviceType type) {
  switch (type) {
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
    return "integrated GPU";
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
    return "discrete GPU";
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
    return "virtual GPU";
  case VK_PHYSICAL_DEVICE_TYPE_CPU:
    return "CPU";
  default:
    return "other";
  }
}

static void describeLine(const CoopvecVulkanAPI *api, uint32_t index,
                         VkPhysicalDevice physical, CoopvecBuffer *text) {
  CoopvecVulkanDevice device;
  coopvecVulkanDescribe(api, physical, &device);
  const VkPhysicalDeviceProperties *p = &device.properties.properties;
  coopvecBufferAppendf(text, "%u: %s (%s, Vulkan %u.%u", index, p->deviceName,
                       typeName(p->deviceType),
                       VK_API_VERSION_MAJOR(p->apiVersion),
                       VK_API_VERSION_MINOR(p->apiVersion));
  if (device.apiVersion < VK_API_VERSION_1_2) {
    coopvecBufferAppendStr(text, "): unusable, the backend needs 1.2\n");
    return;
  }
  // Without DenormPreserve for f32 the driver may flush subnormals, which
  // the dialect keeps (docs/execution-model.md, "Float arithmetic").
  coopvecBufferAppendf(
      text, ", subgroup size %u, %s%s, f32 subnormals %s): mode=%s\n",
      device.subgroup.subgroupSize,
      device.hasAtomicFloat && device.atomicFloat.shaderBufferFloat32AtomicAdd
          ? "f32 atomic add"
          : "no f32 atomic add",
      device.hasCooperativeMatrix ? ", VK_KHR_cooperative_matrix" : "",
      device.properties12.shaderDenormPreserveFloat32 ? "kept"
                                                      : "may be flushed",
      modeFor(&device));
}

CoopvecStatus coopvecVulkanListDevices(CoopvecBuffer *text) {
  CoopvecVulkanAPI api;
  if (!coopvecVulkanLoad(&api, text))
    return CoopvecStatusNoDevice;
  uint32_t count = 0;
  VkPhysicalDevice *devices = enumerateDevices(&api, &count, text);
  for (uint32_t i = 0; devices && i < count; ++i)
    describeLine(&api, i, devices[i], text);
  free(devices);
  coopvecVulkanUnload(&api);
  return devices ? CoopvecStatusSuccess : CoopvecStatusNoDevice;
}
