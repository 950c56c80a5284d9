// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-vector{lanes=4})' %s | FileCheck %s
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-vector{lanes=8})' %s | FileCheck %s --check-prefix=LANES8

// A function without coopvec values is left alone.
// CHECK-LABEL: func.func @scalar_only(
// CHECK-SAME:      %[[A:.*]]: f32) -> f32 {
// CHECK-NEXT:    %[[R:.*]] = arith.addf %[[A]], %[[A]] : f32
// CHECK-NEXT:    return %[[R]] : f32
func.func @scalar_only(%a: f32) -> f32 {
  %r = arith.addf %a, %a : f32
  return %r : f32
}

// -----

// The batched signature: n, vec arguments as n x N row-major buffers,
// uniform arguments unchanged, then one output buffer per result. The lane
// loop steps by L and masks the threads past n; thread l of the group reads
// element i at (t + l) * N + i.
// CHECK-LABEL: func.func @signature_batched(
// CHECK-SAME:      %[[N:[^:]*]]: index, %[[X:[^:]*]]: memref<?xf32>, %[[Y:[^:]*]]: memref<?xf32>, %[[W:[^:]*]]: memref<?xf32>, %[[S:[^:]*]]: f32, %[[OUT0:[^:]*]]: memref<?xf32>, %[[OUT1:[^:]*]]: memref<?xf32>)
// CHECK-SAME:      attributes {llvm.emit_c_interface}
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK-DAG:     %[[STRIDES:.*]] = arith.constant dense<[0, 2, 4, 6]> : vector<4xi32>
// CHECK:         scf.for %[[T:.*]] = %[[C0]] to %[[N]] step %[[C4]] {
// CHECK-NEXT:      %[[REM:.*]] = arith.subi %[[N]], %[[T]] : index
// CHECK-NEXT:      %[[VALID:.*]] = arith.minsi %[[REM]], %[[C4]] : index
// CHECK-NEXT:      %[[MASK:.*]] = vector.create_mask %[[VALID]] : vector<4xi1>
// CHECK-NEXT:      %[[BASE:.*]] = arith.muli %[[T]], %[[C2]] : index
// CHECK-NEXT:      %[[X0:.*]] = vector.gather %[[X]][%[[BASE]]] [%[[STRIDES]]], %[[MASK]], %[[ZERO]] : memref<?xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CHECK-NEXT:      %[[BASE1:.*]] = arith.addi %[[BASE]], %[[C1]] : index
// CHECK-NEXT:      %[[X1:.*]] = vector.gather %[[X]][%[[BASE1]]] [%[[STRIDES]]], %[[MASK]], %[[ZERO]]
// CHECK-NEXT:      %[[Y0:.*]] = vector.gather %[[Y]][%[[BASE]]] [%[[STRIDES]]], %[[MASK]], %[[ZERO]]
// CHECK-NEXT:      %[[YBASE1:.*]] = arith.addi %[[BASE]], %[[C1]] : index
// CHECK-NEXT:      %[[Y1:.*]] = vector.gather %[[Y]][%[[YBASE1]]] [%[[STRIDES]]], %[[MASK]], %[[ZERO]]
// CHECK-NEXT:      %[[A0:.*]] = arith.addf %[[X0]], %[[Y0]] : vector<4xf32>
// CHECK-NEXT:      %[[A1:.*]] = arith.addf %[[X1]], %[[Y1]] : vector<4xf32>
// CHECK-NEXT:      %[[SV:.*]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK-NEXT:      %[[B0:.*]] = arith.subf %[[X0]], %[[SV]] : vector<4xf32>
// CHECK-NEXT:      %[[B1:.*]] = arith.subf %[[X1]], %[[SV]] : vector<4xf32>
// CHECK-NEXT:      vector.scatter %[[OUT0]][%[[BASE]]] [%[[STRIDES]]], %[[MASK]], %[[A0]] : memref<?xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32>
// CHECK-NEXT:      %[[OBASE1:.*]] = arith.addi %[[BASE]], %[[C1]] : index
// CHECK-NEXT:      vector.scatter %[[OUT0]][%[[OBASE1]]] [%[[STRIDES]]], %[[MASK]], %[[A1]]
// CHECK-NEXT:      vector.scatter %[[OUT1]][%[[BASE]]] [%[[STRIDES]]], %[[MASK]], %[[B0]]
// CHECK-NEXT:      %[[OBASE2:.*]] = arith.addi %[[BASE]], %[[C1]] : index
// CHECK-NEXT:      vector.scatter %[[OUT1]][%[[OBASE2]]] [%[[STRIDES]]], %[[MASK]], %[[B1]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK-NOT:   @signature(
// CHECK-NOT:   coopvec

// The `lanes` option sets the group size, the mask and the lane vectors.
// LANES8-LABEL: func.func @signature_batched(
// LANES8-DAG:     %[[C8:.*]] = arith.constant 8 : index
// LANES8-DAG:     %[[STRIDES:.*]] = arith.constant dense<[0, 2, 4, 6, 8, 10, 12, 14]> : vector<8xi32>
// LANES8:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C8]] {
// LANES8:           vector.create_mask %{{.*}} : vector<8xi1>
// LANES8:           vector.gather %{{.*}}[%{{.*}}] [%[[STRIDES]]], %{{.*}}, %{{.*}} : memref<?xf32>, vector<8xi32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// LANES8:           arith.addf %{{.*}}, %{{.*}} : vector<8xf32>
func.func @signature(%x: !coopvec.vec<2, f32>, %y: !coopvec.vec<2, f32>, %w: memref<?xf32>, %s: f32) -> (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) {
  %a = "coopvec.add"(%x, %y) : (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  %b = "coopvec.sub"(%x, %s) : (!coopvec.vec<2, f32>, f32) -> !coopvec.vec<2, f32>
  return %a, %b : !coopvec.vec<2, f32>, !coopvec.vec<2, f32>
}

// -----

// Each elementwise op on the lane vectors; a scalar operand is broadcast
// once. min / max are minnum / maxnum; step(x, e) = x < e ? 0 : 1.
// CHECK-LABEL: func.func @elementwise_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %{{[^:]*}}: memref<?xf32>, %[[S:[^:]*]]: f32, %[[OUT:[^:]*]]: memref<?xf32>)
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK-DAG:     %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<4xf32>
// CHECK:         %[[X:.*]] = vector.gather
// CHECK-NEXT:    %[[Y:.*]] = vector.gather
// CHECK-NEXT:    %[[MUL:.*]] = arith.mulf %[[X]], %[[Y]] : vector<4xf32>
// CHECK-NEXT:    %[[MIN:.*]] = arith.minnumf %[[MUL]], %[[Y]] : vector<4xf32>
// CHECK-NEXT:    %[[SV:.*]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK-NEXT:    %[[MAX:.*]] = arith.maxnumf %[[MIN]], %[[SV]] : vector<4xf32>
// CHECK-NEXT:    %[[NEG:.*]] = arith.negf %[[MAX]] : vector<4xf32>
// CHECK-NEXT:    %[[FMA:.*]] = math.fma %[[NEG]], %[[SV]], %[[Y]] : vector<4xf32>
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpf olt, %[[FMA]], %[[SV]] : vector<4xf32>
// CHECK-NEXT:    %[[STEP:.*]] = arith.select %[[LT]], %[[ZERO]], %[[ONE]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:    %[[EXP:.*]] = math.exp2 %[[STEP]] : vector<4xf32>
// CHECK-NEXT:    %[[LOG:.*]] = math.log2 %[[EXP]] : vector<4xf32>
// CHECK-NEXT:    %[[TANH:.*]] = math.tanh %[[LOG]] : vector<4xf32>
// CHECK-NEXT:    vector.scatter %[[OUT]][%{{.*}}] [%{{.*}}], %{{.*}}, %[[TANH]]
func.func @elementwise(%x: !coopvec.vec<1, f32>, %y: !coopvec.vec<1, f32>, %s: f32) -> !coopvec.vec<1, f32> {
  %0 = "coopvec.mul"(%x, %y) : (!coopvec.vec<1, f32>, !coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
  %1 = "coopvec.min"(%0, %y) : (!coopvec.vec<1, f32>, !coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
  %2 = "coopvec.max"(%1, %s) : (!coopvec.vec<1, f32>, f32) -> !coopvec.vec<1, f32>
  %3 = "coopvec.neg"(%2) : (!coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
  %4 = "coopvec.fma"(%3, %s, %y) : (!coopvec.vec<1, f32>, f32, !coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
  %5 = "coopvec.step"(%4, %s) : (!coopvec.vec<1, f32>, f32) -> !coopvec.vec<1, f32>
  %6 = "coopvec.exp2"(%5) : (!coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
  %7 = "coopvec.log2"(%6) : (!coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
  %8 = "coopvec.tanh"(%7) : (!coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
  return %8 : !coopvec.vec<1, f32>
}

// -----

// unpack results are per-thread scalars (lane vectors); a uniform vector
// given to from_vector is broadcast element by element; to_vector and
// from_vector of a per-thread value pass its lanes through.
// CHECK-LABEL: func.func @construct_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %[[S:[^:]*]]: f32, %[[V:[^:]*]]: vector<2xf32>, %{{[^:]*}}: memref<?xf32>)
// CHECK:         %[[X0:.*]] = vector.gather
// CHECK:         %[[X1:.*]] = vector.gather
// CHECK-NEXT:    %[[SV:.*]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK-NEXT:    %[[V0:.*]] = vector.extract %[[V]][0] : f32 from vector<2xf32>
// CHECK-NEXT:    %[[V0B:.*]] = vector.broadcast %[[V0]] : f32 to vector<4xf32>
// CHECK-NEXT:    %[[V1:.*]] = vector.extract %[[V]][1] : f32 from vector<2xf32>
// CHECK-NEXT:    %[[V1B:.*]] = vector.broadcast %[[V1]] : f32 to vector<4xf32>
// CHECK-NEXT:    %[[ADD0:.*]] = arith.addf %[[X0]], %[[V0B]] : vector<4xf32>
// CHECK-NEXT:    %[[ADD1:.*]] = arith.addf %[[X0]], %[[V1B]] : vector<4xf32>
// CHECK-NEXT:    %[[MUL0:.*]] = arith.mulf %[[ADD0]], %[[X1]] : vector<4xf32>
// CHECK-NEXT:    %[[MUL1:.*]] = arith.mulf %[[ADD1]], %[[SV]] : vector<4xf32>
// CHECK-NEXT:    arith.addf %[[MUL0]], %[[X1]] : vector<4xf32>
// CHECK-NEXT:    arith.addf %[[MUL1]], %[[X1]] : vector<4xf32>
func.func @construct(%x: !coopvec.vec<2, f32>, %s: f32, %v: vector<2xf32>) -> !coopvec.vec<2, f32> {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %a = "coopvec.from_elements"(%e#1, %s) : (f32, f32) -> !coopvec.vec<2, f32>
  %b = "coopvec.splat"(%e#0) : (f32) -> !coopvec.vec<2, f32>
  %c = "coopvec.from_vector"(%v) : (vector<2xf32>) -> !coopvec.vec<2, f32>
  %t = "coopvec.to_vector"(%a) : (!coopvec.vec<2, f32>) -> vector<2xf32>
  %d = "coopvec.from_vector"(%t) : (vector<2xf32>) -> !coopvec.vec<2, f32>
  %0 = "coopvec.add"(%b, %c) : (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  %1 = "coopvec.mul"(%0, %d) : (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  %2 = "coopvec.add"(%1, %e#1) : (!coopvec.vec<2, f32>, f32) -> !coopvec.vec<2, f32>
  return %2 : !coopvec.vec<2, f32>
}

// -----

// Offsets and masks are uniform: a load reads N elements once and
// broadcasts each to all lanes; masked_load uses vector.maskedload with the
// (uniform) padding as pass-through, or selects a per-thread padding per
// element. A store writes the value of the group's last valid thread.
// CHECK-LABEL: func.func @memory_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %[[BUF:[^:]*]]: memref<?xf32>, %[[OFF:[^:]*]]: index, %[[M:[^:]*]]: vector<2xi1>, %[[PAD:[^:]*]]: f32, %{{[^:]*}}: memref<?xf32>)
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[ZERO2:.*]] = arith.constant dense<0.000000e+00> : vector<2xf32>
// CHECK:           %[[VALID:.*]] = arith.minsi
// CHECK:           %[[X0:.*]] = vector.gather
// CHECK:           %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:      %[[OFF4:.*]] = arith.addi %[[OFF]], %[[C4]] : index
// CHECK-NEXT:      %[[L:.*]] = vector.load %[[BUF]][%[[OFF4]]] : memref<?xf32>, vector<2xf32>
// CHECK-NEXT:      %[[L0:.*]] = vector.extract %[[L]][0] : f32 from vector<2xf32>
// CHECK-NEXT:      %[[A0:.*]] = vector.broadcast %[[L0]] : f32 to vector<4xf32>
// CHECK-NEXT:      %[[L1:.*]] = vector.extract %[[L]][1] : f32 from vector<2xf32>
// CHECK-NEXT:      %[[A1:.*]] = vector.broadcast %[[L1]] : f32 to vector<4xf32>
// CHECK-NEXT:      %[[PADV:.*]] = vector.broadcast %[[PAD]] : f32 to vector<2xf32>
// CHECK-NEXT:      %[[ML:.*]] = vector.maskedload %[[BUF]][%[[OFF]]], %[[M]], %[[PADV]] : memref<?xf32>, vector<2xi1>, vector<2xf32> into vector<2xf32>
// CHECK-NEXT:      %[[ML0:.*]] = vector.extract %[[ML]][0] : f32 from vector<2xf32>
// CHECK-NEXT:      %[[B0:.*]] = vector.broadcast %[[ML0]] : f32 to vector<4xf32>
// CHECK-NEXT:      %[[ML1:.*]] = vector.extract %[[ML]][1] : f32 from vector<2xf32>
// CHECK-NEXT:      %[[B1:.*]] = vector.broadcast %[[ML1]] : f32 to vector<4xf32>
// CHECK-NEXT:      %[[PL:.*]] = vector.maskedload %[[BUF]][%[[OFF]]], %[[M]], %[[ZERO2]]
// CHECK-NEXT:      %[[PL0:.*]] = vector.extract %[[PL]][0] : f32 from vector<2xf32>
// CHECK-NEXT:      %[[PL0B:.*]] = vector.broadcast %[[PL0]] : f32 to vector<4xf32>
// CHECK-NEXT:      %[[BIT0:.*]] = vector.extract %[[M]][0] : i1 from vector<2xi1>
// CHECK-NEXT:      %[[C0V:.*]] = arith.select %[[BIT0]], %[[PL0B]], %[[X0]] : vector<4xf32>
// CHECK:           %[[LAST:.*]] = arith.subi %[[VALID]], %[[C1]] : index
// CHECK-NEXT:      %[[S0:.*]] = vector.extract %[[A0]][%[[LAST]]] : f32 from vector<4xf32>
// CHECK-NEXT:      %[[S1:.*]] = vector.extract %[[A1]][%[[LAST]]] : f32 from vector<4xf32>
// CHECK-NEXT:      %[[SV:.*]] = vector.from_elements %[[S0]], %[[S1]] : vector<2xf32>
// CHECK-NEXT:      vector.store %[[SV]], %[[BUF]][%[[OFF]]] : memref<?xf32>, vector<2xf32>
// CHECK-NEXT:      %[[T0:.*]] = vector.extract %[[B0]][%[[LAST]]] : f32 from vector<4xf32>
// CHECK-NEXT:      %[[T1:.*]] = vector.extract %[[B1]][%[[LAST]]] : f32 from vector<4xf32>
// CHECK-NEXT:      %[[TV:.*]] = vector.from_elements %[[T0]], %[[T1]] : vector<2xf32>
// CHECK-NEXT:      vector.maskedstore %[[BUF]][%[[OFF]]], %[[M]], %[[TV]] : memref<?xf32>, vector<2xi1>, vector<2xf32>
// CHECK-NEXT:      vector.scatter %{{.*}}, %[[C0V]]
func.func @memory(%x: !coopvec.vec<2, f32>, %buf: memref<?xf32>, %off: index, %mask: vector<2xi1>, %pad: f32) -> !coopvec.vec<2, f32> {
  %c4 = arith.constant 4 : index
  %off4 = arith.addi %off, %c4 : index
  %a = "coopvec.load"(%buf, %off4) : (memref<?xf32>, index) -> !coopvec.vec<2, f32>
  %b = "coopvec.masked_load"(%buf, %off, %mask, %pad) : (memref<?xf32>, index, vector<2xi1>, f32) -> !coopvec.vec<2, f32>
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %c = "coopvec.masked_load"(%buf, %off, %mask, %e#0) : (memref<?xf32>, index, vector<2xi1>, f32) -> !coopvec.vec<2, f32>
  "coopvec.store"(%a, %buf, %off) : (!coopvec.vec<2, f32>, memref<?xf32>, index) -> ()
  "coopvec.masked_store"(%b, %buf, %off, %mask) : (!coopvec.vec<2, f32>, memref<?xf32>, index, vector<2xi1>) -> ()
  return %c : !coopvec.vec<2, f32>
}

// -----

// matvec without bias: W[o, p] is a scalar load at (offset / 4) + o * K + p,
// broadcast; the first product starts each accumulator, then one fma per
// input element, rows of a block interleaved so x_p is reused.
// CHECK-LABEL: func.func @matvec_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %[[W:[^:]*]]: memref<?xf32>, %{{[^:]*}}: memref<?xf32>)
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG:     %[[C7:.*]] = arith.constant 7 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C9:.*]] = arith.constant 9 : index
// CHECK:         %[[X0:.*]] = vector.gather
// CHECK:         %[[X1:.*]] = vector.gather
// CHECK-NEXT:    %[[W00:.*]] = memref.load %[[W]][%[[C4]]] : memref<?xf32>
// CHECK-NEXT:    %[[W00B:.*]] = vector.broadcast %[[W00]] : f32 to vector<4xf32>
// CHECK-NEXT:    %[[P0:.*]] = arith.mulf %[[W00B]], %[[X0]] : vector<4xf32>
// CHECK-NEXT:    %[[W10:.*]] = memref.load %[[W]][%[[C6]]]
// CHECK-NEXT:    %[[W10B:.*]] = vector.broadcast %[[W10]]
// CHECK-NEXT:    %[[P1:.*]] = arith.mulf %[[W10B]], %[[X0]]
// CHECK-NEXT:    %[[W20:.*]] = memref.load %[[W]][%[[C8]]]
// CHECK-NEXT:    %[[W20B:.*]] = vector.broadcast %[[W20]]
// CHECK-NEXT:    %[[P2:.*]] = arith.mulf %[[W20B]], %[[X0]]
// CHECK-NEXT:    %[[W01:.*]] = memref.load %[[W]][%[[C5]]]
// CHECK-NEXT:    %[[W01B:.*]] = vector.broadcast %[[W01]]
// CHECK-NEXT:    %[[Y0:.*]] = math.fma %[[W01B]], %[[X1]], %[[P0]] : vector<4xf32>
// CHECK-NEXT:    %[[W11:.*]] = memref.load %[[W]][%[[C7]]]
// CHECK-NEXT:    %[[W11B:.*]] = vector.broadcast %[[W11]]
// CHECK-NEXT:    %[[Y1:.*]] = math.fma %[[W11B]], %[[X1]], %[[P1]]
// CHECK-NEXT:    %[[W21:.*]] = memref.load %[[W]][%[[C9]]]
// CHECK-NEXT:    %[[W21B:.*]] = vector.broadcast %[[W21]]
// CHECK-NEXT:    %[[Y2:.*]] = math.fma %[[W21B]], %[[X1]], %[[P2]]
// CHECK:         vector.scatter {{.*}}, %[[Y0]]
// CHECK:         vector.scatter {{.*}}, %[[Y1]]
// CHECK:         vector.scatter {{.*}}, %[[Y2]]
func.func @matvec(%x: !coopvec.vec<2, f32>, %w: memref<?xf32>) -> !coopvec.vec<3, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 16} : (memref<?xf32>) -> !coopvec.matrix<3, 2, f32, "row_major">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<3, 2, f32, "row_major">, !coopvec.vec<2, f32>) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

// -----

// transpose with bias on a col_major 3 x 2 matrix: y_j = b_j + sum_i
// A[i, j] x_i with A[i, j] at j * 3 + i; the bias starts the accumulators.
// CHECK-LABEL: func.func @matvec_bias_transpose_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %{{[^:]*}}: memref<?xf32>, %[[W:[^:]*]]: memref<?xf32>, %{{[^:]*}}: memref<?xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CHECK:         %[[X0:.*]] = vector.gather
// CHECK:         %[[X1:.*]] = vector.gather
// CHECK:         %[[X2:.*]] = vector.gather
// CHECK:         %[[B0:.*]] = vector.gather
// CHECK:         %[[B1:.*]] = vector.gather
// CHECK-NEXT:    %[[A00:.*]] = memref.load %[[W]][%[[C0]]]
// CHECK-NEXT:    %[[A00B:.*]] = vector.broadcast %[[A00]]
// CHECK-NEXT:    %[[S0:.*]] = math.fma %[[A00B]], %[[X0]], %[[B0]]
// CHECK-NEXT:    %[[A01:.*]] = memref.load %[[W]][%[[C3]]]
// CHECK-NEXT:    %[[A01B:.*]] = vector.broadcast %[[A01]]
// CHECK-NEXT:    %[[S1:.*]] = math.fma %[[A01B]], %[[X0]], %[[B1]]
// CHECK-NEXT:    memref.load %[[W]][%[[C1]]]
// CHECK-NEXT:    vector.broadcast
// CHECK-NEXT:    %[[T0:.*]] = math.fma %{{.*}}, %[[X1]], %[[S0]]
// CHECK-NEXT:    memref.load %[[W]][%[[C4]]]
// CHECK-NEXT:    vector.broadcast
// CHECK-NEXT:    %[[T1:.*]] = math.fma %{{.*}}, %[[X1]], %[[S1]]
// CHECK-NEXT:    memref.load %[[W]][%[[C2]]]
// CHECK-NEXT:    vector.broadcast
// CHECK-NEXT:    %[[U0:.*]] = math.fma %{{.*}}, %[[X2]], %[[T0]]
// CHECK-NEXT:    memref.load %[[W]][%[[C5]]]
// CHECK-NEXT:    vector.broadcast
// CHECK-NEXT:    %[[U1:.*]] = math.fma %{{.*}}, %[[X2]], %[[T1]]
// CHECK:         vector.scatter {{.*}}, %[[U0]]
// CHECK:         vector.scatter {{.*}}, %[[U1]]
func.func @matvec_bias_transpose(%x: !coopvec.vec<3, f32>, %b: !coopvec.vec<2, f32>, %w: memref<?xf32>) -> !coopvec.vec<2, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<3, 2, f32, "col_major">
  %y = "coopvec.matvec"(%A, %x, %b) {transpose} : (!coopvec.matrix<3, 2, f32, "col_major">, !coopvec.vec<3, f32>, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

// -----

// f16 is stored as f16 and computed in f32: extf after loads, truncf
// before stores. The inference layout is row-major on the CPU; the offset
// is in bytes (64 bytes = element 32).
// CHECK-LABEL: func.func @matvec_f16_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %[[X:[^:]*]]: memref<?xf16>, %[[W:[^:]*]]: memref<?xf16>, %[[OUT:[^:]*]]: memref<?xf16>)
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xf16>
// CHECK:         %[[XH:.*]] = vector.gather %[[X]][%{{.*}}] [%{{.*}}], %{{.*}}, %[[ZERO]] : memref<?xf16>, vector<4xi32>, vector<4xi1>, vector<4xf16> into vector<4xf16>
// CHECK-NEXT:    %[[XF:.*]] = arith.extf %[[XH]] : vector<4xf16> to vector<4xf32>
// CHECK-NEXT:    %[[WH:.*]] = memref.load %[[W]][%[[C32]]] : memref<?xf16>
// CHECK-NEXT:    %[[WF:.*]] = arith.extf %[[WH]] : f16 to f32
// CHECK-NEXT:    %[[WB:.*]] = vector.broadcast %[[WF]] : f32 to vector<4xf32>
// CHECK-NEXT:    %[[Y:.*]] = arith.mulf %[[WB]], %[[XF]] : vector<4xf32>
// CHECK-NEXT:    %[[YH:.*]] = arith.truncf %[[Y]] : vector<4xf32> to vector<4xf16>
// CHECK-NEXT:    vector.scatter %[[OUT]][%{{.*}}] [%{{.*}}], %{{.*}}, %[[YH]] : memref<?xf16>, vector<4xi32>, vector<4xi1>, vector<4xf16>
func.func @matvec_f16(%x: !coopvec.vec<1, f16>, %w: memref<?xf16>) -> !coopvec.vec<1, f16> {
  %A = "coopvec.matrix_view"(%w) {offset = 64} : (memref<?xf16>) -> !coopvec.matrix<1, 1, f16, "inference">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<1, 1, f16, "inference">, !coopvec.vec<1, f16>) -> !coopvec.vec<1, f16>
  return %y : !coopvec.vec<1, f16>
}

// -----

// A cast to f16 rounds (truncf, extf); a cast back to f32 changes nothing.
// CHECK-LABEL: func.func @cast_batched(
// CHECK:         %[[X:.*]] = vector.gather
// CHECK-NEXT:    %[[H:.*]] = arith.truncf %[[X]] : vector<4xf32> to vector<4xf16>
// CHECK-NEXT:    %[[F:.*]] = arith.extf %[[H]] : vector<4xf16> to vector<4xf32>
// CHECK-NEXT:    vector.scatter %{{.*}}, %[[F]] :
func.func @cast(%x: !coopvec.vec<1, f32>) -> !coopvec.vec<1, f32> {
  %h = "coopvec.cast"(%x) : (!coopvec.vec<1, f32>) -> !coopvec.vec<1, f16>
  %f = "coopvec.cast"(%h) : (!coopvec.vec<1, f16>) -> !coopvec.vec<1, f32>
  return %f : !coopvec.vec<1, f32>
}

// -----

// grad[i, j] += sum over valid threads of a_i * b_j: invalid lanes of a and
// b are zeroed, then one reduction and one atomic add per element.
// CHECK-LABEL: func.func @outer_product_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %{{[^:]*}}: memref<?xf32>, %[[G:[^:]*]]: memref<?xf32>)
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK:         %[[MASK:.*]] = vector.create_mask
// CHECK:         %[[A0:.*]] = vector.gather
// CHECK:         %[[A1:.*]] = vector.gather
// CHECK-NEXT:    %[[B0:.*]] = vector.gather
// CHECK-NEXT:    %[[A0M:.*]] = arith.select %[[MASK]], %[[A0]], %[[ZERO]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:    %[[A1M:.*]] = arith.select %[[MASK]], %[[A1]], %[[ZERO]]
// CHECK-NEXT:    %[[B0M:.*]] = arith.select %[[MASK]], %[[B0]], %[[ZERO]]
// CHECK-NEXT:    %[[P00:.*]] = arith.mulf %[[A0M]], %[[B0M]] : vector<4xf32>
// CHECK-NEXT:    %[[S00:.*]] = vector.reduction <add>, %[[P00]] fastmath<reassoc> : vector<4xf32> into f32
// CHECK-NEXT:    memref.atomic_rmw addf %[[S00]], %[[G]][%[[C4]]] : (f32, memref<?xf32>) -> f32
// CHECK-NEXT:    %[[P10:.*]] = arith.mulf %[[A1M]], %[[B0M]] : vector<4xf32>
// CHECK-NEXT:    %[[S10:.*]] = vector.reduction <add>, %[[P10]]
// CHECK-NEXT:    memref.atomic_rmw addf %[[S10]], %[[G]][%[[C5]]]
func.func @outer_product(%a: !coopvec.vec<2, f32>, %b: !coopvec.vec<1, f32>, %g: memref<?xf32>) {
  %G = "coopvec.matrix_view"(%g) {offset = 16} : (memref<?xf32>) -> !coopvec.matrix<2, 1, f32, "row_major">
  "coopvec.outer_product_accumulate"(%a, %b, %G) : (!coopvec.vec<2, f32>, !coopvec.vec<1, f32>, !coopvec.matrix<2, 1, f32, "row_major">) -> ()
  return
}

// -----

// grad[offset + i] += sum over valid threads of v_i, in f32, rounded to f16
// once per group.
// CHECK-LABEL: func.func @reduce_sum_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf16>, %[[G:[^:]*]]: memref<?xf16>, %[[OFF:[^:]*]]: index)
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[MASK:.*]] = vector.create_mask
// CHECK:         %[[V0:.*]] = arith.extf
// CHECK:         %[[V1:.*]] = arith.extf
// CHECK-NEXT:    %[[M0:.*]] = arith.select %[[MASK]], %[[V0]], %{{.*}} : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:    %[[S0:.*]] = vector.reduction <add>, %[[M0]] fastmath<reassoc> : vector<4xf32> into f32
// CHECK-NEXT:    %[[H0:.*]] = arith.truncf %[[S0]] : f32 to f16
// CHECK-NEXT:    memref.atomic_rmw addf %[[H0]], %[[G]][%[[OFF]]] : (f16, memref<?xf16>) -> f16
// CHECK-NEXT:    %[[M1:.*]] = arith.select %[[MASK]], %[[V1]]
// CHECK-NEXT:    %[[S1:.*]] = vector.reduction <add>, %[[M1]]
// CHECK-NEXT:    %[[I1:.*]] = arith.addi %[[OFF]], %[[C1]] : index
// CHECK-NEXT:    %[[H1:.*]] = arith.truncf %[[S1]] : f32 to f16
// CHECK-NEXT:    memref.atomic_rmw addf %[[H1]], %[[G]][%[[I1]]] : (f16, memref<?xf16>) -> f16
func.func @reduce_sum(%v: !coopvec.vec<2, f16>, %g: memref<?xf16>, %off: index) {
  "coopvec.reduce_sum_accumulate"(%v, %g, %off) : (!coopvec.vec<2, f16>, memref<?xf16>, index) -> ()
  return
}
