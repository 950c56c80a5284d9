//===- GPUStagedRows.c - A thread's vec as its row of a staged tile -------===//
//
// The tensor-core matvec (GPUMatvec.c) and the training ops summed per
// workgroup (GPUBlockTraining.c) both stage each thread's vec as its row of
// a tile in workgroup memory: the elements rounded to the buffer's type,
// +0.0 past the vec's end, in 16-byte vectors. Rows are 16 bytes longer
// than their data (GPU.h, GPU_STAGING_SKEW_BYTES): the 8 threads of a
// 16-byte access phase then hit 8 different groups of 4 banks, so the
// stores are free of bank conflicts.
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToGPU/GPU.h"

#include <mlir-c/BuiltinTypes.h>

MlirType gpuStagingChunkType(MlirType element) {
  int64_t width =
      GPU_STAGING_CHUNK_BYTES / (int64_t)(mlirFloatTypeGetWidth(element) / 8);
  return mlirVectorTypeGet(1, &width, element);
}

/// Element `k` of the row at `b`: a row of the vec's tile at the index
/// value `at` (the constant k where `at` is null) when tiled, else its SSA
/// value k; +0.0 where `keep` is false.
static MlirValue rowElement(GPULowering *l, CoopvecBuilder *b,
                            const GPUStagedRow *row, int64_t k, MlirValue at) {
  const CoopvecElements *elements = coopvecLookupElements(&l->p, row->vec);
  MlirValue value =
      !mlirValueIsNull(elements->tile)
          ? gpuLoadRow(&l->p, b, elements->tile,
                       mlirValueIsNull(at) ? coopvecPerThreadIndex(&l->p, k)
                                           : at)
          : elements->values[elements->uniform || elements->count == 1 ? 0 : k];
  return mlirValueIsNull(row->keep)
             ? value
             : coopvecBuildSelect(b, row->keep, value,
                                  coopvecPerThreadConstant(&l->p, 0.0));
}

/// Stores the 16-byte chunk of elements from k = `first` (the index value
/// `at`, or the constant `first` where `at` is null); `zero` past the vec.
static void stageChunk(GPULowering *l, CoopvecBuilder *b,
                       const GPUStagedRow *row, int64_t first, MlirValue at,
                       MlirValue zero) {
  MlirType element =
      mlirShapedTypeGetElementType(mlirValueGetType(row->buffer));
  MlirType chunk = gpuStagingChunkType(element);
  int64_t width = mlirShapedTypeGetDimSize(chunk, 0);
  MlirValue values[GPU_STAGING_CHUNK_BYTES / 2];
  for (int64_t i = 0; i < width; ++i) {
    int64_t k = first + i;
    MlirValue kAt = mlirValueIsNull(at) ? at : gpuAddIndex(l, b, at, i);
    values[i] = !mlirValueIsNull(at) || k < row->count
                    ? coopvecNarrowTo(b, rowElement(l, b, row, k, kAt), element)
                    : zero;
  }
  MlirValue start = mlirValueIsNull(at)
                        ? gpuAddIndex(l, b, row->start, first)
                        : coopvecBuildBinaryOp(b, "arith.addi", row->start, at);
  MlirValue vector =
      coopvecBuild1(b, "vector.from_elements", width, values, chunk, 0, NULL);
  gpuBuildAlignedVectorStore(b, vector, row->buffer, start);
}

void gpuStageRow(GPULowering *l, CoopvecBuilder *b, const GPUStagedRow *row) {
  MlirType element =
      mlirShapedTypeGetElementType(mlirValueGetType(row->buffer));
  int64_t width = mlirShapedTypeGetDimSize(gpuStagingChunkType(element), 0);
  const CoopvecElements *elements = coopvecLookupElements(&l->p, row->vec);
  int64_t first = 0;
  if (!mlirValueIsNull(elements->tile)) {
    // A tiled vec's whole chunks by a loop over its tile.
    first = row->count / width * width;
    CoopvecLoop loop = coopvecBuildFor(
        b, coopvecPerThreadIndex(&l->p, 0), coopvecPerThreadIndex(&l->p, first),
        coopvecPerThreadIndex(&l->p, width), 0, NULL);
    stageChunk(l, &loop.body, row, 0, loop.inductionVar, (MlirValue){NULL});
    coopvecFinishFor(&loop, 0, NULL);
  }
  MlirValue zero = row->count < row->padded
                       ? coopvecBuildFloatConstant(b, element, 0.0)
                       : (MlirValue){NULL}; // no padding
  for (int64_t k = first; k < row->padded; k += width)
    stageChunk(l, b, row, k, (MlirValue){NULL}, zero);
}
