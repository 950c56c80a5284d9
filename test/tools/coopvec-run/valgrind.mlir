// coopvec-run frees everything it allocates, on success and on error paths
// (JIT engine, modules, context, host arrays).
// REQUIRES: valgrind
// Valgrind cannot run the sanitizer build; that build checks memory itself.
// UNSUPPORTED: asan

// RUN: rm -rf %t && mkdir %t
// RUN: valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite \
// RUN:   --error-exitcode=9 coopvec-run %s --entry=acc --batch=3 --random \
// RUN:   --check --print --out=%t/out --save-inputs=%t/in | FileCheck %s
// CHECK: argument 1 (written): max abs error {{.*}}: PASS
// RUN: not valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite \
// RUN:   --error-exitcode=9 coopvec-run %s --entry=acc --batch=2 \
// RUN:   --arg=%t/in0.npy --arg=%t/in1.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ERROR
// ERROR: coopvec-run: error: {{.*}}in0.npy: argument #0 (!coopvec.vec<2 : i64, f32>) expects shape (2, 2), got (3, 2)
// Valgrind reports start with ==PID==.
// ERROR-NOT: =={{[0-9]+}}==

func.func @acc(%x: !coopvec.vec<2, f32>, %g: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  "coopvec.reduce_sum_accumulate"(%x, %g, %c1) : (!coopvec.vec<2, f32>, memref<?xf32>, index) -> ()
  return
}
