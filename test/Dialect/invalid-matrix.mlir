// Rules of coopvec-verify for matvec and outer_product_accumulate
// (lib/Dialect/OpRulesMatrix.c). Stock mlir-opt accepts every case (the
// first RUN line), so each error below comes from the C verifier.
// RUN: mlir-opt --irdl-file=%irdl --split-input-file %s > /dev/null
// RUN: coopvec-opt --split-input-file --verify-diagnostics %s

func.func @transpose_not_unit(%A: !coopvec.matrix<4, 8, f32, "row_major">, %x: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{'coopvec.matvec' op attribute 'transpose' must be a unit attribute (write `{transpose}`)}}
  %0 = "coopvec.matvec"(%A, %x) {transpose = true} : (!coopvec.matrix<4, 8, f32, "row_major">, !coopvec.vec<4, f32>) -> !coopvec.vec<8, f32>
  return
}

// -----

func.func @input_size(%A: !coopvec.matrix<4, 8, f32, "row_major">, %x: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{'coopvec.matvec' op input has 4 elements, but the 4 x 8 matrix needs 8}}
  %0 = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<4, 8, f32, "row_major">, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @result_size(%A: !coopvec.matrix<4, 8, f16, "inference">, %x: !coopvec.vec<8, f16>) {
  // expected-error@+1 {{'coopvec.matvec' op result has 8 elements, but the 4 x 8 matrix produces 4}}
  %0 = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<4, 8, f16, "inference">, !coopvec.vec<8, f16>) -> !coopvec.vec<8, f16>
  return
}

// -----

func.func @result_size_with_bias(%A: !coopvec.matrix<4, 8, f16, "training">, %x: !coopvec.vec<8, f16>) {
  // expected-error@+1 {{'coopvec.matvec' op result has 8 elements, but the 4 x 8 matrix produces 4}}
  %0 = "coopvec.matvec"(%A, %x, %x) : (!coopvec.matrix<4, 8, f16, "training">, !coopvec.vec<8, f16>, !coopvec.vec<8, f16>) -> !coopvec.vec<8, f16>
  return
}

// -----

func.func @transposed_input_size(%A: !coopvec.matrix<4, 8, f32, "col_major">, %x: !coopvec.vec<8, f32>) {
  // expected-error@+1 {{'coopvec.matvec' op input has 8 elements, but the transposed 4 x 8 matrix needs 4}}
  %0 = "coopvec.matvec"(%A, %x) {transpose} : (!coopvec.matrix<4, 8, f32, "col_major">, !coopvec.vec<8, f32>) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @transposed_result_size(%A: !coopvec.matrix<4, 8, f32, "row_major">, %x: !coopvec.vec<4, f32>) {
  // expected-error@+1 {{'coopvec.matvec' op result has 4 elements, but the transposed 4 x 8 matrix produces 8}}
  %0 = "coopvec.matvec"(%A, %x) {transpose} : (!coopvec.matrix<4, 8, f32, "row_major">, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @accumulate_into_inference(%a: !coopvec.vec<16, f16>, %b: !coopvec.vec<32, f16>, %g: !coopvec.matrix<16, 32, f16, "inference">) {
  // expected-error@+1 {{'coopvec.outer_product_accumulate' op cannot accumulate into a matrix with layout 'inference'; use 'training', 'row_major' or 'col_major'}}
  "coopvec.outer_product_accumulate"(%a, %b, %g) : (!coopvec.vec<16, f16>, !coopvec.vec<32, f16>, !coopvec.matrix<16, 32, f16, "inference">) -> ()
  return
}
