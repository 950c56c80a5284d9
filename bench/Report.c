//===- Report.c - Timing, the FMA peak rows and the tables ----------------===//

#include "Report.h"
#include "Timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// Measuring
//===----------------------------------------------------------------------===//

double timeRun(const Variant *variant, void *state, const MlpProblem *problem,
               int threads) {
  double start = benchSeconds();
  if (variant->run(state, problem, threads)) {
    fprintf(stderr, "mlp-cpu: %s failed on %d threads\n", variant->name,
            threads);
    return -1.0;
  }
  return benchSeconds() - start;
}

Measurement summarizeRuns(double *times, int count, double gflop) {
  double median = benchMedian(times, count); // sorts `times`
  return (Measurement){median, gflop / median, gflop / times[count - 1],
                       gflop / times[0], 0.0};
}

int timeRuns(const Variant *variant, void *state, const MlpProblem *problem,
             int threads, int repetitions, Measurement *result) {
  double times[1000];
  if (repetitions > 1000 || timeRun(variant, state, problem, threads) < 0)
    return -1;
  for (int r = 0; r < repetitions; ++r)
    if ((times[r] = timeRun(variant, state, problem, threads)) < 0)
      return -1;
  *result = summarizeRuns(times, repetitions,
                          1e-9 * mlpFlopsPerSample(problem->workload) *
                              (double)problem->batch);
  return 0;
}

static Row *newRow(Table *table, const char *name, int tile, int threads) {
  if (table->numRows == MAX_ROWS)
    return NULL; // the variant list fits; this keeps a new one from overflowing
  Row *row = &table->rows[table->numRows++];
  memset(row, 0, sizeof(*row));
  snprintf(row->name, sizeof(row->name), "%s", name);
  row->tile = tile;
  row->threads = threads;
  return row;
}

void addRow(Table *table, const char *name, int tile, int threads,
            const Measurement *m) {
  Row *row = newRow(table, name, tile, threads);
  if (row)
    row->m = *m;
}

void addSweep(Table *table, const char *name, int tile, double gflops) {
  if (table->numSweeps == MAX_SWEEPS)
    return;
  Sweep *sweep = &table->sweeps[table->numSweeps++];
  snprintf(sweep->name, sizeof(sweep->name), "%s", name);
  sweep->tile = tile;
  sweep->gflops = gflops;
}

/// The best of `repetitions` peak measurements: interference from other
/// processes can only lower a throughput, so the best is the estimate of
/// what the machine can do (the MLP variants report medians).
static double bestPeak(int threads, int vectorBits, int repetitions) {
  double best = -1.0;
  for (int r = 0; r < repetitions; ++r) {
    double gflops = measureFmaPeak(threads, vectorBits);
    if (gflops < 0)
      return -1.0;
    best = fmax(best, gflops);
  }
  return best;
}

int measurePeaks(Table *table, int threads, int repetitions) {
  int widest = widestFmaBits();
  int widths[2] = {
      widest < table->maxVectorBits ? widest : table->maxVectorBits, 256};
  int numWidths = widths[0] == 512 ? 2 : 1;
  for (int i = 0; i < numWidths; ++i) {
    double gflops = bestPeak(threads, widths[i], repetitions);
    if (gflops < 0) {
      fprintf(stderr, "mlp-cpu: FMA peak measurement failed\n");
      return -1;
    }
    char name[32];
    snprintf(name, sizeof(name), "fma-peak-%dbit", widths[i]);
    Row *row = newRow(table, name, 0, threads);
    if (row) {
      row->peak = 1;
      row->m = (Measurement){-1.0, gflops, gflops, gflops, -1.0};
    }
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// Tables
//===----------------------------------------------------------------------===//

/// The row of the widest FMA peak at `threads`, or NULL.
static const Row *peakRow(const Table *table, int threads) {
  for (int i = 0; i < table->numRows; ++i)
    if (table->rows[i].peak && table->rows[i].threads == threads)
      return &table->rows[i];
  return NULL;
}

static const Row *findRow(const Table *table, const char *name, int threads) {
  for (int i = 0; i < table->numRows; ++i)
    if (!table->rows[i].peak && table->rows[i].threads == threads &&
        !strcmp(table->rows[i].name, name))
      return &table->rows[i];
  return NULL;
}

/// The fastest baseline (neither coopvec nor a peak) at `threads`, or NULL.
static const Row *bestBaseline(const Table *table, int threads) {
  const Row *best = NULL;
  for (int i = 0; i < table->numRows; ++i) {
    const Row *row = &table->rows[i];
    if (!row->peak && row->threads == threads && strcmp(row->name, "coopvec") &&
        (!best || row->m.gflops > best->m.gflops))
      best = row;
  }
  return best;
}

static void printRow(const Table *table, const Row *row) {
  const Row *peak = peakRow(table, row->threads);
  const Row *best = bestBaseline(table, row->threads);
  char name[48];
  if (row->tile)
    snprintf(name, sizeof(name), "%s, tile %d", row->name, row->tile);
  else
    snprintf(name, sizeof(name), "%s", row->name);
  printf("| %-22s | %7d | ", name, row->threads);
  if (row->peak)
    printf("%9s | %8.1f | %13s | %10s | ", "-", row->m.gflops, "-", "-");
  else
    printf("%9.1f | %8.1f | %5.1f - %5.1f | %9.2fx | ", 1e3 * row->m.seconds,
           row->m.gflops, row->m.minGflops, row->m.maxGflops,
           best ? row->m.gflops / best->m.gflops : 0.0);
  printf("%8.1f%% | ", peak ? 100.0 * row->m.gflops / peak->m.gflops : 0.0);
  if (row->m.error < 0)
    printf("%11s |\n", "-");
  else
    printf("%11.2e |\n", row->m.error);
}

static void printSweeps(const Table *table) {
  if (!table->numSweeps)
    return;
  printf(
      "Tile sweep (1 thread, batch %lld, median of 3):",
      (long long)(table->batch / 4 > 4096 ? table->batch / 4 : table->batch));
  for (int i = 0; i < table->numSweeps; ++i)
    printf("%s %s/%d %.1f", i ? "," : "", table->sweeps[i].name,
           table->sweeps[i].tile, table->sweeps[i].gflops);
  printf(" GFLOP/s\n\n");
}

static void printSummary(const Table *table, int threads, int main) {
  const Row *coopvec = findRow(table, "coopvec", threads);
  const Row *peak = peakRow(table, threads);
  const Row *best = bestBaseline(table, threads);
  if (!coopvec || !peak)
    return;
  if (main)
    printf("summary:");
  else
    printf("summary-%s:", table->workload->name);
  printf(" threads=%d coopvec_gflops=%.1f peak_pct=%.1f best_baseline=%s "
         "best_baseline_gflops=%.1f ratio=%.2f\n",
         threads, coopvec->m.gflops, 100.0 * coopvec->m.gflops / peak->m.gflops,
         best ? best->name : "none", best ? best->m.gflops : 0.0,
         best ? coopvec->m.gflops / best->m.gflops : 0.0);
}

void printTable(const Table *table, int main) {
  const MlpWorkload *workload = table->workload;
  printf("\n### %s: %d", workload->name, mlpInputs(workload));
  for (int l = 0; l < workload->numLayers; ++l)
    printf("-%d", workload->layers[l].outputs);
  printf(", %s, %s storage, batch %lld, %.0f FLOPs/sample\n\n",
         workload->activation == MLP_RELU ? "ReLU" : "tanh",
         workload->storage == MLP_F16 ? "f16" : "f32", (long long)table->batch,
         mlpFlopsPerSample(workload));
  printSweeps(table);
  printf("| %-22s | %7s | %9s | %8s | %13s | %10s | %9s | %11s |\n", "variant",
         "threads", "median ms", "GFLOP/s", "GFLOP/s range", "vs best bl",
         "% of peak", "max abs err");
  printf("|------------------------|--------:|----------:|---------:|"
         "--------------:|-----------:|----------:|------------:|\n");
  for (int i = 0; i < table->numRows; ++i)
    printRow(table, &table->rows[i]);
  printf("\n");
  int printed[MLP_MAX_THREADS + 1] = {0};
  for (int i = 0; i < table->numRows; ++i) {
    int threads = table->rows[i].threads;
    if (threads <= MLP_MAX_THREADS && !printed[threads]++)
      printSummary(table, threads, main);
  }
  fflush(stdout);
}

//===----------------------------------------------------------------------===//
// Header, compile time, load
//===----------------------------------------------------------------------===//

void printLoad(const char *when) {
  FILE *file = fopen("/proc/loadavg", "r");
  char line[128] = "unknown";
  if (file) {
    if (!fgets(line, sizeof(line), file))
      snprintf(line, sizeof(line), "unknown");
    fclose(file);
  }
  line[strcspn(line, "\n")] = 0;
  printf("load average (%s): %s\n", when, line);
}

void printHeader(int repetitions, int plainRepetitions, const char *isa) {
  printf("mlp-cpu: medians of %d runs after one warm-up (plain-c: %d; FMA "
         "peak: best of %d); FLOPs count multiply-adds only\n",
         repetitions, plainRepetitions, repetitions);
  if (isa)
    printf("%s\n", isa);
  const char *libraries[] = {openblasDescription(), onednnDescription(),
                             libxsmmDescription()};
  for (int i = 0; i < 3; ++i)
    if (libraries[i])
      printf("%s\n", libraries[i]);
  printLoad("start");
}

void printCompileTime(const char *source) {
#if defined(COOPVEC_BENCH_OPT) && defined(COOPVEC_BENCH_SOURCE_DIR)
  char command[4096];
  snprintf(command, sizeof(command),
           "'%s' '--pass-pipeline=builtin.module(coopvec-lower-to-cpu)' "
           "--emit=obj -o /dev/null '%s/%s'",
           COOPVEC_BENCH_OPT, COOPVEC_BENCH_SOURCE_DIR, source);
  double times[3];
  for (int i = 0; i < 3; ++i) {
    double start = benchSeconds();
    if (system(command)) {
      printf("compile time of %s: coopvec-opt failed\n", source);
      return;
    }
    times[i] = benchSeconds() - start;
  }
  printf("compile time of %s (coopvec-lower-to-cpu + LLVM -O3 to an object, "
         "median of 3): %.3f s\n",
         source, benchMedian(times, 3));
#else
  (void)source;
#endif
}
