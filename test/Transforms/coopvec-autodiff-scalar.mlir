// RUN: coopvec-opt %s --split-input-file --pass-pipeline='builtin.module(coopvec-autodiff{func=f})' | FileCheck %s

// The rules of scalar arith / math (docs/autodiff.md, "Scalar rules") and
// of gathers. A per-thread scalar's adjoint is a scalar of its type;
// from_elements hands ȳ's elements to its operands, unpack collects them.
// Finite differences of every rule: test/CAPI/autodiff-general.c.

// divf q = a / b: ā += ȳ / b, b̄ -= (ȳ / b) q; subf: ā += ȳ, b̄ -= ȳ. q
// has two uses (subf and the result), whose adjoints are summed first.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<2 : i64, f32>, %[[DY:[a-z0-9]+]]: !coopvec.vec<2 : i64, f32>)
// CHECK-NEXT:    %[[E:.*]]:2 = "coopvec.unpack"(%[[X]])
// CHECK-NEXT:    %[[G:.*]]:2 = "coopvec.unpack"(%[[DY]])
// CHECK-NEXT:    %[[DQ:.*]] = arith.addf %[[G]]#1, %[[G]]#0 : f32
// CHECK-NEXT:    %[[DB1:.*]] = arith.negf %[[G]]#0 : f32
// CHECK-NEXT:    %[[DA:.*]] = arith.divf %[[DQ]], %[[E]]#1 : f32
// CHECK-NEXT:    %[[Q:.*]] = arith.divf %[[E]]#0, %[[E]]#1 : f32
// CHECK-NEXT:    %[[P:.*]] = arith.mulf %[[DA]], %[[Q]] : f32
// CHECK-NEXT:    %[[DB2:.*]] = arith.negf %[[P]] : f32
// CHECK-NEXT:    %[[DB:.*]] = arith.addf %[[DB1]], %[[DB2]] : f32
// CHECK-NEXT:    %[[DX:.*]] = "coopvec.from_elements"(%[[DA]], %[[DB]])
// CHECK-NEXT:    return %[[DX]]
func.func @f(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %d = arith.divf %e#0, %e#1 : f32
  %s = arith.subf %d, %e#1 : f32
  %y = "coopvec.from_elements"(%s, %d) : (f32, f32) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

// -----

// f16: each rule computes in f32 (operands and ȳ widened exactly) and
// rounds each contribution to f16 once. maxnumf: the weight of a is 1, 0
// or 1/2 (a tie), NaN made to lose (-inf); b gets ȳ - ȳ w. sin: ȳ cos a.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<2 : i64, f16>, %[[DY:[a-z0-9]+]]: !coopvec.vec<1 : i64, f16>)
// CHECK-NEXT:    %[[E:.*]]:2 = "coopvec.unpack"(%[[X]])
// CHECK-NEXT:    %[[S:.*]] = math.sin %[[E]]#0 : f16
// CHECK-NEXT:    %[[G16:.*]] = "coopvec.unpack"(%[[DY]]) : (!coopvec.vec<1 : i64, f16>) -> f16
// CHECK-NEXT:    %[[G:.*]] = arith.extf %[[G16]] : f16 to f32
// CHECK-NEXT:    %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:    %[[A:.*]] = arith.extf %[[S]] : f16 to f32
// CHECK-NEXT:    %[[AN:.*]] = arith.cmpf uno, %[[A]], %[[A]] : f32
// CHECK-NEXT:    %[[A2:.*]] = arith.select %[[AN]], %[[NINF]], %[[A]] : f32
// CHECK-NEXT:    %[[B:.*]] = arith.extf %[[E]]#1 : f16 to f32
// CHECK-NEXT:    %[[BN:.*]] = arith.cmpf uno, %[[B]], %[[B]] : f32
// CHECK-NEXT:    %[[B2:.*]] = arith.select %[[BN]], %[[NINF]], %[[B]] : f32
// CHECK-NEXT:    %[[AW:.*]] = arith.cmpf ogt, %[[A2]], %[[B2]] : f32
// CHECK-NEXT:    %[[BW:.*]] = arith.cmpf ogt, %[[B2]], %[[A2]] : f32
// CHECK-NEXT:    %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[W0:.*]] = arith.select %[[BW]], %[[ZERO]], %[[HALF]] : f32
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[W:.*]] = arith.select %[[AW]], %[[ONE]], %[[W0]] : f32
// CHECK-NEXT:    %[[GA:.*]] = arith.mulf %[[G]], %[[W]] : f32
// CHECK-NEXT:    %[[DS:.*]] = arith.truncf %[[GA]] : f32 to f16
// CHECK-NEXT:    %[[GB:.*]] = arith.subf %[[G]], %[[GA]] : f32
// CHECK-NEXT:    %[[DB:.*]] = arith.truncf %[[GB]] : f32 to f16
// CHECK-NEXT:    %[[DS32:.*]] = arith.extf %[[DS]] : f16 to f32
// CHECK-NEXT:    %[[A32:.*]] = arith.extf %[[E]]#0 : f16 to f32
// CHECK-NEXT:    %[[C:.*]] = math.cos %[[A32]] : f32
// CHECK-NEXT:    %[[DA32:.*]] = arith.mulf %[[DS32]], %[[C]] : f32
// CHECK-NEXT:    %[[DA:.*]] = arith.truncf %[[DA32]] : f32 to f16
// CHECK-NEXT:    %[[DX:.*]] = "coopvec.from_elements"(%[[DA]], %[[DB]]) : (f16, f16)
// CHECK-NEXT:    return %[[DX]]
func.func @f(%x: !coopvec.vec<2, f16>) -> !coopvec.vec<1, f16> {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f16>) -> (f16, f16)
  %s = math.sin %e#0 : f16
  %m = arith.maxnumf %s, %e#1 : f16
  %y = "coopvec.from_elements"(%m) : (f16) -> !coopvec.vec<1, f16>
  return %y : !coopvec.vec<1, f16>
}

// -----

// A memref.load gather from an argument makes it differentiated (a
// gradient buffer after the arguments); its adjoint is a scatter-add,
// memref.atomic_rmw addf, at the same index. select sends ȳ to the chosen
// side (its condition is a constant); fptosi, cmpf and floor are
// piecewise constant: e#1 (only an index) gets 0, floor nothing.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<2 : i64, f32>, %[[T:[a-z0-9]+]]: memref<?xf32>, %[[GT:[a-z0-9]+]]: memref<?xf32>, %[[DY:[a-z0-9]+]]: !coopvec.vec<1 : i64, f32>)
// CHECK-NEXT:    %[[E:.*]]:2 = "coopvec.unpack"(%[[X]])
// CHECK-NEXT:    %[[I:.*]] = arith.fptosi %[[E]]#1
// CHECK-NEXT:    %[[K:.*]] = arith.index_cast %[[I]]
// CHECK-NEXT:    %[[F:.*]] = math.floor %[[E]]#0
// CHECK-NEXT:    %[[C:.*]] = arith.cmpf olt, %[[E]]#0, %[[F]]
// CHECK-NEXT:    %[[G:.*]] = "coopvec.unpack"(%[[DY]])
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[DV:.*]] = arith.select %[[C]], %[[G]], %[[ZERO]] : f32
// CHECK-NEXT:    %[[DA:.*]] = arith.select %[[C]], %[[ZERO]], %[[G]] : f32
// CHECK-NEXT:    memref.atomic_rmw addf %[[DV]], %[[GT]][%[[K]]] : (f32, memref<?xf32>) -> f32
// CHECK-NEXT:    %[[DX:.*]] = "coopvec.from_elements"(%[[DA]], %[[ZERO]])
// CHECK-NEXT:    return %[[DX]]
func.func @f(%x: !coopvec.vec<2, f32>, %t: memref<?xf32>) -> !coopvec.vec<1, f32> {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %i = arith.fptosi %e#1 : f32 to i32
  %k = arith.index_cast %i : i32 to index
  %v = memref.load %t[%k] : memref<?xf32>
  %fl = math.floor %e#0 : f32
  %c = arith.cmpf olt, %e#0, %fl : f32
  %p = arith.select %c, %v, %e#0 : f32
  %y = "coopvec.from_elements"(%p) : (f32) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}

// -----

// coopvec.load at a per-thread offset (a hash-grid table gather):
// reduce_sum_accumulate at the same offset. truncf passes ȳ through
// (straight-through rounding), widened back to f32.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<1 : i64, f32>, %[[T:[a-z0-9]+]]: memref<?xf16>, %[[GT:[a-z0-9]+]]: memref<?xf16>, %[[DY:[a-z0-9]+]]: !coopvec.vec<2 : i64, f16>)
// CHECK-NEXT:    %[[E:.*]] = "coopvec.unpack"(%[[X]])
// CHECK-NEXT:    %[[I:.*]] = arith.fptosi %[[E]]
// CHECK-NEXT:    %[[K:.*]] = arith.index_cast %[[I]]
// CHECK-NEXT:    %[[V:.*]] = "coopvec.load"(%[[T]], %[[K]])
// CHECK-NEXT:    %[[H:.*]] = arith.truncf %[[E]] : f32 to f16
// CHECK-NEXT:    %[[DV:.*]] = "coopvec.mul"(%[[DY]], %[[H]])
// CHECK-NEXT:    %[[P:.*]] = "coopvec.mul"(%[[DY]], %[[V]])
// CHECK:         %[[DH:.*]] = "coopvec.unpack"({{.*}}) : (!coopvec.vec<1 : i64, f16>) -> f16
// CHECK-NEXT:    %[[DE:.*]] = arith.extf %[[DH]] : f16 to f32
// CHECK-NEXT:    "coopvec.reduce_sum_accumulate"(%[[DV]], %[[GT]], %[[K]])
// CHECK-NEXT:    %[[DX:.*]] = "coopvec.from_elements"(%[[DE]]) : (f32)
// CHECK-NEXT:    return %[[DX]]
func.func @f(%x: !coopvec.vec<1, f32>, %tab: memref<?xf16>) -> !coopvec.vec<2, f16> {
  %e:1 = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> (f32)
  %i = arith.fptosi %e#0 : f32 to i32
  %k = arith.index_cast %i : i32 to index
  %v = "coopvec.load"(%tab, %k) : (memref<?xf16>, index) -> !coopvec.vec<2, f16>
  %h = arith.truncf %e#0 : f32 to f16
  %y = "coopvec.mul"(%v, %h) : (!coopvec.vec<2, f16>, f16) -> !coopvec.vec<2, f16>
  return %y : !coopvec.vec<2, f16>
}

// -----

// rsqrt: ȳ (-1/2) y³; powf y = a^b: ā += ȳ b a^(b-1), b̄ += ȳ (y == 0 ? 0
// : y ln a); atan2(a, b): ā += ȳ b / (a² + b²), b̄ -= ȳ a / (a² + b²).
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<2 : i64, f32>, %[[DY:[a-z0-9]+]]: !coopvec.vec<3 : i64, f32>)
// CHECK-NEXT:    %[[E:.*]]:2 = "coopvec.unpack"(%[[X]])
// CHECK-NEXT:    %[[P:.*]] = math.powf %[[E]]#0, %[[E]]#1
// CHECK-NEXT:    %[[R:.*]] = math.rsqrt %[[E]]#1
// CHECK-NEXT:    %[[G:.*]]:3 = "coopvec.unpack"(%[[DY]])
// CHECK-NEXT:    %[[R2:.*]] = arith.mulf %[[R]], %[[R]]
// CHECK-NEXT:    %[[MH:.*]] = arith.constant -5.000000e-01 : f32
// CHECK-NEXT:    %[[R1:.*]] = arith.mulf %[[MH]], %[[R]]
// CHECK-NEXT:    %[[R3:.*]] = arith.mulf %[[R1]], %[[R2]]
// CHECK-NEXT:    %[[DB1:.*]] = arith.mulf %[[G]]#2, %[[R3]]
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[BM1:.*]] = arith.subf %[[E]]#1, %[[ONE]]
// CHECK-NEXT:    %[[PW:.*]] = math.powf %[[E]]#0, %[[BM1]]
// CHECK-NEXT:    %[[BP:.*]] = arith.mulf %[[E]]#1, %[[PW]]
// CHECK-NEXT:    %[[DA1:.*]] = arith.mulf %[[G]]#1, %[[BP]]
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[Y0:.*]] = arith.cmpf oeq, %[[P]], %[[ZERO]]
// CHECK-NEXT:    %[[LN:.*]] = math.log %[[E]]#0
// CHECK-NEXT:    %[[YL:.*]] = arith.mulf %[[P]], %[[LN]]
// CHECK-NEXT:    %[[SL:.*]] = arith.select %[[Y0]], %[[ZERO]], %[[YL]]
// CHECK-NEXT:    %[[DB2:.*]] = arith.mulf %[[G]]#1, %[[SL]]
// CHECK-NEXT:    %[[DB12:.*]] = arith.addf %[[DB1]], %[[DB2]]
// CHECK-NEXT:    %[[BB:.*]] = arith.mulf %[[E]]#1, %[[E]]#1
// CHECK-NEXT:    %[[AA:.*]] = arith.mulf %[[E]]#0, %[[E]]#0
// CHECK-NEXT:    %[[RR:.*]] = arith.addf %[[AA]], %[[BB]]
// CHECK-NEXT:    %[[GR:.*]] = arith.divf %[[G]]#0, %[[RR]]
// CHECK-NEXT:    %[[DA2:.*]] = arith.mulf %[[GR]], %[[E]]#1
// CHECK-NEXT:    %[[DA:.*]] = arith.addf %[[DA1]], %[[DA2]]
// CHECK-NEXT:    %[[GA:.*]] = arith.mulf %[[GR]], %[[E]]#0
// CHECK-NEXT:    %[[DB3:.*]] = arith.negf %[[GA]]
// CHECK-NEXT:    %[[DB:.*]] = arith.addf %[[DB12]], %[[DB3]]
// CHECK-NEXT:    %[[DX:.*]] = "coopvec.from_elements"(%[[DA]], %[[DB]])
// CHECK-NEXT:    return %[[DX]]
func.func @f(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<3, f32> {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %a = math.atan2 %e#0, %e#1 : f32
  %p = math.powf %e#0, %e#1 : f32
  %r = math.rsqrt %e#1 : f32
  %y = "coopvec.from_elements"(%a, %p, %r) : (f32, f32, f32) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}
