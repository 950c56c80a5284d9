// RUN: coopvec-opt --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(spirv.module(coopvec-finish-spirv))' %s

// A placeholder whose buffer has no global variable yet: the pass runs
// after spirv-lower-abi-attrs.
spirv.module Logical GLSL450 {
  spirv.func @k(%arg: !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>) "None" {
    %i = spirv.Constant 3 : i32
    // expected-error@+1 {{'spirv.GL.SClamp' op is an atomic placeholder of coopvec-prepare-spirv whose buffer has no global variable <kernel>_arg_<i> (run coopvec-finish-spirv after spirv-lower-abi-attrs)}}
    %0 = spirv.GL.SClamp %i, %i, %i {coopvec.atomic = "cas", coopvec.atomic_arg = 0 : i64} : i32
    spirv.Return
  }
}
