// coopvec-lower-to-spirv: coopvec IR to a gpu.binary holding SPIR-V for
// Vulkan (docs/execution-model.md, "The Vulkan kernel ABI");
// `coopvec-opt --emit=spirv` writes the words (test/tools/coopvec-opt/
// emit-spirv.mlir validates them with spirv-val).
// RUN: coopvec-opt %s --coopvec-lower-to-spirv | FileCheck %s --check-prefix=BINARY
// RUN: coopvec-opt %s --pass-pipeline='builtin.module(coopvec-lower-to-spirv{binary=true})' | FileCheck %s --check-prefix=BINARY
// binary=false stops before gpu-module-to-binary: the gpu.module holds the
// spirv.module alone, whose kernels keep the launch contract.
// RUN: coopvec-opt %s --coopvec-lower-to-spirv="binary=false subgroup-size=8" | FileCheck %s
// RUN: coopvec-opt %s --coopvec-lower-to-spirv="mode=portable binary=false block-size=128 atomic-float=true signed-zero-inf-nan-preserve=false denorm-preserve=false rounding-mode-rte=false" | FileCheck %s --check-prefix=OPTIONS
// mode=auto is resolved by what the device has.
// RUN: coopvec-opt %s --coopvec-lower-to-spirv="mode=auto device-cooperative-matrix=false binary=false subgroup-size=8" | FileCheck %s
// RUN: coopvec-opt %s --coopvec-lower-to-spirv="mode=auto device-cooperative-matrix=true binary=false" | FileCheck %s --check-prefix=COOP
// RUN: coopvec-opt %s --coopvec-lower-to-spirv="mode=cooperative-matrix binary=false cooperative-matrix-shapes=16x8x16,16x16x16 workgroup-size=32" | FileCheck %s --check-prefix=COOP
// The serialized module is the same either way.
// RUN: coopvec-opt %s --coopvec-lower-to-spirv --emit=spirv -o %t.bin.spv
// RUN: coopvec-opt %s --coopvec-lower-to-spirv=binary=false --emit=spirv -o %t.module.spv
// RUN: cmp %t.bin.spv %t.module.spv

// Errors, at the pipeline's name before anything runs.
// RUN: not coopvec-opt %s --coopvec-lower-to-spirv=mode=auto 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: not coopvec-opt %s --coopvec-lower-to-spirv=mode=fast 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not coopvec-opt %s --coopvec-lower-to-spirv=lanes=3 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not coopvec-opt %s --coopvec-lower-to-spirv=subgroup-size=24 2>&1 | FileCheck %s --check-prefix=SUBGROUP
// RUN: not coopvec-opt %s --coopvec-lower-to-spirv="subgroup-size=32 block-size=48" 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not coopvec-opt %s --coopvec-lower-to-spirv="mode=cooperative-matrix subgroup-size=8" 2>&1 | FileCheck %s --check-prefix=COOP-SUBGROUP
// RUN: not coopvec-opt %s --coopvec-lower-to-spirv="binary=maybe" 2>&1 | FileCheck %s --check-prefix=BOOL
// RUN: not coopvec-opt %s --coopvec-lower-to-spirv="rounding-mode-rte=yes" 2>&1 | FileCheck %s --check-prefix=BOOL-RTE
// RUN: not coopvec-opt %s --coopvec-lower-to-spirv="emulate-mma=1" 2>&1 | FileCheck %s --check-prefix=BOOL-EMULATE
// RUN: not coopvec-opt %s --coopvec-lower-to-spirv="training=warp" 2>&1 | FileCheck %s --check-prefix=TRAINING
// RUN: not coopvec-opt %s --coopvec-lower-to-spirv="mma-regions=true" 2>&1 | FileCheck %s --check-prefix=REGIONS
// RUN: not coopvec-opt %s --coopvec-lower-to-spirv="mma-regions=yes emulate-mma=true" 2>&1 | FileCheck %s --check-prefix=BOOL-REGIONS
// emulate-mma: the tensor-core schedule's staging in workgroup memory, its
// tile products as FMAs, in portable mode and in cooperative-matrix mode
// (whose subgroup size then need not be a multiple of 16): no cooperative
// matrix anywhere.
// RUN: coopvec-opt %s --coopvec-lower-to-spirv="binary=false subgroup-size=8 emulate-mma=true" | FileCheck %s --check-prefix=EMULATE
// RUN: coopvec-opt %s --coopvec-lower-to-spirv="mode=cooperative-matrix binary=false subgroup-size=8 emulate-mma=true" | FileCheck %s --check-prefix=EMULATE
// EMULATE:     spirv.module @__spv__coopvec_kernels Logical GLSL450 requires #spirv.vce<v1.4,
// EMULATE-NOT: CooperativeMatrix
// EMULATE:     spirv.GlobalVariable @__workgroup_mem__{{.*}} : !spirv.ptr<!spirv.struct<(!spirv.array<{{[0-9]+}} x f16>)>, Workgroup>
// EMULATE:     spirv.func @layer_kernel() "None" attributes {coopvec.block_size = 64 : i64, coopvec.subgroup_size = 8 : i64, coopvec.workgroup_memory = {{[1-9][0-9]*}} : i64
// EMULATE-NOT: CooperativeMatrix
// EMULATE:     spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
// EMULATE-NOT: CooperativeMatrix
// A cooperative-matrix multiply of a shape the device does not have.
// RUN: not coopvec-opt %s --coopvec-lower-to-spirv="mode=cooperative-matrix cooperative-matrix-shapes=16x8x16" 2>&1 | FileCheck %s --check-prefix=SHAPE
// SPIR-V from a module that has none; several modules.
// RUN: not coopvec-opt %s --emit=spirv 2>&1 | FileCheck %s --check-prefix=NOSPIRV
// RUN: not coopvec-opt %s --coopvec-lower-to-spirv --emit=spirv --split-input-file 2>&1 | FileCheck %s --check-prefix=SPLIT

// BINARY:      module attributes {gpu.container_module} {
// BINARY-NEXT:   gpu.binary @coopvec_kernels [#gpu.object<#spirv.target_env<#spirv.vce<v1.4, {{.*}}>, api=Vulkan, #spirv.resource_limits<{{.*}}>>, bin = "{{.*}}">]
// BINARY-NEXT: }

// Portable: each function is one kernel @<f>_kernel; argument i is the
// storage buffer @<f>_kernel_arg_i in set 0, binding i (%n and scalars a
// struct of one i32 / f32, vecs and memrefs runtime arrays of their element
// type); f16 data is widened to f32; the training ops reduce over the
// subgroup and lane 0 (SubgroupLocalInvocationId) adds the sum by a
// compare-and-swap loop on an aliased i32 view of the gradient. Float
// arithmetic is NoContraction, signed zeros, infinities and NaNs are
// preserved.
// CHECK:      module attributes {gpu.container_module} {
// CHECK-NEXT:   gpu.module @coopvec_kernels [#spirv.target_env<#spirv.vce<v1.4, [{{.*}}]>, api=Vulkan, #spirv.resource_limits<{{.*}}subgroup_size = 8>>] attributes {spirv.target_env = {{.*}}} {
// CHECK-NEXT:     spirv.module @__spv__coopvec_kernels Logical GLSL450 requires #spirv.vce<v1.4, [Shader, StorageBuffer16BitAccess, Int16, Float16, GroupNonUniformArithmetic, SignedZeroInfNanPreserve, DenormPreserve, RoundingModeRTE, Matrix, GroupNonUniform], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_16bit_storage, SPV_KHR_float_controls]>
// CHECK-DAG:        spirv.GlobalVariable @layer_kernel_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
// CHECK-DAG:        spirv.GlobalVariable @layer_kernel_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>
// CHECK-DAG:        spirv.GlobalVariable @layer_kernel_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>
// CHECK-DAG:        spirv.GlobalVariable @layer_kernel_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>
// CHECK-DAG:        spirv.GlobalVariable @layer_kernel_arg_4 bind(0, 4) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
// CHECK:            spirv.func @layer_kernel() "None" attributes {coopvec.block_size = 64 : i64, coopvec.subgroup_size = 8 : i64, coopvec.workgroup_memory = 0 : i64
// CHECK:              spirv.FConvert %{{.*}} : f16 to f32
// CHECK:              spirv.GL.Fma {{.*}} {no_contraction} : f32
// CHECK:              spirv.FMul {{.*}} {no_contraction} : f32
// CHECK-DAG:        spirv.GlobalVariable @grad_kernel_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
// CHECK-DAG:        spirv.GlobalVariable @grad_kernel_arg_2_words bind(0, 2) {aliased} : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
// CHECK-DAG:        spirv.GlobalVariable @grad_kernel_arg_2 bind(0, 2) {aliased} : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
// CHECK-DAG:        spirv.GlobalVariable @grad_kernel_arg_3_words bind(0, 3) {aliased} : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
// CHECK-DAG:        spirv.GlobalVariable @grad_kernel_arg_3 bind(0, 3) {aliased} : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>
// CHECK:            spirv.func @grad_kernel()
// CHECK:              spirv.Load "Input" %__builtin__SubgroupLocalInvocationId___addr : i32
// CHECK:              spirv.GroupNonUniformFAdd <Subgroup> <Reduce> %{{.*}} : f32 -> f32
// CHECK:              spirv.mlir.loop {
// CHECK:                spirv.AtomicCompareExchange <Device> <None> <None> %{{.*}}, %{{.*}}, %{{.*}} : !spirv.ptr<i32, StorageBuffer>
// CHECK:              spirv.GL.UnpackHalf2x16
// CHECK:              spirv.GL.PackHalf2x16
// CHECK:              spirv.AtomicCompareExchange
// CHECK-NOT:          spirv.EXT.AtomicFAdd
// SPIR-V 1.4: each entry point's interface lists every global variable its
// function uses (the buffers too), which tells a driver its workgroup
// memory (docs/passes.md, coopvec-declare-spirv-capabilities).
// CHECK:            spirv.EntryPoint "GLCompute" @layer_kernel, @layer_kernel_arg_0, @layer_kernel_arg_1, @layer_kernel_arg_2, @layer_kernel_arg_3, @layer_kernel_arg_4, @__builtin__LocalInvocationId__, @__builtin__WorkgroupId__
// CHECK-NEXT:       spirv.ExecutionMode @layer_kernel "LocalSize", 64, 1, 1
// CHECK-NEXT:       spirv.EntryPoint "GLCompute" @grad_kernel, @grad_kernel_arg_0, @grad_kernel_arg_1, @grad_kernel_arg_2, @grad_kernel_arg_3, @__builtin__LocalInvocationId__, @__builtin__WorkgroupId__, @__builtin__SubgroupLocalInvocationId__, @grad_kernel_arg_2_words, @grad_kernel_arg_3_words
// CHECK-NEXT:       spirv.ExecutionMode @grad_kernel "LocalSize", 64, 1, 1
// CHECK-NEXT:       spirv.ExecutionMode @layer_kernel "SignedZeroInfNanPreserve", 32
// CHECK-NEXT:       spirv.ExecutionMode @layer_kernel "SignedZeroInfNanPreserve", 16
// CHECK-NEXT:       spirv.ExecutionMode @grad_kernel "SignedZeroInfNanPreserve", 32
// CHECK-NEXT:       spirv.ExecutionMode @grad_kernel "SignedZeroInfNanPreserve", 16
// CHECK-NEXT:       spirv.ExecutionMode @layer_kernel "DenormPreserve", 32
// CHECK-NEXT:       spirv.ExecutionMode @layer_kernel "DenormPreserve", 16
// CHECK-NEXT:       spirv.ExecutionMode @grad_kernel "DenormPreserve", 32
// CHECK-NEXT:       spirv.ExecutionMode @grad_kernel "DenormPreserve", 16
// CHECK-NEXT:       spirv.ExecutionMode @layer_kernel "RoundingModeRTE", 32
// CHECK-NEXT:       spirv.ExecutionMode @layer_kernel "RoundingModeRTE", 16
// CHECK-NEXT:       spirv.ExecutionMode @grad_kernel "RoundingModeRTE", 32
// CHECK-NEXT:       spirv.ExecutionMode @grad_kernel "RoundingModeRTE", 16
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NOT:      gpu.func
// CHECK-NOT:      coopvec.atomic

// The bias gradients are summed per workgroup (training=block): no
// subgroup operation.
// OPTIONS:        spirv.module @__spv__coopvec_kernels Logical GLSL450 requires #spirv.vce<v1.4, [Float16, Shader, StorageBuffer16BitAccess, Int16, AtomicFloat32AddEXT, Matrix], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_16bit_storage, SPV_EXT_shader_atomic_float_add]>
// OPTIONS:          spirv.func @layer_kernel() "None" attributes {coopvec.block_size = 128 : i64, coopvec.subgroup_size = 32 : i64
// OPTIONS:          spirv.func @grad_kernel()
// OPTIONS:            spirv.EXT.AtomicFAdd <Device> <None> %{{.*}}, %{{.*}} : !spirv.ptr<f32, StorageBuffer>
// OPTIONS:            spirv.AtomicCompareExchange
// OPTIONS:          spirv.ExecutionMode @layer_kernel "LocalSize", 128, 1, 1
// OPTIONS-NOT:      SignedZeroInfNanPreserve
// OPTIONS-NOT:      DenormPreserve
// OPTIONS-NOT:      RoundingModeRTE

// Cooperative matrices: the f16 matvec multiplies 16x16x16 KHR cooperative
// matrices staged in workgroup memory (SPIR-V 1.6, which the KHR ops
// need); the capability and extension are in the module.
// COOP:           gpu.module @coopvec_kernels [#spirv.target_env<#spirv.vce<v1.6, [{{.*}}CooperativeMatrixKHR{{.*}}], [{{.*}}SPV_KHR_cooperative_matrix{{.*}}]>, api=Vulkan, #spirv.resource_limits<{{.*}}cooperative_matrix_properties_khr = [{{.*}}#spirv.coop_matrix_props_khr<m_size = 16, n_size = 16, k_size = 16, a_type = f16, b_type = f16, c_type = f32, result_type = f32, acc_sat = false, scope = <Subgroup>>{{.*}}]>>]
// COOP-NEXT:        spirv.module @__spv__coopvec_kernels Logical GLSL450 requires #spirv.vce<v1.6, [{{.*}}CooperativeMatrixKHR{{.*}}], [{{.*}}SPV_KHR_cooperative_matrix{{.*}}]>
// COOP:             spirv.GlobalVariable @__workgroup_mem__{{.*}} : !spirv.ptr<!spirv.struct<(!spirv.array<{{[0-9]+}} x f16>)>, Workgroup>
// COOP:             spirv.func @layer_kernel() "None" attributes {coopvec.block_size = {{32|64}} : i64, coopvec.subgroup_size = 32 : i64, coopvec.workgroup_memory = {{[1-9][0-9]*}} : i64
// COOP:               spirv.KHR.CooperativeMatrixLoad %{{.*}}, %{{.*}}, <RowMajor> : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>
// COOP:               spirv.KHR.CooperativeMatrixLoad %{{.*}}, %{{.*}}, <ColumnMajor> : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>
// COOP-NEXT:          spirv.KHR.CooperativeMatrixMulAdd %{{.*}}, %{{.*}}, %{{.*}} : !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>, !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB> -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
// COOP:               spirv.KHR.CooperativeMatrixStore %{{.*}}, %{{.*}}, %{{.*}}, <RowMajor> : !spirv.ptr<f32, Workgroup>, !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, i32
// COOP:             spirv.EntryPoint "GLCompute" @layer_kernel, @layer_kernel_arg_0, {{.*}}@__workgroup_mem__
// The aliased i32 view of a gradient is in the interface too (SPIR-V 1.4+).
// COOP:             spirv.EntryPoint "GLCompute" @grad_kernel, {{.*}}@grad_kernel_arg_2_words{{.*}}@grad_kernel_arg_3_words

// AUTO: error: in pipeline 'coopvec-lower-to-spirv': mode=auto chooses between portable and cooperative-matrix from what the device has, and no device was described: give device-cooperative-matrix=true|false (whether the device multiplies the cooperative-matrix-shapes; the execution engine passes what the device reports) or mode=portable|cooperative-matrix
// MODE: error: in pipeline 'coopvec-lower-to-spirv': mode=fast is not valid: expected portable, cooperative-matrix or auto
// OPTION: error: in pipeline 'coopvec-lower-to-spirv': unknown option 'lanes' (options: mode, device-cooperative-matrix, subgroup-size, block-size, workgroup-memory, atomic-float, cooperative-matrix-shapes, signed-zero-inf-nan-preserve, denorm-preserve, rounding-mode-rte, opaque-f16-extension, bounds-checks, reduce-mode, emulate-mma, mma-weights, training, mma-regions, binary)
// SUBGROUP: error: in pipeline 'coopvec-lower-to-spirv': subgroup-size=24 is not valid: expected a power of two from 1 to 128
// BLOCK: error: in pipeline 'coopvec-lower-to-spirv': block-size=48 must be a multiple of the subgroup size (32)
// COOP-SUBGROUP: error: in pipeline 'coopvec-lower-to-spirv': mode=cooperative-matrix stages the vectors of a subgroup as rows of 16 x 16 tiles: subgroup-size=8 must be a multiple of 16
// BOOL: error: in pipeline 'coopvec-lower-to-spirv': binary=maybe is not valid: expected true or false
// BOOL-RTE: error: in pipeline 'coopvec-lower-to-spirv': rounding-mode-rte=yes is not valid: expected true or false
// BOOL-EMULATE: error: in pipeline 'coopvec-lower-to-spirv': emulate-mma=1 is not valid: expected true or false
// TRAINING: error: in pipeline 'coopvec-lower-to-spirv': training=warp is not valid: expected block or subgroup
// REGIONS: error: in pipeline 'coopvec-lower-to-spirv': mma-regions=true needs emulate-mma=true on SPIR-V: the regions keep values in the mma.sync fragment layout, which cooperative matrices (opaque) do not expose (docs/execution-model.md, "Cooperative regions")
// BOOL-REGIONS: error: in pipeline 'coopvec-lower-to-spirv': mma-regions=yes is not valid: expected true or false
// SHAPE: error: 'gpu.subgroup_mma_compute' op multiplies 16x16x16 (MxNxK) cooperative matrices, which are not among the target's cooperative-matrix-shapes=16x8x16
// NOSPIRV: coopvec-opt: error: the module has no SPIR-V: neither a gpu.binary with a SPIR-V object nor a gpu.module holding a spirv.module (0 gpu.module ops; run coopvec-lower-to-spirv first)
// SPLIT: coopvec-opt: error: --emit=llvm/asm/obj/ptx/cubin/spirv produces one module and cannot be combined with --split-input-file

func.func @layer(%x: !coopvec.vec<3, f16>, %w: memref<?xf16>, %s: f32) -> !coopvec.vec<2, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<2, 3, f16, "row_major">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<2, 3, f16, "row_major">, !coopvec.vec<3, f16>) -> !coopvec.vec<2, f16>
  %z = "coopvec.cast"(%y) : (!coopvec.vec<2, f16>) -> !coopvec.vec<2, f32>
  %r = "coopvec.mul"(%z, %s) : (!coopvec.vec<2, f32>, f32) -> !coopvec.vec<2, f32>
  return %r : !coopvec.vec<2, f32>
}

func.func @grad(%v: !coopvec.vec<2, f32>, %g: memref<?xf32>, %h: memref<?xf16>) {
  %c0 = arith.constant 0 : index
  %vh = "coopvec.cast"(%v) : (!coopvec.vec<2, f32>) -> !coopvec.vec<2, f16>
  "coopvec.reduce_sum_accumulate"(%v, %g, %c0) : (!coopvec.vec<2, f32>, memref<?xf32>, index) -> ()
  "coopvec.reduce_sum_accumulate"(%vh, %h, %c0) : (!coopvec.vec<2, f16>, memref<?xf16>, index) -> ()
  return
}
