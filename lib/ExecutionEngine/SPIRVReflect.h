//===- SPIRVReflect.h - What a SPIR-V module asks of its host -----*- C -*-===//
//
// The Vulkan backend reads the serialized module instead of the MLIR it came
// from: the words are what the driver gets, so the capabilities checked, the
// entry points dispatched, their workgroup sizes and the buffers bound are
// exactly the driver's. MLIR's serializer names the storage buffer of
// argument i of kernel @k `k_arg_i` (spirv-lower-abi-attrs), which ties
// each (descriptor set, binding) to a kernel argument.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_EXECUTIONENGINE_SPIRVREFLECT_H
#define COOPVEC_LIB_EXECUTIONENGINE_SPIRVREFLECT_H

#include "coopvec-c/Support.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// The shape of a storage buffer's one member.
typedef enum CoopvecSPIRVBufferShape {
  CoopvecSPIRVScalar = 0,  // struct { T } : a uniform scalar argument
  CoopvecSPIRVArray = 1,   // struct { T[] } or struct { T[N] }
  CoopvecSPIRVUnknown = 2, // anything else (vectors, nested structs)
} CoopvecSPIRVBufferShape;

/// One storage buffer of a kernel: argument `argIndex` of the kernel.
typedef struct CoopvecSPIRVBinding {
  uint32_t set, binding;
  int argIndex;
  CoopvecSPIRVBufferShape shape;
  uint32_t elementBits; // 16, 32, 64
  bool isFloat;
} CoopvecSPIRVBinding;

typedef struct CoopvecSPIRVEntryPoint {
  char *name;
  uint32_t id;                   // the function's result id
  uint32_t localSize[3];         // OpExecutionMode LocalSize (0 when absent)
  CoopvecSPIRVBinding *bindings; // sorted by argIndex
  int numBindings;
} CoopvecSPIRVEntryPoint;

typedef struct CoopvecSPIRVModule {
  uint32_t *capabilities;
  int numCapabilities;
  char **extensions;
  int numExtensions;
  CoopvecSPIRVEntryPoint *entryPoints;
  int numEntryPoints;
  /// Bytes of the Workgroup variables of the entry point that uses the
  /// most: those its function's instructions name (SPIR-V before 1.4 does
  /// not list them in OpEntryPoint). With function calls, all of the
  /// module's.
  uint64_t workgroupBytes;
  /// The float-control execution modes of the module: bit 4 * m + w for
  /// mode DenormPreserve + m (0 to 4: DenormPreserve, DenormFlushToZero,
  /// SignedZeroInfNanPreserve, RoundingModeRTE, RoundingModeRTZ) and width
  /// w (0: 16, 1: 32, 2: 64 bits, 3: another).
  uint32_t floatControls;
} CoopvecSPIRVModule;

/// Reads `numWords` words of a SPIR-V binary (host byte order, as MLIR
/// serializes it). On a malformed module, appends why to `error` and
/// returns false; `module` is then empty. Free with coopvecSPIRVModuleFree
/// in both cases.
bool coopvecSPIRVModuleRead(const uint32_t *words, size_t numWords,
                            CoopvecSPIRVModule *module, CoopvecBuffer *error);
void coopvecSPIRVModuleFree(CoopvecSPIRVModule *module);

/// The name of a SPIR-V capability ("CooperativeMatrixKHR"), or NULL.
const char *coopvecSPIRVCapabilityName(uint32_t capability);

#endif // COOPVEC_LIB_EXECUTIONENGINE_SPIRVREFLECT_H
