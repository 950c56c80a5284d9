//===- PipelineOptions.c - Reading a pipeline's option text ---------------===//

#include "Pipelines/PipelineOptions.h"

#include <ctype.h>
#include <string.h>

bool coopvecNextOptionWord(MlirStringRef text, size_t *pos,
                           CoopvecOptionWord *out) {
  size_t at = *pos;
  while (at < text.length && isspace((unsigned char)text.data[at]))
    ++at;
  size_t start = at;
  while (at < text.length && !isspace((unsigned char)text.data[at]))
    ++at;
  *pos = at;
  if (at == start)
    return false;
  MlirStringRef word = mlirStringRefCreate(text.data + start, at - start);
  const char *equals = memchr(word.data, '=', word.length);
  size_t keyLength = equals ? (size_t)(equals - word.data) : word.length;
  out->word = word;
  out->key = mlirStringRefCreate(word.data, keyLength);
  out->value = keyLength < word.length
                   ? mlirStringRefCreate(word.data + keyLength + 1,
                                         word.length - keyLength - 1)
                   : mlirStringRefCreate("", 0);
  return true;
}

bool coopvecStringRefIs(MlirStringRef text, const char *name) {
  return text.length == strlen(name) &&
         strncmp(text.data, name, text.length) == 0;
}
