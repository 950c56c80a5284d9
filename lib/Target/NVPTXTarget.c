//===- NVPTXTarget.c - NVPTX chip and feature names -----------------------===//

#include "Target/NVPTXTarget.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char *const coopvecNVPTX_cpus[];
extern const char *const coopvecNVPTX_features[];

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

/// Copies the quoted value after `key = "` in `text` to `out`; leaves `out`
/// alone when the key is absent.
static void readQuoted(const char *text, const char *key, char *out,
                       size_t size) {
  const char *start = strstr(text, key);
  if (!start)
    return;
  start += strlen(key);
  size_t length = strcspn(start, "\"");
  if (length >= size)
    length = size - 1;
  memcpy(out, start, length);
  out[length] = '\0';
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
    readQuoted(printed, "chip = \"", out->chip, sizeof(out->chip));
    readQuoted(printed, "features = \"", out->features, sizeof(out->features));
  }
  coopvecBufferFree(&text);
  return isNVVM;
}
