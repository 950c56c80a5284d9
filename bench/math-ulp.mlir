// The math ops measured by bench/math-ulp.c, on lane vectors of 16 elements
// as the CPU lowering's per-thread code has them (vector<16xf32>: two AVX2
// or one AVX-512 register), compiled by coopvec-lower-to-cpu, whose
// coopvec-expand-math expands them. %n is a multiple of 16.
//
// bench/CMakeLists.txt makes one copy of the first function per one-operand
// op (sin cos exp exp2 log log2 tanh atan erf rsqrt) and type (f32, f16),
// replacing `sin` and `f32`, and one of the second per two-operand op
// (atan2, powf), replacing `atan2` and `f32`.

func.func @sin_f32(%n: index, %x: memref<?xf32>, %r: memref<?xf32>)
    attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %n step %c16 {
    %a = vector.load %x[%i] : memref<?xf32>, vector<16xf32>
    %v = math.sin %a : vector<16xf32>
    vector.store %v, %r[%i] : memref<?xf32>, vector<16xf32>
  }
  return
}

func.func @atan2_f32(%n: index, %x: memref<?xf32>, %y: memref<?xf32>,
                     %r: memref<?xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %n step %c16 {
    %a = vector.load %x[%i] : memref<?xf32>, vector<16xf32>
    %b = vector.load %y[%i] : memref<?xf32>, vector<16xf32>
    %v = math.atan2 %a, %b : vector<16xf32>
    vector.store %v, %r[%i] : memref<?xf32>, vector<16xf32>
  }
  return
}
