// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-vector{lanes=4 row-block=2})' %s | FileCheck %s
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-vector{lanes=8 row-block=2})' %s | FileCheck %s --check-prefix=LANES8

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

// matvec without bias, in blocks of row-block=2 output rows: the input lane
// vectors are staged in a stack tile IN; each block loops over the inputs p
// with one accumulator per row, starting at -0.0 (the additive identity),
// and fmas the broadcast weight W[o, p] (at offset / 4 + o * K + p) with
// x_p. Results go to the tile OUT and are loaded back as lane vectors. The
// last M % 2 rows get one smaller block.
// CHECK-LABEL: func.func @matvec_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %[[W:[^:]*]]: memref<?xf32>, %{{[^:]*}}: memref<?xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[NEGZERO:.*]] = arith.constant dense<-0.000000e+00> : vector<4xf32>
// CHECK-DAG:     %[[IN:.*]] = memref.alloca() {alignment = 64 : i64} : memref<2x4xf32>
// CHECK-DAG:     %[[OUT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<3x4xf32>
// CHECK:         scf.for
// CHECK:           %[[X0:.*]] = vector.gather
// CHECK:           %[[X1:.*]] = vector.gather
// CHECK-NEXT:      vector.store %[[X0]], %[[IN]][%[[C0]], %[[C0]]] : memref<2x4xf32>, vector<4xf32>
// CHECK-NEXT:      vector.store %[[X1]], %[[IN]][%[[C1]], %[[C0]]] : memref<2x4xf32>, vector<4xf32>
// CHECK-NEXT:      scf.for %[[O:.*]] = %[[C0]] to %[[C2]] step %[[C2]] {
// CHECK-NEXT:        %[[O2:.*]] = arith.muli %[[O]], %[[C2]] : index
// CHECK-NEXT:        %[[START0:.*]] = arith.addi %[[O2]], %[[C4]] : index
// CHECK-NEXT:        %[[O1:.*]] = arith.addi %[[O]], %[[C1]] : index
// CHECK-NEXT:        %[[START1:.*]] = arith.addi %[[START0]], %[[C2]] : index
// CHECK-NEXT:        %[[ACC:.*]]:2 = scf.for %[[P:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[A0:.*]] = %[[NEGZERO]], %[[A1:.*]] = %[[NEGZERO]]) -> (vector<4xf32>, vector<4xf32>) {
// CHECK-NEXT:          %[[X:.*]] = vector.load %[[IN]][%[[P]], %[[C0]]] : memref<2x4xf32>, vector<4xf32>
// CHECK-NEXT:          %[[I0:.*]] = arith.addi %[[START0]], %[[P]] : index
// CHECK-NEXT:          %[[W0:.*]] = memref.load %[[W]][%[[I0]]] : memref<?xf32>
// CHECK-NEXT:          %[[W0B:.*]] = vector.broadcast %[[W0]] : f32 to vector<4xf32>
// CHECK-NEXT:          %[[Y0:.*]] = math.fma %[[W0B]], %[[X]], %[[A0]] : vector<4xf32>
// CHECK-NEXT:          %[[I1:.*]] = arith.addi %[[START1]], %[[P]] : index
// CHECK-NEXT:          %[[W1:.*]] = memref.load %[[W]][%[[I1]]] : memref<?xf32>
// CHECK-NEXT:          %[[W1B:.*]] = vector.broadcast %[[W1]] : f32 to vector<4xf32>
// CHECK-NEXT:          %[[Y1:.*]] = math.fma %[[W1B]], %[[X]], %[[A1]] : vector<4xf32>
// CHECK-NEXT:          scf.yield %[[Y0]], %[[Y1]] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT:        }
// CHECK-NEXT:        vector.store %[[ACC]]#0, %[[OUT]][%[[O]], %[[C0]]] : memref<3x4xf32>, vector<4xf32>
// CHECK-NEXT:        vector.store %[[ACC]]#1, %[[OUT]][%[[O1]], %[[C0]]] : memref<3x4xf32>, vector<4xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[R:.*]] = scf.for %[[P:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[A:.*]] = %[[NEGZERO]]) -> (vector<4xf32>) {
// CHECK-NEXT:        %[[X:.*]] = vector.load %[[IN]][%[[P]], %[[C0]]]
// CHECK-NEXT:        %[[I:.*]] = arith.addi %[[C8]], %[[P]] : index
// CHECK-NEXT:        %[[W2:.*]] = memref.load %[[W]][%[[I]]]
// CHECK-NEXT:        %[[W2B:.*]] = vector.broadcast %[[W2]]
// CHECK-NEXT:        %[[Y:.*]] = math.fma %[[W2B]], %[[X]], %[[A]]
// CHECK-NEXT:        scf.yield %[[Y]]
// CHECK-NEXT:      }
// CHECK-NEXT:      vector.store %[[R]], %[[OUT]][%[[C2]], %[[C0]]]
// CHECK-NEXT:      %[[Y0:.*]] = vector.load %[[OUT]][%[[C0]], %[[C0]]] : memref<3x4xf32>, vector<4xf32>
// CHECK-NEXT:      %[[Y1:.*]] = vector.load %[[OUT]][%[[C1]], %[[C0]]]
// CHECK-NEXT:      %[[Y2:.*]] = vector.load %[[OUT]][%[[C2]], %[[C0]]]
// CHECK:           vector.scatter {{.*}}, %[[Y0]]
// CHECK:           vector.scatter {{.*}}, %[[Y1]]
// CHECK:           vector.scatter {{.*}}, %[[Y2]]
func.func @matvec(%x: !coopvec.vec<2, f32>, %w: memref<?xf32>) -> !coopvec.vec<3, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 16} : (memref<?xf32>) -> !coopvec.matrix<3, 2, f32, "row_major">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<3, 2, f32, "row_major">, !coopvec.vec<2, f32>) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

// -----

// transpose with bias on a col_major 3 x 2 matrix: y_j = b_j + sum_i
// A[i, j] x_i with A[i, j] at j * 3 + i, so output o starts at 3 * o and
// input p adds p. The bias rows are staged in OUT and start the
// accumulators.
// CHECK-LABEL: func.func @matvec_bias_transpose_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %[[BIAS:[^:]*]]: memref<?xf32>, %[[W:[^:]*]]: memref<?xf32>, %{{[^:]*}}: memref<?xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[IN:.*]] = memref.alloca() {alignment = 64 : i64} : memref<3x4xf32>
// CHECK-DAG:     %[[OUT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<2x4xf32>
// CHECK:         %[[B0:.*]] = vector.gather %[[BIAS]]
// CHECK:         %[[B1:.*]] = vector.gather %[[BIAS]]
// CHECK:         vector.store %{{.*}}, %[[IN]][%[[C2]], %[[C0]]]
// CHECK-NEXT:    vector.store %[[B0]], %[[OUT]][%[[C0]], %[[C0]]]
// CHECK-NEXT:    vector.store %[[B1]], %[[OUT]][%[[C1]], %[[C0]]]
// CHECK-NEXT:    scf.for %[[O:.*]] = %[[C0]] to %[[C2]] step %[[C2]] {
// CHECK-NEXT:      %[[START0:.*]] = arith.muli %[[O]], %[[C3]] : index
// CHECK-NEXT:      %[[INIT0:.*]] = vector.load %[[OUT]][%[[O]], %[[C0]]]
// CHECK-NEXT:      %[[O1:.*]] = arith.addi %[[O]], %[[C1]] : index
// CHECK-NEXT:      %[[START1:.*]] = arith.addi %[[START0]], %[[C3]] : index
// CHECK-NEXT:      %[[INIT1:.*]] = vector.load %[[OUT]][%[[O1]], %[[C0]]]
// CHECK-NEXT:      %[[ACC:.*]]:2 = scf.for %[[P:.*]] = %[[C0]] to %[[C3]] step %[[C1]] iter_args(%[[A0:.*]] = %[[INIT0]], %[[A1:.*]] = %[[INIT1]])
// CHECK-NEXT:        %[[X:.*]] = vector.load %[[IN]][%[[P]], %[[C0]]]
// CHECK-NEXT:        %[[I0:.*]] = arith.addi %[[START0]], %[[P]] : index
// CHECK-NEXT:        %[[W0:.*]] = memref.load %[[W]][%[[I0]]]
// CHECK-NEXT:        %[[W0B:.*]] = vector.broadcast %[[W0]]
// CHECK-NEXT:        %[[Y0:.*]] = math.fma %[[W0B]], %[[X]], %[[A0]]
// CHECK-NEXT:        %[[I1:.*]] = arith.addi %[[START1]], %[[P]] : index
// CHECK-NEXT:        %[[W1:.*]] = memref.load %[[W]][%[[I1]]]
// CHECK-NEXT:        %[[W1B:.*]] = vector.broadcast %[[W1]]
// CHECK-NEXT:        %[[Y1:.*]] = math.fma %[[W1B]], %[[X]], %[[A1]]
// CHECK-NEXT:        scf.yield %[[Y0]], %[[Y1]]
// CHECK-NEXT:      }
// CHECK-NEXT:      vector.store %[[ACC]]#0, %[[OUT]][%[[O]], %[[C0]]]
// CHECK-NEXT:      vector.store %[[ACC]]#1, %[[OUT]][%[[O1]], %[[C0]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R0:.*]] = vector.load %[[OUT]][%[[C0]], %[[C0]]]
// CHECK-NEXT:    %[[R1:.*]] = vector.load %[[OUT]][%[[C1]], %[[C0]]]
// CHECK-NEXT:    vector.scatter {{.*}}, %[[R0]]
// CHECK:         vector.scatter {{.*}}, %[[R1]]
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
// CHECK-NEXT:    vector.store %[[XF]], %{{.*}} : memref<1x4xf32>, vector<4xf32>
// CHECK-NEXT:    scf.for %[[P:.*]] = {{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (vector<4xf32>) {
// CHECK-NEXT:      %[[XP:.*]] = vector.load
// CHECK-NEXT:      %[[I:.*]] = arith.addi %[[C32]], %[[P]] : index
// CHECK-NEXT:      %[[WH:.*]] = memref.load %[[W]][%[[I]]] : memref<?xf16>
// CHECK-NEXT:      %[[WF:.*]] = arith.extf %[[WH]] : f16 to f32
// CHECK-NEXT:      %[[WB:.*]] = vector.broadcast %[[WF]] : f32 to vector<4xf32>
// CHECK-NEXT:      %[[Y:.*]] = math.fma %[[WB]], %[[XP]], %[[A]] : vector<4xf32>
// CHECK-NEXT:      scf.yield %[[Y]]
// CHECK:         %[[R:.*]] = vector.load
// CHECK-NEXT:    %[[RH:.*]] = arith.truncf %[[R]] : vector<4xf32> to vector<4xf16>
// CHECK-NEXT:    vector.scatter %[[OUT]][%{{.*}}] [%{{.*}}], %{{.*}}, %[[RH]] : memref<?xf16>, vector<4xi32>, vector<4xi1>, vector<4xf16>
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
// b are zeroed and staged in tiles; a loop nest sums each product over the
// lanes into an f32 tile G (zeroed before the lane loop), and after the
// lane loop G is added to the buffer with one atomic per element (A[i, j]
// at offset / 4 + i * 1 + j).
// CHECK-LABEL: func.func @outer_product_batched(
// CHECK-SAME:      %[[N:[^:]*]]: index, %{{[^:]*}}: memref<?xf32>, %{{[^:]*}}: memref<?xf32>, %[[G:[^:]*]]: memref<?xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK-DAG:     %[[A:.*]] = memref.alloca() {alignment = 64 : i64} : memref<2x4xf32>
// CHECK-DAG:     %[[B:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1x4xf32>
// CHECK-DAG:     %[[TILE:.*]] = memref.alloca() {alignment = 64 : i64} : memref<2x1xf32>
// CHECK-DAG:     %[[ZEROF:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         scf.for %[[I:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[C0]] to %[[C1]] step %[[C1]] {
// CHECK-NEXT:        memref.store %[[ZEROF]], %[[TILE]][%[[I]], %[[J]]] : memref<2x1xf32>
// CHECK:         scf.for %{{.*}} = %[[C0]] to %[[N]] step %[[C4]] {
// CHECK:           %[[MASK:.*]] = vector.create_mask
// CHECK:           %[[A0:.*]] = vector.gather
// CHECK:           %[[A1:.*]] = vector.gather
// CHECK-NEXT:      %[[B0:.*]] = vector.gather
// CHECK-NEXT:      %[[A0M:.*]] = arith.select %[[MASK]], %[[A0]], %[[ZERO]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:      vector.store %[[A0M]], %[[A]][%[[C0]], %[[C0]]]
// CHECK-NEXT:      %[[A1M:.*]] = arith.select %[[MASK]], %[[A1]], %[[ZERO]]
// CHECK-NEXT:      vector.store %[[A1M]], %[[A]][%[[C1]], %[[C0]]]
// CHECK-NEXT:      %[[B0M:.*]] = arith.select %[[MASK]], %[[B0]], %[[ZERO]]
// CHECK-NEXT:      vector.store %[[B0M]], %[[B]][%[[C0]], %[[C0]]]
// CHECK-NEXT:      scf.for %[[I:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT:        %[[AI:.*]] = vector.load %[[A]][%[[I]], %[[C0]]]
// CHECK-NEXT:        scf.for %[[J:.*]] = %[[C0]] to %[[C1]] step %[[C1]] {
// CHECK-NEXT:          %[[BJ:.*]] = vector.load %[[B]][%[[J]], %[[C0]]]
// CHECK-NEXT:          %[[P:.*]] = arith.mulf %[[AI]], %[[BJ]] : vector<4xf32>
// CHECK-NEXT:          %[[S:.*]] = vector.reduction <add>, %[[P]] fastmath<reassoc> : vector<4xf32> into f32
// CHECK-NEXT:          %[[OLD:.*]] = memref.load %[[TILE]][%[[I]], %[[J]]]
// CHECK-NEXT:          %[[NEW:.*]] = arith.addf %[[OLD]], %[[S]] : f32
// CHECK-NEXT:          memref.store %[[NEW]], %[[TILE]][%[[I]], %[[J]]]
// CHECK-NOT:     memref.atomic_rmw
// CHECK:         scf.for %[[I:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[C0]] to %[[C1]] step %[[C1]] {
// CHECK-NEXT:        %[[V:.*]] = memref.load %[[TILE]][%[[I]], %[[J]]]
// CHECK-NEXT:        %[[RO:.*]] = arith.muli %[[I]], %[[C1]] : index
// CHECK-NEXT:        %[[CO:.*]] = arith.muli %[[J]], %[[C1]] : index
// CHECK-NEXT:        %[[OFF:.*]] = arith.addi %[[RO]], %[[CO]] : index
// CHECK-NEXT:        %[[IDX:.*]] = arith.addi %[[C4]], %[[OFF]] : index
// CHECK-NEXT:        memref.atomic_rmw addf %[[V]], %[[G]][%[[IDX]]] : (f32, memref<?xf32>) -> f32
// CHECK:         return
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

// -----

// A gradient buffer computed inside the function is only known inside the
// lane loop: the tile is zeroed, accumulated and added once per group.
// CHECK-LABEL: func.func @outer_product_local_batched(
// CHECK:         scf.for
// CHECK:           %[[BUF:.*]] = memref.cast
// CHECK:           memref.store
// CHECK:           vector.reduction <add>
// CHECK:           memref.atomic_rmw addf %{{.*}}, %[[BUF]][%{{.*}}] : (f32, memref<?xf32>) -> f32
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  }
// CHECK-NEXT:  return
func.func @outer_product_local(%a: !coopvec.vec<1, f32>, %g: memref<4xf32>) {
  %d = memref.cast %g : memref<4xf32> to memref<?xf32>
  %G = "coopvec.matrix_view"(%d) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<1, 1, f32, "row_major">
  "coopvec.outer_product_accumulate"(%a, %a, %G) : (!coopvec.vec<1, f32>, !coopvec.vec<1, f32>, !coopvec.matrix<1, 1, f32, "row_major">) -> ()
  return
}
