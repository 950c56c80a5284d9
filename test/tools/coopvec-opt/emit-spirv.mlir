// --emit=spirv writes the SPIR-V binary of the module after
// coopvec-lower-to-spirv (the gpu.binary's words, or the nested spirv.module
// serialized when binary=false); spirv-val accepts it for Vulkan 1.2 and
// spirv-dis shows the kernel ABI (docs/execution-model.md, "The Vulkan
// kernel ABI"). SPIR-V 1.4: each entry point lists every global variable
// it uses, which spirv-val checks from 1.4 on.
// REQUIRES: spirv-val
// RUN: coopvec-opt %s --coopvec-lower-to-spirv="subgroup-size=8" --emit=spirv -o %t.spv
// RUN: %spirv_val --target-env vulkan1.2 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// RUN: coopvec-opt %s --coopvec-lower-to-spirv="binary=false atomic-float=true" --emit=spirv -o %t.fadd.spv
// RUN: %spirv_val --target-env vulkan1.2 %t.fadd.spv
// RUN: spirv-dis %t.fadd.spv | FileCheck %s --check-prefix=FADD

// CHECK:      ; SPIR-V
// CHECK-NEXT: ; Version: 1.4
// CHECK:      OpCapability Shader
// CHECK-DAG:  OpCapability SignedZeroInfNanPreserve
// CHECK-DAG:  OpCapability GroupNonUniformArithmetic
// CHECK-DAG:  OpExtension "SPV_KHR_float_controls"
// CHECK:      OpMemoryModel Logical GLSL450
// CHECK-NEXT: OpEntryPoint GLCompute %[[F:.*]] "scale_kernel"
// CHECK-NEXT: OpEntryPoint GLCompute %[[G:.*]] "accumulate_kernel"
// CHECK-NEXT: OpExecutionMode %[[F]] LocalSize 64 1 1
// CHECK-NEXT: OpExecutionMode %[[G]] LocalSize 64 1 1
// CHECK-NEXT: OpExecutionMode %[[F]] SignedZeroInfNanPreserve 32
// CHECK-NEXT: OpExecutionMode %[[G]] SignedZeroInfNanPreserve 32
// CHECK-DAG:  OpDecorate %scale_kernel_arg_0 DescriptorSet 0
// CHECK-DAG:  OpDecorate %scale_kernel_arg_0 Binding 0
// CHECK-DAG:  OpDecorate %scale_kernel_arg_1 Binding 1
// CHECK-DAG:  OpDecorate %scale_kernel_arg_2 Binding 2
// CHECK-DAG:  OpDecorate %scale_kernel_arg_3 Binding 3
// CHECK-DAG:  OpDecorate %accumulate_kernel_arg_2 Binding 2
// CHECK-DAG:  OpDecorate %accumulate_kernel_arg_2 Aliased
// CHECK-DAG:  OpDecorate %accumulate_kernel_arg_2_words Binding 2
// CHECK-DAG:  OpDecorate %accumulate_kernel_arg_2_words Aliased
// CHECK-DAG:  OpDecorate %{{.*}} NoContraction
// CHECK:      OpAtomicCompareExchange
// FADD:       OpCapability AtomicFloat32AddEXT
// FADD:       OpExtension "SPV_EXT_shader_atomic_float_add"
// FADD-NOT:   _words
// FADD:       OpAtomicFAddEXT

func.func @scale(%x: !coopvec.vec<3, f32>, %s: f32) -> !coopvec.vec<3, f32> {
  %y = "coopvec.mul"(%x, %s) : (!coopvec.vec<3, f32>, f32) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

func.func @accumulate(%v: !coopvec.vec<2, f32>, %g: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  "coopvec.reduce_sum_accumulate"(%v, %g, %c1) : (!coopvec.vec<2, f32>, memref<?xf32>, index) -> ()
  return
}
