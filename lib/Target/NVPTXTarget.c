//===- NVPTXTarget.c - NVPTX chip and feature names -----------------------===//

#include "Target/NVPTXTarget.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char *const coopvecNVPTX_cpus[];
extern const char *const coopvecNVPTX_features[];
extern const int coopvecNVPTX_cpu_min_ptx[];

static bool listContains(const char *const *names, const char *name,
                         size_t length) {
  for (; *names; ++names)
    if (strlen(*names) == length && strncmp(*names, name, length) == 0)
      return true;
  return false;
}

bool coopvecNVPTXChipIsKnown(const char *chip) {
  return listContains(coopvecNVPTX_cpus, chip, strlen(chip));
}

int coopvecNVPTXChipVersion(const char *chip) {
  if (strncmp(chip, "sm_", 3) != 0 || !isdigit((unsigned char)chip[3]))
    return -1;
  return atoi(chip + 3);
}

/// Whether `chip` is a plain `sm_<digits>` name (not sm_90a: code for an
/// architecture-specific chip runs on that architecture only).
static bool isPlainChip(const char *chip) {
  if (strncmp(chip, "sm_", 3) != 0 || !chip[3])
    return false;
  for (const char *p = chip + 3; *p; ++p)
    if (!isdigit((unsigned char)*p))
      return false;
  return true;
}

bool coopvecNVPTXChipForDevice(int smVersion, char *chip, size_t size) {
  int best = -1;
  for (const char *const *name = coopvecNVPTX_cpus; *name; ++name) {
    int version = coopvecNVPTXChipVersion(*name);
    if (isPlainChip(*name) && version <= smVersion && version > best)
      best = version;
  }
  if (best < 0)
    return false;
  snprintf(chip, size, "sm_%d", best);
  return true;
}

bool coopvecNVPTXCheckFeatures(const char *features, CoopvecBuffer *error) {
  for (const char *p = features; *p;) {
    size_t length = strcspn(p, ",");
    if (length < 2 || (p[0] != '+' && p[0] != '-') ||
        !listContains(coopvecNVPTX_features, p + 1, length - 1)) {
      coopvecBufferAppendf(error,
                           "unknown NVPTX feature '%.*s' in '%s' (expected "
                           "a comma list of +name / -name from `llc "
                           "-mtriple=nvptx64-nvidia-cuda -mattr=help`, e.g. "
                           "+ptx80)",
                           (int)length, p, features);
      return false;
    }
    p += length + (p[length] == ',');
  }
  return true;
}

/// The oldest PTX version (78 for 7.8) LLVM accepts for the processor
/// `name`, or 0 if LLVM knows no such processor.
static int minPTXVersion(const char *name, size_t length) {
  for (size_t i = 0; coopvecNVPTX_cpus[i]; ++i)
    if (strlen(coopvecNVPTX_cpus[i]) == length &&
        strncmp(coopvecNVPTX_cpus[i], name, length) == 0)
      return coopvecNVPTX_cpu_min_ptx[i];
  return 0;
}

enum { MAX_PTX_FEATURE = 1000, MAX_PROCESSOR_FEATURES = 256 };

bool coopvecNVPTXCheckPTXVersion(const char *chip, const char *features,
                                 CoopvecBuffer *error) {
  // LLVM takes the PTX version and the processor from the features that
  // end up enabled (in order: "+ptx40,-ptx40" enables none), the highest of
  // each; an explicit PTX version older than the processor's oldest makes
  // it exit the process. Processor features (+sm_100) raise the minimum.
  bool ptx[MAX_PTX_FEATURE] = {false};
  bool processor[MAX_PROCESSOR_FEATURES] = {false};
  for (const char *p = features; *p;) {
    size_t length = strcspn(p, ",");
    if (length > 1 && (p[0] == '+' || p[0] == '-')) {
      bool on = p[0] == '+';
      const char *name = p + 1;
      size_t nameLength = length - 1;
      if (nameLength > 3 && nameLength <= 6 && strncmp(name, "ptx", 3) == 0 &&
          strspn(name + 3, "0123456789") == nameLength - 3)
        ptx[atoi(name + 3)] = on;
      for (size_t i = 0; i < MAX_PROCESSOR_FEATURES && coopvecNVPTX_cpus[i];
           ++i)
        if (strlen(coopvecNVPTX_cpus[i]) == nameLength &&
            strncmp(coopvecNVPTX_cpus[i], name, nameLength) == 0)
          processor[i] = on;
    }
    p += length + (p[length] == ',');
  }
  int requested = 0;
  for (int v = 0; v < MAX_PTX_FEATURE; ++v)
    if (ptx[v])
      requested = v;
  if (!requested)
    return true; // LLVM picks the processor's own version
  int required = minPTXVersion(chip, strlen(chip));
  const char *requiredBy = chip;
  for (size_t i = 0; i < MAX_PROCESSOR_FEATURES && coopvecNVPTX_cpus[i]; ++i)
    if (processor[i] && coopvecNVPTX_cpu_min_ptx[i] > required) {
      required = coopvecNVPTX_cpu_min_ptx[i];
      requiredBy = coopvecNVPTX_cpus[i];
    }
  if (requested >= required)
    return true;
  coopvecBufferAppendf(error,
                       "features '%s' ask for PTX %d.%d, but %s needs PTX "
                       "%d.%d or newer (leave the +ptx feature out for the "
                       "default, or raise it)",
                       features, requested / 10, requested % 10, requiredBy,
                       required / 10, required % 10);
  return false;
}

bool coopvecNVPTXCheckTarget(const char *chip, const char *features,
                             CoopvecBuffer *error) {
  // An unknown chip or feature only makes LLVM warn (and generate code for
  // another one); an old PTX version makes it exit the process.
  if (!coopvecNVPTXChipIsKnown(chip)) {
    coopvecBufferAppendf(error,
                         "targets chip '%s', which LLVM's NVPTX "
                         "backend does not know (see `llc "
                         "-mtriple=nvptx64-nvidia-cuda -mcpu=help`)",
                         chip);
    return false;
  }
  return coopvecNVPTXCheckFeatures(features, error) &&
         coopvecNVPTXCheckPTXVersion(chip, features, error);
}

bool coopvecNVPTXCheckNVVMTarget(const CoopvecNVVMTarget *target,
                                 CoopvecBuffer *error) {
  if (target->tooLong) {
    coopvecBufferAppendf(error,
                         "has a chip or features longer than %d characters, "
                         "which coopvec cannot check",
                         COOPVEC_NVVM_NAME_MAX - 1);
    return false;
  }
  return coopvecNVPTXCheckTarget(target->chip, target->features, error);
}

/// Copies the quoted value after `key = "` in `text` to `out`; leaves `out`
/// alone when the key is absent. False if the value does not fit (then
/// `out` holds its start).
static bool readQuoted(const char *text, const char *key, char *out,
                       size_t size) {
  const char *start = strstr(text, key);
  if (!start)
    return true;
  start += strlen(key);
  size_t length = strcspn(start, "\"");
  bool fits = length < size;
  if (!fits)
    length = size - 1;
  memcpy(out, start, length);
  out[length] = '\0';
  return fits;
}

bool coopvecReadNVVMTarget(MlirAttribute target, CoopvecNVVMTarget *out) {
  // The C API has no accessors for #nvvm.target: read its printed form.
  CoopvecBuffer text = {0};
  mlirAttributePrint(target, coopvecBufferCallback, &text);
  const char *printed = coopvecBufferStr(&text);
  bool isNVVM = strncmp(printed, "#nvvm.target", 12) == 0;
  if (isNVVM) {
    strcpy(out->chip, "sm_50");
    out->features[0] = '\0';
    bool chipFits =
        readQuoted(printed, "chip = \"", out->chip, sizeof(out->chip));
    bool featuresFit = readQuoted(printed, "features = \"", out->features,
                                  sizeof(out->features));
    out->tooLong = !chipFits || !featuresFit;
  }
  coopvecBufferFree(&text);
  return isNVVM;
}
