// Calls @scale from emit.mlir, compiled by coopvec-opt --emit=obj.
#include <stdio.h>

float scale(float x, float y);

int main(void) {
  printf("scale(3, 0.5) = %g\n", scale(3.0f, 0.5f));
  return 0;
}
