//===- Expand.c - Per-host-thread copies of expanded buffers --------------===//
//
// Under reduce-mode=expand the CPU lowering adds into some memref
// arguments with plain loads and stores instead of atomics (those only
// scatter-adds use: lib/Conversion/PerThread/ReduceMode.h) and names them
// in the lowered module's `coopvec.expanded_args` dictionary. The CPU
// backend reads it when it compiles (this file), and a run gives each host
// thread its own zeroed copy of such a buffer, then adds the copies into
// the buffer after the threads have joined (CPURun.c), with atomics: runs
// of other engines may add into the same buffer at once, as the dialect
// allows. An f16 buffer is expanded as the f32 shadow the engine runs on
// (Shadows.c), which belongs to the run: the first host thread adds into
// it itself, the other copies are f32 and are added into it, and it is
// rounded to f16 once.
//
//===----------------------------------------------------------------------===//

#include "ExecutionEngine/Engine.h"

#include <mlir-c/BuiltinAttributes.h>

#include <stdlib.h>
#include <string.h>

static const char kExpandedArgs[] = "coopvec.expanded_args";

static void addTable(CoopvecEngine *engine, MlirStringRef name,
                     size_t suffixLength, MlirAttribute args) {
  CoopvecExpandTable *grown =
      realloc(engine->expandTables, (size_t)(engine->numExpandTables + 1) *
                                        sizeof(CoopvecExpandTable));
  if (!grown)
    abort();
  engine->expandTables = grown;
  CoopvecExpandTable *table = &engine->expandTables[engine->numExpandTables++];
  name.length -= suffixLength;
  table->function = malloc(name.length + 1);
  table->count = mlirDenseArrayGetNumElements(args);
  table->args = calloc((size_t)table->count + 1, sizeof(int64_t));
  if (!table->function || !table->args)
    abort();
  memcpy(table->function, name.data, name.length);
  table->function[name.length] = '\0';
  for (intptr_t i = 0; i < table->count; ++i)
    table->args[i] = mlirDenseI64ArrayGetElement(args, i);
}

void coopvecEngineCollectExpanded(CoopvecEngine *engine, MlirOperation lowered,
                                  const char *suffix) {
  coopvecEngineFreeExpanded(engine);
  MlirAttribute all = mlirOperationGetAttributeByName(
      lowered, mlirStringRefCreateFromCString(kExpandedArgs));
  if (mlirAttributeIsNull(all) || !mlirAttributeIsADictionary(all))
    return;
  size_t suffixLength = strlen(suffix);
  for (intptr_t i = 0; i < mlirDictionaryAttrGetNumElements(all); ++i) {
    MlirNamedAttribute entry = mlirDictionaryAttrGetElement(all, i);
    MlirStringRef name = mlirIdentifierStr(entry.name);
    if (name.length > suffixLength &&
        memcmp(name.data + name.length - suffixLength, suffix, suffixLength) ==
            0 &&
        mlirAttributeIsADenseI64Array(entry.attribute))
      addTable(engine, name, suffixLength, entry.attribute);
  }
}

const CoopvecExpandTable *coopvecEngineExpandedOf(const CoopvecEngine *engine,
                                                  const char *function) {
  for (intptr_t i = 0; i < engine->numExpandTables; ++i)
    if (strcmp(engine->expandTables[i].function, function) == 0)
      return &engine->expandTables[i];
  return NULL;
}

void coopvecEngineFreeExpanded(CoopvecEngine *engine) {
  for (intptr_t i = 0; i < engine->numExpandTables; ++i) {
    free(engine->expandTables[i].function);
    free(engine->expandTables[i].args);
  }
  free(engine->expandTables);
  engine->expandTables = NULL;
  engine->numExpandTables = 0;
}

/// Adds `copy` (count elements of `dtype`: f32 or i32, what the lowering
/// expands; f16 buffers reach it as f32 shadows, Shadows.c) into `data`,
/// both private to this run: plain adds. An f32 element still +0.0 in the
/// copy (nothing, or only zeros, added by that host) is skipped: adding it
/// would turn a -0.0 into +0.0, and a shadow's untouched -0.0 is how
/// Shadows.c knows to leave an f16 element (-0.0 and NaN payloads
/// included) as it was. Only the sign of a zero sum can differ, which the
/// dialect leaves open.
static void addPlain(void *data, const void *copy, CoopvecDType dtype,
                     int64_t count) {
  if (dtype == CoopvecDTypeF32) {
    float *to = data;
    const uint32_t *from = copy;
    for (int64_t e = 0; e < count; ++e)
      if (from[e] != 0) {
        float value;
        memcpy(&value, &from[e], sizeof(value));
        to[e] += value;
      }
    return;
  }
  // i32 adds wrap, as the atomics do: in unsigned arithmetic.
  uint32_t *to = data;
  const uint32_t *from = copy;
  for (int64_t e = 0; e < count; ++e)
    to[e] += from[e];
}

/// addPlain into a buffer runs of other engines may add into at the same
/// time: each add is atomic (a compare-and-swap loop for f32), as the
/// compiled code's would be.
static void addAtomic(void *data, const void *copy, CoopvecDType dtype,
                      int64_t count) {
  uint32_t *to = data;
  const uint32_t *from = copy;
  for (int64_t e = 0; e < count; ++e) {
    if (from[e] == 0)
      continue; // +0.0 or an i32 0: nothing to add
    if (dtype != CoopvecDTypeF32) {
      __atomic_fetch_add(&to[e], from[e], __ATOMIC_RELAXED);
      continue;
    }
    float value, sum;
    memcpy(&value, &from[e], sizeof(value));
    uint32_t old = __atomic_load_n(&to[e], __ATOMIC_RELAXED), updated;
    do {
      memcpy(&sum, &old, sizeof(sum));
      sum += value;
      memcpy(&updated, &sum, sizeof(updated));
    } while (!__atomic_compare_exchange_n(&to[e], &old, updated, true,
                                          __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  }
}

/// The copies of hosts 1 .. hosts-1 are added into host 0's with plain adds
/// (all belong to this run), and host 0's into the caller's buffer with
/// atomic ones: one atomic pass whatever the number of hosts. Without a
/// copy for host 0 (a shadow of this run, which host 0 added into itself),
/// the copies go into the shadow with plain adds.
void coopvecExpandMerge(const CoopvecExpandTable *table,
                        const CoopvecArray *args, void *const *copies,
                        int hosts) {
  for (intptr_t i = 0; i < table->count; ++i) {
    const CoopvecArray *arg = &args[table->args[i]];
    void *first = copies[i];
    void *sum = first ? first : arg->data;
    for (int host = 1; host < hosts; ++host)
      addPlain(sum, copies[(size_t)host * table->count + i], arg->dtype,
               arg->size);
    if (first)
      addAtomic(arg->data, first, arg->dtype, arg->size);
  }
}
