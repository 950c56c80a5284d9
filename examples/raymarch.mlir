// A per-thread ray marcher through a neural radiance field (NeRF style).
// Each thread marches its own ray in steps of dt = 1/16 through a small
// density / colour MLP and composites front to back:
//   alpha = 1 - exp(-sigma * dt),  rgb += T * alpha * c,  T *= 1 - alpha
// It stops after its own number of steps (floor(tmax / dt)) or as soon as
// the transmittance T falls below 1e-3 (the rest of the ray is invisible).
// Result: (r, g, b, T).
//
// Ray %ray (8 floats, each in [-1, 1) for `coopvec-run --random`):
//   origin o = ray[0..2]; direction d = ray[3..5] normalized;
//   tmax = 1.5 + ray[6] (so 0.5 .. 2.5, 8 .. 39 steps);
//   jitter j = 0.5 + 0.5 * ray[7] in [0, 1): samples at t = (i + j) * dt.
// Each sample p = o + t d is encoded with 2 frequencies (NeRF's positional
// encoding, 12 features):
//   sin(pi p), cos(pi p), sin(2 pi p), cos(2 pi p)   (xyz each)
// The MLP, 12 -> 32 -> 32 -> 4, ReLU, f32, gives density and colour:
//   sigma = max(y0, 0),  c = 0.5 + 0.5 * tanh(y1..y3)   (in [0, 1])
// f32 weights: the loop's exit test compares T with 1e-3 and the
// composite sums up to 39 samples; in f32 the compiled code and the
// reference interpreter agree to a few ulp, so `--check` holds them to
// f32's tolerances. f16 weights would multiply on tensor cores on a GPU,
// but each layer's result is rounded to f16, and where the compiled f32
// sum and the interpreter's exact one round to neighbouring f16 values
// (1e-3 apart) the outputs move beyond those tolerances (at batch 4099,
// 1 of 16396 results is 1.3e-4 off); the CPU, which computes f16 in f32,
// runs them no faster.
//
// Weight buffer %w, per layer the row-major matrix W (out x in), then the
// bias b (out); 1604 floats (coopvec-run sizes it from the views):
//   W0 32x12 at element 0 (byte 0),       b0 at 384
//   W1 32x32 at element 416 (byte 1664),  b1 at 1440
//   W2  4x32 at element 1472 (byte 5888), b2 at 1600
func.func @raymarch(%ray: !coopvec.vec<8, f32>, %w: memref<?xf32>) -> !coopvec.vec<4, f32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %m2 = arith.constant -2.0 : f32
  %pi = arith.constant 3.14159265 : f32
  %dt = arith.constant 0.0625 : f32
  %steps_per_unit = arith.constant 16.0 : f32
  %tmax_base = arith.constant 1.5 : f32
  %t_min = arith.constant 1.0e-3 : f32
  %tiny = arith.constant 1.0e-6 : f32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32

  // The weights are the same for every thread and every step: view them
  // once, before the loop.
  %W0 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<32, 12, f32, "row_major">
  %o0 = arith.constant 384 : index
  %b0 = "coopvec.load"(%w, %o0) : (memref<?xf32>, index) -> !coopvec.vec<32, f32>
  %W1 = "coopvec.matrix_view"(%w) {offset = 1664} : (memref<?xf32>) -> !coopvec.matrix<32, 32, f32, "row_major">
  %o1 = arith.constant 1440 : index
  %b1 = "coopvec.load"(%w, %o1) : (memref<?xf32>, index) -> !coopvec.vec<32, f32>
  %W2 = "coopvec.matrix_view"(%w) {offset = 5888} : (memref<?xf32>) -> !coopvec.matrix<4, 32, f32, "row_major">
  %o2 = arith.constant 1600 : index
  %b2 = "coopvec.load"(%w, %o2) : (memref<?xf32>, index) -> !coopvec.vec<4, f32>

  // The ray: origin, normalized direction, step count, jitter.
  %e:8 = "coopvec.unpack"(%ray) : (!coopvec.vec<8, f32>) -> (f32, f32, f32, f32, f32, f32, f32, f32)
  %dx2 = arith.mulf %e#3, %e#3 : f32
  %dy2 = arith.mulf %e#4, %e#4 : f32
  %dz2 = arith.mulf %e#5, %e#5 : f32
  %dxy2 = arith.addf %dx2, %dy2 : f32
  %len2 = arith.addf %dxy2, %dz2 : f32
  %len2_safe = arith.maximumf %len2, %tiny : f32
  %inv_len = math.rsqrt %len2_safe : f32
  %dx = arith.mulf %e#3, %inv_len : f32
  %dy = arith.mulf %e#4, %inv_len : f32
  %dz = arith.mulf %e#5, %inv_len : f32
  %tmax = arith.addf %e#6, %tmax_base : f32
  %tmax_steps = arith.mulf %tmax, %steps_per_unit : f32
  %n = arith.fptosi %tmax_steps : f32 to i32     // whole steps: floor(tmax / dt)
  %jitter = math.fma %e#7, %half, %half : f32
  %rgb0 = "coopvec.splat"(%zero) : (f32) -> !coopvec.vec<3, f32>

  // March: (step i, transmittance T, colour so far) until i = n or T < 1e-3.
  %res:3 = scf.while (%i = %c0, %T = %one, %rgb = %rgb0) : (i32, f32, !coopvec.vec<3, f32>) -> (i32, f32, !coopvec.vec<3, f32>) {
    %more = arith.cmpi slt, %i, %n : i32
    %visible = arith.cmpf oge, %T, %t_min : f32
    %go = arith.andi %more, %visible : i1
    scf.condition(%go) %i, %T, %rgb : i32, f32, !coopvec.vec<3, f32>
  } do {
  ^bb0(%i: i32, %T: f32, %rgb: !coopvec.vec<3, f32>):
    // The sample p = o + t d, t = (i + j) dt.
    %i_f = arith.sitofp %i : i32 to f32
    %i_j = arith.addf %i_f, %jitter : f32
    %t = arith.mulf %i_j, %dt : f32
    %px = math.fma %t, %dx, %e#0 : f32
    %py = math.fma %t, %dy, %e#1 : f32
    %pz = math.fma %t, %dz, %e#2 : f32
    // Positional encoding: sin / cos of pi p, then of 2 pi p by the double
    // angle formulas sin 2a = 2 sin a cos a, cos 2a = 1 - 2 sin^2 a.
    %ax = arith.mulf %px, %pi : f32
    %ay = arith.mulf %py, %pi : f32
    %az = arith.mulf %pz, %pi : f32
    %sx = math.sin %ax : f32
    %sy = math.sin %ay : f32
    %sz = math.sin %az : f32
    %cx = math.cos %ax : f32
    %cy = math.cos %ay : f32
    %cz = math.cos %az : f32
    %sx2 = arith.mulf %sx, %cx : f32
    %sy2 = arith.mulf %sy, %cy : f32
    %sz2 = arith.mulf %sz, %cz : f32
    %s2x = arith.mulf %sx2, %two : f32
    %s2y = arith.mulf %sy2, %two : f32
    %s2z = arith.mulf %sz2, %two : f32
    %qx = arith.mulf %sx, %sx : f32
    %qy = arith.mulf %sy, %sy : f32
    %qz = arith.mulf %sz, %sz : f32
    %c2x = math.fma %qx, %m2, %one : f32
    %c2y = math.fma %qy, %m2, %one : f32
    %c2z = math.fma %qz, %m2, %one : f32
    %enc = "coopvec.from_elements"(%sx, %sy, %sz, %cx, %cy, %cz, %s2x, %s2y, %s2z, %c2x, %c2y, %c2z) : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !coopvec.vec<12, f32>
    // The field: 12 -> 32 -> 32 -> 4, ReLU (matvecs with their biases).
    %y0 = "coopvec.matvec"(%W0, %enc, %b0) : (!coopvec.matrix<32, 12, f32, "row_major">, !coopvec.vec<12, f32>, !coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
    %h0 = "coopvec.max"(%y0, %zero) : (!coopvec.vec<32, f32>, f32) -> !coopvec.vec<32, f32>
    %y1 = "coopvec.matvec"(%W1, %h0, %b1) : (!coopvec.matrix<32, 32, f32, "row_major">, !coopvec.vec<32, f32>, !coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
    %h1 = "coopvec.max"(%y1, %zero) : (!coopvec.vec<32, f32>, f32) -> !coopvec.vec<32, f32>
    %y = "coopvec.matvec"(%W2, %h1, %b2) : (!coopvec.matrix<4, 32, f32, "row_major">, !coopvec.vec<32, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
    %out:4 = "coopvec.unpack"(%y) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
    // Density and colour.
    %sigma = arith.maximumf %out#0, %zero : f32
    %tr = math.tanh %out#1 : f32
    %tg = math.tanh %out#2 : f32
    %tb = math.tanh %out#3 : f32
    %cr = math.fma %tr, %half, %half : f32
    %cg = math.fma %tg, %half, %half : f32
    %cb = math.fma %tb, %half, %half : f32
    %c = "coopvec.from_elements"(%cr, %cg, %cb) : (f32, f32, f32) -> !coopvec.vec<3, f32>
    // Composite: the sample lets through e = exp(-sigma dt) of the light.
    %sigma_dt = arith.mulf %sigma, %dt : f32
    %minus = arith.negf %sigma_dt : f32
    %pass = math.exp %minus : f32
    %alpha = arith.subf %one, %pass : f32
    %weight = arith.mulf %T, %alpha : f32
    %rgb_next = "coopvec.fma"(%c, %weight, %rgb) : (!coopvec.vec<3, f32>, f32, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
    %T_next = arith.mulf %T, %pass : f32
    %i_next = arith.addi %i, %c1 : i32
    scf.yield %i_next, %T_next, %rgb_next : i32, f32, !coopvec.vec<3, f32>
  }

  %rgb:3 = "coopvec.unpack"(%res#2) : (!coopvec.vec<3, f32>) -> (f32, f32, f32)
  %result = "coopvec.from_elements"(%rgb#0, %rgb#1, %rgb#2, %res#1) : (f32, f32, f32, f32) -> !coopvec.vec<4, f32>
  return %result : !coopvec.vec<4, f32>
}
