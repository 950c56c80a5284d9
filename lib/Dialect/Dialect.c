//===- Dialect.c - Loading the coopvec dialect ----------------------------===//
//
// The dialect is defined in IRDL (dialect/coopvec.irdl.mlir). The build
// embeds that file as `coopvecIRDLText`; loading parses it and hands it to
// mlirLoadIRDLDialects.
//
//===----------------------------------------------------------------------===//

#include "coopvec-c/Coopvec.h"

#include <mlir-c/Dialect/IRDL.h>
#include <mlir-c/RegisterEverything.h>

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

MlirLogicalResult coopvecLoadDialect(MlirContext ctx) {
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
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirRegisterAllLLVMTranslations(ctx);
  mlirRegisterAllPasses();
  return coopvecLoadDialect(ctx);
}
