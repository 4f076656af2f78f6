#pragma once

#include <cstdint>

namespace legate_fuse {

// cuRAND's XORWOW generator state (curandStateXORWOW of curand_kernel.h), as cuPyNumeric's
// random library holds it in a host generator: a Weyl sequence `d` and a 160-bit xorshift
// state `v`, then the values Box-Muller transforms keep for the next draw (normal and
// log-normal values come in pairs).
struct XorwowState {
  std::uint32_t d;
  std::uint32_t v[5];
  std::int32_t boxmuller_flag;         // float normal or log-normal value kept
  std::int32_t boxmuller_flag_double;  // double one
  float boxmuller_extra;
  double boxmuller_extra_double;
};
static_assert(sizeof(XorwowState) == 48, "curandStateXORWOW's layout");

// The next 32-bit number (cuRAND's curand()), advancing the state by one step.
std::uint32_t xorwow_next(XorwowState& state);

// Advances the state by `steps` numbers, as that many calls of xorwow_next would, in time
// logarithmic in `steps`: the xorshift part is linear over GF(2), so a jump is a product of
// its step matrix's powers of two (computed once, as far as a jump needs them), and the Weyl
// part adds its constant `steps` times. The Box-Muller fields are left as they are.
void xorwow_skip(XorwowState& state, std::uint64_t steps);

}  // namespace legate_fuse
