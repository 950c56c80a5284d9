//===- vulkan-engine.c - C API: the Vulkan backend of the execution engine ===//
//
// Without a loader (COOPVEC_LIBVULKAN names a missing library) and, with
// the `vulkan` feature, on device 0: device listing, the device option,
// compiling the hand-written SPIR-V of test/tools/coopvec-run/vulkan.mlir
// (as the engine's lowered module), runs whose results are compared with
// a reference computed here, and the device's kernel time.
//
//===----------------------------------------------------------------------===//

// RUN: split-file %S/../tools/coopvec-run/vulkan.mlir %t
// RUN: env COOPVEC_LIBVULKAN=%t.no-loader/libvulkan.so.1 coopvec-capi-vulkan-engine %t/scale.lowered.mlir 2>&1 | FileCheck %s --check-prefixes=CHECK,NOLOADER
// RUN: %if vulkan %{ coopvec-capi-vulkan-engine %t/scale.lowered.mlir 2>&1 | FileCheck %s --check-prefixes=CHECK,DEVICE %}

#include "coopvec-c/Coopvec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kModule =
    "func.func @scale(%x: !coopvec.vec<1, f32>, %s: f32) -> "
    "!coopvec.vec<1, f32> {\n"
    "  %y = \"coopvec.mul\"(%x, %s) : (!coopvec.vec<1, f32>, f32) -> "
    "!coopvec.vec<1, f32>\n"
    "  return %y : !coopvec.vec<1, f32>\n"
    "}\n";

static void report(CoopvecEngine *engine, const char *what,
                   CoopvecStatus status) {
  printf("%s: %s%s%s\n", what, coopvecStatusGetName(status), status ? ": " : "",
         status ? coopvecEngineGetError(engine) : "");
}

static void printLines(MlirStringRef text, void *userData) {
  printf("%s%.*s\n", (const char *)userData, (int)text.length, text.data);
}

static void testListing(void) {
  // CHECK-LABEL: testListing
  printf("testListing\n");
  CoopvecStatus status =
      coopvecTargetListDevices(CoopvecTargetVulkan, printLines, "vulkan: ");
  // NOLOADER-NEXT: vulkan: Vulkan: cannot load {{.*}}.no-loader/libvulkan.so.1 (no Vulkan loader)
  // NOLOADER-NEXT: status: no device
  // DEVICE-NEXT: vulkan: 0: {{.*}}: mode={{.*}}
  // DEVICE: status: success
  printf("status: %s\n", coopvecStatusGetName(status));
  status = coopvecTargetListDevices(CoopvecTargetCPU, printLines, "cpu: ");
  // CHECK-NEXT: cpu: cpu: device listing is implemented for the vulkan target only
  // CHECK-NEXT: status: no backend
  printf("status: %s\n", coopvecStatusGetName(status));
}

/// Runs @scale for `batch` threads with s = 0.5 and checks y = x * s.
static void run(CoopvecEngine *engine, CoopvecFunction *scale, int64_t batch) {
  float *x = calloc((size_t)batch + 1, sizeof(float));
  float *y = calloc((size_t)batch + 1, sizeof(float));
  float s = 0.5f;
  for (int64_t i = 0; i < batch; ++i)
    x[i] = (float)(i % 97) - 48.0f;
  CoopvecArray args[2] = {{x, CoopvecDTypeF32, batch},
                          {&s, CoopvecDTypeF32, 1}};
  CoopvecArray results[1] = {{y, CoopvecDTypeF32, batch}};
  CoopvecStatus status =
      coopvecFunctionRun(scale, batch, args, 2, results, 1, 0);
  char what[64];
  snprintf(what, sizeof(what), "batch %lld", (long long)batch);
  report(engine, what, status);
  int64_t wrong = 0;
  for (int64_t i = 0; i < batch; ++i)
    wrong += y[i] != x[i] * s;
  double seconds = coopvecEngineGetDeviceSeconds(engine);
  printf("%s: %lld wrong, device time %s\n", what, (long long)wrong,
         seconds < 0 ? "not measured" : "measured");
  free(x);
  free(y);
}

static CoopvecEngine *create(MlirModule module, MlirModule lowered,
                             int device) {
  CoopvecEngineOptions options = coopvecEngineOptionsGetDefault();
  options.target = CoopvecTargetVulkan;
  options.pipeline = "";
  options.loweredModule = mlirModuleGetOperation(lowered);
  options.device = device;
  CoopvecEngine *engine = NULL;
  CoopvecStatus status =
      coopvecEngineCreate(mlirModuleGetOperation(module), &options, &engine);
  char what[64];
  snprintf(what, sizeof(what), "create, device %d", device);
  report(engine, what, status);
  return engine;
}

static void testEngine(MlirModule module, MlirModule lowered) {
  // CHECK-LABEL: testEngine
  printf("testEngine\n");
  CoopvecEngine *engine = create(module, lowered, -1);
  // CHECK-NEXT: create, device -1: invalid argument: device index -1 is negative
  coopvecEngineDestroy(engine);
  engine = create(module, lowered, 99);
  // CHECK-NEXT: create, device 99: success
  // NOLOADER-NEXT: compile: no device: Vulkan: cannot load
  // DEVICE-NEXT: compile: no device: Vulkan: no device 99: there
  report(engine, "compile", coopvecEngineCompile(engine));
  coopvecEngineDestroy(engine);
  engine = create(module, lowered, 0);
  // CHECK-NEXT: create, device 0: success
  // CHECK-NEXT: device time before a run: -1
  printf("device time before a run: %g\n",
         coopvecEngineGetDeviceSeconds(engine));
  CoopvecStatus status = coopvecEngineCompile(engine);
  // NOLOADER-NEXT: compile: no device: Vulkan: cannot load
  // NOLOADER-NEXT: compile again: no device: Vulkan: cannot load
  // DEVICE-NEXT: compile: success
  // DEVICE-NEXT: compile again: success
  report(engine, "compile", status);
  report(engine, "compile again", coopvecEngineCompile(engine));
  CoopvecFunction *scale = NULL;
  coopvecEngineLookup(engine, "scale", &scale);
  if (!status) {
    // DEVICE-NEXT: batch 0: success
    // DEVICE-NEXT: batch 0: 0 wrong, device time not measured
    // DEVICE-NEXT: batch 100000: success
    // DEVICE-NEXT: batch 100000: 0 wrong, device time measured
    run(engine, scale, 0);
    run(engine, scale, 100000);
  }
  coopvecEngineDestroy(engine);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  if (argc != 2)
    return 1;
  MlirContext ctx = mlirContextCreate();
  if (mlirLogicalResultIsFailure(coopvecSetupContext(ctx)))
    return 1;
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  MlirModule lowered = mlirModuleCreateParseFromFile(
      ctx, mlirStringRefCreateFromCString(argv[1]));
  if (mlirModuleIsNull(module) || mlirModuleIsNull(lowered))
    return 1;
  testListing();
  testEngine(module, lowered);
  mlirModuleDestroy(lowered);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
