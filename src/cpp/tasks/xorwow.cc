#include "tasks/xorwow.h"

#include <array>
#include <mutex>
#include <vector>

namespace legate_fuse {
namespace {

constexpr std::uint32_t kWeyl = 362437;  // added to `d` at each step (curand_kernel.h)
constexpr int kWords          = 5;
constexpr int kBits           = 32 * kWords;

using Vector = std::array<std::uint32_t, kWords>;
// A linear map of the 160-bit state: column b is the image of the state with bit b alone set.
using Matrix = std::array<Vector, kBits>;

void xorshift_step(std::uint32_t* v)
{
  const std::uint32_t t = v[0] ^ (v[0] >> 2);
  v[0]                  = v[1];
  v[1]                  = v[2];
  v[2]                  = v[3];
  v[3]                  = v[4];
  v[4]                  = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
}

Vector transform(const Matrix& matrix, const Vector& vector)
{
  Vector result{};
  for (int word = 0; word < kWords; ++word) {
    for (std::uint32_t bits = vector[word]; bits != 0; bits &= bits - 1) {
      const Vector& column = matrix[32 * word + __builtin_ctz(bits)];
      for (int w = 0; w < kWords; ++w) {
        result[w] ^= column[w];
      }
    }
  }
  return result;
}

// powers[j] is the step matrix raised to 2^j; grown under the mutex as far as a jump needs.
struct Powers {
  std::mutex mutex;
  std::vector<Matrix> powers;

  const Matrix& power_of_two(std::size_t j)
  {
    if (powers.empty()) {
      Matrix step{};
      for (int b = 0; b < kBits; ++b) {
        step[b][b / 32] = std::uint32_t{1} << (b % 32);
        xorshift_step(step[b].data());
      }
      powers.push_back(step);
    }
    while (powers.size() <= j) {
      const Matrix& last = powers.back();
      Matrix square{};
      for (int b = 0; b < kBits; ++b) {
        square[b] = transform(last, last[b]);
      }
      powers.push_back(square);
    }
    return powers[j];
  }
};

Powers& powers()
{
  static auto* table = new Powers();  // never destroyed: fused tasks may run at exit
  return *table;
}

}  // namespace

std::uint32_t xorwow_next(XorwowState& state)
{
  xorshift_step(state.v);
  state.d += kWeyl;
  return state.v[4] + state.d;
}

void xorwow_skip(XorwowState& state, std::uint64_t steps)
{
  // The Weyl sequence wraps modulo 2^32, as its 32-bit sum does.
  state.d += static_cast<std::uint32_t>(steps * kWeyl);
  Vector v{state.v[0], state.v[1], state.v[2], state.v[3], state.v[4]};
  Powers& table = powers();
  const std::lock_guard<std::mutex> guard{table.mutex};
  for (std::size_t j = 0; steps != 0; ++j, steps >>= 1) {
    if ((steps & 1) != 0) {
      v = transform(table.power_of_two(j), v);
    }
  }
  for (int w = 0; w < kWords; ++w) {
    state.v[w] = v[w];
  }
}

}  // namespace legate_fuse
