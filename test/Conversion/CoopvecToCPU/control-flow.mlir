// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lanes=4})' %s | FileCheck %s

// Control flow on SIMD lanes (docs/execution-model.md, "Control flow"):
// varying control is masked (each branch runs when some lane of the group
// takes it, under the narrowed mask, its results merged with selects);
// uniform control is rebuilt as it is.

// A varying condition: then-mask = active & c, else-mask = active & !c;
// each branch is an scf.if on an OR of its mask, its results selected into
// the others'.
// CHECK-LABEL: func.func @branch_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %[[S:[^:]*]]: f32, %{{[^:]*}}: memref<?xf32>)
// CHECK-NEXT:    %[[SV:.*]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK:         %[[ACTIVE:.*]] = vector.create_mask
// CHECK:         %[[X0:.*]] = vector.load %{{.*}} : memref<2x4xf32>, vector<4xf32>
// CHECK-NEXT:    %[[X1:.*]] = vector.load %{{.*}} : memref<2x4xf32>, vector<4xf32>
// CHECK-NEXT:    %[[C:.*]] = arith.cmpf ogt, %[[X0]], %[[SV]] : vector<4xf32>
// CHECK-NEXT:    %[[Z0:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK-NEXT:    %[[Z1:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK-NEXT:    %[[THEN:.*]] = arith.andi %[[ACTIVE]], %[[C]] : vector<4xi1>
// CHECK-NEXT:    %[[TRUE:.*]] = arith.constant dense<true> : vector<4xi1>
// CHECK-NEXT:    %[[NOTC:.*]] = arith.xori %[[C]], %[[TRUE]] : vector<4xi1>
// CHECK-NEXT:    %[[ELSE:.*]] = arith.andi %[[ACTIVE]], %[[NOTC]] : vector<4xi1>
// CHECK-NEXT:    %[[ANY:.*]] = vector.reduction <or>, %[[THEN]] : vector<4xi1> into i1
// CHECK-NEXT:    %[[R:.*]]:2 = scf.if %[[ANY]] -> (vector<4xf32>, vector<4xf32>) {
// CHECK-NEXT:      %[[N0:.*]] = arith.negf %[[X0]] : vector<4xf32>
// CHECK-NEXT:      %[[N1:.*]] = arith.negf %[[X1]] : vector<4xf32>
// CHECK-NEXT:      %[[S0:.*]] = arith.select %[[THEN]], %[[N0]], %[[Z0]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:      %[[S1:.*]] = arith.select %[[THEN]], %[[N1]], %[[Z1]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:      scf.yield %[[S0]], %[[S1]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[Z0]], %[[Z1]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[ANY2:.*]] = vector.reduction <or>, %[[ELSE]] : vector<4xi1> into i1
// CHECK-NEXT:    %[[R2:.*]]:2 = scf.if %[[ANY2]] -> (vector<4xf32>, vector<4xf32>) {
// CHECK-NEXT:      %[[T0:.*]] = arith.select %[[ELSE]], %[[X0]], %[[R]]#0 : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:      %[[T1:.*]] = arith.select %[[ELSE]], %[[X1]], %[[R]]#1 : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:      scf.yield %[[T0]], %[[T1]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[R]]#0, %[[R]]#1
// CHECK-NEXT:    }
// CHECK-NEXT:    vector.store %[[R2]]#0
func.func @branch(%x: !coopvec.vec<2, f32>, %s: f32) -> !coopvec.vec<2, f32> {
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

// A uniform condition: the same scf.if, on the lowered values.
// CHECK-LABEL: func.func @uniform_branch_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %[[C:[^:]*]]: i1, %{{[^:]*}}: memref<?xf32>)
// CHECK:         %[[X0:.*]] = vector.load %{{.*}} : memref<2x4xf32>, vector<4xf32>
// CHECK-NEXT:    %[[X1:.*]] = vector.load %{{.*}} : memref<2x4xf32>, vector<4xf32>
// CHECK-NEXT:    %[[R:.*]]:2 = scf.if %[[C]] -> (vector<4xf32>, vector<4xf32>) {
// CHECK-NEXT:      %[[N0:.*]] = arith.negf %[[X0]] : vector<4xf32>
// CHECK-NEXT:      %[[N1:.*]] = arith.negf %[[X1]] : vector<4xf32>
// CHECK-NEXT:      scf.yield %[[N0]], %[[N1]] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[X0]], %[[X1]] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT:    }
func.func @uniform_branch(%x: !coopvec.vec<2, f32>, %c: i1) -> !coopvec.vec<2, f32> {
  %r = scf.if %c -> !coopvec.vec<2, f32> {
    %n = "coopvec.neg"(%x) : (!coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
    scf.yield %n : !coopvec.vec<2, f32>
  } else {
    scf.yield %x : !coopvec.vec<2, f32>
  }
  return %r : !coopvec.vec<2, f32>
}

// -----

// A varying trip count (an i32 loop): each lane's count, ceil((ub - lb) /
// step) without overflow (0 for inactive lanes), then a loop while some
// lane has more; in iteration k the lanes with k < count are active, and
// the others keep their values. The induction variable is uniform (lb and
// step are).
// CHECK-LABEL: func.func @loop_batched(
// CHECK:         %[[ACTIVE:.*]] = vector.create_mask
// CHECK:         arith.fptosi
// CHECK:         %[[LB:.*]] = vector.broadcast %[[C0I:.*]] : i32 to vector<4xi32>
// CHECK:         %[[STEP:.*]] = vector.broadcast %[[C1I:.*]] : i32 to vector<4xi32>
// CHECK:         %[[POS:.*]] = arith.cmpi sgt, %[[STEP]], %{{.*}} : vector<4xi32>
// CHECK-NEXT:    %[[MORE:.*]] = arith.cmpi sgt, %[[N:.*]], %[[LB]] : vector<4xi32>
// CHECK-NEXT:    %[[RUNS:.*]] = arith.andi %[[MORE]], %[[POS]] : vector<4xi1>
// CHECK-NEXT:    %[[SPAN:.*]] = arith.subi %[[N]], %[[LB]] : vector<4xi32>
// CHECK:         arith.divui
// CHECK:         %[[TRIPS:.*]] = arith.index_castui %{{.*}} : vector<4xi32> to vector<4xindex>
// CHECK-NEXT:    %[[COUNT:.*]] = arith.select %[[ACTIVE]], %[[TRIPS]], %{{.*}} : vector<4xi1>, vector<4xindex>
// CHECK-NEXT:    %[[L:.*]]:4 = scf.while (%[[K:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (index, vector<4xf32>, vector<4xf32>) -> (index, vector<4xi1>, vector<4xf32>, vector<4xf32>) {
// CHECK-NEXT:      %[[KV:.*]] = vector.broadcast %[[K]] : index to vector<4xindex>
// CHECK-NEXT:      %[[M:.*]] = arith.cmpi ult, %[[KV]], %[[COUNT]] : vector<4xindex>
// CHECK-NEXT:      %[[ANY:.*]] = vector.reduction <or>, %[[M]] : vector<4xi1> into i1
// CHECK-NEXT:      scf.condition(%[[ANY]]) %[[K]], %[[M]], %{{.*}}, %{{.*}} : index, vector<4xi1>, vector<4xf32>, vector<4xf32>
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%[[K:.*]]: index, %[[M:.*]]: vector<4xi1>, %[[V0:.*]]: vector<4xf32>, %[[V1:.*]]: vector<4xf32>):
// CHECK:           %[[IV:.*]] = arith.index_castui %[[K]] : index to i32
// CHECK:           %[[W0:.*]] = arith.addf %[[V0]], %[[V0]] : vector<4xf32>
// CHECK-NEXT:      %[[W1:.*]] = arith.addf %[[V1]], %[[V1]] : vector<4xf32>
// CHECK-NEXT:      %[[Y0:.*]] = arith.select %[[M]], %[[W0]], %[[V0]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:      %[[Y1:.*]] = arith.select %[[M]], %[[W1]], %[[V1]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:      %[[NEXT:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK-NEXT:      scf.yield %[[NEXT]], %[[Y0]], %[[Y1]] : index, vector<4xf32>, vector<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    vector.store %[[L]]#2
func.func @loop(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %n = arith.fptosi %e#0 : f32 to i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x) -> !coopvec.vec<2, f32> : i32 {
    %w = "coopvec.add"(%v, %v) : (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
    scf.yield %w : !coopvec.vec<2, f32>
  }
  return %r : !coopvec.vec<2, f32>
}

// -----

// A uniform loop whose step is not the constant 1 counts its iterations:
// ceil((ub - lb) / step), none when step <= 0 (docs/dialect.md).
// CHECK-LABEL: func.func @uniform_loop_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %[[N:[^:]*]]: index, %[[S:[^:]*]]: index, %{{[^:]*}}: memref<?xf32>)
// CHECK:         %[[POS:.*]] = arith.cmpi sgt, %[[S]], %{{.*}} : index
// CHECK:         arith.divui
// CHECK:         %[[COUNT:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    scf.for %[[K:.*]] = %{{.*}} to %[[COUNT]] step %{{.*}} iter_args(
// CHECK-NEXT:      %[[KS:.*]] = arith.muli %[[K]], %[[S]] : index
// CHECK-NEXT:      arith.addi %{{.*}}, %[[KS]] : index
func.func @uniform_loop(%x: !coopvec.vec<1, f32>, %n: index, %s: index) -> !coopvec.vec<1, f32> {
  %c0 = arith.constant 0 : index
  %r = scf.for %i = %c0 to %n step %s iter_args(%v = %x) -> !coopvec.vec<1, f32> {
    %w = "coopvec.add"(%v, %v) : (!coopvec.vec<1, f32>, !coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
    scf.yield %w : !coopvec.vec<1, f32>
  }
  return %r : !coopvec.vec<1, f32>
}

// -----

// scf.while with a varying condition: the lanes still looping are carried
// as a mask; a lane whose condition fails takes its results then.
// CHECK-LABEL: func.func @early_exit_batched(
// CHECK:         %[[ACTIVE:.*]] = vector.create_mask
// CHECK:         %[[W:.*]]:3 = scf.while (%[[M:.*]] = %[[ACTIVE]], %[[T:.*]] = %{{.*}}, %[[RES:.*]] = %{{.*}}) : (vector<4xi1>, vector<4xf32>, vector<4xf32>) -> (vector<4xi1>, vector<4xf32>, vector<4xf32>) {
// CHECK-NEXT:      %[[C:.*]] = arith.cmpf ogt, %[[T]], %{{.*}} : vector<4xf32>
// CHECK-NEXT:      %[[STAYS:.*]] = arith.andi %[[M]], %[[C]] : vector<4xi1>
// CHECK-NEXT:      %[[TRUE:.*]] = arith.constant dense<true> : vector<4xi1>
// CHECK-NEXT:      %[[NOTC:.*]] = arith.xori %[[C]], %[[TRUE]] : vector<4xi1>
// CHECK-NEXT:      %[[LEAVES:.*]] = arith.andi %[[M]], %[[NOTC]] : vector<4xi1>
// CHECK-NEXT:      %[[NEW:.*]] = arith.select %[[LEAVES]], %[[T]], %[[RES]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:      %[[ANY:.*]] = vector.reduction <or>, %[[STAYS]] : vector<4xi1> into i1
// CHECK-NEXT:      scf.condition(%[[ANY]]) %[[STAYS]], %[[T]], %[[NEW]]
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%[[M:.*]]: vector<4xi1>, %[[T:.*]]: vector<4xf32>, %[[RES:.*]]: vector<4xf32>):
// CHECK-NEXT:      %[[U:.*]] = arith.mulf %[[T]], %{{.*}} : vector<4xf32>
// CHECK-NEXT:      scf.yield %[[M]], %[[U]], %[[RES]]
// CHECK-NEXT:    }
// CHECK-NEXT:    vector.store %[[W]]#2
func.func @early_exit(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %r = scf.while (%t = %e#0) : (f32) -> f32 {
    %c = arith.cmpf ogt, %t, %one : f32
    scf.condition(%c) %t : f32
  } do {
  ^bb0(%t: f32):
    %u = arith.mulf %t, %half : f32
    scf.yield %u : f32
  }
  %v = "coopvec.splat"(%r) : (f32) -> !coopvec.vec<2, f32>
  return %v : !coopvec.vec<2, f32>
}

// -----

// scf.index_switch on a varying selector: each case for the lanes equal to
// its value, the default for the lanes no case matched.
// CHECK-LABEL: func.func @switch_batched(
// CHECK:         %[[ACTIVE:.*]] = vector.create_mask
// CHECK:         %[[SEL:.*]] = arith.index_cast %{{.*}} : vector<4xi32> to vector<4xindex>
// CHECK:         %[[NONE:.*]] = arith.constant dense<false> : vector<4xi1>
// CHECK-NEXT:    %[[C1:.*]] = arith.constant dense<1> : vector<4xindex>
// CHECK-NEXT:    %[[IS1:.*]] = arith.cmpi eq, %[[SEL]], %[[C1]] : vector<4xindex>
// CHECK-NEXT:    %[[SEEN:.*]] = arith.ori %[[NONE]], %[[IS1]] : vector<4xi1>
// CHECK-NEXT:    %[[M1:.*]] = arith.andi %[[ACTIVE]], %[[IS1]] : vector<4xi1>
// CHECK-NEXT:    vector.reduction <or>, %[[M1]]
// CHECK:         %[[C5:.*]] = arith.constant dense<5> : vector<4xindex>
// CHECK-NEXT:    %[[IS5:.*]] = arith.cmpi eq, %[[SEL]], %[[C5]] : vector<4xindex>
// CHECK-NEXT:    %[[SEEN5:.*]] = arith.ori %[[SEEN]], %[[IS5]] : vector<4xi1>
// CHECK:         %[[NOT:.*]] = arith.xori %[[SEEN5]], %{{.*}} : vector<4xi1>
// CHECK-NEXT:    %[[MD:.*]] = arith.andi %[[ACTIVE]], %[[NOT]] : vector<4xi1>
// CHECK-NEXT:    vector.reduction <or>, %[[MD]]
func.func @switch(%x: !coopvec.vec<1, f32>) -> !coopvec.vec<1, f32> {
  %e:1 = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> (f32)
  %i = arith.fptosi %e#0 : f32 to i32
  %s = arith.index_cast %i : i32 to index
  %r = scf.index_switch %s -> !coopvec.vec<1, f32>
  case 1 {
    %n = "coopvec.neg"(%x) : (!coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
    scf.yield %n : !coopvec.vec<1, f32>
  }
  case 5 {
    %d = "coopvec.add"(%x, %x) : (!coopvec.vec<1, f32>, !coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
    scf.yield %d : !coopvec.vec<1, f32>
  }
  default {
    scf.yield %x : !coopvec.vec<1, f32>
  }
  return %r : !coopvec.vec<1, f32>
}

// -----

// Weights at a uniform offset the engine cannot check before the run (it
// depends on the loop's induction variable): one test per op and group,
// not per lane. The load stays one vector load, masked to the elements
// inside the buffer; reduce_sum_accumulate adds only those.
// CHECK-LABEL: func.func @weights_in_loop_batched(
// CHECK:         %[[DIM:.*]] = memref.dim %{{.*}}, %c0 : memref<?xf32>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(
// CHECK-NEXT:      %[[OFF:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK:           scf.if
// CHECK:             memref.atomic_rmw addi
// CHECK:           %[[STARTS:.*]] = arith.cmpi ult, %[[OFF]], %[[DIM]] : index
// CHECK-NEXT:      %[[LEFT:.*]] = arith.subi %[[DIM]], %[[OFF]] : index
// CHECK-NEXT:      %[[N:.*]] = arith.select %[[STARTS]], %[[LEFT]], %c0 : index
// CHECK-NEXT:      %[[MASK:.*]] = vector.create_mask %[[N]] : vector<2xi1>
// CHECK:           vector.maskedload %{{.*}}[%[[OFF]]], %[[MASK]], %{{.*}} : memref<?xf32>, vector<2xi1>, vector<2xf32> into vector<2xf32>
// CHECK-NOT:       vector.gather
// CHECK:           %[[GMASK:.*]] = vector.create_mask %{{.*}} : vector<2xi1>
// CHECK:           scf.for %[[E:.*]] =
// CHECK:             %[[BIT:.*]] = vector.extract %[[GMASK]][%[[E]]] : i1 from vector<2xi1>
// CHECK-NEXT:        scf.if %[[BIT]] {
// CHECK-NEXT:          memref.atomic_rmw addf
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

// The same, with a vec of 40 elements (a tile): the element loop reads
// each element by itself, a one-lane maskedload enabled while the element
// is inside the buffer (element < size - offset), not a dynamic extract
// from a vector<40xf32> loaded at once.
// CHECK-LABEL: func.func @tiled_weights_in_loop_batched(
// CHECK:         %[[DIM:.*]] = memref.dim %{{.*}}, %c0 : memref<?xf32>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(
// CHECK-NEXT:      %[[OFF:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK:           %[[STARTS:.*]] = arith.cmpi ult, %[[OFF]], %[[DIM]] : index
// CHECK-NEXT:      %[[LEFT:.*]] = arith.subi %[[DIM]], %[[OFF]] : index
// CHECK-NEXT:      %[[N:.*]] = arith.select %[[STARTS]], %[[LEFT]], %c0 : index
// CHECK-NOT:       vector.load %arg2
// CHECK:           scf.for %[[E:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[AT:.*]] = arith.addi %[[OFF]], %[[E]] : index
// CHECK-NEXT:        %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<1xf32>
// CHECK-NEXT:        %[[IN:.*]] = arith.cmpi ult, %[[E]], %[[N]] : index
// CHECK-NEXT:        %[[M1:.*]] = vector.broadcast %[[IN]] : i1 to vector<1xi1>
// CHECK-NEXT:        %[[L:.*]] = vector.maskedload %{{.*}}[%[[AT]]], %[[M1]], %[[ZERO]] : memref<?xf32>, vector<1xi1>, vector<1xf32> into vector<1xf32>
// CHECK-NEXT:        vector.extract %[[L]][0] : f32 from vector<1xf32>
func.func @tiled_weights_in_loop(%x: !coopvec.vec<40, f32>, %w: memref<?xf32>, %n: index) -> !coopvec.vec<40, f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c40 = arith.constant 40 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> !coopvec.vec<40, f32> {
    %off = arith.muli %i, %c40 : index
    %b = "coopvec.load"(%w, %off) : (memref<?xf32>, index) -> !coopvec.vec<40, f32>
    %y = "coopvec.add"(%acc, %b) : (!coopvec.vec<40, f32>, !coopvec.vec<40, f32>) -> !coopvec.vec<40, f32>
    scf.yield %y : !coopvec.vec<40, f32>
  }
  return %r : !coopvec.vec<40, f32>
}
