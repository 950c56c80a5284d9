//===- Scalar.c - arith and math on one element ---------------------------===//
//
// The semantics of docs/per-thread programs on one element, written so that
// no input invokes undefined behaviour in C: integers are computed on
// uint64_t and normalized to their width, the cases upstream leaves
// undefined (division by zero, INT_MIN / -1, shifts by the width or more,
// float-to-int conversions out of range) get the defined results of the
// spec, and float-to-int conversions are range-checked before the cast.
//
//===----------------------------------------------------------------------===//

#include "Interpreter/Execute.h"

#include <math.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// Representation
//===----------------------------------------------------------------------===//

double coopvecInterpRoundTo(ElemKind elem, double value) {
  switch (elem) {
  case ELEM_F16:
    return coopvecHalfToDouble(coopvecDoubleToHalf(value));
  case ELEM_F32:
    return (double)(float)value;
  default:
    return value;
  }
}

static uint64_t maskOf(int bits) {
  return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

int64_t coopvecInterpWrap(uint64_t value, int bits) {
  if (bits >= 64)
    return (int64_t)value;
  if (bits <= 1) // i1 is a boolean: 0 or 1, as the targets hold it
    return (int64_t)(value & 1);
  uint64_t sign = UINT64_C(1) << (bits - 1);
  value &= maskOf(bits);
  return (int64_t)((value ^ sign) - sign);
}

uint64_t coopvecInterpUnsigned(int64_t cell, int bits) {
  return (uint64_t)cell & maskOf(bits);
}

int64_t coopvecInterpSigned(int64_t cell, int bits) {
  if (bits >= 64)
    return cell;
  uint64_t sign = UINT64_C(1) << (bits - 1);
  return (int64_t)((coopvecInterpUnsigned(cell, bits) ^ sign) - sign);
}

static int64_t signedMin(int bits) {
  return bits >= 64 ? INT64_MIN : -(INT64_C(1) << (bits - 1));
}

//===----------------------------------------------------------------------===//
// Floats
//===----------------------------------------------------------------------===//

/// NaN-propagating minimum / maximum (IEEE 754-2019 minimum / maximum).
static double minimum(double a, double b) {
  if (isnan(a) || isnan(b))
    return NAN;
  if (a == b)
    return signbit(a) ? a : b; // -0 < +0
  return a < b ? a : b;
}

static double maximum(double a, double b) {
  if (isnan(a) || isnan(b))
    return NAN;
  if (a == b)
    return signbit(a) ? b : a;
  return a > b ? a : b;
}

/// Ops of two or three operands. NaN, infinities, signed zeros and
/// subnormals follow docs/dialect.md, "Special values" for the coopvec ops
/// (C's fmin / fmax, an ordered compare for step: NaN gives 1).
static double binaryOp(Opcode opcode, double a, double b, double c) {
  switch (opcode) {
  case OP_FADD:
    return a + b;
  case OP_FSUB:
    return a - b;
  case OP_FMUL:
    return a * b;
  case OP_FDIV:
    return a / b;
  case OP_FREM:
    return fmod(a, b);
  case OP_FMAX:
    return maximum(a, b);
  case OP_FMIN:
    return minimum(a, b);
  case OP_FMAXNUM: // coopvec.max, arith.maxnumf: a NaN operand loses
    return fmax(a, b);
  case OP_FMINNUM:
    return fmin(a, b);
  case OP_STEP:
    return a < b ? 0.0 : 1.0;
  case OP_ATAN2:
    return atan2(a, b);
  case OP_POW:
    return pow(a, b);
  case OP_COPYSIGN:
    return copysign(a, b);
  default:
    return fma(a, b, c);
  }
}

/// One-operand ops: C99's double functions (Annex F special values).
static double unaryOp(Opcode opcode, double a) {
  switch (opcode) {
  case OP_FNEG:
    return -a;
  case OP_EXP2:
    return exp2(a);
  case OP_LOG2:
    return log2(a);
  case OP_TANH:
    return tanh(a);
  case OP_SIN:
    return sin(a);
  case OP_COS:
    return cos(a);
  case OP_EXP:
    return exp(a);
  case OP_LOG:
    return log(a);
  case OP_SQRT:
    return sqrt(a);
  case OP_RSQRT:
    return 1.0 / sqrt(a);
  case OP_ATAN:
    return atan(a);
  case OP_ERF:
    return erf(a);
  case OP_FLOOR:
    return floor(a);
  case OP_CEIL:
    return ceil(a);
  case OP_FROUND_AWAY:
    return round(a);
  case OP_FTRUNC:
    return trunc(a);
  default:
    return fabs(a);
  }
}

int coopvecInterpFloatArity(Opcode opcode) {
  switch (opcode) {
  case OP_FMA:
    return 3;
  case OP_FADD:
  case OP_FSUB:
  case OP_FMUL:
  case OP_FDIV:
  case OP_FREM:
  case OP_FMAX:
  case OP_FMIN:
  case OP_FMAXNUM:
  case OP_FMINNUM:
  case OP_STEP:
  case OP_ATAN2:
  case OP_POW:
  case OP_COPYSIGN:
    return 2;
  default:
    return 1;
  }
}

double coopvecInterpFloatOp(Opcode opcode, double a, double b, double c,
                            ElemKind to) {
  // fma rounds once. For f32 operands the exact a * b + c can lie just
  // off an f32 tie that double's rounding lands on, so f32 uses fmaf. For
  // f16 operands double's fma is exact (the product has 22 bits) unless
  // the operands are 2^31 apart, and then the smaller cannot move a finite
  // f16 result off the larger one's value or across a tie.
  if (opcode == OP_FMA && to == ELEM_F32)
    return (double)fmaf((float)a, (float)b, (float)c);
  double exact = coopvecInterpFloatArity(opcode) == 1
                     ? unaryOp(opcode, a)
                     : binaryOp(opcode, a, b, c);
  return coopvecInterpRoundTo(to, exact);
}

/// MLIR's arith::CmpFPredicate: 0 false, 1-6 ordered oeq ogt oge olt ole
/// one, 7 ord, 8-13 unordered ueq ugt uge ult ule une, 14 uno, 15 true.
bool coopvecInterpCompareFloat(int64_t predicate, double a, double b) {
  bool unordered = isnan(a) || isnan(b);
  if (predicate == 0 || predicate == 15)
    return predicate == 15;
  if (predicate == 7 || predicate == 14)
    return unordered == (predicate == 14);
  if (unordered)
    return predicate >= 8; // the unordered predicates hold for NaN
  switch (predicate >= 8 ? predicate - 7 : predicate) {
  case 1:
    return a == b;
  case 2:
    return a > b;
  case 3:
    return a >= b;
  case 4:
    return a < b;
  case 5:
    return a <= b;
  default:
    return a != b;
  }
}

//===----------------------------------------------------------------------===//
// Integers
//===----------------------------------------------------------------------===//

/// divsi, ceildivsi, floordivsi, remsi on sign-extended values.
static int64_t divideSigned(Opcode opcode, int64_t a, int64_t b, int bits) {
  if (b == 0)
    return 0;
  if (a == signedMin(bits) && b == -1) // the one quotient that overflows
    return opcode == OP_REMSI ? 0 : signedMin(bits);
  int64_t quotient = a / b, remainder = a % b;
  bool inexact = remainder != 0;
  switch (opcode) {
  case OP_REMSI:
    return remainder;
  case OP_CEILDIVSI: // rounds up when the exact quotient is positive
    return quotient + (inexact && (remainder > 0) == (b > 0));
  case OP_FLOORDIVSI: // rounds down when it is negative
    return quotient - (inexact && (remainder < 0) != (b < 0));
  default:
    return quotient;
  }
}

static uint64_t divideUnsigned(Opcode opcode, uint64_t a, uint64_t b) {
  if (b == 0)
    return 0;
  switch (opcode) {
  case OP_REMUI:
    return a % b;
  case OP_CEILDIVUI:
    return a / b + (a % b != 0);
  default:
    return a / b;
  }
}

/// Shifts by `amount` (read as unsigned) of at least the width give 0, or
/// -1 for shrsi of a negative value.
static uint64_t shift(Opcode opcode, int64_t a, uint64_t amount, int bits) {
  uint64_t bitsOf = coopvecInterpUnsigned(a, bits);
  int64_t value = coopvecInterpSigned(a, bits);
  if (amount >= (uint64_t)bits)
    return opcode == OP_SHRSI && value < 0 ? UINT64_MAX : 0;
  if (opcode == OP_SHLI)
    return bitsOf << amount;
  if (opcode == OP_SHRUI)
    return bitsOf >> amount;
  // Arithmetic shift without shifting a negative number.
  return value < 0 ? ~(~(uint64_t)value >> amount) : (uint64_t)value >> amount;
}

static uint64_t bitwise(Opcode opcode, uint64_t a, uint64_t b) {
  switch (opcode) {
  case OP_IADD:
    return a + b;
  case OP_ISUB:
    return a - b;
  case OP_IMUL:
    return a * b;
  case OP_ANDI:
    return a & b;
  case OP_ORI:
    return a | b;
  default:
    return a ^ b;
  }
}

int64_t coopvecInterpIntOp(Opcode opcode, int64_t a, int64_t b, int bits) {
  int64_t sa = coopvecInterpSigned(a, bits), sb = coopvecInterpSigned(b, bits);
  uint64_t ua = coopvecInterpUnsigned(a, bits);
  uint64_t ub = coopvecInterpUnsigned(b, bits);
  uint64_t result;
  switch (opcode) {
  case OP_DIVSI:
  case OP_CEILDIVSI:
  case OP_FLOORDIVSI:
  case OP_REMSI:
    result = (uint64_t)divideSigned(opcode, sa, sb, bits);
    break;
  case OP_DIVUI:
  case OP_CEILDIVUI:
  case OP_REMUI:
    result = divideUnsigned(opcode, ua, ub);
    break;
  case OP_MAXSI:
  case OP_MINSI:
    result = (uint64_t)((sa > sb) == (opcode == OP_MAXSI) ? sa : sb);
    break;
  case OP_MAXUI:
  case OP_MINUI:
    result = (ua > ub) == (opcode == OP_MAXUI) ? ua : ub;
    break;
  case OP_SHLI:
  case OP_SHRSI:
  case OP_SHRUI:
    result = shift(opcode, a, ub, bits);
    break;
  default:
    result = bitwise(opcode, ua, ub);
    break;
  }
  return coopvecInterpWrap(result, bits);
}

/// MLIR's arith::CmpIPredicate: eq ne slt sle sgt sge ult ule ugt uge.
bool coopvecInterpCompareInt(int64_t predicate, int64_t a, int64_t b,
                             int bits) {
  int64_t sa = coopvecInterpSigned(a, bits), sb = coopvecInterpSigned(b, bits);
  uint64_t ua = coopvecInterpUnsigned(a, bits);
  uint64_t ub = coopvecInterpUnsigned(b, bits);
  switch (predicate) {
  case 0:
    return ua == ub;
  case 1:
    return ua != ub;
  case 2:
    return sa < sb;
  case 3:
    return sa <= sb;
  case 4:
    return sa > sb;
  case 5:
    return sa >= sb;
  case 6:
    return ua < ub;
  case 7:
    return ua <= ub;
  case 8:
    return ua > ub;
  default:
    return ua >= ub;
  }
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

/// fptosi / fptoui: toward zero, saturating, NaN gives 0. The range checks
/// come before the cast, which C leaves undefined out of range.
static int64_t floatToInt(double value, int bits, bool isUnsigned) {
  if (isnan(value))
    return 0;
  double whole = trunc(value);
  if (isUnsigned) {
    if (whole <= 0)
      return 0;
    if (whole >= ldexp(1.0, bits))
      return coopvecInterpWrap(maskOf(bits), bits);
    return coopvecInterpWrap((uint64_t)whole, bits);
  }
  double limit = ldexp(1.0, bits - 1);
  if (whole < -limit)
    return coopvecInterpWrap((uint64_t)signedMin(bits), bits);
  if (whole >= limit)
    return coopvecInterpWrap(maskOf(bits) >> 1, bits);
  return coopvecInterpWrap((uint64_t)(int64_t)whole, bits);
}

/// sitofp / uitofp, rounded once: C's int-to-float conversions round
/// correctly, and an integer beyond 2^53 (inexact in double) is beyond
/// f16's range, where rounding twice still gives infinity.
static double intToFloat(int64_t cell, int bits, bool isUnsigned, ElemKind to) {
  uint64_t u = coopvecInterpUnsigned(cell, bits);
  int64_t s = coopvecInterpSigned(cell, bits);
  if (to == ELEM_F32)
    return isUnsigned ? (double)(float)u : (double)(float)s;
  return coopvecInterpRoundTo(to, isUnsigned ? (double)u : (double)s);
}

/// The IEEE bits of a float element (NaN payloads are not kept: f16 values
/// are held as doubles).
static uint64_t floatBits(ElemKind elem, double value) {
  if (elem == ELEM_F16)
    return coopvecDoubleToHalf(value);
  if (elem == ELEM_F32) {
    float narrow = (float)value;
    uint32_t bits;
    memcpy(&bits, &narrow, sizeof(bits));
    return bits;
  }
  uint64_t bits;
  memcpy(&bits, &value, sizeof(bits));
  return bits;
}

static double bitsFloat(ElemKind elem, uint64_t bits) {
  if (elem == ELEM_F16)
    return coopvecHalfToDouble((uint16_t)bits);
  if (elem == ELEM_F32) {
    uint32_t narrowBits = (uint32_t)bits;
    float narrow;
    memcpy(&narrow, &narrowBits, sizeof(narrow));
    return narrow;
  }
  double value;
  memcpy(&value, &bits, sizeof(value));
  return value;
}

static Cell bitcast(Cell value, const Slot *from, const Slot *to) {
  uint64_t bits = from->kind == SLOT_FLOAT
                      ? floatBits(from->elem, value.f)
                      : coopvecInterpUnsigned(value.i, from->bits);
  Cell result;
  if (to->kind == SLOT_FLOAT)
    result.f = bitsFloat(to->elem, bits);
  else
    result.i = coopvecInterpWrap(bits, to->bits);
  return result;
}

Cell coopvecInterpConvert(Opcode opcode, Cell value, const Slot *from,
                          const Slot *to) {
  Cell result = value;
  switch (opcode) {
  case OP_ROUND:
    result.f = coopvecInterpRoundTo(to->elem, value.f);
    break;
  case OP_INT_CAST:
    result.i = coopvecInterpWrap(
        (uint64_t)coopvecInterpSigned(value.i, from->bits), to->bits);
    break;
  case OP_INT_CAST_U:
    result.i =
        coopvecInterpWrap(coopvecInterpUnsigned(value.i, from->bits), to->bits);
    break;
  case OP_SITOFP:
  case OP_UITOFP:
    result.f = intToFloat(value.i, from->bits, opcode == OP_UITOFP, to->elem);
    break;
  case OP_FPTOSI:
  case OP_FPTOUI:
    result.i = floatToInt(value.f, to->bits, opcode == OP_FPTOUI);
    break;
  case OP_BITCAST:
    result = bitcast(value, from, to);
    break;
  default: // OP_COPY
    break;
  }
  return result;
}
