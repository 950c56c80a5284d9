// Rules of coopvec-verify for the construction and elementwise ops
// (lib/Dialect/OpRulesVector.c). Stock mlir-opt accepts every case (the
// first RUN line), so each error below comes from the C verifier.
// RUN: mlir-opt --irdl-file=%irdl --split-input-file %s > /dev/null
// RUN: coopvec-opt --split-input-file --verify-diagnostics %s

func.func @from_elements_too_few(%x: f32) {
  // expected-error@+1 {{'coopvec.from_elements' op has 2 operands, but !coopvec.vec<3 : i64, f32> has 3 elements}}
  %0 = "coopvec.from_elements"(%x, %x) : (f32, f32) -> !coopvec.vec<3, f32>
  return
}

// -----

func.func @from_elements_none() {
  // expected-error@+1 {{'coopvec.from_elements' op has 0 operands, but !coopvec.vec<1 : i64, f16> has 1 elements}}
  %0 = "coopvec.from_elements"() : () -> !coopvec.vec<1, f16>
  return
}

// -----

func.func @unpack_too_many(%v: !coopvec.vec<2, f16>) {
  // expected-error@+1 {{'coopvec.unpack' op has 3 results, but !coopvec.vec<2 : i64, f16> has 2 elements}}
  %0:3 = "coopvec.unpack"(%v) : (!coopvec.vec<2, f16>) -> (f16, f16, f16)
  return
}

// -----

func.func @from_vector_length(%v: vector<8xf32>) {
  // expected-error@+1 {{'coopvec.from_vector' op requires a 1-D, fixed-length builtin vector with the size and element type of !coopvec.vec<4 : i64, f32>, got vector<8xf32>}}
  %0 = "coopvec.from_vector"(%v) : (vector<8xf32>) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @from_vector_element(%v: vector<4xf16>) {
  // expected-error@+1 {{'coopvec.from_vector' op requires a 1-D, fixed-length builtin vector with the size and element type of !coopvec.vec<4 : i64, f32>, got vector<4xf16>}}
  %0 = "coopvec.from_vector"(%v) : (vector<4xf16>) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @from_vector_2d(%v: vector<2x2xf32>) {
  // expected-error@+1 {{got vector<2x2xf32>}}
  %0 = "coopvec.from_vector"(%v) : (vector<2x2xf32>) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @from_vector_scalable(%v: vector<[4]xf32>) {
  // expected-error@+1 {{got vector<[4]xf32>}}
  %0 = "coopvec.from_vector"(%v) : (vector<[4]xf32>) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @to_vector_length(%v: !coopvec.vec<4, f16>) {
  // expected-error@+1 {{'coopvec.to_vector' op requires a 1-D, fixed-length builtin vector with the size and element type of !coopvec.vec<4 : i64, f16>, got vector<2xf16>}}
  %0 = "coopvec.to_vector"(%v) : (!coopvec.vec<4, f16>) -> vector<2xf16>
  return
}

// -----

func.func @to_vector_element(%v: !coopvec.vec<4, f16>) {
  // expected-error@+1 {{got vector<4xi16>}}
  %0 = "coopvec.to_vector"(%v) : (!coopvec.vec<4, f16>) -> vector<4xi16>
  return
}

// -----

func.func @to_vector_2d(%v: !coopvec.vec<4, f16>) {
  // expected-error@+1 {{got vector<1x4xf16>}}
  %0 = "coopvec.to_vector"(%v) : (!coopvec.vec<4, f16>) -> vector<1x4xf16>
  return
}

// -----

func.func @to_vector_scalable(%v: !coopvec.vec<4, f16>) {
  // expected-error@+1 {{got vector<[4]xf16>}}
  %0 = "coopvec.to_vector"(%v) : (!coopvec.vec<4, f16>) -> vector<[4]xf16>
  return
}

// -----

func.func @add_rhs_other_size(%a: !coopvec.vec<4, f32>, %b: !coopvec.vec<8, f32>) {
  // expected-error@+1 {{'coopvec.add' op operand #1 must be !coopvec.vec<4 : i64, f32> or its element type f32, got !coopvec.vec<8 : i64, f32>}}
  %0 = "coopvec.add"(%a, %b) : (!coopvec.vec<4, f32>, !coopvec.vec<8, f32>) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @add_rhs_other_element(%a: !coopvec.vec<4, f32>, %b: !coopvec.vec<4, f16>) {
  // expected-error@+1 {{'coopvec.add' op operand #1 must be !coopvec.vec<4 : i64, f32> or its element type f32, got !coopvec.vec<4 : i64, f16>}}
  %0 = "coopvec.add"(%a, %b) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f16>) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @add_rhs_builtin_vector(%a: !coopvec.vec<4, f32>, %b: vector<4xf32>) {
  // expected-error@+1 {{'coopvec.add' op operand #1 must be !coopvec.vec<4 : i64, f32> or its element type f32, got vector<4xf32>}}
  %0 = "coopvec.add"(%a, %b) : (!coopvec.vec<4, f32>, vector<4xf32>) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @sub_rhs_scalar_type(%a: !coopvec.vec<4, f32>, %s: f16) {
  // expected-error@+1 {{'coopvec.sub' op operand #1 must be !coopvec.vec<4 : i64, f32> or its element type f32, got f16}}
  %0 = "coopvec.sub"(%a, %s) : (!coopvec.vec<4, f32>, f16) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @mul_rhs_scalar_type(%a: !coopvec.vec<4, f16>, %s: f32) {
  // expected-error@+1 {{'coopvec.mul' op operand #1 must be !coopvec.vec<4 : i64, f16> or its element type f16, got f32}}
  %0 = "coopvec.mul"(%a, %s) : (!coopvec.vec<4, f16>, f32) -> !coopvec.vec<4, f16>
  return
}

// -----

func.func @min_rhs_index(%a: !coopvec.vec<4, f16>, %s: index) {
  // expected-error@+1 {{'coopvec.min' op operand #1 must be !coopvec.vec<4 : i64, f16> or its element type f16, got index}}
  %0 = "coopvec.min"(%a, %s) : (!coopvec.vec<4, f16>, index) -> !coopvec.vec<4, f16>
  return
}

// -----

func.func @max_rhs_other_size(%a: !coopvec.vec<4, f16>, %b: !coopvec.vec<2, f16>) {
  // expected-error@+1 {{'coopvec.max' op operand #1 must be !coopvec.vec<4 : i64, f16> or its element type f16, got !coopvec.vec<2 : i64, f16>}}
  %0 = "coopvec.max"(%a, %b) : (!coopvec.vec<4, f16>, !coopvec.vec<2, f16>) -> !coopvec.vec<4, f16>
  return
}

// -----

func.func @step_edge_type(%a: !coopvec.vec<4, f32>, %e: i32) {
  // expected-error@+1 {{'coopvec.step' op operand #1 must be !coopvec.vec<4 : i64, f32> or its element type f32, got i32}}
  %0 = "coopvec.step"(%a, %e) : (!coopvec.vec<4, f32>, i32) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @fma_rhs(%a: !coopvec.vec<4, f32>, %b: !coopvec.vec<4, f16>) {
  // expected-error@+1 {{'coopvec.fma' op operand #1 must be !coopvec.vec<4 : i64, f32> or its element type f32, got !coopvec.vec<4 : i64, f16>}}
  %0 = "coopvec.fma"(%a, %b, %a) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f16>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return
}

// -----

func.func @fma_addend(%a: !coopvec.vec<4, f32>, %s: f32, %c: f64) {
  // expected-error@+1 {{'coopvec.fma' op operand #2 must be !coopvec.vec<4 : i64, f32> or its element type f32, got f64}}
  %0 = "coopvec.fma"(%a, %s, %c) : (!coopvec.vec<4, f32>, f32, f64) -> !coopvec.vec<4, f32>
  return
}
