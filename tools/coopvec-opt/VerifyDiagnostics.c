//===- VerifyDiagnostics.c - --verify-diagnostics -------------------------===//
//
// Follows MLIR's SourceMgrDiagnosticVerifierHandler. A comment
//
//   // expected-<error|warning|remark|note>[-re][@<where>] {{message}}
//
// expects a diagnostic of that severity on a line: the comment's own line
// when `@<where>` is absent, `@+N` / `@-N` lines below / above it, `@above`
// the closest preceding line without a directive, `@below` the next such
// line, and `@unknown` a diagnostic without a file location. The message
// must occur in the diagnostic's text; with `-re` the `{{...}}` parts inside
// it are POSIX extended regular expressions. Each diagnostic (and each note
// attached to one) must match an expectation, and each expectation must be
// matched.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "Driver.h"

#include <ctype.h>
#include <limits.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

typedef struct Expectation {
  MlirDiagnosticSeverity severity;
  unsigned line; // 0: a diagnostic without a file location (@unknown)
  unsigned directiveLine, messageColumn;
  char *message;
  size_t messageLength;
  bool isRegex;
  regex_t regex;
  bool matched;
} Expectation;

struct ExpectationList {
  Expectation *items;
  size_t size, capacity;
};

/// Where a directive is while the chunk is being scanned.
typedef struct DirectiveScanner {
  const SourceFile *source;
  ExpectationList *list;
  unsigned lineCount;
  unsigned lastPlainLine;   // the last line without a directive (0: none)
  size_t firstPendingBelow; // items from here on wait for `@below`
  bool failed;
} DirectiveScanner;

static const unsigned pendingBelow = UINT_MAX;

static void reportAtLine(DirectiveScanner *scanner, unsigned line,
                         unsigned column, size_t length, const char *message) {
  printSourceMessage(stderr, scanner->source, scanner->source->name, line,
                     column, length, "error", message);
  scanner->failed = true;
}

static bool consume(const char **cursor, const char *end, const char *word) {
  size_t length = strlen(word);
  if ((size_t)(end - *cursor) < length || strncmp(*cursor, word, length) != 0)
    return false;
  *cursor += length;
  return true;
}

static void skipBlanks(const char **cursor, const char *end) {
  while (*cursor < end && (**cursor == ' ' || **cursor == '\t'))
    ++*cursor;
}

/// Reads `expected-<kind>`; returns false if `cursor` is not at one.
static bool parseKind(const char **cursor, const char *end,
                      MlirDiagnosticSeverity *severity) {
  static const struct {
    const char *word;
    MlirDiagnosticSeverity severity;
  } kinds[] = {{"expected-error", MlirDiagnosticError},
               {"expected-warning", MlirDiagnosticWarning},
               {"expected-remark", MlirDiagnosticRemark},
               {"expected-note", MlirDiagnosticNote}};
  for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); ++i) {
    if (consume(cursor, end, kinds[i].word)) {
      *severity = kinds[i].severity;
      return true;
    }
  }
  return false;
}

/// Reads the part after '@'. Sets `*line` to the expected line, or to
/// `pendingBelow`; returns an error message or NULL.
static const char *parseDesignator(DirectiveScanner *scanner,
                                   const char **cursor, const char *end,
                                   unsigned directiveLine, unsigned *line) {
  if (consume(cursor, end, "above")) {
    *line = scanner->lastPlainLine;
    return *line ? NULL : "'@above' has no line above it";
  }
  if (consume(cursor, end, "below")) {
    *line = pendingBelow;
    return NULL;
  }
  if (consume(cursor, end, "unknown")) {
    *line = 0;
    return NULL;
  }
  if (*cursor == end || (**cursor != '+' && **cursor != '-'))
    return "expected '+N', '-N', 'above', 'below' or 'unknown' after '@'";
  bool down = **cursor == '+';
  ++*cursor;
  if (*cursor == end || !isdigit((unsigned char)**cursor))
    return "expected a line offset after '@+' / '@-'";
  long offset = 0;
  while (*cursor < end && isdigit((unsigned char)**cursor) && offset < 1000000)
    offset = offset * 10 + (**cursor - '0'), ++*cursor;
  long target =
      down ? (long)directiveLine + offset : (long)directiveLine - offset;
  if (target < 1 || target > (long)scanner->lineCount)
    return "the expected diagnostic's line is outside the input";
  *line = (unsigned)target;
  return NULL;
}

/// Turns a `-re` message into an extended regex: text outside `{{...}}` is
/// literal.
static bool buildRegex(const char *message, size_t length,
                       CoopvecBuffer *regex) {
  const char *cursor = message, *end = message + length;
  while (cursor < end) {
    if (consume(&cursor, end, "{{")) {
      const char *close = strstr(cursor, "}}");
      if (!close || close > end)
        return false;
      coopvecBufferAppend(regex, cursor, (size_t)(close - cursor));
      cursor = close + 2;
      continue;
    }
    if (strchr(".[]{}()\\*+?^$|", *cursor))
      coopvecBufferAppend(regex, "\\", 1);
    coopvecBufferAppend(regex, cursor++, 1);
  }
  return true;
}

static const char *compileRegex(Expectation *expectation) {
  CoopvecBuffer pattern = {0};
  const char *error = NULL;
  if (!buildRegex(expectation->message, expectation->messageLength, &pattern))
    error = "unterminated '{{' in an expected-*-re message";
  else if (regcomp(&expectation->regex, coopvecBufferStr(&pattern),
                   REG_EXTENDED | REG_NOSUB) != 0)
    error = "invalid regular expression in an expected-*-re message";
  coopvecBufferFree(&pattern);
  expectation->isRegex = error == NULL;
  return error;
}

static void appendExpectation(ExpectationList *list,
                              const Expectation *expectation) {
  if (list->size == list->capacity) {
    size_t capacity = list->capacity ? 2 * list->capacity : 8;
    Expectation *items = realloc(list->items, capacity * sizeof(Expectation));
    if (!items) {
      fprintf(stderr, "coopvec-opt: out of memory\n");
      abort();
    }
    list->items = items;
    list->capacity = capacity;
  }
  list->items[list->size++] = *expectation;
}

/// Parses the directive that starts at `cursor` (just after `expected-`'s
/// kind was recognized by the caller at `start`). Returns false if the text
/// is prose rather than a directive.
static bool parseDirective(DirectiveScanner *scanner, const char *lineBegin,
                           const char *lineEnd, const char *cursor,
                           MlirDiagnosticSeverity severity, unsigned lineNo) {
  Expectation expectation = {
      .severity = severity, .line = lineNo, .directiveLine = lineNo};
  bool isRegex = consume(&cursor, lineEnd, "-re");
  skipBlanks(&cursor, lineEnd);
  if (cursor == lineEnd || (*cursor != '@' && *cursor != '{'))
    return false; // e.g. a comment that mentions expected-error
  unsigned column = (unsigned)(cursor - lineBegin) + 1;
  const char *error = NULL;
  if (*cursor == '@') {
    ++cursor;
    error =
        parseDesignator(scanner, &cursor, lineEnd, lineNo, &expectation.line);
    skipBlanks(&cursor, lineEnd);
  }
  const char *close = NULL;
  for (const char *c = lineEnd - 1; c > cursor && !close; --c)
    if (c[0] == '}' && c[-1] == '}')
      close = c - 1;
  if (!error && (!consume(&cursor, lineEnd, "{{") || !close || close < cursor))
    error = "expected '{{message}}' in an expected-* directive";
  if (error) {
    reportAtLine(scanner, lineNo, column, 1, error);
    return true;
  }
  expectation.messageColumn = (unsigned)(cursor - lineBegin) + 1;
  expectation.messageLength = (size_t)(close - cursor);
  expectation.message = strndup(cursor, expectation.messageLength);
  if (isRegex && (error = compileRegex(&expectation))) {
    reportAtLine(scanner, lineNo, expectation.messageColumn,
                 expectation.messageLength, error);
    free(expectation.message);
    return true;
  }
  appendExpectation(scanner->list, &expectation);
  return true;
}

/// Looks for a directive on one line; returns whether there was one.
static bool scanLine(DirectiveScanner *scanner, const char *lineBegin,
                     const char *lineEnd, unsigned lineNo) {
  for (const char *cursor = lineBegin; cursor < lineEnd; ++cursor) {
    const char *at = cursor;
    MlirDiagnosticSeverity severity;
    if (*at == 'e' && parseKind(&at, lineEnd, &severity) &&
        parseDirective(scanner, lineBegin, lineEnd, at, severity, lineNo))
      return true;
  }
  return false;
}

/// A line without a directive is where pending `@below`s land.
static void notePlainLine(DirectiveScanner *scanner, unsigned lineNo) {
  scanner->lastPlainLine = lineNo;
  ExpectationList *list = scanner->list;
  for (size_t i = scanner->firstPendingBelow; i < list->size; ++i)
    if (list->items[i].line == pendingBelow)
      list->items[i].line = lineNo;
  scanner->firstPendingBelow = list->size;
}

static unsigned countLines(const char *text, size_t size) {
  unsigned lines = 1;
  for (size_t i = 0; i < size; ++i)
    lines += text[i] == '\n';
  return lines;
}

ExpectationList *collectExpectations(const SourceFile *source, const char *text,
                                     size_t size) {
  ExpectationList *list = calloc(1, sizeof(ExpectationList));
  DirectiveScanner scanner = {source, list, countLines(text, size),
                              0,      0,    false};
  const char *lineBegin = text, *end = text + size;
  // The empty tail after a final newline is not a line.
  for (unsigned lineNo = 1; lineBegin < end; ++lineNo) {
    const char *newline = memchr(lineBegin, '\n', (size_t)(end - lineBegin));
    const char *lineEnd = newline ? newline : end;
    if (!scanLine(&scanner, lineBegin, lineEnd, lineNo))
      notePlainLine(&scanner, lineNo);
    if (!newline)
      break;
    lineBegin = newline + 1;
  }
  for (size_t i = 0; i < list->size; ++i)
    if (list->items[i].line == pendingBelow)
      reportAtLine(&scanner, list->items[i].directiveLine,
                   list->items[i].messageColumn, 1,
                   "'@below' has no line below it");
  if (scanner.failed) {
    freeExpectations(list);
    return NULL;
  }
  return list;
}

void freeExpectations(ExpectationList *expected) {
  if (!expected)
    return;
  for (size_t i = 0; i < expected->size; ++i) {
    if (expected->items[i].isRegex)
      regfree(&expected->items[i].regex);
    free(expected->items[i].message);
  }
  free(expected->items);
  free(expected);
}

//===----------------------------------------------------------------------===//
// Matching
//===----------------------------------------------------------------------===//

static bool matchesMessage(const Expectation *expectation,
                           const char *message) {
  if (expectation->isRegex)
    return regexec(&expectation->regex, message, 0, NULL, 0) == 0;
  return strstr(message, expectation->message) != NULL;
}

static bool matchesRecord(const SourceFile *source,
                          const Expectation *expectation,
                          const DiagRecord *record) {
  if (expectation->severity != record->severity)
    return false;
  bool sameLine = record->file ? strcmp(record->file, source->name) == 0 &&
                                     record->line == expectation->line
                               : expectation->line == 0;
  return sameLine && matchesMessage(expectation, record->message);
}

/// Marks the expectation `record` satisfies. An unmatched one is preferred;
/// like MLIR, a matched one also absorbs a repeated diagnostic.
static bool matchRecord(const SourceFile *source, ExpectationList *expected,
                        const DiagRecord *record) {
  Expectation *fallback = NULL;
  for (size_t i = 0; i < expected->size; ++i) {
    Expectation *expectation = &expected->items[i];
    if (!matchesRecord(source, expectation, record))
      continue;
    if (!expectation->matched) {
      expectation->matched = true;
      return true;
    }
    fallback = expectation;
  }
  return fallback != NULL;
}

static void reportUnexpected(const SourceFile *source,
                             const DiagRecord *record) {
  CoopvecBuffer message = {0};
  coopvecBufferAppendf(&message, "unexpected %s: %s",
                       coopvecSeverityName(record->severity), record->message);
  if (record->file)
    printSourceMessage(stderr, source, record->file, record->line,
                       record->column, 1, "error", coopvecBufferStr(&message));
  else
    fprintf(stderr, "%s: error: %s\n", record->location,
            coopvecBufferStr(&message));
  coopvecBufferFree(&message);
}

/// MLIR attaches the failing operation to verifier errors unless
/// --verify-diagnostics is on; the C API cannot turn that off, so those
/// notes are left out of matching here instead.
static bool isOperationDumpNote(const DiagRecord *note) {
  static const char prefix[] = "see current operation:";
  return strncmp(note->message, prefix, sizeof(prefix) - 1) == 0;
}

static bool checkRecord(const SourceFile *source, ExpectationList *expected,
                        const DiagRecord *record) {
  bool ok = matchRecord(source, expected, record);
  if (!ok)
    reportUnexpected(source, record);
  for (size_t i = 0; i < record->numNotes; ++i)
    if (!isOperationDumpNote(&record->notes[i]))
      ok &= checkRecord(source, expected, &record->notes[i]);
  return ok;
}

bool checkExpectations(const SourceFile *source, ExpectationList *expected,
                       const DiagList *recorded) {
  bool ok = true;
  for (size_t i = 0; i < recorded->size; ++i)
    ok &= checkRecord(source, expected, &recorded->items[i]);
  for (size_t i = 0; i < expected->size; ++i) {
    const Expectation *expectation = &expected->items[i];
    if (expectation->matched)
      continue;
    CoopvecBuffer message = {0};
    coopvecBufferAppendf(&message, "expected %s \"%s\" was not produced",
                         coopvecSeverityName(expectation->severity),
                         expectation->message);
    printSourceMessage(stderr, source, source->name, expectation->directiveLine,
                       expectation->messageColumn,
                       expectation->messageLength ? expectation->messageLength
                                                  : 1,
                       "error", coopvecBufferStr(&message));
    coopvecBufferFree(&message);
    ok = false;
  }
  return ok;
}
