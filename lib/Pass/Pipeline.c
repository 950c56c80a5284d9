//===- Pipeline.c - Textual pass pipelines mixing coopvec and upstream ----===//
//
// MLIR 22 has no C API to register an external pass under a name, so
// mlirParsePassPipeline cannot see coopvec passes. This parser walks the
// pipeline grammar itself:
//
//   pipeline := element (',' element)*
//   element  := name ('{' options '}')? ('(' pipeline? ')')?
//
// An element with parentheses nests a pass manager on that op name; a
// coopvec pass name becomes our external pass; anything else is handed, one
// element at a time, to mlirOpPassManagerAddPipeline so upstream passes and
// registered upstream pipelines keep their own option parsing.
//
//===----------------------------------------------------------------------===//

#include "coopvec-c/Passes.h"

#include "Pass/PassDef.h"
#include "Target/NVPTXTarget.h"
#include "coopvec-c/Support.h"

#include <ctype.h>
#include <string.h>

typedef struct PipelineParser {
  const char *text;
  size_t length;
  size_t pos;
  bool verifyEach;
  MlirStringCallback errorCallback;
  void *userData;
  bool failed;
  int depth; // of `anchor(...)` nesting, bounded: the parser recurses
  /// The op name the current pass manager runs on ("" for any op).
  MlirStringRef anchor;
} PipelineParser;

/// Real pipelines nest a few levels (module, gpu.module, func); the bound
/// keeps hostile input from exhausting the stack, here and in MLIR.
enum { MAX_PIPELINE_NESTING = 32 };

/// Reports `message` at column `column` (0-based) with a caret line.
static void reportAt(PipelineParser *parser, size_t column,
                     const char *message) {
  if (parser->failed)
    return; // report the first error only
  parser->failed = true;
  if (!parser->errorCallback)
    return;
  CoopvecBuffer text = {0};
  coopvecBufferAppendf(&text, "pass pipeline:1:%zu: error: %s\n  %.*s\n  ",
                       column + 1, message, (int)parser->length, parser->text);
  for (size_t i = 0; i < column; ++i)
    coopvecBufferAppendStr(&text, " ");
  coopvecBufferAppendStr(&text, "^\n");
  parser->errorCallback(mlirStringRefCreate(text.data, text.size),
                        parser->userData);
  coopvecBufferFree(&text);
}

static void skipSpace(PipelineParser *parser) {
  while (parser->pos < parser->length &&
         isspace((unsigned char)parser->text[parser->pos]))
    ++parser->pos;
}

static bool atChar(PipelineParser *parser, char c) {
  skipSpace(parser);
  return parser->pos < parser->length && parser->text[parser->pos] == c;
}

static bool isNameChar(char c) {
  return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

/// Reads the text between balanced braces; `pos` is at '{'.
static bool readOptions(PipelineParser *parser, MlirStringRef *options) {
  size_t open = parser->pos++;
  int depth = 1;
  size_t start = parser->pos;
  while (parser->pos < parser->length && depth > 0) {
    char c = parser->text[parser->pos++];
    depth += c == '{' ? 1 : c == '}' ? -1 : 0;
  }
  if (depth != 0) {
    reportAt(parser, open, "unbalanced '{' in pass options");
    return false;
  }
  *options = mlirStringRefCreate(parser->text + start, parser->pos - 1 - start);
  return true;
}

/// Upstream option errors span several lines; ours is one line followed by
/// the caret, so line breaks become "; ".
static void joinLines(CoopvecBuffer *message) {
  CoopvecBuffer joined = {0};
  const char *text = coopvecBufferStr(message);
  for (size_t i = 0; i < message->size; ++i) {
    if (text[i] != '\n') {
      coopvecBufferAppend(&joined, &text[i], 1);
      continue;
    }
    while (i + 1 < message->size && text[i + 1] == '\n')
      ++i;
    if (i + 1 < message->size)
      coopvecBufferAppendStr(&joined, "; ");
  }
  coopvecBufferFree(message);
  *message = joined;
}

/// The value the last `key=value` of `options` (the text of `pass{...}` in
/// MLIR's syntax: words `key=value`, a value quoted with ' or " or in
/// braces, which MLIR strips) gives `key`; false if none does.
static bool lastOptionValue(MlirStringRef options, const char *key,
                            MlirStringRef *value) {
  const char *s = options.data;
  size_t n = options.length, pos = 0, keyLength = strlen(key);
  bool found = false;
  while (pos < n) {
    while (pos < n && isspace((unsigned char)s[pos]))
      ++pos;
    size_t keyStart = pos;
    while (pos < n && s[pos] != '=' && !isspace((unsigned char)s[pos]))
      ++pos;
    if (pos == n || s[pos] != '=')
      continue; // a flag without a value
    bool isKey = pos - keyStart == keyLength &&
                 strncmp(s + keyStart, key, keyLength) == 0;
    size_t start = ++pos, end;
    if (pos < n && (s[pos] == '"' || s[pos] == '\'')) {
      const char *close = memchr(s + pos + 1, s[pos], n - pos - 1);
      start = pos + 1;
      end = close ? (size_t)(close - s) : n;
      pos = close ? end + 1 : n;
    } else if (pos < n && s[pos] == '{') {
      int depth = 1;
      start = ++pos;
      while (pos < n && depth > 0) {
        depth += s[pos] == '{' ? 1 : s[pos] == '}' ? -1 : 0;
        ++pos;
      }
      end = depth ? n : pos - 1;
    } else {
      while (pos < n && !isspace((unsigned char)s[pos]))
        ++pos;
      end = pos;
    }
    if (isKey) {
      *value = mlirStringRefCreate(s + start, end - start);
      found = true;
    }
  }
  return found;
}

/// Upstream elements that attach an #nvvm.target built from their options
/// without verifying it, with those options' names and defaults.
typedef struct NVVMTargetOptions {
  const char *element, *chipKey, *featuresKey, *defaultChip, *defaultFeatures;
} NVVMTargetOptions;

static const NVVMTargetOptions nvvmTargetOptions[] = {
    {"nvvm-attach-target", "chip", "features", "sm_50", ""},
    {"gpu-lower-to-nvvm-pipeline", "cubin-chip", "cubin-features", "sm_50",
     "+ptx60"},
};

static const NVVMTargetOptions *lookupNVVMTargetOptions(MlirStringRef name) {
  for (size_t i = 0;
       i < sizeof(nvvmTargetOptions) / sizeof(nvvmTargetOptions[0]); ++i)
    if (mlirStringRefEqual(
            name, mlirStringRefCreateFromCString(nvvmTargetOptions[i].element)))
      return &nvvmTargetOptions[i];
  return NULL;
}

/// Copies `value` into `text`; false if it holds a NUL byte, which would
/// cut it short as a C string.
static bool copyOptionValue(MlirStringRef value, CoopvecBuffer *text) {
  coopvecBufferAppend(text, value.data, value.length);
  return memchr(value.data, '\0', value.length) == NULL;
}

/// Options that upstream passes accept but that take the process down
/// later (upstream mlir-opt fails the same way):
///   - an empty chip makes the gpu.module verifier read before the string
///     (NVVMTargetAttr::verifyTarget, MLIR 22, SIGSEGV; found by the
///     pipeline fuzzer);
///   - a PTX version older than the chip needs makes LLVM's NVPTX backend
///     exit the process in gpu-module-to-binary. coopvec-check-nvvm-target
///     would catch it there (not inside gpu-lower-to-nvvm-pipeline); here
///     the error points into the pipeline text.
/// Appends the problem to `problem` and returns false.
static bool checkUpstreamOptions(MlirStringRef name, MlirStringRef options,
                                 CoopvecBuffer *problem) {
  const NVVMTargetOptions *def = lookupNVVMTargetOptions(name);
  if (!def)
    return true;
  MlirStringRef chip = mlirStringRefCreateFromCString(def->defaultChip);
  MlirStringRef features = mlirStringRefCreateFromCString(def->defaultFeatures);
  lastOptionValue(options, def->chipKey, &chip);
  lastOptionValue(options, def->featuresKey, &features);
  if (chip.length == 0) {
    coopvecBufferAppendStr(problem, "the target chip cannot be empty");
    return false;
  }
  CoopvecBuffer chipText = {0}, featureText = {0};
  // A NUL byte is left to coopvec-check-nvvm-target, which reads the
  // attribute's printed form (where it is escaped).
  bool ok = !copyOptionValue(chip, &chipText) ||
            !copyOptionValue(features, &featureText) ||
            coopvecNVPTXCheckTarget(coopvecBufferStr(&chipText),
                                    coopvecBufferStr(&featureText), problem);
  coopvecBufferFree(&chipText);
  coopvecBufferFree(&featureText);
  return ok;
}

/// gpu-module-to-binary hands every #nvvm.target to LLVM's NVPTX backend,
/// which exits the process on a PTX version older than the chip needs:
/// coopvec-check-nvvm-target checks the targets right before it, whatever
/// put them there (the IR itself, nvvm-attach-target, our pipelines).
/// gpu-lower-to-nvvm-pipeline ends in gpu-module-to-binary: the check runs
/// before it for the targets the IR has (its own come from its options).
static void addBinaryCheck(MlirOpPassManager pm, MlirStringRef name) {
  if (!mlirStringRefEqual(
          name, mlirStringRefCreateFromCString("gpu-module-to-binary")) &&
      !mlirStringRefEqual(
          name, mlirStringRefCreateFromCString("gpu-lower-to-nvvm-pipeline")))
    return;
  MlirPass check = coopvecCreatePass(
      mlirStringRefCreateFromCString("coopvec-check-nvvm-target"),
      mlirStringRefCreate("", 0), NULL, NULL);
  if (check.ptr)
    mlirOpPassManagerAddOwnedPass(pm, check);
}

static void addVerifier(PipelineParser *parser, MlirOpPassManager pm) {
  if (parser->verifyEach)
    mlirOpPassManagerAddOwnedPass(pm, coopvecCreateVerifyPass());
}

/// A pass or pipeline that runs on `anchor` ("": any op) must be added to
/// a pass manager on that op, or on any op (MLIR checks that one when it
/// runs): MLIR aborts the process otherwise.
static bool checkAnchor(PipelineParser *parser, size_t nameStart,
                        MlirStringRef name, const char *kind,
                        const char *anchor) {
  if (!*anchor ||
      mlirStringRefEqual(parser->anchor,
                         mlirStringRefCreateFromCString("any")) ||
      mlirStringRefEqual(parser->anchor,
                         mlirStringRefCreateFromCString(anchor)))
    return true;
  CoopvecBuffer message = {0};
  coopvecBufferAppendf(&message,
                       "%s '%.*s' runs on '%s' and cannot be nested in a "
                       "pass manager on '%.*s'",
                       kind, (int)name.length, name.data, anchor,
                       (int)parser->anchor.length, parser->anchor.data);
  reportAt(parser, nameStart, coopvecBufferStr(&message));
  coopvecBufferFree(&message);
  return false;
}

/// Upstream pass pipelines (MLIR 22) whose builders add passes restricted
/// to builtin.module with OpPassManager::addPass, which calls
/// report_fatal_error in a pass manager on another op (a single upstream
/// pass nested so gets a parse error instead). Found by the pipeline
/// fuzzer: `buildule(gpu-lower-to-nvvm-pipeline)`, SIGABRT.
static const char *const moduleUpstreamPipelines[] = {
    "gpu-lower-to-nvvm-pipeline", "gpu-lower-to-xevm-pipeline", "sparsifier",
    "tosa-to-linalg-pipeline"};

static const char *upstreamAnchor(MlirStringRef name) {
  for (size_t i = 0;
       i < sizeof(moduleUpstreamPipelines) / sizeof(moduleUpstreamPipelines[0]);
       ++i)
    if (mlirStringRefEqual(
            name, mlirStringRefCreateFromCString(moduleUpstreamPipelines[i])))
      return "builtin.module";
  return "";
}

/// Adds one pass element (no parentheses) to `pm`.
static void addPass(PipelineParser *parser, MlirOpPassManager pm,
                    size_t nameStart, MlirStringRef name, MlirStringRef options,
                    bool hasOptions) {
  CoopvecBuffer error = {0};
  if (coopvecIsPassName(name)) {
    if (!checkAnchor(parser, nameStart, name, "pass",
                     coopvecLookupPassDef(name)->anchor))
      return;
    MlirPass pass =
        coopvecCreatePass(name, options, coopvecBufferCallback, &error);
    if (!pass.ptr) {
      reportAt(parser, nameStart, coopvecBufferStr(&error));
    } else {
      mlirOpPassManagerAddOwnedPass(pm, pass);
      if (strncmp(name.data, "coopvec-verify", name.length) != 0)
        addVerifier(parser, pm);
    }
    coopvecBufferFree(&error);
    return;
  }
  // Upstream: hand over the element exactly as written.
  if (!checkAnchor(parser, nameStart, name, "pipeline", upstreamAnchor(name)))
    return;
  size_t end = hasOptions
                   ? (size_t)(options.data + options.length + 1 - parser->text)
                   : nameStart + name.length;
  MlirStringRef element =
      mlirStringRefCreate(parser->text + nameStart, end - nameStart);
  CoopvecBuffer problem = {0};
  addBinaryCheck(pm, name);
  if (mlirLogicalResultIsFailure(mlirOpPassManagerAddPipeline(
          pm, element, coopvecBufferCallback, &error))) {
    CoopvecBuffer message = {0};
    if (!error.size || strstr(coopvecBufferStr(&error), "does not refer to"))
      coopvecBufferAppendf(&message,
                           "'%.*s' is neither a coopvec pass nor a "
                           "registered MLIR pass or pipeline",
                           (int)name.length, name.data);
    else
      coopvecBufferAppendf(&message, "invalid pass element '%.*s': %s",
                           (int)(end - nameStart), parser->text + nameStart,
                           coopvecBufferStr(&error));
    joinLines(&message);
    reportAt(parser, nameStart, coopvecBufferStr(&message));
    coopvecBufferFree(&message);
  } else if (!checkUpstreamOptions(name, options, &problem)) {
    CoopvecBuffer message = {0};
    coopvecBufferAppendf(&message, "invalid pass element '%.*s': %s",
                         (int)(end - nameStart), parser->text + nameStart,
                         coopvecBufferStr(&problem));
    reportAt(parser, nameStart, coopvecBufferStr(&message));
    coopvecBufferFree(&message);
  } else {
    addVerifier(parser, pm);
  }
  coopvecBufferFree(&problem);
  coopvecBufferFree(&error);
}

static void parsePipeline(PipelineParser *parser, MlirOpPassManager pm,
                          char terminator);

/// Expands a registered pipeline (CoopvecPipelineDef) and parses the
/// expansion into `pm`; an error in it is reported at the pipeline's name.
static void addRegisteredPipeline(PipelineParser *parser, MlirOpPassManager pm,
                                  size_t nameStart,
                                  const CoopvecPipelineDef *def,
                                  MlirStringRef options) {
  CoopvecBuffer text = {0}, error = {0};
  if (def->check) {
    def->check(options, coopvecBufferCallback, &error);
    if (error.size) {
      CoopvecBuffer report = {0};
      coopvecBufferAppendf(&report, "in pipeline '%s': %s", def->argument,
                           coopvecBufferStr(&error));
      reportAt(parser, nameStart, coopvecBufferStr(&report));
      coopvecBufferFree(&report);
      coopvecBufferFree(&error);
      return;
    }
  }
  def->expand(options, coopvecBufferCallback, &text);
  PipelineParser expanded = *parser;
  expanded.text = coopvecBufferStr(&text);
  expanded.length = text.size;
  expanded.pos = 0;
  expanded.errorCallback = coopvecBufferCallback;
  expanded.userData = &error;
  expanded.failed = false;
  parsePipeline(&expanded, pm, '\0');
  if (expanded.failed) {
    // Keep the message of "pass pipeline:1:N: error: <message>\n...".
    const char *message = strstr(coopvecBufferStr(&error), "error: ");
    message = message ? message + strlen("error: ") : "invalid pipeline";
    CoopvecBuffer report = {0};
    coopvecBufferAppendf(&report, "in pipeline '%s': %.*s", def->argument,
                         (int)strcspn(message, "\n"), message);
    reportAt(parser, nameStart, coopvecBufferStr(&report));
    coopvecBufferFree(&report);
  }
  coopvecBufferFree(&text);
  coopvecBufferFree(&error);
}

static void parseElement(PipelineParser *parser, MlirOpPassManager pm) {
  skipSpace(parser);
  size_t nameStart = parser->pos;
  while (parser->pos < parser->length && isNameChar(parser->text[parser->pos]))
    ++parser->pos;
  if (parser->pos == nameStart) {
    reportAt(parser, nameStart, "expected a pass or operation name");
    return;
  }
  MlirStringRef name =
      mlirStringRefCreate(parser->text + nameStart, parser->pos - nameStart);
  MlirStringRef options = mlirStringRefCreate("", 0);
  bool hasOptions = atChar(parser, '{');
  if (hasOptions && !readOptions(parser, &options))
    return;
  if (!atChar(parser, '(')) {
    const CoopvecPipelineDef *registered = coopvecLookupPipelineDef(name);
    if (registered)
      addRegisteredPipeline(parser, pm, nameStart, registered, options);
    else
      addPass(parser, pm, nameStart, name, options, hasOptions);
    return;
  }
  if (hasOptions) {
    reportAt(parser, nameStart, "an operation anchor takes no options");
    return;
  }
  if (parser->depth == MAX_PIPELINE_NESTING) {
    reportAt(parser, nameStart, "pass pipeline nested too deeply");
    return;
  }
  ++parser->pos; // '('
  MlirOpPassManager nested = mlirOpPassManagerGetNestedUnder(pm, name);
  MlirStringRef outer = parser->anchor;
  parser->anchor = name;
  ++parser->depth;
  parsePipeline(parser, nested, ')');
  --parser->depth;
  parser->anchor = outer;
  if (parser->failed)
    return;
  if (!atChar(parser, ')')) {
    reportAt(parser, parser->pos, "expected ')'");
    return;
  }
  ++parser->pos;
}

/// Parses `element (',' element)*` up to `terminator` ('\0' for the end).
static void parsePipeline(PipelineParser *parser, MlirOpPassManager pm,
                          char terminator) {
  if (terminator && atChar(parser, terminator))
    return; // empty nested pipeline, e.g. func.func()
  while (!parser->failed) {
    parseElement(parser, pm);
    if (parser->failed)
      return;
    if (!atChar(parser, ','))
      break;
    ++parser->pos;
  }
  if (parser->failed)
    return;
  skipSpace(parser);
  bool atEnd = parser->pos == parser->length;
  if (!terminator && !atEnd)
    reportAt(parser, parser->pos, "expected ',' or the end of the pipeline");
  else if (terminator && atEnd)
    reportAt(parser, parser->pos, "expected ',' or ')'");
}

/// The op name the pass manager is anchored on, from its printed form
/// `anchor(passes...)`.
static void getAnchor(MlirOpPassManager pm, CoopvecBuffer *anchor) {
  CoopvecBuffer printed = {0};
  mlirPrintPassPipeline(pm, coopvecBufferCallback, &printed);
  const char *text = coopvecBufferStr(&printed);
  const char *paren = strchr(text, '(');
  coopvecBufferAppend(anchor, text,
                      paren ? (size_t)(paren - text) : strlen(text));
  coopvecBufferFree(&printed);
}

/// If the whole pipeline is `anchor(...)` for the pass manager's own anchor,
/// returns the position just after its '(' (and sets `innerEnd` to the
/// closing parenthesis); otherwise returns 0.
static size_t anchoredBody(PipelineParser *parser, MlirOpPassManager pm,
                           size_t *innerEnd) {
  CoopvecBuffer anchor = {0};
  getAnchor(pm, &anchor);
  size_t start = 0;
  while (start < parser->length && isspace((unsigned char)parser->text[start]))
    ++start;
  size_t body = 0;
  size_t anchorLength = anchor.size;
  if (anchorLength && parser->length > start + anchorLength &&
      strncmp(parser->text + start, coopvecBufferStr(&anchor), anchorLength) ==
          0 &&
      parser->text[start + anchorLength] == '(') {
    size_t end = parser->length;
    while (end > 0 && isspace((unsigned char)parser->text[end - 1]))
      --end;
    if (end > 0 && parser->text[end - 1] == ')') {
      // Only if that ')' closes the anchor's '(' (not `a(b),c(d)`).
      int depth = 0;
      size_t close = start + anchorLength;
      for (; close < end; ++close) {
        depth += parser->text[close] == '(' ? 1 : 0;
        depth -= parser->text[close] == ')' ? 1 : 0;
        if (depth == 0)
          break;
      }
      if (close == end - 1) {
        body = start + anchorLength + 1;
        *innerEnd = end - 1;
      }
    }
  }
  coopvecBufferFree(&anchor);
  return body;
}

MlirLogicalResult coopvecParsePassPipeline(MlirOpPassManager passManager,
                                           MlirStringRef pipeline,
                                           bool verifyEach,
                                           MlirStringCallback errorCallback,
                                           void *userData) {
  PipelineParser parser = {pipeline.data, pipeline.length, 0,     verifyEach,
                           errorCallback, userData,        false, 0,
                           {NULL, 0}};
  CoopvecBuffer anchor = {0};
  getAnchor(passManager, &anchor);
  parser.anchor = mlirStringRefCreate(coopvecBufferStr(&anchor), anchor.size);
  size_t innerEnd = 0;
  size_t body = anchoredBody(&parser, passManager, &innerEnd);
  if (body) {
    parser.pos = body;
    parsePipeline(&parser, passManager, ')');
    if (!parser.failed && (!atChar(&parser, ')') || parser.pos != innerEnd))
      reportAt(&parser, parser.pos, "expected ',' or ')'");
  } else {
    skipSpace(&parser);
    if (parser.pos < parser.length)
      parsePipeline(&parser, passManager, '\0');
  }
  coopvecBufferFree(&anchor);
  return parser.failed ? mlirLogicalResultFailure()
                       : mlirLogicalResultSuccess();
}
