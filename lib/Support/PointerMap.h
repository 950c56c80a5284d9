//===- PointerMap.h - A hash map from pointers to integers (internal) -*- C
//-*-===//
//
// Keys are the `ptr` of MLIR handles (MlirValue, MlirType, ...), stable while
// the IR lives; values are indices into the caller's own arrays. Open
// addressing, at most half full.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_SUPPORT_POINTERMAP_H
#define COOPVEC_LIB_SUPPORT_POINTERMAP_H

#include <stdint.h>

typedef struct CoopvecPointerMapEntry {
  const void *key; // NULL: empty slot
  intptr_t value;
} CoopvecPointerMapEntry;

typedef struct CoopvecPointerMap {
  CoopvecPointerMapEntry *entries;
  intptr_t capacity, count;
} CoopvecPointerMap;

/// Sets `map[key] = value` (`key` must not be NULL).
void coopvecPointerMapInsert(CoopvecPointerMap *map, const void *key,
                             intptr_t value);
/// `map[key]`, or -1 when absent.
intptr_t coopvecPointerMapFind(const CoopvecPointerMap *map, const void *key);
void coopvecPointerMapFree(CoopvecPointerMap *map);

#endif // COOPVEC_LIB_SUPPORT_POINTERMAP_H
