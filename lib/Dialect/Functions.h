//===- Functions.h - Per-thread functions and symbols (internal) --*- C -*-===//
//
// What the dialect calls a per-thread function, and the small symbol
// queries every pass over functions needs (the C API has no func.func
// accessors).
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_DIALECT_FUNCTIONS_H
#define COOPVEC_LIB_DIALECT_FUNCTIONS_H

#include <mlir-c/IR.h>

#include <stdbool.h>

/// A func.func has per-thread semantics when its signature mentions a
/// coopvec type or its body holds a coopvec op (docs/execution-model.md).
bool coopvecIsPerThreadFunction(MlirOperation func);

/// The function's `function_type`; its `sym_name` ("" when it has none).
MlirType coopvecFunctionTypeOf(MlirOperation func);
MlirStringRef coopvecSymbolNameOf(MlirOperation op);

/// The single block of a module-like op (builtin.module, gpu.module).
MlirBlock coopvecModuleBody(MlirOperation module);
/// The top-level op of `module` whose symbol is `name`, or a null op.
MlirOperation coopvecLookupSymbol(MlirOperation module, MlirStringRef name);

/// The batched form of per-thread function type `type`, shared by every
/// target (the CPU's @f_batched, the GPU kernels):
/// (n: index, the arguments with each vec<N, T> as memref<?xT>, one
/// memref<?xT> per result) -> ().
MlirType coopvecBatchedFunctionType(MlirContext ctx, MlirType type);

#endif // COOPVEC_LIB_DIALECT_FUNCTIONS_H
