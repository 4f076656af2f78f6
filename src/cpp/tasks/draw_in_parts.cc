#include "tasks/draw_in_parts.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/kernel_threads.h"
#include "tasks/xorwow.h"

namespace legate_fuse {
namespace {

// randutil's host generator (inner_generator<curandStateXORWOW, HOST>): a vtable pointer, the
// seed, the generator id, then the cuRAND state.
constexpr std::size_t kSeedOffset  = 8;
constexpr std::size_t kIdOffset    = 16;
constexpr std::size_t kStateOffset = 24;

XorwowState& state_of(RandutilGenerator generator)
{
  return *reinterpret_cast<XorwowState*>(static_cast<char*>(generator) + kStateOffset);
}

std::uint64_t word_at(RandutilGenerator generator, std::size_t offset)
{
  std::uint64_t word = 0;
  std::memcpy(&word, static_cast<const char*>(generator) + offset, sizeof(word));
  return word;
}

// Which value a Box-Muller draw keeps in the state between calls.
enum class Kept : std::uint8_t { Nothing, Single, Double };

// One call of randutil for a kind of draw, and the generator's numbers its values take.
struct OneCall {
  std::function<int(RandutilGenerator generator, void* out, std::size_t n)> call;
  std::size_t value_bytes{};
  std::uint64_t numbers{};  // 32-bit numbers per value, or per pair of values where `kept`
  Kept kept{Kept::Nothing};
};

template <typename T>
OneCall two_parameters(Generate<T> generate, T first, T second, std::uint64_t numbers,
                       Kept kept = Kept::Nothing)
{
  return {[=](RandutilGenerator generator, void* out, std::size_t n) {
            return generate(generator, static_cast<T*>(out), n, first, second);
          },
          sizeof(T), numbers, kept};
}

// cuRAND's XORWOW functions (curand_kernel.h) that randutil's distributions call: curand() one
// number; curand_uniform one, curand_uniform_double two; the normal and log-normal ones a pair
// of values from two numbers (float) or four (double), the second kept for the next call.
OneCall one_call(const Randutil& functions, const Draw& draw)
{
  const auto f0 = static_cast<float>(draw.reals[0]);
  const auto f1 = static_cast<float>(draw.reals[1]);
  switch (draw.kind) {
    case DrawKind::Raw:
      return {[raw = functions.raw](RandutilGenerator generator, void* out, std::size_t n) {
                return raw(generator, static_cast<std::uint32_t*>(out), n);
              },
              sizeof(std::uint32_t), 1};
    case DrawKind::Integers16:
      return two_parameters<std::int16_t>(functions.integers16,
                                          static_cast<std::int16_t>(draw.integers[0]),
                                          static_cast<std::int16_t>(draw.integers[1]), 1);
    case DrawKind::Integers32:
      return two_parameters<std::int32_t>(functions.integers32,
                                          static_cast<std::int32_t>(draw.integers[0]),
                                          static_cast<std::int32_t>(draw.integers[1]), 1);
    case DrawKind::Integers64:
      return two_parameters<std::int64_t>(functions.integers64, draw.integers[0], draw.integers[1],
                                          2);
    case DrawKind::Uniform32:
      return two_parameters<float>(functions.uniform32, f0, f1, 1);
    case DrawKind::Uniform64:
      return two_parameters<double>(functions.uniform64, draw.reals[0], draw.reals[1], 2);
    case DrawKind::Normal32:
      return two_parameters<float>(functions.normal32, f0, f1, 2, Kept::Single);
    case DrawKind::Normal64:
      return two_parameters<double>(functions.normal64, draw.reals[0], draw.reals[1], 4,
                                    Kept::Double);
    case DrawKind::LogNormal32:
      return two_parameters<float>(functions.lognormal32, f0, f1, 2, Kept::Single);
    case DrawKind::LogNormal64:
      return two_parameters<double>(functions.lognormal64, draw.reals[0], draw.reals[1], 4,
                                    Kept::Double);
  }
  throw std::runtime_error("legate-fuse: an unknown kind of random draw");
}

void check(int status)
{
  if (status != 0) {
    throw std::runtime_error("legate-fuse: cuPyNumeric's random library failed: status " +
                             std::to_string(status));
  }
}

bool keeps_a_value(const XorwowState& state, Kept kept)
{
  return (kept == Kept::Single && state.boxmuller_flag != 0) ||
         (kept == Kept::Double && state.boxmuller_flag_double != 0);
}

// Generators of ours that draw the parts before the last, made once and reused; the mutex is
// held for a whole draw.
struct Spares {
  std::mutex mutex;
  std::vector<RandutilGenerator> generators;
};

Spares& spares()
{
  static auto* pool = new Spares();  // never destroyed: fused tasks may run at exit
  return *pool;
}

std::atomic<std::uint64_t> split_draws{0};

// The draw in parts of `per_part` values (even where values come in pairs), or one call where
// it cannot be split; on the kernel threads or, for the check, on this thread. Returns whether
// it was split.
bool draw_parts(const Randutil& functions, RandutilGenerator generator, const OneCall& one,
                char* out, std::size_t n, std::size_t per_part, bool on_threads)
{
  XorwowState& state      = state_of(generator);
  const std::size_t parts = per_part == 0 ? 0 : (n + per_part - 1) / per_part;
  if (parts < 2 || keeps_a_value(state, one.kept)) {
    check(one.call(generator, out, n));
    return false;
  }
  Spares& pool = spares();
  const std::lock_guard<std::mutex> guard{pool.mutex};
  while (pool.generators.size() < parts - 1) {
    RandutilGenerator made = nullptr;
    check(functions.create_host(&made, kCurandXorwow, 0, 0, 0));
    pool.generators.push_back(made);
  }
  const auto numbers_before = [&](std::size_t first) -> std::uint64_t {
    return one.kept == Kept::Nothing ? first * one.numbers : first / 2 * one.numbers;
  };
  const XorwowState start = state;
  for (std::size_t part = 0; part + 1 < parts; ++part) {
    XorwowState& at = state_of(pool.generators[part]);
    at              = start;
    xorwow_skip(at, numbers_before(part * per_part));
  }
  xorwow_skip(state, numbers_before((parts - 1) * per_part));
  std::vector<int> statuses(parts, 0);
  const std::function<void(std::int64_t)> each = [&](std::int64_t index) {
    const auto part         = static_cast<std::size_t>(index);
    const std::size_t first = part * per_part;
    RandutilGenerator from  = part + 1 == parts ? generator : pool.generators[part];
    statuses[part] = one.call(from, out + first * one.value_bytes, std::min(per_part, n - first));
  };
  if (on_threads) {
    KernelThreads::instance().run_each(static_cast<std::int64_t>(parts), each);
  } else {
    for (std::size_t part = 0; part < parts; ++part) {
      each(static_cast<std::int64_t>(part));
    }
  }
  for (const int status : statuses) {
    check(status);
  }
  return true;
}

bool same_state(const XorwowState& a, const XorwowState& b)
{
  return a.d == b.d && std::memcmp(a.v, b.v, sizeof(a.v)) == 0 &&
         a.boxmuller_flag == b.boxmuller_flag &&
         a.boxmuller_flag_double == b.boxmuller_flag_double &&
         (a.boxmuller_flag == 0 || a.boxmuller_extra == b.boxmuller_extra) &&
         (a.boxmuller_flag_double == 0 || a.boxmuller_extra_double == b.boxmuller_extra_double);
}

// Every kind of draw, twice (odd counts: the second of a normal pair is then kept), one call on
// generator `a` and in parts of 6 values on `b`; the numbers and the states must agree, and
// the state must hold where expected and step as xorwow_next steps.
bool parts_match(const Randutil& functions, RandutilGenerator a, RandutilGenerator b,
                 std::uint64_t seed, std::uint64_t id)
{
  if (word_at(a, kSeedOffset) != seed || word_at(a, kIdOffset) != id) {
    return false;
  }
  XorwowState stepped = state_of(a);
  std::uint32_t numbers[4];
  check(functions.raw(a, numbers, 4));
  check(functions.raw(b, numbers, 4));
  for (const std::uint32_t number : numbers) {
    if (xorwow_next(stepped) != number) {
      return false;
    }
  }
  constexpr std::size_t kValues = 37;
  for (std::int32_t kind = 0; kind <= static_cast<std::int32_t>(DrawKind::LogNormal64); ++kind) {
    Draw draw;
    draw.kind         = static_cast<DrawKind>(kind);
    draw.reals[0]     = 0.25;
    draw.reals[1]     = kind >= static_cast<std::int32_t>(DrawKind::Normal32) ? 1.5 : 3.0;
    draw.integers[0]  = -5;
    draw.integers[1]  = 1000;
    const OneCall one = one_call(functions, draw);
    for (int round = 0; round < 2; ++round) {
      std::vector<char> whole(kValues * one.value_bytes);
      std::vector<char> parted(kValues * one.value_bytes);
      check(one.call(a, whole.data(), kValues));
      const bool split = draw_parts(functions, b, one, parted.data(), kValues, 6, false);
      if ((round == 0 && !split) || whole != parted || !same_state(state_of(a), state_of(b))) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace

bool draws_in_parts_match_one_call()
{
  static const bool matched = [] {
    const Randutil& functions = randutil();
    if (!functions.complete()) {
      return false;
    }
    constexpr std::uint64_t kSeed = 0x5eedULL;
    constexpr std::uint64_t kId   = 7;
    RandutilGenerator a           = nullptr;
    RandutilGenerator b           = nullptr;
    bool result                   = false;
    if (functions.create_host(&a, kCurandXorwow, kSeed, kId, 0) == 0 &&
        functions.create_host(&b, kCurandXorwow, kSeed, kId, 0) == 0 && a != nullptr &&
        b != nullptr) {
      try {
        result = parts_match(functions, a, b, kSeed, kId);
      } catch (const std::exception&) {
        result = false;
      }
    }
    for (RandutilGenerator made : {a, b}) {
      if (made != nullptr) {
        functions.destroy(made);
      }
    }
    return result;
  }();
  return matched;
}

void draw_values(const Randutil& functions, RandutilGenerator generator, std::int32_t curand_type,
                 const Draw& draw, void* out, std::size_t n)
{
  const OneCall one            = one_call(functions, draw);
  const KernelThreads& threads = KernelThreads::instance();
  const auto least             = static_cast<std::size_t>(threads.min_part_elements());
  const bool may_split = threads.threads() > 1 && curand_type == kCurandXorwow && n >= 2 * least &&
                         draws_in_parts_match_one_call();
  if (!may_split) {
    check(one.call(generator, out, n));
    return;
  }
  // A few parts per thread, so that one a helper is late with is taken by another thread.
  const auto wanted    = static_cast<std::size_t>(4 * threads.threads());
  std::size_t per_part = std::max(least, (n + wanted - 1) / wanted);
  per_part += per_part % 2;  // pairs of normal values stay in one part
  if (draw_parts(functions, generator, one, static_cast<char*>(out), n, per_part, true)) {
    split_draws.fetch_add(1);
  }
}

std::uint64_t split_draw_runs() { return split_draws.load(); }

}  // namespace legate_fuse
