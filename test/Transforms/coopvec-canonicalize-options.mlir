// RUN: coopvec-opt %s --split-input-file --pass-pipeline='builtin.module(coopvec-canonicalize{merge-bias=false})' | FileCheck %s --check-prefixes=CHECK,NOMERGE
// RUN: coopvec-opt %s --split-input-file --coopvec-canonicalize=merge-bias=false | FileCheck %s --check-prefixes=CHECK,NOMERGE
// RUN: coopvec-opt %s --split-input-file --pass-pipeline='builtin.module(coopvec-canonicalize{merge-bias=true})' | FileCheck %s --check-prefixes=CHECK,MERGE
// RUN: not coopvec-opt %s --pass-pipeline='builtin.module(coopvec-canonicalize{merge-bias=maybe})' 2>&1 | FileCheck %s --check-prefix=BADVALUE
// RUN: not coopvec-opt %s --pass-pipeline='builtin.module(coopvec-canonicalize{merge-bais=false})' 2>&1 | FileCheck %s --check-prefix=BADNAME

// BADVALUE: invalid value 'maybe' for option 'merge-bias' of pass 'coopvec-canonicalize': expected a boolean (true/false)
// BADNAME: pass 'coopvec-canonicalize' has no option 'merge-bais'

// With merge-bias=false the bias add stays (results then match the
// unmerged program bit for bit); the other patterns still run.
// CHECK-LABEL: func.func @bias
// CHECK-SAME: (%[[X:arg[0-9]+]]: !coopvec.vec<{{.*}}>, %[[A:arg[0-9]+]]: !coopvec.matrix<{{.*}}>, %[[B:arg[0-9]+]]: !coopvec.vec<{{.*}}>)
// NOMERGE-NEXT: %[[P:.*]] = "coopvec.matvec"(%[[A]], %[[X]]) :
// NOMERGE-NEXT: %[[Y:.*]] = "coopvec.add"(%[[P]], %[[B]])
// MERGE-NEXT: %[[Y:.*]] = "coopvec.matvec"(%[[A]], %[[X]], %[[B]])
// MERGE-NOT: "coopvec.add"
// CHECK-NEXT: return %[[Y]]
func.func @bias(%x: !coopvec.vec<4, f16>, %A: !coopvec.matrix<4, 4, f16, "training">, %b: !coopvec.vec<4, f16>) -> !coopvec.vec<4, f16> {
  %p = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<4, 4, f16, "training">, !coopvec.vec<4, f16>) -> !coopvec.vec<4, f16>
  %one = arith.constant 1.0 : f16
  %q = "coopvec.mul"(%p, %one) : (!coopvec.vec<4, f16>, f16) -> !coopvec.vec<4, f16>
  %y = "coopvec.add"(%q, %b) : (!coopvec.vec<4, f16>, !coopvec.vec<4, f16>) -> !coopvec.vec<4, f16>
  return %y : !coopvec.vec<4, f16>
}
