// reduce-mode of convert-coopvec-to-gpu (docs/passes.md, "reduce-mode"):
// scatter-adds at per-thread indices on GPU threads.
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-gpu{reduce-mode=local bounds-checks=false})' %s | FileCheck %s --check-prefix=LOCAL
// direct and auto (direct on GPUs) keep one atomic per thread, in
// divergent code.
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-gpu{reduce-mode=direct bounds-checks=false})' %s | FileCheck %s --check-prefix=DIRECT
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-gpu{bounds-checks=false})' %s | FileCheck %s --check-prefix=DIRECT
// The pipelines pass it on: SPIR-V (checked by the pipeline, then by the
// conversion) and NVVM, whose integer subgroup reductions
// coopvec-prepare-nvvm turns into xor butterflies; ptxas assembles the PTX.
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(coopvec-lower-to-spirv{binary=false subgroup-size=8 reduce-mode=local})' %s | FileCheck %s --check-prefix=SPIRV
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(coopvec-lower-to-nvvm{binary=false reduce-mode=local})' %s | FileCheck %s --check-prefix=NVVM
// RUN: %if ptxas %{ coopvec-opt --pass-pipeline='builtin.module(coopvec-lower-to-nvvm{chip=sm_80 reduce-mode=local})' --emit=ptx %s -o %t.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_80 %t.ptx -o %t.cubin %}
// Bad values: a located error and exit 1, from each place that reads it.
// RUN: not coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-gpu{reduce-mode=bogus})' %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not coopvec-opt --split-input-file --pass-pipeline='builtin.module(coopvec-lower-to-spirv{reduce-mode=bogus})' %s 2>&1 | FileCheck %s --check-prefix=BAD-SPIRV
// RUN: not coopvec-opt --split-input-file --pass-pipeline='builtin.module(coopvec-lower-to-nvvm{reduce-mode=bogus})' %s 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: reduce-mode=bogus is not a mode; use direct, local, expand or auto (in convert-coopvec-to-gpu)
// BAD-SPIRV: error: in pipeline 'coopvec-lower-to-spirv': reduce-mode=bogus is not valid: expected direct, local, expand or auto

// local: while some thread of the subgroup is pending (a subgroup vote),
// the pending threads at the smallest pending address (low, then high 32
// bits) sum their values and the first of them adds the sum; the
// control flow around runs masked (a workgroup vote, no divergent scf.if
// on the thread's own condition).
// LOCAL-LABEL: gpu.func @divergent_kernel(
// LOCAL:         %[[THREAD:.*]] = gpu.thread_id x
// LOCAL:         %[[POS:.*]] = arith.cmpf ogt
// LOCAL:         %[[EN:.*]] = arith.andi %{{.*}}, %[[POS]] : i1
// LOCAL:         gpu.barrier
// LOCAL:         scf.while (%[[P:.*]] = %[[EN]]) : (i1) -> i1 {
// LOCAL:             %[[VOTE:.*]] = gpu.subgroup_reduce add %{{.*}} uniform : (i32) -> i32
// LOCAL-NEXT:        %[[ANY:.*]] = arith.cmpi ne, %[[VOTE]], %{{.*}} : i32
// LOCAL-NEXT:        scf.condition(%[[ANY]]) %[[P]] : i1
// LOCAL-NEXT:      } do {
// LOCAL-NEXT:      ^bb0(%[[Q:.*]]: i1):
// LOCAL:             %[[LO:.*]] = arith.select %[[Q]], %{{.*}}, %c-1_i32 : i32
// LOCAL-NEXT:        %[[MINLO:.*]] = gpu.subgroup_reduce minui %[[LO]] uniform : (i32) -> i32
// LOCAL:             %[[HI:.*]] = arith.select %{{.*}}, %{{.*}}, %c-1_i32 : i32
// LOCAL-NEXT:        %[[MINHI:.*]] = gpu.subgroup_reduce minui %[[HI]] uniform : (i32) -> i32
// LOCAL:             %[[SAME:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// LOCAL-NEXT:        %[[V:.*]] = arith.select %[[SAME]], %{{.*}}, %cst{{.*}} : f32
// LOCAL-NEXT:        %[[SUM:.*]] = gpu.subgroup_reduce add %[[V]] uniform : (f32) -> f32
// LOCAL-NEXT:        %[[T:.*]] = arith.index_cast %[[THREAD]] : index to i32
// LOCAL:             %[[FIRST:.*]] = gpu.subgroup_reduce minui %{{.*}} uniform : (i32) -> i32
// LOCAL-NEXT:        %[[LEAD:.*]] = arith.cmpi eq, %[[T]], %[[FIRST]] : i32
// LOCAL-NEXT:        scf.if %[[LEAD]] {
// LOCAL-NEXT:          memref.atomic_rmw addf %[[SUM]], %arg2[%{{.*}}] : (f32, memref<4xf32>) -> f32
// LOCAL-NEXT:        }
// LOCAL-NEXT:        %[[LEFT:.*]] = arith.xori %[[Q]], %[[SAME]] : i1
// LOCAL-NEXT:        scf.yield %[[LEFT]] : i1
// The old value is used: one atomic per thread.
// LOCAL:         memref.atomic_rmw addf %{{.*}}, %arg3
// LOCAL-NOT:     gpu.subgroup_reduce

// DIRECT-LABEL: gpu.func @divergent_kernel(
// DIRECT-NOT:     gpu.subgroup_reduce
// DIRECT-NOT:     scf.while
// DIRECT:         scf.if %{{.*}} {
// DIRECT-NOT:       gpu.barrier
// DIRECT:           memref.atomic_rmw addf %{{.*}}, %arg2
// DIRECT-NOT:     gpu.subgroup_reduce

// SPIRV-LABEL: spirv.func @divergent_kernel(
// SPIRV:         spirv.mlir.loop
// SPIRV:         spirv.GroupNonUniformIAdd <Subgroup> <Reduce>
// SPIRV:         spirv.GroupNonUniformUMin <Subgroup> <Reduce>
// SPIRV:         spirv.GroupNonUniformFAdd <Subgroup> <Reduce>

// NVVM-LABEL: llvm.func @divergent_kernel(
// NVVM-NOT:      redux
// NVVM:          nvvm.shfl.sync bfly
// NVVM:          llvm.icmp "ult"
// NVVM:          llvm.atomicrmw fadd
func.func @divergent(%x: !coopvec.vec<2, f32>, %bins: memref<4xf32>, %own: memref<4xf32>) -> !coopvec.vec<1, f32> {
  %z = arith.constant 0.0 : f32
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %i = arith.fptosi %e#0 : f32 to i32
  %at = arith.index_cast %i : i32 to index
  %positive = arith.cmpf ogt, %e#1, %z : f32
  scf.if %positive {
    %a = memref.atomic_rmw addf %e#1, %bins[%at] : (f32, memref<4xf32>) -> f32
  }
  %old = memref.atomic_rmw addf %e#1, %own[%at] : (f32, memref<4xf32>) -> f32
  %v = "coopvec.from_elements"(%old) : (f32) -> !coopvec.vec<1, f32>
  return %v : !coopvec.vec<1, f32>
}

// -----

// f16 values are summed in f32 (-0.0 from the other threads) and rounded
// once, at the atomic; addi sums in i32.
// LOCAL-LABEL: gpu.func @kinds_kernel(
// LOCAL:         arith.extf %{{.*}} : f16 to f32
// LOCAL:         %[[H:.*]] = gpu.subgroup_reduce add %{{.*}} uniform : (f32) -> f32
// LOCAL:         %[[R:.*]] = arith.truncf %[[H]] : f32 to f16
// LOCAL:         memref.atomic_rmw addf %[[R]]
// LOCAL:         scf.while
// LOCAL:         gpu.subgroup_reduce add %{{.*}} uniform : (i32) -> i32
// LOCAL:         %[[N:.*]] = gpu.subgroup_reduce add %{{.*}} uniform : (i32) -> i32
// LOCAL:         memref.atomic_rmw addi %[[N]]
// DIRECT-LABEL: gpu.func @kinds_kernel(
// DIRECT-NOT:     gpu.subgroup_reduce
// SPIRV-LABEL: spirv.func @kinds_kernel(
// NVVM-LABEL: llvm.func @kinds_kernel(
func.func @kinds(%x: !coopvec.vec<2, f32>, %half: memref<4xf16>, %count: memref<4xi32>) {
  %one = arith.constant 1 : i32
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %i = arith.fptosi %e#0 : f32 to i32
  %at = arith.index_cast %i : i32 to index
  %h = arith.truncf %e#1 : f32 to f16
  %a = memref.atomic_rmw addf %h, %half[%at] : (f16, memref<4xf16>) -> f16
  %n = memref.atomic_rmw addi %one, %count[%at] : (i32, memref<4xi32>) -> i32
  return
}
