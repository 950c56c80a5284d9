// RUN: coopvec-opt --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(coopvec-prepare-spirv))' %s
// RUN: not coopvec-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(coopvec-prepare-spirv{subgroup-size=12}))' 2>&1 | FileCheck %s --check-prefix=SUBGROUP
// RUN: not coopvec-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(coopvec-prepare-spirv{cooperative-matrix-shapes=16x16}))' 2>&1 | FileCheck %s --check-prefix=SHAPES
// SUBGROUP: error: subgroup-size=12 must be a power of two from 1 to 128 (in coopvec-prepare-spirv)
// RUN: not coopvec-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(coopvec-prepare-spirv{index-bitwidth=16}))' 2>&1 | FileCheck %s --check-prefix=INDEX
// INDEX: error: index-bitwidth=16 must be 32 or 64 (in coopvec-prepare-spirv)
// SHAPES: error: cooperative-matrix-shapes=16x16 is not a comma list of MxNxK shapes (at most 16, sides 1 to 256) (in coopvec-prepare-spirv)

// A gpu.module for another target.
// expected-error@+1 {{'gpu.module' op has a target that is not SPIR-V; coopvec-prepare-spirv prepares modules for Vulkan only}}
gpu.module @nvvm [#nvvm.target<chip = "sm_80">] {
}

// -----

gpu.module @m {
  // expected-error@+1 {{'gpu.func' op has no workgroup size: coopvec-prepare-spirv needs known_block_size (or coopvec.block_size) on every kernel}}
  gpu.func @k() kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error@+1 {{'gpu.func' op takes a builtin vector as argument 0; a Vulkan kernel argument is a scalar or a memref (one storage buffer each)}}
  gpu.func @k(%v: vector<4xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%m: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %v = vector.load %m[%c0] : memref<?xf32>, vector<8xf32>
    // expected-error@+1 {{'vector.reduction' op works on builtin vectors, which coopvec-prepare-spirv splits into their elements for SPIR-V (whose vectors have at most 4); it does not split this op}}
    %s = vector.reduction <add>, %v : vector<8xf32> into f32
    memref.store %s, %m[%c0] : memref<?xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%m: memref<?x?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{'vector.load' op works on builtin vectors, which coopvec-prepare-spirv splits into their elements for SPIR-V (whose vectors have at most 4); it splits 1-D vectors of a fixed size only}}
    %v = vector.load %m[%c0, %c0] : memref<?x?xf32>, vector<2x2xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%m: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %v = arith.constant 1.0 : f32
    %p = memref.alloc() : memref<4xf32, 3>
    // expected-error@+1 {{'memref.atomic_rmw' op works on a memref that is not an f32 or f16 rank-1 argument of the kernel; coopvec-prepare-spirv lowers float atomics on kernel arguments only}}
    %r = memref.atomic_rmw addf %v, %p[%c0] : (f32, memref<4xf32, 3>) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%m: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %v = arith.constant 1.0 : f32
    // expected-error@+1 {{'memref.atomic_rmw' op is a float atomic other than addf, maximumf and minimumf, which coopvec-prepare-spirv cannot lower to SPIR-V}}
    %r = memref.atomic_rmw mulf %v, %m[%c0] : (f32, memref<?xf32>) -> f32
    gpu.return
  }
}

// -----

// Vulkan has no 8-bit atomics: an i8 one becomes a compare-and-swap loop on
// its word, for the dialect's kinds on kernel arguments only.
gpu.module @m {
  gpu.func @k(%m: memref<?xi8>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %v = arith.constant 1 : i8
    // expected-error@+1 {{'memref.atomic_rmw' op is an i8 atomic that is not addi, maxs, mins, maxu or minu on a rank-1 argument of the kernel, which coopvec-prepare-spirv cannot lower to SPIR-V (Vulkan has no 8-bit atomics)}}
    %r = memref.atomic_rmw ori %v, %m[%c0] : (i8, memref<?xi8>) -> i8
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%m: memref<?xi8>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %v = arith.constant 1 : i8
    %p = memref.alloc() : memref<4xi8, 3>
    // expected-error@+1 {{'memref.atomic_rmw' op is an i8 atomic that is not addi, maxs, mins, maxu or minu on a rank-1 argument of the kernel}}
    %r = memref.atomic_rmw addi %v, %p[%c0] : (i8, memref<4xi8, 3>) -> i8
    gpu.return
  }
}

// -----

// Cooperative-matrix ops need a target that has them (and their shape,
// and, as they stage rows by subgroup, the subgroup size they were
// converted for).
gpu.module @m {
  gpu.func @k(%m: memref<256xf16, 3>, %c: memref<256xf32, 3>) kernel attributes {known_block_size = array<i32: 32, 1, 1>, coopvec.subgroup_size = 32 : i64} {
    %c0 = arith.constant 0 : index
    %a = gpu.subgroup_mma_load_matrix %m[%c0] {leadDimension = 16 : index} : memref<256xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %b = gpu.subgroup_mma_load_matrix %m[%c0] {leadDimension = 16 : index} : memref<256xf16, 3> -> !gpu.mma_matrix<16x16xf16, "BOp">
    %z = gpu.subgroup_mma_load_matrix %c[%c0] {leadDimension = 16 : index} : memref<256xf32, 3> -> !gpu.mma_matrix<16x16xf32, "COp">
    // expected-error@+1 {{'gpu.subgroup_mma_compute' op multiplies cooperative matrices, which the target does not have (coopvec-prepare-spirv with cooperative-matrix=true, coopvec-lower-to-spirv with mode=cooperative-matrix; or convert with matvec=simt)}}
    %d = gpu.subgroup_mma_compute %a, %b, %z : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.return
  }
}

// -----

// An f32 fma is computed in f64 to round it once: a target environment
// given without Float64 (or Int64: whole names, not AtomicFloat64AddEXT
// or Int64Atomics) cannot have it. A matvec's dot-product
// step (coopvec.accumulate) needs neither and is not reported.
gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Int64, Float16, AtomicFloat64AddEXT], []>, #spirv.resource_limits<>>} {
  gpu.func @k(%x: f32, %o: memref<?xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %a = math.fma %x, %x, %x {coopvec.accumulate} : f32
    // expected-error@+1 {{'math.fma' op is an f32 fma, which coopvec-prepare-spirv computes in f64 to round it once (Vulkan's GLSL Fma need not be fused), but the gpu.module's spirv.target_env lacks capability Float64 or Int64}}
    %b = math.fma %x, %x, %a : f32
    %t = gpu.thread_id x
    memref.store %b, %o[%t] : memref<?xf32>
    gpu.return
  }
}

// -----

gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Float64, Int64Atomics], []>, #spirv.resource_limits<>>} {
  gpu.func @k(%x: f32, %o: memref<?xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-error@+1 {{'math.fma' op is an f32 fma, which coopvec-prepare-spirv computes in f64 to round it once (Vulkan's GLSL Fma need not be fused), but the gpu.module's spirv.target_env lacks capability Float64 or Int64}}
    %b = math.fma %x, %x, %x : f32
    %t = gpu.thread_id x
    memref.store %b, %o[%t] : memref<?xf32>
    gpu.return
  }
}
