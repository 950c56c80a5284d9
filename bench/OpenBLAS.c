//===- OpenBLAS.c - The MLP layer by layer with OpenBLAS sgemm ------------===//
//
// How a framework without fusion runs the MLP: per layer one sgemm over the
// whole batch, H_out[batch x out] = H_in[batch x in] * W^T, then a separate
// bias + ReLU pass. Each hidden activation (batch x 64 floats, 256 MiB at
// batch 2^20) is written to memory and read back twice.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include <cblas.h>

#include <stdio.h>
#include <stdlib.h>

struct OpenBLASWorkspace {
  int64_t batch;
  float *activations[2]; // batch x MLP_MAX_WIDTH each, used in turn
};

OpenBLASWorkspace *openblasWorkspaceCreate(int64_t batch) {
  OpenBLASWorkspace *workspace = calloc(1, sizeof(*workspace));
  if (!workspace)
    return NULL;
  workspace->batch = batch;
  for (int i = 0; i < 2; ++i) {
    workspace->activations[i] =
        malloc((size_t)batch * MLP_MAX_WIDTH * sizeof(float));
    if (!workspace->activations[i]) {
      openblasWorkspaceDestroy(workspace);
      return NULL;
    }
  }
  return workspace;
}

void openblasWorkspaceDestroy(OpenBLASWorkspace *workspace) {
  if (!workspace)
    return;
  free(workspace->activations[0]);
  free(workspace->activations[1]);
  free(workspace);
}

typedef struct BiasPass {
  float *activations; // batch x width, updated in place
  const float *bias;
  int width;
  int applyRelu;
} BiasPass;

// Branch-free, so that the compiler vectorizes it (max for the ReLU) and
// random signs cost no mispredictions: a framework's bias kernel, not a
// strawman.
static void biasChunk(void *context, int64_t begin, int64_t end) {
  const BiasPass *pass = context;
  const int width = pass->width;
  const float *bias = pass->bias;
  for (int64_t i = begin; i < end; ++i) {
    float *row = pass->activations + i * width;
    if (pass->applyRelu) {
      for (int j = 0; j < width; ++j) {
        float value = row[j] + bias[j];
        row[j] = value > 0.0f ? value : 0.0f;
      }
    } else {
      for (int j = 0; j < width; ++j)
        row[j] += bias[j];
    }
  }
}

static int runLayer(const MlpLayer *layer, const float *w, int64_t batch,
                    const float *input, float *output, int applyRelu,
                    int threads) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (blasint)batch,
              layer->outputs, layer->inputs, 1.0f, input, layer->inputs,
              w + layer->weightOffset, layer->inputs, 0.0f, output,
              layer->outputs);
  // The bias pass runs on as many threads as OpenBLAS got.
  BiasPass pass = {output, w + layer->biasOffset, layer->outputs, applyRelu};
  return runParallel(threads, batch, biasChunk, &pass);
}

int runOpenBLAS(OpenBLASWorkspace *workspace, const MlpProblem *problem,
                int threads) {
  if (problem->batch > workspace->batch) {
    fprintf(stderr, "mlp-cpu: OpenBLAS workspace too small\n");
    return -1;
  }
  openblas_set_num_threads(threads);
  const float *input = problem->x;
  for (int l = 0; l < MLP_NUM_LAYERS; ++l) {
    int last = l == MLP_NUM_LAYERS - 1;
    float *output = last ? problem->y : workspace->activations[l % 2];
    if (runLayer(&mlpLayers[l], problem->w, problem->batch, input, output,
                 !last, threads))
      return -1;
    input = output;
  }
  return 0;
}

const char *openblasDescription(void) {
  static char description[256];
  snprintf(description, sizeof(description), "%s; kernels: %s",
           openblas_get_config(), openblas_get_corename());
  return description;
}
