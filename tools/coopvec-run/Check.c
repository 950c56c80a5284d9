//===- Check.c - Compare against the reference interpreter ----------------===//
//
// Tolerances (docs/coopvec-run.md has the rationale): an output element
// passes when |got - ref| <= atol + rtol * |ref|. By default rtol is 1e-4
// for f32 and 1e-2 for f16, and atol = c * sqrt(K) * max(1, max |ref|) with
// c = 1e-5 (f32) or 1e-3 (f16): rounding errors of a K-term sum grow like
// sqrt(K) times the size of its terms, which the largest reference value of
// that output bounds from below. K is the longest matvec dot product for
// results, and the batch size for written memrefs (every thread adds into
// them, and the order of those additions is the lowering's choice).
//
// The reference (double) is rounded to the result's element type first, as
// the compiled code's result is: a value above the type's range is then an
// infinity on both sides, not a false FAIL. NaN matches NaN, an infinity the
// same infinity, and +0 matches -0 (docs/dialect.md, "Special values").
//
//===----------------------------------------------------------------------===//

#include "Runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Tolerance {
  double rtol, atol;
} Tolerance;

typedef struct Comparison {
  double maxAbs, maxRel, maxRef;
  int64_t failures;
  int64_t firstFailure;
} Comparison;

static double elementFloor(CoopvecDType dtype) {
  return dtype == CoopvecDTypeF16 ? 1e-3 : 1e-5;
}

static double defaultRtol(CoopvecDType dtype) {
  return dtype == CoopvecDTypeF16 ? 1e-2 : 1e-4;
}

static double maxAbsolute(const CoopvecArray *array) {
  double result = 0;
  for (int64_t i = 0; i < array->size; ++i) {
    double value = fabs(coopvecArrayGet(array, i));
    if (value > result && !isinf(value))
      result = value;
  }
  return result;
}

static Tolerance toleranceFor(const Options *options, CoopvecDType dtype,
                              double terms, const CoopvecArray *ref) {
  Tolerance tolerance;
  tolerance.rtol = options->hasRtol ? options->rtol : defaultRtol(dtype);
  double scale = fmax(1.0, maxAbsolute(ref));
  tolerance.atol = options->hasAtol ? options->atol
                                    : elementFloor(dtype) * sqrt(terms) * scale;
  return tolerance;
}

/// NaNs match NaNs and infinities match the same infinity.
static bool matches(double got, double ref, Tolerance tolerance) {
  if (isnan(got) || isnan(ref))
    return isnan(got) && isnan(ref);
  if (isinf(got) || isinf(ref))
    return got == ref;
  return fabs(got - ref) <= tolerance.atol + tolerance.rtol * fabs(ref);
}

static Comparison compare(const CoopvecArray *got, const CoopvecArray *ref,
                          Tolerance tolerance) {
  Comparison result = {0, 0, 0, 0, -1};
  for (int64_t i = 0; i < got->size; ++i) {
    double g = coopvecArrayGet(got, i), r = coopvecArrayGet(ref, i);
    if (!matches(g, r, tolerance)) {
      if (result.failures++ == 0)
        result.firstFailure = i;
    }
    double error = fabs(g - r);
    if (isfinite(error)) {
      result.maxAbs = fmax(result.maxAbs, error);
      if (r != 0)
        result.maxRel = fmax(result.maxRel, error / fabs(r));
    }
  }
  return result;
}

/// Prints one verdict line; returns whether the output passed.
static bool report(const char *what, const CoopvecArray *got,
                   const CoopvecArray *ref, Tolerance tolerance) {
  Comparison result = compare(got, ref, tolerance);
  printf("%s: max abs error %.3g, max rel error %.3g (atol %.3g, rtol %.3g): "
         "%s\n",
         what, result.maxAbs, result.maxRel, tolerance.atol, tolerance.rtol,
         result.failures ? "FAIL" : "PASS");
  if (result.failures)
    printf("  %lld of %lld elements differ; first at flat index %lld: got "
           "%.9g, expected %.9g\n",
           (long long)result.failures, (long long)got->size,
           (long long)result.firstFailure,
           coopvecArrayGet(got, result.firstFailure),
           coopvecArrayGet(ref, result.firstFailure));
  return result.failures == 0;
}

/// The interpreter's arguments: the initial inputs, memrefs copied since the
/// interpreter writes them.
static CoopvecArray *interpreterArgs(const Signature *signature,
                                     const CoopvecNpyArray *initialInputs,
                                     CoopvecNpyArray *memrefCopies) {
  CoopvecArray *args =
      calloc((size_t)signature->numArgs + 1, sizeof(CoopvecArray));
  for (intptr_t i = 0; args && i < signature->numArgs; ++i) {
    if (signature->args[i].kind != CoopvecValueKindMemRef) {
      args[i] = initialInputs[i].array;
    } else if (mlirLogicalResultIsSuccess(
                   arrayCopy(&initialInputs[i], &memrefCopies[i]))) {
      args[i] = memrefCopies[i].array;
    } else {
      free(args);
      return NULL;
    }
  }
  return args;
}

static CoopvecArray *interpreterResults(const Options *options,
                                        const Signature *signature) {
  CoopvecArray *results =
      calloc((size_t)signature->numResults + 1, sizeof(CoopvecArray));
  bool allocated = results != NULL;
  for (intptr_t i = 0; allocated && i < signature->numResults; ++i) {
    results[i].dtype = CoopvecDTypeF64;
    results[i].size = options->batch * signature->results[i].length;
    results[i].data = calloc((size_t)results[i].size + 1, sizeof(double));
    allocated = results[i].data != NULL;
  }
  if (allocated)
    return results;
  for (intptr_t i = 0; results && i < signature->numResults; ++i)
    free(results[i].data);
  free(results);
  return NULL;
}

static bool compareAll(const Options *options, const Signature *signature,
                       const CoopvecNpyArray *inputs,
                       const CoopvecArray *refArgs,
                       const CoopvecNpyArray *results,
                       const CoopvecArray *refResults) {
  bool passed = true;
  char what[64];
  double terms = (double)signature->maxReduction;
  for (intptr_t i = 0; i < signature->numResults; ++i) {
    snprintf(what, sizeof(what), "result %ld", (long)i);
    Tolerance tolerance = toleranceFor(options, signature->results[i].dtype,
                                       terms, &refResults[i]);
    passed &= report(what, &results[i].array, &refResults[i], tolerance);
  }
  for (intptr_t i = 0; i < signature->numArgs; ++i) {
    if (!signature->args[i].written)
      continue;
    snprintf(what, sizeof(what), "argument %ld (written)", (long)i);
    Tolerance tolerance = toleranceFor(options, signature->args[i].dtype,
                                       (double)options->batch, &refArgs[i]);
    passed &= report(what, &inputs[i].array, &refArgs[i], tolerance);
  }
  return passed;
}

static void reportInterpreterError(MlirStringRef text, void *userData) {
  (void)userData;
  fprintf(stderr, "coopvec-run: error: reference interpreter: %.*s\n",
          (int)text.length, text.data);
}

static MlirLogicalResult runInterpreter(const Options *options,
                                        MlirModule module,
                                        const Signature *signature,
                                        const CoopvecArray *args,
                                        CoopvecArray *refResults) {
  return coopvecInterpret(mlirModuleGetOperation(module),
                          mlirStringRefCreateFromCString(options->entry),
                          options->batch, args, signature->numArgs, refResults,
                          signature->numResults, reportInterpreterError, NULL);
}

static void freeResults(const Signature *signature, CoopvecArray *results) {
  for (intptr_t i = 0; results && i < signature->numResults; ++i)
    free(results[i].data);
  free(results);
}

MlirLogicalResult interpretRun(const Options *options, MlirModule module,
                               const Signature *signature,
                               CoopvecNpyArray *inputs,
                               CoopvecNpyArray *results) {
  CoopvecArray *args =
      calloc((size_t)signature->numArgs + 1, sizeof(CoopvecArray));
  CoopvecArray *refResults = interpreterResults(options, signature);
  MlirLogicalResult status = mlirLogicalResultFailure();
  if (args && refResults) {
    for (intptr_t i = 0; i < signature->numArgs; ++i)
      args[i] = inputs[i].array;
    status = runInterpreter(options, module, signature, args, refResults);
  } else {
    runError("out of memory");
  }
  for (intptr_t i = 0; refResults && i < signature->numResults; ++i)
    for (int64_t j = 0; j < refResults[i].size; ++j)
      coopvecArraySet(&results[i].array, j, coopvecArrayGet(&refResults[i], j));
  freeResults(signature, refResults);
  free(args);
  return status;
}

/// `value` rounded to `dtype` (to nearest even; beyond the range, to an
/// infinity), as the compiled code rounds its result.
static double roundTo(CoopvecDType dtype, double value) {
  uint64_t scratch = 0; // room for one element of any dtype
  CoopvecArray element = {&scratch, dtype, 1};
  coopvecArraySet(&element, 0, value);
  return coopvecArrayGet(&element, 0);
}

static void roundReferences(const Signature *signature,
                            CoopvecArray *refResults) {
  for (intptr_t i = 0; i < signature->numResults; ++i)
    for (int64_t j = 0; j < refResults[i].size; ++j)
      coopvecArraySet(&refResults[i], j,
                      roundTo(signature->results[i].dtype,
                              coopvecArrayGet(&refResults[i], j)));
}

MlirLogicalResult checkAgainstInterpreter(
    const Options *options, MlirModule module, const Signature *signature,
    const CoopvecNpyArray *initialInputs, const CoopvecNpyArray *inputs,
    const CoopvecNpyArray *results, bool *passed) {
  CoopvecNpyArray *memrefCopies =
      calloc((size_t)signature->numArgs + 1, sizeof(CoopvecNpyArray));
  CoopvecArray *refArgs =
      memrefCopies ? interpreterArgs(signature, initialInputs, memrefCopies)
                   : NULL;
  CoopvecArray *refResults = interpreterResults(options, signature);
  MlirLogicalResult status = mlirLogicalResultFailure();
  if (refArgs && refResults)
    status = runInterpreter(options, module, signature, refArgs, refResults);
  else
    runError("out of memory");
  if (mlirLogicalResultIsSuccess(status))
    roundReferences(signature, refResults);
  *passed =
      mlirLogicalResultIsSuccess(status) &&
      compareAll(options, signature, inputs, refArgs, results, refResults);
  if (mlirLogicalResultIsSuccess(status))
    printf("%s\n", *passed ? "PASS" : "FAIL");
  freeResults(signature, refResults);
  for (intptr_t i = 0; memrefCopies && i < signature->numArgs; ++i)
    coopvecNpyArrayDestroy(&memrefCopies[i]);
  free(refArgs);
  free(memrefCopies);
  return status;
}

//===----------------------------------------------------------------------===//
// Text output
//===----------------------------------------------------------------------===//

/// Enough digits to read the value back exactly.
static int digitsFor(CoopvecDType dtype) {
  switch (dtype) {
  case CoopvecDTypeF16:
    return 5;
  case CoopvecDTypeF32:
    return 9;
  default:
    return 17;
  }
}

void printArrayText(const char *title, const CoopvecNpyArray *array) {
  int64_t columns = array->rank == 2 ? array->shape[1] : array->array.size;
  int64_t rows = array->rank == 2 ? array->shape[0] : 1;
  printf("%s: %s, shape (", title, coopvecDTypeGetName(array->array.dtype));
  for (int i = 0; i < array->rank; ++i)
    printf(i ? ", %lld" : "%lld", (long long)array->shape[i]);
  printf(array->rank == 1 ? ",)\n" : ")\n");
  int digits = digitsFor(array->array.dtype);
  for (int64_t row = 0; row < rows; ++row) {
    printf("  [%lld]", (long long)row);
    for (int64_t column = 0; column < columns; ++column)
      printf(" %.*g", digits,
             coopvecArrayGet(&array->array, row * columns + column));
    printf("\n");
  }
}
