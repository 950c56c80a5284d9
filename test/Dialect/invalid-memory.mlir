// Rules of coopvec-verify for the ops that access memrefs
// (lib/Dialect/OpRulesMemory.c). Stock mlir-opt accepts every case (the
// first RUN line), so each error below comes from the C verifier.
// RUN: mlir-opt --irdl-file=%irdl --split-input-file %s > /dev/null
// RUN: coopvec-opt --split-input-file --verify-diagnostics %s

func.func @load_base_rank2(%b: memref<4x4xf32>, %i: index) {
  // expected-error@+1 {{'coopvec.load' op base must be a rank-1 memref of f32, got memref<4x4xf32>}}
  %0 = "coopvec.load"(%b, %i) : (memref<4x4xf32>, index) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @load_base_rank0(%b: memref<f32>, %i: index) {
  // expected-error@+1 {{'coopvec.load' op base must be a rank-1 memref of f32, got memref<f32>}}
  %0 = "coopvec.load"(%b, %i) : (memref<f32>, index) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @load_base_element(%b: memref<?xf16>, %i: index) {
  // expected-error@+1 {{'coopvec.load' op base must be a rank-1 memref of f32, got memref<?xf16>}}
  %0 = "coopvec.load"(%b, %i) : (memref<?xf16>, index) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @masked_load_base_element(%b: memref<?xf32>, %i: index, %m: vector<4xi1>, %p: f16) {
  // expected-error@+1 {{'coopvec.masked_load' op base must be a rank-1 memref of f16, got memref<?xf32>}}
  %0 = "coopvec.masked_load"(%b, %i, %m, %p) : (memref<?xf32>, index, vector<4xi1>, f16) -> !coopvec.vec<4, f16>
  return
}

// -----

func.func @masked_load_mask_length(%b: memref<?xf16>, %i: index, %m: vector<8xi1>, %p: f16) {
  // expected-error@+1 {{'coopvec.masked_load' op mask must be vector<4xi1> (one bit per element of !coopvec.vec<4 : i64, f16>), got vector<8xi1>}}
  %0 = "coopvec.masked_load"(%b, %i, %m, %p) : (memref<?xf16>, index, vector<8xi1>, f16) -> !coopvec.vec<4, f16>
  return
}

// -----

func.func @masked_load_mask_element(%b: memref<?xf16>, %i: index, %m: vector<4xi8>, %p: f16) {
  // expected-error@+1 {{'coopvec.masked_load' op mask must be vector<4xi1> (one bit per element of !coopvec.vec<4 : i64, f16>), got vector<4xi8>}}
  %0 = "coopvec.masked_load"(%b, %i, %m, %p) : (memref<?xf16>, index, vector<4xi8>, f16) -> !coopvec.vec<4, f16>
  return
}

// -----

func.func @masked_load_mask_unsigned(%b: memref<?xf16>, %i: index, %m: vector<4xui1>, %p: f16) {
  // expected-error@+1 {{got vector<4xui1>}}
  %0 = "coopvec.masked_load"(%b, %i, %m, %p) : (memref<?xf16>, index, vector<4xui1>, f16) -> !coopvec.vec<4, f16>
  return
}

// -----

func.func @masked_load_mask_2d(%b: memref<?xf16>, %i: index, %m: vector<2x2xi1>, %p: f16) {
  // expected-error@+1 {{got vector<2x2xi1>}}
  %0 = "coopvec.masked_load"(%b, %i, %m, %p) : (memref<?xf16>, index, vector<2x2xi1>, f16) -> !coopvec.vec<4, f16>
  return
}

// -----

func.func @masked_load_mask_scalable(%b: memref<?xf16>, %i: index, %m: vector<[4]xi1>, %p: f16) {
  // expected-error@+1 {{got vector<[4]xi1>}}
  %0 = "coopvec.masked_load"(%b, %i, %m, %p) : (memref<?xf16>, index, vector<[4]xi1>, f16) -> !coopvec.vec<4, f16>
  return
}

// -----

func.func @store_base_element(%v: !coopvec.vec<4, f32>, %b: memref<?xf16>, %i: index) {
  // expected-error@+1 {{'coopvec.store' op base must be a rank-1 memref of f32, got memref<?xf16>}}
  "coopvec.store"(%v, %b, %i) : (!coopvec.vec<4, f32>, memref<?xf16>, index) -> ()
  return
}

// -----

func.func @store_base_rank2(%v: !coopvec.vec<4, f32>, %b: memref<?x4xf32>, %i: index) {
  // expected-error@+1 {{'coopvec.store' op base must be a rank-1 memref of f32, got memref<?x4xf32>}}
  "coopvec.store"(%v, %b, %i) : (!coopvec.vec<4, f32>, memref<?x4xf32>, index) -> ()
  return
}

// -----

func.func @masked_store_base_element(%v: !coopvec.vec<4, f32>, %b: memref<?xi32>, %i: index, %m: vector<4xi1>) {
  // expected-error@+1 {{'coopvec.masked_store' op base must be a rank-1 memref of f32, got memref<?xi32>}}
  "coopvec.masked_store"(%v, %b, %i, %m) : (!coopvec.vec<4, f32>, memref<?xi32>, index, vector<4xi1>) -> ()
  return
}

// -----

func.func @masked_store_mask_length(%v: !coopvec.vec<4, f32>, %b: memref<?xf32>, %i: index, %m: vector<3xi1>) {
  // expected-error@+1 {{'coopvec.masked_store' op mask must be vector<4xi1> (one bit per element of !coopvec.vec<4 : i64, f32>), got vector<3xi1>}}
  "coopvec.masked_store"(%v, %b, %i, %m) : (!coopvec.vec<4, f32>, memref<?xf32>, index, vector<3xi1>) -> ()
  return
}

// -----

func.func @reduce_sum_gradient_element(%v: !coopvec.vec<4, f16>, %g: memref<?xf32>, %i: index) {
  // expected-error@+1 {{'coopvec.reduce_sum_accumulate' op gradient must be a rank-1 memref of f16, got memref<?xf32>}}
  "coopvec.reduce_sum_accumulate"(%v, %g, %i) : (!coopvec.vec<4, f16>, memref<?xf32>, index) -> ()
  return
}

// -----

func.func @reduce_sum_gradient_rank2(%v: !coopvec.vec<4, f16>, %g: memref<4x4xf16>, %i: index) {
  // expected-error@+1 {{'coopvec.reduce_sum_accumulate' op gradient must be a rank-1 memref of f16, got memref<4x4xf16>}}
  "coopvec.reduce_sum_accumulate"(%v, %g, %i) : (!coopvec.vec<4, f16>, memref<4x4xf16>, index) -> ()
  return
}

// -----

//===----------------------------------------------------------------------===//
// matrix_view
//===----------------------------------------------------------------------===//

func.func @matrix_view_buffer_element(%b: memref<?xf32>) {
  // expected-error@+1 {{'coopvec.matrix_view' op buffer must be a rank-1 memref of f16, got memref<?xf32>}}
  %0 = "coopvec.matrix_view"(%b) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<4, 4, f16, "row_major">
  return
}

// -----

func.func @matrix_view_buffer_rank2(%b: memref<4x4xf16>) {
  // expected-error@+1 {{'coopvec.matrix_view' op buffer must be a rank-1 memref of f16, got memref<4x4xf16>}}
  %0 = "coopvec.matrix_view"(%b) {offset = 0} : (memref<4x4xf16>) -> !coopvec.matrix<4, 4, f16, "row_major">
  return
}

// -----

func.func @matrix_view_buffer_strided(%b: memref<?xf16, strided<[2]>>) {
  // expected-error@+1 {{'coopvec.matrix_view' op buffer memref<?xf16, strided<[2]>> must have unit stride}}
  %0 = "coopvec.matrix_view"(%b) {offset = 0} : (memref<?xf16, strided<[2]>>) -> !coopvec.matrix<4, 4, f16, "row_major">
  return
}

// -----

func.func @matrix_view_offset_unsigned(%b: memref<?xf16>) {
  // expected-error@+1 {{'coopvec.matrix_view' op requires an 'offset' attribute holding a byte offset as a signless integer (e.g. `{offset = 0}`)}}
  %0 = "coopvec.matrix_view"(%b) {offset = 0 : ui64} : (memref<?xf16>) -> !coopvec.matrix<4, 4, f16, "row_major">
  return
}

// -----

func.func @matrix_view_offset_i128(%b: memref<?xf16>) {
  // expected-error@+1 {{'coopvec.matrix_view' op requires an 'offset' attribute holding a byte offset as a signless integer}}
  %0 = "coopvec.matrix_view"(%b) {offset = 0 : i128} : (memref<?xf16>) -> !coopvec.matrix<4, 4, f16, "row_major">
  return
}

// -----

func.func @matrix_view_offset_negative(%b: memref<?xf16>) {
  // expected-error@+1 {{'coopvec.matrix_view' op offset -16 must not be negative}}
  %0 = "coopvec.matrix_view"(%b) {offset = -16} : (memref<?xf16>) -> !coopvec.matrix<4, 4, f16, "row_major">
  return
}

// -----

func.func @matrix_view_offset_splits_element(%b: memref<?xf32>) {
  // expected-error@+1 {{'coopvec.matrix_view' op offset 2 is not a multiple of the element size (4 bytes)}}
  %0 = "coopvec.matrix_view"(%b) {offset = 2} : (memref<?xf32>) -> !coopvec.matrix<4, 4, f32, "row_major">
  return
}

// -----

func.func @matrix_view_row_major_alignment(%b: memref<?xf16>) {
  // expected-error@+1 {{'coopvec.matrix_view' op offset 8 is not a multiple of 16 bytes, the alignment of layout 'row_major'}}
  %0 = "coopvec.matrix_view"(%b) {offset = 8} : (memref<?xf16>) -> !coopvec.matrix<4, 4, f16, "row_major">
  return
}

// -----

func.func @matrix_view_col_major_alignment(%b: memref<?xf32>) {
  // expected-error@+1 {{'coopvec.matrix_view' op offset 36 is not a multiple of 16 bytes, the alignment of layout 'col_major'}}
  %0 = "coopvec.matrix_view"(%b) {offset = 36} : (memref<?xf32>) -> !coopvec.matrix<4, 4, f32, "col_major">
  return
}

// -----

func.func @matrix_view_inference_alignment(%b: memref<?xf16>) {
  // expected-error@+1 {{'coopvec.matrix_view' op offset 32 is not a multiple of 64 bytes, the alignment of layout 'inference'}}
  %0 = "coopvec.matrix_view"(%b) {offset = 32} : (memref<?xf16>) -> !coopvec.matrix<16, 16, f16, "inference">
  return
}

// -----

func.func @matrix_view_training_alignment(%b: memref<?xf16>) {
  // expected-error@+1 {{'coopvec.matrix_view' op offset 16 is not a multiple of 64 bytes, the alignment of layout 'training'}}
  %0 = "coopvec.matrix_view"(%b) {offset = 16 : index} : (memref<?xf16>) -> !coopvec.matrix<16, 16, f16, "training">
  return
}

// -----

func.func @matrix_view_does_not_fit(%b: memref<64xf32>) {
  // 16 bytes = 4 elements, then 6 x 11 = 66 elements: 70 > 64.
  // expected-error@+1 {{'coopvec.matrix_view' op !coopvec.matrix<6 : i64, 11 : i64, f32, "row_major"> at byte offset 16 needs 70 elements, but the buffer has 64}}
  %0 = "coopvec.matrix_view"(%b) {offset = 16} : (memref<64xf32>) -> !coopvec.matrix<6, 11, f32, "row_major">
  return
}

// -----

func.func @matrix_view_offset_past_end(%b: memref<256xf16>) {
  // expected-error@+1 {{at byte offset 512 needs 257 elements, but the buffer has 256}}
  %0 = "coopvec.matrix_view"(%b) {offset = 512} : (memref<256xf16>) -> !coopvec.matrix<1, 1, f16, "inference">
  return
}
