//===- ElementTypes.c - The element types coopvec supports ----------------===//

#include "Dialect/ElementTypes.h"

#include "coopvec-c/Support.h"

#include <string.h>

#define ALL_LAYOUTS                                                            \
  ((1u << CoopvecLayoutRowMajor) | (1u << CoopvecLayoutColMajor) |             \
   (1u << CoopvecLayoutInference) | (1u << CoopvecLayoutTraining))
#define PLAIN_LAYOUTS                                                          \
  ((1u << CoopvecLayoutRowMajor) | (1u << CoopvecLayoutColMajor))

// The optimal layouts exist for the types tensor cores and cooperative
// matrices multiply natively (OptiX and VK_NV_cooperative_vector offer them
// for 16-bit and 8-bit types only); f32 matrices stay row- or column-major.
static const CoopvecElementTypeInfo elementTypes[] = {
    {"f16", 16, ALL_LAYOUTS},
    {"f32", 32, PLAIN_LAYOUTS},
};

const CoopvecElementTypeInfo *coopvecLookupElementType(MlirType type) {
  if (mlirTypeIsNull(type))
    return NULL;
  CoopvecBuffer printed = {0};
  mlirTypePrint(type, coopvecBufferCallback, &printed);
  const CoopvecElementTypeInfo *found = NULL;
  for (size_t i = 0; i < sizeof(elementTypes) / sizeof(elementTypes[0]); ++i)
    if (strcmp(coopvecBufferStr(&printed), elementTypes[i].name) == 0)
      found = &elementTypes[i];
  coopvecBufferFree(&printed);
  return found;
}

bool coopvecIsSupportedElementType(MlirType type) {
  return coopvecLookupElementType(type) != NULL;
}
