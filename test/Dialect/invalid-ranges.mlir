// coopvec-verify rules about which elements an op touches
// (lib/Dialect/OpRulesRanges.c and the unit-stride rule of OpRules.c):
// strided buffers, constant offsets outside a buffer, and accumulations
// into elements the same function reads. Stock mlir-opt accepts every case
// (the first RUN line), so each error below comes from the C verifier; the
// last pieces are accepted by both.
// RUN: mlir-opt --irdl-file=%irdl --split-input-file %s > /dev/null
// RUN: coopvec-opt --split-input-file --verify-diagnostics %s

func.func @load_strided(%b: memref<?xf32, strided<[2]>>, %i: index) {
  // expected-error@+1 {{'coopvec.load' op base memref<?xf32, strided<[2]>> must have unit stride}}
  %0 = "coopvec.load"(%b, %i) : (memref<?xf32, strided<[2]>>, index) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @store_strided(%v: !coopvec.vec<4, f32>, %b: memref<8xf32, strided<[3]>>, %i: index) {
  // expected-error@+1 {{'coopvec.store' op base memref<8xf32, strided<[3]>> must have unit stride}}
  "coopvec.store"(%v, %b, %i) : (!coopvec.vec<4, f32>, memref<8xf32, strided<[3]>>, index) -> ()
  return
}

// -----

func.func @masked_load_strided(%b: memref<?xf16, strided<[?]>>, %i: index, %m: vector<4xi1>, %p: f16) {
  // expected-error@+1 {{'coopvec.masked_load' op base memref<?xf16, strided<[?]>> must have unit stride}}
  %0 = "coopvec.masked_load"(%b, %i, %m, %p) : (memref<?xf16, strided<[?]>>, index, vector<4xi1>, f16) -> !coopvec.vec<4, f16>
  return
}

// -----

func.func @masked_store_strided(%v: !coopvec.vec<4, f32>, %b: memref<?xf32, strided<[4]>>, %i: index, %m: vector<4xi1>) {
  // expected-error@+1 {{'coopvec.masked_store' op base memref<?xf32, strided<[4]>> must have unit stride}}
  "coopvec.masked_store"(%v, %b, %i, %m) : (!coopvec.vec<4, f32>, memref<?xf32, strided<[4]>>, index, vector<4xi1>) -> ()
  return
}

// -----

func.func @reduce_sum_strided(%v: !coopvec.vec<4, f32>, %g: memref<?xf32, strided<[2]>>, %i: index) {
  // expected-error@+1 {{'coopvec.reduce_sum_accumulate' op gradient memref<?xf32, strided<[2]>> must have unit stride}}
  "coopvec.reduce_sum_accumulate"(%v, %g, %i) : (!coopvec.vec<4, f32>, memref<?xf32, strided<[2]>>, index) -> ()
  return
}

// -----

func.func @matrix_view_strided(%b: memref<?xf32, strided<[2]>>) {
  // expected-error@+1 {{'coopvec.matrix_view' op buffer memref<?xf32, strided<[2]>> must have unit stride}}
  %0 = "coopvec.matrix_view"(%b) {offset = 0} : (memref<?xf32, strided<[2]>>) -> !coopvec.matrix<4, 4, f32, "row_major">
  return
}

// -----

func.func @load_negative_offset(%b: memref<?xf32>) {
  %c = arith.constant -1 : index
  // expected-error@+1 {{'coopvec.load' op offset -1 is negative}}
  %0 = "coopvec.load"(%b, %c) : (memref<?xf32>, index) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @load_past_end(%b: memref<10xf32>) {
  %c = arith.constant 7 : index
  // expected-error@+1 {{'coopvec.load' op accesses elements [7, 11) of memref<10xf32>, which has 10 elements}}
  %0 = "coopvec.load"(%b, %c) : (memref<10xf32>, index) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @store_past_end(%v: !coopvec.vec<3, f16>, %b: memref<4xf16>) {
  %c = arith.constant 2 : index
  // expected-error@+1 {{'coopvec.store' op accesses elements [2, 5) of memref<4xf16>, which has 4 elements}}
  "coopvec.store"(%v, %b, %c) : (!coopvec.vec<3, f16>, memref<4xf16>, index) -> ()
  return
}

// -----

func.func @store_huge_offset(%v: !coopvec.vec<3, f32>, %b: memref<4xf32>) {
  %c = arith.constant 9223372036854775807 : index
  // expected-error@+1 {{'coopvec.store' op accesses elements [9223372036854775807, 9223372036854775810) of memref<4xf32>, which has 4 elements}}
  "coopvec.store"(%v, %b, %c) : (!coopvec.vec<3, f32>, memref<4xf32>, index) -> ()
  return
}

// -----

func.func @masked_store_negative(%v: !coopvec.vec<4, f32>, %b: memref<?xf32>, %m: vector<4xi1>) {
  %c = arith.constant -8 : index
  // expected-error@+1 {{'coopvec.masked_store' op offset -8 is negative}}
  "coopvec.masked_store"(%v, %b, %c, %m) : (!coopvec.vec<4, f32>, memref<?xf32>, index, vector<4xi1>) -> ()
  return
}

// -----

func.func @masked_load_past_end(%b: memref<6xf32>, %p: f32) {
  %c = arith.constant 4 : index
  %m = arith.constant dense<[true, false, true, false]> : vector<4xi1>
  // expected-error@+1 {{'coopvec.masked_load' op accesses elements [4, 7) of memref<6xf32>, which has 6 elements}}
  %0 = "coopvec.masked_load"(%b, %c, %m, %p) : (memref<6xf32>, index, vector<4xi1>, f32) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @reduce_sum_past_end(%v: !coopvec.vec<4, f32>, %g: memref<4xf32>) {
  %c = arith.constant 1 : index
  // expected-error@+1 {{'coopvec.reduce_sum_accumulate' op accesses elements [1, 5) of memref<4xf32>, which has 4 elements}}
  "coopvec.reduce_sum_accumulate"(%v, %g, %c) : (!coopvec.vec<4, f32>, memref<4xf32>, index) -> ()
  return
}

// -----

func.func @outer_product_into_weights(%x: !coopvec.vec<4, f32>, %w: memref<?xf32>) -> !coopvec.vec<4, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<4, 4, f32, "row_major">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<4, 4, f32, "row_major">, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %G = "coopvec.matrix_view"(%w) {offset = 32} : (memref<?xf32>) -> !coopvec.matrix<4, 4, f32, "row_major">
  // expected-error@+1 {{'coopvec.outer_product_accumulate' op accumulates into elements of a buffer that this function also reads ('coopvec.matrix_view' at}}
  "coopvec.outer_product_accumulate"(%y, %x, %G) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.matrix<4, 4, f32, "row_major">) -> ()
  return %y : !coopvec.vec<4, f32>
}

// -----

func.func @reduce_sum_into_bias(%x: !coopvec.vec<4, f32>, %w: memref<?xf32>, %i: index) -> !coopvec.vec<4, f32> {
  %c16 = arith.constant 16 : index
  %b = "coopvec.load"(%w, %i) : (memref<?xf32>, index) -> !coopvec.vec<4, f32>
  // expected-error@+1 {{'coopvec.reduce_sum_accumulate' op accumulates into elements of a buffer that this function also reads ('coopvec.load' at}}
  "coopvec.reduce_sum_accumulate"(%x, %w, %c16) : (!coopvec.vec<4, f32>, memref<?xf32>, index) -> ()
  return %b : !coopvec.vec<4, f32>
}

// -----

// Accepted: constant accesses inside their buffers, a masked load whose
// constant mask keeps it inside, and accumulations into elements nobody
// reads (another buffer, or a disjoint range of the same one).
func.func @accepted(%x: !coopvec.vec<4, f32>, %w: memref<64xf32>, %g: memref<?xf32>, %p: f32) -> !coopvec.vec<4, f32> {
  %c0 = arith.constant 0 : index
  %c60 = arith.constant 60 : index
  %c62 = arith.constant 62 : index
  %c48 = arith.constant 48 : index
  %m = arith.constant dense<[true, true, false, false]> : vector<4xi1>
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<64xf32>) -> !coopvec.matrix<4, 4, f32, "row_major">
  %b = "coopvec.load"(%w, %c60) : (memref<64xf32>, index) -> !coopvec.vec<4, f32>
  %t = "coopvec.masked_load"(%w, %c62, %m, %p) : (memref<64xf32>, index, vector<4xi1>, f32) -> !coopvec.vec<4, f32>
  %y = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<4, 4, f32, "row_major">, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %G = "coopvec.matrix_view"(%w) {offset = 64} : (memref<64xf32>) -> !coopvec.matrix<4, 4, f32, "row_major">
  "coopvec.outer_product_accumulate"(%y, %x, %G) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.matrix<4, 4, f32, "row_major">) -> ()
  "coopvec.reduce_sum_accumulate"(%y, %w, %c48) : (!coopvec.vec<4, f32>, memref<64xf32>, index) -> ()
  "coopvec.reduce_sum_accumulate"(%t, %g, %c0) : (!coopvec.vec<4, f32>, memref<?xf32>, index) -> ()
  return %y : !coopvec.vec<4, f32>
}
