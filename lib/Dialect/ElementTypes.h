//===- ElementTypes.h - The element types coopvec supports -------*- C -*-===//
//
// One row per element type. Together with the two `irdl.is` lines in
// dialect/coopvec.irdl.mlir, this table is all that changes to add an
// element type (bf16, f8E4M3FN, f8E5M2, i8).
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_DIALECT_ELEMENTTYPES_H
#define COOPVEC_LIB_DIALECT_ELEMENTTYPES_H

#include "coopvec-c/Dialect.h"

#include <mlir-c/IR.h>

typedef struct CoopvecElementTypeInfo {
  const char *name;      // as MLIR prints the type
  unsigned bitWidth;     // storage size
  unsigned legalLayouts; // bit (1u << CoopvecLayout) per legal matrix layout
} CoopvecElementTypeInfo;

/// The row for `type`, or NULL if coopvec does not support it.
const CoopvecElementTypeInfo *coopvecLookupElementType(MlirType type);

static inline unsigned coopvecLayoutBit(CoopvecLayout layout) {
  return 1u << (unsigned)layout;
}

#endif // COOPVEC_LIB_DIALECT_ELEMENTTYPES_H
