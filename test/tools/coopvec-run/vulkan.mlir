// --target=vulkan against SPIR-V written by hand (upstream
// convert-gpu-to-spirv of two small gpu.func kernels, the spirv.module
// moved into its gpu.module), so the backend is tested independently of
// coopvec-lower-to-spirv: the engine serializes the gpu.module
// (gpu-module-to-binary), reads the SPIR-V (entry points, LocalSize,
// `<f>_kernel_arg_<i>` storage buffers), binds %n and the scalars as
// one-element buffers (index as i32), and dispatches ceil(n / B)
// workgroups. test/Integration/Vulkan/vulkan.test runs the lowering.

// RUN: split-file %s %t

// Without a loader, or a driver, or the device asked for: one line, exit 1.
// RUN: env COOPVEC_LIBVULKAN=%t/none/libvulkan.so.1 not coopvec-run %t/source.mlir --entry=scale --random --target=vulkan 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOLOADER
// NOLOADER: coopvec-run: error: Vulkan: cannot load {{.*}}/none/libvulkan.so.1 (no Vulkan loader): {{.*}}cannot open shared object file
// RUN: env COOPVEC_LIBVULKAN=%t/none/libvulkan.so.1 not coopvec-run --list-devices 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOLOADER
// The CPU has no devices to choose.
// RUN: not coopvec-run %t/source.mlir --entry=scale --random --device=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CPUDEVICE
// CPUDEVICE: coopvec-run: error: --device is an option of the cuda and vulkan targets, not of 'cpu'
// RUN: not coopvec-run %t/source.mlir --entry=scale --random --target=vulkan --device=-1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: coopvec-run: error: invalid value in '--device=-1'
// RUN: not coopvec-run --list-devices --target=cpu 2>&1 | FileCheck %s --check-prefix=CPULIST
// CPULIST: coopvec-run: error: cpu: device listing is implemented for the vulkan target only

// RUN: %if vulkan %{ env VK_ICD_FILENAMES=%t/none.json not coopvec-run %t/source.mlir --entry=scale --random --target=vulkan --lowered=%t/scale.lowered.mlir --pipeline= 2>&1 | FileCheck %s --check-prefix=NODRIVER %}
// NODRIVER: coopvec-run: error: Vulkan: no device: vkCreateInstance failed: VK_ERROR_INCOMPATIBLE_DRIVER (no Vulkan driver is installed, or VK_ICD_FILENAMES names none)
// RUN: %if vulkan %{ not coopvec-run %t/source.mlir --entry=scale --random --target=vulkan --device=99 --lowered=%t/scale.lowered.mlir --pipeline= 2>&1 | FileCheck %s --check-prefix=DEVICE99 %}
// DEVICE99: coopvec-run: error: Vulkan: no device 99: there {{is|are}} {{[0-9]+}} (0 to {{[0-9]+}}; coopvec-run --list-devices lists them)
// RUN: %if vulkan %{ coopvec-run --list-devices | FileCheck %s --check-prefix=LIST %}
// LIST: 0: {{.+}} ({{.+}}, Vulkan {{1\.[2-9]}}, subgroup size {{[0-9]+}}, {{.*}}): mode={{portable|cooperative-matrix}}

// 1000 threads in workgroups of 64 (16 of them, the last partial), checked
// against the interpreter; the device's timestamps time the kernel.
// RUN: %if vulkan %{ coopvec-run %t/source.mlir --entry=scale --batch=1000 --random --seed=5 --target=vulkan --lowered=%t/scale.lowered.mlir --pipeline= --check --time 2>&1 | FileCheck %s --check-prefix=SCALE %}
// SCALE-DAG: result 0: max abs error 0, {{.*}}: PASS
// SCALE-DAG: coopvec-run: kernel {{[0-9.]+}} ms ({{[0-9.]+}} ns per thread) by the device's timestamps
// 4200000 threads need 65625 workgroups, beyond the 65535 of one dispatch
// on most devices: vkCmdDispatchBase continues where the last one stopped.
// RUN: %if vulkan %{ coopvec-run %t/source.mlir --entry=scale --batch=4200000 --random --target=vulkan --lowered=%t/scale.lowered.mlir --pipeline= --check | FileCheck %s --check-prefix=LARGE %}
// LARGE: result 0: max abs error 0, {{.*}}: PASS
// In a sanitizer build, with LeakSanitizer on: the drivers the loader
// opened stay loaded (RTLD_NODELETE), so what they keep is not reported
// as leaked (lavapipe's 128 bytes were).
// RUN: %if vulkan && asan %{ env ASAN_OPTIONS=detect_leaks=1 coopvec-run %t/source.mlir --entry=scale --batch=100 --random --target=vulkan --lowered=%t/scale.lowered.mlir --pipeline= --check | FileCheck %s --check-prefix=LEAKS %}
// LEAKS: {{^PASS$}}
// An index scalar, passed in the kernel's 32 bits, and a memref argument.
// RUN: %if vulkan %{ coopvec-run %t/source.mlir --entry=pick --batch=40 --random --memref-size=0:10 --target=vulkan --lowered=%t/scale.lowered.mlir --pipeline= --check | FileCheck %s --check-prefix=PICK %}
// PICK: result 0: max abs error 0, {{.*}}: PASS

// A cooperative-matrix module is refused before the driver sees it on a
// device without VK_KHR_cooperative_matrix (lavapipe would fail or crash).
// RUN: %if vulkan && !vulkan-cooperative-matrix %{ not coopvec-run %t/source.mlir --entry=scale --random --target=vulkan --lowered=%t/coopmat.lowered.mlir --pipeline= 2>&1 | FileCheck %s --check-prefix=COOPMAT %}
// COOPMAT: coopvec-run: error: Vulkan: the kernels need SPIR-V capability CooperativeMatrixKHR (6022), which device 0 ({{.*}}) does not offer: it lacks the VK_KHR_cooperative_matrix extension (lower with coopvec-lower-to-spirv{mode=portable})

// Workgroup memory beyond the device's maxComputeSharedMemorySize (4000064
// bytes of it here) is refused before the driver sees the module.
// RUN: %if vulkan %{ not coopvec-run %t/source.mlir --entry=scale --random --target=vulkan --lowered=%t/shared.lowered.mlir --pipeline= 2>&1 | FileCheck %s --check-prefix=SHARED %}
// SHARED: coopvec-run: error: Vulkan: the kernels need 4000064 bytes of workgroup memory; device 0 ({{.*}}) has {{[0-9]+}} (lower with a smaller block-size)
// What counts is the workgroup memory of one entry point, the variables its
// function uses: here two kernels use 30000 bytes each, 60000 together,
// more than lavapipe's and NVIDIA's limits (32 and 48 KiB), and @scale
// runs. (Counting the whole module refused a backward pass on an H200,
// 2026-11-28, once the tensor-core staging took 26624 bytes per kernel.)
// RUN: %if vulkan %{ coopvec-run %t/source.mlir --entry=scale --batch=100 --random --target=vulkan --lowered=%t/split-shared.lowered.mlir --pipeline= --check | FileCheck %s --check-prefix=SPLITSHARED %}
// SPLITSHARED: {{^PASS$}}
// Before SPIR-V 1.4 an entry point's interface does not list its
// workgroup variables, and a driver may allocate all of the module's:
// NVIDIA's (580.159, an H200) lost the device running this module as
// SPIR-V 1.0, 60000 bytes where 49152 fit. So such a module needs the sum.
// RUN: %if vulkan %{ not coopvec-run %t/source.mlir --entry=scale --batch=100 --random --target=vulkan --lowered=%t/split-shared-1.0.lowered.mlir --pipeline= 2>&1 | FileCheck %s --check-prefix=SPLITSHARED10 %}
// SPLITSHARED10: coopvec-run: error: Vulkan: the kernels need 60000 bytes of workgroup memory; device 0 ({{.*}}) has {{[0-9]+}} (lower with a smaller block-size)

// More storage buffers than the device binds in a compute shader (lavapipe:
// 32) are refused; lavapipe would crash running the kernel.
// RUN: %if vulkan-llvmpipe %{ not coopvec-run %t/source.mlir --entry=scale --random --target=vulkan --lowered=%t/wide.lowered.mlir --pipeline= 2>&1 | FileCheck %s --check-prefix=WIDE %}
// WIDE: coopvec-run: error: Vulkan: entry point wide_kernel binds 41 storage buffers (one per argument, result and the batch size); device 0 allows 32 in a compute shader

// Float controls are checked per mode and width against the device's
// properties: lavapipe preserves signed zeros, infinities and NaNs, but not
// denormals.
// RUN: %if vulkan-llvmpipe %{ coopvec-run %t/source.mlir --entry=scale --batch=100 --random --target=vulkan --lowered=%t/signed-zero.lowered.mlir --pipeline= --check | FileCheck %s --check-prefix=SIGNEDZERO %}
// SIGNEDZERO: {{^PASS$}}
// RUN: %if vulkan-llvmpipe %{ not coopvec-run %t/source.mlir --entry=scale --random --target=vulkan --lowered=%t/denorm.lowered.mlir --pipeline= 2>&1 | FileCheck %s --check-prefix=DENORM %}
// DENORM: coopvec-run: error: Vulkan: the kernels need execution mode DenormPreserve for 32-bit floats, which device 0 (llvmpipe {{.*}}) does not offer (its float controls properties)

// Objects that are not SPIR-V: too short, no magic number, an instruction
// longer than the module.
// RUN: %if vulkan %{ not coopvec-run %t/source.mlir --entry=scale --random --target=vulkan --lowered=%t/short.lowered.mlir --pipeline= 2>&1 | FileCheck %s --check-prefix=SHORT %}
// SHORT: coopvec-run: error: Vulkan: the gpu.binary's object (9 bytes) is not SPIR-V
// RUN: %if vulkan %{ not coopvec-run %t/source.mlir --entry=scale --random --target=vulkan --lowered=%t/magic.lowered.mlir --pipeline= 2>&1 | FileCheck %s --check-prefix=MAGIC %}
// MAGIC: coopvec-run: error: Vulkan: malformed SPIR-V at word 0: not a SPIR-V module (no magic number)
// RUN: %if vulkan %{ not coopvec-run %t/source.mlir --entry=scale --random --target=vulkan --lowered=%t/truncated.lowered.mlir --pipeline= 2>&1 | FileCheck %s --check-prefix=TRUNCATED %}
// TRUNCATED: coopvec-run: error: Vulkan: malformed SPIR-V at word 5: an instruction runs past the end

// A pipeline that leaves no gpu.module is refused with a message.
// RUN: %if vulkan %{ not coopvec-run %t/source.mlir --entry=scale --random --target=vulkan --pipeline= 2>&1 | FileCheck %s --check-prefix=NOGPU %}
// NOGPU: coopvec-run: error: Vulkan: the lowered module holds 0 gpu.module and 0 gpu.binary ops; the engine loads exactly one (lower with coopvec-lower-to-spirv)

//--- source.mlir
func.func @scale(%x: !coopvec.vec<1, f32>, %s: f32) -> !coopvec.vec<1, f32> {
  %y = "coopvec.mul"(%x, %s) : (!coopvec.vec<1, f32>, f32) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}
func.func @pick(%w: memref<?xf32>, %k: index) -> !coopvec.vec<1, f32> {
  %y = "coopvec.load"(%w, %k) : (memref<?xf32>, index) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}

//--- scale.lowered.mlir
module attributes {gpu.container_module} {
  gpu.module @coopvec_kernels [#spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>] {
    spirv.module @__spv__coopvec_kernels Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Matrix], [SPV_KHR_storage_buffer_storage_class]> attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
      spirv.GlobalVariable @__builtin__LocalInvocationId__ built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
      spirv.GlobalVariable @__builtin__WorkgroupId__ built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>
      spirv.GlobalVariable @scale_kernel_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      spirv.GlobalVariable @scale_kernel_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @scale_kernel_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>
      spirv.GlobalVariable @scale_kernel_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.func @scale_kernel() "None" attributes {workgroup_attributions = 0 : i64} {
        %scale_kernel_arg_0_addr = spirv.mlir.addressof @scale_kernel_arg_0 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
        %cst0_i32 = spirv.Constant 0 : i32
        %0 = spirv.AccessChain %scale_kernel_arg_0_addr[%cst0_i32] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
        %1 = spirv.Load "StorageBuffer" %0 : i32
        %scale_kernel_arg_1_addr = spirv.mlir.addressof @scale_kernel_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %scale_kernel_arg_2_addr = spirv.mlir.addressof @scale_kernel_arg_2 : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>
        %cst0_i32_0 = spirv.Constant 0 : i32
        %2 = spirv.AccessChain %scale_kernel_arg_2_addr[%cst0_i32_0] : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<f32, StorageBuffer>
        %3 = spirv.Load "StorageBuffer" %2 : f32
        %scale_kernel_arg_3_addr = spirv.mlir.addressof @scale_kernel_arg_3 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %__builtin__WorkgroupId___addr = spirv.mlir.addressof @__builtin__WorkgroupId__ : !spirv.ptr<vector<3xi32>, Input>
        %4 = spirv.Load "Input" %__builtin__WorkgroupId___addr : vector<3xi32>
        %5 = spirv.CompositeExtract %4[0 : i32] : vector<3xi32>
        %__builtin__LocalInvocationId___addr = spirv.mlir.addressof @__builtin__LocalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
        %6 = spirv.Load "Input" %__builtin__LocalInvocationId___addr : vector<3xi32>
        %7 = spirv.CompositeExtract %6[0 : i32] : vector<3xi32>
        %cst64_i32 = spirv.Constant 64 : i32
        %8 = spirv.IMul %5, %cst64_i32 : i32
        %9 = spirv.IAdd %8, %7 : i32
        %10 = spirv.ULessThan %9, %1 : i32
        spirv.mlir.selection {
          spirv.BranchConditional %10, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          %cst0_i32_1 = spirv.Constant 0 : i32
          %cst0_i32_2 = spirv.Constant 0 : i32
          %cst1_i32 = spirv.Constant 1 : i32
          %11 = spirv.AccessChain %scale_kernel_arg_1_addr[%cst0_i32_1, %9] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          %12 = spirv.Load "StorageBuffer" %11 : f32
          %13 = spirv.FMul %12, %3 : f32
          %cst0_i32_3 = spirv.Constant 0 : i32
          %cst0_i32_4 = spirv.Constant 0 : i32
          %cst1_i32_5 = spirv.Constant 1 : i32
          %14 = spirv.AccessChain %scale_kernel_arg_3_addr[%cst0_i32_3, %9] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          spirv.Store "StorageBuffer" %14, %13 : f32
          spirv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spirv.mlir.merge
        }
        spirv.Return
      }
      spirv.GlobalVariable @pick_kernel_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      spirv.GlobalVariable @pick_kernel_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @pick_kernel_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      spirv.GlobalVariable @pick_kernel_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.func @pick_kernel() "None" attributes {workgroup_attributions = 0 : i64} {
        %pick_kernel_arg_0_addr = spirv.mlir.addressof @pick_kernel_arg_0 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
        %cst0_i32 = spirv.Constant 0 : i32
        %0 = spirv.AccessChain %pick_kernel_arg_0_addr[%cst0_i32] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
        %1 = spirv.Load "StorageBuffer" %0 : i32
        %pick_kernel_arg_1_addr = spirv.mlir.addressof @pick_kernel_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %pick_kernel_arg_2_addr = spirv.mlir.addressof @pick_kernel_arg_2 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
        %cst0_i32_0 = spirv.Constant 0 : i32
        %2 = spirv.AccessChain %pick_kernel_arg_2_addr[%cst0_i32_0] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
        %3 = spirv.Load "StorageBuffer" %2 : i32
        %pick_kernel_arg_3_addr = spirv.mlir.addressof @pick_kernel_arg_3 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %__builtin__WorkgroupId___addr = spirv.mlir.addressof @__builtin__WorkgroupId__ : !spirv.ptr<vector<3xi32>, Input>
        %4 = spirv.Load "Input" %__builtin__WorkgroupId___addr : vector<3xi32>
        %5 = spirv.CompositeExtract %4[0 : i32] : vector<3xi32>
        %__builtin__LocalInvocationId___addr = spirv.mlir.addressof @__builtin__LocalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
        %6 = spirv.Load "Input" %__builtin__LocalInvocationId___addr : vector<3xi32>
        %7 = spirv.CompositeExtract %6[0 : i32] : vector<3xi32>
        %cst32_i32 = spirv.Constant 32 : i32
        %8 = spirv.IMul %5, %cst32_i32 : i32
        %9 = spirv.IAdd %8, %7 : i32
        %10 = spirv.ULessThan %9, %1 : i32
        spirv.mlir.selection {
          spirv.BranchConditional %10, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          %cst0_i32_1 = spirv.Constant 0 : i32
          %cst0_i32_2 = spirv.Constant 0 : i32
          %cst1_i32 = spirv.Constant 1 : i32
          %11 = spirv.AccessChain %pick_kernel_arg_1_addr[%cst0_i32_1, %3] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          %12 = spirv.Load "StorageBuffer" %11 : f32
          %cst0_i32_3 = spirv.Constant 0 : i32
          %cst0_i32_4 = spirv.Constant 0 : i32
          %cst1_i32_5 = spirv.Constant 1 : i32
          %13 = spirv.AccessChain %pick_kernel_arg_3_addr[%cst0_i32_3, %9] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          spirv.Store "StorageBuffer" %13, %12 : f32
          spirv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spirv.mlir.merge
        }
        spirv.Return
      }
      spirv.EntryPoint "GLCompute" @scale_kernel, @__builtin__WorkgroupId__, @__builtin__LocalInvocationId__
      spirv.ExecutionMode @scale_kernel "LocalSize", 64, 1, 1
      spirv.EntryPoint "GLCompute" @pick_kernel, @__builtin__WorkgroupId__, @__builtin__LocalInvocationId__
      spirv.ExecutionMode @pick_kernel "LocalSize", 32, 1, 1
    }
  }
}

//--- coopmat.lowered.mlir
module attributes {gpu.container_module} {
  gpu.module @coopvec_kernels [#spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>] {
    spirv.module @__spv__coopvec_kernels Logical GLSL450 requires #spirv.vce<v1.3, [Shader, Matrix, CooperativeMatrixKHR], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_cooperative_matrix]> attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
      spirv.GlobalVariable @__builtin__LocalInvocationId__ built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
      spirv.GlobalVariable @__builtin__WorkgroupId__ built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>
      spirv.GlobalVariable @scale_kernel_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      spirv.GlobalVariable @scale_kernel_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @scale_kernel_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>
      spirv.GlobalVariable @scale_kernel_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.func @scale_kernel() "None" attributes {workgroup_attributions = 0 : i64} {
        %scale_kernel_arg_0_addr = spirv.mlir.addressof @scale_kernel_arg_0 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
        %cst0_i32 = spirv.Constant 0 : i32
        %0 = spirv.AccessChain %scale_kernel_arg_0_addr[%cst0_i32] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
        %1 = spirv.Load "StorageBuffer" %0 : i32
        %scale_kernel_arg_1_addr = spirv.mlir.addressof @scale_kernel_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %scale_kernel_arg_2_addr = spirv.mlir.addressof @scale_kernel_arg_2 : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>
        %cst0_i32_0 = spirv.Constant 0 : i32
        %2 = spirv.AccessChain %scale_kernel_arg_2_addr[%cst0_i32_0] : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<f32, StorageBuffer>
        %3 = spirv.Load "StorageBuffer" %2 : f32
        %scale_kernel_arg_3_addr = spirv.mlir.addressof @scale_kernel_arg_3 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %__builtin__WorkgroupId___addr = spirv.mlir.addressof @__builtin__WorkgroupId__ : !spirv.ptr<vector<3xi32>, Input>
        %4 = spirv.Load "Input" %__builtin__WorkgroupId___addr : vector<3xi32>
        %5 = spirv.CompositeExtract %4[0 : i32] : vector<3xi32>
        %__builtin__LocalInvocationId___addr = spirv.mlir.addressof @__builtin__LocalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
        %6 = spirv.Load "Input" %__builtin__LocalInvocationId___addr : vector<3xi32>
        %7 = spirv.CompositeExtract %6[0 : i32] : vector<3xi32>
        %cst64_i32 = spirv.Constant 64 : i32
        %8 = spirv.IMul %5, %cst64_i32 : i32
        %9 = spirv.IAdd %8, %7 : i32
        %10 = spirv.ULessThan %9, %1 : i32
        spirv.mlir.selection {
          spirv.BranchConditional %10, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          %cst0_i32_1 = spirv.Constant 0 : i32
          %cst0_i32_2 = spirv.Constant 0 : i32
          %cst1_i32 = spirv.Constant 1 : i32
          %11 = spirv.AccessChain %scale_kernel_arg_1_addr[%cst0_i32_1, %9] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          %12 = spirv.Load "StorageBuffer" %11 : f32
          %13 = spirv.FMul %12, %3 : f32
          %cst0_i32_3 = spirv.Constant 0 : i32
          %cst0_i32_4 = spirv.Constant 0 : i32
          %cst1_i32_5 = spirv.Constant 1 : i32
          %14 = spirv.AccessChain %scale_kernel_arg_3_addr[%cst0_i32_3, %9] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          spirv.Store "StorageBuffer" %14, %13 : f32
          spirv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spirv.mlir.merge
        }
        spirv.Return
      }
      spirv.GlobalVariable @pick_kernel_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      spirv.GlobalVariable @pick_kernel_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @pick_kernel_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      spirv.GlobalVariable @pick_kernel_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.func @pick_kernel() "None" attributes {workgroup_attributions = 0 : i64} {
        %pick_kernel_arg_0_addr = spirv.mlir.addressof @pick_kernel_arg_0 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
        %cst0_i32 = spirv.Constant 0 : i32
        %0 = spirv.AccessChain %pick_kernel_arg_0_addr[%cst0_i32] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
        %1 = spirv.Load "StorageBuffer" %0 : i32
        %pick_kernel_arg_1_addr = spirv.mlir.addressof @pick_kernel_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %pick_kernel_arg_2_addr = spirv.mlir.addressof @pick_kernel_arg_2 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
        %cst0_i32_0 = spirv.Constant 0 : i32
        %2 = spirv.AccessChain %pick_kernel_arg_2_addr[%cst0_i32_0] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
        %3 = spirv.Load "StorageBuffer" %2 : i32
        %pick_kernel_arg_3_addr = spirv.mlir.addressof @pick_kernel_arg_3 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %__builtin__WorkgroupId___addr = spirv.mlir.addressof @__builtin__WorkgroupId__ : !spirv.ptr<vector<3xi32>, Input>
        %4 = spirv.Load "Input" %__builtin__WorkgroupId___addr : vector<3xi32>
        %5 = spirv.CompositeExtract %4[0 : i32] : vector<3xi32>
        %__builtin__LocalInvocationId___addr = spirv.mlir.addressof @__builtin__LocalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
        %6 = spirv.Load "Input" %__builtin__LocalInvocationId___addr : vector<3xi32>
        %7 = spirv.CompositeExtract %6[0 : i32] : vector<3xi32>
        %cst32_i32 = spirv.Constant 32 : i32
        %8 = spirv.IMul %5, %cst32_i32 : i32
        %9 = spirv.IAdd %8, %7 : i32
        %10 = spirv.ULessThan %9, %1 : i32
        spirv.mlir.selection {
          spirv.BranchConditional %10, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          %cst0_i32_1 = spirv.Constant 0 : i32
          %cst0_i32_2 = spirv.Constant 0 : i32
          %cst1_i32 = spirv.Constant 1 : i32
          %11 = spirv.AccessChain %pick_kernel_arg_1_addr[%cst0_i32_1, %3] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          %12 = spirv.Load "StorageBuffer" %11 : f32
          %cst0_i32_3 = spirv.Constant 0 : i32
          %cst0_i32_4 = spirv.Constant 0 : i32
          %cst1_i32_5 = spirv.Constant 1 : i32
          %13 = spirv.AccessChain %pick_kernel_arg_3_addr[%cst0_i32_3, %9] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          spirv.Store "StorageBuffer" %13, %12 : f32
          spirv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spirv.mlir.merge
        }
        spirv.Return
      }
      spirv.EntryPoint "GLCompute" @scale_kernel, @__builtin__WorkgroupId__, @__builtin__LocalInvocationId__
      spirv.ExecutionMode @scale_kernel "LocalSize", 64, 1, 1
      spirv.EntryPoint "GLCompute" @pick_kernel, @__builtin__WorkgroupId__, @__builtin__LocalInvocationId__
      spirv.ExecutionMode @pick_kernel "LocalSize", 32, 1, 1
    }
  }
}

//--- shared.lowered.mlir
module attributes {gpu.container_module} {
  gpu.module @coopvec_kernels [#spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>] {
    spirv.module @__spv__coopvec_kernels Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Matrix], [SPV_KHR_storage_buffer_storage_class]> attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
      spirv.GlobalVariable @__builtin__LocalInvocationId__ built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
      spirv.GlobalVariable @__builtin__WorkgroupId__ built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>
      spirv.GlobalVariable @__workgroup_mem__0 : !spirv.ptr<!spirv.struct<(!spirv.array<1000000 x f32>, !spirv.array<16 x vector<2xf16>>)>, Workgroup>
      spirv.GlobalVariable @scale_kernel_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      spirv.GlobalVariable @scale_kernel_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @scale_kernel_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>
      spirv.GlobalVariable @scale_kernel_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.func @scale_kernel() "None" attributes {workgroup_attributions = 0 : i64} {
        %scale_kernel_arg_0_addr = spirv.mlir.addressof @scale_kernel_arg_0 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
        %cst0_i32 = spirv.Constant 0 : i32
        %0 = spirv.AccessChain %scale_kernel_arg_0_addr[%cst0_i32] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
        %1 = spirv.Load "StorageBuffer" %0 : i32
        %wg_addr = spirv.mlir.addressof @__workgroup_mem__0 : !spirv.ptr<!spirv.struct<(!spirv.array<1000000 x f32>, !spirv.array<16 x vector<2xf16>>)>, Workgroup>
        %wg_elt = spirv.AccessChain %wg_addr[%cst0_i32, %cst0_i32] : !spirv.ptr<!spirv.struct<(!spirv.array<1000000 x f32>, !spirv.array<16 x vector<2xf16>>)>, Workgroup>, i32, i32 -> !spirv.ptr<f32, Workgroup>
        %wg_val = spirv.Load "Workgroup" %wg_elt : f32
        %scale_kernel_arg_1_addr = spirv.mlir.addressof @scale_kernel_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %scale_kernel_arg_2_addr = spirv.mlir.addressof @scale_kernel_arg_2 : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>
        %cst0_i32_0 = spirv.Constant 0 : i32
        %2 = spirv.AccessChain %scale_kernel_arg_2_addr[%cst0_i32_0] : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<f32, StorageBuffer>
        %3 = spirv.Load "StorageBuffer" %2 : f32
        %scale_kernel_arg_3_addr = spirv.mlir.addressof @scale_kernel_arg_3 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %__builtin__WorkgroupId___addr = spirv.mlir.addressof @__builtin__WorkgroupId__ : !spirv.ptr<vector<3xi32>, Input>
        %4 = spirv.Load "Input" %__builtin__WorkgroupId___addr : vector<3xi32>
        %5 = spirv.CompositeExtract %4[0 : i32] : vector<3xi32>
        %__builtin__LocalInvocationId___addr = spirv.mlir.addressof @__builtin__LocalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
        %6 = spirv.Load "Input" %__builtin__LocalInvocationId___addr : vector<3xi32>
        %7 = spirv.CompositeExtract %6[0 : i32] : vector<3xi32>
        %cst64_i32 = spirv.Constant 64 : i32
        %8 = spirv.IMul %5, %cst64_i32 : i32
        %9 = spirv.IAdd %8, %7 : i32
        %10 = spirv.ULessThan %9, %1 : i32
        spirv.mlir.selection {
          spirv.BranchConditional %10, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          %cst0_i32_1 = spirv.Constant 0 : i32
          %cst0_i32_2 = spirv.Constant 0 : i32
          %cst1_i32 = spirv.Constant 1 : i32
          %11 = spirv.AccessChain %scale_kernel_arg_1_addr[%cst0_i32_1, %9] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          %12 = spirv.Load "StorageBuffer" %11 : f32
          %13 = spirv.FMul %12, %3 : f32
          %cst0_i32_3 = spirv.Constant 0 : i32
          %cst0_i32_4 = spirv.Constant 0 : i32
          %cst1_i32_5 = spirv.Constant 1 : i32
          %14 = spirv.AccessChain %scale_kernel_arg_3_addr[%cst0_i32_3, %9] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          spirv.Store "StorageBuffer" %14, %13 : f32
          spirv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spirv.mlir.merge
        }
        spirv.Return
      }
      spirv.GlobalVariable @pick_kernel_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      spirv.GlobalVariable @pick_kernel_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @pick_kernel_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      spirv.GlobalVariable @pick_kernel_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.func @pick_kernel() "None" attributes {workgroup_attributions = 0 : i64} {
        %pick_kernel_arg_0_addr = spirv.mlir.addressof @pick_kernel_arg_0 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
        %cst0_i32 = spirv.Constant 0 : i32
        %0 = spirv.AccessChain %pick_kernel_arg_0_addr[%cst0_i32] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
        %1 = spirv.Load "StorageBuffer" %0 : i32
        %pick_kernel_arg_1_addr = spirv.mlir.addressof @pick_kernel_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %pick_kernel_arg_2_addr = spirv.mlir.addressof @pick_kernel_arg_2 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
        %cst0_i32_0 = spirv.Constant 0 : i32
        %2 = spirv.AccessChain %pick_kernel_arg_2_addr[%cst0_i32_0] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
        %3 = spirv.Load "StorageBuffer" %2 : i32
        %pick_kernel_arg_3_addr = spirv.mlir.addressof @pick_kernel_arg_3 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %__builtin__WorkgroupId___addr = spirv.mlir.addressof @__builtin__WorkgroupId__ : !spirv.ptr<vector<3xi32>, Input>
        %4 = spirv.Load "Input" %__builtin__WorkgroupId___addr : vector<3xi32>
        %5 = spirv.CompositeExtract %4[0 : i32] : vector<3xi32>
        %__builtin__LocalInvocationId___addr = spirv.mlir.addressof @__builtin__LocalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
        %6 = spirv.Load "Input" %__builtin__LocalInvocationId___addr : vector<3xi32>
        %7 = spirv.CompositeExtract %6[0 : i32] : vector<3xi32>
        %cst32_i32 = spirv.Constant 32 : i32
        %8 = spirv.IMul %5, %cst32_i32 : i32
        %9 = spirv.IAdd %8, %7 : i32
        %10 = spirv.ULessThan %9, %1 : i32
        spirv.mlir.selection {
          spirv.BranchConditional %10, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          %cst0_i32_1 = spirv.Constant 0 : i32
          %cst0_i32_2 = spirv.Constant 0 : i32
          %cst1_i32 = spirv.Constant 1 : i32
          %11 = spirv.AccessChain %pick_kernel_arg_1_addr[%cst0_i32_1, %3] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          %12 = spirv.Load "StorageBuffer" %11 : f32
          %cst0_i32_3 = spirv.Constant 0 : i32
          %cst0_i32_4 = spirv.Constant 0 : i32
          %cst1_i32_5 = spirv.Constant 1 : i32
          %13 = spirv.AccessChain %pick_kernel_arg_3_addr[%cst0_i32_3, %9] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          spirv.Store "StorageBuffer" %13, %12 : f32
          spirv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spirv.mlir.merge
        }
        spirv.Return
      }
      spirv.EntryPoint "GLCompute" @scale_kernel, @__builtin__WorkgroupId__, @__builtin__LocalInvocationId__
      spirv.ExecutionMode @scale_kernel "LocalSize", 64, 1, 1
      spirv.EntryPoint "GLCompute" @pick_kernel, @__builtin__WorkgroupId__, @__builtin__LocalInvocationId__
      spirv.ExecutionMode @pick_kernel "LocalSize", 32, 1, 1
    }
  }
}

//--- split-shared.lowered.mlir
module attributes {gpu.container_module} {
  gpu.module @coopvec_kernels [#spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>] {
    spirv.module @__spv__coopvec_kernels Logical GLSL450 requires #spirv.vce<v1.4, [Shader, Matrix], [SPV_KHR_storage_buffer_storage_class]> attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
      spirv.GlobalVariable @__builtin__LocalInvocationId__ built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
      spirv.GlobalVariable @__builtin__WorkgroupId__ built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>
      spirv.GlobalVariable @__workgroup_mem__0 : !spirv.ptr<!spirv.struct<(!spirv.array<7500 x f32>)>, Workgroup>
      spirv.GlobalVariable @__workgroup_mem__1 : !spirv.ptr<!spirv.struct<(!spirv.array<7500 x f32>)>, Workgroup>
      spirv.GlobalVariable @scale_kernel_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      spirv.GlobalVariable @scale_kernel_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @scale_kernel_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>
      spirv.GlobalVariable @scale_kernel_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.func @scale_kernel() "None" attributes {workgroup_attributions = 0 : i64} {
        %scale_kernel_arg_0_addr = spirv.mlir.addressof @scale_kernel_arg_0 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
        %cst0_i32 = spirv.Constant 0 : i32
        %0 = spirv.AccessChain %scale_kernel_arg_0_addr[%cst0_i32] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
        %1 = spirv.Load "StorageBuffer" %0 : i32
        %wg_addr = spirv.mlir.addressof @__workgroup_mem__0 : !spirv.ptr<!spirv.struct<(!spirv.array<7500 x f32>)>, Workgroup>
        %wg_elt = spirv.AccessChain %wg_addr[%cst0_i32, %cst0_i32] : !spirv.ptr<!spirv.struct<(!spirv.array<7500 x f32>)>, Workgroup>, i32, i32 -> !spirv.ptr<f32, Workgroup>
        %wg_val = spirv.Load "Workgroup" %wg_elt : f32
        %scale_kernel_arg_1_addr = spirv.mlir.addressof @scale_kernel_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %scale_kernel_arg_2_addr = spirv.mlir.addressof @scale_kernel_arg_2 : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>
        %cst0_i32_0 = spirv.Constant 0 : i32
        %2 = spirv.AccessChain %scale_kernel_arg_2_addr[%cst0_i32_0] : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<f32, StorageBuffer>
        %3 = spirv.Load "StorageBuffer" %2 : f32
        %scale_kernel_arg_3_addr = spirv.mlir.addressof @scale_kernel_arg_3 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %__builtin__WorkgroupId___addr = spirv.mlir.addressof @__builtin__WorkgroupId__ : !spirv.ptr<vector<3xi32>, Input>
        %4 = spirv.Load "Input" %__builtin__WorkgroupId___addr : vector<3xi32>
        %5 = spirv.CompositeExtract %4[0 : i32] : vector<3xi32>
        %__builtin__LocalInvocationId___addr = spirv.mlir.addressof @__builtin__LocalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
        %6 = spirv.Load "Input" %__builtin__LocalInvocationId___addr : vector<3xi32>
        %7 = spirv.CompositeExtract %6[0 : i32] : vector<3xi32>
        %cst64_i32 = spirv.Constant 64 : i32
        %8 = spirv.IMul %5, %cst64_i32 : i32
        %9 = spirv.IAdd %8, %7 : i32
        %10 = spirv.ULessThan %9, %1 : i32
        spirv.mlir.selection {
          spirv.BranchConditional %10, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          %cst0_i32_1 = spirv.Constant 0 : i32
          %cst0_i32_2 = spirv.Constant 0 : i32
          %cst1_i32 = spirv.Constant 1 : i32
          %11 = spirv.AccessChain %scale_kernel_arg_1_addr[%cst0_i32_1, %9] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          %12 = spirv.Load "StorageBuffer" %11 : f32
          %13 = spirv.FMul %12, %3 : f32
          %cst0_i32_3 = spirv.Constant 0 : i32
          %cst0_i32_4 = spirv.Constant 0 : i32
          %cst1_i32_5 = spirv.Constant 1 : i32
          %14 = spirv.AccessChain %scale_kernel_arg_3_addr[%cst0_i32_3, %9] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          spirv.Store "StorageBuffer" %14, %13 : f32
          spirv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spirv.mlir.merge
        }
        spirv.Return
      }
      spirv.GlobalVariable @pick_kernel_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      spirv.GlobalVariable @pick_kernel_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @pick_kernel_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      spirv.GlobalVariable @pick_kernel_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.func @pick_kernel() "None" attributes {workgroup_attributions = 0 : i64} {
        %pick_kernel_arg_0_addr = spirv.mlir.addressof @pick_kernel_arg_0 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
        %cst0_i32 = spirv.Constant 0 : i32
        %0 = spirv.AccessChain %pick_kernel_arg_0_addr[%cst0_i32] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
        %1 = spirv.Load "StorageBuffer" %0 : i32
        %wg_addr = spirv.mlir.addressof @__workgroup_mem__1 : !spirv.ptr<!spirv.struct<(!spirv.array<7500 x f32>)>, Workgroup>
        %wg_elt = spirv.AccessChain %wg_addr[%cst0_i32, %cst0_i32] : !spirv.ptr<!spirv.struct<(!spirv.array<7500 x f32>)>, Workgroup>, i32, i32 -> !spirv.ptr<f32, Workgroup>
        %wg_val = spirv.Load "Workgroup" %wg_elt : f32
        %pick_kernel_arg_1_addr = spirv.mlir.addressof @pick_kernel_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %pick_kernel_arg_2_addr = spirv.mlir.addressof @pick_kernel_arg_2 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
        %cst0_i32_0 = spirv.Constant 0 : i32
        %2 = spirv.AccessChain %pick_kernel_arg_2_addr[%cst0_i32_0] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
        %3 = spirv.Load "StorageBuffer" %2 : i32
        %pick_kernel_arg_3_addr = spirv.mlir.addressof @pick_kernel_arg_3 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %__builtin__WorkgroupId___addr = spirv.mlir.addressof @__builtin__WorkgroupId__ : !spirv.ptr<vector<3xi32>, Input>
        %4 = spirv.Load "Input" %__builtin__WorkgroupId___addr : vector<3xi32>
        %5 = spirv.CompositeExtract %4[0 : i32] : vector<3xi32>
        %__builtin__LocalInvocationId___addr = spirv.mlir.addressof @__builtin__LocalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
        %6 = spirv.Load "Input" %__builtin__LocalInvocationId___addr : vector<3xi32>
        %7 = spirv.CompositeExtract %6[0 : i32] : vector<3xi32>
        %cst32_i32 = spirv.Constant 32 : i32
        %8 = spirv.IMul %5, %cst32_i32 : i32
        %9 = spirv.IAdd %8, %7 : i32
        %10 = spirv.ULessThan %9, %1 : i32
        spirv.mlir.selection {
          spirv.BranchConditional %10, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          %cst0_i32_1 = spirv.Constant 0 : i32
          %cst0_i32_2 = spirv.Constant 0 : i32
          %cst1_i32 = spirv.Constant 1 : i32
          %11 = spirv.AccessChain %pick_kernel_arg_1_addr[%cst0_i32_1, %3] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          %12 = spirv.Load "StorageBuffer" %11 : f32
          %cst0_i32_3 = spirv.Constant 0 : i32
          %cst0_i32_4 = spirv.Constant 0 : i32
          %cst1_i32_5 = spirv.Constant 1 : i32
          %13 = spirv.AccessChain %pick_kernel_arg_3_addr[%cst0_i32_3, %9] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          spirv.Store "StorageBuffer" %13, %12 : f32
          spirv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spirv.mlir.merge
        }
        spirv.Return
      }
      spirv.EntryPoint "GLCompute" @scale_kernel, @__builtin__WorkgroupId__, @__builtin__LocalInvocationId__, @__workgroup_mem__0, @scale_kernel_arg_0, @scale_kernel_arg_1, @scale_kernel_arg_2, @scale_kernel_arg_3
      spirv.ExecutionMode @scale_kernel "LocalSize", 64, 1, 1
      spirv.EntryPoint "GLCompute" @pick_kernel, @__builtin__WorkgroupId__, @__builtin__LocalInvocationId__, @__workgroup_mem__1, @pick_kernel_arg_0, @pick_kernel_arg_1, @pick_kernel_arg_2, @pick_kernel_arg_3
      spirv.ExecutionMode @pick_kernel "LocalSize", 32, 1, 1
    }
  }
}

//--- split-shared-1.0.lowered.mlir
module attributes {gpu.container_module} {
  gpu.module @coopvec_kernels [#spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>] {
    spirv.module @__spv__coopvec_kernels Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Matrix], [SPV_KHR_storage_buffer_storage_class]> attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
      spirv.GlobalVariable @__builtin__LocalInvocationId__ built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
      spirv.GlobalVariable @__builtin__WorkgroupId__ built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>
      spirv.GlobalVariable @__workgroup_mem__0 : !spirv.ptr<!spirv.struct<(!spirv.array<7500 x f32>)>, Workgroup>
      spirv.GlobalVariable @__workgroup_mem__1 : !spirv.ptr<!spirv.struct<(!spirv.array<7500 x f32>)>, Workgroup>
      spirv.GlobalVariable @scale_kernel_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      spirv.GlobalVariable @scale_kernel_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @scale_kernel_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>
      spirv.GlobalVariable @scale_kernel_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.func @scale_kernel() "None" attributes {workgroup_attributions = 0 : i64} {
        %scale_kernel_arg_0_addr = spirv.mlir.addressof @scale_kernel_arg_0 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
        %cst0_i32 = spirv.Constant 0 : i32
        %0 = spirv.AccessChain %scale_kernel_arg_0_addr[%cst0_i32] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
        %1 = spirv.Load "StorageBuffer" %0 : i32
        %wg_addr = spirv.mlir.addressof @__workgroup_mem__0 : !spirv.ptr<!spirv.struct<(!spirv.array<7500 x f32>)>, Workgroup>
        %wg_elt = spirv.AccessChain %wg_addr[%cst0_i32, %cst0_i32] : !spirv.ptr<!spirv.struct<(!spirv.array<7500 x f32>)>, Workgroup>, i32, i32 -> !spirv.ptr<f32, Workgroup>
        %wg_val = spirv.Load "Workgroup" %wg_elt : f32
        %scale_kernel_arg_1_addr = spirv.mlir.addressof @scale_kernel_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %scale_kernel_arg_2_addr = spirv.mlir.addressof @scale_kernel_arg_2 : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>
        %cst0_i32_0 = spirv.Constant 0 : i32
        %2 = spirv.AccessChain %scale_kernel_arg_2_addr[%cst0_i32_0] : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<f32, StorageBuffer>
        %3 = spirv.Load "StorageBuffer" %2 : f32
        %scale_kernel_arg_3_addr = spirv.mlir.addressof @scale_kernel_arg_3 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %__builtin__WorkgroupId___addr = spirv.mlir.addressof @__builtin__WorkgroupId__ : !spirv.ptr<vector<3xi32>, Input>
        %4 = spirv.Load "Input" %__builtin__WorkgroupId___addr : vector<3xi32>
        %5 = spirv.CompositeExtract %4[0 : i32] : vector<3xi32>
        %__builtin__LocalInvocationId___addr = spirv.mlir.addressof @__builtin__LocalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
        %6 = spirv.Load "Input" %__builtin__LocalInvocationId___addr : vector<3xi32>
        %7 = spirv.CompositeExtract %6[0 : i32] : vector<3xi32>
        %cst64_i32 = spirv.Constant 64 : i32
        %8 = spirv.IMul %5, %cst64_i32 : i32
        %9 = spirv.IAdd %8, %7 : i32
        %10 = spirv.ULessThan %9, %1 : i32
        spirv.mlir.selection {
          spirv.BranchConditional %10, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          %cst0_i32_1 = spirv.Constant 0 : i32
          %cst0_i32_2 = spirv.Constant 0 : i32
          %cst1_i32 = spirv.Constant 1 : i32
          %11 = spirv.AccessChain %scale_kernel_arg_1_addr[%cst0_i32_1, %9] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          %12 = spirv.Load "StorageBuffer" %11 : f32
          %13 = spirv.FMul %12, %3 : f32
          %cst0_i32_3 = spirv.Constant 0 : i32
          %cst0_i32_4 = spirv.Constant 0 : i32
          %cst1_i32_5 = spirv.Constant 1 : i32
          %14 = spirv.AccessChain %scale_kernel_arg_3_addr[%cst0_i32_3, %9] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          spirv.Store "StorageBuffer" %14, %13 : f32
          spirv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spirv.mlir.merge
        }
        spirv.Return
      }
      spirv.GlobalVariable @pick_kernel_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      spirv.GlobalVariable @pick_kernel_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @pick_kernel_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      spirv.GlobalVariable @pick_kernel_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.func @pick_kernel() "None" attributes {workgroup_attributions = 0 : i64} {
        %pick_kernel_arg_0_addr = spirv.mlir.addressof @pick_kernel_arg_0 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
        %cst0_i32 = spirv.Constant 0 : i32
        %0 = spirv.AccessChain %pick_kernel_arg_0_addr[%cst0_i32] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
        %1 = spirv.Load "StorageBuffer" %0 : i32
        %wg_addr = spirv.mlir.addressof @__workgroup_mem__1 : !spirv.ptr<!spirv.struct<(!spirv.array<7500 x f32>)>, Workgroup>
        %wg_elt = spirv.AccessChain %wg_addr[%cst0_i32, %cst0_i32] : !spirv.ptr<!spirv.struct<(!spirv.array<7500 x f32>)>, Workgroup>, i32, i32 -> !spirv.ptr<f32, Workgroup>
        %wg_val = spirv.Load "Workgroup" %wg_elt : f32
        %pick_kernel_arg_1_addr = spirv.mlir.addressof @pick_kernel_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %pick_kernel_arg_2_addr = spirv.mlir.addressof @pick_kernel_arg_2 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
        %cst0_i32_0 = spirv.Constant 0 : i32
        %2 = spirv.AccessChain %pick_kernel_arg_2_addr[%cst0_i32_0] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
        %3 = spirv.Load "StorageBuffer" %2 : i32
        %pick_kernel_arg_3_addr = spirv.mlir.addressof @pick_kernel_arg_3 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %__builtin__WorkgroupId___addr = spirv.mlir.addressof @__builtin__WorkgroupId__ : !spirv.ptr<vector<3xi32>, Input>
        %4 = spirv.Load "Input" %__builtin__WorkgroupId___addr : vector<3xi32>
        %5 = spirv.CompositeExtract %4[0 : i32] : vector<3xi32>
        %__builtin__LocalInvocationId___addr = spirv.mlir.addressof @__builtin__LocalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
        %6 = spirv.Load "Input" %__builtin__LocalInvocationId___addr : vector<3xi32>
        %7 = spirv.CompositeExtract %6[0 : i32] : vector<3xi32>
        %cst32_i32 = spirv.Constant 32 : i32
        %8 = spirv.IMul %5, %cst32_i32 : i32
        %9 = spirv.IAdd %8, %7 : i32
        %10 = spirv.ULessThan %9, %1 : i32
        spirv.mlir.selection {
          spirv.BranchConditional %10, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          %cst0_i32_1 = spirv.Constant 0 : i32
          %cst0_i32_2 = spirv.Constant 0 : i32
          %cst1_i32 = spirv.Constant 1 : i32
          %11 = spirv.AccessChain %pick_kernel_arg_1_addr[%cst0_i32_1, %3] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          %12 = spirv.Load "StorageBuffer" %11 : f32
          %cst0_i32_3 = spirv.Constant 0 : i32
          %cst0_i32_4 = spirv.Constant 0 : i32
          %cst1_i32_5 = spirv.Constant 1 : i32
          %13 = spirv.AccessChain %pick_kernel_arg_3_addr[%cst0_i32_3, %9] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          spirv.Store "StorageBuffer" %13, %12 : f32
          spirv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spirv.mlir.merge
        }
        spirv.Return
      }
      spirv.EntryPoint "GLCompute" @scale_kernel, @__builtin__WorkgroupId__, @__builtin__LocalInvocationId__
      spirv.ExecutionMode @scale_kernel "LocalSize", 64, 1, 1
      spirv.EntryPoint "GLCompute" @pick_kernel, @__builtin__WorkgroupId__, @__builtin__LocalInvocationId__
      spirv.ExecutionMode @pick_kernel "LocalSize", 32, 1, 1
    }
  }
}

//--- short.lowered.mlir
module attributes {gpu.container_module} {
  gpu.binary @coopvec_kernels [#gpu.object<#spirv.target_env<#spirv.vce<v1.3, [Shader], []>, #spirv.resource_limits<>>, bin = "not spirv">]
}

//--- magic.lowered.mlir
module attributes {gpu.container_module} {
  gpu.binary @coopvec_kernels [#gpu.object<#spirv.target_env<#spirv.vce<v1.3, [Shader], []>, #spirv.resource_limits<>>, bin = "\07\23\02\03\00\03\01\00\00\00\00\00\0A\00\00\00\00\00\00\00">]
}

//--- truncated.lowered.mlir
module attributes {gpu.container_module} {
  gpu.binary @coopvec_kernels [#gpu.object<#spirv.target_env<#spirv.vce<v1.3, [Shader], []>, #spirv.resource_limits<>>, bin = "\03\02\23\07\00\03\01\00\00\00\00\00\0A\00\00\00\00\00\00\00\11\00\64\00">]
}

//--- wide.lowered.mlir
module attributes {gpu.container_module} {
  gpu.module @coopvec_kernels [#spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>] {
    spirv.module @__spv__coopvec_kernels Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Matrix], [SPV_KHR_storage_buffer_storage_class]> attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
      spirv.GlobalVariable @wide_kernel_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_4 bind(0, 4) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_5 bind(0, 5) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_6 bind(0, 6) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_7 bind(0, 7) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_8 bind(0, 8) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_9 bind(0, 9) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_10 bind(0, 10) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_11 bind(0, 11) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_12 bind(0, 12) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_13 bind(0, 13) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_14 bind(0, 14) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_15 bind(0, 15) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_16 bind(0, 16) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_17 bind(0, 17) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_18 bind(0, 18) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_19 bind(0, 19) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_20 bind(0, 20) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_21 bind(0, 21) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_22 bind(0, 22) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_23 bind(0, 23) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_24 bind(0, 24) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_25 bind(0, 25) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_26 bind(0, 26) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_27 bind(0, 27) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_28 bind(0, 28) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_29 bind(0, 29) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_30 bind(0, 30) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_31 bind(0, 31) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_32 bind(0, 32) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_33 bind(0, 33) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_34 bind(0, 34) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_35 bind(0, 35) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_36 bind(0, 36) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_37 bind(0, 37) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_38 bind(0, 38) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_39 bind(0, 39) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @wide_kernel_arg_40 bind(0, 40) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.func @wide_kernel() "None" attributes {workgroup_attributions = 0 : i64} {
        %wide_kernel_arg_0_addr = spirv.mlir.addressof @wide_kernel_arg_0 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
        %cst0_i32 = spirv.Constant 0 : i32
        %0 = spirv.AccessChain %wide_kernel_arg_0_addr[%cst0_i32] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
        %1 = spirv.Load "StorageBuffer" %0 : i32
        %wide_kernel_arg_1_addr = spirv.mlir.addressof @wide_kernel_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_2_addr = spirv.mlir.addressof @wide_kernel_arg_2 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_3_addr = spirv.mlir.addressof @wide_kernel_arg_3 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_4_addr = spirv.mlir.addressof @wide_kernel_arg_4 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_5_addr = spirv.mlir.addressof @wide_kernel_arg_5 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_6_addr = spirv.mlir.addressof @wide_kernel_arg_6 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_7_addr = spirv.mlir.addressof @wide_kernel_arg_7 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_8_addr = spirv.mlir.addressof @wide_kernel_arg_8 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_9_addr = spirv.mlir.addressof @wide_kernel_arg_9 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_10_addr = spirv.mlir.addressof @wide_kernel_arg_10 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_11_addr = spirv.mlir.addressof @wide_kernel_arg_11 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_12_addr = spirv.mlir.addressof @wide_kernel_arg_12 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_13_addr = spirv.mlir.addressof @wide_kernel_arg_13 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_14_addr = spirv.mlir.addressof @wide_kernel_arg_14 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_15_addr = spirv.mlir.addressof @wide_kernel_arg_15 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_16_addr = spirv.mlir.addressof @wide_kernel_arg_16 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_17_addr = spirv.mlir.addressof @wide_kernel_arg_17 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_18_addr = spirv.mlir.addressof @wide_kernel_arg_18 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_19_addr = spirv.mlir.addressof @wide_kernel_arg_19 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_20_addr = spirv.mlir.addressof @wide_kernel_arg_20 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_21_addr = spirv.mlir.addressof @wide_kernel_arg_21 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_22_addr = spirv.mlir.addressof @wide_kernel_arg_22 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_23_addr = spirv.mlir.addressof @wide_kernel_arg_23 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_24_addr = spirv.mlir.addressof @wide_kernel_arg_24 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_25_addr = spirv.mlir.addressof @wide_kernel_arg_25 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_26_addr = spirv.mlir.addressof @wide_kernel_arg_26 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_27_addr = spirv.mlir.addressof @wide_kernel_arg_27 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_28_addr = spirv.mlir.addressof @wide_kernel_arg_28 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_29_addr = spirv.mlir.addressof @wide_kernel_arg_29 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_30_addr = spirv.mlir.addressof @wide_kernel_arg_30 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_31_addr = spirv.mlir.addressof @wide_kernel_arg_31 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_32_addr = spirv.mlir.addressof @wide_kernel_arg_32 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_33_addr = spirv.mlir.addressof @wide_kernel_arg_33 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_34_addr = spirv.mlir.addressof @wide_kernel_arg_34 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_35_addr = spirv.mlir.addressof @wide_kernel_arg_35 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_36_addr = spirv.mlir.addressof @wide_kernel_arg_36 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_37_addr = spirv.mlir.addressof @wide_kernel_arg_37 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_38_addr = spirv.mlir.addressof @wide_kernel_arg_38 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_39_addr = spirv.mlir.addressof @wide_kernel_arg_39 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %wide_kernel_arg_40_addr = spirv.mlir.addressof @wide_kernel_arg_40 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        spirv.Return
      }
      spirv.EntryPoint "GLCompute" @wide_kernel
      spirv.ExecutionMode @wide_kernel "LocalSize", 64, 1, 1
    }
  }
}

//--- signed-zero.lowered.mlir
module attributes {gpu.container_module} {
  gpu.module @coopvec_kernels [#spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>] {
    spirv.module @__spv__coopvec_kernels Logical GLSL450 requires #spirv.vce<v1.3, [Shader, Matrix, SignedZeroInfNanPreserve], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_float_controls]> attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
      spirv.GlobalVariable @__builtin__LocalInvocationId__ built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
      spirv.GlobalVariable @__builtin__WorkgroupId__ built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>
      spirv.GlobalVariable @scale_kernel_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      spirv.GlobalVariable @scale_kernel_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @scale_kernel_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>
      spirv.GlobalVariable @scale_kernel_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.func @scale_kernel() "None" attributes {workgroup_attributions = 0 : i64} {
        %scale_kernel_arg_0_addr = spirv.mlir.addressof @scale_kernel_arg_0 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
        %cst0_i32 = spirv.Constant 0 : i32
        %0 = spirv.AccessChain %scale_kernel_arg_0_addr[%cst0_i32] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
        %1 = spirv.Load "StorageBuffer" %0 : i32
        %scale_kernel_arg_1_addr = spirv.mlir.addressof @scale_kernel_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %scale_kernel_arg_2_addr = spirv.mlir.addressof @scale_kernel_arg_2 : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>
        %cst0_i32_0 = spirv.Constant 0 : i32
        %2 = spirv.AccessChain %scale_kernel_arg_2_addr[%cst0_i32_0] : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<f32, StorageBuffer>
        %3 = spirv.Load "StorageBuffer" %2 : f32
        %scale_kernel_arg_3_addr = spirv.mlir.addressof @scale_kernel_arg_3 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %__builtin__WorkgroupId___addr = spirv.mlir.addressof @__builtin__WorkgroupId__ : !spirv.ptr<vector<3xi32>, Input>
        %4 = spirv.Load "Input" %__builtin__WorkgroupId___addr : vector<3xi32>
        %5 = spirv.CompositeExtract %4[0 : i32] : vector<3xi32>
        %__builtin__LocalInvocationId___addr = spirv.mlir.addressof @__builtin__LocalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
        %6 = spirv.Load "Input" %__builtin__LocalInvocationId___addr : vector<3xi32>
        %7 = spirv.CompositeExtract %6[0 : i32] : vector<3xi32>
        %cst64_i32 = spirv.Constant 64 : i32
        %8 = spirv.IMul %5, %cst64_i32 : i32
        %9 = spirv.IAdd %8, %7 : i32
        %10 = spirv.ULessThan %9, %1 : i32
        spirv.mlir.selection {
          spirv.BranchConditional %10, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          %cst0_i32_1 = spirv.Constant 0 : i32
          %cst0_i32_2 = spirv.Constant 0 : i32
          %cst1_i32 = spirv.Constant 1 : i32
          %11 = spirv.AccessChain %scale_kernel_arg_1_addr[%cst0_i32_1, %9] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          %12 = spirv.Load "StorageBuffer" %11 : f32
          %13 = spirv.FMul %12, %3 : f32
          %cst0_i32_3 = spirv.Constant 0 : i32
          %cst0_i32_4 = spirv.Constant 0 : i32
          %cst1_i32_5 = spirv.Constant 1 : i32
          %14 = spirv.AccessChain %scale_kernel_arg_3_addr[%cst0_i32_3, %9] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          spirv.Store "StorageBuffer" %14, %13 : f32
          spirv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spirv.mlir.merge
        }
        spirv.Return
      }
      spirv.GlobalVariable @pick_kernel_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      spirv.GlobalVariable @pick_kernel_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @pick_kernel_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      spirv.GlobalVariable @pick_kernel_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.func @pick_kernel() "None" attributes {workgroup_attributions = 0 : i64} {
        %pick_kernel_arg_0_addr = spirv.mlir.addressof @pick_kernel_arg_0 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
        %cst0_i32 = spirv.Constant 0 : i32
        %0 = spirv.AccessChain %pick_kernel_arg_0_addr[%cst0_i32] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
        %1 = spirv.Load "StorageBuffer" %0 : i32
        %pick_kernel_arg_1_addr = spirv.mlir.addressof @pick_kernel_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %pick_kernel_arg_2_addr = spirv.mlir.addressof @pick_kernel_arg_2 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
        %cst0_i32_0 = spirv.Constant 0 : i32
        %2 = spirv.AccessChain %pick_kernel_arg_2_addr[%cst0_i32_0] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
        %3 = spirv.Load "StorageBuffer" %2 : i32
        %pick_kernel_arg_3_addr = spirv.mlir.addressof @pick_kernel_arg_3 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %__builtin__WorkgroupId___addr = spirv.mlir.addressof @__builtin__WorkgroupId__ : !spirv.ptr<vector<3xi32>, Input>
        %4 = spirv.Load "Input" %__builtin__WorkgroupId___addr : vector<3xi32>
        %5 = spirv.CompositeExtract %4[0 : i32] : vector<3xi32>
        %__builtin__LocalInvocationId___addr = spirv.mlir.addressof @__builtin__LocalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
        %6 = spirv.Load "Input" %__builtin__LocalInvocationId___addr : vector<3xi32>
        %7 = spirv.CompositeExtract %6[0 : i32] : vector<3xi32>
        %cst32_i32 = spirv.Constant 32 : i32
        %8 = spirv.IMul %5, %cst32_i32 : i32
        %9 = spirv.IAdd %8, %7 : i32
        %10 = spirv.ULessThan %9, %1 : i32
        spirv.mlir.selection {
          spirv.BranchConditional %10, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          %cst0_i32_1 = spirv.Constant 0 : i32
          %cst0_i32_2 = spirv.Constant 0 : i32
          %cst1_i32 = spirv.Constant 1 : i32
          %11 = spirv.AccessChain %pick_kernel_arg_1_addr[%cst0_i32_1, %3] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          %12 = spirv.Load "StorageBuffer" %11 : f32
          %cst0_i32_3 = spirv.Constant 0 : i32
          %cst0_i32_4 = spirv.Constant 0 : i32
          %cst1_i32_5 = spirv.Constant 1 : i32
          %13 = spirv.AccessChain %pick_kernel_arg_3_addr[%cst0_i32_3, %9] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          spirv.Store "StorageBuffer" %13, %12 : f32
          spirv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spirv.mlir.merge
        }
        spirv.Return
      }
      spirv.EntryPoint "GLCompute" @scale_kernel, @__builtin__WorkgroupId__, @__builtin__LocalInvocationId__
      spirv.ExecutionMode @scale_kernel "LocalSize", 64, 1, 1
      spirv.ExecutionMode @scale_kernel "SignedZeroInfNanPreserve", 32
      spirv.EntryPoint "GLCompute" @pick_kernel, @__builtin__WorkgroupId__, @__builtin__LocalInvocationId__
      spirv.ExecutionMode @pick_kernel "LocalSize", 32, 1, 1
    }
  }
}

//--- denorm.lowered.mlir
module attributes {gpu.container_module} {
  gpu.module @coopvec_kernels [#spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>] {
    spirv.module @__spv__coopvec_kernels Logical GLSL450 requires #spirv.vce<v1.3, [Shader, Matrix, DenormPreserve], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_float_controls]> attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
      spirv.GlobalVariable @__builtin__LocalInvocationId__ built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
      spirv.GlobalVariable @__builtin__WorkgroupId__ built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>
      spirv.GlobalVariable @scale_kernel_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      spirv.GlobalVariable @scale_kernel_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @scale_kernel_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>
      spirv.GlobalVariable @scale_kernel_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.func @scale_kernel() "None" attributes {workgroup_attributions = 0 : i64} {
        %scale_kernel_arg_0_addr = spirv.mlir.addressof @scale_kernel_arg_0 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
        %cst0_i32 = spirv.Constant 0 : i32
        %0 = spirv.AccessChain %scale_kernel_arg_0_addr[%cst0_i32] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
        %1 = spirv.Load "StorageBuffer" %0 : i32
        %scale_kernel_arg_1_addr = spirv.mlir.addressof @scale_kernel_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %scale_kernel_arg_2_addr = spirv.mlir.addressof @scale_kernel_arg_2 : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>
        %cst0_i32_0 = spirv.Constant 0 : i32
        %2 = spirv.AccessChain %scale_kernel_arg_2_addr[%cst0_i32_0] : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<f32, StorageBuffer>
        %3 = spirv.Load "StorageBuffer" %2 : f32
        %scale_kernel_arg_3_addr = spirv.mlir.addressof @scale_kernel_arg_3 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %__builtin__WorkgroupId___addr = spirv.mlir.addressof @__builtin__WorkgroupId__ : !spirv.ptr<vector<3xi32>, Input>
        %4 = spirv.Load "Input" %__builtin__WorkgroupId___addr : vector<3xi32>
        %5 = spirv.CompositeExtract %4[0 : i32] : vector<3xi32>
        %__builtin__LocalInvocationId___addr = spirv.mlir.addressof @__builtin__LocalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
        %6 = spirv.Load "Input" %__builtin__LocalInvocationId___addr : vector<3xi32>
        %7 = spirv.CompositeExtract %6[0 : i32] : vector<3xi32>
        %cst64_i32 = spirv.Constant 64 : i32
        %8 = spirv.IMul %5, %cst64_i32 : i32
        %9 = spirv.IAdd %8, %7 : i32
        %10 = spirv.ULessThan %9, %1 : i32
        spirv.mlir.selection {
          spirv.BranchConditional %10, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          %cst0_i32_1 = spirv.Constant 0 : i32
          %cst0_i32_2 = spirv.Constant 0 : i32
          %cst1_i32 = spirv.Constant 1 : i32
          %11 = spirv.AccessChain %scale_kernel_arg_1_addr[%cst0_i32_1, %9] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          %12 = spirv.Load "StorageBuffer" %11 : f32
          %13 = spirv.FMul %12, %3 : f32
          %cst0_i32_3 = spirv.Constant 0 : i32
          %cst0_i32_4 = spirv.Constant 0 : i32
          %cst1_i32_5 = spirv.Constant 1 : i32
          %14 = spirv.AccessChain %scale_kernel_arg_3_addr[%cst0_i32_3, %9] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          spirv.Store "StorageBuffer" %14, %13 : f32
          spirv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spirv.mlir.merge
        }
        spirv.Return
      }
      spirv.GlobalVariable @pick_kernel_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      spirv.GlobalVariable @pick_kernel_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.GlobalVariable @pick_kernel_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      spirv.GlobalVariable @pick_kernel_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.func @pick_kernel() "None" attributes {workgroup_attributions = 0 : i64} {
        %pick_kernel_arg_0_addr = spirv.mlir.addressof @pick_kernel_arg_0 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
        %cst0_i32 = spirv.Constant 0 : i32
        %0 = spirv.AccessChain %pick_kernel_arg_0_addr[%cst0_i32] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
        %1 = spirv.Load "StorageBuffer" %0 : i32
        %pick_kernel_arg_1_addr = spirv.mlir.addressof @pick_kernel_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %pick_kernel_arg_2_addr = spirv.mlir.addressof @pick_kernel_arg_2 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
        %cst0_i32_0 = spirv.Constant 0 : i32
        %2 = spirv.AccessChain %pick_kernel_arg_2_addr[%cst0_i32_0] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
        %3 = spirv.Load "StorageBuffer" %2 : i32
        %pick_kernel_arg_3_addr = spirv.mlir.addressof @pick_kernel_arg_3 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        %__builtin__WorkgroupId___addr = spirv.mlir.addressof @__builtin__WorkgroupId__ : !spirv.ptr<vector<3xi32>, Input>
        %4 = spirv.Load "Input" %__builtin__WorkgroupId___addr : vector<3xi32>
        %5 = spirv.CompositeExtract %4[0 : i32] : vector<3xi32>
        %__builtin__LocalInvocationId___addr = spirv.mlir.addressof @__builtin__LocalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
        %6 = spirv.Load "Input" %__builtin__LocalInvocationId___addr : vector<3xi32>
        %7 = spirv.CompositeExtract %6[0 : i32] : vector<3xi32>
        %cst32_i32 = spirv.Constant 32 : i32
        %8 = spirv.IMul %5, %cst32_i32 : i32
        %9 = spirv.IAdd %8, %7 : i32
        %10 = spirv.ULessThan %9, %1 : i32
        spirv.mlir.selection {
          spirv.BranchConditional %10, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          %cst0_i32_1 = spirv.Constant 0 : i32
          %cst0_i32_2 = spirv.Constant 0 : i32
          %cst1_i32 = spirv.Constant 1 : i32
          %11 = spirv.AccessChain %pick_kernel_arg_1_addr[%cst0_i32_1, %3] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          %12 = spirv.Load "StorageBuffer" %11 : f32
          %cst0_i32_3 = spirv.Constant 0 : i32
          %cst0_i32_4 = spirv.Constant 0 : i32
          %cst1_i32_5 = spirv.Constant 1 : i32
          %13 = spirv.AccessChain %pick_kernel_arg_3_addr[%cst0_i32_3, %9] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
          spirv.Store "StorageBuffer" %13, %12 : f32
          spirv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spirv.mlir.merge
        }
        spirv.Return
      }
      spirv.EntryPoint "GLCompute" @scale_kernel, @__builtin__WorkgroupId__, @__builtin__LocalInvocationId__
      spirv.ExecutionMode @scale_kernel "LocalSize", 64, 1, 1
      spirv.ExecutionMode @scale_kernel "DenormPreserve", 32
      spirv.EntryPoint "GLCompute" @pick_kernel, @__builtin__WorkgroupId__, @__builtin__LocalInvocationId__
      spirv.ExecutionMode @pick_kernel "LocalSize", 32, 1, 1
    }
  }
}

