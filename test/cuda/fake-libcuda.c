//===- fake-libcuda.c - A test double of the CUDA driver ------------------===//
//
// The host side of the execution engine's CUDA backend, tested on machines
// without a GPU: the tests load this library instead of libcuda.so.1
// (COOPVEC_LIBCUDA=<path>). It runs no kernel - it cannot execute PTX, and
// no result it leaves is meaningful - but it checks and logs, on stderr,
// what a driver would see:
//   - the PTX handed to cuModuleLoadDataEx is a NUL-terminated string, and
//     with FAKE_CUDA_PTXAS=<ptxas> it must assemble for the fake device's
//     chip (its log comes back through CU_JIT_ERROR_LOG_BUFFER);
//   - each launch, decoded against the kernel's own `.param` list in that
//     PTX: one line per parameter with its size and value (an address that
//     starts a live allocation prints as that buffer), the grid and the
//     block, checked against `.maxntid`;
//   - every copy stays inside its allocation, contexts are pushed before
//     use, and at exit nothing is left allocated, loaded or retained.
// Environment: FAKE_CUDA_DEVICES (default 1), FAKE_CUDA_SM (default 80),
// FAKE_CUDA_MAX_THREADS (what cuFuncGetAttribute allows, default the
// kernel's .maxntid), FAKE_CUDA_SMEM_OPTIN (the shared memory a kernel may
// be allowed by cuFuncSetAttribute, default 232448, an H100's; a launch
// with more dynamic shared memory than 48 KiB or that is refused),
// FAKE_CUDA_KERNEL_US (what two events measure, default
// 0), FAKE_CUDA_FILL=<byte> (fill every buffer at launch,
// so that a test sees what is copied back), FAKE_CUDA_FAIL=<entry point>
// (that call fails with the error a real driver would give).
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;

enum { kMaxParams = 512, kMaxBuffers = 1024 };

struct CUfunc_st {
  char name[256];
  int maxntid;          // 0: not declared
  int maxDynamicShared; // allowed by cuFuncSetAttribute (default 48 KiB)
  int numParams;
  int paramBytes[kMaxParams];
  struct CUfunc_st *next; // the module's functions, freed with it
};
struct CUmod_st {
  char *ptx;
  struct CUfunc_st *functions;
};
struct CUevent_st {
  int recorded;
};
struct CUctx_st {
  int unused;
};

typedef struct Buffer {
  char *data;
  size_t size;
  int id;
  int uploaded;
} Buffer;

static Buffer buffers[kMaxBuffers];
static int numBuffers, nextBufferId, numModules, retainedContexts, pushed;
static struct CUctx_st theContext;

static void say(const char *format, ...) {
  va_list args;
  va_start(args, format);
  fprintf(stderr, "fake-cuda: ");
  vfprintf(stderr, format, args);
  fprintf(stderr, "\n");
  va_end(args);
}

static int envInt(const char *name, int fallback) {
  const char *value = getenv(name);
  return value && *value ? atoi(value) : fallback;
}

/// Whether FAKE_CUDA_FAIL names `entry`.
static int failing(const char *entry) {
  const char *name = getenv("FAKE_CUDA_FAIL");
  return name && strcmp(name, entry) == 0;
}

__attribute__((destructor)) static void atExit(void) {
  say("at exit: %d buffers, %d modules, %d contexts retained, %d pushed",
      numBuffers, numModules, retainedContexts, pushed);
}

//===----------------------------------------------------------------------===//
// Errors, devices, contexts
//===----------------------------------------------------------------------===//

CUresult cuInit(unsigned flags) {
  (void)flags;
  return failing("cuInit") ? 100 : 0; // CUDA_ERROR_NO_DEVICE
}

static const struct {
  CUresult code;
  const char *name, *text;
} kErrors[] = {
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was encountered"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
};

static CUresult describe(CUresult error, const char **out, int text) {
  for (size_t i = 0; i < sizeof(kErrors) / sizeof(kErrors[0]); ++i)
    if (kErrors[i].code == error) {
      *out = text ? kErrors[i].text : kErrors[i].name;
      return 0;
    }
  return 1;
}

CUresult cuGetErrorName(CUresult error, const char **name) {
  return describe(error, name, 0);
}
CUresult cuGetErrorString(CUresult error, const char **text) {
  return describe(error, text, 1);
}

CUresult cuDeviceGetCount(int *count) {
  *count = envInt("FAKE_CUDA_DEVICES", 1);
  return 0;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  if (ordinal < 0 || ordinal >= envInt("FAKE_CUDA_DEVICES", 1))
    return 1;
  *device = ordinal;
  return 0;
}

CUresult cuDeviceGetName(char *name, int length, CUdevice device) {
  (void)device;
  snprintf(name, (size_t)length, "coopvec fake GPU");
  return 0;
}

CUresult cuDeviceGetAttribute(int *value, int attribute, CUdevice device) {
  (void)device;
  int sm = envInt("FAKE_CUDA_SM", 80);
  switch (attribute) {
  case 5: // MAX_GRID_DIM_X
    *value = envInt("FAKE_CUDA_MAX_GRID", 2147483647);
    return 0;
  case 8: // MAX_SHARED_MEMORY_PER_BLOCK
    *value = 49152;
    return 0;
  case 13: // CLOCK_RATE (kHz)
    *value = 1000000;
    return 0;
  case 16: // MULTIPROCESSOR_COUNT
    *value = 1;
    return 0;
  case 75:
    *value = sm / 10;
    return 0;
  case 76:
    *value = sm % 10;
    return 0;
  case 97: // MAX_SHARED_MEMORY_PER_BLOCK_OPTIN (an H100 / H200's)
    *value = envInt("FAKE_CUDA_SMEM_OPTIN", 232448);
    return 0;
  default:
    return 1;
  }
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice device) {
  (void)device;
  *context = &theContext;
  ++retainedContexts;
  return 0;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice device) {
  (void)device;
  if (retainedContexts == 0) {
    say("ERROR: cuDevicePrimaryCtxRelease without a retain");
    return 201;
  }
  --retainedContexts;
  return 0;
}

CUresult cuCtxPushCurrent_v2(CUcontext context) {
  if (context != &theContext)
    return 201;
  ++pushed;
  return 0;
}

CUresult cuCtxPopCurrent_v2(CUcontext *context) {
  if (pushed == 0) {
    say("ERROR: cuCtxPopCurrent without a push");
    return 201;
  }
  --pushed;
  *context = &theContext;
  return 0;
}

/// Every other call needs a current context, as with the real driver.
static int noContext(const char *entry) {
  if (pushed)
    return 0;
  say("ERROR: %s without a current context", entry);
  return 1;
}

CUresult cuCtxSynchronize(void) {
  if (noContext("cuCtxSynchronize"))
    return 201;
  return failing("cuCtxSynchronize") ? 700 : 0;
}

//===----------------------------------------------------------------------===//
// Modules: PTX in, kernels out
//===----------------------------------------------------------------------===//

/// Runs $FAKE_CUDA_PTXAS on the PTX for the fake device's chip; its output
/// goes to `log`. Returns 0 when it assembles.
static int assemble(const char *ptx, char *log, size_t logSize) {
  const char *ptxas = getenv("FAKE_CUDA_PTXAS");
  if (!ptxas || !*ptxas)
    return 0;
  char path[] = "/tmp/fake-cuda-XXXXXX";
  int fd = mkstemp(path);
  FILE *file = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!file)
    return 1;
  fputs(ptx, file);
  fclose(file);
  char command[1024];
  snprintf(command, sizeof(command), "%s -arch=sm_%d -o /dev/null %s 2>&1",
           ptxas, envInt("FAKE_CUDA_SM", 80), path);
  FILE *pipe = popen(command, "r");
  size_t used = pipe ? fread(log, 1, logSize - 1, pipe) : 0;
  log[used] = '\0';
  int status = pipe ? pclose(pipe) : -1;
  remove(path);
  return status != 0;
}

/// The options cuModuleLoadDataEx was given: where the error log goes.
static void findLog(unsigned count, const int *options, void **values,
                    char **log, size_t *size) {
  *log = NULL;
  *size = 0;
  for (unsigned i = 0; i < count; ++i) {
    if (options[i] == 5) // CU_JIT_ERROR_LOG_BUFFER
      *log = values[i];
    if (options[i] == 6) // CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES
      *size = (size_t)(uintptr_t)values[i];
  }
}

CUresult cuModuleLoadDataEx(struct CUmod_st **module, const void *image,
                            unsigned count, int *options, void **values) {
  if (noContext("cuModuleLoadDataEx"))
    return 201;
  char *log;
  size_t logSize;
  findLog(count, options, values, &log, &logSize);
  const char *ptx = image;
  const char *target = strstr(ptx, ".target ");
  say("cuModuleLoadDataEx: %zu bytes of PTX, %.*s", strlen(ptx),
      target ? (int)strcspn(target, "\n") : 9, target ? target : "no target");
  char ptxasLog[4096];
  int failed = failing("cuModuleLoadDataEx");
  if (failed)
    snprintf(ptxasLog, sizeof(ptxasLog), "ptxas fatal: the fake JIT refuses");
  else
    failed = assemble(ptx, ptxasLog, sizeof(ptxasLog));
  if (failed) {
    if (log && logSize)
      snprintf(log, logSize, "%s", ptxasLog);
    return 218; // CUDA_ERROR_INVALID_PTX
  }
  *module = calloc(1, sizeof(struct CUmod_st));
  (*module)->ptx = strdup(ptx);
  ++numModules;
  return 0;
}

CUresult cuModuleUnload(struct CUmod_st *module) {
  if (noContext("cuModuleUnload"))
    return 201;
  while (module->functions) {
    struct CUfunc_st *next = module->functions->next;
    free(module->functions);
    module->functions = next;
  }
  free(module->ptx);
  free(module);
  --numModules;
  return 0;
}

/// The size in bytes of one `.param` declaration.
static int paramSize(const char *line) {
  const char *bracket = strchr(line, '[');
  if (bracket && strstr(line, ".b8"))
    return atoi(bracket + 1);
  static const char *const kTypes[] = {"64", "32", "16", "8"};
  static const int kBytes[] = {8, 4, 2, 1};
  for (int i = 0; i < 4; ++i)
    for (const char *p = line; (p = strstr(p, kTypes[i])); ++p)
      if (p > line + 1 && p[-2] == '.' && strchr("usbf", p[-1]))
        return kBytes[i];
  return -1;
}

/// Reads the parameter list and `.maxntid` of `.entry name(` in `ptx`.
static int parseEntry(const char *ptx, struct CUfunc_st *function) {
  char header[300];
  snprintf(header, sizeof(header), ".entry %s(", function->name);
  const char *p = strstr(ptx, header);
  if (!p)
    return 0;
  p = strchr(p, '\n') + 1;
  while (*p && *p != ')') {
    while (*p == ' ' || *p == '\t')
      ++p;
    if (*p == ')')
      break;
    if (strncmp(p, ".param", 6) == 0 && function->numParams < kMaxParams) {
      char line[256];
      snprintf(line, sizeof(line), "%.*s", (int)strcspn(p, "\n"), p);
      function->paramBytes[function->numParams++] = paramSize(line);
    }
    p = strchr(p, '\n');
    if (!p)
      return 0;
    ++p;
  }
  const char *body = strchr(p, '{');
  const char *maxntid = strstr(p, ".maxntid ");
  if (maxntid && (!body || maxntid < body))
    function->maxntid = atoi(maxntid + 9);
  return 1;
}

CUresult cuModuleGetFunction(struct CUfunc_st **function,
                             struct CUmod_st *module, const char *name) {
  if (noContext("cuModuleGetFunction"))
    return 201;
  struct CUfunc_st *found = calloc(1, sizeof(struct CUfunc_st));
  snprintf(found->name, sizeof(found->name), "%s", name);
  if (!parseEntry(module->ptx, found)) {
    free(found);
    return 500; // CUDA_ERROR_NOT_FOUND
  }
  found->next = module->functions; // owned by the module, as in the driver
  module->functions = found;
  *function = found;
  return 0;
}

CUresult cuFuncGetAttribute(int *value, int attribute,
                            struct CUfunc_st *function) {
  if (attribute == 0) { // MAX_THREADS_PER_BLOCK
    int limit = function->maxntid ? function->maxntid : 1024;
    *value = envInt("FAKE_CUDA_MAX_THREADS", limit);
    return 0;
  }
  if (attribute == 4) { // NUM_REGS
    *value = 40;
    return 0;
  }
  return 1;
}

/// MAX_DYNAMIC_SHARED_SIZE_BYTES only: up to the device's opt-in limit.
CUresult cuFuncSetAttribute(struct CUfunc_st *function, int attribute,
                            int value) {
  say("cuFuncSetAttribute %s: attribute %d = %d", function->name, attribute,
      value);
  if (attribute != 8 || value < 0 ||
      value > envInt("FAKE_CUDA_SMEM_OPTIN", 232448))
    return 1; // CUDA_ERROR_INVALID_VALUE
  function->maxDynamicShared = value;
  return 0;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

static Buffer *findBuffer(CUdeviceptr address) {
  for (int i = 0; i < numBuffers; ++i)
    if ((CUdeviceptr)(uintptr_t)buffers[i].data == address)
      return &buffers[i];
  return NULL;
}

CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
  if (noContext("cuMemAlloc"))
    return 201;
  if (bytes == 0)
    return 1; // as the real driver: CUDA_ERROR_INVALID_VALUE
  if (failing("cuMemAlloc_v2") || numBuffers == kMaxBuffers)
    return 2;
  Buffer *buffer = &buffers[numBuffers++];
  buffer->data = calloc(1, bytes);
  buffer->size = bytes;
  buffer->id = nextBufferId++;
  buffer->uploaded = 0;
  *pointer = (CUdeviceptr)(uintptr_t)buffer->data;
  return 0;
}

CUresult cuMemFree_v2(CUdeviceptr pointer) {
  Buffer *buffer = findBuffer(pointer);
  if (!buffer) {
    say("ERROR: cuMemFree of an address that is no allocation");
    return 1;
  }
  free(buffer->data);
  *buffer = buffers[--numBuffers];
  return 0;
}

static int checkCopy(const char *entry, CUdeviceptr address, size_t bytes) {
  if (noContext(entry))
    return 0;
  Buffer *buffer = findBuffer(address);
  if (buffer && bytes <= buffer->size)
    return 1;
  say("ERROR: %s of %zu bytes outside any allocation", entry, bytes);
  return 0;
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr destination, const void *source,
                         size_t bytes) {
  if (!checkCopy("cuMemcpyHtoD", destination, bytes))
    return 1;
  memcpy((void *)(uintptr_t)destination, source, bytes);
  findBuffer(destination)->uploaded = 1;
  return 0;
}

CUresult cuMemcpyDtoH_v2(void *destination, CUdeviceptr source, size_t bytes) {
  if (!checkCopy("cuMemcpyDtoH", source, bytes))
    return 1;
  memcpy(destination, (const void *)(uintptr_t)source, bytes);
  return 0;
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

static void logParam(int index, int bytes, const void *value) {
  if (bytes == 8) {
    uint64_t word;
    memcpy(&word, value, 8);
    Buffer *buffer = findBuffer(word);
    if (buffer)
      say("  param %d (8 bytes): buffer %d (%zu bytes%s)", index, buffer->id,
          buffer->size, buffer->uploaded ? ", uploaded" : "");
    else
      say("  param %d (8 bytes): %lld", index, (long long)word);
  } else if (bytes == 4) {
    uint32_t bits;
    float f;
    memcpy(&bits, value, 4);
    memcpy(&f, value, 4);
    say("  param %d (4 bytes): 0x%08x (f32 %g)", index, bits, (double)f);
  } else if (bytes == 2) {
    uint16_t bits;
    memcpy(&bits, value, 2);
    say("  param %d (2 bytes): 0x%04x", index, bits);
  } else {
    say("  param %d (%d bytes)", index, bytes);
  }
}

CUresult cuLaunchKernel(struct CUfunc_st *f, unsigned gridX, unsigned gridY,
                        unsigned gridZ, unsigned blockX, unsigned blockY,
                        unsigned blockZ, unsigned shared, CUstream stream,
                        void **params, void **extra) {
  if (noContext("cuLaunchKernel"))
    return 201;
  say("launch %s: grid %ux%ux%u, block %ux%ux%u (.maxntid %d), %u bytes of "
      "dynamic shared memory, stream %p, %d params%s",
      f->name, gridX, gridY, gridZ, blockX, blockY, blockZ, f->maxntid, shared,
      (void *)stream, f->numParams, extra ? ", extra" : "");
  if (f->maxntid && blockX * blockY * blockZ > (unsigned)f->maxntid)
    return 1;
  // A real driver refuses dynamic shared memory beyond 48 KiB that the
  // kernel was not allowed.
  int allowed = f->maxDynamicShared > 49152 ? f->maxDynamicShared : 49152;
  if (shared > (unsigned)allowed) {
    say("ERROR: %u bytes of dynamic shared memory, %d allowed", shared,
        allowed);
    return 1;
  }
  for (int i = 0; i < f->numParams; ++i) {
    if (!params[i]) {
      say("ERROR: param %d is a NULL pointer", i);
      return 1;
    }
    logParam(i, f->paramBytes[i], params[i]);
  }
  int fill = envInt("FAKE_CUDA_FILL", -1);
  for (int i = 0; fill >= 0 && i < numBuffers; ++i)
    memset(buffers[i].data, fill, buffers[i].size);
  return failing("cuLaunchKernel") ? 719 : 0;
}

//===----------------------------------------------------------------------===//
// Events (the engine and bench/mlp-gpu time kernels with them)
//===----------------------------------------------------------------------===//

CUresult cuEventCreate(struct CUevent_st **event, unsigned flags) {
  (void)flags;
  if (failing("cuEventCreate"))
    return 2; // CUDA_ERROR_OUT_OF_MEMORY
  *event = calloc(1, sizeof(struct CUevent_st));
  return 0;
}
CUresult cuEventRecord(struct CUevent_st *event, CUstream stream) {
  (void)stream;
  event->recorded = 1;
  return 0;
}
CUresult cuEventSynchronize(struct CUevent_st *event) {
  return event->recorded ? 0 : 1;
}
CUresult cuEventElapsedTime_v2(float *milliseconds, struct CUevent_st *start,
                               struct CUevent_st *end) {
  *milliseconds = (float)envInt("FAKE_CUDA_KERNEL_US", 0) / 1000.0f;
  return start->recorded && end->recorded ? 0 : 1;
}
CUresult cuEventDestroy_v2(struct CUevent_st *event) {
  free(event);
  return 0;
}
