//===- Uniformity.h - Which values differ between threads ---------*- C -*-===//
//
// A value of a per-thread function is *varying* when it may differ between
// threads and *uniform* otherwise (docs/dialect.md, "Per-thread programs").
// Targets compute uniform values once per group of threads and keep varying
// ones per lane / per thread; only varying *control* needs masks.
//
// The analysis is a fixpoint over the function's region tree: a value is
// varying when it is a vec argument, a local array or a load from one, an
// atomic's old value, the result of an op with a varying operand, or
// carried through control flow whose condition, selector or bounds are
// varying (different threads leave it with different values).
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_CONVERSION_PERTHREAD_UNIFORMITY_H
#define COOPVEC_LIB_CONVERSION_PERTHREAD_UNIFORMITY_H

#include "Support/PointerMap.h"

#include <mlir-c/IR.h>

#include <stdbool.h>

typedef struct CoopvecUniformity {
  CoopvecPointerMap varying; // MlirValue.ptr -> 1
} CoopvecUniformity;

/// Analyzes the per-thread function `func` (any number of nested regions).
void coopvecAnalyzeUniformity(MlirOperation func, CoopvecUniformity *u);
void coopvecUniformityFree(CoopvecUniformity *u);

bool coopvecIsVarying(const CoopvecUniformity *u, MlirValue value);
/// Whether the control of region op `op` (an scf.if condition, index_switch
/// selector, for bounds or step, while condition) is varying: threads may
/// take different paths through it.
bool coopvecControlIsVarying(const CoopvecUniformity *u, MlirOperation op);

/// The scf.condition of an scf.while's `before` region.
MlirOperation coopvecWhileCondition(MlirOperation whileOp);

#endif // COOPVEC_LIB_CONVERSION_PERTHREAD_UNIFORMITY_H
