//===- mlp-gpu-self-test.c - bench/mlp-gpu's training step on the CPU -----===//
//
//   mlp-gpu-self-test
//
// The same as `mlp-gpu --self-test-cpu` (GpuSelfTest.c), in the default
// build so that the test suite (test/Integration/GPU/mlp-gpu-self-test.test)
// runs it on every machine: mlp-gpu itself is EXCLUDE_FROM_ALL. Exits 1 when
// a check fails.
//
//===----------------------------------------------------------------------===//

#include "MlpGpu.h"

#include <stdio.h>

int main(void) {
  // Lines in order with stderr's messages when both go to one file.
  setvbuf(stdout, NULL, _IOLBF, 0);
  return gpuSelfTestCpu();
}
