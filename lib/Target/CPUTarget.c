//===- CPUTarget.c - What LLVM knows about a CPU target -------------------===//

// pthread_once is POSIX, not C11.
#define _POSIX_C_SOURCE 200809L

#include "Target/CPUTarget.h"

#include "Dialect/Setup.h"

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <mlir-c/Dialect/LLVM.h>
#include <mlir-c/Pass.h>
#include <mlir-c/RegisterEverything.h>

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// cmake/CPUNames.cmake.
extern const char *const coopvecCPUNames_x86_64[];
extern const char *const coopvecCPUNames_aarch64[];
extern const char *const coopvecCPUFeatures_x86_64[];
extern const char *const coopvecCPUFeatures_aarch64[];

typedef enum Arch { ArchX86_64, ArchAArch64, ArchOther } Arch;

static Arch archOf(const char *triple) {
  size_t length = strcspn(triple, "-");
  if ((length == 6 && strncmp(triple, "x86_64", 6) == 0) ||
      (length == 5 && strncmp(triple, "amd64", 5) == 0))
    return ArchX86_64;
  if ((length == 7 && strncmp(triple, "aarch64", 7) == 0) ||
      (length == 5 && strncmp(triple, "arm64", 5) == 0))
    return ArchAArch64;
  return ArchOther;
}

bool coopvecCPUNameIsKnown(const char *triple, const char *cpu) {
  Arch arch = archOf(triple);
  const char *const *names = arch == ArchX86_64    ? coopvecCPUNames_x86_64
                             : arch == ArchAArch64 ? coopvecCPUNames_aarch64
                                                   : NULL;
  if (!names)
    return true;
  for (; *names; ++names)
    if (strcmp(*names, cpu) == 0)
      return true;
  return false;
}

static pthread_once_t initOnce = PTHREAD_ONCE_INIT;

/// LLVM's targets and MLIR's pass registry are process-wide: set up once.
static void initializeOnce(void) {
  LLVMInitializeAllTargetInfos();
  LLVMInitializeAllTargets();
  LLVMInitializeAllTargetMCs();
  coopvecRegisterAllPassesOnce();
}

/// "+a,-b": every flag is a sign and a name.
static bool checkFeatureSyntax(const char *features, CoopvecBuffer *error) {
  const char *p = features;
  while (*p) {
    size_t length = strcspn(p, ",");
    bool ok = length >= 2 && (p[0] == '+' || p[0] == '-');
    for (size_t i = 1; ok && i < length; ++i)
      ok = isalnum((unsigned char)p[i]) || strchr("._-", p[i]);
    if (!ok) {
      coopvecBufferAppendf(error,
                           "invalid target feature '%.*s' in '%s' (expected "
                           "a comma list of +name / -name)",
                           (int)length, p, features);
      return false;
    }
    p += length + (p[length] == ',');
  }
  return true;
}

/// Whether LLVM knows feature `name` (`length` bytes) for the architecture
/// of `triple`; architectures without a list accept any name.
static bool featureIsKnown(const char *triple, const char *name,
                           size_t length) {
  Arch arch = archOf(triple);
  const char *const *names = arch == ArchX86_64    ? coopvecCPUFeatures_x86_64
                             : arch == ArchAArch64 ? coopvecCPUFeatures_aarch64
                                                   : NULL;
  if (!names)
    return true;
  for (; *names; ++names)
    if (strlen(*names) == length && strncmp(*names, name, length) == 0)
      return true;
  return false;
}

/// Every name of the (well-formed) list `features` is one LLVM knows: an
/// unknown one would make LLVM print warnings to stderr and ignore it.
static bool checkFeatureNames(const char *triple, const char *features,
                              CoopvecBuffer *error) {
  for (const char *p = features; *p;) {
    size_t length = strcspn(p, ",");
    if (!featureIsKnown(triple, p + 1, length - 1)) {
      coopvecBufferAppendf(error,
                           "unknown target feature '%.*s' for '%s' (see `llc "
                           "-mtriple=%s -mattr=help`)",
                           (int)length, p, triple, triple);
      return false;
    }
    p += length + (p[length] == ',');
  }
  return true;
}

/// Appends `"+a", "-b"` for the comma list `features`.
static void appendFeatureList(CoopvecBuffer *text, const char *features) {
  bool first = true;
  for (const char *p = features; *p;) {
    size_t length = strcspn(p, ",");
    if (length)
      coopvecBufferAppendf(text, "%s\"%.*s\"", first ? "" : ", ", (int)length,
                           p);
    first = first && !length;
    p += length + (p[length] == ',');
  }
}

/// The features LLVM derives for the target, as MLIR prints the
/// `#llvm.target` attribute after llvm-target-to-target-features.
static bool probeFeatures(const CoopvecCPUTarget *target, CoopvecBuffer *out,
                          CoopvecBuffer *error) {
  MlirContext ctx = mlirContextCreate();
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__llvm__(), ctx);
  CoopvecBuffer text = {0};
  coopvecBufferAppendf(&text,
                       "module attributes {llvm.target = #llvm.target<"
                       "triple = \"%s\", chip = \"%s\", features = <[",
                       target->triple, target->cpu);
  appendFeatureList(&text, coopvecBufferStr(&target->features));
  coopvecBufferAppendStr(&text, "]>>} {}");
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreate(text.data, text.size));
  coopvecBufferFree(&text);
  bool ok = !mlirModuleIsNull(module);
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  CoopvecBuffer ignored = {0};
  ok = ok &&
       mlirLogicalResultIsSuccess(mlirOpPassManagerAddPipeline(
           mlirPassManagerGetAsOpPassManager(pm),
           mlirStringRefCreateFromCString("llvm-target-to-target-features"),
           coopvecBufferCallback, &ignored)) &&
       mlirLogicalResultIsSuccess(
           mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)));
  if (ok) {
    MlirAttribute attr = mlirOperationGetAttributeByName(
        mlirModuleGetOperation(module),
        mlirStringRefCreateFromCString("llvm.target"));
    mlirAttributePrint(attr, coopvecBufferCallback, out);
  } else {
    coopvecBufferAppendf(error,
                         "cannot derive the features of CPU '%s' for '%s'",
                         target->cpu, target->triple);
  }
  coopvecBufferFree(&ignored);
  mlirPassManagerDestroy(pm);
  if (!mlirModuleIsNull(module))
    mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return ok;
}

static bool hasFeature(const CoopvecBuffer *features, const char *name) {
  char quoted[64];
  snprintf(quoted, sizeof(quoted), "\"+%s\"", name);
  return strstr(coopvecBufferStr(features), quoted) != NULL;
}

bool coopvecCPUTargetHasFeature(const CoopvecCPUTarget *target,
                                const char *name) {
  return hasFeature(&target->derivedFeatures, name);
}

/// The float SIMD registers of the architecture with these features, and
/// whether it has a fused multiply-add.
static void deriveRegisters(CoopvecCPUTarget *target,
                            const CoopvecBuffer *features) {
  Arch arch = archOf(target->triple);
  target->vectorBits = 128;
  target->numVectorRegisters = arch == ArchAArch64 ? 32 : 16;
  target->hasFusedMultiplyAdd =
      arch == ArchAArch64 ||
      (arch == ArchX86_64 && hasFeature(features, "fma"));
  if (arch != ArchX86_64)
    return;
  if (hasFeature(features, "avx512f")) {
    target->vectorBits = 512;
    target->numVectorRegisters = 32;
  } else if (hasFeature(features, "avx")) {
    target->vectorBits = 256;
  }
}

static bool setName(char *field, size_t size, const char *value,
                    const char *what, CoopvecBuffer *error) {
  if (strlen(value) < size) {
    snprintf(field, size, "%s", value);
    return true;
  }
  coopvecBufferAppendf(error, "%s '%.40s...' is too long", what, value);
  return false;
}

/// Fills triple, cpu and features, the host's where not given.
static bool resolveNames(const char *triple, const char *cpu,
                         const char *features, CoopvecCPUTarget *target,
                         CoopvecBuffer *error) {
  bool host = !cpu || !*cpu || strcmp(cpu, "host") == 0;
  char *defaultTriple = LLVMGetDefaultTargetTriple();
  char *hostCPU = LLVMGetHostCPUName();
  char *hostFeatures = LLVMGetHostCPUFeatures();
  bool ok =
      setName(target->triple, sizeof(target->triple),
              triple && *triple ? triple : defaultTriple, "triple", error) &&
      setName(target->cpu, sizeof(target->cpu), host ? hostCPU : cpu,
              "CPU name", error);
  if (ok && host)
    coopvecBufferAppendStr(&target->features, hostFeatures);
  if (ok && features && *features)
    coopvecBufferAppendf(&target->features, "%s%s",
                         target->features.size ? "," : "", features);
  LLVMDisposeMessage(defaultTriple);
  LLVMDisposeMessage(hostCPU);
  LLVMDisposeMessage(hostFeatures);
  return ok;
}

bool coopvecCPUTargetResolve(const char *triple, const char *cpu,
                             const char *features, CoopvecCPUTarget *target,
                             CoopvecBuffer *error) {
  memset(target, 0, sizeof(*target));
  pthread_once(&initOnce, initializeOnce);
  if (!resolveNames(triple, cpu, features, target, error) ||
      (features && !checkFeatureSyntax(features, error)))
    return false;
  LLVMTargetRef llvmTarget;
  char *message = NULL;
  if (LLVMGetTargetFromTriple(target->triple, &llvmTarget, &message)) {
    coopvecBufferAppendf(error, "unknown target triple '%s'", target->triple);
    LLVMDisposeMessage(message);
    return false;
  }
  if (!coopvecCPUNameIsKnown(target->triple, target->cpu)) {
    coopvecBufferAppendf(error,
                         "unknown target CPU '%s' for '%s' (see `llc "
                         "-mtriple=%s -mcpu=help`)",
                         target->cpu, target->triple, target->triple);
    return false;
  }
  if (features && !checkFeatureNames(target->triple, features, error))
    return false;
  bool ok = probeFeatures(target, &target->derivedFeatures, error);
  if (ok)
    deriveRegisters(target, &target->derivedFeatures);
  return ok;
}

void coopvecCPUTargetFree(CoopvecCPUTarget *target) {
  coopvecBufferFree(&target->features);
  coopvecBufferFree(&target->derivedFeatures);
}

//===----------------------------------------------------------------------===//
// Can the host run it?
//===----------------------------------------------------------------------===//

/// The x86 extensions whose instructions LLVM emits for lowered coopvec
/// code: the vector ISA of the lane vectors, FMAs and f16 conversions, and
/// the scalar extensions it uses for index arithmetic and masks (BMI2
/// shifts, LZCNT, POPCNT, MOVBE). Tuning flags ("+fast-gather") are not
/// instructions, and the host's LLVMGetHostCPUFeatures does not list them,
/// so the comparison is limited to this list.
static const char *const kCheckedX86Features[] = {
    "sse4.1",   "sse4.2",   "popcnt",   "avx",        "avx2",  "fma",
    "f16c",     "bmi",      "bmi2",     "lzcnt",      "movbe", "avx512f",
    "avx512bw", "avx512vl", "avx512dq", "avx512fp16",
};
enum {
  kNumCheckedX86Features =
      sizeof(kCheckedX86Features) / sizeof(kCheckedX86Features[0])
};

/// Appends the checked features `code` has and `host` lacks to `missing`.
static void listMissing(const CoopvecCPUTarget *code,
                        const CoopvecCPUTarget *host, CoopvecBuffer *missing) {
  for (int i = 0; i < kNumCheckedX86Features; ++i) {
    const char *name = kCheckedX86Features[i];
    if (coopvecCPUTargetHasFeature(code, name) &&
        !coopvecCPUTargetHasFeature(host, name))
      coopvecBufferAppendf(missing, "%s%s", missing->size ? ", " : "", name);
  }
}

bool coopvecCPUTargetCheckHost(const char *cpu, const char *features,
                               CoopvecBuffer *error) {
  CoopvecCPUTarget host, code;
  memset(&host, 0, sizeof(host));
  memset(&code, 0, sizeof(code));
  CoopvecBuffer reason = {0}, missing = {0};
  const char *codeCPU = cpu && *cpu ? cpu : "host";
  bool ok = coopvecCPUTargetResolve(NULL, "host", NULL, &host, error);
  if (ok && !coopvecCPUTargetResolve(host.triple, codeCPU, features, &code,
                                     &reason)) {
    coopvecBufferAppendf(error,
                         "the code was compiled for CPU '%s', which this "
                         "host (%s, %s) cannot run: %s",
                         codeCPU, host.triple, host.cpu,
                         coopvecBufferStr(&reason));
    ok = false;
  }
  if (ok)
    listMissing(&code, &host, &missing);
  if (ok && missing.size) {
    coopvecBufferAppendf(error,
                         "the code was compiled for CPU '%s' with %s, which "
                         "this host (%s) lacks; lower it for this host "
                         "(coopvec-lower-to-cpu without target-cpu) or run "
                         "it on a machine that has them",
                         code.cpu, coopvecBufferStr(&missing), host.cpu);
    ok = false;
  }
  coopvecBufferFree(&reason);
  coopvecBufferFree(&missing);
  coopvecCPUTargetFree(&code);
  coopvecCPUTargetFree(&host);
  return ok;
}
