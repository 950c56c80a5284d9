//===- StandaloneMain.c - Replay fuzz inputs without libFuzzer ------------===//
//
// Linked into a harness instead of libFuzzer, this main runs
// LLVMFuzzerTestOneInput once per file named on the command line (a
// directory stands for the files in it, in name order). The lit suite
// replays the regression corpus this way in every build (gcc, release,
// ASan), so a crash once found stays fixed where no clang is at hand.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "FuzzCommon.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int replayFile(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    fprintf(stderr, "replay: cannot open '%s'\n", path);
    return 1;
  }
  size_t capacity = 4096, size = 0;
  uint8_t *data = malloc(capacity);
  size_t got;
  while (data && (got = fread(data + size, 1, capacity - size, file)) > 0) {
    size += got;
    if (size == capacity) {
      capacity *= 2;
      uint8_t *grown = realloc(data, capacity);
      if (!grown)
        free(data);
      data = grown;
    }
  }
  fclose(file);
  if (!data) {
    fprintf(stderr, "replay: out of memory reading '%s'\n", path);
    return 1;
  }
  fprintf(stderr, "replay: %s\n", path);
  LLVMFuzzerTestOneInput(data, size);
  free(data);
  return 0;
}

static int compareNames(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/// Replays the regular files of `dir` in name order; -1 on error.
static int replayDirectory(const char *dir) {
  DIR *stream = opendir(dir);
  if (!stream) {
    fprintf(stderr, "replay: cannot open directory '%s'\n", dir);
    return -1;
  }
  char **paths = NULL;
  size_t count = 0;
  for (struct dirent *entry; (entry = readdir(stream));) {
    if (entry->d_name[0] == '.')
      continue;
    char **grown = realloc(paths, (count + 1) * sizeof(char *));
    size_t length = strlen(dir) + strlen(entry->d_name) + 2;
    char *path = malloc(length);
    if (!grown || !path) {
      fprintf(stderr, "replay: out of memory\n");
      exit(1);
    }
    paths = grown;
    snprintf(path, length, "%s/%s", dir, entry->d_name);
    paths[count++] = path;
  }
  closedir(stream);
  if (count)
    qsort(paths, count, sizeof(char *), compareNames);
  int replayed = 0;
  for (size_t i = 0; i < count; ++i) {
    struct stat info;
    if (stat(paths[i], &info) == 0 && S_ISREG(info.st_mode)) {
      if (replayFile(paths[i]))
        replayed = -1;
      else if (replayed >= 0)
        ++replayed;
    }
    free(paths[i]);
  }
  free(paths);
  return replayed;
}

int main(int argc, char **argv) {
  LLVMFuzzerInitialize(&argc, &argv);
  int replayed = 0;
  for (int i = 1; i < argc; ++i) {
    struct stat info;
    if (stat(argv[i], &info) != 0) {
      fprintf(stderr, "replay: no such file '%s'\n", argv[i]);
      return 1;
    }
    int count = S_ISDIR(info.st_mode) ? replayDirectory(argv[i])
                                      : (replayFile(argv[i]) ? -1 : 1);
    if (count < 0)
      return 1;
    replayed += count;
  }
  printf("replayed %d inputs\n", replayed);
  return 0;
}
