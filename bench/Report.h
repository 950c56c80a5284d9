//===- Report.h - Timing, the FMA peak rows and the tables ----------------===//

#ifndef COOPVEC_BENCH_REPORT_H
#define COOPVEC_BENCH_REPORT_H

#include "Bench.h"

/// What the repetitions of one variant measured.
typedef struct Measurement {
  double seconds;                      // median wall time
  double gflops, minGflops, maxGflops; // at the median, slowest, fastest
  double error; // max abs error against plain C; negative for the peaks
} Measurement;

typedef struct Row {
  char name[32];
  int tile, threads; // tile 0: not tiled
  int peak;          // an FMA peak row: no fixed work, best of the runs
  Measurement m;
} Row;

typedef struct Sweep {
  char name[32];
  int tile;
  double gflops;
} Sweep;

enum { MAX_ROWS = 32, MAX_SWEEPS = 32 };

/// The rows of one workload's table.
typedef struct Table {
  const MlpWorkload *workload;
  int64_t batch;
  int repetitions;
  int maxVectorBits; // the widest vectors the measured code may use
  Row rows[MAX_ROWS];
  int numRows;
  Sweep sweeps[MAX_SWEEPS];
  int numSweeps;
} Table;

/// One warm-up run, then `repetitions` timed runs; 0 or -1 if a run failed.
int timeRuns(const Variant *variant, void *state, const MlpProblem *problem,
             int threads, int repetitions, Measurement *result);
/// Wall time of one run in seconds, or a negative value if it failed.
double timeRun(const Variant *variant, void *state, const MlpProblem *problem,
               int threads);
/// The measurement of `count` run times (sorted in place) of `gflop` each.
Measurement summarizeRuns(double *times, int count, double gflop);
void addRow(Table *table, const char *name, int tile, int threads,
            const Measurement *m);
void addSweep(Table *table, const char *name, int tile, double gflops);
/// The FMA peak rows on `threads`: the widest FMA up to the table's
/// maxVectorBits (every % refers to it) and, where that is 512, 256-bit,
/// the best of `repetitions`.
int measurePeaks(Table *table, int threads, int repetitions);

/// The table, the tile sweep and the summary lines ("summary:" when `main`,
/// else "summary-<workload>:").
void printTable(const Table *table, int main);
/// `isa`: what --isa=avx2 set up, or NULL.
void printHeader(int repetitions, int plainRepetitions, const char *isa);
/// coopvec-opt's time to compile `source` to an object (median of 3).
void printCompileTime(const char *source);
/// /proc/loadavg, labelled `when`.
void printLoad(const char *when);

#endif // COOPVEC_BENCH_REPORT_H
