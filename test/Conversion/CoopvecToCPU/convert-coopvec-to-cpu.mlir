// Most checks use a small fixed layout (4 lanes, blocks of 2 matvec rows) for
// a fixed target, so that the output does not depend on the machine running
// the test. The pass flag spelling gives the same output.
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lanes=4 row-block=2})' %s | FileCheck %s
// RUN: coopvec-opt --split-input-file --convert-coopvec-to-cpu="target-cpu=x86-64 lanes=4 row-block=2" %s | FileCheck %s

// `lanes` and `row-block` override the target's defaults.
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lanes=8 row-block=3})' %s | FileCheck %s --check-prefix=OPTS
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=skylake-avx512 lanes=1 row-block=64})' %s | FileCheck %s --check-prefix=OPTS-MIN
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lanes=256 row-block=1})' %s | FileCheck %s --check-prefix=OPTS-MAX
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lanes=3 row-block=0})' %s | FileCheck %s --check-prefix=OPTS-ODD

// The defaults come from the target CPU (two of its SIMD registers of f32
// per lane vector; 12 accumulators with 16 registers, 16 with 32), not from
// the machine that compiles; @f_batched records the target.
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64})' %s | FileCheck %s --check-prefix=X86
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=haswell})' %s | FileCheck %s --check-prefix=HSW
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=skylake-avx512})' %s | FileCheck %s --check-prefix=SKX
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=skylake-avx512 target-features=-avx512f})' %s | FileCheck %s --check-prefix=NO512
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 target-features=+avx2,+fma})' %s | FileCheck %s --check-prefix=AVX2
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-triple=aarch64-linux-gnu target-cpu=neoverse-v1})' %s | FileCheck %s --check-prefix=ARM

// The whole file through coopvec-lower-to-cpu to machine code: the lane
// vectors are xmm (SSE), ymm (AVX2) and zmm (AVX-512) registers.
// RUN: coopvec-opt --coopvec-lower-to-cpu="target-cpu=x86-64" --emit=asm --target-cpu=x86-64 %s | FileCheck %s --check-prefix=ASM-X86 --implicit-check-not=%ymm --implicit-check-not=%zmm
// RUN: coopvec-opt --coopvec-lower-to-cpu="target-cpu=haswell" --emit=asm --target-cpu=haswell %s | FileCheck %s --check-prefix=ASM-HSW --implicit-check-not=%zmm
// RUN: coopvec-opt --coopvec-lower-to-cpu="target-cpu=skylake-avx512" --emit=asm --target-cpu=skylake-avx512 %s | FileCheck %s --check-prefix=ASM-SKX

//===----------------------------------------------------------------------===//
// Functions and the batched signature
//===----------------------------------------------------------------------===//

// A function without coopvec values is left alone.
// CHECK-LABEL: func.func @scalar_only(
// CHECK-SAME:      %[[A:.*]]: f32) -> f32 {
// CHECK-NEXT:    %[[R:.*]] = arith.addf %[[A]], %[[A]] : f32
// CHECK-NEXT:    return %[[R]] : f32
// CHECK-NEXT:  {{^ *}}}
func.func @scalar_only(%a: f32) -> f32 {
  %r = arith.addf %a, %a : f32
  return %r : f32
}

// -----

// The batched signature: n, the vec arguments as n x N row-major buffers,
// uniform arguments unchanged, then one output buffer per result. The lane
// loop steps by L = 4 and masks the threads past n (the partial last
// group). A vec of N = 2 < B = 4 elements is narrow: a full group loads
// its 4 threads' 8 elements as one vector and shuffles each element's lanes
// out into a tile (thread l's element i is at (t + l) * N + i); the
// partial last group gathers them in an element loop. A vec of at most 16
// elements is then loaded into SSA lane vectors; each result is stored to
// a tile (the arguments' tiles, dead by then, are reused), and written by
// concatenating and interleaving the rows into one store (full groups) or
// scattered by an element loop (the last group). @signature itself is
// erased.
// CHECK-LABEL: func.func @signature_batched(
// CHECK-SAME:      %[[N:[^:]*]]: index, %[[X:[^:]*]]: memref<?xf32>, %[[Y:[^:]*]]: memref<?xf32>, %[[W:[^:]*]]: memref<?xf32>, %[[S:[^:]*]]: f32, %[[OUT0:[^:]*]]: memref<?xf32>, %[[OUT1:[^:]*]]: memref<?xf32>)
// CHECK-SAME:      attributes {llvm.emit_c_interface, target_cpu = "x86-64", target_features = #llvm.target_features<[]>} {
// CHECK-DAG:     %[[SV:.*]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[XT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<2x4xf32>
// CHECK-DAG:     %[[YT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<2x4xf32>
// CHECK-DAG:     %[[STRIDES:.*]] = arith.constant dense<[0, 2, 4, 6]> : vector<4xi32>
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK:         scf.for %[[T:.*]] = %[[C0]] to %[[N]] step %[[C4]] {
// CHECK-NEXT:      %[[REM:.*]] = arith.subi %[[N]], %[[T]] : index
// CHECK-NEXT:      %[[VALID:.*]] = arith.minsi %[[REM]], %[[C4]] : index
// CHECK-NEXT:      %[[MASK:.*]] = vector.create_mask %[[VALID]] : vector<4xi1>
// CHECK-NEXT:      %[[FULL:.*]] = arith.cmpi eq, %[[VALID]], %[[C4]] : index
// CHECK-NEXT:      scf.if %[[FULL]] {
// CHECK:             memref.prefetch %[[X]]
// CHECK:           %[[BASE:.*]] = arith.muli %[[T]], %[[C2]] : index
// CHECK-NEXT:        %[[FLAT:.*]] = vector.load %[[X]][%[[BASE]]] : memref<?xf32>, vector<8xf32>
// CHECK-NEXT:        %[[E0:.*]] = vector.shuffle %[[FLAT]], %[[FLAT]] [0, 2, 4, 6] : vector<8xf32>, vector<8xf32>
// CHECK-NEXT:        vector.store %[[E0]], %[[XT]][%[[C0]], %[[C0]]] : memref<2x4xf32>, vector<4xf32>
// CHECK-NEXT:        %[[E1:.*]] = vector.shuffle %[[FLAT]], %[[FLAT]] [1, 3, 5, 7] : vector<8xf32>, vector<8xf32>
// CHECK-NEXT:        vector.store %[[E1]], %[[XT]][%[[C1]], %[[C0]]] : memref<2x4xf32>, vector<4xf32>
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.for %[[I:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT:          %[[BASE:.*]] = arith.muli %[[T]], %[[C2]] : index
// CHECK-NEXT:          %[[AT:.*]] = arith.addi %[[BASE]], %[[I]] : index
// CHECK-NEXT:          %[[G:.*]] = vector.gather %[[X]][%[[AT]]] [%[[STRIDES]]], %[[MASK]], %[[ZERO]] : memref<?xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CHECK-NEXT:          vector.store %[[G]], %[[XT]][%[[I]], %[[C0]]] : memref<2x4xf32>, vector<4xf32>
// CHECK-NEXT:        } {llvm.loop_annotation
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:      %[[X0:.*]] = vector.load %[[XT]][%[[C0]], %[[C0]]] : memref<2x4xf32>, vector<4xf32>
// CHECK-NEXT:      %[[X1:.*]] = vector.load %[[XT]][%[[C1]], %[[C0]]] : memref<2x4xf32>, vector<4xf32>
// CHECK-NEXT:      scf.if %[[FULL]] {
// CHECK:             vector.load %[[Y]]
// CHECK:           } else {
// CHECK-NEXT:        scf.for %[[I:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT:          %[[BASE:.*]] = arith.muli %[[T]], %[[C2]] : index
// CHECK-NEXT:          %[[AT:.*]] = arith.addi %[[BASE]], %[[I]] : index
// CHECK-NEXT:          %[[G:.*]] = vector.gather %[[Y]][%[[AT]]] [%{{.*}}], %[[MASK]], %{{.*}} : memref<?xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CHECK-NEXT:          vector.store %[[G]], %[[YT]][%[[I]], %[[C0]]]
// CHECK-NEXT:        } {llvm.loop_annotation
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:      %[[Y0:.*]] = vector.load %[[YT]][%[[C0]], %[[C0]]]
// CHECK-NEXT:      %[[Y1:.*]] = vector.load %[[YT]][%[[C1]], %[[C0]]]
// CHECK-NEXT:      %[[A0:.*]] = arith.addf %[[X0]], %[[Y0]] : vector<4xf32>
// CHECK-NEXT:      %[[A1:.*]] = arith.addf %[[X1]], %[[Y1]] : vector<4xf32>
// CHECK-NEXT:      %[[B0:.*]] = arith.subf %[[X0]], %[[SV]] : vector<4xf32>
// CHECK-NEXT:      %[[B1:.*]] = arith.subf %[[X1]], %[[SV]] : vector<4xf32>
// CHECK-NEXT:      vector.store %[[A0]], %[[XT]][%[[C0]], %[[C0]]]
// CHECK-NEXT:      vector.store %[[A1]], %[[XT]][%[[C1]], %[[C0]]]
// CHECK-NEXT:      scf.if %[[FULL]] {
// CHECK:             memref.prefetch %[[OUT0]]
// CHECK:           %[[BASE:.*]] = arith.muli %[[T]], %[[C2]] : index
// CHECK-NEXT:        %[[R0:.*]] = vector.load %[[XT]][%[[C0]], %[[C0]]] : memref<2x4xf32>, vector<4xf32>
// CHECK-NEXT:        %[[R1:.*]] = vector.load %[[XT]][%[[C1]], %[[C0]]] : memref<2x4xf32>, vector<4xf32>
// CHECK-NEXT:        %[[CAT:.*]] = vector.shuffle %[[R0]], %[[R1]] [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT:        %[[MIX:.*]] = vector.shuffle %[[CAT]], %[[CAT]] [0, 4, 1, 5, 2, 6, 3, 7] : vector<8xf32>, vector<8xf32>
// CHECK-NEXT:        vector.store %[[MIX]], %[[OUT0]][%[[BASE]]] : memref<?xf32>, vector<8xf32>
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.for %[[I:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT:          %[[R:.*]] = vector.load %[[XT]][%[[I]], %[[C0]]] : memref<2x4xf32>, vector<4xf32>
// CHECK-NEXT:          %[[BASE:.*]] = arith.muli %[[T]], %[[C2]] : index
// CHECK-NEXT:          %[[AT:.*]] = arith.addi %[[BASE]], %[[I]] : index
// CHECK-NEXT:          vector.scatter %[[OUT0]][%[[AT]]] [%{{.*}}], %[[MASK]], %[[R]] : memref<?xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32>
// CHECK-NEXT:        } {llvm.loop_annotation
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:      vector.store %[[B0]], %[[YT]][%[[C0]], %[[C0]]]
// CHECK-NEXT:      vector.store %[[B1]], %[[YT]][%[[C1]], %[[C0]]]
// CHECK-NEXT:      scf.if %[[FULL]] {
// CHECK:             vector.store %{{.*}}, %[[OUT1]][%{{.*}}] : memref<?xf32>, vector<8xf32>
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.for %[[I:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT:          %[[R:.*]] = vector.load %[[YT]][%[[I]], %[[C0]]]
// CHECK-NEXT:          %[[BASE:.*]] = arith.muli %[[T]], %[[C2]] : index
// CHECK-NEXT:          %[[AT:.*]] = arith.addi %[[BASE]], %[[I]] : index
// CHECK-NEXT:          vector.scatter %[[OUT1]][%[[AT]]] [%{{.*}}], %[[MASK]], %[[R]]
// CHECK-NEXT:        } {llvm.loop_annotation
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:    {{^ *}}}
// CHECK-NEXT:    return
// CHECK-NEXT:  {{^ *}}}
// CHECK-NOT:   func.func @signature(
// CHECK-NOT:   coopvec

// The layout options set the group size, the mask and the lane vectors.
// OPTS-LABEL: func.func @signature_batched(
// OPTS-DAG:     %[[C8:.*]] = arith.constant 8 : index
// OPTS-DAG:     memref.alloca() {alignment = 64 : i64} : memref<2x8xf32>
// OPTS-DAG:     %[[STRIDES:.*]] = arith.constant dense<[0, 2, 4, 6, 8, 10, 12, 14]> : vector<8xi32>
// OPTS:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C8]] {
// OPTS:           arith.minsi %{{.*}}, %[[C8]] : index
// OPTS:           vector.create_mask %{{.*}} : vector<8xi1>
// OPTS:           vector.gather %{{.*}}[%{{.*}}] [%[[STRIDES]]], %{{.*}}, %{{.*}} : memref<?xf32>, vector<8xi32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// OPTS:           arith.addf %{{.*}}, %{{.*}} : vector<8xf32>

// One lane: the group is one thread.
// OPTS-MIN-LABEL: func.func @signature_batched(
// OPTS-MIN-SAME:      target_cpu = "skylake-avx512"
// OPTS-MIN:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C1:.*]] {
// OPTS-MIN:           vector.create_mask %{{.*}} : vector<1xi1>
// OPTS-MIN:           arith.addf %{{.*}}, %{{.*}} : vector<1xf32>
func.func @signature(%x: !coopvec.vec<2, f32>, %y: !coopvec.vec<2, f32>, %w: memref<?xf32>, %s: f32) -> (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) {
  %a = "coopvec.add"(%x, %y) : (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  %b = "coopvec.sub"(%x, %s) : (!coopvec.vec<2, f32>, f32) -> !coopvec.vec<2, f32>
  return %a, %b : !coopvec.vec<2, f32>, !coopvec.vec<2, f32>
}

// -----

// A function with coopvec ops but no vec arguments or results is per-thread
// too: its batched form only takes n.
// CHECK-LABEL: func.func @no_vec_arguments_batched(
// CHECK-SAME:      %[[N:[^:]*]]: index, %[[W:[^:]*]]: memref<?xf32>, %[[OFF:[^:]*]]: index)
// CHECK-SAME:      attributes {llvm.emit_c_interface,
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[N]] step
// CHECK:           vector.load %[[W]][%[[OFF]]] : memref<?xf32>, vector<2xf32>
// CHECK:           vector.store %{{.*}}, %[[W]][%[[OFF]]] : memref<?xf32>, vector<2xf32>
// CHECK-NOT:       vector.gather
// CHECK-NOT:       vector.scatter
// CHECK:         return
func.func @no_vec_arguments(%w: memref<?xf32>, %off: index) {
  %a = "coopvec.load"(%w, %off) : (memref<?xf32>, index) -> !coopvec.vec<2, f32>
  "coopvec.store"(%a, %w, %off) : (!coopvec.vec<2, f32>, memref<?xf32>, index) -> ()
  return
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

// -----

// SSA form: each op is the arith / math op on each lane vector; a scalar
// operand is broadcast once, right after its definition (an argument: once
// per call, before the lane loop). min / max are minnum / maxnum; step(x,
// e) = x < e ? 0 : 1. (The transcendental ops are lib/Math's code on the
// lane vector.)
// CHECK-LABEL: func.func @elementwise_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %{{[^:]*}}: memref<?xf32>, %[[S:[^:]*]]: f32, %[[OUT:[^:]*]]: memref<?xf32>)
// CHECK-NEXT:    %[[SV:.*]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK:         %[[X:.*]] = vector.load %{{.*}} : memref<1x4xf32>, vector<4xf32>
// CHECK:         %[[Y:.*]] = vector.load %{{.*}} : memref<1x4xf32>, vector<4xf32>
// CHECK-NEXT:    %[[MUL:.*]] = arith.mulf %[[X]], %[[Y]] : vector<4xf32>
// CHECK-NEXT:    %[[MIN:.*]] = arith.minnumf %[[MUL]], %[[Y]] : vector<4xf32>
// CHECK-NEXT:    %[[MAX:.*]] = arith.maxnumf %[[MIN]], %[[SV]] : vector<4xf32>
// CHECK-NEXT:    %[[NEG:.*]] = arith.negf %[[MAX]] : vector<4xf32>
// CHECK-NEXT:    %[[FMA:.*]] = math.fma %[[NEG]], %[[SV]], %[[Y]] : vector<4xf32>
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<4xf32>
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpf olt, %[[FMA]], %[[SV]] : vector<4xf32>
// CHECK-NEXT:    %[[STEP:.*]] = arith.select %[[LT]], %[[ZERO]], %[[ONE]] : vector<4xi1>, vector<4xf32>
// exp2, log2 and tanh of the step are the code of PerThread/Math.c (not
// checked here); their result feeds the add.
// CHECK:         %[[ADD:.*]] = arith.addf %{{.*}}, %[[X]] : vector<4xf32>
// CHECK-NEXT:    %[[SUB:.*]] = arith.subf %[[ADD]], %[[SV]] : vector<4xf32>
// CHECK-NEXT:    vector.store %[[SUB]], %[[TILE:.*]][%{{.*}}, %{{.*}}] : memref<1x4xf32>, vector<4xf32>
// CHECK-NEXT:    scf.if
// CHECK:           %[[ROW:.*]] = vector.load %[[TILE]]
// CHECK-NEXT:      vector.store %[[ROW]], %[[OUT]][%{{.*}}] : memref<?xf32>, vector<4xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        vector.load %[[TILE]]
// CHECK-NEXT:        arith.addi
// CHECK-NEXT:        vector.scatter %[[OUT]]
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
  %9 = "coopvec.add"(%8, %x) : (!coopvec.vec<1, f32>, !coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
  %10 = "coopvec.sub"(%9, %s) : (!coopvec.vec<1, f32>, f32) -> !coopvec.vec<1, f32>
  return %10 : !coopvec.vec<1, f32>
}

// -----

// Tiled form (more than 16 elements): every vec lives in a stack tile
// memref<20 x 4 x f32> allocated before the lane loop, and every op is an
// scf.for over the 20 elements. A scalar operand is broadcast once, before
// the loop. A result reuses the tile of an operand that dies at the op
// (in place: row i is read before it is written), otherwise a free one:
// here the mul writes over x, whose tile is free after it.
// A full group (valid == L) first prefetches the next group's L x N block
// (one prefetch per 64-byte line, ending at n x N), then reads an argument
// in B x B sub-blocks (B = 4 here: one xmm of f32): B contiguous rows, one
// per thread, transposed by log2(B) stages of shuffles into B tile rows;
// the last group gathers. Results are written back the same way (prefetch
// for writing, transpose, then contiguous stores; scatters for the last
// group).
// CHECK-LABEL: func.func @elementwise_tiled_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %[[X:[^:]*]]: memref<?xf32>, %[[Y:[^:]*]]: memref<?xf32>, %[[S:[^:]*]]: f32, %[[OUT:[^:]*]]: memref<?xf32>)
// CHECK-DAG:     %[[SV:.*]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C20:.*]] = arith.constant 20 : index
// CHECK-DAG:     %[[C40:.*]] = arith.constant 40 : index
// CHECK-DAG:     %[[C60:.*]] = arith.constant 60 : index
// CHECK-DAG:     %[[C80:.*]] = arith.constant 80 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[XT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<20x4xf32>
// CHECK-DAG:     %[[YT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<20x4xf32>
// CHECK-DAG:     %[[STRIDES:.*]] = arith.constant dense<[0, 20, 40, 60]> : vector<4xi32>
// CHECK:         scf.for %[[T:.*]] = %[[C0]] to %[[N:[^ ]*]] step
// CHECK:           %[[VALID:.*]] = arith.minsi
// CHECK:           %[[FULL:.*]] = arith.cmpi eq, %[[VALID]], %[[C4]] : index
// CHECK-NEXT:      scf.if %[[FULL]] {
// CHECK-NEXT:        %[[NEXT:.*]] = arith.addi %[[T]], %[[C4]] : index
// CHECK-NEXT:        %[[BEGIN:.*]] = arith.muli %[[NEXT]], %[[C20]] : index
// CHECK-NEXT:        %[[ALL:.*]] = arith.muli %[[N]], %[[C20]] : index
// CHECK-NEXT:        %[[BLOCK:.*]] = arith.addi %[[BEGIN]], %[[C80]] : index
// CHECK-NEXT:        %[[END:.*]] = arith.minsi %[[BLOCK]], %[[ALL]] : index
// CHECK-NEXT:        scf.for %[[L:.*]] = %[[BEGIN]] to %[[END]] step %[[C16]] {
// CHECK-NEXT:          memref.prefetch %[[X]][%[[L]]], read, locality<3>, data : memref<?xf32>
// CHECK-NEXT:        } {llvm.loop_annotation = #{{.*}}}
// CHECK-NEXT:        scf.for %[[E:.*]] = %[[C0]] to %[[C20]] step %[[C4]] {
// CHECK-NEXT:          %[[ROW:.*]] = arith.muli %[[T]], %[[C20]] : index
// CHECK-NEXT:          %[[AT:.*]] = arith.addi %[[ROW]], %[[E]] : index
// CHECK-NEXT:          %[[R0:.*]] = vector.load %[[X]][%[[AT]]] : memref<?xf32>, vector<4xf32>
// CHECK-NEXT:          %[[AT1:.*]] = arith.addi %[[AT]], %[[C20]] : index
// CHECK-NEXT:          %[[R1:.*]] = vector.load %[[X]][%[[AT1]]] : memref<?xf32>, vector<4xf32>
// CHECK-NEXT:          %[[AT2:.*]] = arith.addi %[[AT]], %[[C40]] : index
// CHECK-NEXT:          %[[R2:.*]] = vector.load %[[X]][%[[AT2]]] : memref<?xf32>, vector<4xf32>
// CHECK-NEXT:          %[[AT3:.*]] = arith.addi %[[AT]], %[[C60]] : index
// CHECK-NEXT:          %[[R3:.*]] = vector.load %[[X]][%[[AT3]]] : memref<?xf32>, vector<4xf32>
// CHECK-NEXT:          %[[S0:.*]] = vector.shuffle %[[R0]], %[[R1]] [0, 4, 2, 6] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT:          %[[S1:.*]] = vector.shuffle %[[R0]], %[[R1]] [1, 5, 3, 7] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT:          %[[S2:.*]] = vector.shuffle %[[R2]], %[[R3]] [0, 4, 2, 6] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT:          %[[S3:.*]] = vector.shuffle %[[R2]], %[[R3]] [1, 5, 3, 7] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT:          %[[E0:.*]] = vector.shuffle %[[S0]], %[[S2]] [0, 1, 4, 5] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT:          %[[E2:.*]] = vector.shuffle %[[S0]], %[[S2]] [2, 3, 6, 7] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT:          %[[E1:.*]] = vector.shuffle %[[S1]], %[[S3]] [0, 1, 4, 5] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT:          %[[E3:.*]] = vector.shuffle %[[S1]], %[[S3]] [2, 3, 6, 7] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT:          vector.store %[[E0]], %[[XT]][%[[E]], %[[C0]]] : memref<20x4xf32>, vector<4xf32>
// CHECK-NEXT:          %[[I1:.*]] = arith.addi %[[E]], %[[C1]] : index
// CHECK-NEXT:          vector.store %[[E1]], %[[XT]][%[[I1]], %[[C0]]] : memref<20x4xf32>, vector<4xf32>
// CHECK-NEXT:          %[[I2:.*]] = arith.addi %[[E]], %[[C2]] : index
// CHECK-NEXT:          vector.store %[[E2]], %[[XT]][%[[I2]], %[[C0]]] : memref<20x4xf32>, vector<4xf32>
// CHECK-NEXT:          %[[I3:.*]] = arith.addi %[[E]], %[[C3]] : index
// CHECK-NEXT:          vector.store %[[E3]], %[[XT]][%[[I3]], %[[C0]]] : memref<20x4xf32>, vector<4xf32>
// CHECK-NEXT:        } {llvm.loop_annotation = #{{.*}}}
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.for %[[I:.*]] = %[[C0]] to %[[C20]] step %[[C1]] {
// CHECK-NEXT:          %[[BASE:.*]] = arith.muli %[[T]], %[[C20]] : index
// CHECK-NEXT:          %[[AT:.*]] = arith.addi %[[BASE]], %[[I]] : index
// CHECK-NEXT:          %[[G:.*]] = vector.gather %[[X]][%[[AT]]] [%[[STRIDES]]]
// CHECK-NEXT:          vector.store %[[G]], %[[XT]][%[[I]], %[[C0]]] : memref<20x4xf32>, vector<4xf32>
// CHECK-NEXT:        } {llvm.loop_annotation = #{{.*}}}
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:      scf.if %[[FULL]] {
// CHECK:             vector.load %[[Y]]
// CHECK:             vector.store %{{.*}}, %[[YT]]
// CHECK:           } else {
// CHECK:             vector.gather %[[Y]]
// CHECK-NEXT:        vector.store %{{.*}}, %[[YT]][%{{.*}}, %[[C0]]]
// CHECK-NEXT:      } {llvm.loop_annotation = #{{.*}}}
// CHECK-NEXT:      {{^ *}}}
// The four ops share one element loop (ElementLoopFusion.c): each reads the
// row before it as an SSA value, and only the last row is stored.
// CHECK-NEXT:      scf.for %[[I:.*]] = %[[C0]] to %[[C20]] step %[[C1]] {
// CHECK-NEXT:        %[[A:.*]] = vector.load %[[XT]][%[[I]], %[[C0]]] : memref<20x4xf32>, vector<4xf32>
// CHECK-NEXT:        %[[B:.*]] = vector.load %[[YT]][%[[I]], %[[C0]]] : memref<20x4xf32>, vector<4xf32>
// CHECK-NEXT:        %[[P:.*]] = arith.mulf %[[A]], %[[B]] : vector<4xf32>
// CHECK-NEXT:        %[[B2:.*]] = vector.load %[[YT]][%[[I]], %[[C0]]]
// CHECK-NEXT:        %[[F:.*]] = math.fma %[[P]], %[[SV]], %[[B2]] : vector<4xf32>
// CHECK-NEXT:        %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK-NEXT:        %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<4xf32>
// CHECK-NEXT:        %[[LT:.*]] = arith.cmpf olt, %[[F]], %[[SV]] : vector<4xf32>
// CHECK-NEXT:        %[[STEP:.*]] = arith.select %[[LT]], %[[ZERO]], %[[ONE]]
// CHECK-NOT:         vector.store
// CHECK-NOT:         {{^ *}}}
// CHECK:             vector.store %{{.*}}, %[[XT]][%[[I]], %[[C0]]]
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:      scf.if %[[FULL]] {
// CHECK:               memref.prefetch %[[OUT]][%{{.*}}], write, locality<3>, data : memref<?xf32>
// CHECK:             scf.for %[[E:.*]] = %[[C0]] to %[[C20]] step %[[C4]] {
// CHECK-NEXT:          %[[ROW:.*]] = arith.muli %[[T]], %[[C20]] : index
// CHECK-NEXT:          %[[AT:.*]] = arith.addi %[[ROW]], %[[E]] : index
// CHECK-NEXT:          %[[R0:.*]] = vector.load %[[XT]][%[[E]], %[[C0]]] : memref<20x4xf32>, vector<4xf32>
// CHECK:               %[[R3:.*]] = vector.load %[[XT]][%{{.*}}, %[[C0]]] : memref<20x4xf32>, vector<4xf32>
// CHECK-COUNT-8:       vector.shuffle
// CHECK-NEXT:          vector.store %{{.*}}, %[[OUT]][%[[AT]]] : memref<?xf32>, vector<4xf32>
// CHECK-NEXT:          %[[AT1:.*]] = arith.addi %[[AT]], %[[C20]] : index
// CHECK-NEXT:          vector.store %{{.*}}, %[[OUT]][%[[AT1]]] : memref<?xf32>, vector<4xf32>
// CHECK:               vector.store %{{.*}}, %[[OUT]][%{{.*}}] : memref<?xf32>, vector<4xf32>
// CHECK:               vector.store %{{.*}}, %[[OUT]][%{{.*}}] : memref<?xf32>, vector<4xf32>
// CHECK-NEXT:        } {llvm.loop_annotation = #{{.*}}}
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.for %[[I:.*]] = %[[C0]] to %[[C20]] step %[[C1]] {
// CHECK-NEXT:          %[[R:.*]] = vector.load %[[XT]][%[[I]], %[[C0]]]
// CHECK-NEXT:          %[[BASE:.*]] = arith.muli %[[T]], %[[C20]] : index
// CHECK-NEXT:          %[[AT:.*]] = arith.addi %[[BASE]], %[[I]] : index
// CHECK-NEXT:          vector.scatter %[[OUT]][%[[AT]]] [%{{.*}}], %{{.*}}, %[[R]]
// CHECK-NEXT:        } {llvm.loop_annotation = #{{.*}}}
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:    {{^ *}}}
// CHECK-NEXT:    return
func.func @elementwise_tiled(%x: !coopvec.vec<20, f32>, %y: !coopvec.vec<20, f32>, %s: f32) -> !coopvec.vec<20, f32> {
  %0 = "coopvec.mul"(%x, %y) : (!coopvec.vec<20, f32>, !coopvec.vec<20, f32>) -> !coopvec.vec<20, f32>
  %1 = "coopvec.fma"(%0, %s, %y) : (!coopvec.vec<20, f32>, f32, !coopvec.vec<20, f32>) -> !coopvec.vec<20, f32>
  %2 = "coopvec.step"(%1, %s) : (!coopvec.vec<20, f32>, f32) -> !coopvec.vec<20, f32>
  %3 = "coopvec.tanh"(%2) : (!coopvec.vec<20, f32>) -> !coopvec.vec<20, f32>
  return %3 : !coopvec.vec<20, f32>
}

// -----

// A vec of exactly 16 elements is still in SSA form: 16 lane vectors, no
// element loop.
// CHECK-LABEL: func.func @sixteen_elements_batched(
// CHECK-COUNT-16: arith.negf %{{.*}} : vector<4xf32>
// CHECK-NOT:     arith.negf
// CHECK:         return
func.func @sixteen_elements(%x: !coopvec.vec<16, f32>) -> !coopvec.vec<16, f32> {
  %0 = "coopvec.neg"(%x) : (!coopvec.vec<16, f32>) -> !coopvec.vec<16, f32>
  return %0 : !coopvec.vec<16, f32>
}

//===----------------------------------------------------------------------===//
// Construction, unpacking and casts
//===----------------------------------------------------------------------===//

// -----

// unpack results are per-thread scalars (one lane vector each); a scalar
// operand that is one is used as it is, a uniform one is broadcast. A
// uniform vector given to from_vector is broadcast element by element;
// to_vector and from_vector of a per-thread value, splat and from_elements
// emit no code.
// CHECK-LABEL: func.func @construct_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %[[S:[^:]*]]: f32, %[[V:[^:]*]]: vector<2xf32>, %{{[^:]*}}: memref<?xf32>)
// CHECK-NEXT:    %[[SV:.*]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK:         %[[X0:.*]] = vector.load %{{.*}} : memref<2x4xf32>, vector<4xf32>
// CHECK-NEXT:    %[[X1:.*]] = vector.load %{{.*}} : memref<2x4xf32>, vector<4xf32>
// CHECK-NEXT:    %[[V0:.*]] = vector.extract %[[V]][0] : f32 from vector<2xf32>
// CHECK-NEXT:    %[[V0B:.*]] = vector.broadcast %[[V0]] : f32 to vector<4xf32>
// CHECK-NEXT:    %[[V1:.*]] = vector.extract %[[V]][1] : f32 from vector<2xf32>
// CHECK-NEXT:    %[[V1B:.*]] = vector.broadcast %[[V1]] : f32 to vector<4xf32>
// CHECK-NEXT:    %[[ADD0:.*]] = arith.addf %[[X0]], %[[V0B]] : vector<4xf32>
// CHECK-NEXT:    %[[ADD1:.*]] = arith.addf %[[X0]], %[[V1B]] : vector<4xf32>
// CHECK-NEXT:    %[[MUL0:.*]] = arith.mulf %[[ADD0]], %[[X1]] : vector<4xf32>
// CHECK-NEXT:    %[[MUL1:.*]] = arith.mulf %[[ADD1]], %[[SV]] : vector<4xf32>
// CHECK-NEXT:    %[[R0:.*]] = arith.addf %[[MUL0]], %[[X1]] : vector<4xf32>
// CHECK-NEXT:    %[[R1:.*]] = arith.addf %[[MUL1]], %[[X1]] : vector<4xf32>
// CHECK-NEXT:    vector.store %[[R0]]
// CHECK-NEXT:    vector.store %[[R1]]
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

// Tiled construction: unpack loads rows of the argument's tile, from_elements
// stores the element values to rows of a new tile (x's, free once unpacked:
// its rows were loaded first), a uniform vector becomes an element loop of
// dynamic extracts (f16 widened) and broadcasts; splat, to_vector,
// from_vector and the cast of f16 values to f32 emit nothing
// (from_vector(to_vector(a)) is a's tile, reused in place by the fma, where
// it dies; the sub reads the from_vector tile itself).
// CHECK-LABEL: func.func @construct_tiled_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %[[S:[^:]*]]: f32, %[[V:[^:]*]]: vector<17xf16>, %[[OUT:[^:]*]]: memref<?xf32>)
// CHECK-DAG:     %[[SV:.*]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C17:.*]] = arith.constant 17 : index
// CHECK-DAG:     %[[XT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<17x4xf32>
// CHECK-DAG:     %[[CT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<17x4xf32>
// The 16 elements of four 4 x 4 sub-blocks are transposed, element 16 is
// gathered (full group); the last group gathers all 17.
// CHECK:         scf.if
// CHECK:           scf.for %{{.*}} = %[[C0]] to %[[C16]] step
// CHECK:           scf.for %[[I:.*]] = %[[C16]] to %[[C17]] step %[[C1]] {
// CHECK:             vector.gather
// CHECK-NEXT:        vector.store %{{.*}}, %[[XT]][%[[I]], %[[C0]]]
// CHECK:         } else {
// CHECK-NEXT:      scf.for %[[I:.*]] = %[[C0]] to %[[C17]] step %[[C1]] {
// CHECK:             vector.gather
// CHECK:         %[[E0:.*]] = vector.load %[[XT]][%[[C0]], %[[C0]]] : memref<17x4xf32>, vector<4xf32>
// CHECK-NEXT:    %[[E1:.*]] = vector.load %[[XT]][%[[C1]], %[[C0]]]
// CHECK-NEXT:    vector.load %[[XT]]
// CHECK-NEXT:    %[[E3:.*]] = vector.load %[[XT]][%[[C3]], %[[C0]]]
// CHECK:         %[[E16:.*]] = vector.load %[[XT]][%[[C16]], %[[C0]]]
// CHECK-NEXT:    vector.store %[[E16]], %[[XT]][%[[C0]], %[[C0]]]
// CHECK-NEXT:    vector.store %[[E1]], %[[XT]][%[[C1]], %[[C0]]]
// CHECK:         vector.store %[[SV]], %[[XT]][%[[C16]], %[[C0]]]
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[C17]] step %[[C1]] {
// CHECK-NEXT:      %[[H:.*]] = vector.extract %[[V]][%[[I]]] : f16 from vector<17xf16>
// CHECK-NEXT:      %[[F:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK-NEXT:      %[[B:.*]] = vector.broadcast %[[F]] : f32 to vector<4xf32>
// CHECK-NEXT:      vector.store %[[B]], %[[CT]][%[[I]], %[[C0]]]
// CHECK-NEXT:    {{^ *}}}
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[C17]] step %[[C1]] {
// CHECK-NEXT:      %[[D:.*]] = vector.load %[[XT]][%[[I]], %[[C0]]]
// CHECK-NEXT:      %[[F:.*]] = math.fma %[[E0]], %[[D]], %[[E3]] : vector<4xf32>
// CHECK-NEXT:      %[[R:.*]] = vector.load %[[CT]][%[[I]], %[[C0]]]
// CHECK-NEXT:      %[[D:.*]] = arith.subf %[[F]], %[[R]] : vector<4xf32>
// CHECK-NEXT:      vector.store %[[D]], %[[XT]][%[[I]], %[[C0]]]
// CHECK-NEXT:    {{^ *}}}
// CHECK-NEXT:    scf.if
// CHECK:           vector.load %[[XT]]
// CHECK:           vector.store %{{.*}}, %[[OUT]]
// CHECK:         } else {
// CHECK:           vector.scatter %[[OUT]]
func.func @construct_tiled(%x: !coopvec.vec<17, f32>, %s: f32, %v: vector<17xf16>) -> !coopvec.vec<17, f32> {
  %e:17 = "coopvec.unpack"(%x) : (!coopvec.vec<17, f32>) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
  %a = "coopvec.from_elements"(%e#16, %e#1, %e#2, %e#3, %e#4, %e#5, %e#6, %e#7, %e#8, %e#9, %e#10, %e#11, %e#12, %e#13, %e#14, %e#15, %s) : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !coopvec.vec<17, f32>
  %b = "coopvec.splat"(%e#0) : (f32) -> !coopvec.vec<17, f32>
  %c = "coopvec.from_vector"(%v) : (vector<17xf16>) -> !coopvec.vec<17, f16>
  %t = "coopvec.to_vector"(%a) : (!coopvec.vec<17, f32>) -> vector<17xf32>
  %d = "coopvec.from_vector"(%t) : (vector<17xf32>) -> !coopvec.vec<17, f32>
  %0 = "coopvec.fma"(%b, %d, %e#3) : (!coopvec.vec<17, f32>, !coopvec.vec<17, f32>, f32) -> !coopvec.vec<17, f32>
  %1 = "coopvec.cast"(%c) : (!coopvec.vec<17, f16>) -> !coopvec.vec<17, f32>
  %2 = "coopvec.sub"(%0, %1) : (!coopvec.vec<17, f32>, !coopvec.vec<17, f32>) -> !coopvec.vec<17, f32>
  return %2 : !coopvec.vec<17, f32>
}

// -----

// Values are held in f32: a cast to f16 rounds (truncf, extf), a cast back
// to f32 changes nothing and emits nothing. An f16 result is rounded once
// more when it is written to its f16 buffer (as vector<4xf16> rows of a full
// group, or scattered).
// CHECK-LABEL: func.func @cast_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %{{[^:]*}}: memref<?xf32>, %[[OUT0:[^:]*]]: memref<?xf32>, %[[OUT1:[^:]*]]: memref<?xf16>)
// CHECK-DAG:     %[[YT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<20x4xf32>
// CHECK:         %[[X:.*]] = vector.load %{{.*}} : memref<1x4xf32>, vector<4xf32>
// CHECK:         scf.if
// CHECK:           vector.store %{{.*}}, %[[YT]]
// CHECK:         } else {
// CHECK:           vector.store %{{.*}}, %[[YT]]
// CHECK:         %[[H:.*]] = arith.truncf %[[X]] : vector<4xf32> to vector<4xf16>
// CHECK-NEXT:    %[[F:.*]] = arith.extf %[[H]] : vector<4xf16> to vector<4xf32>
// CHECK-NEXT:    scf.for %[[I:.*]] =
// CHECK-NEXT:      %[[A:.*]] = vector.load %[[YT]][%[[I]], %{{.*}}]
// CHECK-NEXT:      %[[AH:.*]] = arith.truncf %[[A]] : vector<4xf32> to vector<4xf16>
// CHECK-NEXT:      %[[AF:.*]] = arith.extf %[[AH]] : vector<4xf16> to vector<4xf32>
// CHECK-NEXT:      vector.store %[[AF]], %[[YT]][%[[I]], %{{.*}}]
// CHECK-NEXT:    {{^ *}}}
// CHECK-NEXT:    vector.store %[[F]]
// CHECK-NEXT:    scf.if
// CHECK-NOT:       arith.truncf
// CHECK:           vector.store %{{.*}}, %[[OUT0]][%{{.*}}] : memref<?xf32>, vector<4xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        vector.load
// CHECK-NOT:         arith.truncf
// CHECK:             vector.scatter %[[OUT0]]
// CHECK:         scf.if
// CHECK:           scf.for
// CHECK-COUNT-4:     vector.load %[[YT]]
// CHECK-COUNT-8:     vector.shuffle
// CHECK-NEXT:        %[[RH:.*]] = arith.truncf %{{.*}} : vector<4xf32> to vector<4xf16>
// CHECK-NEXT:        vector.store %[[RH]], %[[OUT1]][%{{.*}}] : memref<?xf16>, vector<4xf16>
// CHECK:         } else {
// CHECK-NEXT:      scf.for %[[I:.*]] =
// CHECK-NEXT:        %[[R:.*]] = vector.load %[[YT]][%[[I]], %{{.*}}]
// CHECK-NEXT:        %[[RH:.*]] = arith.truncf %[[R]] : vector<4xf32> to vector<4xf16>
// CHECK-NEXT:        arith.muli
// CHECK-NEXT:        arith.addi
// CHECK-NEXT:        vector.scatter %[[OUT1]][%{{.*}}] [%{{.*}}], %{{.*}}, %[[RH]] : memref<?xf16>, vector<4xi32>, vector<4xi1>, vector<4xf16>
func.func @cast(%x: !coopvec.vec<1, f32>, %y: !coopvec.vec<20, f32>) -> (!coopvec.vec<1, f32>, !coopvec.vec<20, f16>) {
  %h = "coopvec.cast"(%x) : (!coopvec.vec<1, f32>) -> !coopvec.vec<1, f16>
  %f = "coopvec.cast"(%h) : (!coopvec.vec<1, f16>) -> !coopvec.vec<1, f32>
  %g = "coopvec.cast"(%y) : (!coopvec.vec<20, f32>) -> !coopvec.vec<20, f16>
  return %f, %g : !coopvec.vec<1, f32>, !coopvec.vec<20, f16>
}

//===----------------------------------------------------------------------===//
// Loads and stores
//===----------------------------------------------------------------------===//

// -----

// Offsets and masks are uniform: a load reads its N elements once and
// broadcasts each to all lanes; masked_load uses vector.maskedload with a
// uniform padding as pass-through, or selects a per-thread padding (an
// unpacked element) per element. A store writes the value of the group's
// last valid thread: an element loop extracts that lane (valid - 1) of each
// element into a vector<N x T>, then one vector.store / vector.maskedstore.
// Uniform ops (the offset arithmetic) move into the lane loop in order.
// CHECK-LABEL: func.func @memory_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %[[BUF:[^:]*]]: memref<?xf32>, %[[OFF:[^:]*]]: index, %[[M:[^:]*]]: vector<2xi1>, %[[PAD:[^:]*]]: f32, %[[OUT:[^:]*]]: memref<?xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[TILE:.*]] = memref.alloca() {alignment = 64 : i64} : memref<2x4xf32>
// CHECK:           %[[VALID:.*]] = arith.minsi
// CHECK-NEXT:      vector.create_mask
// CHECK-NEXT:      %[[LAST:.*]] = arith.subi %[[VALID]], %[[C1]] : index
// CHECK:           %[[X0:.*]] = vector.load %[[TILE]][%[[C0]], %[[C0]]]
// CHECK-NEXT:      vector.load %[[TILE]][%[[C1]], %[[C0]]]
// CHECK-NEXT:      %[[C4:.*]] = arith.constant 4 : index
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
// CHECK-NEXT:      %[[ZERO2:.*]] = arith.constant dense<0.000000e+00> : vector<2xf32>
// CHECK-NEXT:      %[[PL:.*]] = vector.maskedload %[[BUF]][%[[OFF]]], %[[M]], %[[ZERO2]]
// CHECK-NEXT:      %[[PL0:.*]] = vector.extract %[[PL]][0] : f32 from vector<2xf32>
// CHECK-NEXT:      %[[PL0B:.*]] = vector.broadcast %[[PL0]] : f32 to vector<4xf32>
// CHECK-NEXT:      %[[BIT0:.*]] = vector.extract %[[M]][0] : i1 from vector<2xi1>
// CHECK-NEXT:      %[[C0V:.*]] = arith.select %[[BIT0]], %[[PL0B]], %[[X0]] : vector<4xf32>
// CHECK-NEXT:      %[[PL1:.*]] = vector.extract %[[PL]][1] : f32 from vector<2xf32>
// CHECK-NEXT:      %[[PL1B:.*]] = vector.broadcast %[[PL1]] : f32 to vector<4xf32>
// CHECK-NEXT:      %[[BIT1:.*]] = vector.extract %[[M]][1] : i1 from vector<2xi1>
// CHECK-NEXT:      %[[C1V:.*]] = arith.select %[[BIT1]], %[[PL1B]], %[[X0]] : vector<4xf32>
// CHECK-NEXT:      %[[INIT:.*]] = arith.constant dense<0.000000e+00> : vector<2xf32>
// CHECK-NEXT:      vector.store %[[A0]], %[[TILE]][%[[C0]], %[[C0]]]
// CHECK-NEXT:      vector.store %[[A1]], %[[TILE]][%[[C1]], %[[C0]]]
// CHECK-NEXT:      %[[SV:.*]] = scf.for %[[I:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<2xf32>) {
// CHECK-NEXT:        %[[ROW:.*]] = vector.load %[[TILE]][%[[I]], %[[C0]]] : memref<2x4xf32>, vector<4xf32>
// CHECK-NEXT:        %[[E:.*]] = vector.extract %[[ROW]][%[[LAST]]] : f32 from vector<4xf32>
// CHECK-NEXT:        %[[NEXT:.*]] = vector.insert %[[E]], %[[ACC]] [%[[I]]] : f32 into vector<2xf32>
// CHECK-NEXT:        scf.yield %[[NEXT]] : vector<2xf32>
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:      vector.store %[[SV]], %[[BUF]][%[[OFF]]] : memref<?xf32>, vector<2xf32>
// CHECK-NEXT:      %[[INIT:.*]] = arith.constant dense<0.000000e+00> : vector<2xf32>
// CHECK-NEXT:      vector.store %[[B0]], %[[TILE]][%[[C0]], %[[C0]]]
// CHECK-NEXT:      vector.store %[[B1]], %[[TILE]][%[[C1]], %[[C0]]]
// CHECK-NEXT:      %[[TV:.*]] = scf.for %[[I:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<2xf32>) {
// CHECK-NEXT:        %[[ROW:.*]] = vector.load %[[TILE]][%[[I]], %[[C0]]]
// CHECK-NEXT:        %[[E:.*]] = vector.extract %[[ROW]][%[[LAST]]] : f32 from vector<4xf32>
// CHECK-NEXT:        %[[NEXT:.*]] = vector.insert %[[E]], %[[ACC]] [%[[I]]] : f32 into vector<2xf32>
// CHECK-NEXT:        scf.yield %[[NEXT]] : vector<2xf32>
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:      vector.maskedstore %[[BUF]][%[[OFF]]], %[[M]], %[[TV]] : memref<?xf32>, vector<2xi1>, vector<2xf32>
// CHECK-NEXT:      vector.store %[[C0V]], %[[TILE]][%[[C0]], %[[C0]]]
// CHECK-NEXT:      vector.store %[[C1V]], %[[TILE]][%[[C1]], %[[C0]]]
// CHECK-NEXT:      scf.if
// CHECK:             vector.store %{{.*}}, %[[OUT]][%{{.*}}] : memref<?xf32>, vector<8xf32>
// CHECK:           } else {
// CHECK-NEXT:        scf.for
// CHECK:               vector.scatter %[[OUT]]
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

// Tiled loads and stores, f16: an element loop reads each element of a
// load by itself (a memref.load, or a one-lane maskedload where masked: a
// dynamic extract from a loaded vector<20xf16> would make LLVM spill the
// vector per element), then extf, broadcast; the per-thread
// padding is selected per element; the stores build the last thread's
// vector<20xf16> in an element loop (truncf per element).
// CHECK-LABEL: func.func @memory_tiled_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf16>, %[[BUF:[^:]*]]: memref<?xf16>, %[[OFF:[^:]*]]: index, %[[M:[^:]*]]: vector<20xi1>, %[[PAD:[^:]*]]: f16, %[[OUT:[^:]*]]: memref<?xf16>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C20:.*]] = arith.constant 20 : index
// CHECK-DAG:     %[[AT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<20x4xf32>
// CHECK-DAG:     %[[CT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<20x4xf32>
// CHECK-DAG:     %[[BT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<20x4xf32>
// CHECK:           %[[VALID:.*]] = arith.minsi
// CHECK-NEXT:      vector.create_mask
// CHECK-NEXT:      %[[LAST:.*]] = arith.subi %[[VALID]], %[[C1]] : index
// CHECK-NEXT:      %[[FULL:.*]] = arith.cmpi eq, %[[VALID]], %{{.*}} : index
// CHECK-NEXT:      scf.if %[[FULL]] {
// CHECK:             %[[XL:.*]] = vector.load {{.*}} : memref<?xf16>, vector<4xf16>
// CHECK-NEXT:        arith.extf %[[XL]] : vector<4xf16> to vector<4xf32>
// CHECK:           } else {
// CHECK:             %[[XG:.*]] = vector.gather {{.*}} : memref<?xf16>, vector<4xi32>, vector<4xi1>, vector<4xf16> into vector<4xf16>
// CHECK-NEXT:        arith.extf %[[XG]] : vector<4xf16> to vector<4xf32>
// CHECK:           %[[X:.*]] = vector.load
// CHECK-NEXT:      scf.for %[[I:.*]] = %[[C0]] to %[[C20]] step %[[C1]] {
// CHECK-NEXT:        %[[AI:.*]] = arith.addi %[[OFF]], %[[I]] : index
// CHECK-NEXT:        %[[H:.*]] = memref.load %[[BUF]][%[[AI]]] : memref<?xf16>
// CHECK-NEXT:        %[[F:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK-NEXT:        %[[B:.*]] = vector.broadcast %[[F]] : f32 to vector<4xf32>
// CHECK-NEXT:        vector.store %[[B]], %[[AT]][%[[I]], %[[C0]]]
// CHECK-NEXT:      {{^ *}}}
// The unpacked f16 element is rounded to f16 (docs/dialect.md).
// CHECK-NEXT:      %[[XH:.*]] = arith.truncf %[[X]] : vector<4xf32> to vector<4xf16>
// CHECK-NEXT:      %[[X:.*]] = arith.extf %[[XH]] : vector<4xf16> to vector<4xf32>
// CHECK-NEXT:      scf.for %[[I:.*]] = %[[C0]] to %[[C20]] step %[[C1]] {
// CHECK-NEXT:        %[[AI:.*]] = arith.addi %[[OFF]], %[[I]] : index
// CHECK-NEXT:        %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<1xf16>
// CHECK-NEXT:        %[[BIT1:.*]] = vector.extract %[[M]][%[[I]]] : i1 from vector<20xi1>
// CHECK-NEXT:        %[[M1:.*]] = vector.broadcast %[[BIT1]] : i1 to vector<1xi1>
// CHECK-NEXT:        %[[PL:.*]] = vector.maskedload %[[BUF]][%[[AI]]], %[[M1]], %[[ZERO]] : memref<?xf16>, vector<1xi1>, vector<1xf16> into vector<1xf16>
// CHECK-NEXT:        %[[H:.*]] = vector.extract %[[PL]][0] : f16 from vector<1xf16>
// CHECK-NEXT:        %[[F:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK-NEXT:        %[[B:.*]] = vector.broadcast %[[F]] : f32 to vector<4xf32>
// CHECK-NEXT:        %[[BIT:.*]] = vector.extract %[[M]][%[[I]]] : i1 from vector<20xi1>
// CHECK-NEXT:        %[[SEL:.*]] = arith.select %[[BIT]], %[[B]], %[[X]] : vector<4xf32>
// CHECK-NEXT:        vector.store %[[SEL]], %[[CT]][%[[I]], %[[C0]]]
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:      scf.for %[[I:.*]] = %[[C0]] to %[[C20]] step %[[C1]] {
// CHECK-NEXT:        %[[AI:.*]] = arith.addi %[[OFF]], %[[I]] : index
// CHECK-NEXT:        %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<1xf16>
// CHECK-NEXT:        %[[BIT1:.*]] = vector.extract %[[M]][%[[I]]] : i1 from vector<20xi1>
// CHECK-NEXT:        %[[PADV:.*]] = vector.broadcast %[[PAD]] : f16 to vector<1xf16>
// CHECK-NEXT:        %[[PASS:.*]] = arith.select %[[BIT1]], %[[ZERO]], %[[PADV]] : vector<1xf16>
// CHECK-NEXT:        %[[M1:.*]] = vector.broadcast %[[BIT1]] : i1 to vector<1xi1>
// CHECK-NEXT:        %[[ML:.*]] = vector.maskedload %[[BUF]][%[[AI]]], %[[M1]], %[[PASS]] : memref<?xf16>, vector<1xi1>, vector<1xf16> into vector<1xf16>
// CHECK-NEXT:        vector.extract %[[ML]][0]
// CHECK-NEXT:        arith.extf
// CHECK-NEXT:        %[[B:.*]] = vector.broadcast
// CHECK-NEXT:        vector.store %[[B]], %[[BT]][%[[I]], %[[C0]]]
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:      %[[INIT:.*]] = arith.constant dense<0.000000e+00> : vector<20xf16>
// CHECK-NEXT:      %[[SV:.*]] = scf.for %[[I:.*]] = %[[C0]] to %[[C20]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<20xf16>) {
// CHECK-NEXT:        %[[ROW:.*]] = vector.load %[[AT]][%[[I]], %[[C0]]] : memref<20x4xf32>, vector<4xf32>
// CHECK-NEXT:        %[[E:.*]] = vector.extract %[[ROW]][%[[LAST]]] : f32 from vector<4xf32>
// CHECK-NEXT:        %[[EH:.*]] = arith.truncf %[[E]] : f32 to f16
// CHECK-NEXT:        %[[NEXT:.*]] = vector.insert %[[EH]], %[[ACC]] [%[[I]]] : f16 into vector<20xf16>
// CHECK-NEXT:        scf.yield %[[NEXT]] : vector<20xf16>
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:      vector.store %[[SV]], %[[BUF]][%[[OFF]]] : memref<?xf16>, vector<20xf16>
// CHECK-NEXT:      %[[INIT:.*]] = arith.constant dense<0.000000e+00> : vector<20xf16>
// CHECK-NEXT:      %[[TV:.*]] = scf.for %[[I:.*]] = %[[C0]] to %[[C20]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<20xf16>) {
// CHECK-NEXT:        vector.load %[[BT]][%[[I]], %[[C0]]]
// CHECK:           {{^ *}}}
// CHECK-NEXT:      vector.maskedstore %[[BUF]][%[[OFF]]], %[[M]], %[[TV]] : memref<?xf16>, vector<20xi1>, vector<20xf16>
// CHECK-NEXT:      scf.if %[[FULL]] {
// CHECK:             vector.load %[[CT]]
// CHECK:             arith.truncf
// CHECK:             vector.store %{{.*}}, %[[OUT]]
// CHECK:           } else {
// CHECK-NEXT:        scf.for %[[I:.*]] = %[[C0]] to %[[C20]] step %[[C1]] {
// CHECK-NEXT:          vector.load %[[CT]][%[[I]], %[[C0]]]
// CHECK-NEXT:          arith.truncf
// CHECK:               vector.scatter %[[OUT]]
func.func @memory_tiled(%x: !coopvec.vec<1, f16>, %buf: memref<?xf16>, %off: index, %mask: vector<20xi1>, %pad: f16) -> !coopvec.vec<20, f16> {
  %a = "coopvec.load"(%buf, %off) : (memref<?xf16>, index) -> !coopvec.vec<20, f16>
  %e:1 = "coopvec.unpack"(%x) : (!coopvec.vec<1, f16>) -> (f16)
  %c = "coopvec.masked_load"(%buf, %off, %mask, %e#0) : (memref<?xf16>, index, vector<20xi1>, f16) -> !coopvec.vec<20, f16>
  %b = "coopvec.masked_load"(%buf, %off, %mask, %pad) : (memref<?xf16>, index, vector<20xi1>, f16) -> !coopvec.vec<20, f16>
  "coopvec.store"(%a, %buf, %off) : (!coopvec.vec<20, f16>, memref<?xf16>, index) -> ()
  "coopvec.masked_store"(%b, %buf, %off, %mask) : (!coopvec.vec<20, f16>, memref<?xf16>, index, vector<20xi1>) -> ()
  return %c : !coopvec.vec<20, f16>
}

//===----------------------------------------------------------------------===//
// matvec
//===----------------------------------------------------------------------===//

// -----

// matvec without bias, in blocks of row-block = 2 output rows: the input's
// rows are in a tile IN; each block loops over the inputs p with one
// accumulator per row, starting at -0.0 (the additive identity), and fmas
// the broadcast weight W[o, p] (at offset / 4 + o * K + p = 4 + 2o + p) with
// IN[p]. The results go to a tile OUT and are loaded back as lane vectors.
// The last M % 2 rows get one smaller block.
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
// CHECK:           %[[X0:.*]] = vector.load %[[IN]][%[[C0]], %[[C0]]]
// CHECK-NEXT:      %[[X1:.*]] = vector.load %[[IN]][%[[C1]], %[[C0]]]
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
// CHECK-NEXT:          %[[M0:.*]] = arith.mulf %[[W0B]], %[[X]] : vector<4xf32>
// CHECK-NEXT:          %[[Y0:.*]] = arith.addf %[[A0]], %[[M0]] : vector<4xf32>
// CHECK-NEXT:          %[[I1:.*]] = arith.addi %[[START1]], %[[P]] : index
// CHECK-NEXT:          %[[W1:.*]] = memref.load %[[W]][%[[I1]]] : memref<?xf32>
// CHECK-NEXT:          %[[W1B:.*]] = vector.broadcast %[[W1]] : f32 to vector<4xf32>
// CHECK-NEXT:          %[[M1:.*]] = arith.mulf %[[W1B]], %[[X]] : vector<4xf32>
// CHECK-NEXT:          %[[Y1:.*]] = arith.addf %[[A1]], %[[M1]] : vector<4xf32>
// CHECK-NEXT:          scf.yield %[[Y0]], %[[Y1]] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT:        {{^ *}}}
// CHECK-NEXT:        vector.store %[[ACC]]#0, %[[OUT]][%[[O]], %[[C0]]] : memref<3x4xf32>, vector<4xf32>
// CHECK-NEXT:        vector.store %[[ACC]]#1, %[[OUT]][%[[O1]], %[[C0]]] : memref<3x4xf32>, vector<4xf32>
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:      %[[R:.*]] = scf.for %[[P:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[A:.*]] = %[[NEGZERO]]) -> (vector<4xf32>) {
// CHECK-NEXT:        %[[X:.*]] = vector.load %[[IN]][%[[P]], %[[C0]]]
// CHECK-NEXT:        %[[I:.*]] = arith.addi %[[C8]], %[[P]] : index
// CHECK-NEXT:        %[[W2:.*]] = memref.load %[[W]][%[[I]]]
// CHECK-NEXT:        %[[W2B:.*]] = vector.broadcast %[[W2]]
// CHECK-NEXT:        %[[M:.*]] = arith.mulf %[[W2B]], %[[X]]
// CHECK-NEXT:        %[[Y:.*]] = arith.addf %[[A]], %[[M]]
// CHECK-NEXT:        scf.yield %[[Y]]
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:      vector.store %[[R]], %[[OUT]][%[[C2]], %[[C0]]]
// CHECK-NEXT:      vector.load %[[OUT]][%[[C0]], %[[C0]]] : memref<3x4xf32>, vector<4xf32>
// CHECK-NEXT:      vector.load %[[OUT]][%[[C1]], %[[C0]]]
// CHECK-NEXT:      vector.load %[[OUT]][%[[C2]], %[[C0]]]

// With lanes=8 row-block=3: blocks of 3 rows (one full block, no remainder), 8 lanes.
// OPTS-LABEL: func.func @matvec_batched(
// OPTS-DAG:     %[[C3:.*]] = arith.constant 3 : index
// OPTS-DAG:     %[[NEGZERO:.*]] = arith.constant dense<-0.000000e+00> : vector<8xf32>
// OPTS:         scf.for %{{.*}} = %{{.*}} to %[[C3]] step %[[C3]] {
// OPTS:           scf.for %{{.*}} iter_args(%{{.*}} = %[[NEGZERO]], %{{.*}} = %[[NEGZERO]], %{{.*}} = %[[NEGZERO]]) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// OPTS-NOT:     iter_args
// OPTS:         return

// With lanes=1 row-block=64: one block of all 3 rows (fewer than 64): no loop over blocks.
// OPTS-MIN-LABEL: func.func @matvec_batched(
// OPTS-MIN-NOT:     arith.constant 64 : index
// OPTS-MIN:         scf.for %{{.*}} iter_args(%{{.*}}, %{{.*}}, %{{.*}}) -> (vector<1xf32>, vector<1xf32>, vector<1xf32>) {
// OPTS-MIN-NOT:     iter_args
// OPTS-MIN:         return
// With lanes=256 row-block=1: a loop over 3 blocks of one row.
// OPTS-MAX-LABEL: func.func @matvec_batched(
// OPTS-MAX-DAG:     %[[C1:.*]] = arith.constant 1 : index
// OPTS-MAX-DAG:     %[[C3:.*]] = arith.constant 3 : index
// OPTS-MAX-DAG:     %[[C256:.*]] = arith.constant 256 : index
// OPTS-MAX:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C256]] {
// OPTS-MAX:           vector.create_mask %{{.*}} : vector<256xi1>
// OPTS-MAX:           scf.for %{{.*}} = %{{.*}} to %[[C3]] step %[[C1]] {
// OPTS-MAX:             scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<256xf32>) {
// OPTS-MAX-NOT:     iter_args
// OPTS-MAX:         return
func.func @matvec(%x: !coopvec.vec<2, f32>, %w: memref<?xf32>) -> !coopvec.vec<3, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 16} : (memref<?xf32>) -> !coopvec.matrix<3, 2, f32, "row_major">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<3, 2, f32, "row_major">, !coopvec.vec<2, f32>) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

// -----

// transpose with bias on a col_major 3 x 2 matrix: y_j = b_j + sum_i
// A[i, j] x_i with A[i, j] at j * 3 + i, so output o starts at 3 * o and
// input p adds p. The bias rows are staged in a tile and start the
// accumulators.
// CHECK-LABEL: func.func @matvec_bias_transpose_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %[[BIAS:[^:]*]]: memref<?xf32>, %[[W:[^:]*]]: memref<?xf32>, %{{[^:]*}}: memref<?xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[IN:.*]] = memref.alloca() {alignment = 64 : i64} : memref<3x4xf32>
// CHECK-DAG:     %[[BT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<2x4xf32>
// CHECK-DAG:     %[[OUT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<2x4xf32>
// CHECK:         vector.gather %[[BIAS]]
// CHECK:         %[[B0:.*]] = vector.load %[[BT]][%[[C0]], %[[C0]]]
// CHECK-NEXT:    %[[B1:.*]] = vector.load %[[BT]][%[[C1]], %[[C0]]]
// CHECK:         vector.store %{{.*}}, %[[IN]][%[[C2]], %[[C0]]]
// CHECK-NEXT:    vector.store %[[B0]], %[[BT]][%[[C0]], %[[C0]]]
// CHECK-NEXT:    vector.store %[[B1]], %[[BT]][%[[C1]], %[[C0]]]
// CHECK-NEXT:    scf.for %[[O:.*]] = %[[C0]] to %[[C2]] step %[[C2]] {
// CHECK-NEXT:      %[[START0:.*]] = arith.muli %[[O]], %[[C3]] : index
// CHECK-NEXT:      %[[INIT0:.*]] = vector.load %[[BT]][%[[O]], %[[C0]]]
// CHECK-NEXT:      %[[O1:.*]] = arith.addi %[[O]], %[[C1]] : index
// CHECK-NEXT:      %[[START1:.*]] = arith.addi %[[START0]], %[[C3]] : index
// CHECK-NEXT:      %[[INIT1:.*]] = vector.load %[[BT]][%[[O1]], %[[C0]]]
// CHECK-NEXT:      %[[ACC:.*]]:2 = scf.for %[[P:.*]] = %[[C0]] to %[[C3]] step %[[C1]] iter_args(%[[A0:.*]] = %[[INIT0]], %[[A1:.*]] = %[[INIT1]])
// CHECK-NEXT:        %[[X:.*]] = vector.load %[[IN]][%[[P]], %[[C0]]]
// CHECK-NEXT:        %[[I0:.*]] = arith.addi %[[START0]], %[[P]] : index
// CHECK-NEXT:        %[[W0:.*]] = memref.load %[[W]][%[[I0]]]
// CHECK-NEXT:        %[[W0B:.*]] = vector.broadcast %[[W0]]
// CHECK-NEXT:        %[[M0:.*]] = arith.mulf %[[W0B]], %[[X]]
// CHECK-NEXT:        %[[Y0:.*]] = arith.addf %[[A0]], %[[M0]]
// CHECK-NEXT:        %[[I1:.*]] = arith.addi %[[START1]], %[[P]] : index
// CHECK-NEXT:        %[[W1:.*]] = memref.load %[[W]][%[[I1]]]
// CHECK-NEXT:        %[[W1B:.*]] = vector.broadcast %[[W1]]
// CHECK-NEXT:        %[[M1:.*]] = arith.mulf %[[W1B]], %[[X]]
// CHECK-NEXT:        %[[Y1:.*]] = arith.addf %[[A1]], %[[M1]]
// CHECK-NEXT:        scf.yield %[[Y0]], %[[Y1]]
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:      vector.store %[[ACC]]#0, %[[OUT]][%[[O]], %[[C0]]]
// CHECK-NEXT:      vector.store %[[ACC]]#1, %[[OUT]][%[[O1]], %[[C0]]]
// CHECK-NEXT:    {{^ *}}}
// CHECK-NEXT:    vector.load %[[OUT]][%[[C0]], %[[C0]]]
// CHECK-NEXT:    vector.load %[[OUT]][%[[C1]], %[[C0]]]
func.func @matvec_bias_transpose(%x: !coopvec.vec<3, f32>, %b: !coopvec.vec<2, f32>, %w: memref<?xf32>) -> !coopvec.vec<2, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<3, 2, f32, "col_major">
  %y = "coopvec.matvec"(%A, %x, %b) {transpose} : (!coopvec.matrix<3, 2, f32, "col_major">, !coopvec.vec<3, f32>, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

// -----

// col_major without transpose: W[o, p] at offset / 4 + o + 3p = 8 + o + 3p.
// CHECK-LABEL: func.func @matvec_col_major_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %[[W:[^:]*]]: memref<?xf32>, %{{[^:]*}}: memref<?xf32>)
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C10:.*]] = arith.constant 10 : index
// CHECK:         scf.for %[[O:.*]] = %{{.*}} to %[[C2]] step %[[C2]] {
// CHECK-NEXT:      %[[START0:.*]] = arith.addi %[[O]], %[[C8]] : index
// CHECK-NEXT:      arith.addi %[[O]], %[[C1]] : index
// CHECK-NEXT:      %[[START1:.*]] = arith.addi %[[START0]], %[[C1]] : index
// CHECK-NEXT:      scf.for %[[P:.*]] = {{.*}} iter_args
// CHECK-NEXT:        vector.load
// CHECK-NEXT:        %[[COL:.*]] = arith.muli %[[P]], %[[C3]] : index
// CHECK-NEXT:        %[[I0:.*]] = arith.addi %[[START0]], %[[COL]] : index
// CHECK-NEXT:        memref.load %[[W]][%[[I0]]] : memref<?xf32>
// CHECK:             %[[I1:.*]] = arith.addi %[[START1]], %[[COL]] : index
// CHECK-NEXT:        memref.load %[[W]][%[[I1]]] : memref<?xf32>
// CHECK:           {{^ *}}}
// CHECK:         {{^ *}}}
// CHECK-NEXT:    scf.for %[[P:.*]] = {{.*}} iter_args
// CHECK-NEXT:      vector.load
// CHECK-NEXT:      %[[COL:.*]] = arith.muli %[[P]], %[[C3]] : index
// CHECK-NEXT:      %[[I2:.*]] = arith.addi %[[C10]], %[[COL]] : index
// CHECK-NEXT:      memref.load %[[W]][%[[I2]]] : memref<?xf32>
func.func @matvec_col_major(%x: !coopvec.vec<2, f32>, %w: memref<?xf32>) -> !coopvec.vec<3, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 32} : (memref<?xf32>) -> !coopvec.matrix<3, 2, f32, "col_major">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<3, 2, f32, "col_major">, !coopvec.vec<2, f32>) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

// -----

// f16 weights and vecs are stored as f16 and computed in f32: extf after
// the gather, truncf before the scatter. The f16 matrix, which nothing in
// the function writes, is widened once per call into an f32 copy before
// the lane loop (a loop of vector<1xf16> loads for the 1 % 8 elements; no
// iteration without threads), and the p loop reads f32 weights from the
// copy. The inference layout is row-major on the CPU; the offset is in
// bytes (64 bytes = element 32).
// CHECK-LABEL: func.func @matvec_f16_batched(
// CHECK-SAME:      %[[N:[^:]*]]: index, %[[X:[^:]*]]: memref<?xf16>, %[[W:[^:]*]]: memref<?xf16>, %[[OUT:[^:]*]]: memref<?xf16>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xf16>
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK:         %[[COPY:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1xf32>
// CHECK-NEXT:    %[[ANY:.*]] = arith.cmpi sgt, %[[N]], %[[C0]] : index
// CHECK-NEXT:    %[[END:.*]] = arith.select %[[ANY]], %[[C1]], %[[C0]] : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[END]] step %[[C1]] {
// CHECK-NEXT:      %[[WI:.*]] = arith.addi %[[I]], %[[C32]] : index
// CHECK-NEXT:      %[[WH:.*]] = vector.load %[[W]][%[[WI]]] : memref<?xf16>, vector<1xf16>
// CHECK-NEXT:      %[[WF:.*]] = arith.extf %[[WH]] : vector<1xf16> to vector<1xf32>
// CHECK-NEXT:      vector.store %[[WF]], %[[COPY]][%[[I]]] : memref<1xf32>, vector<1xf32>
// CHECK-NEXT:    }
// CHECK:         scf.for %{{.*}} = %[[C0]] to %[[N]] step
// CHECK:           %[[XH:.*]] = vector.gather %[[X]][%{{.*}}] [%{{.*}}], %{{.*}}, %[[ZERO]] : memref<?xf16>, vector<4xi32>, vector<4xi1>, vector<4xf16> into vector<4xf16>
// CHECK-NEXT:      %[[XF:.*]] = arith.extf %[[XH]] : vector<4xf16> to vector<4xf32>
// CHECK-NEXT:      vector.store %[[XF]], %{{.*}} : memref<1x4xf32>, vector<4xf32>
// CHECK:           scf.for %[[P:.*]] = {{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (vector<4xf32>) {
// CHECK-NEXT:        %[[XP:.*]] = vector.load
// CHECK-NEXT:        %[[J:.*]] = arith.addi %[[C0]], %[[P]] : index
// CHECK-NEXT:        %[[WP:.*]] = memref.load %[[COPY]][%[[J]]] : memref<1xf32>
// CHECK-NEXT:        %[[WB:.*]] = vector.broadcast %[[WP]] : f32 to vector<4xf32>
// CHECK-NEXT:        %[[M:.*]] = arith.mulf %[[WB]], %[[XP]] : vector<4xf32>
// CHECK-NEXT:        %[[Y:.*]] = arith.addf %[[A]], %[[M]] : vector<4xf32>
// CHECK-NEXT:        scf.yield %[[Y]]
// CHECK:           scf.if
// CHECK:             vector.store %{{.*}}, %[[OUT]][%{{.*}}] : memref<?xf16>, vector<4xf16>
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.for
// CHECK-NEXT:        %[[R:.*]] = vector.load
// CHECK-NEXT:        %[[RH:.*]] = arith.truncf %[[R]] : vector<4xf32> to vector<4xf16>
// CHECK-NEXT:        arith.addi
// CHECK-NEXT:        vector.scatter %[[OUT]][%{{.*}}] [%{{.*}}], %{{.*}}, %[[RH]] : memref<?xf16>, vector<4xi32>, vector<4xi1>, vector<4xf16>
func.func @matvec_f16(%x: !coopvec.vec<1, f16>, %w: memref<?xf16>) -> !coopvec.vec<1, f16> {
  %A = "coopvec.matrix_view"(%w) {offset = 64} : (memref<?xf16>) -> !coopvec.matrix<1, 1, f16, "inference">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<1, 1, f16, "inference">, !coopvec.vec<1, f16>) -> !coopvec.vec<1, f16>
  return %y : !coopvec.vec<1, f16>
}

// -----

// A buffer the function also writes is not copied (a thread reads what it
// wrote before): each weight is loaded and widened where the p loop uses it.
// CHECK-LABEL: func.func @matvec_f16_written_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf16>, %[[W:[^:]*]]: memref<?xf16>, %{{[^:]*}}: memref<?xf16>)
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-NOT:     memref<1xf32>
// CHECK:         scf.for %[[P:.*]] = {{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (vector<4xf32>) {
// CHECK-NEXT:      %[[XP:.*]] = vector.load
// CHECK-NEXT:      %[[I:.*]] = arith.addi %[[C32]], %[[P]] : index
// CHECK-NEXT:      %[[WH:.*]] = memref.load %[[W]][%[[I]]] : memref<?xf16>
// CHECK-NEXT:      %[[WF:.*]] = arith.extf %[[WH]] : f16 to f32
// CHECK-NEXT:      %[[WB:.*]] = vector.broadcast %[[WF]] : f32 to vector<4xf32>
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[WB]], %[[XP]] : vector<4xf32>
// CHECK-NEXT:      %[[Y:.*]] = arith.addf %[[A]], %[[M]] : vector<4xf32>
// CHECK-NEXT:      scf.yield %[[Y]]
// CHECK:         vector.store %{{.*}}, %[[W]][%{{.*}}] : memref<?xf16>, vector<1xf16>
func.func @matvec_f16_written(%x: !coopvec.vec<1, f16>, %w: memref<?xf16>) -> !coopvec.vec<1, f16> {
  %A = "coopvec.matrix_view"(%w) {offset = 64} : (memref<?xf16>) -> !coopvec.matrix<1, 1, f16, "inference">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<1, 1, f16, "inference">, !coopvec.vec<1, f16>) -> !coopvec.vec<1, f16>
  %c0 = arith.constant 0 : index
  "coopvec.store"(%y, %w, %c0) : (!coopvec.vec<1, f16>, memref<?xf16>, index) -> ()
  return %y : !coopvec.vec<1, f16>
}

// -----

// Views of the same elements share one copy; a 3 x 3 col-major matrix (9
// elements) is widened 8 at a time, then one at a time.
// CHECK-LABEL: func.func @matvec_f16_widened_shared_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf16>, %[[W:[^:]*]]: memref<?xf16>, %{{[^:]*}}: memref<?xf16>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK:         %[[COPY:.*]] = memref.alloca() {alignment = 64 : i64} : memref<48xf32>
// CHECK:         scf.for %[[I:.*]] = %[[C0]] to %{{.*}} step %[[C8]] {
// CHECK-NEXT:      %[[WI:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK-NEXT:      %[[WH:.*]] = vector.load %[[W]][%[[WI]]] : memref<?xf16>, vector<8xf16>
// CHECK-NEXT:      %[[WF:.*]] = arith.extf %[[WH]] : vector<8xf16> to vector<8xf32>
// CHECK-NEXT:      vector.store %[[WF]], %[[COPY]][%[[I]]] : memref<48xf32>, vector<8xf32>
// CHECK-NEXT:    }
// CHECK-NOT:     memref<48xf32>
// CHECK:         %[[COPY9:.*]] = memref.alloca() {alignment = 64 : i64} : memref<9xf32>
// CHECK:         scf.for %[[I:.*]] = %[[C0]] to %{{.*}} step %[[C8]] {
// CHECK-NEXT:      %[[WH:.*]] = vector.load %[[W]][%[[I]]] : memref<?xf16>, vector<8xf16>
// CHECK:         scf.for %[[I:.*]] = %[[C8]] to %{{.*}} step %[[C1]] {
// CHECK-NEXT:      %[[WH:.*]] = vector.load %[[W]][%[[I]]] : memref<?xf16>, vector<1xf16>
// CHECK:         scf.for
// CHECK:           memref.load %[[COPY]]
// CHECK:           memref.load %[[COPY]]
// CHECK:           memref.load %[[COPY9]]
// CHECK-NOT:       memref.load %[[W]]
// CHECK:         return
func.func @matvec_f16_widened_shared(%x: !coopvec.vec<16, f16>, %w: memref<?xf16>) -> !coopvec.vec<3, f16> {
  %A = "coopvec.matrix_view"(%w) {offset = 64} : (memref<?xf16>) -> !coopvec.matrix<3, 16, f16, "row_major">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<3, 16, f16, "row_major">, !coopvec.vec<16, f16>) -> !coopvec.vec<3, f16>
  %B = "coopvec.matrix_view"(%w) {offset = 64} : (memref<?xf16>) -> !coopvec.matrix<3, 16, f16, "row_major">
  %z = "coopvec.matvec"(%B, %x) : (!coopvec.matrix<3, 16, f16, "row_major">, !coopvec.vec<16, f16>) -> !coopvec.vec<3, f16>
  %C = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<3, 3, f16, "col_major">
  %s = "coopvec.add"(%y, %z) : (!coopvec.vec<3, f16>, !coopvec.vec<3, f16>) -> !coopvec.vec<3, f16>
  %u = "coopvec.matvec"(%C, %s) : (!coopvec.matrix<3, 3, f16, "col_major">, !coopvec.vec<3, f16>) -> !coopvec.vec<3, f16>
  return %u : !coopvec.vec<3, f16>
}

// -----

// Tiled matvec: the input is read from its own tile (no staging), the
// result is written to its own tile; the bias tile, dead after the op, is
// the result's tile (each block reads its bias rows before it writes them).
// CHECK-LABEL: func.func @matvec_tiled_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %[[W:[^:]*]]: memref<?xf32>, %[[S:[^:]*]]: f32, %[[OUT:[^:]*]]: memref<?xf32>)
// CHECK-DAG:     %[[SV:.*]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C20:.*]] = arith.constant 20 : index
// CHECK-DAG:     %[[C24:.*]] = arith.constant 24 : index
// CHECK-DAG:     %[[C480:.*]] = arith.constant 480 : index
// CHECK-DAG:     %[[XT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<20x4xf32>
// CHECK-DAG:     %[[HT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<24x4xf32>
// CHECK-DAG:     %[[RT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<24x4xf32>
// CHECK-DAG:     %[[NEGZERO:.*]] = arith.constant dense<-0.000000e+00> : vector<4xf32>
// CHECK:         vector.store %{{.*}}, %[[XT]]
// CHECK:         scf.for %[[O:.*]] = %[[C0]] to %[[C24]] step %[[C2]] {
// CHECK-NEXT:      %[[START0:.*]] = arith.muli %[[O]], %[[C20]] : index
// CHECK:           scf.for %{{.*}} = %[[C0]] to %[[C20]] step %{{.*}} iter_args(%{{.*}} = %[[NEGZERO]], %{{.*}} = %[[NEGZERO]])
// CHECK-NEXT:        vector.load %[[XT]]
// CHECK:           {{^ *}}}
// CHECK-NEXT:      vector.store %{{.*}}, %[[HT]][%[[O]], %[[C0]]]
// CHECK-NEXT:      vector.store %{{.*}}, %[[HT]]
// CHECK-NEXT:    {{^ *}}}
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[C24]]
// CHECK-NEXT:      vector.load %[[HT]][%[[I]], %[[C0]]]
// CHECK-NEXT:      arith.maxnumf %{{.*}}, %[[SV]]
// CHECK-NEXT:      vector.store %{{.*}}, %[[RT]][%[[I]], %[[C0]]]
// CHECK-NEXT:    {{^ *}}}
// CHECK-NEXT:    scf.for %[[O:.*]] = %[[C0]] to %[[C24]] step %[[C2]] {
// CHECK-NEXT:      %[[ROW:.*]] = arith.muli %[[O]], %[[C24]] : index
// CHECK-NEXT:      %[[START0:.*]] = arith.addi %[[ROW]], %[[C480]] : index
// CHECK-NEXT:      %[[INIT0:.*]] = vector.load %[[HT]][%[[O]], %[[C0]]]
// CHECK:           %[[INIT1:.*]] = vector.load %[[HT]]
// CHECK-NEXT:      scf.for %{{.*}} = %[[C0]] to %[[C24]] step %{{.*}} iter_args(%{{.*}} = %[[INIT0]], %{{.*}} = %[[INIT1]])
// CHECK-NEXT:        vector.load %[[RT]]
// CHECK:           {{^ *}}}
// CHECK-NEXT:      vector.store %{{.*}}, %[[HT]][%[[O]], %[[C0]]]
// CHECK-NEXT:      vector.store %{{.*}}, %[[HT]]
// CHECK-NEXT:    {{^ *}}}
// CHECK-NEXT:    scf.if
// CHECK:           vector.load %[[HT]]
// CHECK:           vector.store %{{.*}}, %[[OUT]]
// CHECK:         } else {
// CHECK-NEXT:      scf.for %[[I:.*]] = %[[C0]] to %[[C24]]
// CHECK-NEXT:        vector.load %[[HT]][%[[I]], %[[C0]]]
// CHECK:             vector.scatter %[[OUT]]
func.func @matvec_tiled(%x: !coopvec.vec<20, f32>, %w: memref<?xf32>, %s: f32) -> !coopvec.vec<24, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<24, 20, f32, "row_major">
  %B = "coopvec.matrix_view"(%w) {offset = 1920} : (memref<?xf32>) -> !coopvec.matrix<24, 24, f32, "row_major">
  %h = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<24, 20, f32, "row_major">, !coopvec.vec<20, f32>) -> !coopvec.vec<24, f32>
  %r = "coopvec.max"(%h, %s) : (!coopvec.vec<24, f32>, f32) -> !coopvec.vec<24, f32>
  %y = "coopvec.matvec"(%B, %r, %h) : (!coopvec.matrix<24, 24, f32, "row_major">, !coopvec.vec<24, f32>, !coopvec.vec<24, f32>) -> !coopvec.vec<24, f32>
  return %y : !coopvec.vec<24, f32>
}

// -----

// An MLP layer, relu(W x + b) with b loaded from the weight buffer: the
// load emits nothing (no tile of broadcast biases per group): each block
// starts its accumulators at the bias read from memory and broadcast, and
// the max right after the matvec is applied to the sums before they are
// stored (no element loop over the result).
// CHECK-LABEL: func.func @matvec_fused_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %[[W:[^:]*]]: memref<?xf32>, %[[ZERO:[^:]*]]: f32, %[[OUT:[^:]*]]: memref<?xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C24:.*]] = arith.constant 24 : index
// CHECK-DAG:     %[[XT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<20x4xf32>
// CHECK-DAG:     %[[YT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<24x4xf32>
// CHECK-DAG:     %[[ZV:.*]] = vector.broadcast %[[ZERO]] : f32 to vector<4xf32>
// CHECK:         scf.for
// CHECK:           %[[C480:.*]] = arith.constant 480 : index
// CHECK-NOT:       vector.load %[[W]]
// CHECK-NOT:       scf.for
// CHECK:           scf.for %[[O:.*]] = %[[C0]] to %[[C24]] step %[[C2]] {
// CHECK-NEXT:        %[[START0:.*]] = arith.muli %[[O]], %{{.*}} : index
// CHECK-NEXT:        %[[B0I:.*]] = arith.addi %[[C480]], %[[O]] : index
// CHECK-NEXT:        %[[B0:.*]] = memref.load %[[W]][%[[B0I]]] : memref<?xf32>
// CHECK-NEXT:        %[[INIT0:.*]] = vector.broadcast %[[B0]] : f32 to vector<4xf32>
// CHECK-NEXT:        %[[O1:.*]] = arith.addi %[[O]], %[[C1]] : index
// CHECK-NEXT:        arith.addi %[[START0]], %{{.*}} : index
// CHECK-NEXT:        %[[B1I:.*]] = arith.addi %[[C480]], %[[O1]] : index
// CHECK-NEXT:        %[[B1:.*]] = memref.load %[[W]][%[[B1I]]] : memref<?xf32>
// CHECK-NEXT:        %[[INIT1:.*]] = vector.broadcast %[[B1]] : f32 to vector<4xf32>
// CHECK-NEXT:        %[[ACC:.*]]:2 = scf.for %{{.*}} iter_args(%{{.*}} = %[[INIT0]], %{{.*}} = %[[INIT1]])
// CHECK-NEXT:          vector.load %[[XT]]
// CHECK:           {{^ *}}}
// CHECK-NEXT:        %[[R0:.*]] = arith.maxnumf %[[ACC]]#0, %[[ZV]] : vector<4xf32>
// CHECK-NEXT:        vector.store %[[R0]], %[[YT]][%[[O]], %[[C0]]]
// CHECK-NEXT:        %[[R1:.*]] = arith.maxnumf %[[ACC]]#1, %[[ZV]] : vector<4xf32>
// CHECK-NEXT:        vector.store %[[R1]], %[[YT]][%[[O1]], %[[C0]]]
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:      scf.if
// CHECK:             vector.load %[[YT]]
// CHECK:             vector.store %{{.*}}, %[[OUT]]
// CHECK-NOT:     arith.maxnumf
// CHECK:         return
func.func @matvec_fused(%x: !coopvec.vec<20, f32>, %w: memref<?xf32>, %zero: f32) -> !coopvec.vec<24, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<24, 20, f32, "row_major">
  %c480 = arith.constant 480 : index
  %b = "coopvec.load"(%w, %c480) : (memref<?xf32>, index) -> !coopvec.vec<24, f32>
  %y = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<24, 20, f32, "row_major">, !coopvec.vec<20, f32>, !coopvec.vec<24, f32>) -> !coopvec.vec<24, f32>
  %r = "coopvec.max"(%y, %zero) : (!coopvec.vec<24, f32>, f32) -> !coopvec.vec<24, f32>
  return %r : !coopvec.vec<24, f32>
}

// -----

// The same in SSA form with f16 data and a min: the f16 bias is widened
// after its load, the f16 scalar once before the blocks; both blocks apply
// the min before storing.
// CHECK-LABEL: func.func @matvec_fused_ssa_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf16>, %[[W:[^:]*]]: memref<?xf16>, %[[ONE:[^:]*]]: f16, %{{[^:]*}}: memref<?xf16>)
// CHECK-NEXT:    %[[ONEF:.*]] = arith.extf %[[ONE]] : f16 to f32
// CHECK-NEXT:    %[[ONEV:.*]] = vector.broadcast %[[ONEF]] : f32 to vector<4xf32>
// CHECK-NOT:       vector.load %[[W]]{{.*}}vector<3xf16>
// CHECK:           vector.create_mask
// CHECK:           arith.constant 6 : index
// CHECK-NEXT:      vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<2x4xf32>
// CHECK-NEXT:      vector.store
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        arith.muli
// CHECK-NEXT:        %[[BI:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:        %[[BH:.*]] = memref.load %[[W]][%[[BI]]] : memref<?xf16>
// CHECK-NEXT:        %[[BF:.*]] = arith.extf %[[BH]] : f16 to f32
// CHECK-NEXT:        vector.broadcast %[[BF]] : f32 to vector<4xf32>
// CHECK:             arith.minnumf %{{.*}}, %[[ONEV]] : vector<4xf32>
// CHECK:             arith.minnumf %{{.*}}, %[[ONEV]] : vector<4xf32>
// CHECK:           scf.for
// CHECK:           arith.minnumf %{{.*}}, %[[ONEV]] : vector<4xf32>
// CHECK-NOT:       arith.minnumf
// CHECK:         return
func.func @matvec_fused_ssa(%x: !coopvec.vec<2, f16>, %w: memref<?xf16>, %one: f16) -> !coopvec.vec<3, f16> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<3, 2, f16, "row_major">
  %c6 = arith.constant 6 : index
  %b = "coopvec.load"(%w, %c6) : (memref<?xf16>, index) -> !coopvec.vec<3, f16>
  %y = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<3, 2, f16, "row_major">, !coopvec.vec<2, f16>, !coopvec.vec<3, f16>) -> !coopvec.vec<3, f16>
  %r = "coopvec.min"(%y, %one) : (!coopvec.vec<3, f16>, f16) -> !coopvec.vec<3, f16>
  return %r : !coopvec.vec<3, f16>
}

// -----

// Neither is fused when the values are used elsewhere: the matvec's result
// (by the add) keeps its pre-activation sums, the loaded bias (by the add
// too) is loaded and broadcast as any load, and the max is an op of its
// own.
// CHECK-LABEL: func.func @matvec_not_fused_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %[[W:[^:]*]]: memref<?xf32>, %[[ZERO:[^:]*]]: f32, %{{[^:]*}}: memref<?xf32>, %{{[^:]*}}: memref<?xf32>)
// CHECK-NEXT:      %[[ZV:.*]] = vector.broadcast %[[ZERO]] : f32 to vector<4xf32>
// CHECK:           %[[L:.*]] = vector.load %[[W]][%{{.*}}] : memref<?xf32>, vector<3xf32>
// CHECK-NOT:       arith.maxnumf
// CHECK:           %[[ACC:.*]]:2 = scf.for
// CHECK-NOT:       arith.maxnumf
// CHECK:           %[[R:.*]] = scf.for
// CHECK-NOT:       arith.maxnumf
// CHECK:           vector.store %[[R]], %[[YT:.*]][%{{.*}}, %{{.*}}] : memref<3x4xf32>, vector<4xf32>
// CHECK-NEXT:      %[[Y0:.*]] = vector.load %[[YT]][%{{.*}}, %{{.*}}] : memref<3x4xf32>, vector<4xf32>
// CHECK-NEXT:      vector.load %[[YT]]
// CHECK-NEXT:      vector.load %[[YT]]
// CHECK-NEXT:      arith.maxnumf %[[Y0]], %[[ZV]] : vector<4xf32>
// CHECK-NEXT:      arith.maxnumf
// CHECK-NEXT:      arith.maxnumf
// CHECK-NEXT:      arith.addf %[[Y0]], %{{.*}} : vector<4xf32>
func.func @matvec_not_fused(%x: !coopvec.vec<2, f32>, %w: memref<?xf32>, %zero: f32) -> (!coopvec.vec<3, f32>, !coopvec.vec<3, f32>) {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<3, 2, f32, "row_major">
  %c6 = arith.constant 6 : index
  %b = "coopvec.load"(%w, %c6) : (memref<?xf32>, index) -> !coopvec.vec<3, f32>
  %y = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<3, 2, f32, "row_major">, !coopvec.vec<2, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  %r = "coopvec.max"(%y, %zero) : (!coopvec.vec<3, f32>, f32) -> !coopvec.vec<3, f32>
  %s = "coopvec.add"(%y, %b) : (!coopvec.vec<3, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  return %r, %s : !coopvec.vec<3, f32>, !coopvec.vec<3, f32>
}

// -----

// f16 weights that are not copied once per call (here: the function also
// writes their buffer) but are contiguous along the inputs (row-major, K =
// 16, a multiple of 8) are widened per block into an f32 stage
// memref<2 x 16 x f32> (one vector<8xf16> load and extf per 8 weights),
// from which the p loop reads f32 weights; the f16 input is read in 4 x 4
// sub-blocks of f16 rows.
// CHECK-LABEL: func.func @matvec_f16_staged_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %[[X:[^:]*]]: memref<?xf16>, %[[W:[^:]*]]: memref<?xf16>, %{{[^:]*}}: memref<?xf16>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[STAGE:.*]] = memref.alloca() {alignment = 64 : i64} : memref<2x16xf32>
// CHECK:         scf.if
// CHECK:           %[[XH:.*]] = vector.load %[[X]][%{{.*}}] : memref<?xf16>, vector<4xf16>
// CHECK-NEXT:      arith.extf %[[XH]] : vector<4xf16> to vector<4xf32>
// CHECK:         scf.for %[[O:.*]] = %[[C0]] to
// CHECK:           scf.for %[[P:.*]] = %[[C0]] to %[[C16]] step %[[C8]] {
// CHECK-NEXT:        %[[I0:.*]] = arith.addi %{{.*}}, %[[P]] : index
// CHECK-NEXT:        %[[H0:.*]] = vector.load %[[W]][%[[I0]]] : memref<?xf16>, vector<8xf16>
// CHECK-NEXT:        %[[F0:.*]] = arith.extf %[[H0]] : vector<8xf16> to vector<8xf32>
// CHECK-NEXT:        vector.store %[[F0]], %[[STAGE]][%[[C0]], %[[P]]] : memref<2x16xf32>, vector<8xf32>
// CHECK-NEXT:        %[[I1:.*]] = arith.addi %{{.*}}, %[[P]] : index
// CHECK-NEXT:        %[[H1:.*]] = vector.load %[[W]][%[[I1]]] : memref<?xf16>, vector<8xf16>
// CHECK-NEXT:        %[[F1:.*]] = arith.extf %[[H1]] : vector<8xf16> to vector<8xf32>
// CHECK-NEXT:        vector.store %[[F1]], %[[STAGE]][%[[C1]], %[[P]]] : memref<2x16xf32>, vector<8xf32>
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:      scf.for %[[P:.*]] = %[[C0]] to %[[C16]] step %[[C1]] iter_args
// CHECK-NEXT:        vector.load
// CHECK-NEXT:        %[[S0:.*]] = memref.load %[[STAGE]][%[[C0]], %[[P]]] : memref<2x16xf32>
// CHECK-NEXT:        vector.broadcast %[[S0]] : f32 to vector<4xf32>
// CHECK-NEXT:        arith.mulf
// CHECK-NEXT:        arith.addf
// CHECK-NEXT:        %[[S1:.*]] = memref.load %[[STAGE]][%[[C1]], %[[P]]] : memref<2x16xf32>
// CHECK-NOT:     memref.load %[[W]]
// CHECK:         return
func.func @matvec_f16_staged(%x: !coopvec.vec<16, f16>, %w: memref<?xf16>) -> !coopvec.vec<3, f16> {
  %A = "coopvec.matrix_view"(%w) {offset = 64} : (memref<?xf16>) -> !coopvec.matrix<3, 16, f16, "row_major">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<3, 16, f16, "row_major">, !coopvec.vec<16, f16>) -> !coopvec.vec<3, f16>
  %c0 = arith.constant 0 : index
  "coopvec.store"(%y, %w, %c0) : (!coopvec.vec<3, f16>, memref<?xf16>, index) -> ()
  return %y : !coopvec.vec<3, f16>
}

//===----------------------------------------------------------------------===//
// Training ops
//===----------------------------------------------------------------------===//

// -----

// grad[i, j] += sum over valid threads of a_i * b_j as the GEMM
// T += A * B^T over each group's lanes: the invalid lanes of a and b are
// zeroed (they may hold inf or NaN) into tiles A (3 x 4) and B (5 x 4,
// padded to 8 rows, the 3 past K zeroed once before the lane loop); B is
// transposed by 4 x 4 shuffle blocks into BT (4 x 8); the micro-kernel
// loops over T's lane vectors of columns (0 and 4), a block of 2 rows and
// one of the last row, each with its accumulators (loaded from T) over the
// 4 lanes: bt = BT[l, j0], broadcast A[i, l], multiply-add (x86-64 has no
// FMA), stored back to T. T (3 x 8, f32) is zeroed before the lane loop;
// after it, its 3 x 5 elements are added to the buffer with one atomic
// each (A[i, j] at offset / 4 + 5 i + j).
// CHECK-LABEL: func.func @outer_product_batched(
// CHECK-SAME:      %[[N:[^:]*]]: index, %{{[^:]*}}: memref<?xf32>, %{{[^:]*}}: memref<?xf32>, %[[G:[^:]*]]: memref<?xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG:     %[[T:.*]] = memref.alloca() {alignment = 64 : i64} : memref<3x8xf32>
// CHECK-DAG:     %[[B:.*]] = memref.alloca() {alignment = 64 : i64} : memref<8x4xf32>
// CHECK-DAG:     %[[BT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<4x8xf32>
// CHECK:         %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    scf.for %[[J:.*]] = %[[C5]] to %[[C8]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[L:.*]] = %[[C0]] to %[[C4]] step %[[C4]] {
// CHECK-NEXT:        vector.store %[[ZERO:.*]], %[[B]][%[[J]], %[[L]]] : memref<8x4xf32>, vector<4xf32>
// CHECK:         scf.for %[[I:.*]] = %[[C0]] to %[[C3]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[C0]] to %[[C8]] step %[[C4]] {
// CHECK-NEXT:        vector.store %[[ZERO]], %[[T]][%[[I]], %[[J]]] : memref<3x8xf32>, vector<4xf32>
// CHECK:         scf.for %{{.*}} = %[[C0]] to %[[N]] step %[[C4]] {
// CHECK:           %[[MASK:.*]] = vector.create_mask
// CHECK:             %[[AM:.*]] = arith.select %[[MASK]], %{{.*}}, %[[ZERO]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:        vector.store %[[AM]], %[[A:.*]][%{{.*}}, %[[C0]]] : memref<3x4xf32>
// CHECK-NEXT:      {{^ *}}}
// CHECK:             %[[BM:.*]] = arith.select %[[MASK]], %{{.*}}, %[[ZERO]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:        vector.store %[[BM]], %[[B]][%{{.*}}, %[[C0]]] : memref<8x4xf32>
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:      scf.for %[[J0:.*]] = %[[C0]] to %[[C8]] step %[[C4]] {
// CHECK-NEXT:        scf.for %[[L0:.*]] = %[[C0]] to %[[C4]] step %[[C4]] {
// CHECK-NEXT:          %[[R0:.*]] = vector.load %[[B]][%[[J0]], %[[L0]]] : memref<8x4xf32>, vector<4xf32>
// CHECK-COUNT-3:       vector.load %[[B]]
// CHECK-COUNT-8:       vector.shuffle
// CHECK-NEXT:          vector.store %{{.*}}, %[[BT]][%[[L0]], %[[J0]]] : memref<4x8xf32>, vector<4xf32>
// CHECK-COUNT-3:       vector.store %{{.*}}, %[[BT]]
// CHECK-NEXT:        {{^ *}}}
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:      scf.for %[[J0:.*]] = %[[C0]] to %[[C8]] step %[[C4]] {
// CHECK-NEXT:        scf.for %[[I0:.*]] = %[[C0]] to %[[C2]] step %[[C2]] {
// CHECK-NEXT:          %[[T0:.*]] = vector.load %[[T]][%[[I0]], %[[J0]]] : memref<3x8xf32>, vector<4xf32>
// CHECK-NEXT:          %[[I1:.*]] = arith.addi %[[I0]], %[[C1]] : index
// CHECK-NEXT:          %[[T1:.*]] = vector.load %[[T]][%[[I1]], %[[J0]]] : memref<3x8xf32>, vector<4xf32>
// CHECK-NEXT:          %[[S:.*]]:2 = scf.for %[[L:.*]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[ACC0:.*]] = %[[T0]], %[[ACC1:.*]] = %[[T1]]) -> (vector<4xf32>, vector<4xf32>) {
// CHECK-NEXT:            %[[X:.*]] = vector.load %[[BT]][%[[L]], %[[J0]]] : memref<4x8xf32>, vector<4xf32>
// CHECK-NEXT:            %[[W0:.*]] = memref.load %[[A]][%[[I0]], %[[L]]] : memref<3x4xf32>
// CHECK-NEXT:            %[[B0:.*]] = vector.broadcast %[[W0]] : f32 to vector<4xf32>
// CHECK-NEXT:            %[[P0:.*]] = arith.mulf %[[B0]], %[[X]] : vector<4xf32>
// CHECK-NEXT:            %[[N0:.*]] = arith.addf %[[ACC0]], %[[P0]] : vector<4xf32>
// CHECK-NEXT:            %[[W1:.*]] = memref.load %[[A]][%[[I1]], %[[L]]] : memref<3x4xf32>
// CHECK-NEXT:            %[[B1:.*]] = vector.broadcast %[[W1]] : f32 to vector<4xf32>
// CHECK-NEXT:            %[[P1:.*]] = arith.mulf %[[B1]], %[[X]] : vector<4xf32>
// CHECK-NEXT:            %[[N1:.*]] = arith.addf %[[ACC1]], %[[P1]] : vector<4xf32>
// CHECK-NEXT:            scf.yield %[[N0]], %[[N1]] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT:          {{^ *}}}
// CHECK-NEXT:          vector.store %[[S]]#0, %[[T]][%[[I0]], %[[J0]]] : memref<3x8xf32>, vector<4xf32>
// CHECK-NEXT:          vector.store %[[S]]#1, %[[T]][%[[I1]], %[[J0]]] : memref<3x8xf32>, vector<4xf32>
// CHECK-NEXT:        {{^ *}}}
// CHECK-NEXT:        %[[T2:.*]] = vector.load %[[T]][%[[C2]], %[[J0]]] : memref<3x8xf32>, vector<4xf32>
// CHECK-NEXT:        %[[S2:.*]] = scf.for %[[L:.*]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[T2]]) -> (vector<4xf32>) {
// CHECK-NEXT:          %[[X:.*]] = vector.load %[[BT]][%[[L]], %[[J0]]]
// CHECK-NEXT:          %[[W:.*]] = memref.load %[[A]][%[[C2]], %[[L]]]
// CHECK:                 scf.yield
// CHECK-NEXT:        {{^ *}}}
// CHECK-NEXT:        vector.store %[[S2]], %[[T]][%[[C2]], %[[J0]]] : memref<3x8xf32>, vector<4xf32>
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:    {{^ *}}}
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[C3]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[C0]] to %[[C5]] step %[[C1]] {
// CHECK-NEXT:        %[[V:.*]] = memref.load %[[T]][%[[I]], %[[J]]] : memref<3x8xf32>
// CHECK-NEXT:        %[[RO:.*]] = arith.muli %[[I]], %[[C5]] : index
// CHECK-NEXT:        %[[CO:.*]] = arith.muli %[[J]], %[[C1]] : index
// CHECK-NEXT:        %[[OFF:.*]] = arith.addi %[[RO]], %[[CO]] : index
// CHECK-NEXT:        %[[IDX:.*]] = arith.addi %[[C4]], %[[OFF]] : index
// CHECK-NEXT:        memref.atomic_rmw addf %[[V]], %[[G]][%[[IDX]]] : (f32, memref<?xf32>) -> f32
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:    {{^ *}}}
// CHECK-NEXT:    return
// AVX2-LABEL: func.func @outer_product_batched(
// AVX2:         scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// AVX2:           math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<16xf32>
// OPTS-ODD-LABEL: func.func @outer_product_batched(
// OPTS-ODD-DAG:     memref.alloca() {alignment = 64 : i64} : memref<3x6xf32>
// OPTS-ODD-DAG:     memref.alloca() {alignment = 64 : i64} : memref<6x3xf32>
// OPTS-ODD-DAG:     memref.alloca() {alignment = 64 : i64} : memref<3x6xf32>
// OPTS-ODD-NOT:     vector.shuffle
// OPTS-ODD:         %[[V:.*]] = memref.load %[[BS:.*]][%[[J:.*]], %[[L:.*]]] : memref<6x3xf32>
// OPTS-ODD-NEXT:    memref.store %[[V]], %{{.*}}[%[[L]], %[[J]]] : memref<3x6xf32>
// OPTS-ODD:         scf.for {{.*}} -> (vector<3xf32>, vector<3xf32>, vector<3xf32>) {
func.func @outer_product(%a: !coopvec.vec<3, f32>, %b: !coopvec.vec<5, f32>, %g: memref<?xf32>) {
  %G = "coopvec.matrix_view"(%g) {offset = 16} : (memref<?xf32>) -> !coopvec.matrix<3, 5, f32, "row_major">
  "coopvec.outer_product_accumulate"(%a, %b, %G) : (!coopvec.vec<3, f32>, !coopvec.vec<5, f32>, !coopvec.matrix<3, 5, f32, "row_major">) -> ()
  return
}

// -----

// grad[offset + i] += sum over valid threads of v_i. The buffer is an
// argument and so is the offset: the sums are kept per call in lane
// vectors S (zeroed before the lane loop; each group adds its masked rows)
// and, after the lane loop, reduced over the lanes, rounded to f16 once and
// added with one atomic per element.
// CHECK-LABEL: func.func @reduce_sum_batched(
// CHECK-SAME:      %[[N:[^:]*]]: index, %{{[^:]*}}: memref<?xf16>, %[[G:[^:]*]]: memref<?xf16>, %[[OFF:[^:]*]]: index)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         scf.for %[[I:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[L:.*]] = %[[C0]] to %[[C4]] step %[[C4]] {
// CHECK-NEXT:        vector.store %[[ZERO:.*]], %[[S:.*]][%[[I]], %[[L]]] : memref<2x4xf32>, vector<4xf32>
// CHECK:         scf.for %{{.*}} = %[[C0]] to %[[N]] step %[[C4]] {
// CHECK:           %[[MASK:.*]] = vector.create_mask
// CHECK:             %[[M:.*]] = arith.select %[[MASK]], %{{.*}}, %[[ZERO]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:        %[[OLD:.*]] = vector.load %[[S]][%[[I:.*]], %[[C0]]]
// CHECK-NEXT:        %[[NEW:.*]] = arith.addf %[[OLD]], %[[M]] : vector<4xf32>
// CHECK-NEXT:        vector.store %[[NEW]], %[[S]][%[[I]], %[[C0]]]
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:    {{^ *}}}
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT:      %[[V:.*]] = vector.load %[[S]][%[[I]], %[[C0]]]
// CHECK-NEXT:      %[[SUM:.*]] = vector.reduction <add>, %[[V]] fastmath<reassoc> : vector<4xf32> into f32
// CHECK-NEXT:      %[[IDX:.*]] = arith.addi %[[OFF]], %[[I]] : index
// CHECK-NEXT:      %[[H:.*]] = arith.truncf %[[SUM]] : f32 to f16
// CHECK-NEXT:      memref.atomic_rmw addf %[[H]], %[[G]][%[[IDX]]] : (f16, memref<?xf16>) -> f16
// CHECK-NEXT:    {{^ *}}}
// CHECK-NEXT:    return
func.func @reduce_sum(%v: !coopvec.vec<2, f16>, %g: memref<?xf16>, %off: index) {
  "coopvec.reduce_sum_accumulate"(%v, %g, %off) : (!coopvec.vec<2, f16>, memref<?xf16>, index) -> ()
  return
}

// -----

// An offset computed in the function (in the lane loop, once per group) is
// not known after the lane loop: an element loop of masked lane reductions
// and one atomic add per element and group.
// CHECK-LABEL: func.func @reduce_sum_group_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %[[G:[^:]*]]: memref<?xf32>, %[[OFF:[^:]*]]: index)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK:         %[[MASK:.*]] = vector.create_mask
// CHECK:         %[[O:.*]] = arith.addi %[[OFF]], %{{.*}} : index
// CHECK:         scf.for %[[I:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT:      %[[V:.*]] = vector.load %[[VT:.*]][%[[I]], %[[C0]]]
// CHECK-NEXT:      %[[M:.*]] = arith.select %[[MASK]], %[[V]], %{{.*}} : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:      %[[S:.*]] = vector.reduction <add>, %[[M]] fastmath<reassoc> : vector<4xf32> into f32
// CHECK-NEXT:      %[[IDX:.*]] = arith.addi %[[O]], %[[I]] : index
// CHECK-NEXT:      memref.atomic_rmw addf %[[S]], %[[G]][%[[IDX]]] : (f32, memref<?xf32>) -> f32
// CHECK-NEXT:    {{^ *}}}
// CHECK-NEXT:  {{^ *}}}
// CHECK-NEXT:  return
func.func @reduce_sum_group(%v: !coopvec.vec<2, f32>, %g: memref<?xf32>, %off: index) {
  %c2 = arith.constant 2 : index
  %o = arith.addi %off, %c2 : index
  "coopvec.reduce_sum_accumulate"(%v, %g, %o) : (!coopvec.vec<2, f32>, memref<?xf32>, index) -> ()
  return
}

// -----

// A gradient buffer computed inside the function is only known inside the
// lane loop: the tile T is zeroed, accumulated and added once per group
// (nothing stores to T before the lane loop).
// CHECK-LABEL: func.func @outer_product_local_batched(
// CHECK-NOT:     memref<1x4xf32>, vector<4xf32>
// CHECK:         scf.for
// CHECK:           %[[BUF:.*]] = memref.cast
// CHECK:           vector.store %{{.*}}, %[[T:.*]][%{{.*}}, %{{.*}}] : memref<1x4xf32>, vector<4xf32>
// CHECK:           scf.for {{.*}} -> (vector<4xf32>) {
// CHECK:           memref.load %[[T]]
// CHECK:           memref.atomic_rmw addf %{{.*}}, %[[BUF]][%{{.*}}] : (f32, memref<?xf32>) -> f32
// CHECK-NEXT:    {{^ *}}}
// CHECK-NEXT:  {{^ *}}}
// CHECK-NEXT:  {{^ *}}}
// CHECK-NEXT:  return
func.func @outer_product_local(%a: !coopvec.vec<1, f32>, %g: memref<4xf32>) {
  %d = memref.cast %g : memref<4xf32> to memref<?xf32>
  %G = "coopvec.matrix_view"(%d) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<1, 1, f32, "row_major">
  "coopvec.outer_product_accumulate"(%a, %a, %G) : (!coopvec.vec<1, f32>, !coopvec.vec<1, f32>, !coopvec.matrix<1, 1, f32, "row_major">) -> ()
  return
}

// -----

// Tiled training ops on an f16 col_major gradient: the micro-kernel reads
// a's own tile when every lane is active, else a masked copy (a is still
// used afterwards, so never masked in place); b is copied masked into B (4
// rows: K = 3 padded to a lane vector), transposed; the micro-kernel runs
// over 10 blocks of 2 of the 20 rows of T (20 x 4). reduce_sum's offset is
// an argument: its sums S are kept per call too. After the lane loop T's
// 20 x 3 elements are rounded to f16 and added at offset / 2 + i + 20 j,
// then S's reductions at %off + i.
// CHECK-LABEL: func.func @training_tiled_batched(
// CHECK-SAME:      %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf16>, %{{[^:]*}}: memref<?xf16>, %[[G:[^:]*]]: memref<?xf16>, %[[OFF:[^:]*]]: index)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C20:.*]] = arith.constant 20 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK:         scf.for
// CHECK:           %[[MASK:.*]] = vector.create_mask
// CHECK:           %[[ALL:.*]] = vector.reduction <and>, %[[MASK]] : vector<4xi1> into i1
// CHECK-NEXT:      %[[A:.*]] = scf.if %[[ALL]] -> (memref<?x4xf32>) {
// CHECK-NEXT:        %[[OWN:.*]] = memref.cast %[[AT:.*]] : memref<20x4xf32> to memref<?x4xf32>
// CHECK-NEXT:        scf.yield %[[OWN]] : memref<?x4xf32>
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.for
// CHECK-NEXT:          vector.load %[[AT]]
// CHECK-NEXT:          %[[AM:.*]] = arith.select %[[MASK]], %{{.*}}, %{{.*}}
// CHECK-NEXT:          vector.store %[[AM]], %[[ACOPY:.*]][%{{.*}}, %[[C0]]] : memref<20x4xf32>
// CHECK:             %[[COPY:.*]] = memref.cast %[[ACOPY]] : memref<20x4xf32> to memref<?x4xf32>
// CHECK-NEXT:        scf.yield %[[COPY]] : memref<?x4xf32>
// CHECK:               %[[BM:.*]] = arith.select %[[MASK]], %{{.*}}, %{{.*}}
// CHECK-NEXT:        vector.store %[[BM]], %[[B:.*]][%{{.*}}, %[[C0]]] : memref<4x4xf32>
// CHECK-COUNT-4:       vector.load %[[B]]
// CHECK-COUNT-8:       vector.shuffle
// CHECK:             scf.for %[[I0:.*]] = %[[C0]] to %[[C20]] step %[[C2]] {
// CHECK:               scf.for {{.*}} -> (vector<4xf32>, vector<4xf32>) {
// CHECK:                 memref.load %[[A]][%[[I0]], %{{.*}}] : memref<?x4xf32>
// CHECK:             %[[V:.*]] = vector.load %[[AT]][%[[I:.*]], %[[C0]]] : memref<20x4xf32>
// CHECK-NEXT:        %[[M:.*]] = arith.select %[[MASK]], %[[V]], %{{.*}}
// CHECK-NEXT:        %[[OLD:.*]] = vector.load %[[S:.*]][%[[I]], %[[C0]]]
// CHECK-NEXT:        %[[NEW:.*]] = arith.addf %[[OLD]], %[[M]] : vector<4xf32>
// CHECK-NEXT:        vector.store %[[NEW]], %[[S]][%[[I]], %[[C0]]]
// CHECK-NEXT:      } {llvm.loop_annotation
// CHECK-NEXT:    {{^ *}}}
// CHECK-NEXT:    scf.for %[[I:.*]] =
// CHECK-NEXT:      scf.for %[[J:.*]] =
// CHECK-NEXT:        %[[V:.*]] = memref.load %[[T:.*]][%[[I]], %[[J]]] : memref<20x4xf32>
// CHECK-NEXT:        %[[H:.*]] = arith.truncf %[[V]] : f32 to f16
// CHECK-NEXT:        %[[RO:.*]] = arith.muli %[[I]], %[[C1]] : index
// CHECK-NEXT:        %[[CO:.*]] = arith.muli %[[J]], %[[C20]] : index
// CHECK-NEXT:        %[[O:.*]] = arith.addi %[[RO]], %[[CO]] : index
// CHECK-NEXT:        %[[IDX:.*]] = arith.addi %[[C64]], %[[O]] : index
// CHECK-NEXT:        memref.atomic_rmw addf %[[H]], %[[G]][%[[IDX]]] : (f16, memref<?xf16>) -> f16
// CHECK-NEXT:      {{^ *}}}
// CHECK-NEXT:    {{^ *}}}
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[C20]] step %[[C1]] {
// CHECK-NEXT:      %[[V:.*]] = vector.load %[[S]][%[[I]], %[[C0]]]
// CHECK-NEXT:      %[[SUM:.*]] = vector.reduction <add>, %[[V]]
// CHECK-NEXT:      %[[IDX:.*]] = arith.addi %[[OFF]], %[[I]] : index
// CHECK-NEXT:      %[[H:.*]] = arith.truncf %[[SUM]] : f32 to f16
// CHECK-NEXT:      memref.atomic_rmw addf %[[H]], %[[G]][%[[IDX]]] : (f16, memref<?xf16>) -> f16
func.func @training_tiled(%a: !coopvec.vec<20, f16>, %b: !coopvec.vec<3, f16>, %g: memref<?xf16>, %off: index) {
  %G = "coopvec.matrix_view"(%g) {offset = 128} : (memref<?xf16>) -> !coopvec.matrix<20, 3, f16, "col_major">
  "coopvec.outer_product_accumulate"(%a, %b, %G) : (!coopvec.vec<20, f16>, !coopvec.vec<3, f16>, !coopvec.matrix<20, 3, f16, "col_major">) -> ()
  "coopvec.reduce_sum_accumulate"(%a, %g, %off) : (!coopvec.vec<20, f16>, memref<?xf16>, index) -> ()
  return
}

//===----------------------------------------------------------------------===//
// Targets
//===----------------------------------------------------------------------===//

// -----

// x86-64 (SSE, 16 xmm registers): 8 lanes (two xmm), 12 accumulators (6
// rows: three blocks for the 20 outputs, then 2 rows). It has no FMA, so the
// matvec multiplies and adds (math.fma would be a call to fmaf per lane).
// X86-LABEL: func.func @target_batched(
// X86-SAME:      attributes {llvm.emit_c_interface, target_cpu = "x86-64", target_features = #llvm.target_features<[]>}
// X86-DAG:     %[[C8:.*]] = arith.constant 8 : index
// X86-DAG:     %[[C6:.*]] = arith.constant 6 : index
// X86-DAG:     %[[C18:.*]] = arith.constant 18 : index
// X86-DAG:     memref.alloca() {alignment = 64 : i64} : memref<4x8xf32>
// X86:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C8]] {
// X86:           vector.create_mask %{{.*}} : vector<8xi1>
// X86:           scf.for %{{.*}} = %{{.*}} to %[[C18]] step %[[C6]] {
// X86-NEXT:        arith.muli
// X86:             scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// X86-NOT:           math.fma
// X86:                 arith.mulf {{.*}} : vector<8xf32>
// X86-NEXT:            arith.addf {{.*}} : vector<8xf32>
// X86:           scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>) {

// haswell (AVX2, 16 ymm registers): 16 lanes (two ymm), 12 accumulators.
// HSW-LABEL: func.func @target_batched(
// HSW-SAME:      attributes {llvm.emit_c_interface, target_cpu = "haswell", target_features = #llvm.target_features<[]>}
// HSW-DAG:     %[[C16:.*]] = arith.constant 16 : index
// HSW-DAG:     %[[C6:.*]] = arith.constant 6 : index
// HSW-DAG:     %[[C18:.*]] = arith.constant 18 : index
// HSW-DAG:     memref.alloca() {alignment = 64 : i64} : memref<4x16xf32>
// HSW:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C16]] {
// HSW:           vector.create_mask %{{.*}} : vector<16xi1>
// HSW:           scf.for %{{.*}} = %{{.*}} to %[[C18]] step %[[C6]] {
// HSW-NEXT:        arith.muli
// HSW:             scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// HSW-NOT:           arith.mulf
// HSW:                 math.fma {{.*}} : vector<16xf32>

// skylake-avx512 (32 zmm registers): 32 lanes (two zmm), 16 accumulators.
// SKX-LABEL: func.func @target_batched(
// SKX-SAME:      attributes {llvm.emit_c_interface, target_cpu = "skylake-avx512", target_features = #llvm.target_features<[]>}
// SKX-DAG:     %[[C32:.*]] = arith.constant 32 : index
// SKX-DAG:     %[[C8:.*]] = arith.constant 8 : index
// SKX-DAG:     %[[C16:.*]] = arith.constant 16 : index
// SKX-DAG:     memref.alloca() {alignment = 64 : i64} : memref<4x32xf32>
// SKX:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C32]] {
// SKX:           vector.create_mask %{{.*}} : vector<32xi1>
// SKX:           scf.for %{{.*}} = %{{.*}} to %[[C16]] step %[[C8]] {
// SKX-NEXT:        arith.muli
// SKX:             scf.for {{.*}} -> (vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>) {

// Features given with the CPU change what it has: without AVX-512F,
// skylake-avx512 has 16 ymm registers; x86-64 with AVX2 too.
// NO512-LABEL: func.func @target_batched(
// NO512-SAME:      target_cpu = "skylake-avx512", target_features = #llvm.target_features<["-avx512f"]>
// NO512:         vector.create_mask %{{.*}} : vector<16xi1>
// AVX2-LABEL: func.func @target_batched(
// AVX2-SAME:      target_cpu = "x86-64", target_features = #llvm.target_features<["+avx2", "+fma"]>
// AVX2:          vector.create_mask %{{.*}} : vector<16xi1>

// AArch64 (NEON, 32 q registers): 8 lanes (two q), 8 accumulators.
// ARM-LABEL: func.func @target_batched(
// ARM-SAME:      target_cpu = "neoverse-v1"
// ARM:           vector.create_mask %{{.*}} : vector<8xi1>
// ARM:           scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// ARM:             math.fma {{.*}} : vector<8xf32>

// Any lane count works (3: not a power of two, so no transposes: the
// arguments are gathered); row-block=0 keeps the target's default, 12
// accumulators when a lane vector fits one xmm: one block of 12 rows, one
// of 8.
// OPTS-ODD-LABEL: func.func @target_batched(
// OPTS-ODD-DAG:     %[[C3:.*]] = arith.constant 3 : index
// OPTS-ODD-DAG:     %[[C12:.*]] = arith.constant 12 : index
// OPTS-ODD:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C3]] {
// OPTS-ODD:           vector.create_mask %{{.*}} : vector<3xi1>
// OPTS-ODD-NOT:       vector.shuffle
// OPTS-ODD:           scf.for %{{.*}} = %{{.*}} to %[[C12]] step %[[C12]] {
// OPTS-ODD:             scf.for {{.*}} -> (vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>) {
// OPTS-ODD:           scf.for {{.*}} -> (vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>) {
// OPTS-ODD-NOT:       vector.shuffle

// Machine code: the matvec's fmas on two registers' worth of lanes.
// ASM-X86-LABEL: {{^}}target_batched:
// ASM-X86-NOT:     fmaf
// ASM-X86:         mulps {{.*}}%xmm
// ASM-X86-NOT:     fmaf
// ASM-X86:         {{^}}.Lfunc_end
// ASM-HSW-LABEL: {{^}}target_batched:
// ASM-HSW:         vfmadd{{[0-9]+}}ps {{.*}}%ymm
// ASM-SKX-LABEL: {{^}}target_batched:
// ASM-SKX:         vfmadd{{[0-9]+}}ps {{.*}}%zmm
func.func @target(%x: !coopvec.vec<4, f32>, %w: memref<?xf32>) -> !coopvec.vec<20, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<20, 4, f32, "row_major">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<20, 4, f32, "row_major">, !coopvec.vec<4, f32>) -> !coopvec.vec<20, f32>
  return %y : !coopvec.vec<20, f32>
}
