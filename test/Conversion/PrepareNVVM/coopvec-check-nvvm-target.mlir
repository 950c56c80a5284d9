// RUN: coopvec-opt --split-input-file --verify-diagnostics --coopvec-check-nvvm-target %s | FileCheck %s

// coopvec-check-nvvm-target runs the checks of coopvec-prepare-nvvm's
// target (chip, features, PTX version; not its sm_70 minimum) on every
// #nvvm.target, so that gpu-module-to-binary cannot make LLVM's NVPTX
// backend exit the process. The pipeline parser inserts it before every
// gpu-module-to-binary (test/Regression/nvvm-ptx-version-upstream.mlir).

// Targets LLVM accepts are left as they are, the attribute's defaults
// (sm_50, no features) included; so are other targets and a gpu.module
// without any.
// CHECK-LABEL: gpu.module @ok [#nvvm.target<chip = "sm_90", features = "+ptx78">]
// CHECK-LABEL: gpu.module @default [#nvvm.target]
// CHECK-LABEL: gpu.module @highest [#nvvm.target<chip = "sm_80", features = "+ptx40,+ptx80">]
// CHECK-LABEL: gpu.module @rocdl [#rocdl.target]
// CHECK-LABEL: gpu.module @none
module attributes {gpu.container_module} {
  gpu.module @ok [#nvvm.target<chip = "sm_90", features = "+ptx78">] {
  }
  gpu.module @default [#nvvm.target] {
  }
  gpu.module @highest [#nvvm.target<chip = "sm_80", features = "+ptx40,+ptx80">] {
  }
  gpu.module @rocdl [#rocdl.target] {
  }
  gpu.module @none {
  }
}

// -----

// LLVM would exit the process: "PTX version 4.0 does not support target
// 'sm_90'".
module attributes {gpu.container_module} {
  // expected-error@+1 {{'gpu.module' op features '+ptx40' ask for PTX 4.0, but sm_90 needs PTX 7.8 or newer (leave the +ptx feature out for the default, or raise it)}}
  gpu.module @old_ptx [#nvvm.target<chip = "sm_90", features = "+ptx40">] {
  }
}

// -----

// A processor feature raises the minimum, as in LLVM.
// expected-error@+1 {{'gpu.module' op features '+ptx70,+sm_90' ask for PTX 7.0, but sm_90 needs PTX 7.8 or newer}}
gpu.module @processor_feature [#nvvm.target<chip = "sm_80", features = "+ptx70,+sm_90">] {
}

// -----

// Every #nvvm.target is checked, not only the first; one error per
// gpu.module.
// expected-error@+1 {{'gpu.module' op features '+ptx60' ask for PTX 6.0, but sm_80 needs PTX 7.0 or newer}}
gpu.module @second [#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_80", features = "+ptx60">, #nvvm.target<chip = "sm_81">] {
}

// -----

// LLVM would only warn about these, and generate code for another chip.
// expected-error@+1 {{'gpu.module' op targets chip 'sm_81', which LLVM's NVPTX backend does not know (see `llc -mtriple=nvptx64-nvidia-cuda -mcpu=help`)}}
gpu.module @unknown_chip [#nvvm.target<chip = "sm_81">] {
}

// -----

// expected-error@+1 {{'gpu.module' op unknown NVPTX feature '+ptx99' in '+ptx80,+ptx99'}}
gpu.module @unknown_feature [#nvvm.target<chip = "sm_80", features = "+ptx80,+ptx99">] {
}

// -----

// Names are read into 127 characters: what follows must not escape the
// check (LLVM would see PTX 4.0 for sm_100 here and exit).
// expected-error@+1 {{'gpu.module' op has a chip or features longer than 127 characters, which coopvec cannot check}}
gpu.module @too_long [#nvvm.target<chip = "sm_90", features = "+ptx88,+ptx88,+ptx88,+ptx88,+ptx88,+ptx88,+ptx88,+ptx88,+sm_100,+sm_100,+sm_100,+sm_100,+sm_100,+sm_100,+sm_100,+sm_100,+sm_100,-ptx88,+ptx40">] {
}

// -----

// Every gpu.module is checked, each with its own error.
module attributes {gpu.container_module} {
  // expected-error@+1 {{'gpu.module' op features '+ptx40' ask for PTX 4.0, but sm_90 needs PTX 7.8 or newer}}
  gpu.module @a [#nvvm.target<chip = "sm_90", features = "+ptx40">] {
  }
  gpu.module @b [#nvvm.target<chip = "sm_90">] {
  }
  // expected-error@+1 {{'gpu.module' op features '+ptx60' ask for PTX 6.0, but sm_80 needs PTX 7.0 or newer}}
  gpu.module @c [#nvvm.target<chip = "sm_80", features = "+ptx60">] {
  }
}
