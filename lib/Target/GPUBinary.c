//===- GPUBinary.c - PTX and cubin from a gpu.binary ----------------------===//
//
// After coopvec-lower-to-nvvm the module holds a `gpu.binary` whose
// `#gpu.object` carries the PTX text (gpu-module-to-binary{format=isa}).
// This file hands that text out (`--emit=ptx`, and an execution engine that
// JIT-compiles it with the CUDA driver), or assembles it into a cubin with
// the CUDA toolkit's ptxas (`--emit=cubin`), run as a subprocess: ptxas has
// no library form that Debian's MLIR links.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "coopvec-c/Target.h"

#include "coopvec-c/Support.h"

#include "Target/NVPTXTarget.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/Dialect/GPU.h>

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/// gpu::CompilationTarget: what a #gpu.object holds.
enum { OBJECT_ASSEMBLY = 2, OBJECT_BINARY = 3 };

static void reportError(MlirStringCallback callback, void *userData,
                        const char *message) {
  if (callback)
    callback(mlirStringRefCreateFromCString(message), userData);
}

typedef struct ObjectSearch {
  MlirAttribute object; // the NVVM #gpu.object found
  int numBinaries, numObjects;
} ObjectSearch;

static void searchBinary(MlirOperation binary, ObjectSearch *search) {
  MlirAttribute objects = mlirOperationGetAttributeByName(
      binary, mlirStringRefCreateFromCString("objects"));
  ++search->numBinaries;
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(objects); ++i) {
    MlirAttribute object = mlirArrayAttrGetElement(objects, i);
    CoopvecNVVMTarget target;
    if (mlirAttributeIsAGPUObjectAttr(object) &&
        coopvecReadNVVMTarget(mlirGPUObjectAttrGetTarget(object), &target)) {
      search->object = object;
      ++search->numObjects;
    }
  }
}

/// The one NVVM object of the module's gpu.binary ops, or a null attribute
/// after reporting why there is none.
static MlirAttribute findNVVMObject(MlirOperation module,
                                    MlirStringCallback errorCallback,
                                    void *errorUserData) {
  ObjectSearch search = {{NULL}, 0, 0};
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (coopvecOpIsNamed(op, "gpu.binary"))
      searchBinary(op, &search);
  if (search.numObjects == 1)
    return search.object;
  CoopvecBuffer message = {0};
  if (search.numBinaries == 0)
    coopvecBufferAppendStr(&message, "the module has no gpu.binary (run "
                                     "coopvec-lower-to-nvvm first)");
  else
    coopvecBufferAppendf(&message,
                         "the module's gpu.binary ops hold %d NVVM objects; "
                         "PTX and cubin output need exactly one",
                         search.numObjects);
  reportError(errorCallback, errorUserData, coopvecBufferStr(&message));
  coopvecBufferFree(&message);
  return (MlirAttribute){NULL};
}

//===----------------------------------------------------------------------===//
// ptxas
//===----------------------------------------------------------------------===//

static bool isExecutable(const char *path) { return access(path, X_OK) == 0; }

/// $COOPVEC_PTXAS when set (an explicit choice: not searched further),
/// else `ptxas` on PATH, else /usr/local/cuda/bin/ptxas.
static bool findPtxas(CoopvecBuffer *path, CoopvecBuffer *error) {
  const char *chosen = getenv("COOPVEC_PTXAS");
  if (chosen && *chosen) {
    coopvecBufferAppendStr(path, chosen);
    if (isExecutable(chosen))
      return true;
    coopvecBufferAppendf(error,
                         "ptxas not found: COOPVEC_PTXAS='%s' is not "
                         "an executable",
                         chosen);
    return false;
  }
  const char *dirs = getenv("PATH");
  for (const char *p = dirs ? dirs : ""; *p;) {
    size_t length = strcspn(p, ":");
    coopvecBufferClear(path);
    coopvecBufferAppendf(path, "%.*s/ptxas", (int)length, p);
    if (length && isExecutable(coopvecBufferStr(path)))
      return true;
    p += length + (p[length] == ':');
  }
  coopvecBufferClear(path);
  coopvecBufferAppendStr(path, "/usr/local/cuda/bin/ptxas");
  if (isExecutable(coopvecBufferStr(path)))
    return true;
  coopvecBufferAppendStr(error,
                         "cubin output needs ptxas from the CUDA toolkit, "
                         "which was found neither on PATH nor as "
                         "/usr/local/cuda/bin/ptxas (set COOPVEC_PTXAS to "
                         "its path, or emit PTX)");
  return false;
}

static bool writeFile(const char *path, MlirStringRef data) {
  FILE *file = fopen(path, "wb");
  if (!file)
    return false;
  bool ok = fwrite(data.data, 1, data.length, file) == data.length;
  return fclose(file) == 0 && ok;
}

static bool readFile(const char *path, CoopvecBuffer *data) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return false;
  char chunk[65536];
  size_t size;
  while ((size = fread(chunk, 1, sizeof(chunk), file)) > 0)
    coopvecBufferAppend(data, chunk, size);
  bool ok = !ferror(file);
  fclose(file);
  return ok;
}

/// Runs `argv` with stdout and stderr into `logPath`; its exit status, or
/// -1 when it could not run.
static int runLogged(char *const argv[], const char *logPath) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, logPath,
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid;
  int spawned = posix_spawn(&pid, argv[0], &actions, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0)
    return -1;
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// The files of one ptxas run, in a fresh temporary directory.
typedef struct Scratch {
  char dir[64];
  CoopvecBuffer ptx, cubin, log;
} Scratch;

static bool openScratch(Scratch *s) {
  memset(s, 0, sizeof(*s));
  const char *tmp = getenv("TMPDIR");
  snprintf(s->dir, sizeof(s->dir), "%s/coopvec-ptxas-XXXXXX",
           tmp && *tmp && strlen(tmp) < 32 ? tmp : "/tmp");
  if (!mkdtemp(s->dir))
    return false;
  coopvecBufferAppendf(&s->ptx, "%s/kernels.ptx", s->dir);
  coopvecBufferAppendf(&s->cubin, "%s/kernels.cubin", s->dir);
  coopvecBufferAppendf(&s->log, "%s/ptxas.log", s->dir);
  return true;
}

static void closeScratch(Scratch *s) {
  remove(coopvecBufferStr(&s->ptx));
  remove(coopvecBufferStr(&s->cubin));
  remove(coopvecBufferStr(&s->log));
  rmdir(s->dir);
  coopvecBufferFree(&s->ptx);
  coopvecBufferFree(&s->cubin);
  coopvecBufferFree(&s->log);
}

/// Runs `ptxas -arch=<chip> -o cubin ptx` in `s`; the cubin goes to
/// `cubin`, ptxas's complaints to `error`.
static bool runPtxas(const Scratch *s, const char *ptxas, MlirStringRef ptx,
                     const char *chip, CoopvecBuffer *cubin,
                     CoopvecBuffer *error) {
  if (!writeFile(coopvecBufferStr(&s->ptx), ptx)) {
    coopvecBufferAppendf(error, "cannot write the temporary file '%s': %s",
                         coopvecBufferStr(&s->ptx), strerror(errno));
    return false;
  }
  CoopvecBuffer arch = {0};
  coopvecBufferAppendf(&arch, "-arch=%s", chip);
  char *argv[] = {(char *)ptxas, arch.data,   "-o",
                  s->cubin.data, s->ptx.data, NULL};
  int status = runLogged(argv, coopvecBufferStr(&s->log));
  bool ok = status == 0 && readFile(coopvecBufferStr(&s->cubin), cubin);
  if (!ok) {
    coopvecBufferAppendf(error, "%s %s failed (exit status %d)", ptxas,
                         coopvecBufferStr(&arch), status);
    CoopvecBuffer log = {0};
    bool logged = readFile(coopvecBufferStr(&s->log), &log);
    while (logged && log.size && log.data[log.size - 1] == '\n')
      log.data[--log.size] = '\0';
    if (logged && log.size)
      coopvecBufferAppendf(error, ":\n%s", coopvecBufferStr(&log));
    coopvecBufferFree(&log);
  }
  coopvecBufferFree(&arch);
  return ok;
}

/// The cubin of `ptx` for `chip`, by ptxas in a temporary directory.
static bool assemble(MlirStringRef ptx, const char *chip, CoopvecBuffer *cubin,
                     CoopvecBuffer *error) {
  CoopvecBuffer ptxas = {0};
  bool ok = findPtxas(&ptxas, error);
  Scratch s;
  if (ok && !openScratch(&s)) {
    coopvecBufferAppendf(error, "cannot create a temporary directory: %s",
                         strerror(errno));
    ok = false;
  } else if (ok) {
    ok = runPtxas(&s, coopvecBufferStr(&ptxas), ptx, chip, cubin, error);
    closeScratch(&s);
  }
  coopvecBufferFree(&ptxas);
  return ok;
}

//===----------------------------------------------------------------------===//
// The entry point
//===----------------------------------------------------------------------===//

/// Writes the object as `kind`; false after appending the reason.
static bool emitObject(MlirAttribute object, CoopvecGPUEmitKind kind,
                       MlirStringCallback output, void *outputUserData,
                       CoopvecBuffer *error) {
  uint32_t format = mlirGPUObjectAttrGetFormat(object);
  // The text is not NUL-terminated: use its length.
  MlirStringRef data = mlirGPUObjectAttrGetObject(object);
  if (format == OBJECT_BINARY && kind == CoopvecEmitCubin) {
    output(data, outputUserData);
    return true;
  }
  if (format != OBJECT_ASSEMBLY) {
    coopvecBufferAppendStr(error, "the NVVM object holds no PTX text (lower "
                                  "with gpu-module-to-binary{format=isa})");
    return false;
  }
  if (kind == CoopvecEmitPTX) {
    output(data, outputUserData);
    return true;
  }
  CoopvecNVVMTarget target;
  coopvecReadNVVMTarget(mlirGPUObjectAttrGetTarget(object), &target);
  CoopvecBuffer cubin = {0};
  bool ok = assemble(data, target.chip, &cubin, error);
  if (ok)
    output(mlirStringRefCreate(cubin.data, cubin.size), outputUserData);
  coopvecBufferFree(&cubin);
  return ok;
}

MlirLogicalResult coopvecEmitGPU(MlirOperation module, CoopvecGPUEmitKind kind,
                                 MlirStringCallback output,
                                 void *outputUserData,
                                 MlirStringCallback errorCallback,
                                 void *errorUserData) {
  MlirAttribute object = findNVVMObject(module, errorCallback, errorUserData);
  if (mlirAttributeIsNull(object))
    return mlirLogicalResultFailure();
  CoopvecBuffer error = {0};
  bool ok = emitObject(object, kind, output, outputUserData, &error);
  if (!ok)
    reportError(errorCallback, errorUserData, coopvecBufferStr(&error));
  coopvecBufferFree(&error);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}
