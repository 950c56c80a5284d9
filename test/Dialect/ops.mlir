// Round trip of every coopvec op and both types, with both element types
// and every layout legal for each, through coopvec-opt (twice) and through
// stock mlir-opt with the IRDL file.
// RUN: coopvec-opt %s | coopvec-opt | FileCheck %s
// RUN: mlir-opt --irdl-file=%irdl %s | FileCheck %s

// CHECK-LABEL: func.func @types
// CHECK-SAME: !coopvec.vec<1 : i64, f16>
// CHECK-SAME: !coopvec.vec<4096 : i64, f32>
// CHECK-SAME: !coopvec.matrix<16 : i64, 32 : i64, f16, "row_major">
// CHECK-SAME: !coopvec.matrix<16 : i64, 32 : i64, f16, "col_major">
// CHECK-SAME: !coopvec.matrix<16 : i64, 32 : i64, f16, "inference">
// CHECK-SAME: !coopvec.matrix<16 : i64, 32 : i64, f16, "training">
// CHECK-SAME: !coopvec.matrix<1 : i64, 4096 : i64, f32, "row_major">
// CHECK-SAME: !coopvec.matrix<4096 : i64, 1 : i64, f32, "col_major">
func.func @types(%a: !coopvec.vec<1, f16>, %b: !coopvec.vec<4096, f32>,
                 %c: !coopvec.matrix<16, 32, f16, "row_major">,
                 %d: !coopvec.matrix<16, 32, f16, "col_major">,
                 %e: !coopvec.matrix<16, 32, f16, "inference">,
                 %f: !coopvec.matrix<16, 32, f16, "training">,
                 %g: !coopvec.matrix<1, 4096, f32, "row_major">,
                 %h: !coopvec.matrix<4096, 1, f32, "col_major">) {
  return
}

// CHECK-LABEL: func.func @construction
// CHECK-SAME: (%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[H:.*]]: f16, %[[V:.*]]: vector<2xf32>)
func.func @construction(%x: f32, %y: f32, %h: f16, %v: vector<2xf32>)
    -> (f32, f32, vector<2xf32>, !coopvec.vec<8, f16>, !coopvec.vec<2, f16>) {
  // CHECK: %[[E:.*]] = "coopvec.from_elements"(%[[X]], %[[Y]]) : (f32, f32) -> !coopvec.vec<2 : i64, f32>
  %e = "coopvec.from_elements"(%x, %y) : (f32, f32) -> !coopvec.vec<2, f32>
  // CHECK: %[[U:.*]]:2 = "coopvec.unpack"(%[[E]]) : (!coopvec.vec<2 : i64, f32>) -> (f32, f32)
  %u:2 = "coopvec.unpack"(%e) : (!coopvec.vec<2, f32>) -> (f32, f32)
  // CHECK: %[[S:.*]] = "coopvec.splat"(%[[H]]) : (f16) -> !coopvec.vec<8 : i64, f16>
  %s = "coopvec.splat"(%h) : (f16) -> !coopvec.vec<8, f16>
  // CHECK: %[[FV:.*]] = "coopvec.from_vector"(%[[V]]) : (vector<2xf32>) -> !coopvec.vec<2 : i64, f32>
  %fv = "coopvec.from_vector"(%v) : (vector<2xf32>) -> !coopvec.vec<2, f32>
  // CHECK: %[[TV:.*]] = "coopvec.to_vector"(%[[FV]]) : (!coopvec.vec<2 : i64, f32>) -> vector<2xf32>
  %tv = "coopvec.to_vector"(%fv) : (!coopvec.vec<2, f32>) -> vector<2xf32>
  // CHECK: %[[C:.*]] = "coopvec.cast"(%[[E]]) : (!coopvec.vec<2 : i64, f32>) -> !coopvec.vec<2 : i64, f16>
  %c = "coopvec.cast"(%e) : (!coopvec.vec<2, f32>) -> !coopvec.vec<2, f16>
  // A cast to the same element type is valid (coopvec-canonicalize folds it).
  // CHECK: %[[SAME:.*]] = "coopvec.cast"(%[[C]]) : (!coopvec.vec<2 : i64, f16>) -> !coopvec.vec<2 : i64, f16>
  %same = "coopvec.cast"(%c) : (!coopvec.vec<2, f16>) -> !coopvec.vec<2, f16>
  // CHECK: return %[[U]]#0, %[[U]]#1, %[[TV]], %[[S]], %[[SAME]]
  return %u#0, %u#1, %tv, %s, %same : f32, f32, vector<2xf32>, !coopvec.vec<8, f16>, !coopvec.vec<2, f16>
}

// CHECK-LABEL: func.func @transfer
// CHECK-SAME: (%[[BUF:.*]]: memref<?xf16>, %[[I:.*]]: index, %[[MASK:.*]]: vector<4xi1>, %[[PAD:.*]]: f16)
func.func @transfer(%buf: memref<?xf16>, %i: index, %mask: vector<4xi1>, %pad: f16) {
  // CHECK: %[[L:.*]] = "coopvec.load"(%[[BUF]], %[[I]]) : (memref<?xf16>, index) -> !coopvec.vec<4 : i64, f16>
  %l = "coopvec.load"(%buf, %i) : (memref<?xf16>, index) -> !coopvec.vec<4, f16>
  // CHECK: %[[ML:.*]] = "coopvec.masked_load"(%[[BUF]], %[[I]], %[[MASK]], %[[PAD]]) : (memref<?xf16>, index, vector<4xi1>, f16) -> !coopvec.vec<4 : i64, f16>
  %ml = "coopvec.masked_load"(%buf, %i, %mask, %pad) : (memref<?xf16>, index, vector<4xi1>, f16) -> !coopvec.vec<4, f16>
  // CHECK: "coopvec.store"(%[[L]], %[[BUF]], %[[I]]) : (!coopvec.vec<4 : i64, f16>, memref<?xf16>, index) -> ()
  "coopvec.store"(%l, %buf, %i) : (!coopvec.vec<4, f16>, memref<?xf16>, index) -> ()
  // CHECK: "coopvec.masked_store"(%[[ML]], %[[BUF]], %[[I]], %[[MASK]]) : (!coopvec.vec<4 : i64, f16>, memref<?xf16>, index, vector<4xi1>) -> ()
  "coopvec.masked_store"(%ml, %buf, %i, %mask) : (!coopvec.vec<4, f16>, memref<?xf16>, index, vector<4xi1>) -> ()
  return
}

// CHECK-LABEL: func.func @matrix_views
// CHECK-SAME: (%[[W16:.*]]: memref<?xf16>, %[[W32:.*]]: memref<64xf32>)
func.func @matrix_views(%w16: memref<?xf16>, %w32: memref<64xf32>) {
  // CHECK: "coopvec.matrix_view"(%[[W16]]) {offset = 0 : i64} : (memref<?xf16>) -> !coopvec.matrix<16 : i64, 16 : i64, f16, "row_major">
  %0 = "coopvec.matrix_view"(%w16) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<16, 16, f16, "row_major">
  // CHECK: "coopvec.matrix_view"(%[[W16]]) {offset = 16 : i64} : (memref<?xf16>) -> !coopvec.matrix<16 : i64, 16 : i64, f16, "col_major">
  %1 = "coopvec.matrix_view"(%w16) {offset = 16} : (memref<?xf16>) -> !coopvec.matrix<16, 16, f16, "col_major">
  // CHECK: "coopvec.matrix_view"(%[[W16]]) {offset = 64 : i64} : (memref<?xf16>) -> !coopvec.matrix<16 : i64, 16 : i64, f16, "inference">
  %2 = "coopvec.matrix_view"(%w16) {offset = 64} : (memref<?xf16>) -> !coopvec.matrix<16, 16, f16, "inference">
  // CHECK: "coopvec.matrix_view"(%[[W16]]) {offset = 128 : index} : (memref<?xf16>) -> !coopvec.matrix<16 : i64, 16 : i64, f16, "training">
  %3 = "coopvec.matrix_view"(%w16) {offset = 128 : index} : (memref<?xf16>) -> !coopvec.matrix<16, 16, f16, "training">
  // A static buffer that the matrix fills exactly: 16 bytes = 4 elements,
  // then 6 x 10 = 60 elements.
  // CHECK: "coopvec.matrix_view"(%[[W32]]) {offset = 16 : i64} : (memref<64xf32>) -> !coopvec.matrix<6 : i64, 10 : i64, f32, "row_major">
  %4 = "coopvec.matrix_view"(%w32) {offset = 16} : (memref<64xf32>) -> !coopvec.matrix<6, 10, f32, "row_major">
  // CHECK: "coopvec.matrix_view"(%[[W32]]) {offset = 0 : i64} : (memref<64xf32>) -> !coopvec.matrix<8 : i64, 8 : i64, f32, "col_major">
  %5 = "coopvec.matrix_view"(%w32) {offset = 0} : (memref<64xf32>) -> !coopvec.matrix<8, 8, f32, "col_major">
  return
}

// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: (%[[A:.*]]: !coopvec.vec<4 : i64, f32>, %[[B:.*]]: !coopvec.vec<4 : i64, f32>, %[[S:.*]]: f32)
func.func @elementwise(%a: !coopvec.vec<4, f32>, %b: !coopvec.vec<4, f32>, %s: f32) {
  // CHECK: "coopvec.add"(%[[A]], %[[B]]) : (!coopvec.vec<4 : i64, f32>, !coopvec.vec<4 : i64, f32>) -> !coopvec.vec<4 : i64, f32>
  %0 = "coopvec.add"(%a, %b) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  // CHECK: "coopvec.add"(%[[A]], %[[S]]) : (!coopvec.vec<4 : i64, f32>, f32) -> !coopvec.vec<4 : i64, f32>
  %1 = "coopvec.add"(%a, %s) : (!coopvec.vec<4, f32>, f32) -> !coopvec.vec<4, f32>
  // CHECK: "coopvec.sub"(%[[A]], %[[B]])
  %2 = "coopvec.sub"(%a, %b) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  // CHECK: "coopvec.sub"(%[[A]], %[[S]])
  %3 = "coopvec.sub"(%a, %s) : (!coopvec.vec<4, f32>, f32) -> !coopvec.vec<4, f32>
  // CHECK: "coopvec.mul"(%[[A]], %[[B]])
  %4 = "coopvec.mul"(%a, %b) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  // CHECK: "coopvec.mul"(%[[A]], %[[S]])
  %5 = "coopvec.mul"(%a, %s) : (!coopvec.vec<4, f32>, f32) -> !coopvec.vec<4, f32>
  // CHECK: "coopvec.min"(%[[A]], %[[B]])
  %6 = "coopvec.min"(%a, %b) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  // CHECK: "coopvec.min"(%[[A]], %[[S]])
  %7 = "coopvec.min"(%a, %s) : (!coopvec.vec<4, f32>, f32) -> !coopvec.vec<4, f32>
  // CHECK: "coopvec.max"(%[[A]], %[[B]])
  %8 = "coopvec.max"(%a, %b) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  // CHECK: "coopvec.max"(%[[A]], %[[S]])
  %9 = "coopvec.max"(%a, %s) : (!coopvec.vec<4, f32>, f32) -> !coopvec.vec<4, f32>
  // CHECK: "coopvec.step"(%[[A]], %[[B]])
  %10 = "coopvec.step"(%a, %b) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  // CHECK: "coopvec.step"(%[[A]], %[[S]])
  %11 = "coopvec.step"(%a, %s) : (!coopvec.vec<4, f32>, f32) -> !coopvec.vec<4, f32>
  // CHECK: "coopvec.fma"(%[[A]], %[[B]], %[[A]]) : (!coopvec.vec<4 : i64, f32>, !coopvec.vec<4 : i64, f32>, !coopvec.vec<4 : i64, f32>) -> !coopvec.vec<4 : i64, f32>
  %12 = "coopvec.fma"(%a, %b, %a) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  // CHECK: "coopvec.fma"(%[[A]], %[[S]], %[[S]]) : (!coopvec.vec<4 : i64, f32>, f32, f32) -> !coopvec.vec<4 : i64, f32>
  %13 = "coopvec.fma"(%a, %s, %s) : (!coopvec.vec<4, f32>, f32, f32) -> !coopvec.vec<4, f32>
  // CHECK: "coopvec.fma"(%[[A]], %[[S]], %[[B]]) : (!coopvec.vec<4 : i64, f32>, f32, !coopvec.vec<4 : i64, f32>) -> !coopvec.vec<4 : i64, f32>
  %14 = "coopvec.fma"(%a, %s, %b) : (!coopvec.vec<4, f32>, f32, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  // CHECK: "coopvec.neg"(%[[A]]) : (!coopvec.vec<4 : i64, f32>) -> !coopvec.vec<4 : i64, f32>
  %15 = "coopvec.neg"(%a) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  // CHECK: "coopvec.exp2"(%[[A]])
  %16 = "coopvec.exp2"(%a) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  // CHECK: "coopvec.log2"(%[[A]])
  %17 = "coopvec.log2"(%a) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  // CHECK: "coopvec.tanh"(%[[A]])
  %18 = "coopvec.tanh"(%a) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return
}

// CHECK-LABEL: func.func @elementwise_f16
// CHECK-SAME: (%[[A:.*]]: !coopvec.vec<8 : i64, f16>, %[[S:.*]]: f16)
func.func @elementwise_f16(%a: !coopvec.vec<8, f16>, %s: f16) -> !coopvec.vec<8, f16> {
  // CHECK: %[[M:.*]] = "coopvec.mul"(%[[A]], %[[S]]) : (!coopvec.vec<8 : i64, f16>, f16) -> !coopvec.vec<8 : i64, f16>
  %m = "coopvec.mul"(%a, %s) : (!coopvec.vec<8, f16>, f16) -> !coopvec.vec<8, f16>
  // CHECK: %[[T:.*]] = "coopvec.tanh"(%[[M]]) : (!coopvec.vec<8 : i64, f16>) -> !coopvec.vec<8 : i64, f16>
  %t = "coopvec.tanh"(%m) : (!coopvec.vec<8, f16>) -> !coopvec.vec<8, f16>
  // CHECK: return %[[T]]
  return %t : !coopvec.vec<8, f16>
}

// CHECK-LABEL: func.func @matvec
// CHECK-SAME: (%[[A:.*]]: !coopvec.matrix<7 : i64, 3 : i64, f32, "row_major">, %[[X3:.*]]: !coopvec.vec<3 : i64, f32>, %[[X7:.*]]: !coopvec.vec<7 : i64, f32>)
func.func @matvec(%A: !coopvec.matrix<7, 3, f32, "row_major">, %x3: !coopvec.vec<3, f32>, %x7: !coopvec.vec<7, f32>) {
  // CHECK: "coopvec.matvec"(%[[A]], %[[X3]]) : (!coopvec.matrix<7 : i64, 3 : i64, f32, "row_major">, !coopvec.vec<3 : i64, f32>) -> !coopvec.vec<7 : i64, f32>
  %0 = "coopvec.matvec"(%A, %x3) : (!coopvec.matrix<7, 3, f32, "row_major">, !coopvec.vec<3, f32>) -> !coopvec.vec<7, f32>
  // CHECK: "coopvec.matvec"(%[[A]], %[[X3]], %[[X7]]) : (!coopvec.matrix<7 : i64, 3 : i64, f32, "row_major">, !coopvec.vec<3 : i64, f32>, !coopvec.vec<7 : i64, f32>) -> !coopvec.vec<7 : i64, f32>
  %1 = "coopvec.matvec"(%A, %x3, %x7) : (!coopvec.matrix<7, 3, f32, "row_major">, !coopvec.vec<3, f32>, !coopvec.vec<7, f32>) -> !coopvec.vec<7, f32>
  // CHECK: "coopvec.matvec"(%[[A]], %[[X7]]) {transpose} : (!coopvec.matrix<7 : i64, 3 : i64, f32, "row_major">, !coopvec.vec<7 : i64, f32>) -> !coopvec.vec<3 : i64, f32>
  %2 = "coopvec.matvec"(%A, %x7) {transpose} : (!coopvec.matrix<7, 3, f32, "row_major">, !coopvec.vec<7, f32>) -> !coopvec.vec<3, f32>
  // CHECK: "coopvec.matvec"(%[[A]], %[[X7]], %[[X3]]) {transpose} : (!coopvec.matrix<7 : i64, 3 : i64, f32, "row_major">, !coopvec.vec<7 : i64, f32>, !coopvec.vec<3 : i64, f32>) -> !coopvec.vec<3 : i64, f32>
  %3 = "coopvec.matvec"(%A, %x7, %x3) {transpose} : (!coopvec.matrix<7, 3, f32, "row_major">, !coopvec.vec<7, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  return
}

// CHECK-LABEL: func.func @matvec_f16_layouts
func.func @matvec_f16_layouts(%x: !coopvec.vec<32, f16>,
                              %c: !coopvec.matrix<16, 32, f16, "col_major">,
                              %i: !coopvec.matrix<16, 32, f16, "inference">,
                              %t: !coopvec.matrix<16, 32, f16, "training">) {
  // CHECK: "coopvec.matvec"(%{{.*}}, %{{.*}}) : (!coopvec.matrix<16 : i64, 32 : i64, f16, "col_major">, !coopvec.vec<32 : i64, f16>) -> !coopvec.vec<16 : i64, f16>
  %0 = "coopvec.matvec"(%c, %x) : (!coopvec.matrix<16, 32, f16, "col_major">, !coopvec.vec<32, f16>) -> !coopvec.vec<16, f16>
  // CHECK: "coopvec.matvec"(%{{.*}}, %{{.*}}) : (!coopvec.matrix<16 : i64, 32 : i64, f16, "inference">, !coopvec.vec<32 : i64, f16>) -> !coopvec.vec<16 : i64, f16>
  %1 = "coopvec.matvec"(%i, %x) : (!coopvec.matrix<16, 32, f16, "inference">, !coopvec.vec<32, f16>) -> !coopvec.vec<16, f16>
  // CHECK: "coopvec.matvec"(%{{.*}}, %{{.*}}) : (!coopvec.matrix<16 : i64, 32 : i64, f16, "training">, !coopvec.vec<32 : i64, f16>) -> !coopvec.vec<16 : i64, f16>
  %2 = "coopvec.matvec"(%t, %x) : (!coopvec.matrix<16, 32, f16, "training">, !coopvec.vec<32, f16>) -> !coopvec.vec<16, f16>
  return
}

// CHECK-LABEL: func.func @training
// CHECK-SAME: (%[[A:.*]]: !coopvec.vec<16 : i64, f16>, %[[B:.*]]: !coopvec.vec<32 : i64, f16>, %[[G:.*]]: !coopvec.matrix<16 : i64, 32 : i64, f16, "training">, %[[R:.*]]: !coopvec.matrix<16 : i64, 32 : i64, f16, "row_major">, %[[GB:.*]]: memref<?xf16>, %[[I:.*]]: index)
func.func @training(%a: !coopvec.vec<16, f16>, %b: !coopvec.vec<32, f16>,
                    %g: !coopvec.matrix<16, 32, f16, "training">,
                    %r: !coopvec.matrix<16, 32, f16, "row_major">,
                    %gb: memref<?xf16>, %i: index) {
  // CHECK: "coopvec.outer_product_accumulate"(%[[A]], %[[B]], %[[G]]) : (!coopvec.vec<16 : i64, f16>, !coopvec.vec<32 : i64, f16>, !coopvec.matrix<16 : i64, 32 : i64, f16, "training">) -> ()
  "coopvec.outer_product_accumulate"(%a, %b, %g) : (!coopvec.vec<16, f16>, !coopvec.vec<32, f16>, !coopvec.matrix<16, 32, f16, "training">) -> ()
  // CHECK: "coopvec.outer_product_accumulate"(%[[A]], %[[B]], %[[R]])
  "coopvec.outer_product_accumulate"(%a, %b, %r) : (!coopvec.vec<16, f16>, !coopvec.vec<32, f16>, !coopvec.matrix<16, 32, f16, "row_major">) -> ()
  // CHECK: "coopvec.reduce_sum_accumulate"(%[[A]], %[[GB]], %[[I]]) : (!coopvec.vec<16 : i64, f16>, memref<?xf16>, index) -> ()
  "coopvec.reduce_sum_accumulate"(%a, %gb, %i) : (!coopvec.vec<16, f16>, memref<?xf16>, index) -> ()
  return
}
