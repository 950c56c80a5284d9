//===- Location.h - Locations in messages (internal) --------------*- C -*-===//

#ifndef COOPVEC_LIB_SUPPORT_LOCATION_H
#define COOPVEC_LIB_SUPPORT_LOCATION_H

#include "coopvec-c/Support.h"

#include <mlir-c/IR.h>

/// Appends `location` as `file:line:col`, or as MLIR prints other kinds.
void coopvecBufferAppendLocation(CoopvecBuffer *buffer, MlirLocation location);

#endif // COOPVEC_LIB_SUPPORT_LOCATION_H
