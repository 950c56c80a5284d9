// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(spirv.module(coopvec-finish-spirv))' %s | FileCheck %s
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(spirv.module(coopvec-finish-spirv{signed-zero-inf-nan-preserve=false}))' %s | FileCheck %s --check-prefix=NOMODE
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(spirv.module(coopvec-finish-spirv{denorm-preserve=false}))' %s | FileCheck %s --check-prefix=NODENORM
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(spirv.module(coopvec-finish-spirv{rounding-mode-rte=false}))' %s | FileCheck %s --check-prefix=NORTE

// Float arithmetic is decorated NoContraction; every entry point gets the
// SignedZeroInfNanPreserve, DenormPreserve and RoundingModeRTE modes for
// 32-bit floats (and 16-bit ones: the module has f16 values; RoundingModeRTE
// for 64-bit ones only where there are f64 values, the second module). The atomic placeholders of coopvec-prepare-spirv
// become atomics on kernel argument 1 (`@k_arg_1`, f32 atomic add) and on
// an aliased i32 view of argument 2 (`@k_arg_2_words`, on the same set and
// binding, made once).
// CHECK-LABEL: spirv.module Logical GLSL450 {
// CHECK-NEXT:    spirv.GlobalVariable @k_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
// CHECK-NEXT:    spirv.GlobalVariable @k_arg_2_words bind(0, 2) {aliased} : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
// CHECK-NEXT:    spirv.GlobalVariable @k_arg_2 bind(0, 2) {aliased} : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>
// CHECK-NEXT:    spirv.func @k() "None" {
// CHECK-DAG:       %[[I:.*]] = spirv.Constant 3 : i32
// CHECK-DAG:       %[[V:.*]] = spirv.Constant 1.500000e+00 : f32
// CHECK-DAG:       %[[H:.*]] = spirv.Constant 1.500000e+00 : f16
// CHECK:           %[[BITS:.*]] = spirv.Bitcast %[[V]] : f32 to i32
// CHECK-NEXT:      %[[A1:.*]] = spirv.mlir.addressof @k_arg_1
// CHECK-NEXT:      %[[Z1:.*]] = spirv.Constant 0 : i32
// CHECK-NEXT:      %[[P1:.*]] = spirv.AccessChain %[[A1]][%[[Z1]], %[[I]]] : {{.*}} -> !spirv.ptr<f32, StorageBuffer>
// CHECK-NEXT:      %[[VF:.*]] = spirv.Bitcast %[[BITS]] : i32 to f32
// CHECK-NEXT:      %[[OLD:.*]] = spirv.EXT.AtomicFAdd <Device> <None> %[[P1]], %[[VF]] : !spirv.ptr<f32, StorageBuffer>
// CHECK-NEXT:      %[[OLDBITS:.*]] = spirv.Bitcast %[[OLD]] : f32 to i32
// CHECK-NEXT:      %[[E:.*]] = spirv.Constant 0 : i32
// CHECK-NEXT:      %[[A2:.*]] = spirv.mlir.addressof @k_arg_2_words
// CHECK-NEXT:      %[[Z2:.*]] = spirv.Constant 0 : i32
// CHECK-NEXT:      %[[P2:.*]] = spirv.AccessChain %[[A2]][%[[Z2]], %[[I]]] : {{.*}} -> !spirv.ptr<i32, StorageBuffer>
// CHECK-NEXT:      %[[GOT:.*]] = spirv.AtomicCompareExchange <Device> <None> <None> %[[P2]], %[[BITS]], %[[E]] : !spirv.ptr<i32, StorageBuffer>
// CHECK-NEXT:      %[[A3:.*]] = spirv.mlir.addressof @k_arg_2_words
// CHECK:           %[[GOT2:.*]] = spirv.AtomicCompareExchange <Device> <None> <None> %{{.*}}, %[[BITS]], %[[GOT]]
// CHECK-NEXT:      %{{.*}} = spirv.FAdd %[[V]], %[[V]] {no_contraction} : f32
// CHECK-NEXT:      %{{.*}} = spirv.FMul %[[V]], %[[V]] {no_contraction} : f32
// CHECK-NEXT:      %{{.*}} = spirv.FNegate %[[H]] {no_contraction} : f16
// CHECK-NEXT:      %{{.*}} = spirv.GL.Fma %[[V]], %[[V]], %[[V]] {no_contraction} : f32
// CHECK-NEXT:      %{{.*}} = spirv.IAdd %[[OLDBITS]], %[[GOT2]] : i32
// CHECK-NOT:       coopvec.atomic
// CHECK:         spirv.EntryPoint "GLCompute" @k
// CHECK-NEXT:    spirv.ExecutionMode @k "LocalSize", 64, 1, 1
// CHECK-NEXT:    spirv.ExecutionMode @k "SignedZeroInfNanPreserve", 32
// CHECK-NEXT:    spirv.ExecutionMode @k "SignedZeroInfNanPreserve", 16
// CHECK-NEXT:    spirv.ExecutionMode @k "DenormPreserve", 32
// CHECK-NEXT:    spirv.ExecutionMode @k "DenormPreserve", 16
// CHECK-NEXT:    spirv.ExecutionMode @k "RoundingModeRTE", 32
// CHECK-NEXT:    spirv.ExecutionMode @k "RoundingModeRTE", 16
// CHECK-NEXT:  }
// NOMODE:        spirv.ExecutionMode @k "LocalSize", 64, 1, 1
// NOMODE-NOT:    SignedZeroInfNanPreserve
// NOMODE:        spirv.ExecutionMode @k "DenormPreserve", 32
// NODENORM:      spirv.ExecutionMode @k "SignedZeroInfNanPreserve", 16
// NODENORM-NOT:  DenormPreserve
// NORTE:         spirv.ExecutionMode @k "DenormPreserve", 16
// NORTE-NOT:     RoundingModeRTE
spirv.module Logical GLSL450 {
  spirv.GlobalVariable @k_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @k_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>
  spirv.func @k() "None" {
    %i = spirv.Constant 3 : i32
    %v = spirv.Constant 1.5 : f32
    %h = spirv.Constant 1.5 : f16
    %bits = spirv.Bitcast %v : f32 to i32
    %0 = spirv.GL.SClamp %i, %bits, %bits {coopvec.atomic = "fadd", coopvec.atomic_arg = 1 : i64} : i32
    %e = spirv.Constant 0 : i32
    %1 = spirv.GL.SClamp %i, %e, %bits {coopvec.atomic = "cas", coopvec.atomic_arg = 2 : i64} : i32
    %2 = spirv.GL.SClamp %i, %1, %bits {coopvec.atomic = "cas", coopvec.atomic_arg = 2 : i64} : i32
    %s = spirv.FAdd %v, %v : f32
    %m = spirv.FMul %v, %v : f32
    %n = spirv.FNegate %h : f16
    %f = spirv.GL.Fma %v, %v, %v : f32
    %x = spirv.IAdd %0, %2 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @k
  spirv.ExecutionMode @k "LocalSize", 64, 1, 1
}

// -----

// f64 values (the wide fmas of coopvec-prepare-spirv) and no f16 ones:
// RoundingModeRTE for 32- and 64-bit floats, the others for 32-bit ones.
// CHECK-LABEL: spirv.module Logical GLSL450 {
// CHECK:         spirv.FConvert %{{.*}} : f64 to f32
// CHECK:         spirv.ExecutionMode @w "LocalSize", 64, 1, 1
// CHECK-NEXT:    spirv.ExecutionMode @w "SignedZeroInfNanPreserve", 32
// CHECK-NEXT:    spirv.ExecutionMode @w "DenormPreserve", 32
// CHECK-NEXT:    spirv.ExecutionMode @w "RoundingModeRTE", 32
// CHECK-NEXT:    spirv.ExecutionMode @w "RoundingModeRTE", 64
// CHECK-NEXT:  }
// NORTE-LABEL:   spirv.func @w
// NORTE-NOT:     RoundingModeRTE
spirv.module Logical GLSL450 {
  spirv.func @w() "None" {
    %v = spirv.Constant 1.5 : f32
    %d = spirv.FConvert %v : f32 to f64
    %p = spirv.FMul %d, %d : f64
    %r = spirv.FConvert %p : f64 to f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @w
  spirv.ExecutionMode @w "LocalSize", 64, 1, 1
}
