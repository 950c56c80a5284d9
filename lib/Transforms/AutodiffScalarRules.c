//===- AutodiffScalarRules.c - coopvec-autodiff: scalar arith / math ------===//
//
// The reverse rules of the scalar `arith` and `math` ops of per-thread code
// (docs/autodiff.md, "Scalar rules"): an element of `unpack`, a gathered
// table entry or anything computed from them is a per-thread scalar whose
// adjoint is a scalar of the same type, accumulated with arith ops (every
// target lowers scalar arith / math on per-thread values).
//
// Precision: each rule of an f16 op computes its contributions in f32,
// from the operands, the result and ȳ widened exactly, and rounds each
// contribution to f16 once. Factors such as 1 / x, cos x or
// 2 / sqrt(pi) exp(-x^2) would lose f16 precision (or overflow, 1 / x
// below 1.5e-5) if computed in f16. f32 ops compute in f32.
//
//===----------------------------------------------------------------------===//

#include "Transforms/Autodiff.h"

#include "IR/UpstreamBuilders.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinTypes.h>

#include <math.h>
#include <stdbool.h>
#include <string.h>

// ln 2, 1 / ln 2 and 2 / sqrt(pi) (C11 has no M_LN2).
static const double kLn2 = 0.693147180559945309417232121458176568;
static const double kInvLn2 = 1.442695040888963407359924681001892137;
static const double kTwoOverSqrtPi = 1.128379167095512573896158903121545172;

/// One scalar op being differentiated.
typedef struct Scalar {
  CoopvecAutodiff *ad;
  MlirOperation op;
  MlirType work; // f32 for an f16 op, else the op's type
  MlirValue dy;  // ȳ, in `work`
} Scalar;

/// Whether float type `a` is narrower than `b`.
static bool narrower(MlirType a, MlirType b) {
  return mlirFloatTypeGetWidth(a) < mlirFloatTypeGetWidth(b);
}

/// `v` (a float scalar) converted exactly or rounded to `type`.
static MlirValue convert(CoopvecAutodiff *ad, MlirValue v, MlirType type) {
  MlirType from = mlirValueGetType(v);
  if (mlirTypeEqual(from, type))
    return v;
  return coopvecBuildCast1(
      &ad->b, narrower(from, type) ? "arith.extf" : "arith.truncf", v, type);
}

static bool varied(Scalar *s, intptr_t i) {
  return coopvecADIsVaried(s->ad, mlirOperationGetOperand(s->op, i));
}

/// Operand `i` / the result as recomputed, in `work`.
static MlirValue x(Scalar *s, intptr_t i) {
  MlirValue v = coopvecADClone(s->ad, mlirOperationGetOperand(s->op, i));
  return convert(s->ad, v, s->work);
}

static MlirValue y(Scalar *s) {
  MlirValue v = coopvecADClone(s->ad, mlirOperationGetResult(s->op, 0));
  return convert(s->ad, v, s->work);
}

static MlirValue k(Scalar *s, double value) {
  return coopvecADConstant(s->ad, s->work, value);
}

static MlirValue bin(Scalar *s, const char *name, MlirValue a, MlirValue b) {
  return coopvecBuildBinaryOp(&s->ad->b, name, a, b);
}

static MlirValue un(Scalar *s, const char *name, MlirValue a) {
  return coopvecBuildUnaryOp(&s->ad->b, name, a);
}

static MlirValue mul(Scalar *s, MlirValue a, MlirValue b) {
  return bin(s, "arith.mulf", a, b);
}

/// adjoint(operand i) += contribution (in `work`), rounded to the
/// operand's type.
static void give(Scalar *s, intptr_t i, MlirValue contribution) {
  MlirValue target = mlirOperationGetOperand(s->op, i);
  if (!coopvecADIsVaried(s->ad, target))
    return;
  coopvecADAccumulate(s->ad, target,
                      convert(s->ad, contribution, mlirValueGetType(target)));
}

/// adjoint(operand i) += ȳ * factor.
static void giveScaled(Scalar *s, intptr_t i, MlirValue factor) {
  give(s, i, mul(s, s->dy, factor));
}

//===----------------------------------------------------------------------===//
// arith
//===----------------------------------------------------------------------===//

static void ruleAdd(Scalar *s) {
  give(s, 0, s->dy);
  give(s, 1, s->dy);
}

static void ruleSub(Scalar *s) {
  give(s, 0, s->dy);
  if (varied(s, 1))
    give(s, 1, un(s, "arith.negf", s->dy));
}

static void ruleNeg(Scalar *s) { give(s, 0, un(s, "arith.negf", s->dy)); }

/// Conversions (extf, truncf) pass ȳ through: rounding is straight-through.
static void rulePass(Scalar *s) { give(s, 0, s->dy); }

static void ruleMul(Scalar *s) {
  if (varied(s, 0))
    giveScaled(s, 0, x(s, 1));
  if (varied(s, 1))
    giveScaled(s, 1, x(s, 0));
}

/// q = a / b: ā += ȳ / b, b̄ -= ȳ q / b (q recomputed in `work`).
static void ruleDiv(Scalar *s) {
  MlirValue b = x(s, 1);
  MlirValue dyOverB = bin(s, "arith.divf", s->dy, b);
  give(s, 0, dyOverB);
  if (varied(s, 1)) {
    MlirValue q = bin(s, "arith.divf", x(s, 0), b);
    give(s, 1, un(s, "arith.negf", mul(s, dyOverB, q)));
  }
}

/// remf(a, b) = a - b trunc(a / b): ā += ȳ, b̄ -= ȳ trunc(a / b).
static void ruleRem(Scalar *s) {
  give(s, 0, s->dy);
  if (varied(s, 1)) {
    MlirValue n = un(s, "math.trunc", bin(s, "arith.divf", x(s, 0), x(s, 1)));
    give(s, 1, un(s, "arith.negf", mul(s, s->dy, n)));
  }
}

/// `v` with NaN replaced by `loser`: a NaN never wins maxnum / minnum.
static MlirValue losingNaN(Scalar *s, MlirValue v, MlirValue loser) {
  MlirValue isNaN = coopvecBuildCmpF(&s->ad->b, COOPVEC_CMPF_UNO, v, v);
  return coopvecBuildSelect(&s->ad->b, isNaN, loser, v);
}

/// The maxima and minima: the selected operand gets ȳ, each gets ȳ / 2 on
/// a tie (as coopvec.max / min; docs/autodiff.md, "Ties").
static void ruleMinMax(Scalar *s, bool isMax) {
  MlirValue loser = k(s, isMax ? -INFINITY : INFINITY);
  MlirValue a = losingNaN(s, x(s, 0), loser);
  MlirValue b = losingNaN(s, x(s, 1), loser);
  int wins = isMax ? COOPVEC_CMPF_OGT : COOPVEC_CMPF_OLT;
  MlirValue aWins = coopvecBuildCmpF(&s->ad->b, wins, a, b);
  MlirValue bWins = coopvecBuildCmpF(&s->ad->b, wins, b, a);
  MlirValue weight = coopvecBuildSelect(
      &s->ad->b, aWins, k(s, 1.0),
      coopvecBuildSelect(&s->ad->b, bWins, k(s, 0.0), k(s, 0.5)));
  MlirValue ga = mul(s, s->dy, weight);
  give(s, 0, ga);
  if (varied(s, 1))
    give(s, 1, bin(s, "arith.subf", s->dy, ga));
}

static void ruleMax(Scalar *s) { ruleMinMax(s, true); }
static void ruleMin(Scalar *s) { ruleMinMax(s, false); }

/// select(c, a, b): ȳ goes to the chosen side (c is a constant).
static void ruleSelect(Scalar *s) {
  MlirValue c = coopvecADClone(s->ad, mlirOperationGetOperand(s->op, 0));
  MlirValue zero = k(s, 0.0);
  if (varied(s, 1))
    give(s, 1, coopvecBuildSelect(&s->ad->b, c, s->dy, zero));
  if (varied(s, 2))
    give(s, 2, coopvecBuildSelect(&s->ad->b, c, zero, s->dy));
}

//===----------------------------------------------------------------------===//
// math: binary and ternary
//===----------------------------------------------------------------------===//

static void ruleFma(Scalar *s) {
  ruleMul(s);
  give(s, 2, s->dy);
}

/// atan2(a, b): ā += ȳ b / (a² + b²), b̄ -= ȳ a / (a² + b²).
static void ruleAtan2(Scalar *s) {
  MlirValue a = x(s, 0), b = x(s, 1);
  MlirValue r = bin(s, "arith.addf", mul(s, a, a), mul(s, b, b));
  MlirValue g = bin(s, "arith.divf", s->dy, r);
  if (varied(s, 0))
    give(s, 0, mul(s, g, b));
  if (varied(s, 1))
    give(s, 1, un(s, "arith.negf", mul(s, g, a)));
}

/// powf(a, b) = y: ā += ȳ b a^(b-1), b̄ += ȳ y ln a (0 where y is 0, so
/// that 0^b with b > 0 gives 0 rather than 0 * -inf).
static void rulePow(Scalar *s) {
  MlirValue a = x(s, 0), b = x(s, 1);
  if (varied(s, 0)) {
    MlirValue power =
        bin(s, "math.powf", a, bin(s, "arith.subf", b, k(s, 1.0)));
    giveScaled(s, 0, mul(s, b, power));
  }
  if (varied(s, 1)) {
    MlirValue yw = y(s);
    MlirValue zero = k(s, 0.0);
    MlirValue isZero = coopvecBuildCmpF(&s->ad->b, COOPVEC_CMPF_OEQ, yw, zero);
    MlirValue slope = coopvecBuildSelect(&s->ad->b, isZero, zero,
                                         mul(s, yw, un(s, "math.log", a)));
    giveScaled(s, 1, slope);
  }
}

/// copysign(a, b) is ±a: ā += ȳ sign(a) sign(b); b only picks the sign.
static void ruleCopysign(Scalar *s) {
  MlirValue one = k(s, 1.0);
  MlirValue sa = bin(s, "math.copysign", one, x(s, 0));
  MlirValue sb = bin(s, "math.copysign", one, x(s, 1));
  giveScaled(s, 0, mul(s, sa, sb));
}

//===----------------------------------------------------------------------===//
// math: unary, as ā += ȳ f'(x)
//===----------------------------------------------------------------------===//

static void ruleSin(Scalar *s) { giveScaled(s, 0, un(s, "math.cos", x(s, 0))); }

static void ruleCos(Scalar *s) {
  giveScaled(s, 0, un(s, "arith.negf", un(s, "math.sin", x(s, 0))));
}

static void ruleExp(Scalar *s) { giveScaled(s, 0, y(s)); }

static void ruleExp2(Scalar *s) { giveScaled(s, 0, mul(s, y(s), k(s, kLn2))); }

static void ruleLog(Scalar *s) {
  give(s, 0, bin(s, "arith.divf", s->dy, x(s, 0)));
}

static void ruleLog2(Scalar *s) {
  giveScaled(s, 0, bin(s, "arith.divf", k(s, kInvLn2), x(s, 0)));
}

/// sqrt: ā += ȳ / (2 y).
static void ruleSqrt(Scalar *s) {
  giveScaled(s, 0, bin(s, "arith.divf", k(s, 0.5), y(s)));
}

/// rsqrt: y = a^(-1/2), ā += ȳ (-1/2) y³.
static void ruleRsqrt(Scalar *s) {
  MlirValue yw = y(s);
  giveScaled(s, 0, mul(s, mul(s, k(s, -0.5), yw), mul(s, yw, yw)));
}

static void ruleTanh(Scalar *s) {
  MlirValue yw = y(s);
  giveScaled(s, 0, bin(s, "arith.subf", k(s, 1.0), mul(s, yw, yw)));
}

/// atan: ā += ȳ / (1 + a²).
static void ruleAtan(Scalar *s) {
  MlirValue a = x(s, 0);
  MlirValue r = bin(s, "arith.addf", k(s, 1.0), mul(s, a, a));
  give(s, 0, bin(s, "arith.divf", s->dy, r));
}

/// erf: ā += ȳ 2 / sqrt(pi) exp(-a²).
static void ruleErf(Scalar *s) {
  MlirValue a = x(s, 0);
  MlirValue e = un(s, "math.exp", un(s, "arith.negf", mul(s, a, a)));
  giveScaled(s, 0, mul(s, k(s, kTwoOverSqrtPi), e));
}

/// absf: ā += ȳ sign(a), and 0 at a == 0 (the mean of the one-sided
/// derivatives, as for the ties of max / min).
static void ruleAbs(Scalar *s) {
  MlirValue a = x(s, 0), zero = k(s, 0.0);
  MlirValue sign = bin(s, "math.copysign", k(s, 1.0), a);
  MlirValue isZero = coopvecBuildCmpF(&s->ad->b, COOPVEC_CMPF_OEQ, a, zero);
  giveScaled(s, 0, coopvecBuildSelect(&s->ad->b, isZero, zero, sign));
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

typedef struct ScalarRule {
  const char *name;
  void (*rule)(Scalar *s);
} ScalarRule;

static const ScalarRule scalarRules[] = {
    {"arith.addf", ruleAdd},         {"arith.subf", ruleSub},
    {"arith.mulf", ruleMul},         {"arith.divf", ruleDiv},
    {"arith.remf", ruleRem},         {"arith.negf", ruleNeg},
    {"arith.maximumf", ruleMax},     {"arith.maxnumf", ruleMax},
    {"arith.minimumf", ruleMin},     {"arith.minnumf", ruleMin},
    {"arith.select", ruleSelect},    {"arith.extf", rulePass},
    {"arith.truncf", rulePass},      {"math.fma", ruleFma},
    {"math.atan2", ruleAtan2},       {"math.powf", rulePow},
    {"math.copysign", ruleCopysign}, {"math.sin", ruleSin},
    {"math.cos", ruleCos},           {"math.exp", ruleExp},
    {"math.exp2", ruleExp2},         {"math.log", ruleLog},
    {"math.log2", ruleLog2},         {"math.sqrt", ruleSqrt},
    {"math.rsqrt", ruleRsqrt},       {"math.tanh", ruleTanh},
    {"math.atan", ruleAtan},         {"math.erf", ruleErf},
    {"math.absf", ruleAbs},
};

/// Ops whose float result is piecewise constant: derivative zero, so the
/// result is never varied.
static const char *const piecewiseConstant[] = {"math.floor", "math.ceil",
                                                "math.round", "math.trunc"};

static const ScalarRule *findRule(MlirOperation op) {
  for (size_t i = 0; i < sizeof(scalarRules) / sizeof(scalarRules[0]); ++i)
    if (coopvecOpIsNamed(op, scalarRules[i].name))
      return &scalarRules[i];
  return NULL;
}

bool coopvecADHasScalarRule(MlirOperation op) {
  return findRule(op) != NULL && mlirOperationGetNumResults(op) == 1 &&
         mlirTypeIsAFloat(mlirValueGetType(mlirOperationGetResult(op, 0)));
}

bool coopvecADIsPiecewiseConstant(MlirOperation op) {
  for (size_t i = 0;
       i < sizeof(piecewiseConstant) / sizeof(piecewiseConstant[0]); ++i)
    if (coopvecOpIsNamed(op, piecewiseConstant[i]))
      return true;
  return false;
}

bool coopvecADBackwardScalar(CoopvecAutodiff *ad, MlirOperation op,
                             MlirValue dy) {
  const ScalarRule *rule = findRule(op);
  if (!rule)
    return true; // not varied (the forward refused every other op)
  MlirType type = mlirValueGetType(mlirOperationGetResult(op, 0));
  MlirType f32 = mlirF32TypeGet(ad->ctx);
  Scalar s = {ad, op, narrower(type, f32) ? f32 : type, (MlirValue){NULL}};
  s.dy = convert(ad, dy, s.work);
  rule->rule(&s);
  return true;
}
