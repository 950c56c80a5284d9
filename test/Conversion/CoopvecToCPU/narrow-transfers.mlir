// Narrow vecs (N < B, the transpose block: 4 f32 on x86-64's SSE, 16 on
// AVX-512) between the thread-row buffers and the lanes, in full groups:
// per B threads one contiguous N x B load and one shuffle per element; the
// store concatenates the N rows (padded to a power of two) and interleaves
// them into one N x B store. The partial last group gathers and scatters.
// With N x B above 64 elements the full groups gather too.
// RUN: coopvec-opt %s --convert-coopvec-to-cpu='target-cpu=x86-64 lanes=8' | FileCheck %s
// RUN: coopvec-opt %s --convert-coopvec-to-cpu='target-cpu=skylake-avx512 lanes=16' | FileCheck %s --check-prefix=AVX512

// CHECK-LABEL: func.func @narrow_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %[[X:[^:]*]]: memref<?xf32>, %[[OUT:[^:]*]]: memref<?xf32>)
// CHECK:         %[[FULL:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    scf.if %[[FULL]] {
// CHECK:           scf.for %[[T:.*]] = %c0 to %c8 step %c4 {
// CHECK-NEXT:        %[[THREAD:.*]] = arith.addi %{{.*}}, %[[T]] : index
// CHECK-NEXT:        %[[START:.*]] = arith.muli %[[THREAD]], %{{.*}} : index
// CHECK-NEXT:        %[[FLAT:.*]] = vector.load %[[X]][%[[START]]] : memref<?xf32>, vector<12xf32>
// CHECK-NEXT:        %[[E0:.*]] = vector.shuffle %[[FLAT]], %[[FLAT]] [0, 3, 6, 9] : vector<12xf32>, vector<12xf32>
// CHECK-NEXT:        vector.store %[[E0]], %[[TILE:.*]][%{{.*}}, %[[T]]] : memref<3x8xf32>, vector<4xf32>
// CHECK-NEXT:        %[[E1:.*]] = vector.shuffle %[[FLAT]], %[[FLAT]] [1, 4, 7, 10] : vector<12xf32>, vector<12xf32>
// CHECK-NEXT:        vector.store %[[E1]], %[[TILE]][%{{.*}}, %[[T]]] : memref<3x8xf32>, vector<4xf32>
// CHECK-NEXT:        %[[E2:.*]] = vector.shuffle %[[FLAT]], %[[FLAT]] [2, 5, 8, 11] : vector<12xf32>, vector<12xf32>
// CHECK-NEXT:        vector.store %[[E2]], %[[TILE]][%{{.*}}, %[[T]]] : memref<3x8xf32>, vector<4xf32>
// CHECK-NEXT:      } {llvm.loop_annotation
// CHECK-NEXT:    } else {
// CHECK:             vector.gather %[[X]]
// CHECK:         scf.if %[[FULL]] {
// CHECK:           scf.for %[[T:.*]] = %c0 to %c8 step %c4 {
// CHECK-NEXT:        %[[THREAD:.*]] = arith.addi %{{.*}}, %[[T]] : index
// CHECK-NEXT:        %[[START:.*]] = arith.muli %[[THREAD]], %{{.*}} : index
// CHECK-NEXT:        %[[R0:.*]] = vector.load %[[TILE2:.*]][%{{.*}}, %[[T]]] : memref<3x8xf32>, vector<4xf32>
// CHECK-NEXT:        %[[R1:.*]] = vector.load %[[TILE2]][%{{.*}}, %[[T]]] : memref<3x8xf32>, vector<4xf32>
// CHECK-NEXT:        %[[R2:.*]] = vector.load %[[TILE2]][%{{.*}}, %[[T]]] : memref<3x8xf32>, vector<4xf32>
// CHECK-NEXT:        %[[C01:.*]] = vector.shuffle %[[R0]], %[[R1]] [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT:        %[[C2P:.*]] = vector.shuffle %[[R2]], %[[R0]] [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT:        %[[ALL:.*]] = vector.shuffle %[[C01]], %[[C2P]] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<8xf32>, vector<8xf32>
// CHECK-NEXT:        %[[MIX:.*]] = vector.shuffle %[[ALL]], %[[ALL]] [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11] : vector<16xf32>, vector<16xf32>
// CHECK-NEXT:        vector.store %[[MIX]], %[[OUT]][%[[START]]] : memref<?xf32>, vector<12xf32>
// CHECK-NEXT:      } {llvm.loop_annotation
// CHECK-NEXT:    } else {
// CHECK:             vector.scatter %[[OUT]]

// AVX512-LABEL: func.func @narrow_batched(
// AVX512:         vector.load %{{.*}} : memref<?xf32>, vector<48xf32>
// AVX512:         vector.store %{{.*}} : memref<?xf32>, vector<48xf32>
// AVX512-LABEL: func.func @wide_batched(
// AVX512-NOT:     vector<80xf32>
// AVX512:         vector.gather
// AVX512-NOT:     vector<80xf32>
// AVX512:         vector.scatter
// AVX512-NOT:     vector<80xf32>
func.func @narrow(%x: !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32> {
  %y = "coopvec.neg"(%x) : (!coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

func.func @wide(%x: !coopvec.vec<5, f32>) -> !coopvec.vec<5, f32> {
  %y = "coopvec.neg"(%x) : (!coopvec.vec<5, f32>) -> !coopvec.vec<5, f32>
  return %y : !coopvec.vec<5, f32>
}
