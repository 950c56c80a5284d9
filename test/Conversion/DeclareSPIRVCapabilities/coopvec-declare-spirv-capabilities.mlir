// RUN: coopvec-opt --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(spirv.module(coopvec-declare-spirv-capabilities))' %s | FileCheck %s

// An atomic on a 64-bit integer (the status words of run-time bounds
// checks) needs Int64Atomics, which spirv-update-vce does not deduce.
// CHECK-LABEL: spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Int64Atomics, Shader, Int64], [SPV_KHR_storage_buffer_storage_class]>
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Int64], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.func @count(%p: !spirv.ptr<i64, StorageBuffer>, %v: i64) "None" {
    %old = spirv.AtomicIAdd <Device> <AcquireRelease> %p, %v : !spirv.ptr<i64, StorageBuffer>
    spirv.Return
  }
}

// -----

// 32-bit atomics need nothing more: the triple is left as it is.
// CHECK-LABEL: spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.func @count(%p: !spirv.ptr<i32, StorageBuffer>, %v: i32) "None" {
    %old = spirv.AtomicIAdd <Device> <AcquireRelease> %p, %v : !spirv.ptr<i32, StorageBuffer>
    spirv.Return
  }
}

// -----

// Declared already: not twice.
// CHECK-LABEL: spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Int64, Int64Atomics], [SPV_KHR_storage_buffer_storage_class]>
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Int64, Int64Atomics], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.func @smallest(%p: !spirv.ptr<i64, StorageBuffer>, %v: i64) "None" {
    %old = spirv.AtomicSMin <Device> <AcquireRelease> %p, %v : !spirv.ptr<i64, StorageBuffer>
    spirv.Return
  }
}

// -----

// Without a triple (spirv-update-vce has not run), nothing to add to.
// expected-error@+1 {{'spirv.module' op has 64-bit atomics but no 'vce_triple' (coopvec-declare-spirv-capabilities runs after spirv-update-vce)}}
spirv.module Logical GLSL450 {
  spirv.func @count(%p: !spirv.ptr<i64, StorageBuffer>, %v: i64) "None" {
    %old = spirv.AtomicIAdd <Device> <AcquireRelease> %p, %v : !spirv.ptr<i64, StorageBuffer>
    spirv.Return
  }
}

// -----

// An entry point whose interface lists a storage buffer (as
// spirv-lower-abi-attrs does for a SPIR-V 1.4 target) needs SPIR-V 1.4,
// which spirv-update-vce does not deduce: the version is raised.
// CHECK-LABEL: spirv.module Logical GLSL450 requires #spirv.vce<v1.4, [Shader], [SPV_KHR_storage_buffer_storage_class]>
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @id built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @k() "None" {
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @k, @id, @buf
}

// -----

// Input / Output variables only (a target before 1.4): left as it is; a
// version of 1.4 or later: left as it is.
// CHECK-LABEL: spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []>
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.GlobalVariable @id built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.func @k() "None" {
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @k, @id
}

// -----

// CHECK-LABEL: spirv.module Logical GLSL450 requires #spirv.vce<v1.6, [Shader], []>
spirv.module Logical GLSL450 requires #spirv.vce<v1.6, [Shader], []> {
  spirv.GlobalVariable @wg : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32>)>, Workgroup>
  spirv.func @k() "None" {
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @k, @wg
}

// -----

// Without a triple, no version to raise.
// expected-error@+1 {{'spirv.module' op lists storage buffers or workgroup memory in an entry point's interface but no 'vce_triple' (coopvec-declare-spirv-capabilities runs after spirv-update-vce)}}
spirv.module Logical GLSL450 {
  spirv.GlobalVariable @wg : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32>)>, Workgroup>
  spirv.func @k() "None" {
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @k, @wg
}
