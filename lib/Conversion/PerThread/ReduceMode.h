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
//   expand: (CPU) plain adds into a per-host-thread copy of the buffer that
//           the execution engine merges after the run, for buffers that
//           are only added into (coopvecArgumentIsExpandable); other
//           scatter-adds as local;
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
  CoopvecReduceExpand,
  CoopvecReduceAuto,
} CoopvecReduceMode;

/// The values of the option, for messages: "direct, local, expand or
/// auto".
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

/// Whether memref argument `arg` of a per-thread function can be expanded:
/// a rank-1 memref of f32 or i32 used at least once, each use adding into
/// it: the memref of a scatter-add `memref.atomic_rmw`, the gradient of
/// `coopvec.reduce_sum_accumulate` (any offset), or a `coopvec.matrix_view`
/// whose matrix only `outer_product_accumulate` takes as its gradient.
/// Nothing reads it, so each host thread may add into its own zeroed copy.
/// f16 buffers are not: the execution engine gives an f16 buffer that
/// only such ops add into an f32 shadow before lowering (on the CPU,
/// scatter-add atomics too: lib/ExecutionEngine/Shadows.h), and the shadow
/// is then expandable, so a host thread's copy sums in f32.
bool coopvecArgumentIsExpandable(MlirValue arg);

/// The module attribute naming the expanded arguments: a dictionary from
/// each lowered function's name to an array<i64> of argument indices (of
/// the per-thread function), read by the execution engine.
#define COOPVEC_EXPANDED_ARGS_ATTR "coopvec.expanded_args"
/// Under auto, the CPU also lowers a function `f` with an expandable
/// argument as `f` + this suffix under expand (`@"f.expand_batched"`).
#define COOPVEC_EXPAND_VARIANT_SUFFIX ".expand"

#endif // COOPVEC_LIB_CONVERSION_PERTHREAD_REDUCEMODE_H
