# Sourced by the scripts that lower every Integration program for a target
# (GPU/Inputs/ptxas-all.sh, Vulkan/Inputs/spirv-val-all.sh,
# Vulkan/Inputs/cooperative-matrix-all.sh): which programs a .mlir file
# holds. The sourcing script defines `check NAME INPUT` and `fail NAME WHY`
# and sets `scratch`.
#
# for_each_program FILE.mlir...: calls `check` on each file, or on each
# split-file piece of a file that has them, and on the gradients its RUN
# lines make of a piece with coopvec-autodiff.
for_each_program() {
  local file base piece name funcs grad
  for file in "$@"; do
    base=$(basename "$file" .mlir)
    if ! grep -q '^//--- ' "$file"; then
      check "$base.mlir" "$file"
      continue
    fi
    split-file "$file" "$scratch/$base"
    for piece in "$scratch/$base"/*.mlir; do
      name="$base/$(basename "$piece")"
      check "$name" "$piece"
      for funcs in $(grep -o "coopvec-opt %t/$(basename "$piece") --coopvec-autodiff=func=[A-Za-z0-9_,]*" "$file" | sed 's/.*func=//'); do
        grad="${piece%.mlir}-grad.mlir"
        if coopvec-opt "$piece" --coopvec-autodiff=func="$funcs" -o "$grad"; then
          check "$name (gradient of $funcs)" "$grad"
        else
          fail "$name" "coopvec-autodiff func=$funcs"
        fi
      done
    done
  done
}
