//===- Timing.h - Clock, medians and random numbers of the benchmarks -----===//
//
// Shared by bench/mlp-cpu and bench/mlp-gpu.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_BENCH_TIMING_H
#define COOPVEC_BENCH_TIMING_H

#include <stdint.h>

/// Seconds of CLOCK_MONOTONIC.
double benchSeconds(void);

/// Sorts `values` (count > 0) in place and returns their median.
double benchMedian(double *values, int count);

/// splitmix64: a fixed, portable sequence from `*state`.
uint64_t benchSplitMix64(uint64_t *state);

#endif // COOPVEC_BENCH_TIMING_H
