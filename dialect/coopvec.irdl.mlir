// The coopvec dialect, defined in IRDL.
//
// This file is the single definition of the dialect: libcoopvec embeds it at
// build time and loads it with mlirLoadIRDLDialects, and any stock MLIR tool
// can load it with `mlir-opt --irdl-file=dialect/coopvec.irdl.mlir`.
//
// Element types are listed in exactly two places, the `vec` and `matrix`
// types below: every op takes its element type from the coopvec types it
// uses (a constraint variable `%t` unified across operands and results), so
// adding bf16, f8E4M3FN, f8E5M2 or i8 means adding one `irdl.is` line to each
// type here plus one row in the C element-type table
// (lib/Dialect/ElementTypes.c).
//
// What IRDL cannot express (positive sizes, matvec shape agreement under
// `transpose`, layouts legal for an element type, offset alignment, element
// counts of variadic lists, scalar-broadcast operands, memref element types)
// is checked by the C verifier pass `coopvec-verify` (lib/Dialect/Verifier.c).
irdl.dialect @coopvec {
  // A per-thread vector of `size` elements. No element indexing: the
  // compiler decides how threads cooperate on it.
  irdl.type @vec {
    %size = irdl.base "#builtin.integer"
    %f16 = irdl.is f16
    %f32 = irdl.is f32
    %element = irdl.any_of(%f16, %f32)
    irdl.parameters(size: %size, element: %element)
  }

  // A rows x cols matrix inside a (packed) weight buffer.
  irdl.type @matrix {
    %rows = irdl.base "#builtin.integer"
    %cols = irdl.base "#builtin.integer"
    %f16 = irdl.is f16
    %f32 = irdl.is f32
    %element = irdl.any_of(%f16, %f32)
    %row_major = irdl.is "row_major"
    %col_major = irdl.is "col_major"
    %inference = irdl.is "inference"
    %training = irdl.is "training"
    %layout = irdl.any_of(%row_major, %col_major, %inference, %training)
    irdl.parameters(rows: %rows, cols: %cols, element: %element, layout: %layout)
  }

  //===--------------------------------------------------------------------===//
  // Construction and unpacking
  //===--------------------------------------------------------------------===//

  irdl.operation @from_elements {
    %n = irdl.any
    %t = irdl.any
    %vec = irdl.parametric @coopvec::@vec<%n, %t>
    irdl.operands(elements: variadic %t)
    irdl.results(result: %vec)
  }

  irdl.operation @splat {
    %n = irdl.any
    %t = irdl.any
    %vec = irdl.parametric @coopvec::@vec<%n, %t>
    irdl.operands(value: %t)
    irdl.results(result: %vec)
  }

  irdl.operation @unpack {
    %n = irdl.any
    %t = irdl.any
    %vec = irdl.parametric @coopvec::@vec<%n, %t>
    irdl.operands(source: %vec)
    irdl.results(elements: variadic %t)
  }

  irdl.operation @from_vector {
    %vector = irdl.base "!builtin.vector"
    %vec = irdl.base @coopvec::@vec
    irdl.operands(source: %vector)
    irdl.results(result: %vec)
  }

  irdl.operation @to_vector {
    %vec = irdl.base @coopvec::@vec
    %vector = irdl.base "!builtin.vector"
    irdl.operands(source: %vec)
    irdl.results(result: %vector)
  }

  irdl.operation @cast {
    %n = irdl.any
    %from = irdl.any
    %to = irdl.any
    %src = irdl.parametric @coopvec::@vec<%n, %from>
    %dst = irdl.parametric @coopvec::@vec<%n, %to>
    irdl.operands(source: %src)
    irdl.results(result: %dst)
  }

  //===--------------------------------------------------------------------===//
  // Transfer
  //===--------------------------------------------------------------------===//

  irdl.operation @load {
    %n = irdl.any
    %t = irdl.any
    %vec = irdl.parametric @coopvec::@vec<%n, %t>
    %memref = irdl.base "!builtin.memref"
    %index = irdl.is index
    irdl.operands(base: %memref, offset: %index)
    irdl.results(result: %vec)
  }

  irdl.operation @masked_load {
    %n = irdl.any
    %t = irdl.any
    %vec = irdl.parametric @coopvec::@vec<%n, %t>
    %memref = irdl.base "!builtin.memref"
    %index = irdl.is index
    %mask = irdl.base "!builtin.vector"
    irdl.operands(base: %memref, offset: %index, mask: %mask, padding: %t)
    irdl.results(result: %vec)
  }

  irdl.operation @store {
    %vec = irdl.base @coopvec::@vec
    %memref = irdl.base "!builtin.memref"
    %index = irdl.is index
    irdl.operands(value: %vec, base: %memref, offset: %index)
    irdl.results()
  }

  irdl.operation @masked_store {
    %vec = irdl.base @coopvec::@vec
    %memref = irdl.base "!builtin.memref"
    %index = irdl.is index
    %mask = irdl.base "!builtin.vector"
    irdl.operands(value: %vec, base: %memref, offset: %index, mask: %mask)
    irdl.results()
  }

  irdl.operation @matrix_view {
    %memref = irdl.base "!builtin.memref"
    %offset = irdl.base "#builtin.integer"
    %matrix = irdl.base @coopvec::@matrix
    irdl.attributes {"offset" = %offset}
    irdl.operands(buffer: %memref)
    irdl.results(result: %matrix)
  }

  //===--------------------------------------------------------------------===//
  // Elementwise. Binary ops take a vec on the left and, on the right, either
  // the same vec type or a scalar of its element type (broadcast); the
  // right-hand side is checked by coopvec-verify.
  //===--------------------------------------------------------------------===//

  irdl.operation @add {
    %vec = irdl.base @coopvec::@vec
    %rhs = irdl.any
    irdl.operands(lhs: %vec, rhs: %rhs)
    irdl.results(result: %vec)
  }

  irdl.operation @sub {
    %vec = irdl.base @coopvec::@vec
    %rhs = irdl.any
    irdl.operands(lhs: %vec, rhs: %rhs)
    irdl.results(result: %vec)
  }

  irdl.operation @mul {
    %vec = irdl.base @coopvec::@vec
    %rhs = irdl.any
    irdl.operands(lhs: %vec, rhs: %rhs)
    irdl.results(result: %vec)
  }

  irdl.operation @min {
    %vec = irdl.base @coopvec::@vec
    %rhs = irdl.any
    irdl.operands(lhs: %vec, rhs: %rhs)
    irdl.results(result: %vec)
  }

  irdl.operation @max {
    %vec = irdl.base @coopvec::@vec
    %rhs = irdl.any
    irdl.operands(lhs: %vec, rhs: %rhs)
    irdl.results(result: %vec)
  }

  // step(x, edge) = x < edge ? 0 : 1 (Dr.Jit's argument order).
  irdl.operation @step {
    %vec = irdl.base @coopvec::@vec
    %edge = irdl.any
    irdl.operands(value: %vec, edge: %edge)
    irdl.results(result: %vec)
  }

  // fma(a, b, c) = a * b + c; b and c may be scalars.
  irdl.operation @fma {
    %vec = irdl.base @coopvec::@vec
    %b = irdl.any
    %c = irdl.any
    irdl.operands(lhs: %vec, rhs: %b, addend: %c)
    irdl.results(result: %vec)
  }

  irdl.operation @neg {
    %vec = irdl.base @coopvec::@vec
    irdl.operands(source: %vec)
    irdl.results(result: %vec)
  }

  irdl.operation @exp2 {
    %vec = irdl.base @coopvec::@vec
    irdl.operands(source: %vec)
    irdl.results(result: %vec)
  }

  irdl.operation @log2 {
    %vec = irdl.base @coopvec::@vec
    irdl.operands(source: %vec)
    irdl.results(result: %vec)
  }

  irdl.operation @tanh {
    %vec = irdl.base @coopvec::@vec
    irdl.operands(source: %vec)
    irdl.results(result: %vec)
  }

  //===--------------------------------------------------------------------===//
  // Matrix-vector product and training
  //===--------------------------------------------------------------------===//

  // y = A x (+ b), or y = A^T x (+ b) with the unit attribute `transpose`.
  irdl.operation @matvec {
    %m = irdl.any
    %k = irdl.any
    %layout = irdl.any
    %t = irdl.any
    %matrix = irdl.parametric @coopvec::@matrix<%m, %k, %t, %layout>
    %n_in = irdl.any
    %n_out = irdl.any
    %input = irdl.parametric @coopvec::@vec<%n_in, %t>
    %output = irdl.parametric @coopvec::@vec<%n_out, %t>
    irdl.operands(matrix: %matrix, input: %input, bias: optional %output)
    irdl.results(result: %output)
  }

  // gradient += lhs * rhs^T, accumulated atomically over all threads.
  irdl.operation @outer_product_accumulate {
    %m = irdl.any
    %k = irdl.any
    %layout = irdl.any
    %t = irdl.any
    %lhs = irdl.parametric @coopvec::@vec<%m, %t>
    %rhs = irdl.parametric @coopvec::@vec<%k, %t>
    %gradient = irdl.parametric @coopvec::@matrix<%m, %k, %t, %layout>
    irdl.operands(lhs: %lhs, rhs: %rhs, gradient: %gradient)
    irdl.results()
  }

  // gradient[offset + i] += value[i], summed over all threads.
  irdl.operation @reduce_sum_accumulate {
    %vec = irdl.base @coopvec::@vec
    %memref = irdl.base "!builtin.memref"
    %index = irdl.is index
    irdl.operands(value: %vec, gradient: %memref, offset: %index)
    irdl.results()
  }
}
