//===- Inline.h - Calls inside per-thread functions (internal) ----*- C -*-===//
//
// A per-thread function may call other functions of its module, per-thread
// or plain (docs/dialect.md, "Per-thread programs"); the targets lower
// straight per-thread code, so the calls are inlined first, by the lowering
// passes themselves and by `coopvec-inline` for who wants to see the
// result.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_TRANSFORMS_INLINE_H
#define COOPVEC_LIB_TRANSFORMS_INLINE_H

#include <mlir-c/IR.h>

#include <stdbool.h>

/// Checks, before anything changes, that every func.call reachable from
/// `func` calls a func.func of `module` with a body of one block, and that
/// no chain of calls comes back to a function it left (recursion). Emits a
/// located error naming `passName` at the first offending call.
bool coopvecCheckCalls(MlirOperation func, MlirOperation module,
                       const char *passName);

/// coopvecCheckCalls for each of `count` functions, up to the first that
/// fails (a cycle would otherwise be reported once from each of its
/// functions), then coopvecInlineCalls for each when all passed.
bool coopvecCheckAndInline(MlirOperation *funcs, intptr_t count,
                           MlirOperation module, const char *passName);

/// Replaces every func.call inside `func` (any depth, and the calls the
/// inlined bodies bring) by the callee's body. coopvecCheckCalls must have
/// passed.
void coopvecInlineCalls(MlirOperation func, MlirOperation module);

#endif // COOPVEC_LIB_TRANSFORMS_INLINE_H
