/*===- coopvec-c/Coopvec.h - The coopvec embedding API ------------*- C -*-===*\
|*                                                                            *|
|* The umbrella header: every public header of libcoopvec.                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef COOPVEC_C_COOPVEC_H
#define COOPVEC_C_COOPVEC_H

#include "coopvec-c/Builders.h"
#include "coopvec-c/Dialect.h"
#include "coopvec-c/ExecutionEngine.h"
#include "coopvec-c/HostArray.h"
#include "coopvec-c/Interpreter.h"
#include "coopvec-c/Npy.h"
#include "coopvec-c/Passes.h"
#include "coopvec-c/Support.h"
#include "coopvec-c/Target.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The library version, "MAJOR.MINOR.PATCH".
COOPVEC_EXPORT const char *coopvecGetVersion(void);

#ifdef __cplusplus
}
#endif

#endif // COOPVEC_C_COOPVEC_H
