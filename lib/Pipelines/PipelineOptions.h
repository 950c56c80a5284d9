//===- PipelineOptions.h - Reading a pipeline's option text ------*- C -*-===//
//
// A registered pipeline receives its options as one string of
// space-separated `key=value` words (what stands between the braces of
// `coopvec-lower-to-<target>{...}`). The end-to-end pipelines walk those
// words the same way; this is that walk.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_PIPELINES_PIPELINEOPTIONS_H
#define COOPVEC_LIB_PIPELINES_PIPELINEOPTIONS_H

#include <mlir-c/Support.h>

#include <stdbool.h>
#include <stddef.h>

/// One word of an option text: `key=value`, or `key` alone (then `value`
/// is empty).
typedef struct CoopvecOptionWord {
  MlirStringRef word, key, value;
} CoopvecOptionWord;

/// The next word of `text` from `*pos` on (advancing `*pos`); false when
/// only spaces remain.
bool coopvecNextOptionWord(MlirStringRef text, size_t *pos,
                           CoopvecOptionWord *out);

/// Whether `text` is exactly `name`.
bool coopvecStringRefIs(MlirStringRef text, const char *name);

#endif // COOPVEC_LIB_PIPELINES_PIPELINEOPTIONS_H
