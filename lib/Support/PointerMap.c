//===- PointerMap.c - A hash map from pointers to integers ----------------===//

#include "Support/PointerMap.h"

#include <stdlib.h>

static uintptr_t slotOf(const void *key, intptr_t capacity) {
  uint64_t hash = (uint64_t)(uintptr_t)key;
  hash ^= hash >> 33;
  hash *= UINT64_C(0xff51afd7ed558ccd);
  hash ^= hash >> 33;
  return (uintptr_t)(hash & (uint64_t)(capacity - 1));
}

static CoopvecPointerMapEntry *findSlot(CoopvecPointerMapEntry *entries,
                                        intptr_t capacity, const void *key) {
  uintptr_t mask = (uintptr_t)capacity - 1;
  uintptr_t i = slotOf(key, capacity);
  while (entries[i].key && entries[i].key != key)
    i = (i + 1) & mask;
  return &entries[i];
}

static void grow(CoopvecPointerMap *map) {
  intptr_t capacity = map->capacity ? map->capacity * 2 : 64;
  CoopvecPointerMapEntry *entries =
      calloc((size_t)capacity, sizeof(CoopvecPointerMapEntry));
  if (!entries)
    abort();
  for (intptr_t i = 0; i < map->capacity; ++i)
    if (map->entries[i].key)
      *findSlot(entries, capacity, map->entries[i].key) = map->entries[i];
  free(map->entries);
  map->entries = entries;
  map->capacity = capacity;
}

void coopvecPointerMapInsert(CoopvecPointerMap *map, const void *key,
                             intptr_t value) {
  if (2 * (map->count + 1) > map->capacity)
    grow(map);
  CoopvecPointerMapEntry *slot = findSlot(map->entries, map->capacity, key);
  if (!slot->key)
    ++map->count;
  slot->key = key;
  slot->value = value;
}

intptr_t coopvecPointerMapFind(const CoopvecPointerMap *map, const void *key) {
  if (!map->capacity)
    return -1;
  const CoopvecPointerMapEntry *slot =
      findSlot(map->entries, map->capacity, key);
  return slot->key ? slot->value : -1;
}

void coopvecPointerMapFree(CoopvecPointerMap *map) {
  free(map->entries);
  map->entries = NULL;
  map->capacity = map->count = 0;
}
