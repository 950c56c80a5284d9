/*===- coopvec-c/Interpreter.h - The reference interpreter --------*- C -*-===*\
|*                                                                            *|
|* The reference interpreter runs a coopvec function directly, one thread at  *|
|* a time, in double precision. It is the oracle every lowering is tested     *|
|* against, so it shares no code with them. See docs/interpreter.md.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef COOPVEC_C_INTERPRETER_H
#define COOPVEC_C_INTERPRETER_H

#include "coopvec-c/Export.h"
#include "coopvec-c/HostArray.h"

#include <mlir-c/IR.h>
#include <mlir-c/Support.h>

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Runs the func.func named `funcName` in `moduleOp` (a builtin.module, or
/// any op whose first region holds the function) for `numThreads` threads.
///
/// args[i], by the kind of the function's argument i:
///  - !coopvec.vec<N, T> or vector<NxT>: numThreads * N elements, row-major
///    (thread t's vector is elements [t*N, t*N+N)), dtype matching T.
///  - memref<?xT> / memref<NxT>: one buffer shared by all threads, dtype
///    matching T (f16, f32, f64, i8, i32, i64). Stores, atomics and
///    gradient accumulations write into it.
///  - a scalar (f16, f32, f64, index, iN): 1 element shared by all threads,
///    or numThreads elements, one per thread.
/// results[i]: numThreads * N elements for vec/vector results, numThreads
/// for scalar results, allocated by the caller. Floating-point results may
/// be of any float dtype (f64 keeps the oracle's full precision); integer
/// results of any integer dtype.
///
/// Returns failure, after reporting one message through `errorCallback`
/// (which may be NULL), on bad arguments, IR the interpreter does not
/// support, or memory accesses outside their buffers. Those do not stop the
/// run (a read gives 0, a write is dropped): once every thread has run, one
/// error counts them and names the first. Memref buffers are written back
/// only when the run succeeded; on failure they are unchanged (result
/// arrays may be partially written).
COOPVEC_EXPORT MlirLogicalResult coopvecInterpret(
    MlirOperation moduleOp, MlirStringRef funcName, int64_t numThreads,
    const CoopvecArray *args, intptr_t numArgs, CoopvecArray *results,
    intptr_t numResults, MlirStringCallback errorCallback, void *userData);

#ifdef __cplusplus
}
#endif

#endif // COOPVEC_C_INTERPRETER_H
