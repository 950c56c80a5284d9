func.func @broken() {
  %0 = arith.constant 1 : i32
  %1 = "coopvec.neg"(%0) :
}
