// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu %s | FileCheck %s
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu="emulate-mma=true subgroup-size=8" %s | FileCheck %s --check-prefix=EMU
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu="matvec=simt" %s | FileCheck %s --check-prefix=FMA
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu="workgroup-memory=16384" %s | FileCheck %s --check-prefix=CHUNK
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu="register-elements=8" %s | FileCheck %s --check-prefix=TILED
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu="workgroup-memory=4096" %s | FileCheck %s --check-prefix=SMALL
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu="subgroup-size=8" %s | FileCheck %s --check-prefix=SMALL
// RUN: coopvec-opt --coopvec-lower-to-nvvm --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// convert-coopvec-to-gpu{training=block} (the default; GPUBlockTraining.c):
// outer_product_accumulate and reduce_sum_accumulate sum over the
// workgroup before they add to the gradient.
//
// A 20 x 33 f16 gradient (col_major at element 16: G[i, j] at
// 16 + i + 20 j) is 2 x 3 tiles of 16 x 16. The 128 threads stage their
// rows of a (padded to 32, + 8 halves of skew: 40) and b (48 + 8 = 56) at
// once: 128 x (40 + 56) f16 = 24576 bytes, and 4 tile groups x 16 rows x 20
// f32 of result tiles = 5120 bytes. The 4 tile groups take the 6 tiles in
// 2 rounds; each tile is A^T B over k = the 128 rows (8 k-steps), A read
// column-major (`transpose`, `a_transpose`), B row-major, stored to the
// group's result rows, then every thread of the group adds 8 of its 256
// elements, those inside G, with an atomic each. reduce_sum_accumulate
// stages b again (128 x 56 halves fit the same buffer) and thread t sums
// column t over the 128 rows.
// CHECK-LABEL: gpu.func @f16_product_kernel(
// CHECK-SAME:      %[[G:[^:]*]]: memref<?xf16>, %[[OFF:[^:]*]]: index)
// CHECK-SAME:      coopvec.workgroup_memory = 29696 : i64
// CHECK-DAG:     %[[S:.*]] = memref.alloc() {alignment = 128 : i64} : memref<12288xf16, 3>
// CHECK-DAG:     %[[Y:.*]] = memref.alloc() {alignment = 128 : i64} : memref<1280xf32, 3>
// CHECK-NOT:     gpu.subgroup_reduce
// CHECK:         gpu.barrier{{$}}
// CHECK-COUNT-10: vector.store %{{.*}}, %[[S]][%{{.*}}] {alignment = 16 : i64} : memref<12288xf16, 3>, vector<8xf16>
// CHECK-NEXT:    gpu.barrier{{$}}
// CHECK-NEXT:    scf.for %[[ROUND:.*]] = %c0 to %c2 step %c1 {
// CHECK-NEXT:      %[[FIRST:.*]] = arith.muli %[[ROUND]], %c4 : index
// CHECK-NEXT:      %[[TILE:.*]] = arith.addi %[[FIRST]], %[[GROUP:.*]] : index
// CHECK-NEXT:      %[[HAS:.*]] = arith.cmpi ult, %[[TILE]], %c6 : index
// CHECK:           scf.if %[[HAS]] {
// CHECK:             gpu.subgroup_mma_constant_matrix
// CHECK-NEXT:        scf.for %{{.*}} = %c0 to %c8 step %c1
// CHECK:               gpu.subgroup_mma_load_matrix %[[S]][%{{.*}}] {leadDimension = 40 : index, transpose} : memref<12288xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK:               gpu.subgroup_mma_load_matrix %[[S]][%{{.*}}] {leadDimension = 56 : index} : memref<12288xf16, 3> -> !gpu.mma_matrix<16x16xf16, "BOp">
// CHECK-NEXT:          gpu.subgroup_mma_compute %{{.*}}, %{{.*}}, %{{.*}} {a_transpose} :
// CHECK:             gpu.subgroup_mma_store_matrix %{{.*}}, %[[Y]][%{{.*}}] {leadDimension = 20 : index}
// CHECK:           gpu.barrier {coopvec.subgroup_barrier}
// CHECK-NEXT:      scf.if %[[HAS]] {
// CHECK-COUNT-8:     memref.atomic_rmw addf %{{.*}}, %[[G]][%{{.*}}] : (f16, memref<?xf16>) -> f16
// CHECK:           gpu.barrier {coopvec.subgroup_barrier}
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.barrier{{$}}
// CHECK-NEXT:    arith.muli %thread_id_x, %c56 : index
// CHECK-NEXT:    gpu.barrier{{$}}
// CHECK-COUNT-6: vector.store %{{.*}}, %[[S]]
// CHECK-NEXT:    gpu.barrier{{$}}
// CHECK-NEXT:    scf.for %[[E:.*]] = %thread_id_x to %c33 step %c128 {
// CHECK-NEXT:      %[[NEGZERO:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:      %[[SUM:.*]] = scf.for %[[R:.*]] = %c0 to %c128 step %c1 iter_args(%[[ACC:.*]] = %[[NEGZERO]]) -> (f32) {
// CHECK-NEXT:        %[[ROW:.*]] = arith.muli %[[R]], %c56 : index
// CHECK-NEXT:        %[[AT:.*]] = arith.addi %[[ROW]], %[[E]] : index
// CHECK-NEXT:        %[[V:.*]] = memref.load %[[S]][%[[AT]]] : memref<12288xf16, 3>
// CHECK-NEXT:        %[[V32:.*]] = arith.extf %[[V]] : f16 to f32
// CHECK-NEXT:        %[[NEXT:.*]] = arith.addf %[[ACC]], %[[V32]] : f32
// CHECK-NEXT:        scf.yield %[[NEXT]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[H:.*]] = arith.truncf %[[SUM]] : f32 to f16
// CHECK-NEXT:      %[[GAT:.*]] = arith.addi %[[OFF]], %[[E]] : index
// CHECK-NEXT:      memref.atomic_rmw addf %[[H]], %[[G]][%[[GAT]]] : (f16, memref<?xf16>) -> f16
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.barrier{{$}}
// CHECK-NOT:     gpu.subgroup_reduce
// CHECK:         gpu.return

// emulate-mma: the same staging and rounds, the tile products in f32 FMAs
// by the 32 threads of an emulated tile group (8 results each), whose
// barriers are workgroup barriers (the group spans 4 subgroups of 8).
// EMU-LABEL: gpu.func @f16_product_kernel(
// EMU-SAME:      coopvec.workgroup_memory = 29696 : i64
// EMU-NOT:     gpu.subgroup_mma
// EMU:         scf.for %{{.*}} = %c0 to %c2 step %c1 {
// EMU:           scf.for %{{.*}} = %c0 to %c128 step %c1 iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// EMU-COUNT-8:     math.fma {{.*}} {coopvec.accumulate} : f32
// EMU:           gpu.barrier{{$}}
// EMU-COUNT-8:   memref.atomic_rmw addf
// EMU:           gpu.barrier{{$}}
// EMU-NOT:     gpu.subgroup_mma
// EMU-NOT:     coopvec.subgroup_barrier
// EMU:         gpu.return

// matvec=simt (no tensor cores): the same block form, f32 FMA tiles.
// FMA-LABEL: gpu.func @f16_product_kernel(
// FMA-NOT:     gpu.subgroup_mma
// FMA-NOT:     gpu.subgroup_reduce
// FMA:         math.fma {{.*}} {coopvec.accumulate} : f32
// FMA:         gpu.barrier {coopvec.subgroup_barrier}
// FMA-NOT:     gpu.subgroup_mma
// FMA-NOT:     gpu.subgroup_reduce
// FMA:         gpu.return

// Within 16384 bytes the outer product stages 32 rows at a time (4 chunks:
// 32 x 96 halves and the 5120 bytes of result tiles), each chunk's
// threads their rows, and multiplies over 2 k-steps; reduce_sum_accumulate
// 64 rows (2 chunks, 64 x 56 halves).
// CHUNK-LABEL: gpu.func @f16_product_kernel(
// CHUNK-SAME:      coopvec.workgroup_memory = 12288 : i64
// CHUNK:         %[[ROWIN:.*]] = arith.remui %thread_id_x, %c32 : index
// CHUNK:         gpu.barrier{{$}}
// CHUNK-NEXT:    %[[CHUNK:.*]] = arith.divui %thread_id_x, %c32 : index
// CHUNK-NEXT:    %[[MINE:.*]] = arith.cmpi eq, %[[CHUNK]], %c0 : index
// CHUNK-NEXT:    scf.if %[[MINE]] {
// CHUNK:         gpu.barrier{{$}}
// CHUNK:         scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args
// CHUNK:         arith.cmpi eq, %{{.*}}, %c3 : index
// CHUNK:         arith.remui %thread_id_x, %c64 : index
// CHUNK:         arith.cmpi eq, %{{.*}}, %c1 : index
// CHUNK:         scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args
// CHUNK:         gpu.return

// Where 16 rows of the outer product do not fit (4096 bytes), or the tile
// group is not whole 16 x 16 tiles (subgroups of 8 on tensor cores), the op
// keeps the subgroup form; the bias gradient needs no result tiles and
// still fits (in 4096 bytes).
// SMALL-LABEL: gpu.func @f16_product_kernel(
// SMALL:         gpu.subgroup_reduce add
// SMALL:         gpu.return

// PTX: .visible .entry f16_product_kernel(
// PTX: wmma.load.a.sync.aligned.col.m16n16k16.shared.f16
// PTX: wmma.load.b.sync.aligned.row.m16n16k16.shared.f16
// PTX: wmma.mma.sync.aligned.col.row.m16n16k16.f32.f32
// PTX: wmma.store.d.sync.aligned.row.m16n16k16.shared.f32
// PTX: atom.global.add.noftz.f16
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
func.func @f16_product(%a: !coopvec.vec<20, f16>, %b: !coopvec.vec<33, f16>, %g: memref<?xf16>, %off: index) {
  %G = "coopvec.matrix_view"(%g) {offset = 16} : (memref<?xf16>) -> !coopvec.matrix<20, 33, f16, "col_major">
  "coopvec.outer_product_accumulate"(%a, %b, %G) : (!coopvec.vec<20, f16>, !coopvec.vec<33, f16>, !coopvec.matrix<20, 33, f16, "col_major">) -> ()
  "coopvec.reduce_sum_accumulate"(%b, %g, %off) : (!coopvec.vec<33, f16>, memref<?xf16>, index) -> ()
  return
}

// -----

// f32 vecs: tensor cores would round them to tf32, so the tiles are f32
// FMAs (of the f32 values, staged as f32 in 16-byte vectors of 4) on every
// device: 128 x (48 + 4 + 16 + 4) f32 and 5120 bytes of result tiles.
// CHECK-LABEL: gpu.func @f32_product_kernel(
// CHECK-SAME:      coopvec.workgroup_memory = 41984 : i64
// CHECK-NOT:     gpu.subgroup_mma
// CHECK:         memref.alloc() {alignment = 128 : i64} : memref<9216xf32, 3>
// CHECK:         vector.store %{{.*}} {alignment = 16 : i64} : memref<9216xf32, 3>, vector<4xf32>
// CHECK:         math.fma {{.*}} {coopvec.accumulate} : f32
// CHECK:         memref.atomic_rmw addf %{{.*}} : (f32, memref<?xf32>) -> f32
// CHECK-NOT:     gpu.subgroup_mma
// CHECK:         gpu.return
// A tiled vec (register-elements=8) is staged by a loop over its whole
// chunks (10 of 4), and b's 3 elements and padding unrolled.
// TILED-LABEL: gpu.func @f32_product_kernel(
// TILED:         scf.for %[[K:.*]] = %c0 to %c40 step %c4 {
// TILED:           memref.load %{{.*}}[%[[K]]] : memref<40xf32>
// TILED:           vector.store %{{.*}} {alignment = 16 : i64} : memref<9216xf32, 3>, vector<4xf32>
// TILED:         }
// TILED:         gpu.barrier
func.func @f32_product(%a: !coopvec.vec<40, f32>, %b: !coopvec.vec<3, f32>, %g: memref<?xf32>) {
  %G = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<40, 3, f32, "row_major">
  "coopvec.outer_product_accumulate"(%a, %b, %G) : (!coopvec.vec<40, f32>, !coopvec.vec<3, f32>, !coopvec.matrix<40, 3, f32, "row_major">) -> ()
  return
}

// -----

// Under masked control flow the workgroup runs the op after the branch's
// vote (so with a thread that takes it); inactive threads stage zero rows.
// CHECK-LABEL: gpu.func @masked_kernel(
// CHECK:         arith.cmpf ogt
// CHECK-NEXT:    %[[TAKEN:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK:         %[[ANY:.*]] = arith.cmpi ne, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    gpu.barrier{{$}}
// CHECK-NEXT:    scf.if %[[ANY]] {
// CHECK-NOT:       gpu.subgroup_reduce
// CHECK:           gpu.barrier{{$}}
// CHECK-NEXT:      %[[ZEROED:.*]] = arith.select %[[TAKEN]], %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      arith.truncf %[[ZEROED]]
// CHECK:           gpu.subgroup_mma_compute
// CHECK:         gpu.return
func.func @masked(%x: !coopvec.vec<1, f32>, %a: !coopvec.vec<16, f16>, %g: memref<?xf16>) {
  %G = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<16, 16, f16, "row_major">
  %e = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> f32
  %zero = arith.constant 0.0 : f32
  %c = arith.cmpf ogt, %e, %zero : f32
  scf.if %c {
    "coopvec.outer_product_accumulate"(%a, %a, %G) : (!coopvec.vec<16, f16>, !coopvec.vec<16, f16>, !coopvec.matrix<16, 16, f16, "row_major">) -> ()
  }
  return
}

// -----

// A reduce_sum_accumulate at a varying offset is a scatter-add (one atomic
// per thread and element here, reduce-mode=auto): it takes no part in the
// block form, and the kernel stages nothing for it.
// CHECK-LABEL: gpu.func @scatter_kernel(
// CHECK-SAME:      coopvec.workgroup_memory = 0 : i64
// CHECK-NOT:     memref.alloc()
// CHECK-NOT:     gpu.barrier
// CHECK-COUNT-4: memref.atomic_rmw addf
// CHECK:         gpu.return
func.func @scatter(%v: !coopvec.vec<4, f32>, %i: !coopvec.vec<1, f32>, %g: memref<?xf32>) {
  %e = "coopvec.unpack"(%i) : (!coopvec.vec<1, f32>) -> f32
  %n = arith.fptosi %e : f32 to i64
  %o = arith.index_cast %n : i64 to index
  "coopvec.reduce_sum_accumulate"(%v, %g, %o) : (!coopvec.vec<4, f32>, memref<?xf32>, index) -> ()
  return
}
