// coopvec-llvm-loop-annotations moves `llvm.loop_annotation` from the back
// edges convert-cf-to-llvm produced into the branch's `loop_annotation`
// property, which the LLVM IR translation turns into !llvm.loop metadata.
// RUN: coopvec-opt --split-input-file --coopvec-llvm-loop-annotations --mlir-print-op-generic %s | FileCheck %s
// RUN: coopvec-opt --coopvec-llvm-loop-annotations %s --split-input-file | mlir-translate --mlir-to-llvmir --split-input-file | FileCheck %s --check-prefix=LLVMIR

#unroll = #llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>

// CHECK-LABEL: sym_name = "loop"
// CHECK: "llvm.br"(%{{.*}})[^[[HEADER:bb[0-9]+]]] : (i64) -> ()
// CHECK: %[[NEXT:.*]] = "llvm.add"
// CHECK-NEXT: "llvm.br"(%[[NEXT]])[^[[HEADER]]] <{loop_annotation = #{{.*}}}> : (i64) -> ()
// CHECK-NOT: {llvm.loop_annotation
// LLVMIR-LABEL: define void @loop
// LLVMIR: br label %{{.*}}, !llvm.loop ![[LOOP:[0-9]+]]
// LLVMIR: ![[LOOP]] = distinct !{![[LOOP]], ![[DISABLE:[0-9]+]]}
// LLVMIR: ![[DISABLE]] = !{!"llvm.loop.unroll.disable"}
llvm.func @loop(%n: i64) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^header(%c0 : i64)
^header(%i: i64):
  %done = llvm.icmp "sge" %i, %n : i64
  llvm.cond_br %done, ^exit, ^body
^body:
  %next = llvm.add %i, %c1 : i64
  llvm.br ^header(%next : i64) {llvm.loop_annotation = #unroll}
^exit:
  llvm.return
}

// -----

// A branch without the attribute, and other ops carrying it, are left alone.
// CHECK-LABEL: sym_name = "untouched"
// CHECK: "llvm.br"(%{{.*}})[^{{.*}}] : (i64) -> ()
// CHECK: "llvm.add"{{.*}} {llvm.loop_annotation = 
llvm.func @untouched(%n: i64) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  llvm.br ^next(%c0 : i64)
^next(%i: i64):
  %x = llvm.add %i, %n {llvm.loop_annotation = #llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>} : i64
  llvm.return
}
