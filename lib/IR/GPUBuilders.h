//===- GPUBuilders.h - Building gpu-dialect ops (internal) --------*- C -*-===//
//
// The target-neutral `gpu` dialect ops that convert-coopvec-to-gpu and
// coopvec-prepare-nvvm create: thread indices, barriers, subgroup
// reductions and shuffles, workgroup buffers, and the subgroup MMA ops
// (`gpu.subgroup_mma_*`, which become `wmma` on NVVM and
// `spirv.KHR.CooperativeMatrix*` on SPIR-V). Like UpstreamBuilders.h, the
// caller guarantees the shapes; a refusal by MLIR aborts.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_IR_GPUBUILDERS_H
#define COOPVEC_LIB_IR_GPUBUILDERS_H

#include "IR/UpstreamBuilders.h"

/// `gpu.thread_id x` / `gpu.block_id x`: index values.
MlirValue coopvecBuildThreadIdX(CoopvecBuilder *b);
MlirValue coopvecBuildBlockIdX(CoopvecBuilder *b);
/// `gpu.barrier`: every thread of the workgroup, and its workgroup memory.
void coopvecBuildBarrier(CoopvecBuilder *b);
/// A unit attribute on a `gpu.barrier` that only the threads of each
/// subgroup need among themselves (their workgroup memory accesses
/// ordered): a target whose subgroups are its hardware's may synchronize
/// just those (coopvec-prepare-nvvm: `nvvm.bar.warp.sync`); any other
/// keeps the workgroup barrier, which orders at least as much.
#define COOPVEC_SUBGROUP_BARRIER_ATTR "coopvec.subgroup_barrier"
/// `gpu.barrier {coopvec.subgroup_barrier}`.
void coopvecBuildSubgroupBarrier(CoopvecBuilder *b);
/// `gpu.subgroup_reduce add %value uniform`: the sum over the subgroup,
/// in every lane (all lanes take part).
MlirValue coopvecBuildSubgroupReduceAdd(CoopvecBuilder *b, MlirValue value);
/// `gpu.subgroup_reduce <op> %value uniform`, `op` an all_reduce_op
/// attribute ("#gpu<all_reduce_op minui>").
MlirValue coopvecBuildSubgroupReduce(CoopvecBuilder *b, const char *op,
                                     MlirValue value);
/// `gpu.shuffle xor %value, offset, width`: the value of lane
/// `lane ^ offset`.
MlirValue coopvecBuildShuffleXor(CoopvecBuilder *b, MlirValue value,
                                 int32_t offset, int32_t width);

/// `memref.alloc() {alignment}` of `count` elements in address space 3
/// (workgroup memory).
MlirValue coopvecBuildWorkgroupAlloc(CoopvecBuilder *b, MlirType element,
                                     int64_t count, int64_t alignment);

/// `!gpu.mma_matrix<rows x cols x element, "operand">` ("AOp", "BOp",
/// "COp").
MlirType coopvecMMAMatrixType(MlirContext ctx, int64_t rows, int64_t cols,
                              MlirType element, const char *operand);
/// `gpu.subgroup_mma_load_matrix %memref[%index] {leadDimension}` of a
/// rank-1 memref: the fragment whose row r starts at index + r * lead; with
/// `transposed` (the op's `transpose`) read column-major, its column c
/// starting at index + c * lead.
MlirValue coopvecBuildMMALoad(CoopvecBuilder *b, MlirType type,
                              MlirValue memref, MlirValue index,
                              int64_t leadDimension, bool transposed);
/// `gpu.subgroup_mma_constant_matrix %scalar`.
MlirValue coopvecBuildMMAConstant(CoopvecBuilder *b, MlirType type,
                                  MlirValue scalar);
/// `gpu.subgroup_mma_compute %a, %b, %c`: a * b + c; `aTransposed` /
/// `bTransposed` when %a / %b was loaded with `transpose` (NVVM's mma must
/// name the layout its operands were loaded in).
MlirValue coopvecBuildMMACompute(CoopvecBuilder *b, MlirValue a, MlirValue x,
                                 MlirValue c, bool aTransposed,
                                 bool bTransposed);
/// `gpu.subgroup_mma_store_matrix %value, %memref[%index] {leadDimension}`.
void coopvecBuildMMAStore(CoopvecBuilder *b, MlirValue value, MlirValue memref,
                          MlirValue index, int64_t leadDimension);

#endif // COOPVEC_LIB_IR_GPUBUILDERS_H
