//===- vulkan-probe.c - Is there a device the Vulkan tests can run on? ----===//
//
// test/lit.cfg.py runs this to set the `vulkan` feature: exit status 0 and
// "<name>, Vulkan X.Y[, VK_KHR_cooperative_matrix]" when libvulkan.so.1
// loads, an instance is created and device 0 supports Vulkan 1.2 (what
// the backend needs); otherwise exit status 1 and the reason. It shares no
// code with the library's backend, so a bug there cannot make its own
// tests UNSUPPORTED.
//
//===----------------------------------------------------------------------===//

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// vkGetInstanceProcAddr(instance, name) as a function pointer of type T.
#define LOOKUP(T, get, instance, name)                                         \
  T name = NULL;                                                               \
  do {                                                                         \
    PFN_vkVoidFunction found = get(instance, #name);                           \
    memcpy(&name, &found, sizeof(found));                                      \
  } while (0)

static int hasExtension(PFN_vkGetInstanceProcAddr get, VkInstance instance,
                        VkPhysicalDevice device, const char *wanted) {
  LOOKUP(PFN_vkEnumerateDeviceExtensionProperties, get, instance,
         vkEnumerateDeviceExtensionProperties);
  uint32_t count = 0;
  if (!vkEnumerateDeviceExtensionProperties ||
      vkEnumerateDeviceExtensionProperties(device, NULL, &count, NULL))
    return 0;
  VkExtensionProperties *list = calloc(count + 1, sizeof(*list));
  int found = 0;
  if (list && !vkEnumerateDeviceExtensionProperties(device, NULL, &count, list))
    for (uint32_t i = 0; i < count; ++i)
      found |= strcmp(list[i].extensionName, wanted) == 0;
  free(list);
  return found;
}

static int describe(PFN_vkGetInstanceProcAddr get, VkInstance instance) {
  LOOKUP(PFN_vkEnumeratePhysicalDevices, get, instance,
         vkEnumeratePhysicalDevices);
  LOOKUP(PFN_vkGetPhysicalDeviceProperties, get, instance,
         vkGetPhysicalDeviceProperties);
  VkPhysicalDevice device;
  uint32_t count = 1;
  VkResult result = vkEnumeratePhysicalDevices(instance, &count, &device);
  if ((result != VK_SUCCESS && result != VK_INCOMPLETE) || count < 1) {
    printf("no Vulkan device\n");
    return 1;
  }
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(device, &properties);
  uint32_t version = properties.apiVersion;
  printf("%s, Vulkan %u.%u%s\n", properties.deviceName,
         VK_API_VERSION_MAJOR(version), VK_API_VERSION_MINOR(version),
         hasExtension(get, instance, device, "VK_KHR_cooperative_matrix")
             ? ", VK_KHR_cooperative_matrix"
             : "");
  return version >= VK_API_VERSION_1_2 ? 0 : 1;
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
                           .apiVersion = VK_API_VERSION_1_2};
  VkInstanceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pApplicationInfo = &app};
  VkInstance instance;
  VkResult result = vkCreateInstance(&info, NULL, &instance);
  if (result != VK_SUCCESS) {
    printf("vkCreateInstance failed with VkResult %d (no Vulkan driver)\n",
           (int)result);
    return 1;
  }
  int status = describe(get, instance);
  LOOKUP(PFN_vkDestroyInstance, get, instance, vkDestroyInstance);
  vkDestroyInstance(instance, NULL);
  return status;
}
