//===- ReduceMode.h - How scatter-adds at per-thread places are built -*- C
//-*-===//
//
// A scatter-add is an add of each thread's value at a per-thread index of a
// memref argument: `memref.atomic_rmw addf` / `addi` whose old value is
// unused, and `coopvec.reduce_sum_accumulate` at a varying offset. Where
// many threads hit one address, one atomic per thread serializes on that
// address; the `reduce-mode=` option of the conversions chooses how a
// target builds them (docs/passes.md, "reduce-mode"):
//
//   direct: one atomic per thread;
//   local:  the threads of a lane group (CPU) that add to one address are
//           summed first, then one atomic per distinct address;
//   auto:   the target's choice, from bench/scatter-add's measurements (CPU:
//           one summed atomic for a group whose lanes all add at one
//           address, else direct).
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_CONVERSION_PERTHREAD_REDUCEMODE_H
#define COOPVEC_LIB_CONVERSION_PERTHREAD_REDUCEMODE_H

#include <mlir-c/IR.h>

#include <stdbool.h>

struct CoopvecElementAccess;

typedef enum CoopvecReduceMode {
  CoopvecReduceDirect,
  CoopvecReduceLocal,
  CoopvecReduceAuto,
} CoopvecReduceMode;

/// The values of the option, for messages: "direct, local or auto".
extern const char coopvecReduceModeValues[];

/// Parses `text` (direct, local, auto); false if it is none of them.
bool coopvecParseReduceMode(const char *text, CoopvecReduceMode *mode);

/// Whether an atomic of `kind` at `a` is a scatter-add that `reduce-mode`
/// applies to: addf / addi on a memref argument (not a local array, whose
/// elements are private to a thread) whose old value no op uses.
bool coopvecIsScatterAdd(const struct CoopvecElementAccess *a,
                         MlirAttribute kind);

/// The same test on a `memref.atomic_rmw` of the per-thread function, before
/// lowering (its memref is not a `memref.alloca`).
bool coopvecOpIsScatterAdd(MlirOperation op);

#endif // COOPVEC_LIB_CONVERSION_PERTHREAD_REDUCEMODE_H
