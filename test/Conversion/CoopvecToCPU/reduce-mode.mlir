// reduce-mode of convert-coopvec-to-cpu (docs/passes.md, "reduce-mode"):
// how scatter-adds at per-thread indices are built, on 4 lanes.
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lanes=4 bounds-checks=false reduce-mode=direct})' %s | FileCheck %s --check-prefix=DIRECT
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lanes=4 bounds-checks=false reduce-mode=local})' %s | FileCheck %s --check-prefix=LOCAL
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lanes=4 bounds-checks=false reduce-mode=auto})' %s | FileCheck %s --check-prefix=AUTO
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lanes=4 bounds-checks=false reduce-mode=expand})' %s | FileCheck %s --check-prefix=EXPAND
// The default is auto.
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lanes=4 bounds-checks=false})' %s | FileCheck %s --check-prefix=AUTO
// The pipeline passes it on.
// RUN: coopvec-opt --split-input-file --pass-pipeline='builtin.module(coopvec-lower-to-cpu{target-cpu=x86-64 lanes=4 reduce-mode=local})' %s | FileCheck %s --check-prefix=PIPELINE
// A value that is not a mode: an error at the module, exit 1.
// RUN: not coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 reduce-mode=bogus})' %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not coopvec-opt --split-input-file --pass-pipeline='builtin.module(coopvec-lower-to-cpu{reduce-mode=})' %s 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: coopvec-opt --help | FileCheck %s --check-prefix=HELP

// BAD: error: convert-coopvec-to-cpu: reduce-mode=bogus is not a mode; use direct, local, expand or auto
// EMPTY: error: convert-coopvec-to-cpu: reduce-mode= is not a mode; use direct, local, expand or auto
// HELP: reduce-mode=<string> (default: auto) - scatter-adds at per-thread indices {{.*}} direct {{.*}} local {{.*}} auto

// direct: one atomic per active lane. local: the disabled lanes' keys
// become -1 (no enabled lane's) and the enabled lanes' bits start the
// loop; while some bit is set, the first one (cttz) gives the address, the
// lanes with its key are selected and added once, then their bits
// cleared (a second compare, ne). auto: one summed atomic when every
// enabled lane adds at lane 0's address, else the direct loop. The index
// is a sign-extended i32, so the lanes' addresses are compared and
// extracted as i32.
// DIRECT-LABEL: func.func @scatter_batched(
// DIRECT:         arith.index_cast %[[I32:.*]] : vector<4xi32> to vector<4xindex>
// DIRECT:         scf.for %[[L:.*]] = %c0 to %c4 step %c1 iter_args(
// DIRECT:           scf.if
// DIRECT:             %[[K:.*]] = vector.extract %[[I32]][%[[L]]] : i32 from vector<4xi32>
// DIRECT-NEXT:        %[[AT:.*]] = arith.index_cast %[[K]] : i32 to index
// DIRECT-NEXT:        memref.atomic_rmw addf %{{.*}}, %{{.*}}[%[[AT]]]
// DIRECT-NOT:     vector.reduction <add>

// %g is only added into, so local's sums run on across rounds and lane
// groups (CarriedAdd.c): an address and a lane vector of sums in stack
// slots, the address -1 while they hold nothing; a round at their address
// adds its lanes into theirs (a vector add), a round elsewhere first adds
// their lanes' sum at their address (the only atomic) and restarts them,
// and what they hold at the end is added before the return.
// LOCAL-LABEL: func.func @scatter_batched(
// LOCAL:         %[[ADDR:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1xindex>
// LOCAL-NEXT:    %[[TOTAL:.*]] = memref.alloca() {alignment = 64 : i64} : memref<4xf32>
// LOCAL-NEXT:    %[[NONE:.*]] = arith.constant -1 : index
// LOCAL-NEXT:    memref.store %[[NONE]], %[[ADDR]][%[[Z:.*]]] : memref<1xindex>
// LOCAL:         arith.index_cast %[[I32:.*]] : vector<4xi32> to vector<4xindex>
// LOCAL-NEXT:    %[[M1:.*]] = arith.constant dense<-1> : vector<4xi32>
// LOCAL-NEXT:    %[[KEYS:.*]] = arith.select %[[EN:.*]], %[[I32]], %[[M1]] : vector<4xi1>, vector<4xi32>
// LOCAL-NEXT:    %[[CAST:.*]] = vector.bitcast %[[EN]] : vector<4xi1> to vector<1xi4>
// LOCAL-NEXT:    %[[BITS:.*]] = vector.extract %[[CAST]][0] : i4 from vector<1xi4>
// LOCAL-NEXT:    scf.while (%[[P:.*]] = %[[BITS]]) : (i4) -> i4 {
// LOCAL:           %[[SOME:.*]] = arith.cmpi ne, %[[P]], %{{.*}} : i4
// LOCAL-NEXT:      scf.condition(%[[SOME]]) %[[P]] : i4
// LOCAL-NEXT:    } do {
// LOCAL-NEXT:    ^bb0(%[[Q:.*]]: i4):
// LOCAL-NEXT:      %[[FIRST:.*]] = math.cttz %[[Q]] : i4
// LOCAL-NEXT:      %[[L:.*]] = arith.index_castui %[[FIRST]] : i4 to index
// LOCAL-NEXT:      %[[K:.*]] = vector.extract %[[KEYS]][%[[L]]] : i32 from vector<4xi32>
// LOCAL-NEXT:      %[[B:.*]] = vector.broadcast %[[K]] : i32 to vector<4xi32>
// LOCAL-NEXT:      %[[SAME:.*]] = arith.cmpi eq, %[[KEYS]], %[[B]] : vector<4xi32>
// LOCAL-NEXT:      %[[AT:.*]] = arith.index_cast %[[K]] : i32 to index
// LOCAL:           %[[SEL:.*]] = arith.select %[[SAME]], %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xf32>
// LOCAL-NEXT:      %[[HELD:.*]] = memref.load %[[ADDR]][%[[Z]]] : memref<1xindex>
// LOCAL-NEXT:      %[[HERE:.*]] = arith.cmpi eq, %[[AT]], %[[HELD]] : index
// LOCAL-NEXT:      scf.if %[[HERE]] {
// LOCAL-NEXT:        %[[OLD:.*]] = vector.load %[[TOTAL]][%[[Z]]] : memref<4xf32>, vector<4xf32>
// LOCAL-NEXT:        %[[NEW:.*]] = arith.addf %[[OLD]], %[[SEL]] : vector<4xf32>
// LOCAL-NEXT:        vector.store %[[NEW]], %[[TOTAL]][%[[Z]]] : memref<4xf32>, vector<4xf32>
// LOCAL-NEXT:      } else {
// LOCAL-NEXT:        %[[HOLDS:.*]] = arith.cmpi ne, %[[HELD]], %[[NONE]] : index
// LOCAL-NEXT:        scf.if %[[HOLDS]] {
// LOCAL-NEXT:          %[[PREV:.*]] = vector.load %[[TOTAL]][%[[Z]]] : memref<4xf32>, vector<4xf32>
// LOCAL-NEXT:          %[[PSUM:.*]] = vector.reduction <add>, %[[PREV]] fastmath<reassoc> : vector<4xf32> into f32
// LOCAL-NEXT:          memref.atomic_rmw addf %[[PSUM]], %arg2[%[[HELD]]]
// LOCAL-NEXT:        }
// LOCAL-NEXT:        memref.store %[[AT]], %[[ADDR]][%[[Z]]] : memref<1xindex>
// LOCAL-NEXT:        vector.store %[[SEL]], %[[TOTAL]][%[[Z]]] : memref<4xf32>, vector<4xf32>
// LOCAL-NEXT:      }
// LOCAL-NEXT:      %[[OTHER:.*]] = arith.cmpi ne, %[[KEYS]], %[[B]] : vector<4xi32>
// LOCAL-NEXT:      %[[OCAST:.*]] = vector.bitcast %[[OTHER]] : vector<4xi1> to vector<1xi4>
// LOCAL-NEXT:      %[[OBITS:.*]] = vector.extract %[[OCAST]][0] : i4 from vector<1xi4>
// LOCAL-NEXT:      %[[LEFT:.*]] = arith.andi %[[Q]], %[[OBITS]] : i4
// LOCAL-NEXT:      scf.yield %[[LEFT]] : i4
// LOCAL-NEXT:    }
// LOCAL-NOT:     memref.atomic_rmw
// LOCAL:       }
// LOCAL-NEXT:  %[[LAST:.*]] = memref.load %[[ADDR]][%[[Z]]] : memref<1xindex>
// LOCAL-NEXT:  %[[HOLDS2:.*]] = arith.cmpi ne, %[[LAST]], %[[NONE]] : index
// LOCAL-NEXT:  scf.if %[[HOLDS2]] {
// LOCAL-NEXT:    %[[REST:.*]] = vector.load %[[TOTAL]][%[[Z]]] : memref<4xf32>, vector<4xf32>
// LOCAL-NEXT:    %[[RSUM:.*]] = vector.reduction <add>, %[[REST]] fastmath<reassoc> : vector<4xf32> into f32
// LOCAL-NEXT:    memref.atomic_rmw addf %[[RSUM]], %arg2[%[[LAST]]]
// LOCAL-NEXT:  }
// LOCAL-NEXT:  return

// AUTO: module attributes {coopvec.expanded_args = {scatter.expand_batched = array<i64: 1>}}
// AUTO-LABEL: func.func @scatter_batched(
// AUTO:         arith.index_cast %[[I32:.*]] : vector<4xi32> to vector<4xindex>
// AUTO-NEXT:    %[[K:.*]] = vector.extract %[[I32]][0] : i32 from vector<4xi32>
// AUTO-NEXT:    %[[B:.*]] = vector.broadcast %[[K]] : i32 to vector<4xi32>
// AUTO-NEXT:    %[[EQ:.*]] = arith.cmpi eq, %[[I32]], %[[B]] : vector<4xi32>
// AUTO-NEXT:    %[[SAME:.*]] = arith.andi %[[EN:.*]], %[[EQ]] : vector<4xi1>
// AUTO-NEXT:    %[[ELSE:.*]] = arith.xori %[[EN]], %[[SAME]] : vector<4xi1>
// AUTO-NEXT:    %[[ANY:.*]] = vector.reduction <or>, %[[EN]] : vector<4xi1> into i1
// AUTO-NEXT:    %[[OTHER:.*]] = vector.reduction <or>, %[[ELSE]] : vector<4xi1> into i1
// AUTO-NEXT:    scf.if %[[OTHER]] {
// AUTO:           scf.for
// AUTO:             memref.atomic_rmw addf
// AUTO:         } else {
// AUTO-NEXT:      scf.yield
// AUTO-NEXT:    }
// AUTO-NEXT:    scf.yield
// AUTO-NEXT:  }
// AUTO-NEXT:  } else {
// AUTO-NEXT:    scf.if %[[ANY]] {
// AUTO-NEXT:      %[[AT:.*]] = arith.index_cast %[[K]] : i32 to index
// AUTO:           %[[SEL:.*]] = arith.select %[[EN]], %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xf32>
// AUTO-NEXT:      %[[SUM:.*]] = vector.reduction <add>, %[[SEL]]
// AUTO-NEXT:      memref.atomic_rmw addf %[[SUM]], %{{.*}}[%[[AT]]]

// expand: as auto, with plain loads and stores into the buffer the engine
// replaces by a host thread's copy (one summed add when every enabled
// lane adds at lane 0's address, else one per lane); the module names the
// argument.
// EXPAND: module attributes {coopvec.expanded_args = {scatter_batched = array<i64: 1>}}
// EXPAND-LABEL: func.func @scatter_batched(
// EXPAND:         arith.index_cast %[[I32:.*]] : vector<4xi32> to vector<4xindex>
// EXPAND-NEXT:    %[[K0:.*]] = vector.extract %[[I32]][0] : i32 from vector<4xi32>
// EXPAND:         %[[ANY:.*]] = vector.reduction <or>, %{{.*}} : vector<4xi1> into i1
// EXPAND-NEXT:    %[[OTHER:.*]] = vector.reduction <or>, %{{.*}} : vector<4xi1> into i1
// EXPAND-NEXT:    scf.if %[[OTHER]] {
// EXPAND-NEXT:      scf.for %[[L:.*]] = %c0 to %c4 step %c1 {
// EXPAND-NEXT:        %[[BIT:.*]] = vector.extract %{{.*}}[%[[L]]] : i1 from vector<4xi1>
// EXPAND-NEXT:        scf.if %[[BIT]] {
// EXPAND-NEXT:          %[[K:.*]] = vector.extract %[[I32]][%[[L]]] : i32 from vector<4xi32>
// EXPAND-NEXT:          %[[AT:.*]] = arith.index_cast %[[K]] : i32 to index
// EXPAND-NEXT:          %[[OLD:.*]] = memref.load %arg2[%[[AT]]] : memref<?xf32>
// EXPAND-NEXT:          %[[V:.*]] = vector.extract %{{.*}}[%[[L]]] : f32 from vector<4xf32>
// EXPAND-NEXT:          %[[NEW:.*]] = arith.addf %[[OLD]], %[[V]] : f32
// EXPAND-NEXT:          memref.store %[[NEW]], %arg2[%[[AT]]] : memref<?xf32>
// EXPAND:         } else {
// EXPAND-NEXT:      scf.if %[[ANY]] {
// EXPAND-NEXT:        %[[AT0:.*]] = arith.index_cast %[[K0]] : i32 to index
// EXPAND:             %[[SUM:.*]] = vector.reduction <add>
// EXPAND-NEXT:        %[[OLD0:.*]] = memref.load %arg2[%[[AT0]]] : memref<?xf32>
// EXPAND-NEXT:        %[[NEW0:.*]] = arith.addf %[[OLD0]], %[[SUM]] : f32
// EXPAND-NEXT:        memref.store %[[NEW0]], %arg2[%[[AT0]]] : memref<?xf32>
// EXPAND-NOT:     memref.atomic_rmw

// auto also lowers a function with an expandable argument under expand, as
// @"<f>.expand_batched", which the engine runs when the copies are small.
// AUTO-LABEL: func.func @scatter.expand_batched(
// AUTO-NOT:       memref.atomic_rmw
// AUTO:           memref.store
// AUTO-NOT:       memref.atomic_rmw

// PIPELINE-LABEL: llvm.func @scatter_batched(
// PIPELINE:         llvm.intr.vector.reduce.fadd
// PIPELINE:         llvm.atomicrmw fadd
func.func @scatter(%x: !coopvec.vec<2, f32>, %g: memref<?xf32>) {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %i = arith.fptosi %e#0 : f32 to i32
  %at = arith.index_cast %i : i32 to index
  %old = memref.atomic_rmw addf %e#1, %g[%at] : (f32, memref<?xf32>) -> f32
  return
}

// -----

// An atomic whose old value is used, and one of another kind, are one per
// lane in every mode.
// DIRECT-LABEL: func.func @used_batched(
// DIRECT-NOT:     vector.reduction <add>
// LOCAL-LABEL: func.func @used_batched(
// LOCAL-NOT:     vector.reduction <add>
// LOCAL-NOT:     arith.xori
// AUTO-LABEL: func.func @used_batched(
// AUTO-NOT:      vector.reduction <add>
// AUTO-NOT:      arith.xori
// Nor is either buffer expanded (the module has no expanded_args).
// EXPAND-NOT: coopvec.expanded_args
// EXPAND-LABEL: func.func @used_batched(
// EXPAND-NOT:     memref.store
// EXPAND-NOT:     vector.reduction <add>
func.func @used(%x: !coopvec.vec<2, f32>, %g: memref<?xf32>, %m: memref<?xi32>) -> !coopvec.vec<1, f32> {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %i = arith.fptosi %e#0 : f32 to i32
  %at = arith.index_cast %i : i32 to index
  %old = memref.atomic_rmw addf %e#1, %g[%at] : (f32, memref<?xf32>) -> f32
  %max = memref.atomic_rmw maxs %i, %m[%at] : (i32, memref<?xi32>) -> i32
  %v = "coopvec.from_elements"(%old) : (f32) -> !coopvec.vec<1, f32>
  return %v : !coopvec.vec<1, f32>
}

// -----

// A buffer that is also read is not expanded (each host thread's copy
// would hold part of the sum): its scatter-add is local. Nor do local's
// sums run on across groups there (the load would see them missing): one
// atomic per round.
// DIRECT-LABEL: func.func @read_batched(
// LOCAL-LABEL: func.func @read_batched(
// LOCAL-NOT:     memref<1xindex>
// LOCAL:         vector.reduction <add>
// LOCAL-NEXT:    memref.atomic_rmw addf
// LOCAL-NOT:     memref<1xindex>
// LOCAL:         return
// AUTO-LABEL: func.func @read_batched(
// EXPAND-NOT: coopvec.expanded_args
// EXPAND-LABEL: func.func @read_batched(
// EXPAND:         vector.reduction <add>
// EXPAND:         memref.atomic_rmw addf
// EXPAND-NOT:     memref.store
func.func @read(%x: !coopvec.vec<2, f32>, %g: memref<?xf32>) -> !coopvec.vec<1, f32> {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %i = arith.fptosi %e#0 : f32 to i32
  %at = arith.index_cast %i : i32 to index
  %old = memref.atomic_rmw addf %e#1, %g[%at] : (f32, memref<?xf32>) -> f32
  %r = memref.load %g[%at] : memref<?xf32>
  %v = "coopvec.from_elements"(%r) : (f32) -> !coopvec.vec<1, f32>
  return %v : !coopvec.vec<1, f32>
}

// -----

// f16: the lanes are summed in f32 and the sum rounded once, at the atomic.
// DIRECT-LABEL: func.func @half_batched(
// AUTO-LABEL: func.func @half_batched(
// expand takes f32 and i32 buffers only: an f16 one is added as local.
// (The execution engine expands an f16 buffer as its f32 shadow, in the
// form of @shadow below: test/Integration/CPU/scatter-add-modes.mlir.)
// EXPAND-NOT: coopvec.expanded_args
// EXPAND-LABEL: func.func @half_batched(
// EXPAND:         vector.reduction <add>, %{{.*}} fastmath<reassoc> : vector<4xf32> into f32
// EXPAND:         memref.atomic_rmw addf
// EXPAND-NOT:     memref.store
// LOCAL-LABEL: func.func @half_batched(
// LOCAL:         arith.extf %{{.*}} : vector<4xf16> to vector<4xf32>
// LOCAL:         vector.reduction <add>, %{{.*}} fastmath<reassoc> : vector<4xf32> into f32
// LOCAL-NEXT:    %[[H:.*]] = arith.truncf %{{.*}} : f32 to f16
// LOCAL-NEXT:    memref.atomic_rmw addf %[[H]]
func.func @half(%x: !coopvec.vec<2, f32>, %g: memref<?xf16>) {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %i = arith.fptosi %e#0 : f32 to i32
  %at = arith.index_cast %i : i32 to index
  %h = arith.truncf %e#1 : f32 to f16
  %old = memref.atomic_rmw addf %h, %g[%at] : (f16, memref<?xf16>) -> f16
  return
}

// -----

// reduce_sum_accumulate at a per-thread offset into a buffer nothing else
// uses: expandable, and each element of the vec is added with plain loads
// and stores under expand (per lane, or once when all lanes share lane
// 0's offset); auto lowers the expand variant too.
// EXPAND: module attributes {coopvec.expanded_args = {rsum_batched = array<i64: 1>}}
// EXPAND-LABEL: func.func @rsum_batched(
// EXPAND-NOT:     memref.atomic_rmw
// EXPAND:             %[[OLD:.*]] = memref.load %arg2[%[[AT:.*]]] : memref<?xf32>
// EXPAND-NEXT:        %[[V:.*]] = vector.extract %{{.*}} : f32 from vector<4xf32>
// EXPAND-NEXT:        %[[NEW:.*]] = arith.addf %[[OLD]], %[[V]] : f32
// EXPAND-NEXT:        memref.store %[[NEW]], %arg2[%[[AT]]] : memref<?xf32>
// EXPAND-NOT:     memref.atomic_rmw
// AUTO: module attributes {coopvec.expanded_args = {rsum.expand_batched = array<i64: 1>}}
// AUTO-LABEL: func.func @rsum_batched(
// AUTO:           memref.atomic_rmw addf
// AUTO-LABEL: func.func @rsum.expand_batched(
// AUTO-NOT:       memref.atomic_rmw
// AUTO:           memref.store
// AUTO-NOT:       memref.atomic_rmw
func.func @rsum(%x: !coopvec.vec<2, f32>, %g: memref<?xf32>) {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %i = arith.fptosi %e#0 : f32 to i32
  %at = arith.index_cast %i : i32 to index
  "coopvec.reduce_sum_accumulate"(%x, %g, %at) : (!coopvec.vec<2, f32>, memref<?xf32>, index) -> ()
  return
}

// -----

// What the execution engine lowers for an f16 buffer that only scatter-add
// atomics use (@half above): its f32 shadow, each f16 value widened
// (lib/ExecutionEngine/Shadows.c). That is an f32 buffer, expanded: a host
// thread's copy sums in f32.
// EXPAND: module attributes {coopvec.expanded_args = {shadow_batched = array<i64: 1>}}
// EXPAND-LABEL: func.func @shadow_batched(
// EXPAND-NOT:     memref.atomic_rmw
// EXPAND:         memref.load %arg2
// EXPAND:         arith.addf
// EXPAND:         memref.store %{{.*}}, %arg2
// EXPAND-NOT:     memref.atomic_rmw
// AUTO: module attributes {coopvec.expanded_args = {shadow.expand_batched = array<i64: 1>}}
func.func @shadow(%x: !coopvec.vec<2, f32>, %g: memref<?xf32>) {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %i = arith.fptosi %e#0 : f32 to i32
  %at = arith.index_cast %i : i32 to index
  %h = arith.truncf %e#1 : f32 to f16
  %w = arith.extf %h : f16 to f32
  %old = memref.atomic_rmw addf %w, %g[%at] : (f32, memref<?xf32>) -> f32
  return
}

// -----

// A gradient buffer as coopvec-autodiff makes them for a hash grid and a
// linear layer: a matrix_view that only outer_product_accumulate adds
// into, a bias reduce_sum_accumulate at a constant offset and a table's
// at a per-thread one. Every use adds, so it is expanded: the table's
// adds become plain; the tile and the bias sums keep their one atomic per
// element and call after the lane loop (right in a host thread's copy
// too).
// EXPAND: module attributes {coopvec.expanded_args = {grad_batched = array<i64: 2>}}
// EXPAND-LABEL: func.func @grad_batched(
// EXPAND:         memref.load %arg3
// EXPAND:         memref.store %{{.*}}, %arg3
// EXPAND:         memref.atomic_rmw addf %{{.*}}, %arg3
// EXPAND:         memref.atomic_rmw addf %{{.*}}, %arg3
// EXPAND-NOT:     memref.atomic_rmw
// AUTO: module attributes {coopvec.expanded_args = {grad.expand_batched = array<i64: 2>}}
func.func @grad(%x: !coopvec.vec<4, f32>, %dy: !coopvec.vec<2, f32>, %g: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %e:4 = "coopvec.unpack"(%x) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  %i = arith.fptosi %e#0 : f32 to i32
  %at = arith.index_cast %i : i32 to index
  %m = "coopvec.matrix_view"(%g) {offset = 64 : i64} : (memref<?xf32>) -> !coopvec.matrix<2, 4, f32, "row_major">
  "coopvec.outer_product_accumulate"(%dy, %x, %m) : (!coopvec.vec<2, f32>, !coopvec.vec<4, f32>, !coopvec.matrix<2, 4, f32, "row_major">) -> ()
  "coopvec.reduce_sum_accumulate"(%dy, %g, %c0) : (!coopvec.vec<2, f32>, memref<?xf32>, index) -> ()
  "coopvec.reduce_sum_accumulate"(%dy, %g, %at) : (!coopvec.vec<2, f32>, memref<?xf32>, index) -> ()
  return
}

// -----

// An f16 reduce_sum_accumulate buffer, lowered outside the engine: not
// expanded (plain f16 adds would round at each add), local's f32 sums
// rounded at each atomic.
// EXPAND-NOT: coopvec.expanded_args
// EXPAND-LABEL: func.func @rsum16_batched(
// EXPAND:         vector.reduction <add>
// EXPAND:         memref.atomic_rmw addf %{{.*}} : (f16, memref<?xf16>) -> f16
// EXPAND-NOT:     memref.store
// AUTO-NOT: coopvec.expanded_args
// AUTO-LABEL: func.func @rsum16_batched(
func.func @rsum16(%x: !coopvec.vec<2, f16>, %g: memref<?xf16>) {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f16>) -> (f16, f16)
  %i = arith.fptosi %e#0 : f16 to i32
  %at = arith.index_cast %i : i32 to index
  "coopvec.reduce_sum_accumulate"(%x, %g, %at) : (!coopvec.vec<2, f16>, memref<?xf16>, index) -> ()
  return
}
