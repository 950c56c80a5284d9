// Every pipeline runs coopvec-expand-math: the math ops and arith.remf of a
// lowered program are arith + math.fma code on every target. On the CPU that is the
// whole module (per-thread functions after convert-coopvec-to-cpu, and the
// user's own functions on lane vectors), and the LLVM IR calls no libm
// function; for NVVM and SPIR-V the gpu.module, where no libdevice call
// (__nv_sinf) or GLSL extended instruction (GL.Sin, whose accuracy is the
// driver's) is left.
// RUN: coopvec-opt %s --pass-pipeline='builtin.module(coopvec-lower-to-cpu)' | FileCheck %s --check-prefix=CPU --implicit-check-not='math.{{(sin|cos|exp|exp2|log|log2|tanh|atan|atan2|erf|powf|rsqrt) }}' --implicit-check-not='{{arith.remf|llvm.frem}}'
// RUN: coopvec-opt %s --pass-pipeline='builtin.module(coopvec-lower-to-cpu)' --emit=llvm | FileCheck %s --check-prefix=LLVM --implicit-check-not='{{@(llvm\.)?(sin|cos|exp|exp2|log|log2|tanh|atan|atan2|erf|pow|sqrt|fmod)f?[.(]}}' --implicit-check-not=frem
// RUN: coopvec-opt %s --pass-pipeline='builtin.module(coopvec-lower-to-nvvm{binary=false})' | FileCheck %s --check-prefix=NVVM
// RUN: coopvec-opt %s --pass-pipeline='builtin.module(coopvec-lower-to-spirv{binary=false})' | FileCheck %s --check-prefix=SPIRV

// CPU-LABEL: llvm.func @f_batched(
// CPU: llvm.intr.fma
// CPU-LABEL: llvm.func @lanes(
// CPU: llvm.intr.fma{{.*}}vector<16xf32>

// No libm function and no LLVM math intrinsic but fma (the implicit
// check), and no call in the functions (LLVM intrinsics aside).
// LLVM: define void @f_batched(
// LLVM-NOT: call {{.*}}@{{[a-z_0-9]+}}(
// LLVM: define void @_mlir_ciface_f_batched(
// LLVM: define { <16 x float>, <16 x half> } @lanes(
// LLVM-NOT: call {{.*}}@{{[a-z_0-9]+}}(

// NVVM: gpu.module @coopvec_kernels
// NVVM-NOT: {{math\.|__nv_|llvm.frem}}
// NVVM: llvm.intr.fma
// NVVM-NOT: {{math\.|__nv_|llvm.frem}}

// SPIRV: spirv.module
// SPIRV-NOT: {{spirv.GL.(Sin|Cos|Exp|Exp2|Log|Log2|Tanh|Atan|Atan2|Pow|InverseSqrt)|spirv.FRem}}
// The library's f32 fmas are computed in f64 and rounded once
// (coopvec-prepare-spirv): GLSL Fma need not be fused.
// SPIRV: spirv.FMul {{.*}} : f64
// SPIRV: spirv.FConvert {{.*}} : f64 to f32
// SPIRV-NOT: {{spirv.GL.(Sin|Cos|Exp|Exp2|Log|Log2|Tanh|Atan|Atan2|Pow|InverseSqrt)|spirv.FRem}}

// Uniform math in a per-thread function (it runs in the lane loop on the
// CPU, in every thread of the kernel on GPUs).
func.func @f(%x: !coopvec.vec<4, f32>, %s: f32, %t: f32) -> !coopvec.vec<4, f32> {
  %0 = math.sin %s : f32
  %1 = math.cos %t : f32
  %2 = math.exp %0 : f32
  %3 = math.exp2 %1 : f32
  %4 = math.log %2 : f32
  %5 = math.log2 %3 : f32
  %6 = math.tanh %4 : f32
  %7 = math.atan %5 : f32
  %8 = math.atan2 %6, %7 : f32
  %9 = math.erf %8 : f32
  %10 = math.powf %9, %s : f32
  %11 = math.rsqrt %10 : f32
  %12 = arith.remf %11, %t : f32
  %y = "coopvec.mul"(%x, %12) : (!coopvec.vec<4, f32>, f32) -> !coopvec.vec<4, f32>
  return %y : !coopvec.vec<4, f32>
}

// The user's own code on lane vectors (CPU only: the GPU pipelines leave
// functions without coopvec values on the host).
func.func @lanes(%x: vector<16xf32>, %h: vector<16xf16>) -> (vector<16xf32>, vector<16xf16>) {
  %0 = math.sin %x : vector<16xf32>
  %1 = math.powf %0, %x : vector<16xf32>
  %2 = math.erf %h : vector<16xf16>
  %3 = arith.remf %1, %0 : vector<16xf32>
  %4 = arith.remf %2, %h : vector<16xf16>
  return %3, %4 : vector<16xf32>, vector<16xf16>
}
