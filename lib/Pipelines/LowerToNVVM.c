//===- LowerToNVVM.c - The coopvec-lower-to-nvvm pipeline -----------------===//
//
// From coopvec IR to a `gpu.binary` holding PTX (read it with
// coopvecEmitGPU, `coopvec-opt --emit=ptx` or `--emit=cubin`). `chip=` and
// `features=` become the gpu.module's `#nvvm.target` (nvvm-attach-target,
// with LLVM's -O3); `binary=false` stops before gpu-module-to-binary, so
// the kernels keep their launch attributes (coopvec.block_size, ...) for a
// caller that reads them and serializes itself (the execution engine's
// CUDA backend); every other option (`matvec=`, `allow-tf32=`,
// `block-size=`, `subgroup-size=`, `workgroup-memory=`, `bounds-checks=`,
// `reduce-mode=`,
// ...) is passed on to convert-coopvec-to-gpu, which reports any it does
// not know.
//
// Inside the gpu.module: coopvec-expand-math turns math.sin, exp, ... into
// arith + math.fma code (libdevice's __nv_sinf would differ from the other
// targets, and needs a CUDA toolkit at link time), coopvec-prepare-nvvm
// checks the target and turns
// workgroup allocs and float subgroup reductions into forms NVVM lowers.
// convert-math-to-llvm and convert-arith-to-llvm run before
// convert-gpu-to-nvvm, which would turn math.fma and arith.maxnumf /
// minnumf into libdevice calls (__nv_fmaf, __nv_fmaxf): gpu-module-to-binary
// links libdevice only when it finds a CUDA toolkit (CUDA_HOME, ...), and
// without one the PTX calls undefined functions. As LLVM intrinsics they are
// single instructions (fma.rn.f32, max.f32) and the PTX does not depend on
// the compiling machine. For the same reason coopvec-prepare-nvvm turns
// math.floor, ceil, round, roundeven, absf, copysign and sqrt into calls
// of their LLVM intrinsics: convert-gpu-to-nvvm refuses the llvm.intr.*
// ops that convert-math-to-llvm makes of them.
//
//===----------------------------------------------------------------------===//

#include "Pass/PassDef.h"
#include "Pipelines/PipelineOptions.h"

#include "coopvec-c/Support.h"

/// The options split between the target, the pipeline and the conversion.
typedef struct NVVMOptions {
  MlirStringRef chip, features;
  bool binary;              // end with gpu-module-to-binary
  CoopvecBuffer conversion; // the rest, as given
} NVVMOptions;

/// Sorts the option words between the target, the pipeline and the
/// conversion.
static void splitOptions(MlirStringRef text, NVVMOptions *options) {
  CoopvecOptionWord w;
  for (size_t pos = 0; coopvecNextOptionWord(text, &pos, &w);) {
    if (coopvecStringRefIs(w.key, "chip"))
      options->chip = w.value;
    else if (coopvecStringRefIs(w.key, "features"))
      options->features = w.value;
    else if (coopvecStringRefIs(w.key, "binary") &&
             (coopvecStringRefIs(w.value, "true") ||
              coopvecStringRefIs(w.value, "false")))
      options->binary = coopvecStringRefIs(w.value, "true");
    else // including a `binary=` of another value, which the conversion
         // reports as an option it does not know
      coopvecBufferAppendf(&options->conversion, "%s%.*s",
                           options->conversion.size ? " " : "",
                           (int)w.word.length, w.word.data);
  }
}

static void expandLowerToNVVM(MlirStringRef text, MlirStringCallback append,
                              void *userData) {
  NVVMOptions options = {mlirStringRefCreateFromCString("sm_80"),
                         mlirStringRefCreate("", 0),
                         true,
                         {0}};
  splitOptions(text, &options);
  CoopvecBuffer pipeline = {0};
  coopvecBufferAppendf(
      &pipeline,
      "coopvec-verify,convert-coopvec-to-gpu{%s},"
      "nvvm-attach-target{chip=%.*s%s%.*s O=3},"
      "gpu.module(coopvec-expand-math,coopvec-prepare-nvvm,canonicalize,cse,"
      "loop-invariant-code-motion,strip-debuginfo,convert-vector-to-scf,"
      "convert-scf-to-cf,convert-nvgpu-to-nvvm,convert-math-to-llvm,"
      "convert-arith-to-llvm,convert-gpu-to-nvvm,"
      "convert-vector-to-llvm,convert-arith-to-llvm,convert-ub-to-llvm,"
      "llvm-optimize-for-nvvm-target,canonicalize,cse,"
      "reconcile-unrealized-casts)%s",
      coopvecBufferStr(&options.conversion), (int)options.chip.length,
      options.chip.data, options.features.length ? " features=" : "",
      (int)options.features.length, options.features.data,
      options.binary ? ",gpu-module-to-binary{format=isa}" : "");
  append(mlirStringRefCreate(pipeline.data, pipeline.size), userData);
  coopvecBufferFree(&pipeline);
  coopvecBufferFree(&options.conversion);
}

const CoopvecPipelineDef coopvecLowerToNVVMPipelineDef = {
    .argument = "coopvec-lower-to-nvvm",
    .description =
        "Lower coopvec IR to a gpu.binary with PTX for an NVIDIA "
        "GPU (convert-coopvec-to-gpu, nvvm-attach-target, "
        "coopvec-prepare-nvvm, then upstream passes; "
        "binary=false: stop before gpu-module-to-binary). "
        "Options: chip, features, binary, and those of "
        "convert-coopvec-to-gpu (matvec, allow-tf32, block-size, "
        "workgroup-memory, register-elements, bounds-checks, "
        "reduce-mode, emulate-mma, mma-weights, training, mma-regions)",
    .expand = expandLowerToNVVM,
};
