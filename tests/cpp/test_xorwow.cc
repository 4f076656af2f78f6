// cuRAND's XORWOW generator advanced by any count of numbers (tasks/xorwow.*), as random draws
// made in parts need it: a jump equals that many steps, whatever the count's bits, the Weyl
// sequence wrapping as its 32-bit sum does.
#include <cstdint>

#include "check.h"
#include "tasks/xorwow.h"

using legate_fuse::xorwow_next;
using legate_fuse::xorwow_skip;
using legate_fuse::XorwowState;

namespace {

// A state as curand_init might leave it (any values will do: the map is the same).
XorwowState some_state()
{
  XorwowState state{};
  state.d                      = 0xFFFFFF00U;  // wraps within the first steps
  state.v[0]                   = 0x12345678U;
  state.v[1]                   = 0x9ABCDEF0U;
  state.v[2]                   = 0x0F1E2D3CU;
  state.v[3]                   = 0xDEADBEEFU;
  state.v[4]                   = 0x00C0FFEEU;
  state.boxmuller_flag         = 1;
  state.boxmuller_extra        = 0.5F;
  state.boxmuller_extra_double = -2.25;
  return state;
}

bool same(const XorwowState& a, const XorwowState& b)
{
  bool equal = a.d == b.d;
  for (int w = 0; w < 5; ++w) {
    equal = equal && a.v[w] == b.v[w];
  }
  return equal;
}

}  // namespace

LF_TEST(a_jump_equals_as_many_steps)
{
  for (const std::uint64_t steps : {0, 1, 2, 3, 31, 32, 33, 1000, 4096, 65537, 300001}) {
    XorwowState stepped = some_state();
    for (std::uint64_t k = 0; k < steps; ++k) {
      xorwow_next(stepped);
    }
    XorwowState jumped = some_state();
    xorwow_skip(jumped, steps);
    LF_CHECK(same(jumped, stepped));
    LF_CHECK_EQ(xorwow_next(jumped), xorwow_next(stepped));
  }
}

LF_TEST(jumps_add_up_far_out)
{
  const std::uint64_t far = (std::uint64_t{1} << 40) + 12345;
  XorwowState once        = some_state();
  xorwow_skip(once, far + 777);
  XorwowState twice = some_state();
  xorwow_skip(twice, far);
  xorwow_skip(twice, 777);
  LF_CHECK(same(once, twice));
}

LF_TEST(a_jump_keeps_the_box_muller_fields)
{
  XorwowState state = some_state();
  xorwow_skip(state, 99);
  LF_CHECK_EQ(state.boxmuller_flag, 1);
  LF_CHECK(state.boxmuller_extra == 0.5F && state.boxmuller_extra_double == -2.25);
}

LF_TEST(the_numbers_are_curand_s)
{
  // The first numbers of cuRAND's recurrence from this state, worked by hand from its
  // definition: t = v0 ^ (v0 >> 2); v4' = (v4 ^ (v4 << 4)) ^ (t ^ (t << 1)); d += 362437.
  XorwowState state     = some_state();
  const std::uint32_t t = 0x12345678U ^ (0x12345678U >> 2);
  const std::uint32_t v = (0x00C0FFEEU ^ (0x00C0FFEEU << 4)) ^ (t ^ (t << 1));
  LF_CHECK_EQ(xorwow_next(state), v + (0xFFFFFF00U + 362437U));
  LF_CHECK_EQ(state.v[0], 0x9ABCDEF0U);
  LF_CHECK_EQ(state.v[4], v);
}

LF_TEST_MAIN
