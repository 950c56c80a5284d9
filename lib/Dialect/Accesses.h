//===- Accesses.h - Which memory accesses are checked before a run -*- C
//-*-===//
//
// The execution engine checks an access before a run when it can evaluate
// the elements it touches from the call's scalar arguments; the lowerings
// check every other access at run time (docs/dialect.md, "Out-of-bounds
// accesses"). Both sides ask this one predicate, so that no access goes
// unchecked between them.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_DIALECT_ACCESSES_H
#define COOPVEC_LIB_DIALECT_ACCESSES_H

#include <mlir-c/IR.h>

#include <stdbool.h>

/// Whether the engine evaluates `offset`: built at the function's top level
/// from integer constants and index / i64 arguments with arith.addi, subi,
/// muli, index_cast and index_castui.
bool coopvecOffsetIsEvaluable(MlirValue offset);

/// Whether the access `op` at `offset` (in a per-thread function) is checked
/// before the run: an op at the function's top level whose offset is
/// evaluable. The engine evaluates exactly these (Extent.c).
bool coopvecAccessIsPrechecked(MlirOperation op, MlirValue offset);

#endif // COOPVEC_LIB_DIALECT_ACCESSES_H
