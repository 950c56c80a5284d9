//===- cuda-probe.c - Is there a GPU the CUDA tests can run on? -----------===//
//
// test/lit.cfg.py runs this to set the `cuda-gpu` feature: exit status 0
// and "sm_XY <name>" when libcuda.so.1 loads, cuInit succeeds and device 0
// has compute capability 7.0 or newer (what the NVIDIA target needs);
// otherwise exit status 1 and the reason. It shares no code with the
// library's backend, so a bug there cannot make its own tests UNSUPPORTED.
//
//===----------------------------------------------------------------------===//

#include <dlfcn.h>
#include <stdio.h>

typedef int (*InitFn)(unsigned);
typedef int (*CountFn)(int *);
typedef int (*GetFn)(int *, int);
typedef int (*AttributeFn)(int *, int, int);
typedef int (*NameFn)(char *, int, int);

/// dlsym for a function (POSIX: the data pointer holds its address).
static void *entry(void *library, const char *name) {
  void *symbol = dlsym(library, name);
  if (!symbol)
    printf("libcuda.so.1 has no %s\n", name);
  return symbol;
}

int main(void) {
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    printf("no NVIDIA driver: %s\n", dlerror());
    return 1;
  }
  InitFn init = (InitFn)entry(library, "cuInit");
  CountFn count = (CountFn)entry(library, "cuDeviceGetCount");
  GetFn get = (GetFn)entry(library, "cuDeviceGet");
  AttributeFn attribute = (AttributeFn)entry(library, "cuDeviceGetAttribute");
  NameFn name = (NameFn)entry(library, "cuDeviceGetName");
  if (!init || !count || !get || !attribute || !name)
    return 1;
  int result = init(0), devices = 0, device = 0, major = 0, minor = 0;
  if (result != 0) {
    printf("cuInit failed with CUDA error %d\n", result);
    return 1;
  }
  if (count(&devices) != 0 || devices < 1 || get(&device, 0) != 0) {
    printf("no CUDA device\n");
    return 1;
  }
  char text[256] = "";
  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR / _MINOR
  if (attribute(&major, 75, device) != 0 ||
      attribute(&minor, 76, device) != 0 ||
      name(text, (int)sizeof(text), device) != 0) {
    printf("cannot query device 0\n");
    return 1;
  }
  printf("sm_%d%d %s\n", major, minor, text);
  return major >= 7 ? 0 : 1;
}
