//===- ExternalPass.c - CoopvecPassDef -> MlirPass ------------------------===//
//
// Wraps a pass def and its parsed options into an external pass. Each def
// gets its own TypeID (the def's address), so the pass manager can tell two
// coopvec passes apart.
//
//===----------------------------------------------------------------------===//

#include "Dialect/TypeCache.h"
#include "Pass/PassDef.h"

#include "coopvec-c/Support.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct PassInstance {
  const CoopvecPassDef *def;
  void *options;
} PassInstance;

static void reportError(MlirStringCallback callback, void *userData,
                        const char *message) {
  if (callback)
    callback(mlirStringRefCreateFromCString(message), userData);
}

static bool parseBool(const char *text, size_t length, bool *value) {
  if ((length == 4 && strncmp(text, "true", 4) == 0) ||
      (length == 1 && text[0] == '1')) {
    *value = true;
    return true;
  }
  if ((length == 5 && strncmp(text, "false", 5) == 0) ||
      (length == 1 && text[0] == '0')) {
    *value = false;
    return true;
  }
  return false;
}

static bool parseInt(const char *text, size_t length, int64_t *value) {
  char digits[32];
  if (length == 0 || length >= sizeof(digits))
    return false;
  memcpy(digits, text, length);
  digits[length] = '\0';
  char *end = NULL;
  errno = 0;
  long long parsed = strtoll(digits, &end, 10);
  if (*end != '\0' || errno == ERANGE)
    return false; // not a number, or outside int64_t
  *value = parsed;
  return true;
}

/// Appends `value` to the comma list in `field` (a repeated list option
/// accumulates, as upstream ListOption does).
static bool appendListItem(char *field, const char *value, size_t length) {
  size_t used = strlen(field);
  size_t separator = used && length ? 1 : 0;
  if (used + separator + length >= COOPVEC_OPTION_STRING_MAX)
    return false;
  if (separator)
    field[used++] = ',';
  memcpy(field + used, value, length);
  field[used + length] = '\0';
  return true;
}

/// Sets option `option` in `options` from its textual value.
static bool setOption(const CoopvecPassDef *def,
                      const CoopvecPassOption *option, void *options,
                      const char *value, size_t length, CoopvecBuffer *error) {
  char *field = (char *)options + option->offset;
  switch (option->kind) {
  case CoopvecOptionBool:
    if (parseBool(value, length, (bool *)field))
      return true;
    break;
  case CoopvecOptionInt:
    if (parseInt(value, length, (int64_t *)field))
      return true;
    break;
  case CoopvecOptionString:
    if (length < COOPVEC_OPTION_STRING_MAX) {
      memcpy(field, value, length);
      field[length] = '\0';
      return true;
    }
    break;
  case CoopvecOptionList:
    if (appendListItem(field, value, length))
      return true;
    break;
  }
  static const char *kindNames[] = {"a boolean (true/false)", "an integer",
                                    "a string",
                                    ("a comma list (at most 127 "
                                     "characters in all)")};
  coopvecBufferAppendf(error,
                       "invalid value '%.*s' for option '%s' of pass "
                       "'%s': expected %s",
                       (int)length, value, option->name, def->argument,
                       kindNames[option->kind]);
  return false;
}

static const CoopvecPassOption *findOption(const CoopvecPassDef *def,
                                           const char *name, size_t length) {
  for (size_t i = 0; i < def->numOptions; ++i)
    if (strlen(def->options[i].name) == length &&
        strncmp(def->options[i].name, name, length) == 0)
      return &def->options[i];
  return NULL;
}

/// A list option's first occurrence replaces its default (as upstream
/// ListOption's does); the later ones append. `given` has a bit per option.
static void startList(const CoopvecPassDef *def,
                      const CoopvecPassOption *option, void *options,
                      uint64_t *given) {
  uint64_t bit = (uint64_t)1 << (size_t)(option - def->options);
  if (option->kind == CoopvecOptionList && !(*given & bit))
    ((char *)options + option->offset)[0] = '\0';
  *given |= bit;
}

/// Parses `key=value key2=value2` (space separated, as MLIR pass options).
static bool parseOptions(const CoopvecPassDef *def, void *options,
                         MlirStringRef text, CoopvecBuffer *error) {
  uint64_t given = 0; // a pass has far fewer than 64 options
  for (size_t i = 0; i < def->numOptions; ++i) {
    const char *value = def->options[i].defaultValue;
    if (!setOption(def, &def->options[i], options, value, strlen(value), error))
      return false;
  }
  size_t pos = 0;
  while (pos < text.length) {
    while (pos < text.length && isspace((unsigned char)text.data[pos]))
      ++pos;
    if (pos == text.length)
      break;
    size_t keyStart = pos;
    while (pos < text.length && text.data[pos] != '=' &&
           !isspace((unsigned char)text.data[pos]))
      ++pos;
    size_t keyLength = pos - keyStart;
    const CoopvecPassOption *option =
        findOption(def, text.data + keyStart, keyLength);
    if (!option) {
      coopvecBufferAppendf(error, "pass '%s' has no option '%.*s'",
                           def->argument, (int)keyLength, text.data + keyStart);
      return false;
    }
    const char *value = "true"; // a bare flag sets a boolean
    size_t valueLength = 4;
    if (pos < text.length && text.data[pos] == '=') {
      size_t valueStart = ++pos;
      while (pos < text.length && !isspace((unsigned char)text.data[pos]))
        ++pos;
      value = text.data + valueStart;
      valueLength = pos - valueStart;
    } else if (option->kind != CoopvecOptionBool) {
      coopvecBufferAppendf(error, "option '%s' of pass '%s' needs a value",
                           option->name, def->argument);
      return false;
    }
    startList(def, option, options, &given);
    if (!setOption(def, option, options, value, valueLength, error))
      return false;
  }
  return true;
}

static void constructPass(void *userData) { (void)userData; }

static void destructPass(void *userData) {
  PassInstance *instance = userData;
  free(instance->options);
  free(instance);
}

static void *clonePass(void *userData) {
  const PassInstance *original = userData;
  PassInstance *copy = calloc(1, sizeof(*copy));
  if (!copy)
    abort();
  copy->def = original->def;
  if (original->def->optionsSize) {
    copy->options = malloc(original->def->optionsSize);
    if (!copy->options)
      abort();
    memcpy(copy->options, original->options, original->def->optionsSize);
  }
  return copy;
}

static void runPass(MlirOperation op, MlirExternalPass pass, void *userData) {
  const PassInstance *instance = userData;
  // The pass's context outlives its run: type queries may be cached.
  coopvecTypeCacheBegin();
  instance->def->run(op, pass, instance->options);
  coopvecTypeCacheEnd();
}

MlirPass coopvecCreatePassFromDef(const CoopvecPassDef *def,
                                  MlirStringRef options,
                                  MlirStringCallback errorCallback,
                                  void *userData) {
  MlirPass null = {NULL};
  PassInstance *instance = calloc(1, sizeof(*instance));
  if (!instance)
    abort();
  instance->def = def;
  // calloc(1, 0) may return NULL; allocate at least one byte.
  instance->options = calloc(1, def->optionsSize ? def->optionsSize : 1);
  if (!instance->options)
    abort();
  CoopvecBuffer error = {0};
  if (!parseOptions(def, instance->options, options, &error)) {
    reportError(errorCallback, userData, coopvecBufferStr(&error));
    coopvecBufferFree(&error);
    destructPass(instance);
    return null;
  }
  MlirDialectHandle handles[8];
  size_t numHandles = def->numDependentDialects;
  if (numHandles > sizeof(handles) / sizeof(handles[0]))
    abort(); // a pass def lists more dialects than this table holds
  for (size_t i = 0; i < numHandles; ++i)
    handles[i] = def->dependentDialects[i]();
  MlirExternalPassCallbacks callbacks = {constructPass, destructPass, NULL,
                                         clonePass, runPass};
  return mlirCreateExternalPass(
      mlirTypeIDCreate(def), mlirStringRefCreateFromCString(def->name),
      mlirStringRefCreateFromCString(def->argument),
      mlirStringRefCreateFromCString(def->description),
      mlirStringRefCreateFromCString(def->anchor), (intptr_t)numHandles,
      handles, callbacks, instance);
}
