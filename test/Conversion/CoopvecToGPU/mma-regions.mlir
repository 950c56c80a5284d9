// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu="mma-regions=true" %s | FileCheck %s
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu="mma-regions=true emulate-mma=true" %s | FileCheck %s --check-prefix=EMUL
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu %s | FileCheck %s --check-prefix=OFF

// convert-coopvec-to-gpu's mma-regions option (GPURegions.c plans which
// values hold the fragment layout, GPUFragmentMatvec.c emits the matvecs on
// nvgpu.mma.sync m16n8k16). @chain is a region of two matvecs: 32 -> 32
// (bias loaded from memory) -> max -> 16 (no bias). The first stages its
// per-thread input rows (16-byte vectors) and its 32 weight rows between one
// barrier pair, then runs 2 row tiles x 2 k tiles x 4 column tiles = 16
// mma.sync from accumulators that start at each lane's biases (read from
// memory at its columns), and a cold branch fixes zero signs; its result
// stays in the lanes' registers (no read-back), the max runs on them, and
// the second matvec stores them as f16 pairs into the input rows (its A
// operands), then 2 x 2 x 2 = 8 mma.sync, and writes its per-thread result
// back through the result tiles (8 f32 pairs per lane and 16-column tile, a
// subgroup barrier, 16-byte reads). Workgroup memory: inputs 128 x 40 f16 (10240), weights 32 x 40
// f16 (2560), results 128 x 20 f32 (10240). Emulated (EMUL), the products
// are FMAs over the staged rows: no nvgpu op. Without the option (OFF) the
// matvecs are wmma tiles.
// CHECK-LABEL: gpu.func @chain_kernel(
// CHECK-SAME:      coopvec.workgroup_memory = 23040 : i64
// CHECK:         gpu.barrier{{$}}
// CHECK-COUNT-4: vector.store %{{.*}} {alignment = 16 : i64} : memref<5120xf16, 3>, vector<8xf16>
// CHECK:         scf.for %{{.*}} = %thread_id_x to %c128 step %c128 {
// CHECK:         gpu.barrier{{$}}
// CHECK:         memref.load %arg2[%{{.*}}] : memref<?xf16>
// CHECK:         vector.load %alloc[%{{.*}}] {alignment = 4 : i64} : memref<5120xf16, 3>, vector<2xf16>
// CHECK:         vector.load %alloc_0[%{{.*}}] {alignment = 4 : i64} : memref<1280xf16, 3>, vector<2xf16>
// CHECK-COUNT-16: nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NOT:     gpu.barrier
// CHECK:         %{{.*}}:32 = scf.if %{{.*}} -> (f32,
// CHECK:           scf.for %{{.*}} = %c0 to %c8 step %c1 {
// CHECK-NOT:     vector<4xf32>
// CHECK:         gpu.barrier{{$}}
// CHECK-COUNT-16: vector.store %{{.*}} {alignment = 4 : i64} : memref<5120xf16, 3>, vector<2xf16>
// CHECK:         gpu.barrier{{$}}
// CHECK-COUNT-8: nvgpu.mma.sync
// CHECK:         %{{.*}}:16 = scf.if
// CHECK-COUNT-8: vector.store %{{.*}}, %alloc_1[%{{.*}}] {alignment = 8 : i64} : memref<2560xf32, 3>, vector<2xf32>
// CHECK-NOT:     vector.load
// CHECK:         gpu.barrier {coopvec.subgroup_barrier}
// CHECK:         vector.load %alloc_1[%{{.*}}] {alignment = 16 : i64} : memref<2560xf32, 3>, vector<4xf32>
// CHECK-NOT:     nvgpu.mma.sync
// CHECK:         gpu.return
// EMUL-LABEL: gpu.func @chain_kernel(
// EMUL-NOT:     nvgpu
// EMUL:         math.fma {{.*}} {coopvec.accumulate} : f32
// EMUL-NOT:     nvgpu
// EMUL:         gpu.return
// OFF-LABEL: gpu.func @chain_kernel(
// OFF-NOT:     nvgpu
// OFF:         gpu.subgroup_mma_compute
func.func @chain(%x: !coopvec.vec<32, f16>, %w: memref<?xf16>) -> !coopvec.vec<16, f16> {
  %zero = arith.constant 0.0 : f16
  %W0 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<32, 32, f16, "row_major">
  %boff = arith.constant 1024 : index
  %b0 = "coopvec.load"(%w, %boff) : (memref<?xf16>, index) -> !coopvec.vec<32, f16>
  %y0 = "coopvec.matvec"(%W0, %x, %b0) : (!coopvec.matrix<32, 32, f16, "row_major">, !coopvec.vec<32, f16>, !coopvec.vec<32, f16>) -> !coopvec.vec<32, f16>
  %h0 = "coopvec.max"(%y0, %zero) : (!coopvec.vec<32, f16>, f16) -> !coopvec.vec<32, f16>
  %W1 = "coopvec.matrix_view"(%w) {offset = 2112} : (memref<?xf16>) -> !coopvec.matrix<16, 32, f16, "row_major">
  %y1 = "coopvec.matvec"(%W1, %h0) : (!coopvec.matrix<16, 32, f16, "row_major">, !coopvec.vec<32, f16>) -> !coopvec.vec<16, f16>
  return %y1 : !coopvec.vec<16, f16>
}

// -----

// A region's boundaries: %y0 is also stored, so it is written back to the
// threads (result tiles, 16 columns at a time) and the second matvec
// stages it as per-thread rows; a bias that varies between threads (%b1,
// an argument) keeps that matvec off fragments (wmma tiles).
// CHECK-LABEL: gpu.func @boundary_kernel(
// CHECK-COUNT-16: nvgpu.mma.sync
// CHECK:         %{{.*}}:32 = scf.if
// CHECK-COUNT-8: vector.store %{{.*}}, %alloc_1[%{{.*}}] {alignment = 8 : i64} : memref<{{[0-9]+}}xf32, 3>, vector<2xf32>
// CHECK:         gpu.barrier {coopvec.subgroup_barrier}
// CHECK:         vector.load %alloc_1[%{{.*}}] {alignment = 16 : i64} : memref<{{[0-9]+}}xf32, 3>, vector<4xf32>
// CHECK:         gpu.barrier {coopvec.subgroup_barrier}
// CHECK-COUNT-8: vector.store %{{.*}}, %alloc_1[%{{.*}}] {alignment = 8 : i64} : memref<{{[0-9]+}}xf32, 3>, vector<2xf32>
// CHECK:         gpu.barrier {coopvec.subgroup_barrier}
// CHECK-NOT:     nvgpu.mma.sync
// CHECK:         gpu.subgroup_mma_compute
// CHECK-NOT:     nvgpu.mma.sync
// CHECK:         gpu.return
func.func @boundary(%x: !coopvec.vec<32, f16>, %b1: !coopvec.vec<16, f16>, %w: memref<?xf16>, %out: memref<?xf16>) -> !coopvec.vec<16, f16> {
  %c0 = arith.constant 0 : index
  %W0 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<32, 32, f16, "row_major">
  %y0 = "coopvec.matvec"(%W0, %x) : (!coopvec.matrix<32, 32, f16, "row_major">, !coopvec.vec<32, f16>) -> !coopvec.vec<32, f16>
  "coopvec.store"(%y0, %out, %c0) : (!coopvec.vec<32, f16>, memref<?xf16>, index) -> ()
  %W1 = "coopvec.matrix_view"(%w) {offset = 2048} : (memref<?xf16>) -> !coopvec.matrix<16, 32, f16, "row_major">
  %y1 = "coopvec.matvec"(%W1, %y0, %b1) : (!coopvec.matrix<16, 32, f16, "row_major">, !coopvec.vec<32, f16>, !coopvec.vec<16, f16>) -> !coopvec.vec<16, f16>
  return %y1 : !coopvec.vec<16, f16>
}
