//===- ExpandMath.c - coopvec-expand-math ---------------------------------===//
//
// Rewrites the math dialect's transcendental ops and arith.remf on f32 or
// f16 scalars or vectors (any shape), anywhere in the IR, into the
// straight-line arith + math.fma code of lib/Math/. LLVM would lower
// math.sin or arith.remf on a vector to one libm call per lane, and each GPU
// target would use its own library with its own accuracy (SPIR-V's OpFRem
// is not even exact); the expanded code runs in SIMD registers on the CPU
// and computes the same bits on every target, so one measured bound holds
// everywhere (docs/execution-model.md, "Transcendentals"), and remf is
// exact everywhere.
//
// f16 operands are widened to f32, computed and rounded once (remf's f32
// result is an f16 value, so that rounding is exact). Other element types
// (f64, bf16) are left alone, and so are the math ops that are one
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
     "sin,cos,exp,exp2,log,log2,tanh,atan,atan2,erf,powf,rsqrt,remf",
     "the ops to expand: math ops named without 'math.', and remf "
     "(arith.remf)"},
};

typedef MlirValue (*UnaryEmitter)(CoopvecBuilder *, MlirValue);
typedef MlirValue (*BinaryEmitter)(CoopvecBuilder *, MlirValue, MlirValue);

/// An expandable op: its name in ops=, the op's name, its emitter, and the
/// one to use for f16 operands (NULL: the f32 one).
typedef struct Expansion {
  const char *name, *op;
  UnaryEmitter unary;
  BinaryEmitter binary;
  UnaryEmitter unaryForF16;
  BinaryEmitter binaryForF16;
} Expansion;

static const Expansion expansions[] = {
    {"sin", "math.sin", coopvecEmitSin, NULL, NULL, NULL},
    {"cos", "math.cos", coopvecEmitCos, NULL, NULL, NULL},
    {"exp", "math.exp", coopvecEmitExp, NULL, NULL, NULL},
    {"exp2", "math.exp2", coopvecEmitExp2, NULL, NULL, NULL},
    {"log", "math.log", coopvecEmitLog, NULL, NULL, NULL},
    {"log2", "math.log2", coopvecEmitLog2, NULL, NULL, NULL},
    {"tanh", "math.tanh", coopvecEmitTanh, NULL, coopvecEmitTanhForF16, NULL},
    {"atan", "math.atan", coopvecEmitAtan, NULL, NULL, NULL},
    {"atan2", "math.atan2", NULL, coopvecEmitAtan2, NULL, NULL},
    {"erf", "math.erf", coopvecEmitErf, NULL, NULL, NULL},
    {"powf", "math.powf", NULL, coopvecEmitPow, NULL, NULL},
    {"rsqrt", "math.rsqrt", coopvecEmitRsqrt, NULL, NULL, NULL},
    {"remf", "arith.remf", NULL, coopvecEmitFmod, NULL, coopvecEmitFmodOfF16},
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
/// f16 (these ops have one result, of their operands' type), else -1.
static int expansionOf(MlirOperation op, const bool *selected) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (mlirOperationGetNumResults(op) != 1 ||
      !isExpandableType(mlirValueGetType(mlirOperationGetResult(op, 0))))
    return -1;
  for (int i = 0; i < NUM_EXPANSIONS; ++i)
    if (selected[i] && mlirStringRefEqual(name, mlirStringRefCreateFromCString(
                                                    expansions[i].op)))
      return i;
  return -1;
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
    result = (f16 && e->binaryForF16 ? e->binaryForF16
                                     : e->binary)(&b, operands[0], operands[1]);
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
                   "atan2, erf, powf, rsqrt and arith.remf (exact) on f32 / "
                   "f16 into portable arith + math.fma code (no libm calls)",
    .anchor = "",
    .options = expandMathOptions,
    .numOptions = sizeof(expandMathOptions) / sizeof(expandMathOptions[0]),
    .optionsSize = sizeof(ExpandMathOptions),
    .dependentDialects = expandMathDependentDialects,
    .numDependentDialects = sizeof(expandMathDependentDialects) /
                            sizeof(expandMathDependentDialects[0]),
    .run = runExpandMath,
};
