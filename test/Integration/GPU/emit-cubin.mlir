// REQUIRES: ptxas
// --emit=cubin runs ptxas for the target's chip: an ELF file for the GPU.
// RUN: coopvec-opt %s --coopvec-lower-to-nvvm="chip=sm_90" --emit=cubin -o %t.cubin
// RUN: od -An -c -N4 %t.cubin | FileCheck %s
// RUN: env COOPVEC_PTXAS=%ptxas coopvec-opt %s --coopvec-lower-to-nvvm --emit=cubin -o %t-80.cubin
// RUN: od -An -c -N4 %t-80.cubin | FileCheck %s
// CHECK: 177 E L F

func.func @layer(%x: !coopvec.vec<16, f16>, %w: memref<?xf16>) -> !coopvec.vec<16, f16> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<16, 16, f16, "training">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<16, 16, f16, "training">, !coopvec.vec<16, f16>) -> !coopvec.vec<16, f16>
  return %y : !coopvec.vec<16, f16>
}
