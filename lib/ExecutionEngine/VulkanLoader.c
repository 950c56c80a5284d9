//===- VulkanLoader.c - Load the Vulkan loader with dlopen ----------------===//
//
// Only vkGetInstanceProcAddr is looked up with dlsym; everything else comes
// through it, as the Vulkan loader's interface prescribes. The loader
// library is never dlclose'd once an instance was created: drivers may
// keep threads and atexit handlers in their code (as the NVIDIA driver
// does), and dlopen counts references, so loading it again per engine is
// cheap. A library that fails before that is closed at once.
//
//===----------------------------------------------------------------------===//

#include "ExecutionEngine/VulkanLoader.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

static const char kDefaultLibrary[] = "libvulkan.so.1";

const char *coopvecVulkanResultName(VkResult result) {
  switch (result) {
  case VK_SUCCESS:
    return "VK_SUCCESS";
  case VK_TIMEOUT:
    return "VK_TIMEOUT";
  case VK_ERROR_OUT_OF_HOST_MEMORY:
    return "VK_ERROR_OUT_OF_HOST_MEMORY";
  case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
  case VK_ERROR_INITIALIZATION_FAILED:
    return "VK_ERROR_INITIALIZATION_FAILED";
  case VK_ERROR_DEVICE_LOST:
    return "VK_ERROR_DEVICE_LOST";
  case VK_ERROR_EXTENSION_NOT_PRESENT:
    return "VK_ERROR_EXTENSION_NOT_PRESENT";
  case VK_ERROR_FEATURE_NOT_PRESENT:
    return "VK_ERROR_FEATURE_NOT_PRESENT";
  case VK_ERROR_INCOMPATIBLE_DRIVER:
    return "VK_ERROR_INCOMPATIBLE_DRIVER";
  case VK_ERROR_TOO_MANY_OBJECTS:
    return "VK_ERROR_TOO_MANY_OBJECTS";
  case VK_ERROR_OUT_OF_POOL_MEMORY:
    return "VK_ERROR_OUT_OF_POOL_MEMORY";
  case VK_ERROR_INVALID_SHADER_NV:
    return "VK_ERROR_INVALID_SHADER_NV";
  case VK_ERROR_UNKNOWN:
    return "VK_ERROR_UNKNOWN";
  default:
    return NULL;
  }
}

/// dlsym / vkGet*ProcAddr results into a field (POSIX: a data pointer
/// holds a function's address).
static void store(void *field, PFN_vkVoidFunction function) {
  memcpy(field, &function, sizeof(function));
}

static bool openLibrary(CoopvecVulkanAPI *api, CoopvecBuffer *error) {
  const char *chosen = getenv("COOPVEC_LIBVULKAN");
  const char *path = chosen && *chosen ? chosen : kDefaultLibrary;
  api->library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!api->library) {
    const char *reason = dlerror();
    coopvecBufferAppendf(error, "Vulkan: cannot load %s (no Vulkan loader): %s",
                         path, reason ? reason : "unknown error");
    return false;
  }
  void *symbol = dlsym(api->library, "vkGetInstanceProcAddr");
  if (!symbol) {
    coopvecBufferAppendf(error,
                         "Vulkan: %s has no vkGetInstanceProcAddr (not the "
                         "Vulkan loader)",
                         path);
    return false;
  }
  memcpy(&api->vkGetInstanceProcAddr, &symbol, sizeof(symbol));
  store(&api->vkEnumerateInstanceVersion,
        api->vkGetInstanceProcAddr(NULL, "vkEnumerateInstanceVersion"));
  store(&api->vkCreateInstance,
        api->vkGetInstanceProcAddr(NULL, "vkCreateInstance"));
  if (api->vkEnumerateInstanceVersion && api->vkCreateInstance)
    return true;
  coopvecBufferAppendf(error, "Vulkan: the loader %s predates Vulkan 1.1",
                       path);
  return false;
}

static bool createInstance(CoopvecVulkanAPI *api, CoopvecBuffer *error) {
  uint32_t version = 0;
  api->vkEnumerateInstanceVersion(&version);
  if (version < VK_API_VERSION_1_2) {
    coopvecBufferAppendf(error,
                         "Vulkan: the loader offers Vulkan %u.%u; the "
                         "backend needs 1.2",
                         VK_API_VERSION_MAJOR(version),
                         VK_API_VERSION_MINOR(version));
    return false;
  }
  // 1.3 where the loader has it: subgroup size control is core there.
  api->instanceVersion =
      version >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_2;
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                           .pApplicationName = "coopvec",
                           .pEngineName = "coopvec",
                           .apiVersion = api->instanceVersion};
  VkInstanceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pApplicationInfo = &app};
  VkResult result = api->vkCreateInstance(&info, NULL, &api->instance);
  if (result == VK_SUCCESS)
    return true;
  api->instance = VK_NULL_HANDLE;
  const char *name = coopvecVulkanResultName(result);
  coopvecBufferAppendf(error,
                       "Vulkan: no device: vkCreateInstance failed: %s%s",
                       name ? name : "an unknown VkResult",
                       result == VK_ERROR_INCOMPATIBLE_DRIVER
                           ? " (no Vulkan driver is installed, or "
                             "VK_ICD_FILENAMES names none)"
                           : "");
  return false;
}

#define COOPVEC_VULKAN_RESOLVE_INSTANCE(name)                                  \
  store(&api->name, api->vkGetInstanceProcAddr(api->instance, #name));         \
  if (!api->name)                                                              \
    missing = #name;

static bool resolveInstance(CoopvecVulkanAPI *api, CoopvecBuffer *error) {
  const char *missing = NULL;
  COOPVEC_VULKAN_INSTANCE_FUNCTIONS(COOPVEC_VULKAN_RESOLVE_INSTANCE)
  if (!missing)
    return true;
  coopvecBufferAppendf(error, "Vulkan: the loader has no %s", missing);
  return false;
}

bool coopvecVulkanLoad(CoopvecVulkanAPI *api, CoopvecBuffer *error) {
  memset(api, 0, sizeof(*api));
  if (openLibrary(api, error) && createInstance(api, error) &&
      resolveInstance(api, error))
    return true;
  bool created = api->instance != VK_NULL_HANDLE;
  coopvecVulkanUnload(api);
  // Drivers loaded by an instance may have left handlers behind.
  if (!created && api->library)
    dlclose(api->library);
  memset(api, 0, sizeof(*api));
  return false;
}

#define COOPVEC_VULKAN_RESOLVE_DEVICE(name)                                    \
  store(&api->name, api->vkGetDeviceProcAddr(api->device, #name));             \
  if (!api->name)                                                              \
    missing = #name;

bool coopvecVulkanLoadDevice(CoopvecVulkanAPI *api, CoopvecBuffer *error) {
  const char *missing = NULL;
  COOPVEC_VULKAN_DEVICE_FUNCTIONS(COOPVEC_VULKAN_RESOLVE_DEVICE)
  if (!missing)
    return true;
  coopvecBufferAppendf(error, "Vulkan: the device has no %s", missing);
  return false;
}

void coopvecVulkanUnload(CoopvecVulkanAPI *api) {
  if (api->device && api->vkDestroyDevice)
    api->vkDestroyDevice(api->device, NULL);
  api->device = VK_NULL_HANDLE;
  if (api->instance && api->vkDestroyInstance)
    api->vkDestroyInstance(api->instance, NULL);
  api->instance = VK_NULL_HANDLE;
}
