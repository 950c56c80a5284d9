//===- SPIRVReflect.c - Read capabilities, entry points and buffers -------===//
//
// A SPIR-V module is a header of five words and a stream of instructions,
// each led by a word holding its length (high half) and opcode (low half).
// One pass records what every result id is (types, storage buffers, names,
// bindings); entry points are then matched with their buffers by name.
// Only the few instructions that describe the host interface are read.
//
//===----------------------------------------------------------------------===//

#include "ExecutionEngine/SPIRVReflect.h"

#include <stdlib.h>
#include <string.h>

enum {
  kMagic = 0x07230203,
  kHeaderWords = 5,
  kVersion1_4 = 0x00010400, // SPIR-V 1.4 in the header's version word
  kMaxBound = 1 << 22,      // ids; far above what any kernel has
  kWorkgroup = 4,           // StorageClass
  kStorageBuffer = 12,
  kLocalSize = 17, // ExecutionMode
  kDenormPreserve = 4459,
  kRoundingModeRTZ = 4463,
  kBinding = 33, // Decoration
  kDescriptorSet = 34,
};

enum {
  OpName = 5,
  OpExtension = 10,
  OpEntryPoint = 15,
  OpExecutionMode = 16,
  OpCapability = 17,
  OpTypeInt = 21,
  OpTypeFloat = 22,
  OpTypeVector = 23,
  OpTypeArray = 28,
  OpTypeRuntimeArray = 29,
  OpTypeStruct = 30,
  OpTypePointer = 32,
  OpConstant = 43,
  OpFunction = 54,
  OpFunctionEnd = 56,
  OpFunctionCall = 57,
  OpVariable = 59,
  OpDecorate = 71,
};

/// What one result id is: `opcode` defines it, a/b are its operands as
/// listed per opcode in record().
typedef struct IdInfo {
  uint32_t opcode, a, b;
  size_t at;        // the defining instruction
  const char *name; // points into the words
  int64_t binding, set;
  /// A Workgroup variable: the last function that used it. A function:
  /// the bytes of the Workgroup variables its body uses.
  uint32_t usedBy;
  uint64_t workgroupBytes;
} IdInfo;

typedef struct Reader {
  const uint32_t *words;
  size_t numWords;
  uint32_t bound;
  IdInfo *ids;
  CoopvecSPIRVModule *module;
  CoopvecBuffer *error;
  uint32_t function;  // the function whose body is being read, or 0
  bool functionCalls; // some function calls another
} Reader;

static const struct {
  uint32_t value;
  const char *name;
} kCapabilityNames[] = {
    {0, "Matrix"},
    {1, "Shader"},
    {4, "Addresses"},
    {5, "Linkage"},
    {6, "Kernel"},
    {9, "Float16"},
    {10, "Float64"},
    {11, "Int64"},
    {12, "Int64Atomics"},
    {22, "Int16"},
    {39, "Int8"},
    {61, "GroupNonUniform"},
    {62, "GroupNonUniformVote"},
    {63, "GroupNonUniformArithmetic"},
    {64, "GroupNonUniformBallot"},
    {65, "GroupNonUniformShuffle"},
    {66, "GroupNonUniformShuffleRelative"},
    {67, "GroupNonUniformClustered"},
    {68, "GroupNonUniformQuad"},
    {4433, "StorageBuffer16BitAccess"},
    {4434, "UniformAndStorageBuffer16BitAccess"},
    {4441, "VariablePointersStorageBuffer"},
    {4442, "VariablePointers"},
    {4448, "StorageBuffer8BitAccess"},
    {4464, "DenormPreserve"},
    {4465, "DenormFlushToZero"},
    {4466, "SignedZeroInfNanPreserve"},
    {4467, "RoundingModeRTE"},
    {4468, "RoundingModeRTZ"},
    {5345, "VulkanMemoryModel"},
    {5357, "CooperativeMatrixNV"},
    {5394, "CooperativeVectorNV"},
    {6022, "CooperativeMatrixKHR"},
    {6033, "AtomicFloat32AddEXT"},
    {6095, "AtomicFloat16AddEXT"},
};

const char *coopvecSPIRVCapabilityName(uint32_t capability) {
  for (size_t i = 0; i < sizeof(kCapabilityNames) / sizeof(kCapabilityNames[0]);
       ++i)
    if (kCapabilityNames[i].value == capability)
      return kCapabilityNames[i].name;
  return NULL;
}

static bool fail(Reader *reader, const char *message, size_t at) {
  coopvecBufferAppendf(reader->error, "malformed SPIR-V at word %zu: %s", at,
                       message);
  return false;
}

/// The literal string starting at word `from` of an instruction of
/// `length` words at `at`; NULL unless NUL-terminated inside it.
static const char *literal(const Reader *reader, size_t at, uint32_t length,
                           uint32_t from) {
  if (from >= length)
    return NULL;
  const char *text = (const char *)&reader->words[at + from];
  size_t room = (size_t)(length - from) * 4;
  return memchr(text, '\0', room) ? text : NULL;
}

static bool validId(const Reader *reader, uint32_t id) {
  return id > 0 && id < reader->bound;
}

static char *copyString(const char *text) {
  size_t length = strlen(text);
  char *copy = malloc(length + 1);
  if (copy)
    memcpy(copy, text, length + 1);
  return copy;
}

static bool append(void **items, int *count, size_t size, const void *item) {
  void *grown = realloc(*items, (size_t)(*count + 1) * size);
  if (!grown)
    return false;
  memcpy((char *)grown + (size_t)*count * size, item, size);
  *items = grown;
  ++*count;
  return true;
}

static bool addEntryPoint(Reader *reader, size_t at, uint32_t length) {
  const char *name = literal(reader, at, length, 3);
  if (length < 4 || !name)
    return fail(reader, "OpEntryPoint without a name", at);
  CoopvecSPIRVEntryPoint entry = {.name = copyString(name),
                                  .id = reader->words[at + 2]};
  CoopvecSPIRVModule *module = reader->module;
  if (entry.name && append((void **)&module->entryPoints,
                           &module->numEntryPoints, sizeof(entry), &entry))
    return true;
  free(entry.name);
  return fail(reader, "out of memory", at);
}

/// OpExecutionMode %f LocalSize x y z: remembered by the function's id
/// (which nothing else records) until the entry points are resolved.
/// The float controls (DenormPreserve .. RoundingModeRTZ, each with its
/// bit width) are collected for the whole module.
static void recordMode(Reader *reader, size_t at, uint32_t length) {
  uint32_t mode = reader->words[at + 2];
  if (length == 6 && mode == kLocalSize &&
      validId(reader, reader->words[at + 1]))
    reader->ids[reader->words[at + 1]].b = (uint32_t)at;
  if (length != 4 || mode < kDenormPreserve || mode > kRoundingModeRTZ)
    return;
  uint32_t width = reader->words[at + 3];
  int index = width == 16 ? 0 : width == 32 ? 1 : width == 64 ? 2 : 3;
  reader->module->floatControls |= 1u << (4 * (mode - kDenormPreserve) + index);
}

static bool recordModule(Reader *reader, uint32_t opcode, size_t at,
                         uint32_t length) {
  CoopvecSPIRVModule *module = reader->module;
  if (opcode == OpCapability) {
    if (length != 2)
      return fail(reader, "OpCapability of the wrong length", at);
    if (!append((void **)&module->capabilities, &module->numCapabilities,
                sizeof(uint32_t), &reader->words[at + 1]))
      return fail(reader, "out of memory", at);
    return true;
  }
  if (opcode == OpExtension) {
    const char *name = literal(reader, at, length, 1);
    char *copy = name ? copyString(name) : NULL;
    if (!copy)
      return fail(reader, "OpExtension without a name", at);
    if (append((void **)&module->extensions, &module->numExtensions,
               sizeof(char *), &copy))
      return true;
    free(copy);
    return fail(reader, "out of memory", at);
  }
  if (opcode == OpEntryPoint)
    return addEntryPoint(reader, at, length);
  if (opcode == OpExecutionMode)
    recordMode(reader, at, length);
  return true;
}

static void recordDecoration(Reader *reader, size_t at, uint32_t length) {
  uint32_t id = reader->words[at + 1], decoration = reader->words[at + 2];
  if (length != 4 || !validId(reader, id))
    return;
  if (decoration == kBinding)
    reader->ids[id].binding = reader->words[at + 3];
  else if (decoration == kDescriptorSet)
    reader->ids[id].set = reader->words[at + 3];
}

/// Sets what result id `id` is; its name and decorations stay.
static void define(Reader *reader, uint32_t id, uint32_t opcode, uint32_t a,
                   uint32_t b, size_t at) {
  IdInfo *info = &reader->ids[id];
  info->opcode = opcode;
  info->a = a;
  info->b = b;
  info->at = at;
}

/// Records types, constants, variables, names and decorations by id.
static bool record(Reader *reader, uint32_t opcode, size_t at,
                   uint32_t length) {
  const uint32_t *w = &reader->words[at];
  bool typeLike = opcode == OpTypeInt || opcode == OpTypeFloat ||
                  opcode == OpTypeVector || opcode == OpTypeArray ||
                  opcode == OpTypeRuntimeArray;
  if (opcode == OpName && length >= 3 && validId(reader, w[1]))
    reader->ids[w[1]].name = literal(reader, at, length, 2);
  else if (opcode == OpDecorate)
    recordDecoration(reader, at, length);
  else if (typeLike && length >= 3 && validId(reader, w[1]))
    define(reader, w[1], opcode, w[2], 0, at);
  else if (opcode == OpTypeStruct && length >= 2 && validId(reader, w[1]))
    define(reader, w[1], opcode, length == 3 ? w[2] : 0, 0, at);
  else if (opcode == OpTypePointer && length == 4 && validId(reader, w[1]))
    define(reader, w[1], opcode, w[2], w[3], at);
  else if ((opcode == OpVariable || opcode == OpConstant) && length >= 4 &&
           validId(reader, w[2]))
    define(reader, w[2], opcode, w[1], w[3], at);
  return recordModule(reader, opcode, at, length);
}

/// Bytes of a type (tightly packed, as workgroup memory is counted); 0 for
/// what has no fixed size.
static uint64_t sizeOf(const Reader *reader, uint32_t type, int depth) {
  if (!validId(reader, type) || depth > 16)
    return 0;
  const IdInfo *info = &reader->ids[type];
  const uint32_t *w = &reader->words[info->at];
  uint32_t length = w[0] >> 16;
  switch (info->opcode) {
  case OpTypeInt:
  case OpTypeFloat:
    return w[2] / 8;
  case OpTypeVector:
    return (uint64_t)w[3] * sizeOf(reader, w[2], depth + 1);
  case OpTypeArray: {
    const IdInfo *count = validId(reader, w[3]) ? &reader->ids[w[3]] : NULL;
    if (!count || count->opcode != OpConstant)
      return 0;
    return (uint64_t)count->b * sizeOf(reader, w[2], depth + 1);
  }
  case OpTypeStruct: {
    uint64_t total = 0;
    for (uint32_t i = 2; i < length; ++i)
      total += sizeOf(reader, w[i], depth + 1);
    return total;
  }
  default:
    return 0;
  }
}

static bool isWorkgroupVariable(const Reader *reader, uint32_t id) {
  const IdInfo *info = &reader->ids[id];
  return info->opcode == OpVariable && info->b == kWorkgroup &&
         validId(reader, info->a) &&
         reader->ids[info->a].opcode == OpTypePointer;
}

static uint64_t variableBytes(const Reader *reader, uint32_t variable) {
  return sizeOf(reader, reader->ids[reader->ids[variable].a].b, 0);
}

/// Follows which function's body is read, and adds to it each Workgroup
/// variable an instruction of it names (once per function: its
/// instructions are contiguous). A literal operand that happens to equal a
/// variable's id counts it too, which can only overstate the need.
static void trackWorkgroupUse(Reader *reader, uint32_t opcode, size_t at,
                              uint32_t length) {
  const uint32_t *w = &reader->words[at];
  if (opcode == OpFunction && length >= 3 && validId(reader, w[2]))
    reader->function = w[2];
  else if (opcode == OpFunctionEnd)
    reader->function = 0;
  if (!reader->function)
    return;
  reader->functionCalls |= opcode == OpFunctionCall;
  for (uint32_t i = 1; i < length; ++i) {
    if (!validId(reader, w[i]) || !isWorkgroupVariable(reader, w[i]) ||
        reader->ids[w[i]].usedBy == reader->function)
      continue;
    reader->ids[w[i]].usedBy = reader->function;
    reader->ids[reader->function].workgroupBytes += variableBytes(reader, w[i]);
  }
}

/// The Workgroup memory of the entry point that uses the most: a dispatch
/// runs one entry point, and a driver allocates what its function uses
/// where the module says which that is, from SPIR-V 1.4 on (an entry
/// point's interface lists every global variable it uses). In an older
/// module every Workgroup variable counts: NVIDIA's driver (580.159, an
/// H200) lost the device running one entry point of a SPIR-V 1.0 module
/// whose two entry points used 30000 bytes each, 60000 together, where
/// 49152 fit. So does every variable with function calls (which coopvec's
/// kernels do not make).
static void countWorkgroupMemory(Reader *reader) {
  CoopvecSPIRVModule *module = reader->module;
  uint64_t all = 0;
  for (uint32_t id = 1; id < reader->bound; ++id)
    if (isWorkgroupVariable(reader, id))
      all += variableBytes(reader, id);
  bool listsInterfaces = reader->words[1] >= kVersion1_4;
  for (int i = 0; i < module->numEntryPoints; ++i) {
    uint32_t function = module->entryPoints[i].id;
    bool countsAll =
        reader->functionCalls || !listsInterfaces || !validId(reader, function);
    uint64_t used = countsAll ? all : reader->ids[function].workgroupBytes;
    if (used > module->workgroupBytes)
      module->workgroupBytes = used;
  }
}

static bool scan(Reader *reader) {
  size_t at = kHeaderWords;
  while (at < reader->numWords) {
    uint32_t length = reader->words[at] >> 16;
    uint32_t opcode = reader->words[at] & 0xffff;
    if (length == 0 || at + length > reader->numWords)
      return fail(reader, "an instruction runs past the end", at);
    if (!record(reader, opcode, at, length))
      return false;
    trackWorkgroupUse(reader, opcode, at, length);
    at += length;
  }
  return true;
}

/// Fills the element type of a binding from the variable's pointee, a
/// struct of one member.
static void describeBuffer(const Reader *reader, uint32_t variable,
                           CoopvecSPIRVBinding *binding) {
  binding->shape = CoopvecSPIRVUnknown;
  const IdInfo *pointer = &reader->ids[reader->ids[variable].a];
  if (pointer->opcode != OpTypePointer || !validId(reader, pointer->b))
    return;
  const IdInfo *block = &reader->ids[pointer->b];
  if (block->opcode != OpTypeStruct || !validId(reader, block->a))
    return;
  const IdInfo *member = &reader->ids[block->a];
  CoopvecSPIRVBufferShape shape = CoopvecSPIRVScalar;
  if (member->opcode == OpTypeRuntimeArray || member->opcode == OpTypeArray) {
    if (!validId(reader, member->a))
      return;
    member = &reader->ids[member->a];
    shape = CoopvecSPIRVArray;
  }
  if (member->opcode != OpTypeInt && member->opcode != OpTypeFloat)
    return;
  binding->shape = shape;
  binding->elementBits = member->a;
  binding->isFloat = member->opcode == OpTypeFloat;
}

/// The argument index of a variable named "<entry>_arg_<i>", or -1.
static int argIndexOf(const char *variable, const char *entry) {
  size_t length = strlen(entry);
  if (!variable || strncmp(variable, entry, length) != 0 ||
      strncmp(variable + length, "_arg_", 5) != 0)
    return -1;
  const char *digits = variable + length + 5;
  char *end;
  long index = strtol(digits, &end, 10);
  return end != digits && !*end && index >= 0 && index < 4096 ? (int)index : -1;
}

static int compareBindings(const void *a, const void *b) {
  return ((const CoopvecSPIRVBinding *)a)->argIndex -
         ((const CoopvecSPIRVBinding *)b)->argIndex;
}

static bool collectBindings(Reader *reader, CoopvecSPIRVEntryPoint *entry) {
  for (uint32_t id = 1; id < reader->bound; ++id) {
    const IdInfo *info = &reader->ids[id];
    int argIndex = argIndexOf(info->name, entry->name);
    if (info->opcode != OpVariable || info->b != kStorageBuffer ||
        argIndex < 0 || info->binding < 0 || info->set < 0 ||
        !validId(reader, info->a))
      continue;
    CoopvecSPIRVBinding binding = {.set = (uint32_t)info->set,
                                   .binding = (uint32_t)info->binding,
                                   .argIndex = argIndex};
    describeBuffer(reader, id, &binding);
    if (!append((void **)&entry->bindings, &entry->numBindings, sizeof(binding),
                &binding))
      return fail(reader, "out of memory", 0);
  }
  if (entry->numBindings)
    qsort(entry->bindings, (size_t)entry->numBindings,
          sizeof(CoopvecSPIRVBinding), compareBindings);
  return true;
}

/// Gives each entry point its LocalSize and buffers, now that every name
/// is known.
static bool resolveEntryPoints(Reader *reader) {
  for (int i = 0; i < reader->module->numEntryPoints; ++i) {
    CoopvecSPIRVEntryPoint *entry = &reader->module->entryPoints[i];
    uint32_t mode = validId(reader, entry->id) ? reader->ids[entry->id].b : 0;
    for (int k = 0; mode && k < 3; ++k)
      entry->localSize[k] = reader->words[mode + 3 + k];
    if (!collectBindings(reader, entry))
      return false;
  }
  return true;
}

bool coopvecSPIRVModuleRead(const uint32_t *words, size_t numWords,
                            CoopvecSPIRVModule *module, CoopvecBuffer *error) {
  memset(module, 0, sizeof(*module));
  Reader reader = {
      .words = words, .numWords = numWords, .module = module, .error = error};
  if (numWords < kHeaderWords || words[0] != kMagic)
    return fail(&reader, "not a SPIR-V module (no magic number)", 0);
  reader.bound = words[3];
  if (reader.bound > kMaxBound)
    return fail(&reader, "the id bound is implausibly large", 3);
  reader.ids = calloc(reader.bound + 1, sizeof(IdInfo));
  if (!reader.ids)
    return fail(&reader, "out of memory", 0);
  for (uint32_t id = 0; id < reader.bound; ++id)
    reader.ids[id].binding = reader.ids[id].set = -1;
  bool ok = scan(&reader) && resolveEntryPoints(&reader);
  if (ok)
    countWorkgroupMemory(&reader);
  free(reader.ids);
  if (!ok)
    coopvecSPIRVModuleFree(module);
  return ok;
}

void coopvecSPIRVModuleFree(CoopvecSPIRVModule *module) {
  for (int i = 0; i < module->numExtensions; ++i)
    free(module->extensions[i]);
  for (int i = 0; i < module->numEntryPoints; ++i) {
    free(module->entryPoints[i].name);
    free(module->entryPoints[i].bindings);
  }
  free(module->capabilities);
  free(module->extensions);
  free(module->entryPoints);
  memset(module, 0, sizeof(*module));
}
