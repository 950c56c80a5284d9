// Negative tests for the constraints the IRDL definition itself enforces,
// checked independently by stock mlir-opt and by coopvec-opt (which loads
// the same file). IRDL diagnostics name the offending parameter, not the
// op operand, so each case isolates one constraint.
// RUN: mlir-opt --irdl-file=%irdl --split-input-file --verify-diagnostics %s
// RUN: coopvec-opt --split-input-file --verify-diagnostics %s

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// expected-error@+1 {{expected base attribute 'builtin.integer' but got 'builtin.type'}}
func.func @vec_size_not_integer(%v: !coopvec.vec<f32, f32>)

// -----

// expected-error@+1 {{'i32' does not satisfy the constraint}}
func.func @vec_element_i32(%v: !coopvec.vec<4, i32>)

// -----

// expected-error@+1 {{'f64' does not satisfy the constraint}}
func.func @vec_element_f64(%v: !coopvec.vec<4, f64>)

// -----

// expected-error@+1 {{expected 2 type arguments, but had 1}}
func.func @vec_missing_element(%v: !coopvec.vec<4>)

// -----

// expected-error@+1 {{expected base attribute 'builtin.integer' but got 'builtin.type'}}
func.func @matrix_rows_not_integer(%m: !coopvec.matrix<f16, 4, f16, "row_major">)

// -----

// expected-error@+1 {{expected base attribute 'builtin.integer' but got 'builtin.string'}}
func.func @matrix_cols_not_integer(%m: !coopvec.matrix<4, "4", f16, "row_major">)

// -----

// expected-error@+1 {{'bf16' does not satisfy the constraint}}
func.func @matrix_element_bf16(%m: !coopvec.matrix<4, 4, bf16, "row_major">)

// -----

// expected-error@+1 {{'"blocked"' does not satisfy the constraint}}
func.func @matrix_unknown_layout(%m: !coopvec.matrix<4, 4, f16, "blocked">)

// -----

// expected-error@+1 {{'1 : i64' does not satisfy the constraint}}
func.func @matrix_layout_not_string(%m: !coopvec.matrix<4, 4, f16, 1>)

// -----

// expected-error@+1 {{expected 4 type arguments, but had 3}}
func.func @matrix_missing_layout(%m: !coopvec.matrix<4, 4, f16>)

// -----

//===----------------------------------------------------------------------===//
// Construction and unpacking
//===----------------------------------------------------------------------===//

func.func @from_elements_element_mismatch(%x: f16) {
  // expected-error@+1 {{expected 'f16' but got 'f32'}}
  %0 = "coopvec.from_elements"(%x) : (f16) -> !coopvec.vec<1, f32>
  return
}

// -----

func.func @from_elements_result_not_vec(%x: f32) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'vector<1xf32>'}}
  %0 = "coopvec.from_elements"(%x) : (f32) -> vector<1xf32>
  return
}

// -----

func.func @splat_element_mismatch(%x: f16) {
  // expected-error@+1 {{expected 'f16' but got 'f32'}}
  %0 = "coopvec.splat"(%x) : (f16) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @splat_result_not_vec(%x: f32) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'vector<4xf32>'}}
  %0 = "coopvec.splat"(%x) : (f32) -> vector<4xf32>
  return
}

// -----

func.func @splat_two_operands(%x: f32) {
  // expected-error@+1 {{expects exactly 1 operands, but got 2}}
  %0 = "coopvec.splat"(%x, %x) : (f32, f32) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @unpack_source_not_vec(%v: vector<2xf32>) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'vector<2xf32>'}}
  %0:2 = "coopvec.unpack"(%v) : (vector<2xf32>) -> (f32, f32)
  return
}

// -----

func.func @unpack_result_element_mismatch(%v: !coopvec.vec<2, f32>) {
  // expected-error@+1 {{expected 'f32' but got 'f16'}}
  %0:2 = "coopvec.unpack"(%v) : (!coopvec.vec<2, f32>) -> (f32, f16)
  return
}

// -----

func.func @from_vector_source_not_vector(%v: memref<4xf32>) {
  // expected-error@+1 {{expected base type 'builtin.vector' but got 'builtin.memref'}}
  %0 = "coopvec.from_vector"(%v) : (memref<4xf32>) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @from_vector_result_not_vec(%v: vector<4xf32>) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'builtin.vector'}}
  %0 = "coopvec.from_vector"(%v) : (vector<4xf32>) -> vector<4xf32>
  return
}

// -----

func.func @to_vector_source_not_vec(%v: vector<4xf32>) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'builtin.vector'}}
  %0 = "coopvec.to_vector"(%v) : (vector<4xf32>) -> vector<4xf32>
  return
}

// -----

func.func @to_vector_result_not_vector(%v: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{expected base type 'builtin.vector' but got 'builtin.memref'}}
  %0 = "coopvec.to_vector"(%v) : (!coopvec.vec<4, f32>) -> memref<4xf32>
  return
}

// -----

func.func @cast_size_mismatch(%v: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{expected '4 : i64' but got '8 : i64'}}
  %0 = "coopvec.cast"(%v) : (!coopvec.vec<4, f32>) -> !coopvec.vec<8, f16>
  return
}

// -----

func.func @cast_source_not_vec(%v: vector<4xf32>) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'vector<4xf32>'}}
  %0 = "coopvec.cast"(%v) : (vector<4xf32>) -> !coopvec.vec<4, f16>
  return
}

// -----

func.func @cast_result_not_vec(%v: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'vector<4xf16>'}}
  %0 = "coopvec.cast"(%v) : (!coopvec.vec<4, f32>) -> vector<4xf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Transfer
//===----------------------------------------------------------------------===//

func.func @load_base_not_memref(%b: tensor<?xf32>, %i: index) {
  // expected-error@+1 {{expected base type 'builtin.memref' but got 'builtin.tensor'}}
  %0 = "coopvec.load"(%b, %i) : (tensor<?xf32>, index) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @load_offset_not_index(%b: memref<?xf32>, %i: i64) {
  // expected-error@+1 {{expected 'index' but got 'i64'}}
  %0 = "coopvec.load"(%b, %i) : (memref<?xf32>, i64) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @load_result_not_vec(%b: memref<?xf32>, %i: index) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'vector<4xf32>'}}
  %0 = "coopvec.load"(%b, %i) : (memref<?xf32>, index) -> vector<4xf32>
  return
}

// -----

func.func @masked_load_base_not_memref(%b: tensor<?xf32>, %i: index, %m: vector<4xi1>, %p: f32) {
  // expected-error@+1 {{expected base type 'builtin.memref' but got 'builtin.tensor'}}
  %0 = "coopvec.masked_load"(%b, %i, %m, %p) : (tensor<?xf32>, index, vector<4xi1>, f32) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @masked_load_offset_not_index(%b: memref<?xf32>, %i: i32, %m: vector<4xi1>, %p: f32) {
  // expected-error@+1 {{expected 'index' but got 'i32'}}
  %0 = "coopvec.masked_load"(%b, %i, %m, %p) : (memref<?xf32>, i32, vector<4xi1>, f32) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @masked_load_mask_not_vector(%b: memref<?xf32>, %i: index, %m: i1, %p: f32) {
  // expected-error@+1 {{expected base type 'builtin.vector' but got 'builtin.integer'}}
  %0 = "coopvec.masked_load"(%b, %i, %m, %p) : (memref<?xf32>, index, i1, f32) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @masked_load_padding_mismatch(%b: memref<?xf32>, %i: index, %m: vector<4xi1>, %p: f16) {
  // expected-error@+1 {{expected 'f16' but got 'f32'}}
  %0 = "coopvec.masked_load"(%b, %i, %m, %p) : (memref<?xf32>, index, vector<4xi1>, f16) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @masked_load_without_padding(%b: memref<?xf32>, %i: index, %m: vector<4xi1>) {
  // expected-error@+1 {{expects exactly 4 operands, but got 3}}
  %0 = "coopvec.masked_load"(%b, %i, %m) : (memref<?xf32>, index, vector<4xi1>) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @store_value_not_vec(%v: vector<4xf32>, %b: memref<?xf32>, %i: index) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'builtin.vector'}}
  "coopvec.store"(%v, %b, %i) : (vector<4xf32>, memref<?xf32>, index) -> ()
  return
}

// -----

func.func @store_base_not_memref(%v: !coopvec.vec<4, f32>, %b: tensor<?xf32>, %i: index) {
  // expected-error@+1 {{expected base type 'builtin.memref' but got 'builtin.tensor'}}
  "coopvec.store"(%v, %b, %i) : (!coopvec.vec<4, f32>, tensor<?xf32>, index) -> ()
  return
}

// -----

func.func @store_offset_not_index(%v: !coopvec.vec<4, f32>, %b: memref<?xf32>, %i: i64) {
  // expected-error@+1 {{expected 'index' but got 'i64'}}
  "coopvec.store"(%v, %b, %i) : (!coopvec.vec<4, f32>, memref<?xf32>, i64) -> ()
  return
}

// -----

func.func @store_with_result(%v: !coopvec.vec<4, f32>, %b: memref<?xf32>, %i: index) {
  // expected-error@+1 {{expects exactly 0 results, but got 1}}
  %0 = "coopvec.store"(%v, %b, %i) : (!coopvec.vec<4, f32>, memref<?xf32>, index) -> index
  return
}

// -----

func.func @masked_store_value_not_vec(%v: vector<4xf32>, %b: memref<?xf32>, %i: index, %m: vector<4xi1>) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'builtin.vector'}}
  "coopvec.masked_store"(%v, %b, %i, %m) : (vector<4xf32>, memref<?xf32>, index, vector<4xi1>) -> ()
  return
}

// -----

func.func @masked_store_base_not_memref(%v: !coopvec.vec<4, f32>, %b: tensor<?xf32>, %i: index, %m: vector<4xi1>) {
  // expected-error@+1 {{expected base type 'builtin.memref' but got 'builtin.tensor'}}
  "coopvec.masked_store"(%v, %b, %i, %m) : (!coopvec.vec<4, f32>, tensor<?xf32>, index, vector<4xi1>) -> ()
  return
}

// -----

func.func @masked_store_offset_not_index(%v: !coopvec.vec<4, f32>, %b: memref<?xf32>, %i: i64, %m: vector<4xi1>) {
  // expected-error@+1 {{expected 'index' but got 'i64'}}
  "coopvec.masked_store"(%v, %b, %i, %m) : (!coopvec.vec<4, f32>, memref<?xf32>, i64, vector<4xi1>) -> ()
  return
}

// -----

func.func @masked_store_mask_not_vector(%v: !coopvec.vec<4, f32>, %b: memref<?xf32>, %i: index, %m: memref<4xi1>) {
  // expected-error@+1 {{expected base type 'builtin.vector' but got 'builtin.memref'}}
  "coopvec.masked_store"(%v, %b, %i, %m) : (!coopvec.vec<4, f32>, memref<?xf32>, index, memref<4xi1>) -> ()
  return
}

// -----

func.func @matrix_view_without_offset(%b: memref<?xf32>) {
  // expected-error@+1 {{attribute "offset" is expected but not provided}}
  %0 = "coopvec.matrix_view"(%b) : (memref<?xf32>) -> !coopvec.matrix<4, 4, f32, "row_major">
  return
}

// -----

func.func @matrix_view_offset_not_integer(%b: memref<?xf32>) {
  // expected-error@+1 {{expected base attribute 'builtin.integer' but got 'builtin.float'}}
  %0 = "coopvec.matrix_view"(%b) {offset = 0.0} : (memref<?xf32>) -> !coopvec.matrix<4, 4, f32, "row_major">
  return
}

// -----

func.func @matrix_view_buffer_not_memref(%b: tensor<?xf32>) {
  // expected-error@+1 {{expected base type 'builtin.memref' but got 'builtin.tensor'}}
  %0 = "coopvec.matrix_view"(%b) {offset = 0} : (tensor<?xf32>) -> !coopvec.matrix<4, 4, f32, "row_major">
  return
}

// -----

func.func @matrix_view_result_not_matrix(%b: memref<?xf32>) {
  // expected-error@+1 {{expected base type 'coopvec.matrix' but got 'coopvec.vec'}}
  %0 = "coopvec.matrix_view"(%b) {offset = 0} : (memref<?xf32>) -> !coopvec.vec<4, f32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Elementwise: the first operand and the result must be vecs.
//===----------------------------------------------------------------------===//

func.func @add_lhs_not_vec(%x: f32) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'builtin.f32'}}
  %0 = "coopvec.add"(%x, %x) : (f32, f32) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @add_result_not_vec(%v: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{expected '!coopvec.vec<4 : i64, f32>' but got 'vector<4xf32>'}}
  %0 = "coopvec.add"(%v, %v) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> vector<4xf32>
  return
}

// -----

// A constraint variable binds to the first type it matches, so even
// `irdl.base` variables force the result to be exactly the lhs type.
func.func @add_result_type_mismatch(%v: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{expected '!coopvec.vec<4 : i64, f32>' but got '!coopvec.vec<8 : i64, f32>'}}
  %0 = "coopvec.add"(%v, %v) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<8, f32>
  return
}

// -----

func.func @tanh_result_element_mismatch(%v: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{expected '!coopvec.vec<4 : i64, f32>' but got '!coopvec.vec<4 : i64, f16>'}}
  %0 = "coopvec.tanh"(%v) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f16>
  return
}

// -----

func.func @add_one_operand(%v: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{expects exactly 2 operands, but got 1}}
  %0 = "coopvec.add"(%v) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @sub_lhs_not_vec(%x: f32) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'builtin.f32'}}
  %0 = "coopvec.sub"(%x, %x) : (f32, f32) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @sub_result_not_vec(%v: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{expected '!coopvec.vec<4 : i64, f32>' but got 'f32'}}
  %0 = "coopvec.sub"(%v, %v) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> f32
  return
}

// -----

func.func @mul_lhs_not_vec(%x: f32) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'builtin.f32'}}
  %0 = "coopvec.mul"(%x, %x) : (f32, f32) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @mul_result_not_vec(%v: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{expected '!coopvec.vec<4 : i64, f32>' but got 'f32'}}
  %0 = "coopvec.mul"(%v, %v) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> f32
  return
}

// -----

func.func @min_lhs_not_vec(%x: f32) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'builtin.f32'}}
  %0 = "coopvec.min"(%x, %x) : (f32, f32) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @min_result_not_vec(%v: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{expected '!coopvec.vec<4 : i64, f32>' but got 'f32'}}
  %0 = "coopvec.min"(%v, %v) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> f32
  return
}

// -----

func.func @max_lhs_not_vec(%x: f32) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'builtin.f32'}}
  %0 = "coopvec.max"(%x, %x) : (f32, f32) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @max_result_not_vec(%v: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{expected '!coopvec.vec<4 : i64, f32>' but got 'f32'}}
  %0 = "coopvec.max"(%v, %v) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> f32
  return
}

// -----

func.func @step_value_not_vec(%x: f32) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'builtin.f32'}}
  %0 = "coopvec.step"(%x, %x) : (f32, f32) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @step_result_not_vec(%v: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{expected '!coopvec.vec<4 : i64, f32>' but got 'f32'}}
  %0 = "coopvec.step"(%v, %v) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> f32
  return
}

// -----

func.func @fma_lhs_not_vec(%x: f32) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'builtin.f32'}}
  %0 = "coopvec.fma"(%x, %x, %x) : (f32, f32, f32) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @fma_result_not_vec(%v: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{expected '!coopvec.vec<4 : i64, f32>' but got 'f32'}}
  %0 = "coopvec.fma"(%v, %v, %v) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> f32
  return
}

// -----

func.func @fma_two_operands(%v: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{expects exactly 3 operands, but got 2}}
  %0 = "coopvec.fma"(%v, %v) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @neg_source_not_vec(%x: f32) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'builtin.f32'}}
  %0 = "coopvec.neg"(%x) : (f32) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @neg_result_not_vec(%v: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{expected '!coopvec.vec<4 : i64, f32>' but got 'vector<4xf32>'}}
  %0 = "coopvec.neg"(%v) : (!coopvec.vec<4, f32>) -> vector<4xf32>
  return
}

// -----

func.func @exp2_source_not_vec(%x: f32) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'builtin.f32'}}
  %0 = "coopvec.exp2"(%x) : (f32) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @exp2_result_not_vec(%v: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{expected '!coopvec.vec<4 : i64, f32>' but got 'vector<4xf32>'}}
  %0 = "coopvec.exp2"(%v) : (!coopvec.vec<4, f32>) -> vector<4xf32>
  return
}

// -----

func.func @log2_source_not_vec(%x: f32) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'builtin.f32'}}
  %0 = "coopvec.log2"(%x) : (f32) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @log2_result_not_vec(%v: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{expected '!coopvec.vec<4 : i64, f32>' but got 'vector<4xf32>'}}
  %0 = "coopvec.log2"(%v) : (!coopvec.vec<4, f32>) -> vector<4xf32>
  return
}

// -----

func.func @tanh_source_not_vec(%x: f32) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'builtin.f32'}}
  %0 = "coopvec.tanh"(%x) : (f32) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @tanh_result_not_vec(%v: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{expected '!coopvec.vec<4 : i64, f32>' but got 'vector<4xf32>'}}
  %0 = "coopvec.tanh"(%v) : (!coopvec.vec<4, f32>) -> vector<4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// matvec and training
//===----------------------------------------------------------------------===//

func.func @matvec_matrix_not_matrix(%x: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{expected base type 'coopvec.matrix' but got '!coopvec.vec<4 : i64, f32>'}}
  %0 = "coopvec.matvec"(%x, %x) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @matvec_input_element_mismatch(%A: !coopvec.matrix<4, 4, f32, "row_major">, %x: !coopvec.vec<4, f16>) {
  // expected-error@+1 {{expected 'f32' but got 'f16'}}
  %0 = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<4, 4, f32, "row_major">, !coopvec.vec<4, f16>) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @matvec_result_element_mismatch(%A: !coopvec.matrix<4, 4, f16, "row_major">, %x: !coopvec.vec<4, f16>) {
  // expected-error@+1 {{expected 'f16' but got 'f32'}}
  %0 = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<4, 4, f16, "row_major">, !coopvec.vec<4, f16>) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @matvec_input_not_vec(%A: !coopvec.matrix<4, 4, f32, "row_major">, %x: vector<4xf32>) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'vector<4xf32>'}}
  %0 = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<4, 4, f32, "row_major">, vector<4xf32>) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @matvec_bias_size_mismatch(%A: !coopvec.matrix<4, 8, f32, "row_major">, %x: !coopvec.vec<8, f32>) {
  // expected-error@+1 {{expected '!coopvec.vec<8 : i64, f32>' but got '!coopvec.vec<4 : i64, f32>'}}
  %0 = "coopvec.matvec"(%A, %x, %x) : (!coopvec.matrix<4, 8, f32, "row_major">, !coopvec.vec<8, f32>, !coopvec.vec<8, f32>) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @matvec_four_operands(%A: !coopvec.matrix<4, 4, f32, "row_major">, %x: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{expects at most 3 operands, but got 4}}
  %0 = "coopvec.matvec"(%A, %x, %x, %x) : (!coopvec.matrix<4, 4, f32, "row_major">, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @outer_product_lhs_size_mismatch(%a: !coopvec.vec<8, f16>, %b: !coopvec.vec<4, f16>, %g: !coopvec.matrix<4, 4, f16, "training">) {
  // expected-error@+1 {{expected '8 : i64' but got '4 : i64'}}
  "coopvec.outer_product_accumulate"(%a, %b, %g) : (!coopvec.vec<8, f16>, !coopvec.vec<4, f16>, !coopvec.matrix<4, 4, f16, "training">) -> ()
  return
}

// -----

func.func @outer_product_rhs_size_mismatch(%a: !coopvec.vec<4, f16>, %b: !coopvec.vec<8, f16>, %g: !coopvec.matrix<4, 4, f16, "training">) {
  // expected-error@+1 {{expected '8 : i64' but got '4 : i64'}}
  "coopvec.outer_product_accumulate"(%a, %b, %g) : (!coopvec.vec<4, f16>, !coopvec.vec<8, f16>, !coopvec.matrix<4, 4, f16, "training">) -> ()
  return
}

// -----

func.func @outer_product_element_mismatch(%a: !coopvec.vec<4, f16>, %b: !coopvec.vec<4, f32>, %g: !coopvec.matrix<4, 4, f16, "training">) {
  // expected-error@+1 {{expected 'f16' but got 'f32'}}
  "coopvec.outer_product_accumulate"(%a, %b, %g) : (!coopvec.vec<4, f16>, !coopvec.vec<4, f32>, !coopvec.matrix<4, 4, f16, "training">) -> ()
  return
}

// -----

func.func @outer_product_gradient_not_matrix(%a: !coopvec.vec<4, f16>, %g: memref<?xf16>) {
  // expected-error@+1 {{expected base type 'coopvec.matrix' but got 'memref<?xf16>'}}
  "coopvec.outer_product_accumulate"(%a, %a, %g) : (!coopvec.vec<4, f16>, !coopvec.vec<4, f16>, memref<?xf16>) -> ()
  return
}

// -----

func.func @reduce_sum_value_not_vec(%v: vector<4xf32>, %g: memref<?xf32>, %i: index) {
  // expected-error@+1 {{expected base type 'coopvec.vec' but got 'builtin.vector'}}
  "coopvec.reduce_sum_accumulate"(%v, %g, %i) : (vector<4xf32>, memref<?xf32>, index) -> ()
  return
}

// -----

func.func @reduce_sum_gradient_not_memref(%v: !coopvec.vec<4, f32>, %g: tensor<?xf32>, %i: index) {
  // expected-error@+1 {{expected base type 'builtin.memref' but got 'builtin.tensor'}}
  "coopvec.reduce_sum_accumulate"(%v, %g, %i) : (!coopvec.vec<4, f32>, tensor<?xf32>, index) -> ()
  return
}

// -----

func.func @reduce_sum_offset_not_index(%v: !coopvec.vec<4, f32>, %g: memref<?xf32>, %i: i64) {
  // expected-error@+1 {{expected 'index' but got 'i64'}}
  "coopvec.reduce_sum_accumulate"(%v, %g, %i) : (!coopvec.vec<4, f32>, memref<?xf32>, i64) -> ()
  return
}
