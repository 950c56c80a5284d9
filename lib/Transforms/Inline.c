//===- Inline.c - coopvec-inline: calls inside per-thread functions -------===//
//
// MLIR's `inline` pass does not inline coopvec ops: IRDL dialects have no
// inliner interface, so every callee holding one is "illegal to inline".
// Per-thread functions are small and called with known callees, so this is
// the plain textbook inliner: clone the callee, substitute the call's
// operands for its arguments, splice its body before the call and its
// return operands for the call's results. Cycles are refused beforehand
// (coopvecCheckCalls), so repeating until no call is left terminates.
//
//===----------------------------------------------------------------------===//

#include "Transforms/Inline.h"

#include "Conversion/PerThread/PerThread.h"
#include "Dialect/Functions.h"
#include "Dialect/Verifier.h"
#include "Pass/PassDef.h"
#include "Support/Alloc.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>

#include <stdlib.h>
#include <string.h>

/// The func.func a func.call calls, or a null op when `module` has none.
static MlirOperation calleeOf(MlirOperation call, MlirOperation module) {
  MlirAttribute callee = mlirOperationGetAttributeByName(
      call, mlirStringRefCreateFromCString("callee"));
  if (mlirAttributeIsNull(callee) || !mlirAttributeIsAFlatSymbolRef(callee))
    return (MlirOperation){NULL};
  MlirOperation func =
      coopvecLookupSymbol(module, mlirFlatSymbolRefAttrGetValue(callee));
  return !mlirOperationIsNull(func) && coopvecOpIsNamed(func, "func.func")
             ? func
             : (MlirOperation){NULL};
}

static MlirStringRef calleeName(MlirOperation call) {
  MlirAttribute callee = mlirOperationGetAttributeByName(
      call, mlirStringRefCreateFromCString("callee"));
  return mlirAttributeIsNull(callee) || !mlirAttributeIsAFlatSymbolRef(callee)
             ? mlirStringRefCreate("?", 1)
             : mlirFlatSymbolRefAttrGetValue(callee);
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

/// A depth-first search over the calls, with the functions on the current
/// path (a cycle returns to one of them).
typedef struct CallSearch {
  MlirOperation module;
  const char *passName;
  MlirOperation *path;
  intptr_t depth, capacity;
  bool ok;
} CallSearch;

static bool searchFunction(CallSearch *search, MlirOperation func);

static bool onPath(const CallSearch *search, MlirOperation func) {
  for (intptr_t i = 0; i < search->depth; ++i)
    if (mlirOperationEqual(search->path[i], func))
      return true;
  return false;
}

static bool checkCallee(CallSearch *search, MlirOperation call) {
  MlirStringRef name = calleeName(call);
  MlirOperation callee = calleeOf(call, search->module);
  MlirBlock body =
      mlirOperationIsNull(callee)
          ? (MlirBlock){NULL}
          : mlirRegionGetFirstBlock(mlirOperationGetRegion(callee, 0));
  if (mlirBlockIsNull(body)) {
    coopvecEmitOpError(call,
                       "calls @%.*s, which has no body in the module; %s "
                       "inlines every call of a per-thread function",
                       (int)name.length, name.data, search->passName);
    return false;
  }
  if (!mlirBlockIsNull(mlirBlockGetNextInRegion(body))) {
    coopvecEmitOpError(call,
                       "calls @%.*s, whose body has several blocks; only "
                       "structured control flow (scf) can be inlined into a "
                       "per-thread function",
                       (int)name.length, name.data);
    return false;
  }
  if (onPath(search, callee)) {
    coopvecEmitOpError(call,
                       "calls @%.*s recursively; per-thread functions cannot "
                       "recurse (%s inlines every call)",
                       (int)name.length, name.data, search->passName);
    return false;
  }
  return searchFunction(search, callee);
}

static MlirWalkResult checkCallOp(MlirOperation op, void *userData) {
  CallSearch *search = userData;
  if (!coopvecOpIsNamed(op, "func.call"))
    return MlirWalkResultAdvance;
  if (checkCallee(search, op))
    return MlirWalkResultAdvance;
  search->ok = false;
  return MlirWalkResultInterrupt;
}

static bool searchFunction(CallSearch *search, MlirOperation func) {
  search->path = coopvecGrowArray(search->path, &search->capacity,
                                  search->depth + 1, sizeof(MlirOperation));
  search->path[search->depth++] = func;
  mlirOperationWalk(func, checkCallOp, search, MlirWalkPreOrder);
  --search->depth;
  return search->ok;
}

bool coopvecCheckCalls(MlirOperation func, MlirOperation module,
                       const char *passName) {
  CallSearch search = {module, passName, NULL, 0, 0, true};
  bool ok = searchFunction(&search, func);
  free(search.path);
  return ok;
}

//===----------------------------------------------------------------------===//
// Inlining
//===----------------------------------------------------------------------===//

static MlirWalkResult findCall(MlirOperation op, void *userData) {
  if (!coopvecOpIsNamed(op, "func.call"))
    return MlirWalkResultAdvance;
  *(MlirOperation *)userData = op;
  return MlirWalkResultInterrupt;
}

/// Replaces `call` by a copy of its callee's body.
static void inlineCall(MlirOperation call, MlirOperation callee) {
  MlirOperation copy = mlirOperationClone(callee);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(copy, 0));
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); ++i)
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(body, i),
                                  mlirOperationGetOperand(call, i));
  MlirOperation ret = mlirBlockGetTerminator(body);
  MlirBlock block = mlirOperationGetBlock(call);
  MlirOperation next;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationEqual(op, ret); op = next) {
    next = mlirOperationGetNextInBlock(op);
    mlirOperationRemoveFromParent(op);
    mlirBlockInsertOwnedOperationBefore(block, call, op);
  }
  for (intptr_t i = 0; i < mlirOperationGetNumResults(call); ++i)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(call, i),
                                  mlirOperationGetOperand(ret, i));
  mlirOperationDestroy(call);
  mlirOperationDestroy(copy);
}

void coopvecInlineCalls(MlirOperation func, MlirOperation module) {
  for (;;) {
    MlirOperation call = {NULL};
    mlirOperationWalk(func, findCall, &call, MlirWalkPreOrder);
    if (mlirOperationIsNull(call))
      return;
    inlineCall(call, calleeOf(call, module));
  }
}

bool coopvecCheckAndInline(MlirOperation *funcs, intptr_t count,
                           MlirOperation module, const char *passName) {
  for (intptr_t i = 0; i < count; ++i)
    if (!coopvecCheckCalls(funcs[i], module, passName))
      return false;
  for (intptr_t i = 0; i < count; ++i)
    coopvecInlineCalls(funcs[i], module);
  return true;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

static void runInline(MlirOperation module, MlirExternalPass pass,
                      const void *options) {
  (void)options;
  CoopvecFunctionList list = coopvecCollectPerThreadFunctions(module);
  if (!coopvecInlineAndEraseHelpers(module, &list, "coopvec-inline"))
    mlirExternalPassSignalFailure(pass);
  free(list.ops);
}

const CoopvecPassDef coopvecInlinePassDef = {
    .argument = "coopvec-inline",
    .name = "CoopvecInline",
    .description = "Inline every call inside per-thread functions and "
                   "erase the private functions they called (the lowering "
                   "passes do it first); recursion and calls of "
                   "declarations are errors",
    .anchor = "builtin.module",
    .run = runInline,
};
