// A C++ host: it owns an mlir::MLIRContext, loads coopvec into it through
// the C API, parses with the C++ parser, walks the coopvec ops with the C++
// API and runs the function with coopvec's execution engine.
#include <coopvec-c/Coopvec.h>

#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>
#include <mlir/CAPI/IR.h>
#include <mlir/IR/BuiltinOps.h>
#include <mlir/IR/MLIRContext.h>
#include <mlir/Parser/Parser.h>

static const char *const kSource = R"mlir(
func.func @scale(%x: !coopvec.vec<4, f32>, %s: f32) -> !coopvec.vec<4, f32> {
  %y = "coopvec.mul"(%x, %s) : (!coopvec.vec<4, f32>, f32) -> !coopvec.vec<4, f32>
  return %y : !coopvec.vec<4, f32>
}
)mlir";

/// Runs @scale for 2 threads with s = 0.5 and prints the results.
static bool run(mlir::ModuleOp module) {
  CoopvecEngine *engine = nullptr;
  CoopvecFunction *scale = nullptr;
  CoopvecStatus status =
      coopvecEngineCreate(wrap(module.getOperation()), nullptr, &engine);
  if (status == CoopvecStatusSuccess)
    status = coopvecEngineLookup(engine, "scale", &scale);
  if (status == CoopvecStatusSuccess)
    status = coopvecEngineCompile(engine);
  float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, s = 0.5f, y[8] = {};
  CoopvecArray args[2] = {{x, CoopvecDTypeF32, 8}, {&s, CoopvecDTypeF32, 1}};
  CoopvecArray results[1] = {{y, CoopvecDTypeF32, 8}};
  if (status == CoopvecStatusSuccess)
    status = coopvecFunctionRun(scale, 2, args, 2, results, 1, 0);
  if (status != CoopvecStatusSuccess)
    llvm::errs() << coopvecStatusGetName(status) << ": "
                 << coopvecEngineGetError(engine) << "\n";
  else
    for (float value : y)
      llvm::outs() << llvm::format("%g ", value);
  llvm::outs() << "\n";
  coopvecEngineDestroy(engine);
  return status == CoopvecStatusSuccess;
}

int main() {
  mlir::MLIRContext context;
  if (mlirLogicalResultIsFailure(coopvecLoadDialect(wrap(&context))))
    return 1;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kSource, &context);
  if (!module)
    return 1;
  int coopvecOps = 0;
  module->walk([&](mlir::Operation *op) {
    coopvecOps += op->getName().getDialectNamespace() == "coopvec";
  });
  llvm::outs() << "coopvec " << coopvecGetVersion() << ": " << coopvecOps
               << " coopvec op(s)\n";
  return run(*module) ? 0 : 1;
}
