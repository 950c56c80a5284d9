// Type rules of coopvec-verify (lib/Dialect/Verifier.c): what IRDL accepts
// in a type but coopvec does not. Stock mlir-opt accepts every case (the
// first RUN line), so each error below comes from the C verifier.
// RUN: mlir-opt --irdl-file=%irdl --split-input-file %s > /dev/null
// RUN: coopvec-opt --split-input-file --verify-diagnostics %s

// expected-error@+1 {{'func.func' op uses !coopvec.vec<0 : i64, f32> with size 0; it must be between 1 and 4096}}
func.func @vec_size_zero(%v: !coopvec.vec<0, f32>) {
  return
}

// -----

// expected-error@+1 {{with size -3; it must be between 1 and 4096}}
func.func @vec_size_negative(%v: !coopvec.vec<-3, f16>) {
  return
}

// -----

// expected-error@+1 {{'func.func' op uses !coopvec.vec<4097 : i64, f32> with size 4097; it must be between 1 and 4096}}
func.func @vec_size_too_large(%v: !coopvec.vec<4097, f32>) {
  return
}

// -----

func.func @vec_result_size_zero(%x: f32) {
  // expected-error@+1 {{'coopvec.splat' op uses !coopvec.vec<0 : i64, f32> with size 0}}
  %0 = "coopvec.splat"(%x) : (f32) -> !coopvec.vec<0, f32>
  return
}

// -----

// expected-error@+1 {{'func.func' op uses !coopvec.matrix<0 : i64, 4 : i64, f16, "row_major"> with rows 0; it must be between 1 and 4096}}
func.func @matrix_no_rows(%m: !coopvec.matrix<0, 4, f16, "row_major">) {
  return
}

// -----

// expected-error@+1 {{'func.func' op uses !coopvec.matrix<4 : i64, 5000 : i64, f32, "col_major"> with cols 5000; it must be between 1 and 4096}}
func.func @matrix_too_many_cols(%m: !coopvec.matrix<4, 5000, f32, "col_major">) {
  return
}

// -----

// expected-error@+1 {{'func.func' op uses a matrix with layout 'inference', which is not available for element type f32}}
func.func @f32_inference(%m: !coopvec.matrix<16, 16, f32, "inference">) {
  return
}

// -----

// expected-error@+1 {{'func.func' op uses a matrix with layout 'training', which is not available for element type f32}}
func.func @f32_training(%m: !coopvec.matrix<16, 16, f32, "training">) {
  return
}

// -----

func.func @matrix_result_f32_training(%b: memref<?xf32>) {
  // expected-error@+1 {{'coopvec.matrix_view' op uses a matrix with layout 'training', which is not available for element type f32}}
  %0 = "coopvec.matrix_view"(%b) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<4, 4, f32, "training">
  return
}

// -----

// expected-error@+1 {{'func.func' op uses !coopvec.vec<4 : i32, f32>, whose sizes must be i64 integers (write them without a type, as in !coopvec.vec<4 : i64, f32>)}}
func.func @vec_size_i32(%v: !coopvec.vec<4 : i32, f32>) {
  return
}

// -----

// expected-error@+1 {{'func.func' op uses !coopvec.matrix<4 : i64, 8 : index, f16, "row_major">, whose sizes must be i64 integers (write them without a type, as in !coopvec.matrix<4 : i64, 8 : i64, f16, "row_major">)}}
func.func @matrix_cols_index(%m: !coopvec.matrix<4, 8 : index, f16, "row_major">) {
  return
}
