# lit configuration for the coopvec test suite.
import os
import shutil

import lit.formats

config.name = "coopvec"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.coopvec_obj_root, "test")

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

if config.sanitize:
    config.available_features.add("asan")
    # MLIR's own libraries are not instrumented; leaks inside them at exit
    # are not ours. Our leaks are caught by valgrind runs (docs/testing.md).
    config.environment["ASAN_OPTIONS"] = "detect_leaks=0"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
if shutil.which("ptxas", path="/usr/local/cuda/bin:" + os.environ.get("PATH", "")):
    config.available_features.add("ptxas")
if shutil.which("pkg-config"):
    config.available_features.add("pkg-config")
if shutil.which("valgrind"):
    config.available_features.add("valgrind")
