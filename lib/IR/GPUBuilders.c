//===- GPUBuilders.c - Building gpu-dialect ops ---------------------------===//

#include "IR/GPUBuilders.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdio.h>
#include <stdlib.h>

/// A gpu attribute the C API has no constructor for (`#gpu<dim x>`, ...),
/// parsed from a fixed spelling: failure is a bug.
static MlirAttribute parseGPUAttr(MlirContext ctx, const char *text) {
  MlirAttribute attr =
      mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString(text));
  if (mlirAttributeIsNull(attr)) {
    fprintf(stderr, "coopvec: internal error: cannot parse '%s'\n", text);
    abort();
  }
  return attr;
}

static MlirValue buildDimensionOp(CoopvecBuilder *b, const char *name) {
  MlirNamedAttribute dimension = coopvecNamedAttr(
      b->context, "dimension", parseGPUAttr(b->context, "#gpu<dim x>"));
  return coopvecBuild1(b, name, 0, NULL, mlirIndexTypeGet(b->context), 1,
                       &dimension);
}

MlirValue coopvecBuildThreadIdX(CoopvecBuilder *b) {
  return buildDimensionOp(b, "gpu.thread_id");
}

MlirValue coopvecBuildBlockIdX(CoopvecBuilder *b) {
  return buildDimensionOp(b, "gpu.block_id");
}

void coopvecBuildBarrier(CoopvecBuilder *b) {
  coopvecBuild0(b, "gpu.barrier", 0, NULL, 0, NULL);
}

void coopvecBuildSubgroupBarrier(CoopvecBuilder *b) {
  MlirNamedAttribute subgroup = coopvecNamedAttr(
      b->context, COOPVEC_SUBGROUP_BARRIER_ATTR, mlirUnitAttrGet(b->context));
  coopvecBuild0(b, "gpu.barrier", 0, NULL, 1, &subgroup);
}

MlirValue coopvecBuildSubgroupReduce(CoopvecBuilder *b, const char *op,
                                     MlirValue value) {
  MlirContext ctx = b->context;
  MlirNamedAttribute attrs[] = {
      coopvecNamedAttr(ctx, "op", parseGPUAttr(ctx, op)),
      coopvecNamedAttr(ctx, "uniform", mlirUnitAttrGet(ctx)),
      coopvecNamedAttr(ctx, "cluster_stride",
                       mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 32), 1)),
  };
  return coopvecBuild1(b, "gpu.subgroup_reduce", 1, &value,
                       mlirValueGetType(value), 3, attrs);
}

MlirValue coopvecBuildSubgroupReduceAdd(CoopvecBuilder *b, MlirValue value) {
  return coopvecBuildSubgroupReduce(b, "#gpu<all_reduce_op add>", value);
}

MlirValue coopvecBuildShuffleXor(CoopvecBuilder *b, MlirValue value,
                                 int32_t offset, int32_t width) {
  MlirContext ctx = b->context;
  MlirType i32 = mlirIntegerTypeGet(ctx, 32);
  MlirValue operands[] = {value, coopvecBuildIntConstant(b, i32, offset),
                          coopvecBuildIntConstant(b, i32, width)};
  MlirNamedAttribute mode = coopvecNamedAttr(
      ctx, "mode", parseGPUAttr(ctx, "#gpu<shuffle_mode xor>"));
  MlirType types[] = {mlirValueGetType(value), mlirIntegerTypeGet(ctx, 1)};
  MlirOperation op =
      coopvecBuildOperation(b, "gpu.shuffle", 3, operands, 2, types, 1, &mode);
  if (mlirOperationIsNull(op))
    abort(); // a scalar of 32 bits and two i32 constants
  return mlirOperationGetResult(op, 0);
}

MlirValue coopvecBuildWorkgroupAlloc(CoopvecBuilder *b, MlirType element,
                                     int64_t count, int64_t alignment) {
  MlirContext ctx = b->context;
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  MlirType type = mlirMemRefTypeGet(element, 1, &count, mlirAttributeGetNull(),
                                    mlirIntegerAttrGet(i64, 3));
  int32_t segments[] = {0, 0};
  MlirNamedAttribute attrs[] = {
      coopvecNamedAttr(ctx, "alignment", mlirIntegerAttrGet(i64, alignment)),
      coopvecNamedAttr(ctx, "operandSegmentSizes",
                       mlirDenseI32ArrayGet(ctx, 2, segments)),
  };
  return coopvecBuild1(b, "memref.alloc", 0, NULL, type, 2, attrs);
}

MlirType coopvecMMAMatrixType(MlirContext ctx, int64_t rows, int64_t cols,
                              MlirType element, const char *operand) {
  char text[96];
  snprintf(text, sizeof(text), "!gpu.mma_matrix<%lldx%lldx%s, \"%s\">",
           (long long)rows, (long long)cols,
           mlirTypeIsAF16(element) ? "f16" : "f32", operand);
  MlirType type = mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(text));
  if (mlirTypeIsNull(type)) {
    fprintf(stderr, "coopvec: internal error: cannot parse '%s'\n", text);
    abort();
  }
  return type;
}

static MlirNamedAttribute leadDimensionAttr(MlirContext ctx, int64_t lead) {
  return coopvecNamedAttr(ctx, "leadDimension",
                          mlirIntegerAttrGet(mlirIndexTypeGet(ctx), lead));
}

MlirValue coopvecBuildMMALoad(CoopvecBuilder *b, MlirType type,
                              MlirValue memref, MlirValue index,
                              int64_t leadDimension, bool transposed) {
  MlirValue operands[] = {memref, index};
  MlirNamedAttribute attributes[] = {
      leadDimensionAttr(b->context, leadDimension),
      coopvecNamedAttr(b->context, "transpose", mlirUnitAttrGet(b->context)),
  };
  return coopvecBuild1(b, "gpu.subgroup_mma_load_matrix", 2, operands, type,
                       transposed ? 2 : 1, attributes);
}

MlirValue coopvecBuildMMAConstant(CoopvecBuilder *b, MlirType type,
                                  MlirValue scalar) {
  return coopvecBuild1(b, "gpu.subgroup_mma_constant_matrix", 1, &scalar, type,
                       0, NULL);
}

MlirValue coopvecBuildMMACompute(CoopvecBuilder *b, MlirValue a, MlirValue x,
                                 MlirValue c, bool aTransposed,
                                 bool bTransposed) {
  MlirValue operands[] = {a, x, c};
  MlirNamedAttribute attributes[2];
  intptr_t count = 0;
  if (aTransposed)
    attributes[count++] = coopvecNamedAttr(b->context, "a_transpose",
                                           mlirUnitAttrGet(b->context));
  if (bTransposed)
    attributes[count++] = coopvecNamedAttr(b->context, "b_transpose",
                                           mlirUnitAttrGet(b->context));
  return coopvecBuild1(b, "gpu.subgroup_mma_compute", 3, operands,
                       mlirValueGetType(c), count, attributes);
}

void coopvecBuildMMAStore(CoopvecBuilder *b, MlirValue value, MlirValue memref,
                          MlirValue index, int64_t leadDimension) {
  MlirValue operands[] = {value, memref, index};
  MlirNamedAttribute lead = leadDimensionAttr(b->context, leadDimension);
  coopvecBuild0(b, "gpu.subgroup_mma_store_matrix", 3, operands, 1, &lead);
}
