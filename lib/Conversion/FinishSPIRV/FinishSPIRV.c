//===- FinishSPIRV.c - coopvec-finish-spirv -------------------------------===//
//
// What a spirv.module needs after convert-gpu-to-spirv and
// spirv-lower-abi-attrs, before spirv-update-vce and serialization:
//
// 1. Exact float arithmetic. Vulkan compilers may rewrite float arithmetic
//    that is not decorated `NoContraction` as if it were real arithmetic:
//    Mesa's NIR, for one, folds `(x + c) - c` to `x` and fuses `a * b + c`
//    into an FMA. The exp2 polynomial of the per-thread layer rounds with
//    exactly such an `(x + 1.5 * 2^23) - 1.5 * 2^23` and came out wrong on
//    lavapipe; every FAdd / FSub / FMul / FDiv / FRem / FMod / FNegate and
//    GLSL Fma gets `NoContraction`, so results are the ones IEEE arithmetic
//    gives, as on the other targets.
//
//    Signed zeros, infinities and NaNs are another matter: without the
//    `SignedZeroInfNanPreserve` execution mode (SPV_KHR_float_controls,
//    Vulkan 1.2's shaderSignedZeroInfNanPreserveFloat32 / Float16) a
//    compiler may fold `x * 0` to 0 and `x + -0.0` to x; with
//    `signed-zero-inf-nan-preserve=true` (the default) every entry point
//    gets the mode for 32-bit floats, and for 16-bit ones when the module
//    has f16 values. Subnormals likewise: without `DenormPreserve` a
//    driver may flush them (NVIDIA's Vulkan driver on an H200 flushed f32
//    ones), and `denorm-preserve=true` (the default) asks for the mode.
//    And rounding: SPIR-V leaves the rounding of OpFConvert to a narrower
//    float to the driver, and NVIDIA's (580, H200) did not round f32 to
//    f16 and f64 to f32 to nearest even, so the f64 fmas of
//    coopvec-prepare-spirv came out wrong there; `rounding-mode-rte=true`
//    (the default) gives every entry point `RoundingModeRTE` for 32-bit
//    floats, and 16- and 64-bit ones where the module has them.
//
// 2. The second half of the float atomics of coopvec-prepare-spirv
// (lib/Conversion/PrepareSPIRV/Atomics.c): after spirv-lower-abi-attrs has
// made kernel argument i of @k the global variable @k_arg_i, each
// placeholder `spirv.GL.SClamp {coopvec.atomic, coopvec.atomic_arg = i}`
// becomes the atomic it stands for:
//
//   "fadd": SClamp(index, bits, bits)
//     -> OpAtomicFAddEXT Device None (&k_arg_i[index], bitcast(bits)),
//        its result bitcast back to i32
//   "cas":  SClamp(word, expected, desired)
//     -> OpAtomicCompareExchange Device None None (&k_arg_i_words[word],
//        desired, expected)
//
// where @k_arg_i_words is a second variable on the same descriptor set and
// binding, a struct of `i32[]` (compare-exchange works on integers, and
// SPIR-V for Vulkan cannot cast pointers); both are decorated `Aliased`.
// The execution engine binds arguments by the names `k_arg_<i>` and skips
// the `_words` alias, which shares the binding (docs/execution-model.md,
// "The Vulkan kernel ABI").
//
//===----------------------------------------------------------------------===//

#include "Conversion/PrepareSPIRV/PrepareSPIRV.h"

#include "Dialect/Verifier.h"
#include "IR/UpstreamBuilders.h"
#include "Pass/PassDef.h"
#include "Support/Alloc.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Dialect/SPIRV.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char passName[] = "coopvec-finish-spirv";

typedef struct OpList {
  MlirOperation *ops;
  intptr_t count, capacity;
} OpList;

static MlirAttribute attributeOf(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op,
                                         mlirStringRefCreateFromCString(name));
}

/// The float arithmetic that gets `NoContraction`.
static bool isFloatArithmetic(MlirOperation op) {
  static const char *const names[] = {
      "spirv.FAdd", "spirv.FSub", "spirv.FMul",    "spirv.FDiv",
      "spirv.FRem", "spirv.FMod", "spirv.FNegate", "spirv.GL.Fma",
  };
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i)
    if (coopvecOpIsNamed(op, names[i]))
      return true;
  return false;
}

static MlirWalkResult visitOp(MlirOperation op, void *userData) {
  if (isFloatArithmetic(op))
    mlirOperationSetDiscardableAttributeByName(
        op, mlirStringRefCreateFromCString("no_contraction"),
        mlirUnitAttrGet(mlirOperationGetContext(op)));
  if (!mlirAttributeIsNull(attributeOf(op, COOPVEC_SPIRV_ATOMIC_ATTR))) {
    OpList *list = userData;
    list->ops = coopvecGrowArray(list->ops, &list->capacity, list->count + 1,
                                 sizeof(MlirOperation));
    list->ops[list->count++] = op;
  }
  return MlirWalkResultAdvance;
}

static MlirAttribute parseAttr(MlirContext ctx, const char *text) {
  MlirAttribute attr =
      mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString(text));
  if (mlirAttributeIsNull(attr)) {
    fprintf(stderr, "coopvec: internal error: cannot parse '%s'\n", text);
    abort();
  }
  return attr;
}

static MlirType parseType(MlirContext ctx, const char *text) {
  MlirType type = mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(text));
  if (mlirTypeIsNull(type)) {
    fprintf(stderr, "coopvec: internal error: cannot parse '%s'\n", text);
    abort();
  }
  return type;
}

static MlirStringRef symbolName(MlirOperation op) {
  MlirAttribute name = attributeOf(op, "sym_name");
  return mlirAttributeIsNull(name) || !mlirAttributeIsAString(name)
             ? mlirStringRefCreate("", 0)
             : mlirStringAttrGetValue(name);
}

static MlirOperation findVariable(MlirOperation module, const char *name) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  size_t length = strlen(name);
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef symbol = symbolName(op);
    if (coopvecOpIsNamed(op, "spirv.GlobalVariable") &&
        symbol.length == length && strncmp(symbol.data, name, length) == 0)
      return op;
  }
  return (MlirOperation){NULL};
}

static MlirOperation enclosingFunction(MlirOperation op) {
  while (!mlirOperationIsNull(op) && !coopvecOpIsNamed(op, "spirv.func"))
    op = mlirOperationGetParentOperation(op);
  return op;
}

typedef struct Rewrite {
  MlirContext ctx;
  MlirOperation module;
  MlirType i32, f32;
  CoopvecBuilder b; // before the placeholder
} Rewrite;

/// `spirv.mlir.addressof @variable`.
static MlirValue addressOf(Rewrite *r, MlirOperation variable) {
  MlirStringRef name = symbolName(variable);
  MlirNamedAttribute attr = coopvecNamedAttr(
      r->ctx, "variable", mlirFlatSymbolRefAttrGet(r->ctx, name));
  MlirAttribute type = attributeOf(variable, "type");
  return coopvecBuild1(&r->b, "spirv.mlir.addressof", 0, NULL,
                       mlirTypeAttrGetValue(type), 1, &attr);
}

/// `&variable[0][index]` as a `!spirv.ptr<element, StorageBuffer>`.
static MlirValue elementPointer(Rewrite *r, MlirOperation variable,
                                MlirValue index, const char *element) {
  MlirNamedAttribute zero =
      coopvecNamedAttr(r->ctx, "value", mlirIntegerAttrGet(r->i32, 0));
  MlirValue operands[] = {
      addressOf(r, variable),
      coopvecBuild1(&r->b, "spirv.Constant", 0, NULL, r->i32, 1, &zero), index};
  char type[64];
  snprintf(type, sizeof(type), "!spirv.ptr<%s, StorageBuffer>", element);
  return coopvecBuild1(&r->b, "spirv.AccessChain", 3, operands,
                       parseType(r->ctx, type), 0, NULL);
}

static void setAliased(MlirOperation variable) {
  mlirOperationSetDiscardableAttributeByName(
      variable, mlirStringRefCreateFromCString("aliased"),
      mlirUnitAttrGet(mlirOperationGetContext(variable)));
}

/// From SPIR-V 1.4 on an entry point lists every global variable it uses
/// (spirv-lower-abi-attrs does so for a 1.4+ target): `words` joins the
/// interface of each entry point that lists `variable`.
static void addToInterfaces(Rewrite *r, MlirOperation variable,
                            MlirOperation words) {
  MlirStringRef name = symbolName(variable);
  MlirAttribute wordsRef = mlirFlatSymbolRefAttrGet(r->ctx, symbolName(words));
  MlirBlock body =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(r->module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute interface = attributeOf(op, "interface");
    if (!coopvecOpIsNamed(op, "spirv.EntryPoint") ||
        mlirAttributeIsNull(interface))
      continue;
    intptr_t count = mlirArrayAttrGetNumElements(interface);
    bool lists = false;
    for (intptr_t i = 0; i < count && !lists; ++i) {
      MlirStringRef listed =
          mlirFlatSymbolRefAttrGetValue(mlirArrayAttrGetElement(interface, i));
      lists = listed.length == name.length &&
              strncmp(listed.data, name.data, name.length) == 0;
    }
    if (!lists)
      continue;
    MlirAttribute *elements = calloc((size_t)count + 1, sizeof(MlirAttribute));
    if (!elements)
      abort();
    for (intptr_t i = 0; i < count; ++i)
      elements[i] = mlirArrayAttrGetElement(interface, i);
    elements[count] = wordsRef;
    mlirOperationSetInherentAttributeByName(
        op, mlirStringRefCreateFromCString("interface"),
        mlirArrayAttrGet(r->ctx, count + 1, elements));
    free(elements);
  }
}

/// The `i32[]` view of `variable`: `<name>_words`, made on first use.
static MlirOperation wordsOf(Rewrite *r, MlirOperation variable) {
  MlirStringRef name = symbolName(variable);
  CoopvecBuffer words = {0};
  coopvecBufferAppendf(&words, "%.*s_words", (int)name.length, name.data);
  MlirOperation found = findVariable(r->module, coopvecBufferStr(&words));
  if (!mlirOperationIsNull(found)) {
    coopvecBufferFree(&words);
    return found;
  }
  MlirType type = parseType(
      r->ctx, "!spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, "
              "StorageBuffer>");
  MlirNamedAttribute attrs[] = {
      coopvecNamedAttr(r->ctx, "sym_name",
                       mlirStringAttrGet(r->ctx, mlirStringRefCreate(
                                                     words.data, words.size))),
      coopvecNamedAttr(r->ctx, "type", mlirTypeAttrGet(type)),
      coopvecNamedAttr(r->ctx, "descriptor_set",
                       attributeOf(variable, "descriptor_set")),
      coopvecNamedAttr(r->ctx, "binding", attributeOf(variable, "binding")),
      coopvecNamedAttr(r->ctx, "aliased", mlirUnitAttrGet(r->ctx)),
  };
  CoopvecBuilder b =
      coopvecBuilderBefore(variable, mlirOperationGetLocation(variable));
  MlirOperation created =
      coopvecBuildOperation(&b, "spirv.GlobalVariable", 0, NULL, 0, NULL,
                            sizeof(attrs) / sizeof(attrs[0]), attrs);
  coopvecBufferFree(&words);
  if (mlirOperationIsNull(created))
    abort(); // a struct of an i32 runtime array in StorageBuffer
  setAliased(variable);
  addToInterfaces(r, variable, created);
  return created;
}

static bool rewritePlaceholder(MlirOperation module, MlirOperation op) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirAttribute kind = attributeOf(op, COOPVEC_SPIRV_ATOMIC_ATTR);
  MlirAttribute arg = attributeOf(op, COOPVEC_SPIRV_ATOMIC_ARG_ATTR);
  MlirOperation func = enclosingFunction(op);
  bool isCAS = mlirAttributeIsAString(kind) &&
               strncmp(mlirStringAttrGetValue(kind).data, "cas", 3) == 0 &&
               mlirStringAttrGetValue(kind).length == 3;
  MlirOperation variable = {NULL};
  if (!mlirOperationIsNull(func) && !mlirAttributeIsNull(arg) &&
      mlirAttributeIsAInteger(arg)) {
    MlirStringRef name = symbolName(func);
    CoopvecBuffer text = {0};
    coopvecBufferAppendf(&text, "%.*s_arg_%lld", (int)name.length, name.data,
                         (long long)mlirIntegerAttrGetValueInt(arg));
    variable = findVariable(module, coopvecBufferStr(&text));
    coopvecBufferFree(&text);
  }
  if (mlirOperationIsNull(variable)) {
    coopvecEmitOpError(op,
                       "is an atomic placeholder of coopvec-prepare-spirv "
                       "whose buffer has no global variable <kernel>_arg_<i> "
                       "(run %s after spirv-lower-abi-attrs)",
                       passName);
    return false;
  }
  Rewrite r = {ctx, module, mlirIntegerTypeGet(ctx, 32), mlirF32TypeGet(ctx),
               coopvecBuilderBefore(op, mlirOperationGetLocation(op))};
  MlirAttribute device = parseAttr(ctx, "#spirv.scope<Device>");
  MlirAttribute none = parseAttr(ctx, "#spirv.memory_semantics<None>");
  MlirValue result;
  if (isCAS) {
    MlirValue operands[] = {
        elementPointer(&r, wordsOf(&r, variable),
                       mlirOperationGetOperand(op, 0), "i32"),
        mlirOperationGetOperand(op, 2), mlirOperationGetOperand(op, 1)};
    MlirNamedAttribute attrs[] = {
        coopvecNamedAttr(ctx, "memory_scope", device),
        coopvecNamedAttr(ctx, "equal_semantics", none),
        coopvecNamedAttr(ctx, "unequal_semantics", none),
    };
    result = coopvecBuild1(&r.b, "spirv.AtomicCompareExchange", 3, operands,
                           r.i32, 3, attrs);
  } else {
    MlirValue bits = mlirOperationGetOperand(op, 1);
    MlirValue operands[] = {
        elementPointer(&r, variable, mlirOperationGetOperand(op, 0), "f32"),
        coopvecBuild1(&r.b, "spirv.Bitcast", 1, &bits, r.f32, 0, NULL)};
    MlirNamedAttribute attrs[] = {
        coopvecNamedAttr(ctx, "memory_scope", device),
        coopvecNamedAttr(ctx, "semantics", none),
    };
    MlirValue old = coopvecBuild1(&r.b, "spirv.EXT.AtomicFAdd", 2, operands,
                                  r.f32, 2, attrs);
    result = coopvecBuild1(&r.b, "spirv.Bitcast", 1, &old, r.i32, 0, NULL);
  }
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), result);
  mlirOperationDestroy(op);
  return true;
}

typedef struct FinishOptions {
  bool signedZeroInfNanPreserve;
  bool denormPreserve;
  bool roundingModeRTE;
} FinishOptions;

/// The float widths a float control covers: 32 always, 16 and 64 where the
/// module has such values.
typedef struct Widths {
  int values[3];
  int count;
} Widths;

/// `spirv.ExecutionMode @fn "<modeName>", <width>` for every entry point
/// and width, at the end of the module.
static void appendFloatControl(MlirOperation module, const char *modeName,
                               Widths widths) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  char text[64];
  snprintf(text, sizeof(text), "#spirv.execution_mode<%s>", modeName);
  MlirAttribute mode = parseAttr(ctx, text);
  MlirOperation last = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    last = op;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!coopvecOpIsNamed(op, "spirv.EntryPoint"))
      continue;
    MlirAttribute fn = attributeOf(op, "fn");
    for (int i = 0; i < widths.count; ++i) {
      MlirAttribute value =
          mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 32), widths.values[i]);
      MlirNamedAttribute attrs[] = {
          coopvecNamedAttr(ctx, "fn", fn),
          coopvecNamedAttr(ctx, "execution_mode", mode),
          coopvecNamedAttr(ctx, "values", mlirArrayAttrGet(ctx, 1, &value)),
      };
      CoopvecBuilder b =
          coopvecBuilderAtEnd(body, mlirOperationGetLocation(op));
      if (mlirOperationIsNull(coopvecBuildOperation(
              &b, "spirv.ExecutionMode", 0, NULL, 0, NULL, 3, attrs)))
        abort(); // a symbol, a known mode and one i32
    }
    if (mlirOperationEqual(op, last))
      break; // not the modes just appended
  }
}

static void runFinish(MlirOperation module, MlirExternalPass pass,
                      const void *options) {
  const FinishOptions *finish = options;
  OpList list = {NULL, 0, 0};
  mlirOperationWalk(module, visitOp, &list, MlirWalkPreOrder);
  // One walk for f16 values serves every float control.
  Widths widths = {{32}, 1};
  if ((finish->signedZeroInfNanPreserve || finish->denormPreserve ||
       finish->roundingModeRTE) &&
      coopvecHoldsF16(module))
    widths.values[widths.count++] = 16;
  if (finish->signedZeroInfNanPreserve)
    appendFloatControl(module, "SignedZeroInfNanPreserve", widths);
  if (finish->denormPreserve)
    appendFloatControl(module, "DenormPreserve", widths);
  // The f64 of the wide fmas (coopvec-prepare-spirv) is rounded to f32 by
  // an OpFConvert: that rounding must be to nearest even too.
  if (finish->roundingModeRTE && coopvecHoldsF64(module))
    widths.values[widths.count++] = 64;
  if (finish->roundingModeRTE)
    appendFloatControl(module, "RoundingModeRTE", widths);
  bool ok = true;
  for (intptr_t i = 0; ok && i < list.count; ++i)
    ok = rewritePlaceholder(module, list.ops[i]);
  free(list.ops);
  if (!ok)
    mlirExternalPassSignalFailure(pass);
}

static const CoopvecPassOption finishOptions[] = {
    {"signed-zero-inf-nan-preserve", CoopvecOptionBool,
     offsetof(FinishOptions, signedZeroInfNanPreserve), "true",
     "give every entry point the SignedZeroInfNanPreserve execution mode "
     "(32-bit floats, and 16-bit ones when the module has f16 values); the "
     "device needs shaderSignedZeroInfNanPreserveFloat32 (Float16)"},
    {"denorm-preserve", CoopvecOptionBool,
     offsetof(FinishOptions, denormPreserve), "true",
     "give every entry point the DenormPreserve execution mode (32-bit "
     "floats, and 16-bit ones when the module has f16 values): subnormals "
     "are kept, as the dialect requires; the device needs "
     "shaderDenormPreserveFloat32 (Float16)"},
    {"rounding-mode-rte", CoopvecOptionBool,
     offsetof(FinishOptions, roundingModeRTE), "true",
     "give every entry point the RoundingModeRTE execution mode (32-bit "
     "floats, 16- and 64-bit ones when the module has such values): "
     "conversions to a narrower float round to nearest even, as the dialect "
     "requires, where a driver could truncate (NVIDIA's did); the device "
     "needs shaderRoundingModeRTEFloat32 (Float16, Float64)"},
};

static MlirDialectHandle (*const finishDependentDialects[])(void) = {
    mlirGetDialectHandle__spirv__,
};

const CoopvecPassDef coopvecFinishSPIRVPassDef = {
    .argument = "coopvec-finish-spirv",
    .name = "CoopvecFinishSPIRV",
    .description = "Decorate float arithmetic NoContraction and replace the "
                   "float-atomic placeholders of coopvec-prepare-spirv by "
                   "OpAtomicFAddEXT or OpAtomicCompareExchange on an aliased "
                   "i32 view of the buffer (after spirv-lower-abi-attrs)",
    .anchor = "spirv.module",
    .options = finishOptions,
    .numOptions = sizeof(finishOptions) / sizeof(finishOptions[0]),
    .optionsSize = sizeof(FinishOptions),
    .dependentDialects = finishDependentDialects,
    .numDependentDialects =
        sizeof(finishDependentDialects) / sizeof(finishDependentDialects[0]),
    .run = runFinish,
};
