// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(gpu.module(coopvec-prepare-spirv))' %s | FileCheck %s
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(gpu.module(coopvec-prepare-spirv{subgroup-size=8 atomic-float=true cooperative-matrix=true cooperative-matrix-shapes=16x16x16,16x8x16 signed-zero-inf-nan-preserve=false denorm-preserve=false rounding-mode-rte=false opaque-f16-extension=false}))' %s | FileCheck %s --check-prefix=OPTS
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(gpu.module(coopvec-prepare-spirv{index-bitwidth=64}))' %s | FileCheck %s --check-prefix=INDEX64

// The target environment goes on the gpu.module (its `targets` and the
// `spirv.target_env` attribute convert-gpu-to-spirv reads), every kernel
// gets its workgroup size as `spirv.entry_point_abi`. Builtin vectors are
// split into their elements: a vector.load into memref.loads; a dynamic
// extract from a memref the kernel never writes reloads the element, one
// from any other vector reads a private copy (an alloca in Function
// storage); a masked-off element is not read (scf.if). Private arrays move
// to Function storage; subgroup reductions lose `uniform`.
// CHECK-LABEL: gpu.module @coopvec_kernels [#spirv.target_env<#spirv.vce<v1.4, [Shader, Int8, Int16, Int64, Int64Atomics, Float16, Float64, StorageBuffer8BitAccess, StorageBuffer16BitAccess, GroupNonUniform, GroupNonUniformArithmetic, SignedZeroInfNanPreserve, DenormPreserve, RoundingModeRTE], [SPV_KHR_8bit_storage, SPV_KHR_16bit_storage, SPV_KHR_storage_buffer_storage_class, SPV_KHR_float_controls]>, api=Vulkan, #spirv.resource_limits<max_compute_workgroup_invocations = 1024, max_compute_workgroup_size = [1024, 1024, 64]>>] attributes {spirv.target_env = #spirv.target_env<
// CHECK:         gpu.func @k(%[[N:.*]]: index, %[[W:.*]]: memref<?xf32>, %[[O:.*]]: memref<?xf32>) kernel
// CHECK-SAME:      spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>
// CHECK-NEXT:      %[[COPY:.*]] = memref.alloca() {alignment = 4 : i64} : memref<3xf32, #spirv.storage_class<Function>>
// CHECK:           %[[T:.*]] = gpu.thread_id x
// CHECK-NEXT:      %[[P:.*]] = memref.alloca() {alignment = 16 : i64} : memref<4xf32, #spirv.storage_class<Function>>
// CHECK-NEXT:      %[[B0:.*]] = memref.load %[[W]][%[[C4:.*]]] : memref<?xf32>
// CHECK:           %[[B1:.*]] = memref.load %[[W]][%{{.*}}] : memref<?xf32>
// CHECK:           %[[B2:.*]] = memref.load %[[W]][%{{.*}}] : memref<?xf32>
// CHECK-NEXT:      %[[AT:.*]] = arith.addi %[[C4]], %[[T]] : index
// CHECK-NEXT:      %[[BT:.*]] = memref.load %[[W]][%[[AT]]] : memref<?xf32>
// CHECK-DAG:       %[[K0:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:       %[[K1:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG:       %[[K2:.*]] = arith.constant 3.000000e+00 : f32
// CHECK:           %[[S0:.*]] = arith.addf %[[B0]], %[[K0]] : f32
// CHECK-NEXT:      %[[S1:.*]] = arith.addf %[[B1]], %[[K1]] : f32
// CHECK-NEXT:      %[[S2:.*]] = arith.addf %[[B2]], %[[K2]] : f32
// CHECK:           memref.store %[[S0]], %[[COPY]]
// CHECK:           memref.store %[[S1]], %[[COPY]]
// CHECK:           memref.store %[[S2]], %[[COPY]]
// CHECK-NEXT:      %[[ST:.*]] = memref.load %[[COPY]][%[[T]]] : memref<3xf32, #spirv.storage_class<Function>>
// CHECK:           %[[M0BIT:.*]] = arith.cmpi slt, %{{.*}}, %[[T]] : index
// CHECK:           %[[M0:.*]] = scf.if %[[M0BIT]] -> (f32) {
// CHECK-NEXT:        %[[L0:.*]] = memref.load %[[O]]
// CHECK-NEXT:        scf.yield %[[L0]] : f32
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[B1]] : f32
// CHECK-NEXT:      }
// CHECK:           scf.if
// CHECK:           %[[SUM:.*]] = gpu.subgroup_reduce add %[[M0]] : (f32) -> f32
// CHECK-NEXT:      memref.store %[[BT]], %[[P]]
// CHECK-NEXT:      memref.store %[[ST]], %[[O]][%[[T]]]
// CHECK-NEXT:      memref.store %[[SUM]], %[[O]][%[[C4]]]
// CHECK-NOT:       vector.
// OPTS-LABEL: gpu.module @coopvec_kernels [#spirv.target_env<#spirv.vce<v1.4, [Shader, Int8, Int16, Int64, Int64Atomics, Float16, Float64, StorageBuffer8BitAccess, StorageBuffer16BitAccess, GroupNonUniform, GroupNonUniformArithmetic, AtomicFloat32AddEXT, CooperativeMatrixKHR], [SPV_KHR_8bit_storage, SPV_KHR_16bit_storage, SPV_KHR_storage_buffer_storage_class, SPV_EXT_shader_atomic_float_add, SPV_KHR_cooperative_matrix]>, api=Vulkan, #spirv.resource_limits<max_compute_workgroup_invocations = 1024, max_compute_workgroup_size = [1024, 1024, 64], subgroup_size = 8, cooperative_matrix_properties_khr = [#spirv.coop_matrix_props_khr<m_size = 16, n_size = 16, k_size = 16, a_type = f16, b_type = f16, c_type = f32, result_type = f32, acc_sat = false, scope = <Subgroup>>, #spirv.coop_matrix_props_khr<m_size = 16, n_size = 8, k_size = 16, a_type = f16, b_type = f16, c_type = f32, result_type = f32, acc_sat = false, scope = <Subgroup>>]>>]
module attributes {gpu.container_module} {
  gpu.module @coopvec_kernels {
    gpu.func @k(%n: index, %w: memref<?xf32>, %o: memref<?xf32>) kernel attributes {coopvec.block_size = 64 : i64, coopvec.subgroup_size = 8 : i64, known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %t = gpu.thread_id x
      %p = memref.alloca() {alignment = 16 : i64} : memref<4xf32>
      %b = vector.load %w[%c4] : memref<?xf32>, vector<3xf32>
      %b1 = vector.extract %b[1] : f32 from vector<3xf32>
      %bt = vector.extract %b[%t] : f32 from vector<3xf32>
      %k = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
      %s = arith.addf %b, %k : vector<3xf32>
      %st = vector.extract %s[%t] : f32 from vector<3xf32>
      %mask = vector.create_mask %t : vector<2xi1>
      %pad = vector.broadcast %b1 : f32 to vector<2xf32>
      %m = vector.maskedload %o[%c0], %mask, %pad : memref<?xf32>, vector<2xi1>, vector<2xf32> into vector<2xf32>
      %m0 = vector.extract %m[0] : f32 from vector<2xf32>
      %sum = gpu.subgroup_reduce add %m0 uniform : (f32) -> f32
      memref.store %bt, %p[%c0] : memref<4xf32>
      memref.store %st, %o[%t] : memref<?xf32>
      memref.store %sum, %o[%c4] : memref<?xf32>
      gpu.return
    }
  }
}

// -----

// Float atomic adds into kernel arguments. Without float atomics (the
// default, and always for f16) a compare-and-swap loop on the 32-bit word
// holding the element, from 0; the compare-exchange itself is a
// `spirv.GL.SClamp` placeholder (word, expected, desired) marked with the
// buffer's argument index, which coopvec-finish-spirv replaces after
// spirv-lower-abi-attrs. f16: the element is the half at bit (i & 1) * 16
// of word i >> 1, added in f32 and rounded back by PackHalf2x16. The old
// value, where used, comes from the word the loop ended with.
// CHECK-LABEL: gpu.func @train(
// CHECK-SAME:      %{{.*}}: index, %{{.*}}: memref<?xf32>, %[[H:.*]]: memref<?xf16>)
// CHECK:           %[[T:.*]] = gpu.thread_id x
// CHECK-DAG:       %[[V:.*]] = arith.constant 1.500000e+00 : f32
// CHECK-DAG:       %[[VH:.*]] = arith.constant 2.500000e+00 : f16
// CHECK:           %[[I:.*]] = arith.index_cast %[[T]] : index to i32
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      scf.while (%[[E:.*]] = %[[ZERO]]) : (i32) -> i32 {
// CHECK-NEXT:        %[[EF:.*]] = arith.bitcast %[[E]] : i32 to f32
// CHECK-NEXT:        %[[SUM:.*]] = arith.addf %[[EF]], %[[V]] : f32
// CHECK-NEXT:        %[[D:.*]] = arith.bitcast %[[SUM]] : f32 to i32
// CHECK-NEXT:        %[[GOT:.*]] = spirv.GL.SClamp %[[I]], %[[E]], %[[D]] {coopvec.atomic = "cas", coopvec.atomic_arg = 1 : i64} : i32
// CHECK-NEXT:        %[[AGAIN:.*]] = arith.cmpi ne, %[[GOT]], %[[E]] : i32
// CHECK-NEXT:        scf.condition(%[[AGAIN]]) %[[GOT]] : i32
// CHECK-NEXT:      } do {
// CHECK-NEXT:      ^bb0(%[[NEXT:.*]]: i32):
// CHECK-NEXT:        scf.yield %[[NEXT]] : i32
// CHECK-NEXT:      }
// CHECK:           %[[HI:.*]] = arith.index_cast %[[T]] : index to i32
// CHECK:           %[[WORD:.*]] = arith.shrui %[[HI]], %{{.*}} : i32
// CHECK:           %[[ODD:.*]] = arith.andi %[[HI]], %{{.*}} : i32
// CHECK:           %[[SHIFT:.*]] = arith.muli %[[ODD]], %{{.*}} : i32
// CHECK:           %[[OLD:.*]] = scf.while (%[[HE:.*]] = %{{.*}}) : (i32) -> i32 {
// CHECK-NEXT:        %[[LOW:.*]] = arith.shrui %[[HE]], %[[SHIFT]] : i32
// CHECK-NEXT:        %[[PAIR:.*]] = spirv.GL.UnpackHalf2x16 %[[LOW]] : i32 -> vector<2xf32>
// CHECK-NEXT:        %[[CUR:.*]] = spirv.CompositeExtract %[[PAIR]][0 : i32] : vector<2xf32>
// CHECK-NEXT:        %[[ADD:.*]] = arith.extf %[[VH]] : f16 to f32
// CHECK-NEXT:        %[[HSUM:.*]] = arith.addf %[[CUR]], %[[ADD]] : f32
// CHECK:             %[[PACKED:.*]] = spirv.GL.PackHalf2x16 %{{.*}} : vector<2xf32> -> i32
// CHECK:             %[[HD:.*]] = arith.ori %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:        %[[HGOT:.*]] = spirv.GL.SClamp %[[WORD]], %[[HE]], %[[HD]] {coopvec.atomic = "cas", coopvec.atomic_arg = 2 : i64} : i32
// CHECK:           }
// CHECK:           %[[OLDLOW:.*]] = arith.shrui %[[OLD]], %[[SHIFT]] : i32
// CHECK-NEXT:      %[[OLDPAIR:.*]] = spirv.GL.UnpackHalf2x16 %[[OLDLOW]]
// CHECK-NEXT:      %[[OLDF:.*]] = spirv.CompositeExtract %[[OLDPAIR]][0 : i32]
// CHECK-NEXT:      %[[OLDH:.*]] = arith.truncf %[[OLDF]] : f32 to f16
// CHECK-NEXT:      memref.store %[[OLDH]], %[[H]][%[[T]]] : memref<?xf16>
// CHECK-NOT:       memref.atomic_rmw
// With atomic-float=true an f32 add is one placeholder, (index, bits(v),
// bits(v)) marked "fadd"; f16 keeps its loop.
// OPTS-LABEL: gpu.func @train(
// OPTS:           %[[I:.*]] = arith.index_cast %{{.*}} : index to i32
// OPTS-NEXT:      %[[BITS:.*]] = arith.bitcast %{{.*}} : f32 to i32
// OPTS-NEXT:      spirv.GL.SClamp %[[I]], %[[BITS]], %[[BITS]] {coopvec.atomic = "fadd", coopvec.atomic_arg = 1 : i64} : i32
// OPTS:           scf.while
// OPTS:           spirv.GL.SClamp {{.*}} {coopvec.atomic = "cas", coopvec.atomic_arg = 2 : i64}
// OPTS-NOT:       memref.atomic_rmw
module attributes {gpu.container_module} {
  gpu.module @coopvec_kernels {
    gpu.func @train(%n: index, %g: memref<?xf32>, %h: memref<?xf16>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %t = gpu.thread_id x
      %v = arith.constant 1.5 : f32
      %vh = arith.constant 2.5 : f16
      %0 = memref.atomic_rmw addf %v, %g[%t] : (f32, memref<?xf32>) -> f32
      %1 = memref.atomic_rmw addf %vh, %h[%t] : (f16, memref<?xf16>) -> f16
      memref.store %1, %h[%t] : memref<?xf16>
      gpu.return
    }
  }
}

// -----

// A target environment already on the gpu.module is used as it is (and
// put into `targets`); so is an entry point ABI.
// CHECK-LABEL: gpu.module @mine [#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, api=Vulkan, #spirv.resource_limits<>>] attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], []>, api=Vulkan, #spirv.resource_limits<>>} {
// CHECK-NEXT:    gpu.func @k() kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 2, 1]>}
module attributes {gpu.container_module} {
  gpu.module @mine attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], []>, api=Vulkan, #spirv.resource_limits<>>} {
    gpu.func @k() kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 2, 1]>} {
      gpu.return
    }
  }
}

// -----

// The status atomics of run-time bounds reports (marked
// coopvec.status_report by convert-coopvec-to-gpu) are gathered per thread
// in two private i64 variables, a count from 0 and a smallest key from
// INT64_MAX, and added to the status buffer once before the kernel
// returns, when the thread reported: lavapipe runs a loop that holds a
// 64-bit atomic wrong when its trip count differs between threads. Other
// integer atomics stay.
// CHECK-LABEL: gpu.func @report(
// CHECK-SAME:      %[[N:.*]]: index, %[[G:.*]]: memref<?xi32>, %[[S:.*]]: memref<?xi64>)
// CHECK-NEXT:      %[[COUNT:.*]] = memref.alloca() {alignment = 8 : i64} : memref<1xi64, #spirv.storage_class<Function>>
// CHECK:           %[[Z:.*]] = arith.constant 0 : i64
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      memref.store %[[Z]], %[[COUNT]][%[[C0]]]
// CHECK-NEXT:      %[[FIRST:.*]] = memref.alloca() {alignment = 8 : i64} : memref<1xi64, #spirv.storage_class<Function>>
// CHECK:           %[[MAX:.*]] = arith.constant 9223372036854775807 : i64
// CHECK:           memref.store %[[MAX]], %[[FIRST]]
// CHECK:           scf.for
// CHECK:             scf.if
// CHECK:               %[[C:.*]] = memref.load %[[COUNT]]
// CHECK-NEXT:          %[[C1:.*]] = arith.addi %[[C]], %{{.*}} : i64
// CHECK-NEXT:          memref.store %[[C1]], %[[COUNT]]
// CHECK:               %[[F:.*]] = memref.load %[[FIRST]]
// CHECK-NEXT:          %[[F1:.*]] = arith.minsi %[[F]], %{{.*}} : i64
// CHECK-NEXT:          memref.store %[[F1]], %[[FIRST]]
// CHECK-NEXT:        }
// CHECK-NEXT:        memref.atomic_rmw addi %{{.*}}, %[[G]]
// CHECK-NEXT:      }
// CHECK:           %[[TOTAL:.*]] = memref.load %[[COUNT]]
// CHECK:           %[[REPORTED:.*]] = arith.cmpi ne, %[[TOTAL]], %{{.*}} : i64
// CHECK-NEXT:      scf.if %[[REPORTED]] {
// CHECK:             %[[KEY:.*]] = memref.load %[[FIRST]]
// CHECK:             memref.atomic_rmw addi %[[TOTAL]], %[[S]][%{{.*}}] : (i64, memref<?xi64>) -> i64
// CHECK:             memref.atomic_rmw mins %[[KEY]], %[[S]][%{{.*}}] : (i64, memref<?xi64>) -> i64
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.return
// CHECK-NOT:     coopvec.status_report
// OPTS-LABEL: gpu.func @report(
module attributes {gpu.container_module} {
  gpu.module @coopvec_kernels {
    gpu.func @report(%n: index, %g: memref<?xi32>, %s: memref<?xi64>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %one = arith.constant 1 : i64
      %one32 = arith.constant 1 : i32
      %t = gpu.thread_id x
      scf.for %i = %c0 to %t step %c1 {
        %out = arith.cmpi uge, %i, %n : index
        scf.if %out {
          %key = arith.index_cast %i : index to i64
          %0 = memref.atomic_rmw addi %one, %s[%c0] {coopvec.status_report} : (i64, memref<?xi64>) -> i64
          %1 = memref.atomic_rmw mins %key, %s[%c1] {coopvec.status_report} : (i64, memref<?xi64>) -> i64
        }
        %2 = memref.atomic_rmw addi %one32, %g[%i] : (i32, memref<?xi32>) -> i32
      }
      gpu.return
    }
  }
}

// -----

// scf.index_switch (which MLIR's SCF-to-SPIR-V patterns do not convert)
// becomes a chain of scf.if on selector == case, in the order of the
// cases, the default region in the innermost else; the case regions move
// as they are. A switch without cases is its default region, inlined.
// CHECK-LABEL: gpu.func @switch(
// CHECK-SAME:      %[[S:.*]]: index, %[[O:.*]]: memref<?xf32>)
// CHECK:           %[[K2:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[IS2:.*]] = arith.cmpi eq, %[[S]], %[[K2]] : index
// CHECK-NEXT:      %[[R:.*]]:2 = scf.if %[[IS2]] -> (f32, i32) {
// CHECK-NEXT:        %[[A:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:        %[[AI:.*]] = arith.constant 10 : i32
// CHECK-NEXT:        scf.yield %[[A]], %[[AI]] : f32, i32
// CHECK-NEXT:      } else {
// CHECK-NEXT:        %[[K5:.*]] = arith.constant 5 : index
// CHECK-NEXT:        %[[IS5:.*]] = arith.cmpi eq, %[[S]], %[[K5]] : index
// CHECK-NEXT:        %[[R5:.*]]:2 = scf.if %[[IS5]] -> (f32, i32) {
// CHECK-NEXT:          %[[B:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:          %[[BI:.*]] = arith.constant 20 : i32
// CHECK-NEXT:          scf.yield %[[B]], %[[BI]] : f32, i32
// CHECK-NEXT:        } else {
// CHECK-NEXT:          %[[D:.*]] = arith.constant 3.000000e+00 : f32
// CHECK-NEXT:          %[[DI:.*]] = arith.constant 30 : i32
// CHECK-NEXT:          scf.yield %[[D]], %[[DI]] : f32, i32
// CHECK-NEXT:        }
// CHECK-NEXT:        scf.yield %[[R5]]#0, %[[R5]]#1 : f32, i32
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[E:.*]] = arith.constant 4.000000e+00 : f32
// CHECK-NEXT:      %[[T:.*]] = gpu.thread_id x
// CHECK-NEXT:      %[[F:.*]] = arith.sitofp %[[R]]#1 : i32 to f32
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %[[R]]#0, %[[F]] : f32
// CHECK-NEXT:      %[[SUM2:.*]] = arith.addf %[[SUM]], %[[E]] : f32
// CHECK-NEXT:      memref.store %[[SUM2]], %[[O]][%[[T]]] : memref<?xf32>
// CHECK-NOT:       scf.index_switch
module attributes {gpu.container_module} {
  gpu.module @coopvec_kernels {
    gpu.func @switch(%s: index, %o: memref<?xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %r:2 = scf.index_switch %s -> f32, i32
      case 2 {
        %a = arith.constant 1.0 : f32
        %ai = arith.constant 10 : i32
        scf.yield %a, %ai : f32, i32
      }
      case 5 {
        %b = arith.constant 2.0 : f32
        %bi = arith.constant 20 : i32
        scf.yield %b, %bi : f32, i32
      }
      default {
        %d = arith.constant 3.0 : f32
        %di = arith.constant 30 : i32
        scf.yield %d, %di : f32, i32
      }
      %only = scf.index_switch %s -> f32
      default {
        %e = arith.constant 4.0 : f32
        scf.yield %e : f32
      }
      %t = gpu.thread_id x
      %f = arith.sitofp %r#1 : i32 to f32
      %sum = arith.addf %r#0, %f : f32
      %sum2 = arith.addf %sum, %only : f32
      memref.store %sum2, %o[%t] : memref<?xf32>
      gpu.return
    }
  }
}

// -----

// MLIR's SCF-to-SPIR-V conversion gives an scf.for's results through
// variables that the body stores: a loop that runs zero times would leave
// them undefined. So a loop with results that may not run goes inside
// scf.if (lb < ub), whose else branch yields the initial values; one with
// constant bounds that runs is left alone, and so is one without results.
// CHECK-LABEL: gpu.func @trips(
// CHECK-SAME:      %[[N:.*]]: index, %[[O:.*]]: memref<?xf32>)
// CHECK-DAG:       %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:       %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:       %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:       %[[X:.*]] = arith.constant 2.000000e+00 : f32
// CHECK:           %[[T:.*]] = gpu.thread_id x
// CHECK-NEXT:      %[[RUNS:.*]] = arith.cmpi slt, %[[C0]], %[[T]] : index
// CHECK-NEXT:      %[[R:.*]]:2 = scf.if %[[RUNS]] -> (f32, index) {
// CHECK-NEXT:        %[[L:.*]]:2 = scf.for %{{.*}} = %[[C0]] to %[[T]] step %[[C1]] iter_args(%{{.*}} = %[[X]], %{{.*}} = %[[N]]) -> (f32, index) {
// CHECK:             }
// CHECK-NEXT:        scf.yield %[[L]]#0, %[[L]]#1 : f32, index
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[X]], %[[N]] : f32, index
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[K:.*]] = scf.for %{{.*}} = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%{{.*}} = %[[R]]#0) -> (f32) {
// CHECK:           scf.for %{{.*}} = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK:           memref.store %[[K]], %[[O]][%[[R]]#1]
module attributes {gpu.container_module} {
  gpu.module @coopvec_kernels {
    gpu.func @trips(%n: index, %o: memref<?xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %x = arith.constant 2.0 : f32
      %t = gpu.thread_id x
      %r:2 = scf.for %i = %c0 to %t step %c1 iter_args(%a = %x, %j = %n) -> (f32, index) {
        %a1 = arith.addf %a, %a : f32
        %j1 = arith.addi %j, %c1 : index
        scf.yield %a1, %j1 : f32, index
      }
      %k = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %r#0) -> (f32) {
        %a1 = arith.addf %a, %x : f32
        scf.yield %a1 : f32
      }
      scf.for %i = %c0 to %n step %c1 {
        memref.store %x, %o[%i] : memref<?xf32>
      }
      memref.store %k, %o[%r#1] : memref<?xf32>
      gpu.return
    }
  }
}

// -----

// arith.maximumf / minimumf become compares and selects: the larger
// (smaller) by an ordered compare, the AND (OR) of the bits where the
// operands are equal (+0 for max(-0, +0), -0 for min), and a NaN operand
// last; GLSL FMax / FMin leave the sign of a zero result to the driver.
// CHECK-LABEL: gpu.func @minmax(
// CHECK-SAME:      %[[X:.*]]: f32, %[[Y:.*]]: f32, %[[H:.*]]: f16, %[[K:.*]]: f16, %[[O:.*]]: memref<?xf32>, %[[OH:.*]]: memref<?xf16>)
// CHECK-NEXT:      %[[GT:.*]] = arith.cmpf ogt, %[[X]], %[[Y]] : f32
// CHECK-NEXT:      %[[R0:.*]] = arith.select %[[GT]], %[[X]], %[[Y]] : f32
// CHECK-NEXT:      %[[XB:.*]] = arith.bitcast %[[X]] : f32 to i32
// CHECK-NEXT:      %[[YB:.*]] = arith.bitcast %[[Y]] : f32 to i32
// CHECK-NEXT:      %[[AND:.*]] = arith.andi %[[XB]], %[[YB]] : i32
// CHECK-NEXT:      %[[EQ:.*]] = arith.cmpf oeq, %[[X]], %[[Y]] : f32
// CHECK-NEXT:      %[[ANDF:.*]] = arith.bitcast %[[AND]] : i32 to f32
// CHECK-NEXT:      %[[R1:.*]] = arith.select %[[EQ]], %[[ANDF]], %[[R0]] : f32
// CHECK-NEXT:      %[[YNAN:.*]] = arith.cmpf uno, %[[Y]], %[[Y]] : f32
// CHECK-NEXT:      %[[R2:.*]] = arith.select %[[YNAN]], %[[Y]], %[[R1]] : f32
// CHECK-NEXT:      %[[XNAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK-NEXT:      %[[MAX:.*]] = arith.select %[[XNAN]], %[[X]], %[[R2]] : f32
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpf olt, %[[H]], %[[K]] : f16
// CHECK-NEXT:      %[[S0:.*]] = arith.select %[[LT]], %[[H]], %[[K]] : f16
// CHECK-NEXT:      %[[HB:.*]] = arith.bitcast %[[H]] : f16 to i16
// CHECK-NEXT:      %[[KB:.*]] = arith.bitcast %[[K]] : f16 to i16
// CHECK-NEXT:      %[[OR:.*]] = arith.ori %[[HB]], %[[KB]] : i16
// CHECK-NEXT:      %[[HEQ:.*]] = arith.cmpf oeq, %[[H]], %[[K]] : f16
// CHECK-NEXT:      %[[ORF:.*]] = arith.bitcast %[[OR]] : i16 to f16
// CHECK-NEXT:      %[[S1:.*]] = arith.select %[[HEQ]], %[[ORF]], %[[S0]] : f16
// CHECK-NEXT:      %[[KNAN:.*]] = arith.cmpf uno, %[[K]], %[[K]] : f16
// CHECK-NEXT:      %[[S2:.*]] = arith.select %[[KNAN]], %[[K]], %[[S1]] : f16
// CHECK-NEXT:      %[[HNAN:.*]] = arith.cmpf uno, %[[H]], %[[H]] : f16
// CHECK-NEXT:      %[[MIN:.*]] = arith.select %[[HNAN]], %[[H]], %[[S2]] : f16
// CHECK-NEXT:      %[[T:.*]] = gpu.thread_id x
// CHECK-NEXT:      memref.store %[[MAX]], %[[O]][%[[T]]]
// CHECK-NEXT:      memref.store %[[MIN]], %[[OH]][%[[T]]]
// CHECK-NOT:       arith.maximumf
// CHECK-NOT:       arith.minimumf
module attributes {gpu.container_module} {
  gpu.module @coopvec_kernels {
    gpu.func @minmax(%x: f32, %y: f32, %h: f16, %k: f16, %o: memref<?xf32>, %oh: memref<?xf16>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %max = arith.maximumf %x, %y : f32
      %min = arith.minimumf %h, %k : f16
      %t = gpu.thread_id x
      memref.store %max, %o[%t] : memref<?xf32>
      memref.store %min, %oh[%t] : memref<?xf16>
      gpu.return
    }
  }
}

// -----

// memref.atomic_rmw maximumf / minimumf: the compare-and-swap loop of addf
// with the element combined by arith.maximumf / minimumf (then expanded
// like any other: NaN propagates, -0 < +0), also with atomic-float=true;
// an f16 element is combined in f32 (one of the two values, exact).
// CHECK-LABEL: gpu.func @atomic_minmax(
// CHECK-SAME:      %[[V:.*]]: f32, %[[VH:.*]]: f16, %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf16>)
// CHECK:           scf.while (%[[E:.*]] = %{{.*}}) : (i32) -> i32 {
// CHECK-NEXT:        %[[EF:.*]] = arith.bitcast %[[E]] : i32 to f32
// CHECK-NEXT:        %[[GT:.*]] = arith.cmpf ogt, %[[EF]], %[[V]] : f32
// CHECK:             arith.andi
// CHECK:             %[[XNAN:.*]] = arith.cmpf uno, %[[EF]], %[[EF]] : f32
// CHECK-NEXT:        %[[MAX:.*]] = arith.select %[[XNAN]], %[[EF]], %{{.*}} : f32
// CHECK-NEXT:        %[[D:.*]] = arith.bitcast %[[MAX]] : f32 to i32
// CHECK-NEXT:        spirv.GL.SClamp %{{.*}}, %[[E]], %[[D]] {coopvec.atomic = "cas", coopvec.atomic_arg = 2 : i64} : i32
// CHECK:           scf.while
// CHECK:             spirv.GL.UnpackHalf2x16
// CHECK:             %[[ADD:.*]] = arith.extf %[[VH]] : f16 to f32
// CHECK-NEXT:        arith.cmpf olt, %{{.*}}, %[[ADD]] : f32
// CHECK:             arith.ori
// CHECK:             spirv.GL.PackHalf2x16
// CHECK:             spirv.GL.SClamp {{.*}} {coopvec.atomic = "cas", coopvec.atomic_arg = 3 : i64}
// CHECK-NOT:       memref.atomic_rmw
// CHECK-NOT:       arith.maximumf
// OPTS-LABEL: gpu.func @atomic_minmax(
// OPTS:           scf.while
// OPTS:           spirv.GL.SClamp {{.*}} {coopvec.atomic = "cas", coopvec.atomic_arg = 2 : i64}
// OPTS:           scf.while
// OPTS:           spirv.GL.SClamp {{.*}} {coopvec.atomic = "cas", coopvec.atomic_arg = 3 : i64}
// OPTS-NOT:       coopvec.atomic = "fadd"
module attributes {gpu.container_module} {
  gpu.module @coopvec_kernels {
    gpu.func @atomic_minmax(%v: f32, %vh: f16, %g: memref<?xf32>, %h: memref<?xf16>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %t = gpu.thread_id x
      %0 = memref.atomic_rmw maximumf %v, %g[%t] : (f32, memref<?xf32>) -> f32
      %1 = memref.atomic_rmw minimumf %vh, %h[%t] : (f16, memref<?xf16>) -> f16
      gpu.return
    }
  }
}

// -----

// math.trunc, arith.ceildivsi, ceildivui and floordivsi, which MLIR's
// SPIR-V conversions have no pattern for: trunc(x) = copysign(floor(|x|),
// x); the divisions from the truncating quotient q and the exact
// remainder r = a - q * b, q + 1 (ceil) or q - 1 (floor) where r != 0 and
// the exact quotient is positive (negative), unsigned q + (r != 0); remsi
// is r (arith-to-spirv's remainder of absolute values loses the sign of
// remsi(INT_MIN, b)).
// CHECK-LABEL: gpu.func @expand(
// CHECK-SAME:      %[[X:.*]]: f32, %[[A:.*]]: i32, %[[B:.*]]: i32, %[[O:.*]]: memref<?xf32>, %[[I:.*]]: memref<?xi32>)
// CHECK-NEXT:      %[[ABS:.*]] = math.absf %[[X]] : f32
// CHECK-NEXT:      %[[FLOOR:.*]] = math.floor %[[ABS]] : f32
// CHECK-NEXT:      %[[T:.*]] = math.copysign %[[FLOOR]], %[[X]] : f32
// CHECK-NEXT:      %[[Q:.*]] = arith.divsi %[[A]], %[[B]] : i32
// CHECK-NEXT:      %[[QB:.*]] = arith.muli %[[Q]], %[[B]] : i32
// CHECK-NEXT:      %[[R:.*]] = arith.subi %[[A]], %[[QB]] : i32
// CHECK:           %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[INEXACT:.*]] = arith.cmpi ne, %[[R]], %[[Z]] : i32
// CHECK-NEXT:      %[[RNEG:.*]] = arith.cmpi slt, %[[R]], %[[Z]] : i32
// CHECK-NEXT:      %[[BNEG:.*]] = arith.cmpi slt, %[[B]], %[[Z]] : i32
// CHECK-NEXT:      %[[POS:.*]] = arith.cmpi eq, %[[RNEG]], %[[BNEG]] : i1
// CHECK-NEXT:      %[[UP:.*]] = arith.andi %[[INEXACT]], %[[POS]] : i1
// CHECK:           %[[ONE:.*]] = arith.select %[[UP]], %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:      %[[CEIL:.*]] = arith.addi %[[Q]], %[[ONE]] : i32
// CHECK-NEXT:      %[[UQ:.*]] = arith.divui %[[A]], %[[B]] : i32
// CHECK:           %[[UCEIL:.*]] = arith.addi %[[UQ]], %{{.*}} : i32
// CHECK-NEXT:      %[[FQ:.*]] = arith.divsi %[[A]], %[[B]] : i32
// CHECK:           %[[NEG:.*]] = arith.xori %{{.*}}, %{{.*}} : i1
// CHECK-NEXT:      %[[DOWN:.*]] = arith.andi %{{.*}}, %[[NEG]] : i1
// CHECK:           %[[FLOORQ:.*]] = arith.subi %[[FQ]], %{{.*}} : i32
// CHECK-NEXT:      %[[RQ:.*]] = arith.divsi %[[A]], %[[B]] : i32
// CHECK-NEXT:      %[[RQB:.*]] = arith.muli %[[RQ]], %[[B]] : i32
// CHECK-NEXT:      %[[REM:.*]] = arith.subi %[[A]], %[[RQB]] : i32
// CHECK:           memref.store %[[REM]], %[[I]][%{{.*}}] : memref<?xi32>
// CHECK-NOT:       math.trunc
// CHECK-NOT:       arith.remsi
// CHECK-NOT:       arith.ceildiv
// CHECK-NOT:       arith.floordiv
module attributes {gpu.container_module} {
  gpu.module @coopvec_kernels {
    gpu.func @expand(%x: f32, %a: i32, %b: i32, %o: memref<?xf32>, %i: memref<?xi32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %t = math.trunc %x : f32
      %c = arith.ceildivsi %a, %b : i32
      %u = arith.ceildivui %a, %b : i32
      %f = arith.floordivsi %a, %b : i32
      %r = arith.remsi %a, %b : i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      memref.store %t, %o[%c0] : memref<?xf32>
      memref.store %c, %i[%c0] : memref<?xi32>
      memref.store %u, %i[%c1] : memref<?xi32>
      memref.store %f, %i[%c2] : memref<?xi32>
      memref.store %r, %i[%c2] : memref<?xi32>
      gpu.return
    }
  }
}

// -----

// An f16 math.fma is computed in f32 (the product is exact there), the
// sum's rounding error e by TwoSum, the sum rounded to odd (one f32 ulp
// toward e where e != 0 and the sum is finite and even), then truncated to
// f16: rounded once, whether the driver fuses GLSL Fma or not.
// CHECK-LABEL: gpu.func @fma16(
// CHECK-SAME:      %[[A:.*]]: f16, %[[B:.*]]: f16, %[[C:.*]]: f16, %[[O:.*]]: memref<?xf16>)
// CHECK-NEXT:      %[[A32:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK-NEXT:      %[[B32:.*]] = arith.extf %[[B]] : f16 to f32
// CHECK-NEXT:      %[[C32:.*]] = arith.extf %[[C]] : f16 to f32
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[A32]], %[[B32]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[P]], %[[C32]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.subf %[[S]], %[[P]] : f32
// CHECK-NEXT:      %[[ST:.*]] = arith.subf %[[S]], %[[T]] : f32
// CHECK-NEXT:      %[[PE:.*]] = arith.subf %[[P]], %[[ST]] : f32
// CHECK-NEXT:      %[[CE:.*]] = arith.subf %[[C32]], %[[T]] : f32
// CHECK-NEXT:      %[[E:.*]] = arith.addf %[[PE]], %[[CE]] : f32
// CHECK-NEXT:      %[[SB:.*]] = arith.bitcast %[[S]] : f32 to i32
// CHECK-NEXT:      %[[EB:.*]] = arith.bitcast %[[E]] : f32 to i32
// CHECK:           %[[INEXACT:.*]] = arith.cmpf one, %[[E]], %{{.*}} : f32
// CHECK-NEXT:      %[[EXPONENT:.*]] = arith.constant 2139095040 : i32
// CHECK:           %[[HIGH:.*]] = arith.andi %[[SB]], %[[EXPONENT]] : i32
// CHECK-NEXT:      %[[FINITE:.*]] = arith.cmpi ne, %[[HIGH]], %[[EXPONENT]] : i32
// CHECK:           %[[LOW:.*]] = arith.andi %[[SB]], %{{.*}} : i32
// CHECK-NEXT:      %[[EVEN:.*]] = arith.cmpi eq, %[[LOW]], %{{.*}} : i32
// CHECK-NEXT:      %[[XOR:.*]] = arith.xori %[[SB]], %[[EB]] : i32
// CHECK-NEXT:      %[[SAME:.*]] = arith.cmpi sge, %[[XOR]], %{{.*}} : i32
// CHECK:           %[[STEP:.*]] = arith.select %[[SAME]], %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:      %[[MOVED:.*]] = arith.addi %[[SB]], %[[STEP]] : i32
// CHECK-NEXT:      %[[ADJ0:.*]] = arith.andi %[[INEXACT]], %[[FINITE]] : i1
// CHECK-NEXT:      %[[ADJ:.*]] = arith.andi %[[ADJ0]], %[[EVEN]] : i1
// CHECK-NEXT:      %[[BITS:.*]] = arith.select %[[ADJ]], %[[MOVED]], %[[SB]] : i32
// CHECK-NEXT:      %[[ODD:.*]] = arith.bitcast %[[BITS]] : i32 to f32
// CHECK-NEXT:      %[[R:.*]] = arith.truncf %[[ODD]] : f32 to f16
// CHECK:           memref.store %[[R]], %[[O]]
// CHECK-NOT:       math.fma
module attributes {gpu.container_module} {
  gpu.module @coopvec_kernels {
    gpu.func @fma16(%a: f16, %b: f16, %c: f16, %o: memref<?xf16>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %r = math.fma %a, %b, %c : f16
      %t = gpu.thread_id x
      memref.store %r, %o[%t] : memref<?xf16>
      gpu.return
    }
  }
}

// -----

// An f32 math.fma likewise in f64 (an f32 product is exact there), with
// the bit patterns as i64; the target environment lists Float64. A
// matvec's dot-product step (`coopvec.accumulate`, convert-coopvec-to-gpu)
// stays a math.fma, GLSL Fma. A vector.fma is split first, then each
// element's math.fma is expanded.
// CHECK-LABEL: gpu.module @coopvec_kernels
// CHECK-SAME:      Float16, Float64,
// CHECK-LABEL: gpu.func @fma32(
// CHECK-SAME:      %[[X:.*]]: f32, %[[Y:.*]]: f32, %[[Z:.*]]: f32, %[[O:.*]]: memref<?xf32>)
// CHECK-NEXT:      %[[X64:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK-NEXT:      %[[Y64:.*]] = arith.extf %[[Y]] : f32 to f64
// CHECK-NEXT:      %[[Z64:.*]] = arith.extf %[[Z]] : f32 to f64
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[X64]], %[[Y64]] : f64
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[P]], %[[Z64]] : f64
// CHECK-NEXT:      %[[T:.*]] = arith.subf %[[S]], %[[P]] : f64
// CHECK-NEXT:      %[[ST:.*]] = arith.subf %[[S]], %[[T]] : f64
// CHECK-NEXT:      %[[PE:.*]] = arith.subf %[[P]], %[[ST]] : f64
// CHECK-NEXT:      %[[CE:.*]] = arith.subf %[[Z64]], %[[T]] : f64
// CHECK-NEXT:      %[[E:.*]] = arith.addf %[[PE]], %[[CE]] : f64
// CHECK-NEXT:      %[[SB:.*]] = arith.bitcast %[[S]] : f64 to i64
// CHECK-NEXT:      %[[EB:.*]] = arith.bitcast %[[E]] : f64 to i64
// CHECK:           %[[INEXACT:.*]] = arith.cmpf one, %[[E]], %{{.*}} : f64
// CHECK-NEXT:      %[[EXPONENT:.*]] = arith.constant 9218868437227405312 : i64
// CHECK:           %[[HIGH:.*]] = arith.andi %[[SB]], %[[EXPONENT]] : i64
// CHECK-NEXT:      %[[FINITE:.*]] = arith.cmpi ne, %[[HIGH]], %[[EXPONENT]] : i64
// CHECK:           %[[LOW:.*]] = arith.andi %[[SB]], %{{.*}} : i64
// CHECK-NEXT:      %[[EVEN:.*]] = arith.cmpi eq, %[[LOW]], %{{.*}} : i64
// CHECK-NEXT:      %[[XOR:.*]] = arith.xori %[[SB]], %[[EB]] : i64
// CHECK-NEXT:      %[[SAME:.*]] = arith.cmpi sge, %[[XOR]], %{{.*}} : i64
// CHECK:           %[[STEP:.*]] = arith.select %[[SAME]], %{{.*}}, %{{.*}} : i64
// CHECK-NEXT:      %[[MOVED:.*]] = arith.addi %[[SB]], %[[STEP]] : i64
// CHECK-NEXT:      %[[ADJ0:.*]] = arith.andi %[[INEXACT]], %[[FINITE]] : i1
// CHECK-NEXT:      %[[ADJ:.*]] = arith.andi %[[ADJ0]], %[[EVEN]] : i1
// CHECK-NEXT:      %[[BITS:.*]] = arith.select %[[ADJ]], %[[MOVED]], %[[SB]] : i64
// CHECK-NEXT:      %[[ODD:.*]] = arith.bitcast %[[BITS]] : i64 to f64
// CHECK-NEXT:      %[[F:.*]] = arith.truncf %[[ODD]] : f64 to f32
// CHECK-NEXT:      %[[G:.*]] = math.fma %[[X]], %[[Y]], %[[F]] {coopvec.accumulate} : f32
// CHECK-NEXT:      %[[V0:.*]] = arith.extf %[[Z]] : f32 to f64
// CHECK:           %[[W0:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK-NEXT:      %[[V1:.*]] = arith.extf %[[Z]] : f32 to f64
// CHECK:           %[[W1:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK-NEXT:      %[[TID:.*]] = gpu.thread_id x
// CHECK-NEXT:      memref.store %[[G]], %[[O]][%[[TID]]]
// CHECK-NEXT:      memref.store %[[W1]], %[[O]][%[[TID]]]
// CHECK-NOT:       math.fma
// CHECK-NOT:       vector.fma
// OPTS-LABEL: gpu.func @fma32(
// OPTS:            arith.truncf %{{.*}} : f64 to f32
// OPTS:            math.fma %{{.*}} {coopvec.accumulate} : f32
module attributes {gpu.container_module} {
  gpu.module @coopvec_kernels {
    gpu.func @fma32(%x: f32, %y: f32, %z: f32, %o: memref<?xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %f = math.fma %x, %y, %z : f32
      %g = math.fma %x, %y, %f {coopvec.accumulate} : f32
      %v = vector.broadcast %z : f32 to vector<2xf32>
      %w = vector.fma %v, %v, %v : vector<2xf32>
      %h = vector.extract %w[1] : f32 from vector<2xf32>
      %t = gpu.thread_id x
      memref.store %g, %o[%t] : memref<?xf32>
      memref.store %h, %o[%t] : memref<?xf32>
      gpu.return
    }
  }
}

// -----

// Local arrays: an atomic on one (private memory) becomes load, combine,
// store, its result the loaded value; an array of index holds i32 (the
// SPIR-V conversion's index width; i64 with index-bitwidth=64), with
// index_cast at its loads and stores.
// CHECK-LABEL: gpu.func @local(
// CHECK-SAME:      %[[V:.*]]: f32, %[[N:.*]]: index, %[[O:.*]]: memref<?xf32>)
// CHECK:           %[[F:.*]] = memref.alloca() : memref<4xf32, #spirv.storage_class<Function>>
// CHECK-NEXT:      %[[X:.*]] = memref.alloca() : memref<2xi32, #spirv.storage_class<Function>>
// CHECK-NEXT:      %[[OLD:.*]] = memref.load %[[F]][%[[C1:.*]]] : memref<4xf32, #spirv.storage_class<Function>>
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %[[OLD]], %[[V]] : f32
// CHECK-NEXT:      memref.store %[[SUM]], %[[F]][%[[C1]]]
// CHECK:           %[[NI:.*]] = arith.index_cast %[[N]] : index to i32
// CHECK-NEXT:      memref.store %[[NI]], %[[X]][%[[C1]]] : memref<2xi32, #spirv.storage_class<Function>>
// CHECK-NEXT:      %[[L:.*]] = memref.load %[[X]][%[[C1]]] : memref<2xi32, #spirv.storage_class<Function>>
// CHECK-NEXT:      %[[LI:.*]] = arith.index_cast %[[L]] : i32 to index
// CHECK-NEXT:      memref.store %[[OLD]], %[[O]][%[[LI]]] : memref<?xf32>
// CHECK-NOT:       memref.atomic_rmw
// OPTS-LABEL: gpu.func @local(
// OPTS:            memref.alloca() : memref<2xi32, #spirv.storage_class<Function>>
// INDEX64-LABEL: gpu.func @local(
// INDEX64:         memref.alloca() : memref<2xi64, #spirv.storage_class<Function>>
// INDEX64:         arith.index_cast %{{.*}} : index to i64
module attributes {gpu.container_module} {
  gpu.module @coopvec_kernels {
    gpu.func @local(%v: f32, %n: index, %o: memref<?xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c1 = arith.constant 1 : index
      %f = memref.alloca() : memref<4xf32>
      %x = memref.alloca() : memref<2xindex>
      %old = memref.atomic_rmw addf %v, %f[%c1] : (f32, memref<4xf32>) -> f32
      memref.store %n, %x[%c1] : memref<2xindex>
      %l = memref.load %x[%c1] : memref<2xindex>
      memref.store %old, %o[%l] : memref<?xf32>
      gpu.return
    }
  }
}

// -----

// An i8 atomic (Vulkan has none) is a compare-and-swap loop on its 32-bit
// word, index >> 2, whose byte at 8 * (index & 3) is combined in i32:
// sign-extended for maxs / mins; the old byte is the atomic's result.
// CHECK-LABEL: gpu.func @bytes(
// CHECK-SAME:      %{{.*}}: index, %[[V:.*]]: i8, %[[I:.*]]: index, %[[B:.*]]: memref<?xi8>)
// CHECK:           %[[V32:.*]] = arith.extsi %[[V]] : i8 to i32
// CHECK-NEXT:      %[[I32:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK:           %[[WORD:.*]] = arith.shrui %[[I32]], %{{.*}} : i32
// CHECK:           %[[LOW:.*]] = arith.andi %[[I32]], %{{.*}} : i32
// CHECK:           %[[SHIFT:.*]] = arith.muli %[[LOW]], %{{.*}} : i32
// CHECK:           %[[OLD:.*]] = scf.while (%[[E:.*]] = %{{.*}}) : (i32) -> i32 {
// CHECK:             %[[EB:.*]] = arith.shrui %[[E]], %[[SHIFT]] : i32
// CHECK:             %[[UP:.*]] = arith.shli %[[EB]], %{{.*}} : i32
// CHECK:             %[[SB:.*]] = arith.shrsi %[[UP]], %{{.*}} : i32
// CHECK-NEXT:        %[[MAX:.*]] = arith.maxsi %[[SB]], %[[V32]] : i32
// CHECK:             %[[GOT:.*]] = spirv.GL.SClamp %[[WORD]], %[[E]], %{{.*}} {coopvec.atomic = "cas", coopvec.atomic_arg = 3 : i64} : i32
// CHECK:           arith.trunci %{{.*}} : i32 to i8
// CHECK:           arith.extui %{{.*}} : i8 to i32
// CHECK:           arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NOT:       memref.atomic_rmw
module attributes {gpu.container_module} {
  gpu.module @coopvec_kernels {
    gpu.func @bytes(%n: index, %v: i8, %i: index, %b: memref<?xi8>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %old = memref.atomic_rmw maxs %v, %b[%i] : (i8, memref<?xi8>) -> i8
      %x = memref.atomic_rmw addi %old, %b[%i] : (i8, memref<?xi8>) -> i8
      gpu.return
    }
  }
}

// -----

// f16 values extended to f32 pass through an integer or with 0 at run time
// (the first integer argument >> 31), which no driver can fold away with a
// truncf before them (NVIDIA's did); opaque-f16-extension=false (OPTS)
// leaves them.
// CHECK-LABEL: gpu.func @widen(
// CHECK-SAME:      %[[N:.*]]: index, %[[X:.*]]: f32, %[[O:.*]]: memref<?xf32>)
// CHECK:           %[[N32:.*]] = arith.index_cast %[[N]] : index to i32
// CHECK:           %[[HIGH:.*]] = arith.shrui %[[N32]], %{{.*}} : i32
// CHECK:           %[[Z:.*]] = arith.trunci %[[HIGH]] : i32 to i16
// CHECK:           %[[H:.*]] = arith.truncf %[[X]] : f32 to f16
// CHECK-NEXT:      %[[BITS:.*]] = arith.bitcast %[[H]] : f16 to i16
// CHECK-NEXT:      %[[KEPT:.*]] = arith.ori %[[BITS]], %[[Z]] : i16
// CHECK-NEXT:      %[[H2:.*]] = arith.bitcast %[[KEPT]] : i16 to f16
// CHECK-NEXT:      %[[W:.*]] = arith.extf %[[H2]] : f16 to f32
// CHECK-NEXT:      %[[S:.*]] = arith.mulf %[[W]], %[[W]] : f32
// OPTS-LABEL: gpu.func @widen(
// OPTS:            %[[H:.*]] = arith.truncf %{{.*}} : f32 to f16
// OPTS-NEXT:       %[[W:.*]] = arith.extf %[[H]] : f16 to f32
module attributes {gpu.container_module} {
  gpu.module @coopvec_kernels {
    gpu.func @widen(%n: index, %x: f32, %o: memref<?xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %h = arith.truncf %x : f32 to f16
      %w = arith.extf %h : f16 to f32
      %s = arith.mulf %w, %w : f32
      memref.store %s, %o[%c0] : memref<?xf32>
      gpu.return
    }
  }
}
