// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lanes=4})' %s | FileCheck %s

// The cases upstream leaves undefined get their defined results
// (docs/execution-model.md, "Values"; lib/Conversion/PerThread/Scalars.c).
// fptosi / fptoui saturate and give 0 for NaN: the operand is replaced by
// 0 where it is NaN, at or above 2^(w-1) (2^w unsigned) or at or below
// -2^(w-1) (-1 unsigned), one select each; the conversion's result then
// takes the minimum or maximum in those lanes (NaN is in neither, so it
// keeps the 0 it converted to). No mask is combined with another (an
// `arith.ori` of i1 vectors becomes byte packing on AVX2).
// CHECK-LABEL: func.func @signed_batched(
// CHECK:         %[[HIGH:.*]] = arith.constant dense<2.14748365E+9> : vector<4xf32>
// CHECK-NEXT:    %[[LOW:.*]] = arith.negf %[[HIGH]] : vector<4xf32>
// CHECK-NEXT:    %[[NAN:.*]] = arith.cmpf uno, %[[X:.*]], %[[X]] : vector<4xf32>
// CHECK-NEXT:    %[[TOOHIGH:.*]] = arith.cmpf oge, %[[X]], %[[HIGH]] : vector<4xf32>
// CHECK-NEXT:    %[[TOOLOW:.*]] = arith.cmpf ole, %[[X]], %[[LOW]] : vector<4xf32>
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK-NEXT:    %[[S0:.*]] = arith.select %[[NAN]], %[[ZERO]], %[[X]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:    %[[S1:.*]] = arith.select %[[TOOHIGH]], %[[ZERO]], %[[S0]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:    %[[S2:.*]] = arith.select %[[TOOLOW]], %[[ZERO]], %[[S1]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:    %[[I:.*]] = arith.fptosi %[[S2]] : vector<4xf32> to vector<4xi32>
// CHECK-NEXT:    %[[MIN:.*]] = arith.constant dense<-2147483648> : vector<4xi32>
// CHECK-NEXT:    %[[R0:.*]] = arith.select %[[TOOLOW]], %[[MIN]], %[[I]] : vector<4xi1>, vector<4xi32>
// CHECK-NEXT:    %[[MAX:.*]] = arith.constant dense<2147483647> : vector<4xi32>
// CHECK-NEXT:    %[[R1:.*]] = arith.select %[[TOOHIGH]], %[[MAX]], %[[R0]] : vector<4xi1>, vector<4xi32>
// CHECK-NEXT:    arith.sitofp %[[R1]] : vector<4xi32> to vector<4xf32>
// CHECK-NOT:     arith.ori
// CHECK:         return
func.func @signed(%x: !coopvec.vec<1, f32>) -> !coopvec.vec<1, f32> {
  %e = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> f32
  %i = arith.fptosi %e : f32 to i32
  %f = arith.sitofp %i : i32 to f32
  %r = "coopvec.from_elements"(%f) : (f32) -> !coopvec.vec<1, f32>
  return %r : !coopvec.vec<1, f32>
}

// -----

// fptoui to i8: the range is [0, 256); at or below -1 gives 0, at or above
// 256 gives 255.
// CHECK-LABEL: func.func @unsigned_batched(
// CHECK:         %[[HIGH:.*]] = arith.constant dense<2.560000e+02> : vector<4xf32>
// CHECK-NEXT:    %[[LOW:.*]] = arith.constant dense<-1.000000e+00> : vector<4xf32>
// CHECK-NEXT:    %[[NAN:.*]] = arith.cmpf uno, %[[X:.*]], %[[X]] : vector<4xf32>
// CHECK-NEXT:    %[[TOOHIGH:.*]] = arith.cmpf oge, %[[X]], %[[HIGH]] : vector<4xf32>
// CHECK-NEXT:    %[[TOOLOW:.*]] = arith.cmpf ole, %[[X]], %[[LOW]] : vector<4xf32>
// CHECK:         %[[I:.*]] = arith.fptoui %{{.*}} : vector<4xf32> to vector<4xi8>
// CHECK-NEXT:    %[[MIN:.*]] = arith.constant dense<0> : vector<4xi8>
// CHECK-NEXT:    %[[R0:.*]] = arith.select %[[TOOLOW]], %[[MIN]], %[[I]] : vector<4xi1>, vector<4xi8>
// CHECK-NEXT:    %[[MAX:.*]] = arith.constant dense<-1> : vector<4xi8>
// CHECK-NEXT:    arith.select %[[TOOHIGH]], %[[MAX]], %[[R0]] : vector<4xi1>, vector<4xi8>
// CHECK-NOT:     arith.ori
// CHECK:         return
func.func @unsigned(%x: !coopvec.vec<1, f32>) -> !coopvec.vec<1, f32> {
  %e = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> f32
  %i = arith.fptoui %e : f32 to i8
  %f = arith.uitofp %i : i8 to f32
  %r = "coopvec.from_elements"(%f) : (f32) -> !coopvec.vec<1, f32>
  return %r : !coopvec.vec<1, f32>
}
