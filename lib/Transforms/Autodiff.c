//===- Autodiff.c - coopvec-autodiff --------------------------------------===//
//
// Reverse-mode automatic differentiation of per-thread functions
// (docs/autodiff.md). For each function named by `func`, the pass adds
//
//   @NAME_grad(<@NAME's arguments>, <a gradient buffer per differentiated
//              memref argument>, <a dY per result>) -> (<a dX per vec
//              argument>)
//
// (no dX with input-gradients=false: the weights' gradients only)
//
// beside @NAME, which stays unchanged. This file is the pass: options,
// the checks of the whole function, the new signature and the order of
// the phases (recompute the forward, seed the results' adjoints, walk the
// ops in reverse, return the vec arguments' adjoints). The other phases
// are in AutodiffForward.c, AutodiffRules.c and AutodiffAdjoints.c.
//
//===----------------------------------------------------------------------===//

#include "Transforms/Autodiff.h"

#include "Dialect/Functions.h"

#include "Dialect/OpTable.h"
#include "Dialect/Verifier.h"
#include "IR/UpstreamBuilders.h"
#include "Pass/PassDef.h"
#include "Support/Alloc.h"

#include "coopvec-c/Dialect.h"
#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Dialect/Arith.h>
#include <mlir-c/Dialect/Func.h>
#include <mlir-c/Dialect/Math.h>
#include <mlir-c/Dialect/MemRef.h>
#include <mlir-c/Dialect/SCF.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct AutodiffOptions {
  char func[COOPVEC_OPTION_STRING_MAX];
  bool inputGradients;
} AutodiffOptions;

static const CoopvecPassOption autodiffOptions[] = {
    {"func", CoopvecOptionList, offsetof(AutodiffOptions, func), "",
     "the functions to differentiate, a comma list (the option may repeat); "
     "each @NAME gets @NAME_grad"},
    {"input-gradients", CoopvecOptionBool,
     offsetof(AutodiffOptions, inputGradients), "true",
     "return a dX per vec argument; false: the weights' gradients only "
     "(the vec arguments are constants, @NAME_grad returns nothing)"},
};

/// The gradient code builds `arith.constant`s, math ops (the derivatives
/// of scalar math), `memref.atomic_rmw` (the scatter-add of a gather) and
/// `scf.if` (around the scatter-add of a masked_load's enabled elements).
static MlirDialectHandle (*const autodiffDependentDialects[])(void) = {
    mlirGetDialectHandle__arith__, mlirGetDialectHandle__func__,
    mlirGetDialectHandle__math__,  mlirGetDialectHandle__memref__,
    mlirGetDialectHandle__scf__,
};

//===----------------------------------------------------------------------===//
// Checks of the whole function
//===----------------------------------------------------------------------===//

static intptr_t countBlocks(MlirOperation func) {
  intptr_t count = 0;
  for (MlirBlock block =
           mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
       !mlirBlockIsNull(block); block = mlirBlockGetNextInRegion(block))
    ++count;
  return count;
}

static bool checkArguments(MlirOperation func, MlirStringRef name) {
  MlirType type = coopvecFunctionTypeOf(func);
  for (intptr_t i = 0; i < mlirFunctionTypeGetNumInputs(type); ++i) {
    if (!coopvecTypeIsAMatrix(mlirFunctionTypeGetInput(type, i)))
      continue;
    coopvecEmitOpError(func,
                       "argument #%ld of @%.*s is a !coopvec.matrix, whose "
                       "gradient would have no buffer; pass the weights as a "
                       "memref and view them with coopvec.matrix_view",
                       (long)i, (int)name.length, name.data);
    return false;
  }
  return true;
}

/// @NAME_grad must be a new symbol.
static bool checkGradNameFree(MlirOperation module, MlirOperation func,
                              MlirStringRef name) {
  CoopvecBuffer gradName = {0};
  coopvecBufferAppendf(&gradName, "%.*s_grad", (int)name.length, name.data);
  bool taken = !mlirOperationIsNull(coopvecLookupSymbol(
      module, mlirStringRefCreate(gradName.data, gradName.size)));
  if (taken)
    coopvecEmitOpError(func,
                       "cannot add @%s: the module already has a symbol of "
                       "that name",
                       gradName.data);
  coopvecBufferFree(&gradName);
  return !taken;
}

/// A definition of one block with per-thread semantics.
static bool checkBody(MlirOperation func, MlirStringRef name) {
  int length = (int)name.length;
  intptr_t blocks = countBlocks(func);
  if (blocks == 0)
    coopvecEmitOpError(func,
                       "@%.*s is a declaration; coopvec-autodiff needs "
                       "its body",
                       length, name.data);
  else if (!coopvecIsPerThreadFunction(func))
    coopvecEmitOpError(func,
                       "@%.*s is not a per-thread function (no coopvec types "
                       "in its signature and no coopvec ops in its body): "
                       "there is nothing to differentiate",
                       length, name.data);
  else if (blocks > 1)
    coopvecEmitOpError(func,
                       "@%.*s has %ld blocks; coopvec-autodiff "
                       "differentiates straight-line code only",
                       length, name.data, (long)blocks);
  return blocks == 1 && coopvecIsPerThreadFunction(func);
}

static bool checkFunction(MlirOperation module, MlirOperation func) {
  MlirStringRef name = coopvecSymbolNameOf(func);
  return checkBody(func, name) && checkGradNameFree(module, func, name) &&
         checkArguments(func, name);
}

/// With input-gradients=false only the differentiated memrefs vary; a
/// function that reads none would get a gradient that computes nothing.
static bool checkHasWeights(MlirOperation func, const bool *differentiated,
                            intptr_t numInputs) {
  for (intptr_t i = 0; i < numInputs; ++i)
    if (differentiated[i])
      return true;
  MlirStringRef name = coopvecSymbolNameOf(func);
  coopvecEmitOpError(func,
                     "@%.*s reads no weights from a memref argument, and "
                     "input-gradients=false asks for no input gradient: "
                     "there is nothing to differentiate",
                     (int)name.length, name.data);
  return false;
}

//===----------------------------------------------------------------------===//
// The signature of @NAME_grad
//===----------------------------------------------------------------------===//

/// A list of types being collected.
typedef struct TypeList {
  MlirType *types;
  intptr_t count;
} TypeList;

static void appendType(TypeList *list, MlirType type) {
  list->types[list->count++] = type;
}

/// (<inputs>, <their gradient buffers>, <a dY per result>) ->
/// (<a dX per vec input>, with `inputGradients`).
static MlirType gradFunctionType(MlirOperation func, const bool *differentiated,
                                 bool inputGradients) {
  MlirType type = coopvecFunctionTypeOf(func);
  intptr_t numInputs = mlirFunctionTypeGetNumInputs(type);
  intptr_t numResults = mlirFunctionTypeGetNumResults(type);
  TypeList inputs = {
      calloc((size_t)(2 * numInputs + numResults) + 1, sizeof(MlirType)), 0};
  TypeList results = {calloc((size_t)numInputs + 1, sizeof(MlirType)), 0};
  if (!inputs.types || !results.types)
    abort();
  for (intptr_t i = 0; i < numInputs; ++i)
    appendType(&inputs, mlirFunctionTypeGetInput(type, i));
  for (intptr_t i = 0; i < numInputs; ++i)
    if (differentiated[i])
      appendType(&inputs, mlirFunctionTypeGetInput(type, i));
  for (intptr_t i = 0; i < numResults; ++i)
    appendType(&inputs, mlirFunctionTypeGetResult(type, i));
  for (intptr_t i = 0; inputGradients && i < numInputs; ++i)
    if (coopvecTypeIsAVec(mlirFunctionTypeGetInput(type, i)))
      appendType(&results, mlirFunctionTypeGetInput(type, i));
  MlirType gradType =
      mlirFunctionTypeGet(mlirOperationGetContext(func), inputs.count,
                          inputs.types, results.count, results.types);
  free(inputs.types);
  free(results.types);
  return gradType;
}

/// An empty entry block with one argument per input of `type`; the
/// forward's arguments keep their locations.
static MlirRegion gradBody(MlirOperation func, MlirType type) {
  intptr_t numArgs = mlirFunctionTypeGetNumInputs(type);
  MlirBlock forwardBody =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  intptr_t numForward = mlirBlockGetNumArguments(forwardBody);
  MlirType *types = calloc((size_t)numArgs + 1, sizeof(MlirType));
  MlirLocation *locs = calloc((size_t)numArgs + 1, sizeof(MlirLocation));
  if (!types || !locs)
    abort();
  for (intptr_t i = 0; i < numArgs; ++i) {
    types[i] = mlirFunctionTypeGetInput(type, i);
    locs[i] = i < numForward
                  ? mlirValueGetLocation(mlirBlockGetArgument(forwardBody, i))
                  : mlirOperationGetLocation(func);
  }
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, mlirBlockCreate(numArgs, types, locs));
  free(types);
  free(locs);
  return region;
}

/// Creates @NAME_grad (empty body) right after @NAME.
static MlirOperation createGradFunction(MlirOperation module,
                                        MlirOperation func,
                                        const bool *differentiated,
                                        bool inputGradients) {
  MlirContext ctx = mlirOperationGetContext(func);
  MlirType type = gradFunctionType(func, differentiated, inputGradients);
  MlirStringRef name = coopvecSymbolNameOf(func);
  CoopvecBuffer gradName = {0};
  coopvecBufferAppendf(&gradName, "%.*s_grad", (int)name.length, name.data);
  MlirNamedAttribute attributes[3] = {
      coopvecNamedAttr(
          ctx, "sym_name",
          mlirStringAttrGet(ctx,
                            mlirStringRefCreate(gradName.data, gradName.size))),
      coopvecNamedAttr(ctx, "function_type", mlirTypeAttrGet(type)),
  };
  // A private @NAME gets a private @NAME_grad.
  MlirAttribute visibility = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("sym_visibility"));
  intptr_t numAttributes = 2;
  if (!mlirAttributeIsNull(visibility))
    attributes[numAttributes++] =
        coopvecNamedAttr(ctx, "sym_visibility", visibility);
  MlirRegion region = gradBody(func, type);
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString("func.func"),
                            mlirOperationGetLocation(func));
  mlirOperationStateAddAttributes(&state, numAttributes, attributes);
  mlirOperationStateAddOwnedRegions(&state, 1, &region);
  MlirOperation grad = mlirOperationCreate(&state);
  coopvecBufferFree(&gradName);
  mlirBlockInsertOwnedOperationAfter(coopvecModuleBody(module), func, grad);
  return grad;
}

//===----------------------------------------------------------------------===//
// The phases
//===----------------------------------------------------------------------===//

static MlirBlock forwardBody(const CoopvecAutodiff *ad) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(ad->forward, 0));
}

/// Maps @NAME's arguments to @NAME_grad's; returns the number of gradient
/// buffers. Differentiated memrefs are varied (a non-coopvec use of such a
/// memref is then refused: it could read weights whose gradient would be
/// lost), and so are vec arguments with `inputGradients`; without, they
/// are constants, so no rule builds an adjoint nothing would return (the
/// first layer's transposed matvec).
static intptr_t mapArguments(CoopvecAutodiff *ad, const bool *differentiated,
                             bool inputGradients) {
  MlirBlock body = forwardBody(ad);
  intptr_t numArgs = mlirBlockGetNumArguments(body);
  intptr_t numBuffers = 0;
  for (intptr_t i = 0; i < numArgs; ++i) {
    MlirValue arg = mlirBlockGetArgument(body, i);
    CoopvecADValue *entry = coopvecADEntry(ad, arg);
    entry->clone = mlirBlockGetArgument(ad->body, i);
    entry->varied =
        (inputGradients && coopvecTypeIsAVec(mlirValueGetType(arg))) ||
        differentiated[i];
    if (differentiated[i])
      entry->gradient = mlirBlockGetArgument(ad->body, numArgs + numBuffers++);
  }
  return numBuffers;
}

/// adjoint(result j) = dY_j, in the adjoint's representation (Autodiff.h).
static void seedResults(CoopvecAutodiff *ad, intptr_t firstDY) {
  MlirOperation ret = mlirBlockGetTerminator(forwardBody(ad));
  ad->b.location = mlirOperationGetLocation(ret);
  for (intptr_t j = 0; j < mlirOperationGetNumOperands(ret); ++j) {
    MlirValue result = mlirOperationGetOperand(ret, j);
    MlirValue dy = mlirBlockGetArgument(ad->body, firstDY + j);
    MlirType type = mlirValueGetType(result);
    if (!coopvecADIsVaried(ad, result))
      continue; // a constant result: its dY has no effect
    if (mlirTypeIsAVector(type))
      dy = coopvecBuildFromVector(&ad->b, dy);
    coopvecADAccumulate(ad, result, dy);
  }
}

/// The ops of `block` before its terminator, in order (the C API cannot
/// walk a block backwards). Free with free().
static MlirOperation *collectOps(MlirBlock block, intptr_t *count) {
  MlirOperation terminator = mlirBlockGetTerminator(block);
  intptr_t capacity = 0;
  MlirOperation *ops = NULL;
  *count = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationEqual(op, terminator);
       op = mlirOperationGetNextInBlock(op)) {
    ops = coopvecGrowArray(ops, &capacity, *count + 1, sizeof(MlirOperation));
    ops[(*count)++] = op;
  }
  return ops;
}

bool coopvecADBackwardBlock(CoopvecAutodiff *ad, MlirBlock block) {
  intptr_t count;
  MlirOperation *ops = collectOps(block, &count);
  bool ok = true;
  for (intptr_t i = count - 1; ok && i >= 0; --i)
    ok = coopvecADBackward(ad, ops[i]);
  free(ops);
  return ok;
}

/// Returns the adjoint of every vec argument (zero when none reached it),
/// or nothing without `inputGradients`.
static void returnGradients(CoopvecAutodiff *ad, bool inputGradients) {
  MlirBlock body = forwardBody(ad);
  MlirOperation ret = mlirBlockGetTerminator(body);
  ad->b.location = mlirOperationGetLocation(ret);
  intptr_t numArgs = mlirBlockGetNumArguments(body), count = 0;
  MlirValue *values = calloc((size_t)numArgs + 1, sizeof(MlirValue));
  if (!values)
    abort();
  for (intptr_t i = 0; i < numArgs; ++i) {
    MlirValue arg = mlirBlockGetArgument(body, i);
    MlirType type = mlirValueGetType(arg);
    if (!inputGradients || !coopvecTypeIsAVec(type))
      continue;
    MlirValue adjoint = coopvecADAdjoint(ad, arg);
    values[count++] =
        mlirValueIsNull(adjoint)
            ? coopvecBuildSplat(
                  &ad->b, type,
                  coopvecADConstant(ad, coopvecVecTypeGetElementType(type),
                                    0.0))
            : adjoint;
  }
  coopvecBuild0(&ad->b, "func.return", count, values, 0, NULL);
  free(values);
}

static bool hasUsedResult(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
    if (!mlirOpOperandIsNull(
            mlirValueGetFirstUse(mlirOperationGetResult(op, i))))
      return true;
  return false;
}

static bool hasPrefix(MlirStringRef name, const char *prefix) {
  size_t length = strlen(prefix);
  return name.length > length && strncmp(name.data, prefix, length) == 0;
}

/// Pure ops: coopvec ops without writes, arith and math ops, and the
/// recomputed gathers (memref.load).
static bool isPure(MlirOperation op) {
  const CoopvecOpInfo *info = coopvecLookupOp(op);
  if (info)
    return coopvecOpIsPure(info);
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  return hasPrefix(name, "arith.") || hasPrefix(name, "math.") ||
         coopvecOpIsNamed(op, "memref.load");
}

static bool isStructured(MlirOperation op) {
  return coopvecOpIsNamed(op, "scf.if") || coopvecOpIsNamed(op, "scf.for") ||
         coopvecOpIsNamed(op, "scf.index_switch") ||
         coopvecOpIsNamed(op, "scf.while");
}

/// Whether the ops of every region of `op` are pure, at any depth (an
/// scf.if, index_switch, for or while whose results nothing uses is then
/// dead).
static bool hasPureRegions(MlirOperation op) {
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r) {
    MlirBlock block = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
    if (mlirBlockIsNull(block))
      continue;
    MlirOperation terminator = mlirBlockGetTerminator(block);
    for (MlirOperation inner = mlirBlockGetFirstOperation(block);
         !mlirOperationEqual(inner, terminator);
         inner = mlirOperationGetNextInBlock(inner))
      if (!isPure(inner) && !(isStructured(inner) && hasPureRegions(inner)))
        return false;
  }
  return true;
}

static void eraseDeadCodeIn(MlirBlock block);

/// The recomputed forward values the gradient does not need (the outputs
/// themselves, usually, and values of a reversed branch only the forward
/// used) are erased; users come after their operands, so one walk from
/// the end removes whole dead chains, and the branches of an scf.if are
/// cleaned before the if itself is considered.
static void eraseDeadCodeIn(MlirBlock block) {
  intptr_t count;
  MlirOperation *ops = collectOps(block, &count);
  for (intptr_t i = count - 1; i >= 0; --i) {
    for (intptr_t r = 0; r < mlirOperationGetNumRegions(ops[i]); ++r) {
      MlirBlock inner =
          mlirRegionGetFirstBlock(mlirOperationGetRegion(ops[i], r));
      if (!mlirBlockIsNull(inner))
        eraseDeadCodeIn(inner);
    }
    bool pure =
        isPure(ops[i]) || (isStructured(ops[i]) && hasPureRegions(ops[i]));
    if (pure && !hasUsedResult(ops[i]))
      mlirOperationDestroy(ops[i]);
  }
  free(ops);
}

/// Adds @NAME_grad for the checked function `func`; on an error, removes
/// it again and returns false.
static bool differentiate(MlirOperation module, MlirOperation func,
                          bool inputGradients) {
  MlirType type = coopvecFunctionTypeOf(func);
  intptr_t numInputs = mlirFunctionTypeGetNumInputs(type);
  bool *differentiated = calloc((size_t)numInputs + 1, sizeof(bool));
  if (!differentiated)
    abort();
  coopvecADFindDifferentiatedMemrefs(func, differentiated);
  if (!inputGradients && !checkHasWeights(func, differentiated, numInputs)) {
    free(differentiated);
    return false;
  }
  MlirOperation grad =
      createGradFunction(module, func, differentiated, inputGradients);
  CoopvecAutodiff ad;
  coopvecADInit(&ad, func, grad);
  intptr_t numBuffers = mapArguments(&ad, differentiated, inputGradients);
  bool ok = coopvecADCloneForward(&ad);
  if (ok) {
    seedResults(&ad, numInputs + numBuffers);
    ok = coopvecADBackwardBlock(&ad, forwardBody(&ad));
  }
  if (ok) {
    returnGradients(&ad, inputGradients);
    coopvecADDropUnusedSnapshots(&ad);
    eraseDeadCodeIn(ad.body);
  } else {
    mlirOperationDestroy(grad);
  }
  coopvecADFree(&ad);
  free(differentiated);
  return ok;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

static void emitModuleError(MlirOperation module, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static void emitModuleError(MlirOperation module, const char *format, ...) {
  char message[512];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  mlirEmitError(mlirOperationGetLocation(module), message);
}

/// Whether `name` occurs in the comma list `list` before `position`.
static bool listedBefore(const char *list, size_t position,
                         MlirStringRef name) {
  size_t start = 0;
  while (start < position) {
    size_t length = strcspn(list + start, ",");
    if (mlirStringRefEqual(mlirStringRefCreate(list + start, length), name))
      return true;
    start += length + 1;
  }
  return false;
}

static bool differentiateNamed(MlirOperation module,
                               const AutodiffOptions *options, size_t position,
                               MlirStringRef name) {
  const char *list = options->func;
  if (name.length == 0) {
    emitModuleError(module, "coopvec-autodiff: empty function name in func=%s",
                    list);
    return false;
  }
  if (listedBefore(list, position, name)) {
    emitModuleError(module, "coopvec-autodiff: func names @%.*s twice",
                    (int)name.length, name.data);
    return false;
  }
  MlirOperation func = coopvecLookupSymbol(module, name);
  if (mlirOperationIsNull(func) || !coopvecOpIsNamed(func, "func.func")) {
    emitModuleError(module,
                    "coopvec-autodiff: no func.func @%.*s in the module",
                    (int)name.length, name.data);
    return false;
  }
  return checkFunction(module, func) &&
         differentiate(module, func, options->inputGradients);
}

static void runAutodiff(MlirOperation module, MlirExternalPass pass,
                        const void *options) {
  const AutodiffOptions *parsed = options;
  const char *list = parsed->func;
  bool ok = list[0] != '\0';
  if (!ok)
    emitModuleError(module, "coopvec-autodiff: no function to "
                            "differentiate; name one with "
                            "coopvec-autodiff{func=NAME}");
  // Every name is tried, so that one run reports every error.
  for (size_t start = 0; list[0] && start <= strlen(list);) {
    size_t length = strcspn(list + start, ",");
    ok &= differentiateNamed(module, parsed, start,
                             mlirStringRefCreate(list + start, length));
    start += length + 1;
  }
  if (!ok)
    mlirExternalPassSignalFailure(pass);
}

const CoopvecPassDef coopvecAutodiffPassDef = {
    .argument = "coopvec-autodiff",
    .name = "CoopvecAutodiff",
    .description = "Add @NAME_grad, the reverse-mode gradient of the "
                   "per-thread function @NAME (func=NAME[,NAME...])",
    .anchor = "builtin.module",
    .options = autodiffOptions,
    .numOptions = sizeof(autodiffOptions) / sizeof(autodiffOptions[0]),
    .optionsSize = sizeof(AutodiffOptions),
    .dependentDialects = autodiffDependentDialects,
    .numDependentDialects = sizeof(autodiffDependentDialects) /
                            sizeof(autodiffDependentDialects[0]),
    .run = runAutodiff,
};
