//===- Dialect.c - Loading the coopvec dialect ----------------------------===//
//
// The dialect is defined in IRDL (dialect/coopvec.irdl.mlir). The build
// embeds that file as `coopvecIRDLText`; loading parses it and hands it to
// mlirLoadIRDLDialects.
//
//===----------------------------------------------------------------------===//

// pthread_once is POSIX, not C11.
#define _POSIX_C_SOURCE 200809L

#include "coopvec-c/Coopvec.h"

#include "Dialect/Setup.h"

#include <mlir-c/Dialect/IRDL.h>
#include <mlir-c/RegisterEverything.h>

#include <pthread.h>
#include <string.h>

extern const char coopvecIRDLText[];
extern const unsigned long coopvecIRDLTextSize;

MlirStringRef coopvecGetIRDLSource(void) {
  return mlirStringRefCreate(coopvecIRDLText, coopvecIRDLTextSize);
}

const char *coopvecGetVersion(void) { return COOPVEC_VERSION; }

static bool isDialectLoaded(MlirContext ctx) {
  MlirDialect dialect = mlirContextGetOrLoadDialect(
      ctx, mlirStringRefCreateFromCString("coopvec"));
  return !mlirDialectIsNull(dialect);
}

static pthread_once_t passesOnce = PTHREAD_ONCE_INIT;

static void registerAllPasses(void) { mlirRegisterAllPasses(); }

void coopvecRegisterAllPassesOnce(void) {
  pthread_once(&passesOnce, registerAllPasses);
}

/// What coopvec's pipelines, the execution engine and coopvecEmitLLVM need
/// besides the dialect, so that a host needs no registration of its own
/// (docs/embedding.md). The upstream dialects and their extensions are
/// made available (not loaded): the lowerings create ops of func, arith,
/// vector, gpu, spirv, llvm..., and only the extensions attach the
/// interfaces those conversions and gpu-module-to-binary use (without them
/// the SPIR-V pipeline crashed). MLIR's pass registry is process-wide;
/// the pipelines name upstream passes in it.
static void prepareContext(MlirContext ctx) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirRegisterAllLLVMTranslations(ctx);
  coopvecRegisterAllPassesOnce(); // process-wide: Dialect/Setup.h
}

MlirLogicalResult coopvecLoadDialect(MlirContext ctx) {
  prepareContext(ctx);
  if (isDialectLoaded(ctx))
    return mlirLogicalResultSuccess();
  // IRDL itself must be loaded to parse the definition.
  MlirDialectHandle irdl = mlirGetDialectHandle__irdl__();
  mlirDialectHandleLoadDialect(irdl, ctx);
  MlirModule definition = mlirModuleCreateParse(ctx, coopvecGetIRDLSource());
  if (mlirModuleIsNull(definition))
    return mlirLogicalResultFailure();
  MlirLogicalResult result = mlirLoadIRDLDialects(definition);
  mlirModuleDestroy(definition);
  return result;
}

MlirLogicalResult coopvecSetupContext(MlirContext ctx) {
  return coopvecLoadDialect(ctx);
}
