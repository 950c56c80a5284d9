// convert-coopvec-to-gpu: per-thread functions become kernels of one
// gpu.module, thread i of the batch in GPU thread i. Blocks of 64 threads
// (two 32-thread subgroups) keep the staging buffers small here.
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu="block-size=64" %s | FileCheck %s
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-gpu{block-size=64})' %s | FileCheck %s
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu="block-size=64 register-elements=40" %s | FileCheck %s --check-prefix=REGS
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu="block-size=64 register-elements=8" %s | FileCheck %s --check-prefix=TILED
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu="block-size=64 subgroup-size=8 emulate-mma=true" %s | FileCheck %s --check-prefix=EMU

// The schedules: matvec=mma puts every matvec on tensor cores (f32 as tf32
// with allow-tf32), matvec=simt none; auto (the default) picks tensor cores
// for f16 only unless allow-tf32 is set, and falls back to FMA loops when
// the staging buffers would not fit `workgroup-memory`.
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu="block-size=64 matvec=mma allow-tf32=true" %s | FileCheck %s --check-prefix=MMA
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu="block-size=64 allow-tf32=true" %s | FileCheck %s --check-prefix=MMA
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu="block-size=64 matvec=simt" %s | FileCheck %s --check-prefix=SIMT
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu="block-size=64 workgroup-memory=8959" %s | FileCheck %s --check-prefix=SKEW-W
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu="block-size=64 workgroup-memory=7935" %s | FileCheck %s --check-prefix=SKEW-X
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu="block-size=64 workgroup-memory=7679" %s | FileCheck %s --check-prefix=BUDGET

// The defaults: 128 threads per block, staging sized for it.
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu %s | FileCheck %s --check-prefix=DEFAULT

// builtin-lane-id (what coopvec-lower-to-spirv uses): the training ops'
// leader is lane 0 of the hardware's subgroup, whatever its size.
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu="block-size=64 builtin-lane-id=true training=subgroup" %s | FileCheck %s --check-prefix=HWLANE
// The training ops' subgroup form (their default block form:
// block-training.mlir).
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-gpu="block-size=64 training=subgroup" %s | FileCheck %s --check-prefix=SGFORM

//===----------------------------------------------------------------------===//
// Kernels, the launch contract and the partial last block
//===----------------------------------------------------------------------===//

// A function without coopvec values is left alone, and no gpu.module is
// made.
// CHECK-LABEL: module {
// CHECK-NEXT:    func.func @scalar_only(
// CHECK-NOT:     gpu.module
func.func @scalar_only(%a: f32) -> f32 {
  %r = arith.addf %a, %a : f32
  return %r : f32
}

// -----

// The kernel takes the CPU's @f_batched arguments in the same order: n, vec
// arguments as n x N row-major buffers, uniform arguments as they are, one
// output buffer per result. Its attributes are the launch contract. Every
// thread computes its place: thread = block * 64 + thread_id; threads past
// n (the partial last block) compute with zeros read from row 0 in place of
// theirs and write nothing. @signature itself is erased.
// CHECK-LABEL: module attributes {gpu.container_module} {
// CHECK-NEXT:  gpu.module @coopvec_kernels {
// CHECK-NEXT:    gpu.func @signature_kernel(
// CHECK-SAME:        %[[N:[^:]*]]: index, %[[X:[^:]*]]: memref<?xf32>, %[[W:[^:]*]]: memref<?xf32>, %[[S:[^:]*]]: f32, %[[OUT0:[^:]*]]: memref<?xf32>, %[[OUT1:[^:]*]]: memref<?xf16>) kernel
// CHECK-SAME:        attributes {coopvec.block_size = 64 : i64, coopvec.subgroup_size = 32 : i64, coopvec.workgroup_memory = 0 : i64, known_block_size = array<i32: 64, 1, 1>} {
// CHECK-DAG:       %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:       %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:       %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:       %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:       %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:       %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:           %[[TID:.*]] = gpu.thread_id x
// CHECK-NEXT:      %[[BID:.*]] = gpu.block_id x
// CHECK-NEXT:      %[[START:.*]] = arith.muli %[[BID]], %[[C64]] : index
// CHECK-NEXT:      %[[T:.*]] = arith.addi %[[START]], %[[TID]] : index
// CHECK-NEXT:      %[[VALID:.*]] = arith.cmpi ult, %[[T]], %[[N]] : index
// CHECK-NEXT:      %[[ROW:.*]] = arith.select %[[VALID]], %[[T]], %[[C0]] : index
// CHECK-NEXT:      %[[LANE:.*]] = arith.remui %[[TID]], %[[C32]] : index
// CHECK-NEXT:      arith.subi %[[TID]], %[[LANE]] : index
// CHECK-NEXT:      %[[SUBGROUP:.*]] = arith.subi %[[T]], %[[LANE]] : index
// CHECK-NEXT:      %[[ANYVALID:.*]] = arith.cmpi ult, %[[SUBGROUP]], %[[N]] : index
// CHECK-NEXT:      %[[LANE0:.*]] = arith.cmpi eq, %[[LANE]], %[[C0]] : index
// CHECK-NEXT:      arith.andi %[[LANE0]], %[[ANYVALID]] : i1
// CHECK-NEXT:      %[[LAST:.*]] = arith.subi %[[N]], %[[C1]] : index
// CHECK-NEXT:      arith.cmpi eq, %[[T]], %[[LAST]] : index
// CHECK-NEXT:      %[[AT:.*]] = arith.muli %[[ROW]], %[[C2]] : index
// CHECK-NEXT:      %[[AT0:.*]] = arith.addi %[[AT]], %[[C0]] : index
// CHECK-NEXT:      %[[L0:.*]] = memref.load %[[X]][%[[AT0]]] : memref<?xf32>
// CHECK-NEXT:      %[[X0:.*]] = arith.select %[[VALID]], %[[L0]], %[[ZERO]] : f32
// CHECK-NEXT:      %[[AT1:.*]] = arith.addi %[[AT]], %[[C1]] : index
// CHECK-NEXT:      %[[L1:.*]] = memref.load %[[X]][%[[AT1]]] : memref<?xf32>
// CHECK-NEXT:      %[[X1:.*]] = arith.select %[[VALID]], %[[L1]], %[[ZERO]] : f32
// CHECK-NEXT:      %[[A0:.*]] = arith.addf %[[X0]], %[[S]] : f32
// CHECK-NEXT:      %[[A1:.*]] = arith.addf %[[X1]], %[[S]] : f32
// CHECK-NEXT:      %[[H0:.*]] = arith.truncf %[[X0]] : f32 to f16
// CHECK-NEXT:      %[[E0:.*]] = arith.extf %[[H0]] : f16 to f32
// CHECK-NEXT:      %[[H1:.*]] = arith.truncf %[[X1]] : f32 to f16
// CHECK-NEXT:      %[[E1:.*]] = arith.extf %[[H1]] : f16 to f32
// CHECK-NEXT:      scf.if %[[VALID]] {
// CHECK-NEXT:        %[[O:.*]] = arith.muli %[[T]], %[[C2]] : index
// CHECK-NEXT:        %[[O0:.*]] = arith.addi %[[O]], %[[C0]] : index
// CHECK-NEXT:        memref.store %[[A0]], %[[OUT0]][%[[O0]]] : memref<?xf32>
// CHECK-NEXT:        %[[O1:.*]] = arith.addi %[[O]], %[[C1]] : index
// CHECK-NEXT:        memref.store %[[A1]], %[[OUT0]][%[[O1]]] : memref<?xf32>
// CHECK-NEXT:        %[[P:.*]] = arith.muli %[[T]], %[[C2]] : index
// CHECK-NEXT:        %[[P0:.*]] = arith.addi %[[P]], %[[C0]] : index
// CHECK-NEXT:        %[[R0:.*]] = arith.truncf %[[E0]] : f32 to f16
// CHECK-NEXT:        memref.store %[[R0]], %[[OUT1]][%[[P0]]] : memref<?xf16>
// CHECK-NEXT:        %[[P1:.*]] = arith.addi %[[P]], %[[C1]] : index
// CHECK-NEXT:        %[[R1:.*]] = arith.truncf %[[E1]] : f32 to f16
// CHECK-NEXT:        memref.store %[[R1]], %[[OUT1]][%[[P1]]] : memref<?xf16>
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.return
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT: }
// CHECK-NOT:   coopvec.

// DEFAULT-LABEL: gpu.func @signature_kernel(
// DEFAULT-SAME:      attributes {coopvec.block_size = 128 : i64, coopvec.subgroup_size = 32 : i64, coopvec.workgroup_memory = 0 : i64, known_block_size = array<i32: 128, 1, 1>}
// DEFAULT:         %[[C128:.*]] = arith.constant 128 : index
// DEFAULT:         %[[BID:.*]] = gpu.block_id x
// DEFAULT-NEXT:    arith.muli %[[BID]], %[[C128]] : index
func.func @signature(%x: !coopvec.vec<2, f32>, %w: memref<?xf32>, %s: f32) -> (!coopvec.vec<2, f32>, !coopvec.vec<2, f16>) {
  %a = "coopvec.add"(%x, %s) : (!coopvec.vec<2, f32>, f32) -> !coopvec.vec<2, f32>
  %h = "coopvec.cast"(%x) : (!coopvec.vec<2, f32>) -> !coopvec.vec<2, f16>
  return %a, %h : !coopvec.vec<2, f32>, !coopvec.vec<2, f16>
}

//===----------------------------------------------------------------------===//
// matvec on tensor cores
//===----------------------------------------------------------------------===//

// -----

// An odd width: 3 inputs padded to 16, 7 outputs to one 16-column tile.
// Workgroup memory: the input tiles (64 threads x 16 f16, rows skewed by 8
// f16 to 24), a 16 x 16 slice of weight rows (f16, rows skewed to 24) and
// the f32 result tiles (64 x 16, rows skewed by 4 f32 to 20): 3072 + 768 +
// 5120 bytes.
// Every thread writes its row (the input rounded to f16, then +0.0
// padding) in 16-byte vectors; the workgroup copies the weight rows
// R[j, k] = W(j, k) with -0.0 outside W (read at a clamped index, element
// by element: 3 inputs are no whole 16-byte vector), which the tensor
// cores read as the column-major B = R^T (`transpose`); each
// subgroup multiplies its
// two 16-row tiles from -0.0 and stores them; after a barrier of its
// subgroup (the rows it reads are its subgroup's) every thread reads its 7
// results, gives a zero result the sign of its zero products alone (tensor
// cores return +0.0 for a sum of -0.0 products; the loop runs only for a
// thread with a zero result) and adds the bias.
// CHECK-LABEL: gpu.func @mma_f16_kernel(
// CHECK-SAME:      %[[N:[^:]*]]: index, %[[X:[^:]*]]: memref<?xf16>, %[[W:[^:]*]]: memref<?xf16>, %[[OFF:[^:]*]]: index, %[[OUT:[^:]*]]: memref<?xf16>) kernel
// CHECK-SAME:      coopvec.workgroup_memory = 8960 : i64
// CHECK-DAG:     %[[XS:.*]] = memref.alloc() {alignment = 128 : i64} : memref<1536xf16, 3>
// CHECK-DAG:     %[[WS:.*]] = memref.alloc() {alignment = 128 : i64} : memref<384xf16, 3>
// CHECK-DAG:     %[[YS:.*]] = memref.alloc() {alignment = 128 : i64} : memref<1280xf32, 3>
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C20:.*]] = arith.constant 20 : index
// CHECK-DAG:     %[[C24:.*]] = arith.constant 24 : index
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[NEGZERO:.*]] = arith.constant -0.000000e+00 : f32
// CHECK:         %[[TID:.*]] = gpu.thread_id x
// CHECK:         %[[LANE:.*]] = arith.remui %[[TID]], %{{.*}} : index
// CHECK-NEXT:    %[[SUBROW:.*]] = arith.subi %[[TID]], %[[LANE]] : index
// CHECK:         %[[BIAS:.*]] = vector.load %[[W]][%[[OFF]]] : memref<?xf16>, vector<7xf16>
// CHECK:         %[[MYROW:.*]] = arith.muli %[[TID]], %[[C24]] : index
// CHECK-NEXT:    %[[PAD:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT:    %[[XH0:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT:    %[[XH1:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT:    %[[XH2:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT:    %[[CHUNK0:.*]] = vector.from_elements %[[XH0]], %[[XH1]], %[[XH2]], %[[PAD]], %[[PAD]], %[[PAD]], %[[PAD]], %[[PAD]] : vector<8xf16>
// CHECK-NEXT:    vector.store %[[CHUNK0]], %[[XS]][%[[MYROW]]] {alignment = 16 : i64} : memref<1536xf16, 3>, vector<8xf16>
// CHECK-NEXT:    %[[AT1:.*]] = arith.addi %[[MYROW]], %[[C8:.*]] : index
// CHECK-NEXT:    %[[CHUNK1:.*]] = vector.from_elements %[[PAD]], %[[PAD]], %[[PAD]], %[[PAD]], %[[PAD]], %[[PAD]], %[[PAD]], %[[PAD]] : vector<8xf16>
// CHECK-NEXT:    vector.store %[[CHUNK1]], %[[XS]][%[[AT1]]] {alignment = 16 : i64} : memref<1536xf16, 3>, vector<8xf16>
// CHECK-NEXT:    gpu.barrier{{$}}
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[TID]] to %[[C256]] step %[[C64]] {
// CHECK-NEXT:      %[[K:.*]] = arith.remui %[[I]], %[[C16]] : index
// CHECK-NEXT:      %[[J:.*]] = arith.divui %[[I]], %[[C16]] : index
// CHECK-NEXT:      %[[JROW:.*]] = arith.muli %[[J]], %[[C24]] : index
// CHECK-NEXT:      %[[SAT:.*]] = arith.addi %[[JROW]], %[[K]] : index
// CHECK-NEXT:      %[[INK:.*]] = arith.cmpi ult, %[[K]], %[[C3:.*]] : index
// CHECK-NEXT:      %[[INO:.*]] = arith.cmpi ult, %[[J]], %[[C7:.*]] : index
// CHECK-NEXT:      %[[IN:.*]] = arith.andi %[[INO]], %[[INK]] : i1
// CHECK-NEXT:      %[[OO:.*]] = arith.minui %[[J]], %[[C6:.*]] : index
// CHECK-NEXT:      %[[KK:.*]] = arith.minui %[[K]], %[[C2:.*]] : index
// CHECK-NEXT:      %[[OROW:.*]] = arith.muli %[[OO]], %[[C3]] : index
// CHECK-NEXT:      %[[OK:.*]] = arith.addi %[[OROW]], %[[KK]] : index
// CHECK-NEXT:      %[[WAT:.*]] = arith.addi %[[OK]], %[[C32:.*]] : index
// CHECK-NEXT:      %[[WV:.*]] = memref.load %[[W]][%[[WAT]]] : memref<?xf16>
// CHECK-NEXT:      %[[WPAD:.*]] = arith.constant -0.000000e+00 : f16
// CHECK-NEXT:      %[[WSEL:.*]] = arith.select %[[IN]], %[[WV]], %[[WPAD]] : f16
// CHECK-NEXT:      memref.store %[[WSEL]], %[[WS]][%[[SAT]]] : memref<384xf16, 3>
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.barrier{{$}}
// CHECK-NEXT:    %[[ROWOFF:.*]] = arith.muli %[[SUBROW]], %[[C24]] : index
// CHECK-NEXT:    %[[ACC0:.*]] = gpu.subgroup_mma_constant_matrix %[[NEGZERO]] : !gpu.mma_matrix<16x16xf32, "COp">
// CHECK-NEXT:    %[[C:.*]] = scf.for %[[KT:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC0]]) -> (!gpu.mma_matrix<16x16xf32, "COp">) {
// CHECK-NEXT:      %[[KOFF:.*]] = arith.muli %[[KT]], %[[C16]] : index
// CHECK-NEXT:      %[[AAT:.*]] = arith.addi %[[ROWOFF]], %[[KOFF]] : index
// CHECK-NEXT:      %[[A:.*]] = gpu.subgroup_mma_load_matrix %[[XS]][%[[AAT]]] {leadDimension = 24 : index} : memref<1536xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK-NEXT:      %[[BAT:.*]] = arith.muli %[[KT]], %[[C16]] : index
// CHECK-NEXT:      %[[B:.*]] = gpu.subgroup_mma_load_matrix %[[WS]][%[[BAT]]] {leadDimension = 24 : index, transpose} : memref<384xf16, 3> -> !gpu.mma_matrix<16x16xf16, "BOp">
// CHECK-NEXT:      %[[D:.*]] = gpu.subgroup_mma_compute %[[A]], %[[B]], %[[ACC]] {b_transpose} : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK-NEXT:      scf.yield %[[D]] : !gpu.mma_matrix<16x16xf32, "COp">
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[YAT:.*]] = arith.muli %[[SUBROW]], %[[C20]] : index
// CHECK-NEXT:    gpu.subgroup_mma_store_matrix %[[C]], %[[YS]][%[[YAT]]] {leadDimension = 20 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<1280xf32, 3>
// CHECK-NEXT:    %[[SUBROW2:.*]] = arith.addi %[[SUBROW]], %[[C16]] : index
// CHECK-NEXT:    arith.muli %[[SUBROW2]], %[[C24]] : index
// CHECK-NEXT:    gpu.subgroup_mma_constant_matrix %[[NEGZERO]]
// CHECK:         arith.muli %[[SUBROW2]], %[[C20]] : index
// CHECK:         gpu.subgroup_mma_store_matrix
// CHECK-NEXT:    gpu.barrier {coopvec.subgroup_barrier}
// CHECK-NEXT:    %[[MYY:.*]] = arith.muli %[[TID]], %[[C20]] : index
// CHECK-NEXT:    %[[YV0:.*]] = vector.load %[[YS]][%[[MYY]]] {alignment = 16 : i64} : memref<1280xf32, 3>, vector<4xf32>
// CHECK-NEXT:    %[[Y0:.*]] = vector.extract %[[YV0]][0] : f32 from vector<4xf32>
// CHECK-COUNT-3: vector.extract %[[YV0]]
// CHECK-NEXT:    %[[Y4AT:.*]] = arith.addi %[[MYY]], %[[C4:.*]] : index
// CHECK-NEXT:    %[[YV1:.*]] = vector.load %[[YS]][%[[Y4AT]]] {alignment = 16 : i64} : memref<1280xf32, 3>, vector<4xf32>
// CHECK-COUNT-3: vector.extract %[[YV1]]
// CHECK-NEXT:    %[[Z0:.*]] = arith.cmpf oeq, %[[Y0]], %[[ZERO:.*]] : f32
// CHECK:         %[[TRIPS:.*]] = arith.select %{{.*}}, %[[C3]], %{{.*}} : index
// CHECK-NEXT:    %[[XROW:.*]] = arith.muli %[[TID]], %[[C24]] : index
// CHECK-NEXT:    %[[SUMS:.*]]:7 = scf.for %[[KZ:.*]] = %{{.*}} to %[[TRIPS]] step %{{.*}} iter_args(%[[S0:[^ ]*]] = %[[NEGZERO]], {{.*}}) -> (f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT:      %[[XAT:.*]] = arith.addi %[[XROW]], %[[KZ]] : index
// CHECK-NEXT:      %[[XK:.*]] = memref.load %[[XS]][%[[XAT]]] : memref<1536xf16, 3>
// CHECK-NEXT:      %[[XK32:.*]] = arith.extf %[[XK]] : f16 to f32
// CHECK-NEXT:      %[[WK:.*]] = memref.load %[[WS]][%[[KZ]]] : memref<384xf16, 3>
// CHECK-NEXT:      %[[WK32:.*]] = arith.extf %[[WK]] : f16 to f32
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[WK32]], %[[XK32]] : f32
// CHECK-NEXT:      %[[PZ:.*]] = arith.cmpf oeq, %[[P]], %[[ZERO]] : f32
// CHECK-NEXT:      %[[KEEP:.*]] = arith.select %[[PZ]], %[[P]], %[[ZERO]] : f32
// CHECK-NEXT:      %[[S0NEXT:.*]] = arith.addf %[[S0]], %[[KEEP]] : f32
// CHECK:           scf.yield %[[S0NEXT]], {{.*}} : f32, f32, f32, f32, f32, f32, f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[F0:.*]] = arith.select %[[Z0]], %[[SUMS]]#0, %[[Y0]] : f32
// CHECK:         %[[R0:.*]] = arith.addf %[[F0]], %{{.*}} : f32
// CHECK-COUNT-6: arith.addf
// CHECK-NEXT:    scf.if
// CHECK:           %[[H0:.*]] = arith.truncf %[[R0]] : f32 to f16
// CHECK-NEXT:      memref.store %[[H0]], %[[OUT]]
// CHECK-NOT:     gpu.barrier
// CHECK:         gpu.return

// The same on tensor cores when asked for; FMA loops when told to or when
// the budget is below 7680 bytes. Between, the skews go, the result rows'
// first (8960 - 64 x 16 bytes), then the weight rows' (- 16 x 16 bytes),
// so that the matvec stays on tensor cores.
// SKEW-W-LABEL: gpu.func @mma_f16_kernel(
// SKEW-W-SAME:      coopvec.workgroup_memory = 7936 : i64
// SKEW-W-DAG:     %[[WS:.*]] = memref.alloc() {alignment = 128 : i64} : memref<384xf16, 3>
// SKEW-W-DAG:     %[[YS:.*]] = memref.alloc() {alignment = 128 : i64} : memref<1024xf32, 3>
// SKEW-W:         gpu.subgroup_mma_load_matrix %[[WS]][%{{.*}}] {leadDimension = 24 : index, transpose}
// SKEW-W:         gpu.subgroup_mma_store_matrix %{{.*}}, %[[YS]][%{{.*}}] {leadDimension = 16 : index}
// SKEW-X-LABEL: gpu.func @mma_f16_kernel(
// SKEW-X-SAME:      coopvec.workgroup_memory = 7680 : i64
// SKEW-X-DAG:     %[[WS:.*]] = memref.alloc() {alignment = 128 : i64} : memref<256xf16, 3>
// SKEW-X-DAG:     %[[YS:.*]] = memref.alloc() {alignment = 128 : i64} : memref<1024xf32, 3>
// SKEW-X:         %[[WROW:.*]] = arith.muli %{{.*}}, %c16 : index
// SKEW-X-NEXT:    %[[WAT:.*]] = arith.addi %[[WROW]], %{{.*}} : index
// SKEW-X:         memref.store %{{.*}}, %[[WS]][%[[WAT]]] : memref<256xf16, 3>
// SKEW-X:         gpu.subgroup_mma_load_matrix %[[WS]][%{{.*}}] {leadDimension = 16 : index, transpose}
// SKEW-X:         gpu.subgroup_mma_store_matrix %{{.*}}, %[[YS]][%{{.*}}] {leadDimension = 16 : index}
// MMA-LABEL: gpu.func @mma_f16_kernel(
// MMA-COUNT-2: gpu.subgroup_mma_compute
// SIMT-LABEL:  gpu.func @mma_f16_kernel(
// SIMT-SAME:       coopvec.workgroup_memory = 0 : i64
// SIMT-NOT:        memref.alloc
// SIMT-NOT:        gpu.barrier
// SIMT-COUNT-21:   math.fma
// SIMT-NOT:        gpu.subgroup_mma
// BUDGET-LABEL: gpu.func @mma_f16_kernel(
// BUDGET-SAME:      coopvec.workgroup_memory = 0 : i64
// BUDGET-NOT:       gpu.subgroup_mma
// BUDGET:           math.fma
// With 128 threads the input and result tiles double: 6144 + 768 + 10240.
// DEFAULT-LABEL: gpu.func @mma_f16_kernel(
// DEFAULT-SAME:      coopvec.workgroup_memory = 17152 : i64
// DEFAULT-DAG:     memref.alloc() {alignment = 128 : i64} : memref<3072xf16, 3>
// DEFAULT-DAG:     memref.alloc() {alignment = 128 : i64} : memref<384xf16, 3>
// DEFAULT-DAG:     memref.alloc() {alignment = 128 : i64} : memref<2560xf32, 3>
// DEFAULT-COUNT-4: arith.addi %{{.*}}, %{{.*}} : index
// DEFAULT:         gpu.subgroup_mma_compute
// emulate-mma: the same staging, copies and barriers, and each 16 x 16
// tile product in f32 FMAs by a group of 32 threads (the subgroup has 8):
// thread t of the group computes results 8t .. 8t + 7 of the tile (row
// 8t / 16, columns 8t % 16 + i) over the padded inputs, reading the staged
// row (24 f16 a row) and weight row (24 f16 a row), and stores them where the tensor cores
// would (20 f32 a row). The read-back's barrier is the workgroup's, as a
// tile group spans subgroups.
// EMU-LABEL: gpu.func @mma_f16_kernel(
// EMU-SAME:      coopvec.workgroup_memory = 8960 : i64
// EMU:         %[[TID:.*]] = gpu.thread_id x
// EMU:         %[[INGROUP:.*]] = arith.remui %[[TID]], %c32 : index
// EMU-NEXT:    %[[GROUP:.*]] = arith.subi %[[TID]], %[[INGROUP]] : index
// EMU:         gpu.barrier
// EMU:         gpu.barrier
// EMU-NEXT:    %[[XSTART:.*]] = arith.muli %[[GROUP]], %c24 : index
// EMU-NEXT:    %[[T:.*]] = arith.subi %[[TID]], %[[GROUP]] : index
// EMU-NEXT:    %[[E:.*]] = arith.muli %[[T]], %c8 : index
// EMU-NEXT:    %[[R:.*]] = arith.divui %[[E]], %c16 : index
// EMU-NEXT:    %[[COL:.*]] = arith.remui %[[E]], %c16 : index
// EMU-NEXT:    %[[XOFF:.*]] = arith.muli %[[R]], %c24 : index
// EMU-NEXT:    %[[XROW:.*]] = arith.addi %[[XSTART]], %[[XOFF]] : index
// EMU-NEXT:    %[[WROW:.*]] = arith.muli %[[COL]], %c24 : index
// EMU-NEXT:    %[[SUMS:.*]]:8 = scf.for %[[K:.*]] = %c0 to %c16 step %c1 iter_args(%[[S0:[^ ]*]] = %[[NEGZERO:[^,]*]], {{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// EMU-NEXT:      %[[XAT:.*]] = arith.addi %[[XROW]], %[[K]] : index
// EMU-NEXT:      %[[X:.*]] = memref.load %{{.*}}[%[[XAT]]] : memref<1536xf16, 3>
// EMU-NEXT:      %[[X32:.*]] = arith.extf %[[X]] : f16 to f32
// EMU-NEXT:      %[[BAT:.*]] = arith.addi %[[WROW]], %[[K]] : index
// EMU-NEXT:      %[[W:.*]] = memref.load %{{.*}}[%[[BAT]]] : memref<384xf16, 3>
// EMU-NEXT:      %[[W32:.*]] = arith.extf %[[W]] : f16 to f32
// EMU-NEXT:      %[[P0:.*]] = math.fma %[[W32]], %[[X32]], %[[S0]] {coopvec.accumulate} : f32
// EMU:           scf.yield %[[P0]], {{.*}} : f32, f32, f32, f32, f32, f32, f32, f32
// EMU-NEXT:    }
// EMU-NEXT:    %[[ROW:.*]] = arith.addi %[[GROUP]], %[[R]] : index
// EMU-NEXT:    %[[YROW:.*]] = arith.muli %[[ROW]], %c20 : index
// EMU-NEXT:    %[[YAT:.*]] = arith.addi %[[YROW]], %[[COL]] : index
// EMU-NEXT:    memref.store %[[SUMS]]#0, %{{.*}}[%[[YAT]]] : memref<1280xf32, 3>
// EMU-COUNT-7: memref.store %[[SUMS]]
// EMU:         scf.for
// EMU:         gpu.barrier{{$}}
// EMU-NEXT:    arith.muli %[[TID]], %c20 : index
// EMU-NOT:     gpu.subgroup_mma
// EMU-NOT:     coopvec.subgroup_barrier
func.func @mma_f16(%x: !coopvec.vec<3, f16>, %w: memref<?xf16>, %off: index) -> !coopvec.vec<7, f16> {
  %A = "coopvec.matrix_view"(%w) {offset = 64} : (memref<?xf16>) -> !coopvec.matrix<7, 3, f16, "row_major">
  %b = "coopvec.load"(%w, %off) : (memref<?xf16>, index) -> !coopvec.vec<7, f16>
  %y = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<7, 3, f16, "row_major">, !coopvec.vec<3, f16>, !coopvec.vec<7, f16>) -> !coopvec.vec<7, f16>
  return %y : !coopvec.vec<7, f16>
}

// -----

// Two output tiles (20 = 16 + 4 outputs) and two k-steps (24 inputs padded
// to 32). `transpose` of a row-major 24 x 20 matrix: W(o, k) = A[k, o] at
// k * 20 + o, so consecutive threads copy consecutive outputs (j is the
// fast index of the slice). Each tile: barrier, copy, barrier, multiply,
// subgroup barrier, read. Workgroup memory: 64 x 32 f16 inputs (rows of
// 40), a 16 x 32 f16 slice of weight rows (rows of 40) and 64 x 16 f32
// results (rows of 20): 5120 + 1280 + 5120 bytes.
// CHECK-LABEL: gpu.func @mma_tiles_kernel(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf16>, %[[W:[^:]*]]: memref<?xf16>,
// CHECK-SAME:      coopvec.workgroup_memory = 11520 : i64
// CHECK-DAG:     %[[XS:.*]] = memref.alloc() {alignment = 128 : i64} : memref<2560xf16, 3>
// CHECK-DAG:     %[[WS:.*]] = memref.alloc() {alignment = 128 : i64} : memref<640xf16, 3>
// CHECK-DAG:     %[[C20:.*]] = arith.constant 20 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C40:.*]] = arith.constant 40 : index
// CHECK-DAG:     %[[C512:.*]] = arith.constant 512 : index
// CHECK:         gpu.barrier
// CHECK-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %[[C512]] step %{{.*}} {
// CHECK-NEXT:      %[[J:.*]] = arith.remui %[[I]], %[[C16]] : index
// CHECK-NEXT:      %[[K:.*]] = arith.divui %[[I]], %[[C16]] : index
// CHECK:           %[[OO:.*]] = arith.minui %[[J]], %{{.*}} : index
// CHECK-NEXT:      %[[KK:.*]] = arith.minui %[[K]], %{{.*}} : index
// CHECK-NEXT:      %[[KROW:.*]] = arith.muli %[[KK]], %[[C20]] : index
// CHECK-NEXT:      %[[AT:.*]] = arith.addi %[[OO]], %[[KROW]] : index
// CHECK-NEXT:      memref.load %[[W]][%[[AT]]] : memref<?xf16>
// CHECK:         gpu.barrier
// CHECK:         scf.for {{.*}} iter_args
// CHECK:           %[[A:.*]] = arith.muli %{{.*}}, %[[C40]] : index
// CHECK:           gpu.subgroup_mma_load_matrix %[[XS]][%{{.*}}] {leadDimension = 40 : index}
// CHECK:         gpu.barrier {coopvec.subgroup_barrier}
// CHECK-COUNT-4: vector.load %{{.*}} {alignment = 16 : i64} : memref<1280xf32, 3>, vector<4xf32>
// CHECK:         scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK:         gpu.barrier{{$}}
// CHECK-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %[[C512]] step %{{.*}} {
// CHECK-NEXT:      %[[J:.*]] = arith.remui %[[I]], %[[C16]] : index
// CHECK-NEXT:      %[[K:.*]] = arith.divui %[[I]], %[[C16]] : index
// CHECK-NEXT:      %[[O:.*]] = arith.addi %[[J]], %[[C16]] : index
// CHECK:           arith.cmpi ult, %[[O]], %[[C20]] : index
// CHECK:         gpu.barrier
// CHECK-COUNT-2: gpu.subgroup_mma_store_matrix
// CHECK-NEXT:    gpu.barrier {coopvec.subgroup_barrier}
// CHECK:         vector.load %{{.*}} {alignment = 16 : i64} : memref<1280xf32, 3>, vector<4xf32>
// CHECK-COUNT-4: vector.extract
// CHECK:         scf.for {{.*}} -> (f32, f32, f32, f32) {
// CHECK:         scf.if
// With its input in a per-thread array (24 elements, more than
// register-elements=8), a thread stages its whole 8-element chunks by a
// loop and the padding after them unrolled.
// TILED-LABEL: gpu.func @mma_tiles_kernel(
// TILED:         %[[ROW:.*]] = arith.muli %{{.*}}, %c40 : index
// TILED-NEXT:    scf.for %[[K:.*]] = %{{.*}} to %[[C24:.*]] step %[[C8:.*]] {
// TILED-NEXT:      %[[X0:.*]] = memref.load %[[TILE:.*]][%[[K]]] : memref<24xf32>
// TILED-NEXT:      %[[H0:.*]] = arith.truncf %[[X0]] : f32 to f16
// TILED-COUNT-7:   memref.load %[[TILE]]
// TILED:           %[[AT:.*]] = arith.addi %[[ROW]], %[[K]] : index
// TILED-NEXT:      %[[CHUNK:.*]] = vector.from_elements %[[H0]], {{.*}} : vector<8xf16>
// TILED-NEXT:      vector.store %[[CHUNK]], %{{.*}}[%[[AT]]] {alignment = 16 : i64} : memref<2560xf16, 3>, vector<8xf16>
// TILED-NEXT:    }
// TILED-NEXT:    %[[PAD:.*]] = arith.constant 0.000000e+00 : f16
// TILED-NEXT:    %[[LAST:.*]] = arith.addi %[[ROW]], %[[C24]] : index
// TILED-NEXT:    %[[PADS:.*]] = vector.from_elements %[[PAD]], %[[PAD]], %[[PAD]], %[[PAD]], %[[PAD]], %[[PAD]], %[[PAD]], %[[PAD]] : vector<8xf16>
// TILED-NEXT:    vector.store %[[PADS]], %{{.*}}[%[[LAST]]] {alignment = 16 : i64}
// TILED-NEXT:    gpu.barrier
func.func @mma_tiles(%x: !coopvec.vec<24, f16>, %w: memref<?xf16>) -> !coopvec.vec<20, f16> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<24, 20, f16, "row_major">
  %y = "coopvec.matvec"(%A, %x) {transpose} : (!coopvec.matrix<24, 20, f16, "row_major">, !coopvec.vec<24, f16>) -> !coopvec.vec<20, f16>
  return %y : !coopvec.vec<20, f16>
}

// -----

// f32 on tensor cores only with allow-tf32: 16 x 8 x 16 tiles of f32
// staged as f32 (9 inputs padded to 16, two k-steps of 8). Without it, FMA
// loops from -0.0.
// MMA-LABEL: gpu.func @tf32_kernel(
// MMA-SAME:      coopvec.workgroup_memory = 11520 : i64
// MMA-DAG:     %[[XS:.*]] = memref.alloc() {alignment = 128 : i64} : memref<1280xf32, 3>
// MMA-DAG:     %[[WS:.*]] = memref.alloc() {alignment = 128 : i64} : memref<320xf32, 3>
// MMA-COUNT-2: vector.store %{{.*}}, %[[XS]][%{{.*}}] {alignment = 16 : i64} : memref<1280xf32, 3>, vector<4xf32>
// MMA-NEXT:    arith.addi
// MMA-NEXT:    %[[LAST:.*]] = vector.from_elements %{{.*}}, %[[PAD:.*]], %[[PAD]], %[[PAD]] : vector<4xf32>
// MMA-NEXT:    vector.store %[[LAST]], %[[XS]]
// MMA-NEXT:    arith.addi
// MMA-NEXT:    %[[PADS:.*]] = vector.from_elements %[[PAD]], %[[PAD]], %[[PAD]], %[[PAD]] : vector<4xf32>
// MMA-NEXT:    vector.store %[[PADS]], %[[XS]]
// MMA:         arith.constant -0.000000e+00 : f32
// MMA:         scf.for {{.*}} iter_args
// MMA:           gpu.subgroup_mma_load_matrix %[[XS]][%{{.*}}] {leadDimension = 20 : index} : memref<1280xf32, 3> -> !gpu.mma_matrix<16x8xf32, "AOp">
// MMA:           gpu.subgroup_mma_load_matrix %[[WS]][%{{.*}}] {leadDimension = 20 : index, transpose} : memref<320xf32, 3> -> !gpu.mma_matrix<8x16xf32, "BOp">
// MMA-NEXT:      gpu.subgroup_mma_compute {{.*}} : !gpu.mma_matrix<16x8xf32, "AOp">, !gpu.mma_matrix<8x16xf32, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK-LABEL: gpu.func @tf32_kernel(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %[[W:[^:]*]]: memref<?xf32>,
// CHECK-SAME:      coopvec.workgroup_memory = 0 : i64
// CHECK-DAG:     %[[NEGZERO:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-NOT:     gpu.subgroup_mma
// CHECK:         %[[W0:.*]] = memref.load %[[W]][%{{.*}}] : memref<?xf32>
// CHECK-NEXT:    math.fma %[[W0]], %{{.*}}, %[[NEGZERO]] {coopvec.accumulate} : f32
// CHECK-COUNT-35: math.fma
// CHECK-NOT:     gpu.subgroup_mma
func.func @tf32(%x: !coopvec.vec<9, f32>, %w: memref<?xf32>) -> !coopvec.vec<4, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<4, 9, f32, "row_major">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<4, 9, f32, "row_major">, !coopvec.vec<9, f32>) -> !coopvec.vec<4, f32>
  return %y : !coopvec.vec<4, f32>
}

//===----------------------------------------------------------------------===//
// matvec as per-thread FMA loops: the layouts
//===----------------------------------------------------------------------===//

// -----

// W(o, k) in each layout, as the constant element index of every weight:
// row_major 3 x 2 at element 0: o * 2 + k; col_major at element 8:
// 8 + k * 3 + o; inference at element 32, row-major on GPUs: 32 + o * 2 + k;
// training 3 x 2 at element 64 with transpose: W(o, k) = T[k, o] at
// 64 + k * 2 + o. f16 weights are widened; sums start at -0.0.
// SIMT-LABEL: gpu.func @simt_layouts_kernel(
// SIMT-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf16>, %[[W:[^:]*]]: memref<?xf16>,
// SIMT-DAG:     %[[NEGZERO:.*]] = arith.constant -0.000000e+00 : f32
// SIMT:         %[[X0:.*]] = arith.select {{.*}} : f32
// SIMT:         %[[X1:.*]] = arith.select {{.*}} : f32
// SIMT-NEXT:    %[[W00:.*]] = memref.load %[[W]][%[[C0:.*]]] : memref<?xf16>
// SIMT-NEXT:    %[[E00:.*]] = arith.extf %[[W00]] : f16 to f32
// SIMT-NEXT:    %[[S00:.*]] = math.fma %[[E00]], %[[X0]], %[[NEGZERO]] {coopvec.accumulate} : f32
// SIMT-NEXT:    %[[W01:.*]] = memref.load %[[W]][%[[C1:.*]]] : memref<?xf16>
// SIMT-NEXT:    %[[E01:.*]] = arith.extf %[[W01]] : f16 to f32
// SIMT-NEXT:    %[[R0:.*]] = math.fma %[[E01]], %[[X1]], %[[S00]] {coopvec.accumulate} : f32
// SIMT-NEXT:    memref.load %[[W]][%[[C2:.*]]]
// SIMT:         memref.load %[[W]][%[[C3:.*]]]
// SIMT:         %[[R1:.*]] = math.fma
// SIMT-NEXT:    memref.load %[[W]][%[[C4:.*]]]
// SIMT:         memref.load %[[W]][%[[C5:.*]]]
// SIMT:         %[[R2:.*]] = math.fma
// SIMT-NEXT:    memref.load %[[W]][%[[C8:.*]]]
// SIMT:         memref.load %[[W]][%[[C11:.*]]]
// SIMT:         memref.load %[[W]][%[[C9:.*]]]
// SIMT:         memref.load %[[W]][%[[C12:.*]]]
// SIMT:         memref.load %[[W]][%[[C10:.*]]]
// SIMT:         memref.load %[[W]][%[[C13:.*]]]
// SIMT:         memref.load %[[W]][%[[C32:.*]]]
// SIMT:         memref.load %[[W]][%[[C33:.*]]]
// SIMT:         memref.load %[[W]][%[[C34:.*]]]
// SIMT:         memref.load %[[W]][%[[C35:.*]]]
// SIMT:         memref.load %[[W]][%[[C36:.*]]]
// SIMT:         memref.load %[[W]][%[[C37:.*]]]
// SIMT:         memref.load %[[W]][%[[C64:.*]]]
// SIMT:         math.fma %{{.*}}, %[[R0]], %[[NEGZERO]] {coopvec.accumulate} : f32
// SIMT:         memref.load %[[W]][%[[C66:.*]]]
// SIMT:         math.fma %{{.*}}, %[[R1]], %{{.*}} {coopvec.accumulate} : f32
// SIMT:         memref.load %[[W]][%[[C68:.*]]]
// SIMT:         math.fma %{{.*}}, %[[R2]], %{{.*}} {coopvec.accumulate} : f32
// SIMT:         memref.load %[[W]][%[[C65:.*]]]
// SIMT:         memref.load %[[W]][%[[C67:.*]]]
// SIMT:         memref.load %[[W]][%[[C69:.*]]]
// SIMT:         scf.if
// SIMT-DAG:     %[[C0]] = arith.constant 0 : index
// SIMT-DAG:     %[[C1]] = arith.constant 1 : index
// SIMT-DAG:     %[[C2]] = arith.constant 2 : index
// SIMT-DAG:     %[[C3]] = arith.constant 3 : index
// SIMT-DAG:     %[[C4]] = arith.constant 4 : index
// SIMT-DAG:     %[[C5]] = arith.constant 5 : index
// SIMT-DAG:     %[[C8]] = arith.constant 8 : index
// SIMT-DAG:     %[[C9]] = arith.constant 9 : index
// SIMT-DAG:     %[[C10]] = arith.constant 10 : index
// SIMT-DAG:     %[[C11]] = arith.constant 11 : index
// SIMT-DAG:     %[[C12]] = arith.constant 12 : index
// SIMT-DAG:     %[[C13]] = arith.constant 13 : index
// SIMT-DAG:     %[[C32]] = arith.constant 32 : index
// SIMT-DAG:     %[[C33]] = arith.constant 33 : index
// SIMT-DAG:     %[[C34]] = arith.constant 34 : index
// SIMT-DAG:     %[[C35]] = arith.constant 35 : index
// SIMT-DAG:     %[[C36]] = arith.constant 36 : index
// SIMT-DAG:     %[[C37]] = arith.constant 37 : index
// SIMT-DAG:     %[[C64]] = arith.constant 64 : index
// SIMT-DAG:     %[[C65]] = arith.constant 65 : index
// SIMT-DAG:     %[[C66]] = arith.constant 66 : index
// SIMT-DAG:     %[[C67]] = arith.constant 67 : index
// SIMT-DAG:     %[[C68]] = arith.constant 68 : index
// SIMT-DAG:     %[[C69]] = arith.constant 69 : index

// On tensor cores the same layouts are read by the slice copy: col_major
// W(o, k) at 8 + k * 3 + o, inference 32 + o * 2 + k, transposed training
// 64 + k * 2 + o.
// CHECK-LABEL: gpu.func @simt_layouts_kernel(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf16>, %[[W:[^:]*]]: memref<?xf16>,
// CHECK:         scf.for
// CHECK:           %[[OO:.*]] = arith.minui %{{.*}}, %[[CM2:.*]] : index
// CHECK-NEXT:      %[[KK:.*]] = arith.minui %{{.*}}, %[[CM1:.*]] : index
// CHECK-NEXT:      %[[R:.*]] = arith.muli %[[OO]], %[[CM2]] : index
// CHECK-NEXT:      %[[RK:.*]] = arith.addi %[[R]], %[[KK]] : index
// CHECK-NEXT:      memref.load %[[W]][%[[RK]]]
// CHECK:         scf.for
// CHECK:           %[[OO:.*]] = arith.minui
// CHECK-NEXT:      %[[KK:.*]] = arith.minui
// CHECK-NEXT:      %[[C:.*]] = arith.muli %[[KK]], %[[CM3:.*]] : index
// CHECK-NEXT:      %[[CO:.*]] = arith.addi %[[OO]], %[[C]] : index
// CHECK-NEXT:      %[[CAT:.*]] = arith.addi %[[CO]], %[[CM8:.*]] : index
// CHECK-NEXT:      memref.load %[[W]][%[[CAT]]]
// CHECK:         scf.for
// CHECK:           %[[OO:.*]] = arith.minui
// CHECK-NEXT:      %[[KK:.*]] = arith.minui
// CHECK-NEXT:      %[[I:.*]] = arith.muli %[[OO]], %[[CM2]] : index
// CHECK-NEXT:      %[[IK:.*]] = arith.addi %[[I]], %[[KK]] : index
// CHECK-NEXT:      %[[IAT:.*]] = arith.addi %[[IK]], %[[CM32:.*]] : index
// CHECK-NEXT:      memref.load %[[W]][%[[IAT]]]
// CHECK:         scf.for
// CHECK:           %[[OO:.*]] = arith.minui
// CHECK-NEXT:      %[[KK:.*]] = arith.minui
// CHECK-NEXT:      %[[T:.*]] = arith.muli %[[KK]], %[[CM2]] : index
// CHECK-NEXT:      %[[TO:.*]] = arith.addi %[[OO]], %[[T]] : index
// CHECK-NEXT:      %[[TAT:.*]] = arith.addi %[[TO]], %[[CM64:.*]] : index
// CHECK-NEXT:      memref.load %[[W]][%[[TAT]]]
func.func @simt_layouts(%x: !coopvec.vec<2, f16>, %w: memref<?xf16>) -> (!coopvec.vec<3, f16>, !coopvec.vec<3, f16>, !coopvec.vec<3, f16>, !coopvec.vec<2, f16>) {
  %R = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<3, 2, f16, "row_major">
  %C = "coopvec.matrix_view"(%w) {offset = 16} : (memref<?xf16>) -> !coopvec.matrix<3, 2, f16, "col_major">
  %I = "coopvec.matrix_view"(%w) {offset = 64} : (memref<?xf16>) -> !coopvec.matrix<3, 2, f16, "inference">
  %T = "coopvec.matrix_view"(%w) {offset = 128} : (memref<?xf16>) -> !coopvec.matrix<3, 2, f16, "training">
  %r = "coopvec.matvec"(%R, %x) : (!coopvec.matrix<3, 2, f16, "row_major">, !coopvec.vec<2, f16>) -> !coopvec.vec<3, f16>
  %c = "coopvec.matvec"(%C, %x) : (!coopvec.matrix<3, 2, f16, "col_major">, !coopvec.vec<2, f16>) -> !coopvec.vec<3, f16>
  %i = "coopvec.matvec"(%I, %x) : (!coopvec.matrix<3, 2, f16, "inference">, !coopvec.vec<2, f16>) -> !coopvec.vec<3, f16>
  %t = "coopvec.matvec"(%T, %r) {transpose} : (!coopvec.matrix<3, 2, f16, "training">, !coopvec.vec<3, f16>) -> !coopvec.vec<2, f16>
  return %r, %c, %i, %t : !coopvec.vec<3, f16>, !coopvec.vec<3, f16>, !coopvec.vec<3, f16>, !coopvec.vec<2, f16>
}

// -----

// Vecs of more than 32 elements live in per-thread tiles (memref.alloca)
// and every op on them is an element loop: the argument is loaded into its
// tile, the bias is copied into the result's tile, and the matvec loops
// over output rows (starting from the bias row, then overwriting it) and
// over inputs.
// CHECK-LABEL: gpu.func @simt_tiled_kernel(
// CHECK-SAME:      %{{[^:]*}}: index, %[[X:[^:]*]]: memref<?xf32>, %[[W:[^:]*]]: memref<?xf32>, %[[OFF:[^:]*]]: index, %[[OUT:[^:]*]]: memref<?xf32>)
// CHECK-DAG:     %[[XT:.*]] = memref.alloca() {alignment = 16 : i64} : memref<40xf32>
// CHECK-DAG:     %[[YT:.*]] = memref.alloca() {alignment = 16 : i64} : memref<36xf32>
// CHECK-DAG:     %[[C40:.*]] = arith.constant 40 : index
// CHECK-DAG:     %[[C36:.*]] = arith.constant 36 : index
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %[[C40]] step %{{.*}} {
// CHECK-NEXT:      %[[AT:.*]] = arith.addi %{{.*}}, %[[I]] : index
// CHECK-NEXT:      %[[L:.*]] = memref.load %[[X]][%[[AT]]] : memref<?xf32>
// CHECK-NEXT:      %[[V:.*]] = arith.select %{{.*}}, %[[L]], %{{.*}} : f32
// CHECK-NEXT:      memref.store %[[V]], %[[XT]][%[[I]]] : memref<40xf32>
// CHECK-NEXT:    } {llvm.loop_annotation =
// CHECK-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %[[C36]] step %{{.*}} {
// CHECK-NEXT:      %[[BAT:.*]] = arith.addi %[[OFF]], %[[I]] : index
// CHECK-NEXT:      %[[BI:.*]] = memref.load %[[W]][%[[BAT]]] : memref<?xf32>
// CHECK-NEXT:      memref.store %[[BI]], %[[YT]][%[[I]]] : memref<36xf32>
// CHECK-NEXT:    } {llvm.loop_annotation =
// CHECK-NEXT:    scf.for %[[O:.*]] = %{{.*}} to %[[C36]] step %{{.*}} {
// CHECK-NEXT:      %[[B:.*]] = memref.load %[[YT]][%[[O]]] : memref<36xf32>
// CHECK-NEXT:      %[[SUM:.*]] = scf.for %[[K:.*]] = %{{.*}} to %[[C40]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[B]]) -> (f32) {
// CHECK-NEXT:        %[[XK:.*]] = memref.load %[[XT]][%[[K]]] : memref<40xf32>
// CHECK-NEXT:        %[[ROW:.*]] = arith.muli %[[O]], %[[C40]] : index
// CHECK-NEXT:        %[[WAT:.*]] = arith.addi %[[ROW]], %[[K]] : index
// CHECK-NEXT:        %[[WK:.*]] = memref.load %[[W]][%[[WAT]]] : memref<?xf32>
// CHECK-NEXT:        %[[NEXT:.*]] = math.fma %[[WK]], %[[XK]], %[[ACC]] {coopvec.accumulate} : f32
// CHECK-NEXT:        scf.yield %[[NEXT]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      memref.store %[[SUM]], %[[YT]][%[[O]]] : memref<36xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if
// CHECK-NEXT:      %[[START:.*]] = arith.muli %{{.*}}, %[[C36]] : index
// CHECK-NEXT:      scf.for %[[I:.*]] = %{{.*}} to %[[C36]] step %{{.*}} {
// CHECK-NEXT:        %[[Y:.*]] = memref.load %[[YT]][%[[I]]] : memref<36xf32>
// CHECK-NEXT:        %[[AT:.*]] = arith.addi %[[START]], %[[I]] : index
// CHECK-NEXT:        memref.store %[[Y]], %[[OUT]][%[[AT]]] : memref<?xf32>
func.func @simt_tiled(%x: !coopvec.vec<40, f32>, %w: memref<?xf32>, %off: index) -> !coopvec.vec<36, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<36, 40, f32, "row_major">
  %b = "coopvec.load"(%w, %off) : (memref<?xf32>, index) -> !coopvec.vec<36, f32>
  %y = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<36, 40, f32, "row_major">, !coopvec.vec<40, f32>, !coopvec.vec<36, f32>) -> !coopvec.vec<36, f32>
  return %y : !coopvec.vec<36, f32>
}

//===----------------------------------------------------------------------===//
// Training ops and stores
//===----------------------------------------------------------------------===//

// -----

// By default (training=block) the workgroup's rows are staged and summed
// as tiles (block-training.mlir): no subgroup reduction.
// CHECK-LABEL: gpu.func @training_kernel(
// CHECK-NOT:     gpu.subgroup_reduce
// CHECK:         gpu.return
// training=subgroup: both sum over all threads: each subgroup reduces its
// threads' contributions (-0.0 from threads past n), and lane 0 of a subgroup with a
// valid thread adds the sum atomically (rounded once to the f16 gradient).
// The outer product loops over (i, j) of the col_major gradient at element
// 8: G[i, j] at 8 + i + j * 2.
// SGFORM-LABEL: gpu.func @training_kernel(
// SGFORM-SAME:      %[[N:[^:]*]]: index, %{{[^:]*}}: memref<?xf16>, %{{[^:]*}}: memref<?xf16>, %[[G:[^:]*]]: memref<?xf16>, %[[OFF:[^:]*]]: index)
// SGFORM-DAG:     %[[AT:.*]] = memref.alloca() {alignment = 16 : i64} : memref<2xf32>
// SGFORM-DAG:     %[[BT:.*]] = memref.alloca() {alignment = 16 : i64} : memref<3xf32>
// SGFORM-DAG:     %[[C8:.*]] = arith.constant 8 : index
// SGFORM-DAG:     %[[NEGZERO:.*]] = arith.constant -0.000000e+00 : f32
// SGFORM:         %[[VALID:.*]] = arith.cmpi ult, %{{.*}}, %[[N]] : index
// SGFORM:         %[[LEADER:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// SGFORM-COUNT-2: arith.select %[[VALID]]
// SGFORM:         %[[B0:.*]] = arith.select %[[VALID]], %{{.*}}, %{{.*}} : f32
// SGFORM-COUNT-2: memref.store %{{.*}}, %[[AT]]
// SGFORM-COUNT-3: memref.store %{{.*}}, %[[BT]]
// SGFORM-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// SGFORM-NEXT:      %[[A:.*]] = memref.load %[[AT]][%[[I]]] : memref<2xf32>
// SGFORM-NEXT:      %[[ROW:.*]] = arith.addi %[[I]], %[[C8]] : index
// SGFORM-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// SGFORM-NEXT:        %[[B:.*]] = memref.load %[[BT]][%[[J]]] : memref<3xf32>
// SGFORM-NEXT:        %[[P:.*]] = arith.mulf %[[A]], %[[B]] : f32
// SGFORM-NEXT:        %[[COL:.*]] = arith.muli %[[J]], %{{.*}} : index
// SGFORM-NEXT:        %[[GAT:.*]] = arith.addi %[[ROW]], %[[COL]] : index
// SGFORM-NEXT:        %[[MINE:.*]] = arith.select %[[VALID]], %[[P]], %[[NEGZERO]] : f32
// SGFORM-NEXT:        %[[SUM:.*]] = gpu.subgroup_reduce add %[[MINE]] uniform : (f32) -> f32
// SGFORM-NEXT:        scf.if %[[LEADER]] {
// SGFORM-NEXT:          %[[H:.*]] = arith.truncf %[[SUM]] : f32 to f16
// SGFORM-NEXT:          memref.atomic_rmw addf %[[H]], %[[G]][%[[GAT]]] : (f16, memref<?xf16>) -> f16
// SGFORM-NEXT:        }
// SGFORM-NEXT:      }
// SGFORM-NEXT:    }
// SGFORM-NEXT:    %[[R0AT:.*]] = arith.addi %[[OFF]], %{{.*}} : index
// SGFORM-NEXT:    %[[R0:.*]] = arith.select %[[VALID]], %[[B0]], %[[NEGZERO]] : f32
// SGFORM-NEXT:    %[[S0:.*]] = gpu.subgroup_reduce add %[[R0]] uniform : (f32) -> f32
// SGFORM-NEXT:    scf.if %[[LEADER]] {
// SGFORM-NEXT:      %[[H0:.*]] = arith.truncf %[[S0]] : f32 to f16
// SGFORM-NEXT:      memref.atomic_rmw addf %[[H0]], %[[G]][%[[R0AT]]] : (f16, memref<?xf16>) -> f16
// SGFORM-NEXT:    }
// SGFORM-COUNT-2: gpu.subgroup_reduce
// SGFORM-NOT:     scf.if %[[VALID]]
// SGFORM:         gpu.return
// HWLANE-LABEL: gpu.func @training_kernel(
// HWLANE:        %[[LANE:.*]] = gpu.lane_id
// HWLANE-NEXT:     %[[LEADER:.*]] = arith.cmpi eq, %[[LANE]], %{{.*}} : index
// HWLANE:        scf.if %[[LEADER]] {
// HWLANE-NEXT:       arith.truncf
// HWLANE-NEXT:       memref.atomic_rmw addf
func.func @training(%a: !coopvec.vec<2, f16>, %b: !coopvec.vec<3, f16>, %g: memref<?xf16>, %off: index) {
  %G = "coopvec.matrix_view"(%g) {offset = 16} : (memref<?xf16>) -> !coopvec.matrix<2, 3, f16, "col_major">
  "coopvec.outer_product_accumulate"(%a, %b, %G) : (!coopvec.vec<2, f16>, !coopvec.vec<3, f16>, !coopvec.matrix<2, 3, f16, "col_major">) -> ()
  "coopvec.reduce_sum_accumulate"(%b, %g, %off) : (!coopvec.vec<3, f16>, memref<?xf16>, index) -> ()
  return
}

// -----

// A per-thread store to a uniform address races; as on the CPU the last
// thread's (n - 1) value lands: only it writes. A masked store does not
// touch masked-off elements.
// CHECK-LABEL: gpu.func @stores_kernel(
// CHECK-SAME:      %[[N:[^:]*]]: index, %{{[^:]*}}: memref<?xf32>, %[[W:[^:]*]]: memref<?xf32>, %[[OFF:[^:]*]]: index, %[[M:[^:]*]]: vector<2xi1>)
// CHECK:         %[[NM1:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK-NEXT:    %[[LAST:.*]] = arith.cmpi eq, %{{.*}}, %[[NM1]] : index
// CHECK:         %[[V0:.*]] = arith.select
// CHECK:         %[[V1:.*]] = arith.select
// CHECK-NEXT:    scf.if %[[LAST]] {
// CHECK-NEXT:      %[[AT0:.*]] = arith.addi %[[OFF]], %{{.*}} : index
// CHECK-NEXT:      memref.store %[[V0]], %[[W]][%[[AT0]]] : memref<?xf32>
// CHECK-NEXT:      %[[AT1:.*]] = arith.addi %[[OFF]], %{{.*}} : index
// CHECK-NEXT:      memref.store %[[V1]], %[[W]][%[[AT1]]] : memref<?xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %[[LAST]] {
// CHECK-NEXT:      %[[AT0:.*]] = arith.addi %[[OFF]], %[[C0:.*]] : index
// CHECK-NEXT:      %[[B0:.*]] = vector.extract %[[M]][%[[C0]]] : i1 from vector<2xi1>
// CHECK-NEXT:      scf.if %[[B0]] {
// CHECK-NEXT:        memref.store %[[V0]], %[[W]][%[[AT0]]] : memref<?xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[AT1:.*]] = arith.addi %[[OFF]], %[[C1:.*]] : index
// CHECK-NEXT:      %[[B1:.*]] = vector.extract %[[M]][%[[C1]]] : i1 from vector<2xi1>
// CHECK-NEXT:      scf.if %[[B1]] {
// CHECK-NEXT:        memref.store %[[V1]], %[[W]][%[[AT1]]] : memref<?xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.return
func.func @stores(%v: !coopvec.vec<2, f32>, %w: memref<?xf32>, %off: index, %m: vector<2xi1>) {
  "coopvec.store"(%v, %w, %off) : (!coopvec.vec<2, f32>, memref<?xf32>, index) -> ()
  "coopvec.masked_store"(%v, %w, %off, %m) : (!coopvec.vec<2, f32>, memref<?xf32>, index, vector<2xi1>) -> ()
  return
}

// -----

// Several per-thread functions: one gpu.module, one kernel each; the
// matvecs of a kernel share its staging buffers (two 16 x 16 matvecs: one
// set), a kernel without tensor-core matvecs has none.
// CHECK-LABEL: module attributes {gpu.container_module} {
// CHECK-NEXT:  gpu.module @coopvec_kernels {
// CHECK-NEXT:    gpu.func @first_kernel(
// CHECK-SAME:        coopvec.workgroup_memory = 8960 : i64
// CHECK-COUNT-3:   memref.alloc()
// CHECK-NOT:       memref.alloc()
// CHECK-COUNT-4:   gpu.subgroup_mma_compute
// CHECK-NOT:       gpu.subgroup_mma_compute
// CHECK:         gpu.func @second_kernel(
// CHECK-SAME:        coopvec.workgroup_memory = 0 : i64
// CHECK-NOT:       memref.alloc()
// CHECK:           arith.negf
// CHECK-NOT:     func.func
func.func @first(%x: !coopvec.vec<16, f16>, %w: memref<?xf16>) -> !coopvec.vec<16, f16> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<16, 16, f16, "row_major">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<16, 16, f16, "row_major">, !coopvec.vec<16, f16>) -> !coopvec.vec<16, f16>
  %z = "coopvec.matvec"(%A, %y) : (!coopvec.matrix<16, 16, f16, "row_major">, !coopvec.vec<16, f16>) -> !coopvec.vec<16, f16>
  return %z : !coopvec.vec<16, f16>
}

func.func @second(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  %y = "coopvec.neg"(%x) : (!coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

// -----

// Which vecs stay in registers (register-elements): by default 128
// elements in a kernel without simt matvecs (@wide_max has none), 32 in one
// with a simt matvec (@wide_simt: f32 without allow-tf32); wider vecs live
// in per-thread arrays with element loops. register-elements=40 keeps both
// kernels' 40-element vecs in SSA values.
// CHECK-LABEL: gpu.func @wide_max_kernel(
// CHECK-NOT:     memref.alloca
// CHECK-NOT:     scf.for
// CHECK-COUNT-40: memref.load %{{.*}} : memref<?xf32>
// CHECK-NOT:     scf.for
// CHECK-COUNT-40: memref.store %{{.*}} : memref<?xf32>
// CHECK-NOT:     memref.alloca
// CHECK:         gpu.return
// CHECK-LABEL: gpu.func @wide_simt_kernel(
// CHECK-DAG:     %[[IN:.*]] = memref.alloca() {alignment = 16 : i64} : memref<40xf32>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %[[C40:.*]] step %{{.*}} {
// CHECK:           memref.store %{{.*}}, %[[IN]][%[[I]]] : memref<40xf32>
// CHECK:         gpu.return
// REGS-LABEL: gpu.func @wide_max_kernel(
// REGS-NOT:     memref.alloca
// REGS:         gpu.return
// REGS-LABEL: gpu.func @wide_simt_kernel(
// REGS-NOT:     memref.alloca
// REGS-COUNT-40: memref.load %{{.*}} : memref<?xf32>
// REGS:         math.fma
// REGS-NOT:     memref.alloca
// REGS:         gpu.return
func.func @wide_max(%x: !coopvec.vec<40, f32>, %s: f32) -> !coopvec.vec<40, f32> {
  %y = "coopvec.max"(%x, %s) : (!coopvec.vec<40, f32>, f32) -> !coopvec.vec<40, f32>
  return %y : !coopvec.vec<40, f32>
}

func.func @wide_simt(%x: !coopvec.vec<40, f32>, %w: memref<?xf32>) -> !coopvec.vec<2, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<2, 40, f32, "row_major">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<2, 40, f32, "row_major">, !coopvec.vec<40, f32>) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

