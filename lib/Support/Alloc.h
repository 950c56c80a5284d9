//===- Alloc.h - Growable arrays (internal) -----------------------*- C -*-===//

#ifndef COOPVEC_LIB_SUPPORT_ALLOC_H
#define COOPVEC_LIB_SUPPORT_ALLOC_H

#include <stddef.h>
#include <stdint.h>

/// Returns `array` (`*capacity` elements of `elementSize` bytes) grown to
/// hold at least `needed` elements, doubling the capacity; updates
/// `*capacity`. Out of memory aborts: there is nothing sensible to report
/// through MLIR then.
void *coopvecGrowArray(void *array, intptr_t *capacity, intptr_t needed,
                       size_t elementSize);

#endif // COOPVEC_LIB_SUPPORT_ALLOC_H
