// convert-coopvec-to-cpu{lane-refill=...} (LaneRefill.c): a prologue, one
// scf.while with a varying condition and an epilogue run on persistent
// lanes; other shapes keep the group loop. Execution:
// test/Integration/CPU/lane-refill.mlir.
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lanes=4 lane-refill=true})' %s | FileCheck %s --check-prefix=ON
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lanes=4 lane-refill=true})' %s | FileCheck %s --check-prefix=LANES
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lanes=4 lane-refill=false})' %s | FileCheck %s --check-prefix=OFF
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lanes=4})' %s | FileCheck %s --check-prefix=AUTO
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(coopvec-lower-to-cpu{target-cpu=x86-64 lanes=4 lane-refill=true})' %s | FileCheck %s --check-prefix=PIPELINE
// A value that is not a choice: an error at the module, exit 1.
// RUN: not coopvec-opt --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lane-refill=sometimes})' %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not coopvec-opt --pass-pipeline='builtin.module(coopvec-lower-to-cpu{lane-refill=})' %s 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: coopvec-opt --help | FileCheck %s --check-prefix=HELP

// BAD: error: convert-coopvec-to-cpu: lane-refill=sometimes is not a choice; use true, false or auto
// EMPTY: error: convert-coopvec-to-cpu: lane-refill= is not a choice; use true, false or auto
// HELP: lane-refill=<string> (default: auto) - persistent lanes {{.*}} true {{.*}} false {{.*}} auto

// The shape: the group loop is gone; the bias load is hoisted before the
// lanes' loops; the results of the lanes that finish are staged in tiles
// (their threads in a memref<4xindex>) and written to their rows by a loop
// over those lanes (the lanes' bits, cttz: LaneLoop.c); the next threads
// are a prefix count of the free lanes, and a loop over the lanes that
// take one reads their rows (thread next + rank) into a zeroed tile.
// ON-LABEL: func.func @march_batched(
// ON-SAME:      %[[N:.*]]: index, %[[X:.*]]: memref<?xf32>, %[[W:.*]]: memref<?xf32>, %[[Y:.*]]: memref<?xf32>
// ON:         %[[IDS:.*]] = memref.alloca() {alignment = 64 : i64} : memref<4xindex>
// ON:         %[[OUT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<16xf32>
// ON:         %[[IN:.*]] = memref.alloca() {alignment = 64 : i64} : memref<16xf32>
// ON:         vector.store %[[ZERO:.*]], %[[IN]][%{{.*}}] : memref<16xf32>, vector<4xf32>
// ON:         vector.load %[[W]]
// ON:         scf.while ({{.*}}) : (vector<4xindex>, vector<4xi1>, index,
// ON:           scf.while ({{.*}}) : (vector<4xindex>, vector<4xi1>, vector<4xi1>, index,
// ON:             scf.if
// ON:               vector.store %{{.*}}, %[[IDS]][%{{.*}}] : memref<4xindex>, vector<4xindex>
// ON:               vector.store %{{.*}}, %[[OUT]][%{{.*}}] : memref<16xf32>, vector<4xf32>
// ON:               %[[LEAVING:.*]] = vector.bitcast %{{.*}} : vector<4xi1> to vector<1xi4>
// ON:               scf.while
// ON:                 arith.cmpi ne
// ON:               } do {
// ON:                 %[[LANE:.*]] = math.cttz %{{.*}} : i4
// ON:                 %[[L:.*]] = arith.index_castui %[[LANE]] : i4 to index
// ON:                 memref.load %[[IDS]][%[[L]]] : memref<4xindex>
// ON:                 memref.load %[[OUT]]
// ON:                 memref.store %{{.*}}, %[[Y]][%{{.*}}] : memref<?xf32>
// ON:             vector.shuffle
// ON:             %[[NEXT:.*]] = arith.minsi {{.*}}, %[[N]] : index
// ON:             scf.if {{.*}} -> (
// ON:               vector.bitcast %{{.*}} : vector<4xi1> to vector<1xi4>
// ON:               scf.while
// ON:               } do {
// ON:               ^bb0(%[[BITS:.*]]: i4, %[[RANK:.*]]: index):
// ON:                 math.cttz %[[BITS]] : i4
// ON:                 arith.addi %{{.*}}, %[[RANK]] : index
// ON:                 memref.load %[[X]]
// ON:                 memref.store %{{.*}}, %[[IN]]
// ON:               vector.load %[[IN]]
// ON:             scf.condition
// ON:           scf.condition
// ON:         } do {
// ON:           scf.for
// ON:           scf.yield
// ON:         return
// No masked gather or scatter anywhere in the function:
// LANES-LABEL: func.func @march_batched(
// LANES-NOT:     vector.gather
// LANES-NOT:     vector.scatter
// LANES:         return
// OFF-LABEL: func.func @march_batched(
// OFF:         scf.for
// OFF-NOT:     vector.shuffle {{.*}} : vector<4xi32>, vector<4xi32>
// AUTO-LABEL: func.func @march_batched(
// AUTO-NOT:    scf.for
// AUTO:        math.cttz
// PIPELINE-LABEL: llvm.func @march_batched(
// PIPELINE:       llvm.intr.cttz
// PIPELINE:       llvm.intr.cttz
func.func @march(%x: !coopvec.vec<4, f32>, %w: memref<?xf32>) -> !coopvec.vec<4, f32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : index
  %ten = arith.constant 10.0 : f32
  %W = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<4, 4, f32, "row_major">
  %b = "coopvec.load"(%w, %c16) : (memref<?xf32>, index) -> !coopvec.vec<4, f32>
  %e:4 = "coopvec.unpack"(%x) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  %nf = arith.mulf %e#0, %ten : f32
  %n = arith.fptosi %nf : f32 to i32
  %r:2 = scf.while (%i = %c0, %h = %x) : (i32, !coopvec.vec<4, f32>) -> (i32, !coopvec.vec<4, f32>) {
    %more = arith.cmpi slt, %i, %n : i32
    scf.condition(%more) %i, %h : i32, !coopvec.vec<4, f32>
  } do {
  ^bb0(%i: i32, %h: !coopvec.vec<4, f32>):
    %y = "coopvec.matvec"(%W, %h, %b) : (!coopvec.matrix<4, 4, f32, "row_major">, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
    %i2 = arith.addi %i, %c1 : i32
    scf.yield %i2, %y : i32, !coopvec.vec<4, f32>
  }
  %s = arith.sitofp %r#0 : i32 to f32
  %out = "coopvec.mul"(%r#1, %s) : (!coopvec.vec<4, f32>, f32) -> !coopvec.vec<4, f32>
  return %out : !coopvec.vec<4, f32>
}

// -----

// No matvec in the loop: auto keeps the group loop, true refills.
// ON-NOT:     scf.for
// ON:         math.cttz
// AUTO-LABEL: func.func @count_batched(
// AUTO:        scf.for
// AUTO-NOT:    vector.shuffle {{.*}} : vector<4xi32>, vector<4xi32>
func.func @count(%x: !coopvec.vec<1, f32>) -> !coopvec.vec<1, f32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %e = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> f32
  %n = arith.fptosi %e : f32 to i32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %more = arith.cmpi slt, %i, %n : i32
    scf.condition(%more) %i : i32
  } do {
  ^bb0(%i: i32):
    %i2 = arith.addi %i, %c1 : i32
    scf.yield %i2 : i32
  }
  %f = arith.sitofp %r : i32 to f32
  %v = "coopvec.from_elements"(%f) : (f32) -> !coopvec.vec<1, f32>
  return %v : !coopvec.vec<1, f32>
}

// -----

// Shapes that do not fit keep the group loop even under true: a
// coopvec.store (the highest thread's store wins, an order refill would
// change), two loops, a store before the loop.
// ON-LABEL: func.func @stores_batched(
// ON:         scf.for
// ON-NOT:     vector.shuffle {{.*}} : vector<4xi32>, vector<4xi32>
// ON-LABEL: func.func @two_loops_batched(
// ON:         scf.for
// ON-NOT:     vector.shuffle {{.*}} : vector<4xi32>, vector<4xi32>
// ON-LABEL: func.func @writes_first_batched(
// ON:         scf.for
// ON-NOT:     vector.shuffle {{.*}} : vector<4xi32>, vector<4xi32>
func.func @stores(%x: !coopvec.vec<1, f32>, %o: memref<?xf32>) -> !coopvec.vec<1, f32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant 0 : index
  %e = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> f32
  %n = arith.fptosi %e : f32 to i32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %more = arith.cmpi slt, %i, %n : i32
    scf.condition(%more) %i : i32
  } do {
  ^bb0(%i: i32):
    %i2 = arith.addi %i, %c1 : i32
    scf.yield %i2 : i32
  }
  "coopvec.store"(%x, %o, %z) : (!coopvec.vec<1, f32>, memref<?xf32>, index) -> ()
  return %x : !coopvec.vec<1, f32>
}
func.func @two_loops(%x: !coopvec.vec<1, f32>) -> !coopvec.vec<1, f32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %e = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> f32
  %n = arith.fptosi %e : f32 to i32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %more = arith.cmpi slt, %i, %n : i32
    scf.condition(%more) %i : i32
  } do {
  ^bb0(%i: i32):
    %i2 = arith.addi %i, %c1 : i32
    scf.yield %i2 : i32
  }
  %r2 = scf.while (%i = %r) : (i32) -> i32 {
    %more = arith.cmpi slt, %i, %n : i32
    scf.condition(%more) %i : i32
  } do {
  ^bb0(%i: i32):
    %i2 = arith.addi %i, %c1 : i32
    scf.yield %i2 : i32
  }
  %f = arith.sitofp %r2 : i32 to f32
  %v = "coopvec.from_elements"(%f) : (f32) -> !coopvec.vec<1, f32>
  return %v : !coopvec.vec<1, f32>
}
func.func @writes_first(%x: !coopvec.vec<1, f32>, %o: memref<?xf32>) -> !coopvec.vec<1, f32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %e = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> f32
  %n = arith.fptosi %e : f32 to i32
  %ni = arith.index_cast %n : i32 to index
  memref.store %e, %o[%ni] : memref<?xf32>
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %more = arith.cmpi slt, %i, %n : i32
    scf.condition(%more) %i : i32
  } do {
  ^bb0(%i: i32):
    %i2 = arith.addi %i, %c1 : i32
    scf.yield %i2 : i32
  }
  %f = arith.sitofp %r : i32 to f32
  %v = "coopvec.from_elements"(%f) : (f32) -> !coopvec.vec<1, f32>
  return %v : !coopvec.vec<1, f32>
}
