//===- NVPTXTarget.h - What LLVM knows about NVPTX targets (internal) -*- C
//-*-//
//
// The NVVM target of a gpu.module is an `#nvvm.target<chip = ...,
// features = ...>` attribute. LLVM only warns about a chip or feature it
// does not know (and then generates code for another one), and aborts the
// process on an instruction the chip lacks, so coopvec checks both names
// against the lists the installed LLVM prints (generated at build time by
// cmake/NVPTXNames.cmake) before anything reaches the backend.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_TARGET_NVPTXTARGET_H
#define COOPVEC_LIB_TARGET_NVPTXTARGET_H

#include "coopvec-c/Support.h"

#include <mlir-c/IR.h>

#include <stdbool.h>
#include <stddef.h>

enum { COOPVEC_NVVM_NAME_MAX = 128 };

/// The chip and features of an `#nvvm.target` attribute, with the
/// attribute's defaults (sm_50, no features) where it leaves them out.
typedef struct CoopvecNVVMTarget {
  char chip[COOPVEC_NVVM_NAME_MAX];
  char features[COOPVEC_NVVM_NAME_MAX];
  /// The chip or the features did not fit (the names above are cut short,
  /// and a check of them would miss what follows): never a valid target.
  bool tooLong;
} CoopvecNVVMTarget;

/// Whether `target` is an `#nvvm.target`; if so, fills `out`.
bool coopvecReadNVVMTarget(MlirAttribute target, CoopvecNVVMTarget *out);

/// Whether LLVM's NVPTX backend knows the processor `chip` (sm_80, ...).
bool coopvecNVPTXChipIsKnown(const char *chip);
/// The SM version of a chip name: 80 for sm_80 and sm_80a; -1 otherwise.
int coopvecNVPTXChipVersion(const char *chip);
/// The chip to compile for a GPU of compute capability `smVersion` (90 for
/// 9.0): `sm_<smVersion>` when LLVM knows it, else the newest plain `sm_XY`
/// LLVM knows below it (PTX runs on later GPUs; the driver compiles it for
/// the device). False when LLVM knows none at or below `smVersion`.
bool coopvecNVPTXChipForDevice(int smVersion, char *chip, size_t size);
/// Checks a comma list of +name / -name NVPTX features; false after
/// appending the reason to `error`.
bool coopvecNVPTXCheckFeatures(const char *features, CoopvecBuffer *error);

/// Checks that an explicit PTX version in `features` (+ptx40) is one LLVM
/// accepts for `chip` (and any +sm_* processor feature): an older one makes
/// LLVM exit the process. On failure, appends an error to `error`.
bool coopvecNVPTXCheckPTXVersion(const char *chip, const char *features,
                                 CoopvecBuffer *error);

/// The checks every NVVM target passes before LLVM's NVPTX backend sees
/// it (coopvec-prepare-nvvm, coopvec-check-nvvm-target and the pipeline
/// parser's check of nvvm-attach-target's options share them): a chip LLVM
/// knows, features LLVM knows, and no PTX version older than the chip
/// needs. On failure, appends the reason to `error` (a phrase that reads
/// after "'gpu.module' op ").
bool coopvecNVPTXCheckTarget(const char *chip, const char *features,
                             CoopvecBuffer *error);
/// coopvecNVPTXCheckTarget of an `#nvvm.target` read by
/// coopvecReadNVVMTarget; one whose names did not fit is an error.
bool coopvecNVPTXCheckNVVMTarget(const CoopvecNVVMTarget *target,
                                 CoopvecBuffer *error);

#endif // COOPVEC_LIB_TARGET_NVPTXTARGET_H
