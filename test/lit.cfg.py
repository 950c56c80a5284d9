# lit configuration for the coopvec test suite.
import os
import shutil
import subprocess

import lit.formats

config.name = "coopvec"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.coopvec_obj_root, "test")

# `--param coopvec_run_target=cuda` (or vulkan): every coopvec-run of the
# RUN lines runs on that target (test/Integration/GPU/cuda.test and
# test/Integration/Vulkan/vulkan.test run test/Integration/CPU so). --lanes
# is an option of the CPU target and is dropped; a RUN line that needs the
# CPU target itself (a CPU --pipeline) is `%if !coopvec-run-target %{ %}`.
# The outputs go to their own tree, so that such a run may go on beside the
# plain one.
# `--param coopvec_run_options=--emulate-mma` adds options of that target
# to every such coopvec-run (test/Integration/Vulkan/vulkan-emulate-mma.test
# runs the suite with the tensor-core schedule emulated on lavapipe), and
# names the output tree after them.
run_target = lit_config.params.get("coopvec_run_target")
if run_target:
    run_options = lit_config.params.get("coopvec_run_options", "")
    tree = run_target + "".join(
        "-" + word.strip("-") for word in run_options.split())
    config.name = "coopvec-" + tree
    config.test_exec_root = os.path.join(config.coopvec_obj_root, "test",
                                         "target-" + tree)
    config.substitutions.append((r"(?<![\w/.-])coopvec-run(?= )",
                                 "coopvec-run --target=" + run_target +
                                 (" " + run_options if run_options else "")))
    config.substitutions.append((r" --lanes=[0-9]+", ""))
    config.available_features.add("coopvec-run-target")

# Our tools first, then LLVM's (mlir-opt, FileCheck, not, split-file).
run_dir = os.path.join(config.coopvec_obj_root, "tools", "coopvec-run")
path = os.pathsep.join([config.coopvec_tools_dir, run_dir, config.coopvec_capi_dir,
                        config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
config.environment["PATH"] = path

irdl = os.path.join(config.coopvec_src_root, "dialect", "coopvec.irdl.mlir")
config.substitutions.append(("%irdl", irdl))
config.substitutions.append(("%coopvec_src_root", config.coopvec_src_root))
config.substitutions.append(("%coopvec_obj_root", config.coopvec_obj_root))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%cc", config.c_compiler))
# MLIR's headers, for C sources compiled by a test (mlir-c/ of the API).
config.substitutions.append(("%mlir_include_dir",
                             config.mlir_include_dirs.split(";")[0]))

# The probes below are test infrastructure, built with the build's flags:
# they run without LeakSanitizer, which would report what a Vulkan driver
# keeps in its globals once the probe unloads it.
probe_options = {}
if config.sanitize:
    config.available_features.add("asan")
    # LeakSanitizer is on: every test of the sanitizer build is also a leak
    # check (unreachable blocks, as valgrind's definite and indirect leaks;
    # what MLIR's libraries keep reachable at exit is not reported).
    config.environment["ASAN_OPTIONS"] = "detect_leaks=1"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    probe_options = {"ASAN_OPTIONS": "detect_leaks=0"}
ptxas = shutil.which("ptxas", path="/usr/local/cuda/bin:" + os.environ.get("PATH", ""))
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
# CUDA (docs/testing.md). `cuda-gpu`: the probe (test/cuda/cuda-probe.c,
# independent of the library) found a GPU of compute capability 7.0 or
# newer; the tests that run kernels need it and are UNSUPPORTED without.
# Everything else about the backend is tested on every machine: with no
# driver, with the toolkit's stub library (`cuda-stub`) and with the fake
# driver of test/cuda (%fake_libcuda), chosen with COOPVEC_LIBCUDA.
for var in ("CUDA_VISIBLE_DEVICES", "COOPVEC_LIBCUDA"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
probe = os.path.join(config.coopvec_obj_root, "test", "cuda",
                     "coopvec-cuda-probe")
try:
    found = subprocess.run([probe], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=120,
                           env=dict(config.environment, **probe_options))
    if found.returncode == 0:
        config.available_features.add("cuda-gpu")
    lit_config.note("CUDA: " + found.stdout.decode(errors="replace").strip())
except (OSError, subprocess.TimeoutExpired) as error:
    lit_config.note("CUDA: the probe did not run: %s" % error)
# Vulkan (docs/testing.md). `vulkan`: the probe (test/vulkan/vulkan-probe.c,
# independent of the library) found a device 0 with Vulkan 1.2;
# `vulkan-cooperative-matrix`: that device has VK_KHR_cooperative_matrix;
# `vulkan-llvmpipe`: it is lavapipe (tests of its limits).
# lavapipe's subgroup size follows LP_NATIVE_VECTOR_WIDTH: 256 bits make it
# 8 lanes on every machine. COOPVEC_LIBVULKAN (the backend's loader) and
# VK_ICD_FILENAMES (the loader's drivers) pass through.
config.environment["LP_NATIVE_VECTOR_WIDTH"] = "256"
for var in ("COOPVEC_LIBVULKAN", "VK_ICD_FILENAMES",
            "VK_DRIVER_FILES", "MESA_VK_DEVICE_SELECT"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
probe = os.path.join(config.coopvec_obj_root, "test", "vulkan",
                     "coopvec-vulkan-probe")
try:
    found = subprocess.run([probe], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=120,
                           env=dict(config.environment, **probe_options))
    described = found.stdout.decode(errors="replace").strip()
    if found.returncode == 0:
        config.available_features.add("vulkan")
        if "VK_KHR_cooperative_matrix" in described:
            config.available_features.add("vulkan-cooperative-matrix")
        if described.startswith("llvmpipe"):
            config.available_features.add("vulkan-llvmpipe")
    lit_config.note("Vulkan: " + described)
except (OSError, subprocess.TimeoutExpired) as error:
    lit_config.note("Vulkan: the probe did not run: %s" % error)
# `vulkan-f32-subnormals-flushed`: device 0 lacks shaderDenormPreserveFloat32
# (coopvec-run --list-devices says so), so its driver may flush f32
# subnormals, which the dialect keeps (NVIDIA's driver does; lavapipe
# reports the same).
if "vulkan" in config.available_features:
    try:
        listed = subprocess.run(
            [os.path.join(run_dir, "coopvec-run"), "--list-devices"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120,
            env=config.environment).stdout.decode(errors="replace")
        first = next((line for line in listed.splitlines()
                      if line.startswith("0: ")), "")
        if "f32 subnormals may be flushed" in first:
            config.available_features.add("vulkan-f32-subnormals-flushed")
    except (OSError, subprocess.TimeoutExpired) as error:
        lit_config.note("Vulkan: coopvec-run --list-devices did not run: %s"
                        % error)
# `spirv-val` (Debian's spirv-tools): validates the SPIR-V of
# coopvec-lower-to-spirv (test/Integration/Vulkan/spirv-val.test). Debian's
# 2023.1 does not know capability 6022 (CooperativeMatrixKHR): only portable
# modules are validated.
spirv_val = shutil.which("spirv-val")
if spirv_val:
    config.available_features.add("spirv-val")
    config.substitutions.append(("%spirv_val", spirv_val))
cuda_stub = "/usr/local/cuda/lib64/stubs/libcuda.so"
if os.path.exists(cuda_stub):
    config.available_features.add("cuda-stub")
    config.substitutions.append(("%cuda_stub", cuda_stub))
config.substitutions.append(
    ("%fake_libcuda", os.path.join(config.coopvec_obj_root, "test", "cuda",
                                   "fake-cuda", "libcuda.so.1")))
# bench/mlp-gpu is not in the default build (cmake --build <dir> --target
# mlp-gpu): `mlp-gpu` where it was built. Its cuBLASLt baselines run on the
# host with the test double of test/cuda (%fake_libcublaslt).
if os.path.exists(os.path.join(config.coopvec_obj_root, "bench", "mlp-gpu")):
    config.available_features.add("mlp-gpu")
config.substitutions.append(
    ("%fake_libcublaslt", os.path.join(config.coopvec_obj_root, "test", "cuda",
                                       "fake-cublaslt", "libcublasLt.so.13")))
lit_path = shutil.which("lit", path=config.llvm_tools_dir)
if lit_path:
    config.substitutions.append(("%lit", lit_path))

# The Python package's tests (test/python) need NumPy and pytest: Debian's
# python3-numpy and python3-pytest, which belong to /usr/bin/python3. The
# first interpreter that imports both (python3 on PATH, then Debian's) runs
# them as %python.
for python in (shutil.which("python3", path=path), "/usr/bin/python3"):
    if python and subprocess.run([python, "-c", "import numpy, pytest"],
                                 stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL).returncode == 0:
        config.available_features.add("python-numpy")
        config.substitutions.append(("%python", python))
        break
if shutil.which("pkg-config"):
    config.available_features.add("pkg-config")
# `cxx`: a C++ compiler for the C++ host of test/install (docs/embedding.md);
# the library itself is C only.
cxx = shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")
if cxx:
    config.available_features.add("cxx")
    config.substitutions.append(("%cxx", cxx))
if shutil.which("valgrind"):
    config.available_features.add("valgrind")
