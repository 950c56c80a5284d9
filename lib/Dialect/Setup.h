//===- Setup.h - Process-wide registration (internal) -------------*- C -*-===//
//
// MLIR's pass registry is one map per process, filled by
// mlirRegisterAllPasses without a lock: two threads registering at once
// race on it (found by ThreadSanitizer in test/stress, with two host
// threads in coopvecSetupContext). Everything in the library registers
// through this function, which does it once per process.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_DIALECT_SETUP_H
#define COOPVEC_LIB_DIALECT_SETUP_H

/// mlirRegisterAllPasses, once per process; safe from any thread.
void coopvecRegisterAllPassesOnce(void);

#endif // COOPVEC_LIB_DIALECT_SETUP_H
