// Consecutive elementwise ops on tiled vecs (more than 16 elements on the
// CPU) share one element loop (lib/Conversion/PerThread/ElementLoopFusion.c,
// docs/execution-model.md "Element loops"): a later op reads an earlier
// op's row as an SSA value, and a row no op outside the loop reads is not
// stored. Loads, matvecs and different element counts start a new loop.
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lanes=4})' %s | FileCheck %s

// The derivative of a ReLU as coopvec-autodiff writes it: six ops, one loop,
// one store (in place, into %dy's tile). The scalar constants between the
// ops are broadcast before the loop, which moves below them.
// CHECK-LABEL: func.func @relu_derivative_batched
// CHECK:      arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[HALF:.*]] = vector.broadcast %{{.*}} : f32 to vector<4xf32>
// CHECK-NEXT: scf.for %[[I:.*]] = %c0 to %c32 step %c1 {
// CHECK-NEXT:   %[[X:.*]] = vector.load %[[XT:.*]][%[[I]], %c0]
// CHECK-NEXT:   %[[M:.*]] = arith.maxnumf %[[X]], %{{.*}} : vector<4xf32>
// CHECK-NOT:    vector.store
// CHECK:        arith.cmpf olt, %[[M]], %{{.*}} : vector<4xf32>
// CHECK-NOT:    vector.store
// CHECK:        arith.cmpf olt, %{{.*}}, %[[M]] : vector<4xf32>
// CHECK-NEXT:   %[[S1:.*]] = arith.select
// CHECK-NEXT:   %[[D:.*]] = arith.subf %{{.*}}, %[[S1]] : vector<4xf32>
// CHECK-NEXT:   %[[W:.*]] = math.fma %[[D]], %[[HALF]], %[[HALF]] : vector<4xf32>
// CHECK-NEXT:   %[[DY:.*]] = vector.load %[[DYT:.*]][%[[I]], %c0]
// CHECK-NEXT:   %[[R:.*]] = arith.mulf %[[DY]], %[[W]] : vector<4xf32>
// CHECK-NEXT:   vector.store %[[R]], %[[DYT]][%[[I]], %c0]
// CHECK-NEXT: } {llvm.loop_annotation
// CHECK-NOT:  arith.maxnumf
func.func @relu_derivative(%x: !coopvec.vec<32, f32>, %dy: !coopvec.vec<32, f32>) -> !coopvec.vec<32, f32> {
  %ninf = arith.constant 0xFF800000 : f32
  %m = "coopvec.max"(%x, %ninf) : (!coopvec.vec<32, f32>, f32) -> !coopvec.vec<32, f32>
  %zero = arith.constant 0.0 : f32
  %z = "coopvec.splat"(%zero) : (f32) -> !coopvec.vec<32, f32>
  %s0 = "coopvec.step"(%m, %z) : (!coopvec.vec<32, f32>, !coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
  %s1 = "coopvec.step"(%z, %m) : (!coopvec.vec<32, f32>, !coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
  %half = arith.constant 0.5 : f32
  %d = "coopvec.sub"(%s0, %s1) : (!coopvec.vec<32, f32>, !coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
  %w = "coopvec.fma"(%d, %half, %half) : (!coopvec.vec<32, f32>, f32, f32) -> !coopvec.vec<32, f32>
  %r = "coopvec.mul"(%dy, %w) : (!coopvec.vec<32, f32>, !coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
  return %r : !coopvec.vec<32, f32>
}

// -----

// A value returned (read after the loop) keeps its store; the product only
// the rounding cast reads does not. The rounding cast joins the loop; the
// widening one shares the tile and emits nothing.
// CHECK-LABEL: func.func @kept_batched
// CHECK:        %[[X:.*]] = vector.load %[[XT:.*]][%[[I:.*]], %c0] : memref<32x4xf32>
// CHECK-NEXT:   %[[Y:.*]] = vector.load %[[YT:.*]][%[[I]], %c0]
// CHECK-NEXT:   %[[A:.*]] = arith.addf %[[X]], %[[Y]] : vector<4xf32>
// CHECK-NEXT:   vector.store %[[A]], %[[XT]][%[[I]], %c0]
// CHECK-NEXT:   %[[B:.*]] = arith.mulf %[[A]], %[[A]] : vector<4xf32>
// CHECK-NEXT:   %[[H:.*]] = arith.truncf %[[B]] : vector<4xf32> to vector<4xf16>
// CHECK-NEXT:   %[[C:.*]] = arith.extf %[[H]] : vector<4xf16> to vector<4xf32>
// CHECK-NEXT:   vector.store %[[C]], %[[YT]][%[[I]], %c0]
// CHECK-NEXT: } {llvm.loop_annotation
func.func @kept(%x: !coopvec.vec<32, f32>, %y: !coopvec.vec<32, f32>) -> (!coopvec.vec<32, f32>, !coopvec.vec<32, f32>) {
  %a = "coopvec.add"(%x, %y) : (!coopvec.vec<32, f32>, !coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
  %b = "coopvec.mul"(%a, %a) : (!coopvec.vec<32, f32>, !coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
  %c = "coopvec.cast"(%b) : (!coopvec.vec<32, f32>) -> !coopvec.vec<32, f16>
  %d = "coopvec.cast"(%c) : (!coopvec.vec<32, f16>) -> !coopvec.vec<32, f32>
  return %a, %d : !coopvec.vec<32, f32>, !coopvec.vec<32, f32>
}

// -----

// A uniform load and a matvec end the chain: the product is stored for the
// add after the load, the sum for the matvec and for the add after it; the
// neg and that add share the loop after the matvec.
// CHECK-LABEL: func.func @broken_batched
// CHECK:      scf.for %[[I:.*]] = %c0 to %c32 step %c1 {
// CHECK:        %[[P:.*]] = arith.mulf
// CHECK-NEXT:   vector.store %[[P]], %[[PT:.*]][%[[I]], %c0]
// CHECK-NEXT: } {llvm.loop_annotation
// CHECK-NEXT: %c0_{{.*}} = arith.constant 0 : index
// CHECK-NEXT: scf.for %[[J:.*]] = %c0 to %c32 step %c1 {
// CHECK:        memref.load
// CHECK:        vector.store %{{.*}}, %[[LT:.*]][%[[J]], %c0]
// CHECK-NEXT: } {llvm.loop_annotation
// CHECK-NEXT: scf.for %[[K:.*]] = %c0 to %c32 step %c1 {
// CHECK-NEXT:   vector.load %[[PT]][%[[K]], %c0]
// CHECK-NEXT:   vector.load %[[LT]][%[[K]], %c0]
// CHECK-NEXT:   %[[S:.*]] = arith.addf
// CHECK-NEXT:   vector.store %[[S]], %[[ST:.*]][%[[K]], %c0]
// CHECK-NEXT: } {llvm.loop_annotation
// CHECK:        %[[N:.*]] = arith.negf %{{.*}} : vector<4xf32>
// CHECK-NEXT:   %[[B:.*]] = vector.load %[[ST]][%{{.*}}, %c0]
// CHECK-NEXT:   %[[R:.*]] = arith.addf %[[N]], %[[B]]
// CHECK-NEXT:   vector.store %[[R]]
// CHECK-NEXT: } {llvm.loop_annotation
func.func @broken(%x: !coopvec.vec<32, f32>, %w: memref<?xf32>) -> !coopvec.vec<32, f32> {
  %a = "coopvec.mul"(%x, %x) : (!coopvec.vec<32, f32>, !coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
  %c0 = arith.constant 0 : index
  %l = "coopvec.load"(%w, %c0) : (memref<?xf32>, index) -> !coopvec.vec<32, f32>
  %b = "coopvec.add"(%a, %l) : (!coopvec.vec<32, f32>, !coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
  %W = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<32, 32, f32, "row_major">
  %y = "coopvec.matvec"(%W, %b) : (!coopvec.matrix<32, 32, f32, "row_major">, !coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
  %c = "coopvec.neg"(%y) : (!coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
  %d = "coopvec.add"(%c, %b) : (!coopvec.vec<32, f32>, !coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
  return %d : !coopvec.vec<32, f32>
}

// -----

// Element counts differ: two loops.
// CHECK-LABEL: func.func @widths_batched
// CHECK:        vector.load %{{.*}} : memref<32x4xf32>, vector<4xf32>
// CHECK-NEXT:   arith.negf
// CHECK-NEXT:   vector.store
// CHECK-NEXT: } {llvm.loop_annotation
// CHECK-NEXT: scf.for %[[J:.*]] = %c0 to %c20 step %c1 {
// CHECK-NEXT:   vector.load
// CHECK-NEXT:   arith.negf
// CHECK-NEXT:   vector.store
// CHECK-NEXT: } {llvm.loop_annotation
func.func @widths(%x: !coopvec.vec<32, f32>, %z: !coopvec.vec<20, f32>) -> (!coopvec.vec<32, f32>, !coopvec.vec<20, f32>) {
  %a = "coopvec.neg"(%x) : (!coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
  %b = "coopvec.neg"(%z) : (!coopvec.vec<20, f32>) -> !coopvec.vec<20, f32>
  return %a, %b : !coopvec.vec<32, f32>, !coopvec.vec<20, f32>
}
