//===- Status.c - Out-of-bounds accesses reported by a run ----------------===//
//
// Lowered code that checks memory accesses at run time (varying indices,
// accesses inside control flow: docs/dialect.md, "Out-of-bounds accesses")
// takes a trailing status argument, two i64 words: the number of (thread,
// op) accesses outside their buffers, and the smallest key thread * 2^16 +
// check, where check numbers the lowered function's checks in the order
// of its entry in the module's `coopvec.bounds_checks` dictionary
// ("<location> ('<op>')" each). The backends read that attribute from the
// lowered module when they compile, pass the status buffer with each launch or
// call, and report a run with any such access as a failure
// (CoopvecStatusOutOfBounds), after the run, with the count and the first
// access.
//
//===----------------------------------------------------------------------===//

#include "ExecutionEngine/Engine.h"

#include <mlir-c/BuiltinAttributes.h>

#include <stdlib.h>
#include <string.h>

static char *copyRef(MlirStringRef text) {
  char *copy = malloc(text.length + 1);
  if (!copy)
    abort();
  memcpy(copy, text.data, text.length);
  copy[text.length] = '\0';
  return copy;
}

static bool endsWith(MlirStringRef text, const char *suffix) {
  size_t length = strlen(suffix);
  return text.length >= length &&
         memcmp(text.data + text.length - length, suffix, length) == 0;
}

static void addTable(CoopvecEngine *engine, MlirStringRef name,
                     size_t suffixLength, MlirAttribute checks) {
  CoopvecCheckTable *grown =
      realloc(engine->checkTables,
              (size_t)(engine->numCheckTables + 1) * sizeof(CoopvecCheckTable));
  if (!grown)
    abort();
  engine->checkTables = grown;
  CoopvecCheckTable *table = &engine->checkTables[engine->numCheckTables++];
  name.length -= suffixLength;
  table->function = copyRef(name);
  table->count = mlirArrayAttrGetNumElements(checks);
  table->names = calloc((size_t)table->count + 1, sizeof(char *));
  if (!table->names)
    abort();
  for (intptr_t i = 0; i < table->count; ++i) {
    MlirAttribute entry = mlirArrayAttrGetElement(checks, i);
    table->names[i] = copyRef(mlirAttributeIsAString(entry)
                                  ? mlirStringAttrGetValue(entry)
                                  : mlirStringRefCreateFromCString("?"));
  }
}

void coopvecEngineCollectChecks(CoopvecEngine *engine, MlirOperation lowered,
                                const char *suffix) {
  coopvecEngineFreeChecks(engine);
  MlirAttribute checks = mlirOperationGetAttributeByName(
      lowered, mlirStringRefCreateFromCString("coopvec.bounds_checks"));
  if (mlirAttributeIsNull(checks) || !mlirAttributeIsADictionary(checks))
    return;
  for (intptr_t i = 0; i < mlirDictionaryAttrGetNumElements(checks); ++i) {
    MlirNamedAttribute entry = mlirDictionaryAttrGetElement(checks, i);
    MlirStringRef name = mlirIdentifierStr(entry.name);
    if (endsWith(name, suffix) && mlirAttributeIsAArray(entry.attribute))
      addTable(engine, name, strlen(suffix), entry.attribute);
  }
}

const CoopvecCheckTable *coopvecEngineChecksOf(const CoopvecEngine *engine,
                                               const char *function) {
  for (intptr_t i = 0; i < engine->numCheckTables; ++i)
    if (strcmp(engine->checkTables[i].function, function) == 0)
      return &engine->checkTables[i];
  return NULL;
}

void coopvecEngineFreeChecks(CoopvecEngine *engine) {
  for (intptr_t i = 0; i < engine->numCheckTables; ++i) {
    CoopvecCheckTable *table = &engine->checkTables[i];
    for (intptr_t j = 0; j < table->count; ++j)
      free(table->names[j]);
    free(table->names);
    free(table->function);
  }
  free(engine->checkTables);
  engine->checkTables = NULL;
  engine->numCheckTables = 0;
}

CoopvecStatus coopvecEngineReportAccesses(CoopvecFunction *function,
                                          int64_t count, int64_t key) {
  if (count == 0)
    return CoopvecStatusSuccess;
  const CoopvecCheckTable *table =
      coopvecEngineChecksOf(function->engine, function->name);
  int64_t check = key & 0xffff, thread = key >> 16;
  const char *where =
      table && check < table->count ? table->names[check] : "an unknown op";
  return coopvecEngineFail(
      function->engine, CoopvecStatusOutOfBounds,
      "@%s: %lld access%s outside %s buffer at run time (reads gave 0, "
      "writes were dropped); the first: thread %lld at %s",
      function->name, (long long)count, count == 1 ? "" : "es",
      count == 1 ? "its" : "their", (long long)thread, where);
}
