//===- Common.c - The MLP's layer table and the thread splitter -----------===//

#define _POSIX_C_SOURCE 200809L

#include "Bench.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

// Offsets follow examples/mlp.mlir (matrix_view offsets there are in bytes).
const MlpLayer mlpLayers[MLP_NUM_LAYERS] = {
    {32, 64, 0, 2048},
    {64, 64, 2112, 6208},
    {64, 64, 6272, 10368},
    {64, 16, 10432, 11456},
};

enum { MAX_THREADS = 64, CHUNK_ALIGNMENT = 64 };

typedef struct Chunk {
  void (*body)(void *context, int64_t begin, int64_t end);
  void *context;
  int64_t begin, end;
} Chunk;

static void *runChunk(void *argument) {
  Chunk *chunk = argument;
  chunk->body(chunk->context, chunk->begin, chunk->end);
  return NULL;
}

int runParallel(int threads, int64_t count,
                void (*body)(void *context, int64_t begin, int64_t end),
                void *context) {
  if (threads < 1 || threads > MAX_THREADS) {
    fprintf(stderr, "mlp-cpu: thread count %d out of range\n", threads);
    return -1;
  }
  int64_t perThread = (count + threads - 1) / threads;
  perThread =
      (perThread + CHUNK_ALIGNMENT - 1) / CHUNK_ALIGNMENT * CHUNK_ALIGNMENT;
  Chunk chunks[MAX_THREADS];
  pthread_t ids[MAX_THREADS];
  for (int t = 0; t < threads; ++t) {
    int64_t begin = t * perThread < count ? t * perThread : count;
    int64_t end = begin + perThread < count ? begin + perThread : count;
    chunks[t] = (Chunk){body, context, begin, end};
  }
  // The calling thread takes chunk 0 itself: one thread means no spawn.
  int started = 1, status = 0;
  for (; started < threads; ++started) {
    int error = pthread_create(&ids[started], NULL, runChunk, &chunks[started]);
    if (error) {
      fprintf(stderr, "mlp-cpu: pthread_create: %s\n", strerror(error));
      status = -1;
      break;
    }
  }
  runChunk(&chunks[0]);
  for (int t = 1; t < started; ++t)
    pthread_join(ids[t], NULL);
  // On failure chunks [started, threads) were not computed: report it
  // rather than let the caller time and check a partial result.
  return status;
}
