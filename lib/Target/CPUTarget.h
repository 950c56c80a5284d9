//===- CPUTarget.h - What LLVM knows about a CPU target (internal) -*- C
//-*-===//
//
// The CPU lowering takes its lane count and register blocking from the
// *target* (a triple, a CPU name and feature flags), never from the machine
// that compiles: cross-compiled objects are laid out for the machine that
// runs them. CPU names are checked against the list the installed LLVM
// knows (generated at build time by cmake/CPUNames.cmake); the features a
// CPU implies are what LLVM itself derives (the upstream pass
// llvm-target-to-target-features, run on a scratch module).
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_TARGET_CPUTARGET_H
#define COOPVEC_LIB_TARGET_CPUTARGET_H

#include "coopvec-c/Support.h"

#include <stdbool.h>

typedef struct CoopvecCPUTarget {
  char triple[128];
  char cpu[64];
  /// The features handed to LLVM with the CPU (the host's own when the CPU
  /// is "host"; the user's otherwise, e.g. "+avx512f,-fma"; may be empty).
  CoopvecBuffer features;
  /// Every feature LLVM derives for the CPU and `features` (implied ones
  /// included, e.g. +avx2 from +avx512f), as MLIR prints the `#llvm.target`
  /// attribute: `"+avx2", "-avx512fp16", ...`. Kept so that the execution
  /// engine can compare the ISA code was compiled for with the host's.
  CoopvecBuffer derivedFeatures;
  /// The widest float SIMD register the CPU has, and how many there are.
  int vectorBits;
  int numVectorRegisters;
  /// Whether the CPU has a fused multiply-add instruction (x86 FMA3,
  /// AArch64): without one, llvm.fma becomes a libm call per element.
  bool hasFusedMultiplyAdd;
} CoopvecCPUTarget;

/// Resolves a target: `triple` ("" or NULL: the host's default triple),
/// `cpu` ("host", "" or NULL: the host CPU and its features; else a CPU
/// name LLVM knows for the triple's architecture), `features` (extra
/// "+feature,-feature" flags, may be empty). Fails with a one-line message
/// in `error` for an unknown triple or CPU, or bad feature syntax.
bool coopvecCPUTargetResolve(const char *triple, const char *cpu,
                             const char *features, CoopvecCPUTarget *target,
                             CoopvecBuffer *error);
void coopvecCPUTargetFree(CoopvecCPUTarget *target);

/// Whether LLVM derived `+name` for the target (see derivedFeatures).
bool coopvecCPUTargetHasFeature(const CoopvecCPUTarget *target,
                                const char *name);

/// Whether this host can run code compiled for `cpu` (NULL or "": the host
/// CPU) with `features` (a "+a,-b" list, may be NULL), as the CPU lowering
/// stamps them on functions (`target_cpu`, `target_features`). The CPU must
/// be one of the host architecture, and every x86 ISA extension LLVM may
/// use for the lowered code that the code's target has must be present on
/// the host; otherwise the code could die of SIGILL. Fails with a message
/// naming the missing extensions in `error`.
bool coopvecCPUTargetCheckHost(const char *cpu, const char *features,
                               CoopvecBuffer *error);

/// Whether LLVM knows `cpu` for the architecture of `triple`. Architectures
/// without a list (other than x86_64 and aarch64) accept any name.
bool coopvecCPUNameIsKnown(const char *triple, const char *cpu);

#endif // COOPVEC_LIB_TARGET_CPUTARGET_H
