// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(coopvec-nest-spirv)' %s | FileCheck %s

// convert-gpu-to-spirv puts `spirv.module @__spv__<name>` beside
// `gpu.module @<name>`; gpu-module-to-binary serializes the spirv.module
// inside a gpu.module. It moves in, the gpu.funcs go, their coopvec.*
// attributes stay on the spirv.funcs of the same name.
// CHECK-LABEL: module attributes {gpu.container_module} {
// CHECK-NEXT:    gpu.module @coopvec_kernels [#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, api=Vulkan, #spirv.resource_limits<>>] {
// CHECK-NEXT:      spirv.module @__spv__coopvec_kernels Logical GLSL450 {
// CHECK-NEXT:        spirv.func @f_kernel() "None" attributes {coopvec.block_size = 64 : i64, coopvec.subgroup_size = 8 : i64, coopvec.workgroup_memory = 0 : i64, other = 1 : i64} {
// CHECK-NEXT:          spirv.Return
// CHECK-NEXT:        }
// CHECK-NEXT:        spirv.func @helper() "None" {
// CHECK-NEXT:          spirv.Return
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.func @host()
// CHECK-NOT:     gpu.func
module attributes {gpu.container_module} {
  spirv.module @__spv__coopvec_kernels Logical GLSL450 {
    spirv.func @f_kernel() "None" attributes {other = 1 : i64} {
      spirv.Return
    }
    spirv.func @helper() "None" {
      spirv.Return
    }
  }
  gpu.module @coopvec_kernels [#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, api=Vulkan, #spirv.resource_limits<>>] {
    gpu.func @f_kernel() kernel attributes {coopvec.block_size = 64 : i64, coopvec.subgroup_size = 8 : i64, coopvec.workgroup_memory = 0 : i64, known_block_size = array<i32: 64, 1, 1>} {
      gpu.return
    }
  }
  func.func @host() {
    return
  }
}

// -----

// Nothing to do without a spirv.module.
// CHECK-LABEL: module attributes {gpu.container_module} {
// CHECK-NEXT:    gpu.module @kernels {
// CHECK-NEXT:      gpu.func @k() kernel {
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
