// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-gpu)' %s | FileCheck %s
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-gpu{bounds-checks=false})' %s | FileCheck %s --check-prefix=UNCHECKED

// General per-thread code on GPU threads (docs/execution-model.md, "GPU
// targets"): a varying value is the thread's own scalar; varying control
// flow without cooperative ops is divergent thread code, entered by the
// active threads only; around a cooperative op it is masked, every thread
// of the workgroup going through it and a vote of the workgroup deciding
// whether a branch runs; memory at a varying index is checked against the
// buffer's size, which the engine writes into the status argument.

// A gather: the index is the thread's own; the load runs for active
// threads inside the buffer, an access outside reports (count, then the
// smallest thread * 2^16 + check) to the status argument the kernel gained.
// CHECK-LABEL: module attributes {coopvec.bounds_checks = {gather_kernel = ["{{.*}}per-thread-code.mlir:{{[0-9]+}}:8 ('memref.load')"]}
// CHECK-LABEL: gpu.func @gather_kernel(
// CHECK-SAME:      %[[N:[^:]*]]: index, %{{[^:]*}}: memref<?xf32>, %[[T:[^:]*]]: memref<?xf32>, %{{[^:]*}}: memref<?xf32>, %[[STATUS:[^:]*]]: memref<?xi64>) kernel
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[SIZE64:.*]] = memref.load %[[STATUS]][%[[C4]]] : memref<?xi64>
// CHECK-NEXT:    %[[SIZE:.*]] = arith.index_cast %[[SIZE64]] : i64 to index
// CHECK:         %[[VALID:.*]] = arith.cmpi ult, %{{.*}}, %[[N]] : index
// CHECK:         arith.fptosi
// The index is a sign-extended i32, compared in i32 with min(size, 2^31).
// CHECK:         %[[I:.*]] = arith.index_cast %[[I32:.*]] : i32 to index
// CHECK-NEXT:    %[[CLAMPED:.*]] = arith.minui %[[SIZE]], %{{.*}} : index
// CHECK-NEXT:    %[[BOUND:.*]] = arith.index_cast %[[CLAMPED]] : index to i32
// CHECK-NEXT:    %[[IN:.*]] = arith.cmpi ult, %[[I32]], %[[BOUND]] : i32
// CHECK-NEXT:    %[[GO:.*]] = arith.andi %[[VALID]], %[[IN]] : i1
// CHECK-NEXT:    %[[V:.*]] = scf.if %[[GO]] -> (f32) {
// CHECK-NEXT:      %[[L:.*]] = memref.load %[[T]][%[[I]]] : memref<?xf32>
// CHECK-NEXT:      scf.yield %[[L]] : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      scf.yield %[[Z]] : f32
// CHECK-NEXT:    }
// CHECK:         %[[OUT:.*]] = arith.xori %[[IN]], %{{.*}} : i1
// CHECK-NEXT:    %[[REPORT:.*]] = arith.andi %[[VALID]], %[[OUT]] : i1
// CHECK-NEXT:    scf.if %[[REPORT]] {
// CHECK:           memref.atomic_rmw addi %{{.*}}, %[[STATUS]][%{{.*}}] {coopvec.status_report} : (i64, memref<?xi64>) -> i64
// CHECK:           memref.atomic_rmw mins %{{.*}}, %[[STATUS]][%{{.*}}] {coopvec.status_report} : (i64, memref<?xi64>) -> i64
// CHECK-NEXT:    }
// Without bounds checks: one load, no status argument.
// UNCHECKED-NOT: coopvec.bounds_checks
// UNCHECKED-LABEL: gpu.func @gather_kernel(
// UNCHECKED-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %[[T:[^:]*]]: memref<?xf32>, %{{[^:]*}}: memref<?xf32>) kernel
// UNCHECKED:         %[[VALID:.*]] = arith.cmpi ult
// UNCHECKED:         %[[I:.*]] = arith.index_cast %{{.*}} : i32 to index
// UNCHECKED-NEXT:    scf.if %[[VALID]] -> (f32) {
// UNCHECKED-NEXT:      memref.load %[[T]][%[[I]]] : memref<?xf32>
func.func @gather(%x: !coopvec.vec<1, f32>, %t: memref<?xf32>) -> !coopvec.vec<1, f32> {
  %e:1 = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> (f32)
  %i = arith.fptosi %e#0 : f32 to i32
  %j = arith.index_cast %i : i32 to index
  %v = memref.load %t[%j] : memref<?xf32>
  %r = "coopvec.from_elements"(%v) : (f32) -> !coopvec.vec<1, f32>
  return %r : !coopvec.vec<1, f32>
}

// -----

// Divergent: no cooperative op inside, so the branch is thread code that
// threads past the end of the batch do not enter.
// CHECK-LABEL: gpu.func @divergent_kernel(
// CHECK:         %[[VALID:.*]] = arith.cmpi ult
// CHECK:         %[[C:.*]] = arith.cmpf ogt
// CHECK-NEXT:    %[[R:.*]]:2 = scf.if %[[VALID]] -> (f32, f32) {
// CHECK-NEXT:      %[[IN:.*]]:2 = scf.if %[[C]] -> (f32, f32) {
// CHECK-NEXT:        arith.negf
// CHECK-NEXT:        arith.negf
// CHECK-NEXT:        scf.yield
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[IN]]#0, %[[IN]]#1 : f32, f32
// CHECK-NEXT:    } else {
// CHECK-NOT:     gpu.barrier
func.func @divergent(%x: !coopvec.vec<2, f32>, %s: f32) -> !coopvec.vec<2, f32> {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %c = arith.cmpf ogt, %e#0, %s : f32
  %r = scf.if %c -> !coopvec.vec<2, f32> {
    %n = "coopvec.neg"(%x) : (!coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
    scf.yield %n : !coopvec.vec<2, f32>
  } else {
    scf.yield %x : !coopvec.vec<2, f32>
  }
  return %r : !coopvec.vec<2, f32>
}

// -----

// Masked: a reduce_sum_accumulate inside (a subgroup reduction at a
// uniform offset needs every thread of the subgroup), so every thread goes
// through, and the workgroup votes whether anyone takes the branch: word
// reset by thread 0, set by the threads that take it, read by all, with
// barriers between.
// CHECK-LABEL: gpu.func @masked_kernel(
// CHECK:         %[[VALID:.*]] = arith.cmpi ult
// CHECK:         %[[C:.*]] = arith.cmpf ogt
// CHECK-NEXT:    %[[TAKES:.*]] = arith.andi %[[VALID]], %[[C]] : i1
// CHECK:         gpu.barrier
// CHECK-NEXT:    %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    scf.if %[[FIRST]] {
// CHECK:           memref.store %{{.*}}, %[[VOTE:.*]][%{{.*}}] : memref<1xi32, 3>
// CHECK:         gpu.barrier
// CHECK-NEXT:    scf.if %[[TAKES]] {
// CHECK:           memref.store %{{.*}}, %[[VOTE]][%{{.*}}] : memref<1xi32, 3>
// CHECK:         gpu.barrier
// CHECK:         %[[WORD:.*]] = memref.load %[[VOTE]][%{{.*}}] : memref<1xi32, 3>
// CHECK-NEXT:    %[[ANY:.*]] = arith.cmpi ne, %[[WORD]], %{{.*}} : i32
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    scf.if %[[ANY]] {
func.func @masked(%x: !coopvec.vec<2, f32>, %g: memref<?xf32>, %s: f32) -> !coopvec.vec<2, f32> {
  %c0 = arith.constant 0 : index
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %c = arith.cmpf ogt, %e#0, %s : f32
  scf.if %c {
    "coopvec.reduce_sum_accumulate"(%x, %g, %c0) : (!coopvec.vec<2, f32>, memref<?xf32>, index) -> ()
  }
  return %x : !coopvec.vec<2, f32>
}

// -----

// Weights at a uniform offset checked at run time (it depends on the
// loop's induction variable): the same load in every thread, masked to the
// elements inside the buffer, and the workgroup's sums of
// reduce_sum_accumulate (training=block) added under the mask's (uniform)
// bit of each element. Without checks, neither mask.
// CHECK-LABEL: gpu.func @weights_in_loop_kernel(
// CHECK:         scf.for
// CHECK:           %[[MASK:.*]] = vector.create_mask %{{.*}} : vector<2xi1>
// CHECK:           vector.maskedload %{{.*}}, %[[MASK]], %{{.*}} : memref<?xf32>, vector<2xi1>, vector<2xf32> into vector<2xf32>
// CHECK:           %[[GMASK:.*]] = vector.create_mask %{{.*}} : vector<2xi1>
// CHECK:           gpu.barrier
// CHECK:           scf.for %[[E:.*]] = %thread_id_x to %c2 step %c128 {
// CHECK:             %[[BIT:.*]] = vector.extract %[[GMASK]][%[[E]]] : i1 from vector<2xi1>
// CHECK-NEXT:        scf.if %[[BIT]] {
// CHECK:               memref.atomic_rmw addf
// UNCHECKED-LABEL: gpu.func @weights_in_loop_kernel(
// UNCHECKED-NOT:   vector.create_mask
// UNCHECKED:       vector.load
// UNCHECKED-NOT:   vector.create_mask
// UNCHECKED:       gpu.return
func.func @weights_in_loop(%x: !coopvec.vec<2, f32>, %w: memref<?xf32>, %g: memref<?xf32>, %n: index) -> !coopvec.vec<2, f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> !coopvec.vec<2, f32> {
    %off = arith.muli %i, %c2 : index
    %b = "coopvec.load"(%w, %off) : (memref<?xf32>, index) -> !coopvec.vec<2, f32>
    %y = "coopvec.add"(%acc, %b) : (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
    "coopvec.reduce_sum_accumulate"(%y, %g, %off) : (!coopvec.vec<2, f32>, memref<?xf32>, index) -> ()
    scf.yield %y : !coopvec.vec<2, f32>
  }
  return %r : !coopvec.vec<2, f32>
}

// -----

// A masked transfer at a per-thread offset is checked against its buffer
// from the first and the last set element of its (uniform) mask, found
// element by element at constant positions (no vector.step: neither
// SPIR-V nor NVVM converts an index vector).
// CHECK-LABEL: gpu.func @masked_at_thread_offset_kernel(
// CHECK-NOT:     vector.step
// CHECK:         %[[B0:.*]] = vector.extract %[[M:.*]][0] : i1 from vector<3xi1>
// CHECK-NEXT:    %[[L0:.*]] = arith.select %[[B0]], %c0, %c0 : index
// CHECK-NEXT:    %[[A0:.*]] = arith.ori %false, %[[B0]] : i1
// CHECK-NEXT:    %[[B1:.*]] = vector.extract %[[M]][1] : i1 from vector<3xi1>
// CHECK-NEXT:    %[[L1:.*]] = arith.select %[[B1]], %c1, %[[L0]] : index
// CHECK-NEXT:    %[[A1:.*]] = arith.ori %[[A0]], %[[B1]] : i1
// CHECK-NEXT:    %[[B2:.*]] = vector.extract %[[M]][2] : i1 from vector<3xi1>
// CHECK-NEXT:    %[[LAST:.*]] = arith.select %[[B2]], %c2, %[[L1]] : index
// CHECK-NEXT:    %[[ANY:.*]] = arith.ori %[[A1]], %[[B2]] : i1
// CHECK-NEXT:    %[[F2:.*]] = arith.select %[[B2]], %c2, %c3 : index
// CHECK-NEXT:    %[[F1:.*]] = arith.select %[[B1]], %c1, %[[F2]] : index
// CHECK-NEXT:    %[[FIRST:.*]] = arith.select %[[B0]], %c0, %[[F1]] : index
// CHECK-NEXT:    %[[AT_LAST:.*]] = arith.addi %[[OFF:.*]], %[[LAST]] : index
// CHECK-NEXT:    arith.cmpi ult, %[[AT_LAST]], %{{.*}} : index
// CHECK-NEXT:    %[[AT_FIRST:.*]] = arith.addi %[[OFF]], %[[FIRST]] : index
// CHECK-NEXT:    arith.cmpi ult, %[[AT_FIRST]], %{{.*}} : index
// CHECK:         arith.cmpi eq, %[[ANY]], %{{.*}} : i1
// UNCHECKED-LABEL: gpu.func @masked_at_thread_offset_kernel(
// UNCHECKED-NOT:   vector.extract %{{.*}}[0] : i1 from vector<3xi1>
func.func @masked_at_thread_offset(%x: !coopvec.vec<1, f32>, %b: memref<?xf32>) -> !coopvec.vec<3, f32> {
  %e = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> f32
  %i = arith.fptosi %e : f32 to i32
  %off = arith.index_cast %i : i32 to index
  %m = arith.constant dense<[false, true, true]> : vector<3xi1>
  %pad = arith.constant 0.0 : f32
  %v = "coopvec.masked_load"(%b, %off, %m, %pad) : (memref<?xf32>, index, vector<3xi1>, f32) -> !coopvec.vec<3, f32>
  return %v : !coopvec.vec<3, f32>
}
