//===- VulkanLoader.c - Load the Vulkan loader with dlopen ----------------===//
//
// Only vkGetInstanceProcAddr is looked up with dlsym; everything else comes
// through it, as the Vulkan loader's interface prescribes. The loader
// library is never dlclose'd once an instance was created: drivers may
// keep threads and atexit handlers in their code (as the NVIDIA driver
// does), and dlopen counts references, so loading it again per engine is
// cheap. A library that fails before an instance exists is closed at once.
//
// In AddressSanitizer builds the drivers the loader opens for an instance
// stay loaded too (RTLD_NODELETE): memory a driver keeps in its globals
// looks leaked to LeakSanitizer once its library is unmapped (lavapipe's
// 128 bytes). Not in other builds: there, glibc's bookkeeping of objects
// that are never unloaded looks leaked to valgrind instead.
//
//===----------------------------------------------------------------------===//

// dl_iterate_phdr and RTLD_NODELETE are GNU extensions.
#define _GNU_SOURCE

#include "ExecutionEngine/VulkanLoader.h"

#include <dlfcn.h>
#include <link.h>
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

#if defined(__SANITIZE_ADDRESS__)
#define COOPVEC_PIN_DRIVERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define COOPVEC_PIN_DRIVERS 1
#endif
#endif

#ifdef COOPVEC_PIN_DRIVERS
/// The names of the loaded shared objects, to tell which ones an instance
/// brought in.
typedef struct Loaded {
  char **names;
  size_t count;
  bool failed;
} Loaded;

static int addLoaded(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  Loaded *loaded = data;
  if (!info->dlpi_name || !*info->dlpi_name || loaded->failed)
    return 0;
  char **grown = realloc(loaded->names, (loaded->count + 1) * sizeof(char *));
  char *name = grown ? malloc(strlen(info->dlpi_name) + 1) : NULL;
  if (grown)
    loaded->names = grown;
  if (!name) {
    loaded->failed = true;
    return 0;
  }
  strcpy(name, info->dlpi_name);
  loaded->names[loaded->count++] = name;
  return 0;
}

static void freeLoaded(Loaded *loaded) {
  for (size_t i = 0; i < loaded->count; ++i)
    free(loaded->names[i]);
  free(loaded->names);
}

/// Keeps every shared object loaded since `before` for the process.
static void pinNewObjects(const Loaded *before) {
  Loaded after = {0};
  dl_iterate_phdr(addLoaded, &after);
  for (size_t i = 0; i < after.count; ++i) {
    bool old = false;
    for (size_t k = 0; !old && k < before->count; ++k)
      old = strcmp(after.names[i], before->names[k]) == 0;
    // Only sets the flag: the object is loaded already.
    if (!old)
      dlopen(after.names[i], RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
  }
  freeLoaded(&after);
}

/// Creates the instance and keeps the drivers it loads.
static VkResult createPinned(CoopvecVulkanAPI *api,
                             const VkInstanceCreateInfo *info) {
  Loaded before = {0};
  dl_iterate_phdr(addLoaded, &before);
  VkResult result = api->vkCreateInstance(info, NULL, &api->instance);
  if (result == VK_SUCCESS && !before.failed)
    pinNewObjects(&before);
  freeLoaded(&before);
  return result;
}
#else
static VkResult createPinned(CoopvecVulkanAPI *api,
                             const VkInstanceCreateInfo *info) {
  return api->vkCreateInstance(info, NULL, &api->instance);
}
#endif

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
  VkResult result = createPinned(api, &info);
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
