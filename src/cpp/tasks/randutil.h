#pragma once

#include <cstddef>
#include <cstdint>

namespace legate_fuse {

// The functions of cuPyNumeric's random library (randutil, inside libcupynumeric.so) that a
// fused task's draws call, found in the library already loaded in the process.

// A randutil generator: on a CPU, an object whose cuRAND state follows its vtable pointer, its
// seed and its generator id (randutil's inner_generator; see draw_in_parts.h).
using RandutilGenerator = void*;

// cuPyNumeric's generator_map<CPU> (a processor's generators by id), as a fused task reads it.
struct GeneratorMapView;

using GetGeneratorMap = GeneratorMapView& (*)();
using CreateGenerator = void (*)(GeneratorMapView* self, std::uint32_t id, std::uint32_t type,
                                 std::uint64_t seed, std::uint32_t flags);
using CreateHost  = int (*)(RandutilGenerator* generator, std::int32_t rng_type, std::uint64_t seed,
                            std::uint64_t processor, std::uint32_t flags);
using Destroy     = int (*)(RandutilGenerator generator);
using GenerateRaw = int (*)(RandutilGenerator generator, std::uint32_t* out, std::size_t n);
template <typename T>
using Generate = int (*)(RandutilGenerator generator, T* out, std::size_t n, T first, T second);

struct Randutil {
  GetGeneratorMap generator_map{};
  CreateGenerator create{};
  CreateHost create_host{};
  Destroy destroy{};
  GenerateRaw raw{};
  Generate<std::int16_t> integers16{};
  Generate<std::int32_t> integers32{};
  Generate<std::int64_t> integers64{};
  Generate<float> uniform32{};
  Generate<double> uniform64{};
  Generate<float> normal32{};
  Generate<double> normal64{};
  Generate<float> lognormal32{};
  Generate<double> lognormal64{};

  [[nodiscard]] bool complete() const;
};

// Looked up once: the library already loaded, never loaded here (every function null if it is
// not loaded).
const Randutil& randutil();

// cuRAND's generator type for XORWOW, as randutil numbers it.
constexpr std::int32_t kCurandXorwow = 101;

}  // namespace legate_fuse
