//===- Alloc.c - Growable arrays ------------------------------------------===//

#include "Support/Alloc.h"

#include <stdlib.h>

void *coopvecGrowArray(void *array, intptr_t *capacity, intptr_t needed,
                       size_t elementSize) {
  if (needed <= *capacity)
    return array;
  intptr_t newCapacity = *capacity ? *capacity : 8;
  while (newCapacity < needed)
    newCapacity *= 2;
  void *grown = realloc(array, (size_t)newCapacity * elementSize);
  if (!grown)
    abort();
  *capacity = newCapacity;
  return grown;
}
