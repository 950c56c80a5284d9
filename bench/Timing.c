//===- Timing.c - Clock, medians and random numbers of the benchmarks -----===//

// clock_gettime(CLOCK_MONOTONIC) is POSIX, not C11.
#define _POSIX_C_SOURCE 200809L

#include "Timing.h"

#include <stdlib.h>
#include <time.h>

double benchSeconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

static int compareDoubles(const void *lhs, const void *rhs) {
  double a = *(const double *)lhs, b = *(const double *)rhs;
  return (a > b) - (a < b);
}

double benchMedian(double *values, int count) {
  qsort(values, (size_t)count, sizeof(double), compareDoubles);
  return count % 2 ? values[count / 2]
                   : 0.5 * (values[count / 2 - 1] + values[count / 2]);
}

uint64_t benchSplitMix64(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
