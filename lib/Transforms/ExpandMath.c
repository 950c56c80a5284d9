//===- ExpandMath.c - coopvec-expand-math ---------------------------------===//
//
// Rewrites the math dialect's transcendental ops on f32 or f16 scalars or
// vectors (any shape), anywhere in the IR, into the straight-line arith +
// math.fma code of lib/Math/. LLVM would lower math.sin on a vector to one
// libm call per lane, and each GPU target would use its own library with
// its own accuracy; the expanded code runs in SIMD registers on the CPU
// and computes the same bits on every target, so one measured bound holds
// everywhere (docs/execution-model.md, "Transcendentals").
//
// f16 operands are widened to f32, computed and rounded once. Other element
// types (f64, bf16) are left alone, and so are the math ops that are one
// instruction or exact (sqrt, floor, ceil, round, trunc, absf, copysign,
// fma).
//
//===----------------------------------------------------------------------===//

#include "Math/Math.h"

#include "IR/UpstreamBuilders.h"
#include "Pass/PassDef.h"
#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Dialect/Arith.h>
#include <mlir-c/Dialect/Math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ExpandMathOptions {
  char ops[COOPVEC_OPTION_STRING_MAX];
} ExpandMathOptions;

static const CoopvecPassOption expandMathOptions[] = {
    {"ops", CoopvecOptionList, offsetof(ExpandMathOptions, ops),
     "sin,cos,exp,exp2,log,log2,tanh,atan,atan2,erf,powf,rsqrt",
     "the math ops to expand, named without 'math.'"},
};

typedef MlirValue (*UnaryEmitter)(CoopvecBuilder *, MlirValue);
typedef MlirValue (*BinaryEmitter)(CoopvecBuilder *, MlirValue, MlirValue);

/// An expandable op: its name without "math.", its emitter, and the one to
/// use when the result is rounded to f16 (NULL: the f32 one).
typedef struct Expansion {
  const char *name;
  UnaryEmitter unary;
  BinaryEmitter binary;
  UnaryEmitter unaryForF16;
} Expansion;

static const Expansion expansions[] = {
    {"sin", coopvecEmitSin, NULL, NULL},
    {"cos", coopvecEmitCos, NULL, NULL},
    {"exp", coopvecEmitExp, NULL, NULL},
    {"exp2", coopvecEmitExp2, NULL, NULL},
    {"log", coopvecEmitLog, NULL, NULL},
    {"log2", coopvecEmitLog2, NULL, NULL},
    {"tanh", coopvecEmitTanh, NULL, coopvecEmitTanhForF16},
    {"atan", coopvecEmitAtan, NULL, NULL},
    {"atan2", NULL, coopvecEmitAtan2, NULL},
    {"erf", coopvecEmitErf, NULL, NULL},
    {"powf", NULL, coopvecEmitPow, NULL},
    {"rsqrt", coopvecEmitRsqrt, NULL, NULL},
};

enum { NUM_EXPANSIONS = sizeof(expansions) / sizeof(expansions[0]) };

//===----------------------------------------------------------------------===//
// The ops= option
//===----------------------------------------------------------------------===//

static int findExpansion(MlirStringRef name) {
  for (int i = 0; i < NUM_EXPANSIONS; ++i)
    if (mlirStringRefEqual(name,
                           mlirStringRefCreateFromCString(expansions[i].name)))
      return i;
  return -1;
}

/// Marks the ops named in `list` in `selected`; an unknown name is an error
/// at `anchor`.
static bool parseOps(MlirOperation anchor, const char *list,
                     bool selected[NUM_EXPANSIONS]) {
  bool ok = true;
  for (size_t start = 0; list[0] && start <= strlen(list);) {
    size_t length = strcspn(list + start, ",");
    int index = findExpansion(mlirStringRefCreate(list + start, length));
    if (index >= 0) {
      selected[index] = true;
    } else {
      CoopvecBuffer message = {0};
      coopvecBufferAppendf(&message,
                           "coopvec-expand-math: unknown op '%.*s' in ops= "
                           "(expected names among",
                           (int)length, list + start);
      for (int i = 0; i < NUM_EXPANSIONS; ++i)
        coopvecBufferAppendf(&message, "%s %s", i ? "," : "",
                             expansions[i].name);
      coopvecBufferAppendf(&message, ")");
      mlirEmitError(mlirOperationGetLocation(anchor), message.data);
      coopvecBufferFree(&message);
      ok = false;
    }
    start += length + 1;
  }
  return ok;
}

//===----------------------------------------------------------------------===//
// Finding the ops
//===----------------------------------------------------------------------===//

/// The ops to expand, in walk order, with the index of their expansion.
typedef struct Found {
  const bool *selected;
  MlirOperation *ops;
  int *expansion;
  size_t count, capacity;
} Found;

/// f32 or f16, as a scalar or the element type of a vector.
static bool isExpandableType(MlirType type) {
  MlirType element = coopvecElementTypeOf(type);
  return mlirTypeIsAF32(element) || mlirTypeIsAF16(element);
}

/// The expansion of `op` if the option selects it and its type is f32 or
/// f16 (math ops have one result, of their operands' type), else -1.
static int expansionOf(MlirOperation op, const bool *selected) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length <= 5 || strncmp(name.data, "math.", 5) != 0 ||
      mlirOperationGetNumResults(op) != 1)
    return -1;
  int index =
      findExpansion(mlirStringRefCreate(name.data + 5, name.length - 5));
  if (index < 0 || !selected[index] ||
      !isExpandableType(mlirValueGetType(mlirOperationGetResult(op, 0))))
    return -1;
  return index;
}

static MlirWalkResult findOp(MlirOperation op, void *userData) {
  Found *found = userData;
  int index = expansionOf(op, found->selected);
  if (index < 0)
    return MlirWalkResultAdvance;
  if (found->count == found->capacity) {
    found->capacity = found->capacity ? 2 * found->capacity : 16;
    found->ops = realloc(found->ops, found->capacity * sizeof(MlirOperation));
    found->expansion = realloc(found->expansion, found->capacity * sizeof(int));
    if (!found->ops || !found->expansion)
      abort();
  }
  found->ops[found->count] = op;
  found->expansion[found->count++] = index;
  return MlirWalkResultAdvance;
}

//===----------------------------------------------------------------------===//
// Expanding
//===----------------------------------------------------------------------===//

/// `op`'s result computed by `e` before it; f16 operands are widened and
/// the result rounded once.
static void expand(MlirOperation op, const Expansion *e) {
  CoopvecBuilder b = coopvecBuilderBefore(op, mlirOperationGetLocation(op));
  MlirType type = mlirValueGetType(mlirOperationGetResult(op, 0));
  bool f16 = mlirTypeIsAF16(coopvecElementTypeOf(type));
  MlirType wide = coopvecWithElementType(type, mlirF32TypeGet(b.context));
  MlirValue operands[2] = {{NULL}, {NULL}};
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op) && i < 2; ++i) {
    operands[i] = mlirOperationGetOperand(op, i);
    if (f16)
      operands[i] = coopvecBuildCast1(&b, "arith.extf", operands[i], wide);
  }
  MlirValue result;
  if (e->binary)
    result = e->binary(&b, operands[0], operands[1]);
  else
    result =
        (f16 && e->unaryForF16 ? e->unaryForF16 : e->unary)(&b, operands[0]);
  if (f16)
    result = coopvecBuildCast1(&b, "arith.truncf", result, type);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), result);
  mlirOperationDestroy(op);
}

static void runExpandMath(MlirOperation op, MlirExternalPass pass,
                          const void *options) {
  bool selected[NUM_EXPANSIONS] = {false};
  if (!parseOps(op, ((const ExpandMathOptions *)options)->ops, selected)) {
    mlirExternalPassSignalFailure(pass);
    return;
  }
  // Collected first: the walk must not see the ops being replaced.
  Found found = {selected, NULL, NULL, 0, 0};
  mlirOperationWalk(op, findOp, &found, MlirWalkPostOrder);
  for (size_t i = 0; i < found.count; ++i)
    expand(found.ops[i], &expansions[found.expansion[i]]);
  free(found.ops);
  free(found.expansion);
}

/// The expanded code is arith ops and math.fma.
static MlirDialectHandle (*const expandMathDependentDialects[])(void) = {
    mlirGetDialectHandle__arith__,
    mlirGetDialectHandle__math__,
};

const CoopvecPassDef coopvecExpandMathPassDef = {
    .argument = "coopvec-expand-math",
    .name = "CoopvecExpandMath",
    .description = "Expand math.sin, cos, exp, exp2, log, log2, tanh, atan, "
                   "atan2, erf, powf and rsqrt on f32 / f16 into portable "
                   "arith + math.fma code (no libm calls)",
    .anchor = "",
    .options = expandMathOptions,
    .numOptions = sizeof(expandMathOptions) / sizeof(expandMathOptions[0]),
    .optionsSize = sizeof(ExpandMathOptions),
    .dependentDialects = expandMathDependentDialects,
    .numDependentDialects = sizeof(expandMathDependentDialects) /
                            sizeof(expandMathDependentDialects[0]),
    .run = runExpandMath,
};
