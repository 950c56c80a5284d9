//===- Functions.c - Which functions are per-thread, and can they lower ---===//
//
// Every target checks a per-thread function the same way before it changes
// anything, so that a module either lowers completely or not at all.
//
//===----------------------------------------------------------------------===//

#include "Conversion/PerThread/PerThread.h"

#include "Dialect/Functions.h"
#include "Dialect/Verifier.h"
#include "Support/Alloc.h"
#include "Transforms/Inline.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>
#include <string.h>

CoopvecFunctionList coopvecCollectPerThreadFunctions(MlirOperation module) {
  CoopvecFunctionList list = {NULL, 0};
  intptr_t capacity = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(coopvecModuleBody(module));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!coopvecOpIsNamed(op, "func.func") || !coopvecIsPerThreadFunction(op))
      continue;
    list.ops = coopvecGrowArray(list.ops, &capacity, list.count + 1,
                                sizeof(MlirOperation));
    list.ops[list.count++] = op;
  }
  return list;
}

static bool sameName(MlirStringRef a, MlirStringRef b) {
  return a.length == b.length && strncmp(a.data, b.data, a.length) == 0;
}

static bool checkSignature(MlirOperation func) {
  MlirType type = coopvecFunctionTypeOf(func);
  MlirStringRef name = coopvecSymbolNameOf(func);
  for (intptr_t i = 0; i < mlirFunctionTypeGetNumInputs(type); ++i) {
    if (!coopvecTypeIsAMatrix(mlirFunctionTypeGetInput(type, i)))
      continue;
    coopvecEmitOpError(func,
                       "@%.*s: argument #%ld is a !coopvec.matrix, which "
                       "has no batched form; pass its buffer and create the "
                       "view with coopvec.matrix_view inside the function",
                       (int)name.length, name.data, (long)i);
    return false;
  }
  for (intptr_t i = 0; i < mlirFunctionTypeGetNumResults(type); ++i) {
    if (coopvecTypeIsAVec(mlirFunctionTypeGetResult(type, i)))
      continue;
    coopvecEmitOpError(func,
                       "@%.*s: result #%ld of a per-thread function must be "
                       "a !coopvec.vec (each thread's result is written to "
                       "an output buffer; a helper that per-thread "
                       "functions only call can be 'func.func private')",
                       (int)name.length, name.data, (long)i);
    return false;
  }
  return true;
}

/// The name `<func><suffix>` must be free for the lowered function.
static bool checkLoweredName(MlirOperation func, MlirOperation module,
                             const char *suffix) {
  MlirStringRef name = coopvecSymbolNameOf(func);
  CoopvecBuffer lowered = {0};
  coopvecBufferAppendf(&lowered, "%.*s%s", (int)name.length, name.data, suffix);
  bool clash = !mlirOperationIsNull(coopvecLookupSymbol(
      module, mlirStringRefCreate(lowered.data, lowered.size)));
  if (clash)
    coopvecEmitOpError(func, "@%.*s: cannot create @%s, the name is taken",
                       (int)name.length, name.data, coopvecBufferStr(&lowered));
  coopvecBufferFree(&lowered);
  return !clash;
}

/// A search for references to a per-thread function outside the per-thread
/// functions (whose own ops are checked by checkUniformOp).
typedef struct SymbolUseSearch {
  MlirStringRef name;
  const CoopvecFunctionList *perThread;
  const char *passName, *suffix; // for the error; none when null
  bool ok;
} SymbolUseSearch;

static bool isInList(const CoopvecFunctionList *list, MlirOperation op) {
  for (intptr_t i = 0; i < list->count; ++i)
    if (mlirOperationEqual(list->ops[i], op))
      return true;
  return false;
}

/// Whether `attr` (a symbol reference, possibly in an array) names the
/// module-level symbol `name`.
static bool refersTo(MlirAttribute attr, MlirStringRef name) {
  if (mlirAttributeIsASymbolRef(attr))
    return sameName(mlirSymbolRefAttrGetRootReference(attr), name);
  if (mlirAttributeIsAArray(attr))
    for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(attr); ++i)
      if (refersTo(mlirArrayAttrGetElement(attr, i), name))
        return true;
  return false;
}

static MlirWalkResult findSymbolUse(MlirOperation op, void *userData) {
  SymbolUseSearch *search = userData;
  if (isInList(search->perThread, op))
    return MlirWalkResultSkip;
  for (intptr_t i = 0; i < mlirOperationGetNumAttributes(op); ++i) {
    if (!refersTo(mlirOperationGetAttribute(op, i).attribute, search->name))
      continue;
    search->ok = false;
    if (!search->passName)
      break;
    coopvecEmitOpError(op,
                       "refers to per-thread function @%.*s, which %s "
                       "replaces by @%.*s%s with a batched signature",
                       (int)search->name.length, search->name.data,
                       search->passName, (int)search->name.length,
                       search->name.data, search->suffix);
    break;
  }
  return MlirWalkResultAdvance;
}

/// `func` is erased by the lowering: nothing else may refer to it.
static bool checkSymbolUses(MlirOperation func, MlirOperation module,
                            const CoopvecFunctionList *perThread,
                            const char *passName, const char *suffix) {
  SymbolUseSearch search = {coopvecSymbolNameOf(func), perThread, passName,
                            suffix, true};
  mlirOperationWalk(module, findSymbolUse, &search, MlirWalkPreOrder);
  return search.ok;
}

bool coopvecCheckPerThreadFunction(MlirOperation func, MlirOperation module,
                                   const CoopvecFunctionList *perThread,
                                   const char *passName, const char *suffix,
                                   CoopvecTargetOpCheck targetCheck) {
  MlirStringRef name = coopvecSymbolNameOf(func);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(entry)) {
    coopvecEmitOpError(func,
                       "@%.*s: a per-thread function must be defined in the "
                       "module; %s cannot lower a declaration",
                       (int)name.length, name.data, passName);
    return false;
  }
  if (!mlirBlockIsNull(mlirBlockGetNextInRegion(entry))) {
    coopvecEmitOpError(func,
                       "@%.*s: a per-thread function must have a body of "
                       "exactly one block (structured control flow: scf)",
                       (int)name.length, name.data);
    return false;
  }
  if (!checkLoweredName(func, module, suffix) || !checkSignature(func))
    return false;
  bool ok = checkSymbolUses(func, module, perThread, passName, suffix);
  return coopvecCheckPerThreadOps(func, passName, targetCheck) && ok;
}

static bool isPrivate(MlirOperation func) {
  MlirAttribute visibility = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("sym_visibility"));
  return !mlirAttributeIsNull(visibility) &&
         mlirAttributeIsAString(visibility) &&
         sameName(mlirStringAttrGetValue(visibility),
                  mlirStringRefCreateFromCString("private"));
}

typedef struct CallSearch {
  MlirStringRef name;
  bool found;
} CallSearch;

static MlirWalkResult findCallOf(MlirOperation op, void *userData) {
  CallSearch *search = userData;
  if (!coopvecOpIsNamed(op, "func.call"))
    return MlirWalkResultAdvance;
  MlirAttribute callee = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("callee"));
  search->found |=
      !mlirAttributeIsNull(callee) && refersTo(callee, search->name);
  return search->found ? MlirWalkResultInterrupt : MlirWalkResultAdvance;
}

/// A private per-thread function that per-thread functions call is a
/// helper, not an entry: once every call is inlined it is erased (as
/// symbol-dce would), so that it needs no batched form (a helper may
/// return a per-thread scalar).
static bool isHelper(MlirOperation func, const CoopvecFunctionList *perThread) {
  if (!isPrivate(func))
    return false;
  CallSearch search = {coopvecSymbolNameOf(func), false};
  for (intptr_t i = 0; i < perThread->count && !search.found; ++i)
    mlirOperationWalk(perThread->ops[i], findCallOf, &search, MlirWalkPreOrder);
  return search.found;
}

/// Erases the helpers (marked in `helper`) from the module and the list,
/// except one that something other than a per-thread function refers to:
/// it stays, and the checks of every per-thread function report the use.
static void eraseHelpers(MlirOperation module, CoopvecFunctionList *perThread,
                         const bool *helper) {
  intptr_t kept = 0;
  for (intptr_t i = 0; i < perThread->count; ++i) {
    MlirOperation func = perThread->ops[i];
    if (helper[i] && checkSymbolUses(func, module, perThread, NULL, NULL))
      mlirOperationDestroy(func);
    else
      perThread->ops[kept++] = func;
  }
  perThread->count = kept;
}

bool coopvecInlineAndEraseHelpers(MlirOperation module,
                                  CoopvecFunctionList *perThread,
                                  const char *passName) {
  bool *helper = calloc((size_t)perThread->count + 1, sizeof(bool));
  if (!helper)
    abort();
  for (intptr_t i = 0; i < perThread->count; ++i)
    helper[i] = isHelper(perThread->ops[i], perThread);
  bool ok =
      coopvecCheckAndInline(perThread->ops, perThread->count, module, passName);
  if (ok)
    eraseHelpers(module, perThread, helper);
  free(helper);
  return ok;
}

bool coopvecPrepareFunctions(MlirOperation module,
                             CoopvecFunctionList *perThread,
                             const char *passName, const char *suffix,
                             CoopvecTargetOpCheck targetCheck) {
  if (!coopvecInlineAndEraseHelpers(module, perThread, passName))
    return false;
  bool ok = true;
  for (intptr_t i = 0; i < perThread->count; ++i)
    ok &= coopvecCheckPerThreadFunction(perThread->ops[i], module, perThread,
                                        passName, suffix, targetCheck);
  return ok;
}
