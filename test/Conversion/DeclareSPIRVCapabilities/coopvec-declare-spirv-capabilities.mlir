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
