// RUN: coopvec-opt --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(coopvec-nest-spirv)' %s

// expected-error@+1 {{'spirv.module' op is not named @__spv__<name> after a gpu.module @<name> beside it (what convert-gpu-to-spirv makes); coopvec-nest-spirv cannot place it}}
spirv.module @__spv__missing Logical GLSL450 {
}

// -----

// expected-error@+1 {{'spirv.module' op is not named @__spv__<name> after a gpu.module @<name> beside it (what convert-gpu-to-spirv makes); coopvec-nest-spirv cannot place it}}
spirv.module Logical GLSL450 {
}
