#include "tasks/random_draws.h"

#include <dlfcn.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace legate_fuse {
namespace {

constexpr char kSoname[] = "libcupynumeric.so";  // cuPyNumeric's library, as loaded
// BitGeneratorImplBody<VariantKind::CPU>::get_generator_map(): the generators of the calling
// processor (created empty on its first call), and generator_map<VariantKind::CPU>::create(id,
// type, seed, flags): a generator made as its BITGENERATOR task makes one on a first draw.
constexpr char kGeneratorMap[] =
    "_ZN11cupynumeric20BitGeneratorImplBodyILNS_11VariantKindE0EE17get_generator_mapEv";
constexpr char kCreate[] =
    "_ZN11cupynumeric13generator_mapILNS_11VariantKindE0EE6createEjNS_16BitGeneratorTypeEmj";

using RandutilGenerator = void*;

// cuPyNumeric's CURANDGenerator (random/bitgenerator_curand.inl): a class with virtual
// functions whose members follow its vtable pointer: randutil's generator, the seed, the
// processor's id it was seeded with, the cuRAND type of the generator.
struct GeneratorView {
  void* vtable;
  RandutilGenerator generator;
  std::uint64_t seed;
  std::uint64_t processor;
  std::int32_t type;
};

// cuPyNumeric's generator_map<CPU>: its one member, the processor's generators by id.
struct GeneratorMapView {
  std::map<std::uint32_t, GeneratorView*> generators;
};

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

  [[nodiscard]] bool complete() const
  {
    return generator_map != nullptr && create != nullptr && create_host != nullptr &&
           destroy != nullptr && raw != nullptr && integers16 != nullptr && integers32 != nullptr &&
           integers64 != nullptr && uniform32 != nullptr && uniform64 != nullptr &&
           normal32 != nullptr && normal64 != nullptr && lognormal32 != nullptr &&
           lognormal64 != nullptr;
  }
};

template <typename F>
void find(void* library, const char* name, F& function)
{
  function = reinterpret_cast<F>(dlsym(library, name));
}

// Looked up once: the library already loaded (RTLD_NOLOAD), never loaded here.
const Randutil& randutil()
{
  static const Randutil found = [] {
    Randutil result;
    void* library = dlopen(kSoname, RTLD_NOW | RTLD_NOLOAD);
    if (library == nullptr) {
      return result;
    }
    find(library, kGeneratorMap, result.generator_map);
    find(library, kCreate, result.create);
    find(library, "randutilCreateGeneratorHost", result.create_host);
    find(library, "randutilDestroyGenerator", result.destroy);
    find(library, "randutilGenerateRawUInt32", result.raw);
    find(library, "randutilGenerateIntegers16", result.integers16);
    find(library, "randutilGenerateIntegers32", result.integers32);
    find(library, "randutilGenerateIntegers64", result.integers64);
    find(library, "randutilGenerateUniformEx", result.uniform32);
    find(library, "randutilGenerateUniformDoubleEx", result.uniform64);
    find(library, "randutilGenerateNormalEx", result.normal32);
    find(library, "randutilGenerateNormalDoubleEx", result.normal64);
    find(library, "randutilGenerateLogNormalEx", result.lognormal32);
    find(library, "randutilGenerateLogNormalDoubleEx", result.lognormal64);
    return result;
  }();
  return found;
}

// cuRAND's type for cuPyNumeric's BitGeneratorType (random/curand_help.h); -1 for the types
// randutil does not make on a CPU.
std::int32_t curand_type(std::uint32_t generator_type)
{
  switch (generator_type) {
    case 0:  // DEFAULT
    case 1:  // XORWOW
      return 101;
    case 2:  // MRG32K3A
      return 121;
    case 5:  // PHILOX4_32_10
      return 161;
    default:
      return -1;
  }
}

std::uint64_t this_processor() { return legate::Processor::get_executing_processor().id; }

// This processor's generator `id`, created as cuPyNumeric's task creates it on a first draw;
// nullptr when what is found is not laid out as expected.
RandutilGenerator generator_of(const Randutil& functions, std::uint32_t id, std::uint32_t type,
                               std::uint64_t seed, std::uint32_t flags)
{
  GeneratorMapView& holder = functions.generator_map();
  auto found               = holder.generators.find(id);
  if (found == holder.generators.end()) {
    functions.create(&holder, id, type, seed, flags);
    found = holder.generators.find(id);
  }
  if (found == holder.generators.end() || found->second == nullptr) {
    return nullptr;
  }
  const GeneratorView& view = *found->second;
  if (view.generator == nullptr || view.seed != seed || view.processor != this_processor() ||
      view.type != curand_type(type)) {
    return nullptr;
  }
  return view.generator;
}

void check(int status)
{
  if (status != 0) {
    throw std::runtime_error("legate-fuse: cuPyNumeric's random library failed: status " +
                             std::to_string(status));
  }
}

// Fills the block of `out` in row-major order: where the block is dense in that order, in
// place (as cuPyNumeric's task fills it); else through a buffer.
template <typename T, typename Fill>
struct FillBlock {
  template <std::int32_t DIM>
  void operator()(const legate::PhysicalStore& out, const Fill& fill) const
  {
    const auto rect = out.shape<DIM>();
    if (rect.empty()) {
      return;
    }
    std::size_t strides[DIM];
    T* data              = out.write_accessor<T, DIM>(rect).ptr(rect, strides);
    const auto volume    = static_cast<std::size_t>(rect.volume());
    bool dense           = true;
    std::size_t expected = 1;
    for (std::int32_t d = DIM - 1; d >= 0; --d) {
      const auto extent = static_cast<std::size_t>(rect.hi[d] - rect.lo[d] + 1);
      dense             = dense && (extent == 1 || strides[d] == expected);
      expected *= extent;
    }
    if (dense) {
      fill(data, volume);
      return;
    }
    std::vector<T> buffer(volume);
    fill(buffer.data(), volume);
    std::size_t at = 0;
    for (legate::PointInRectIterator<DIM> point{rect, /*fortran_order=*/false}; point.valid();
         ++point, ++at) {
      std::size_t offset = 0;
      for (std::int32_t d = 0; d < DIM; ++d) {
        offset += static_cast<std::size_t>((*point)[d] - rect.lo[d]) * strides[d];
      }
      data[offset] = buffer[at];
    }
  }
};

template <typename T, typename Fill>
void fill_block(const legate::PhysicalStore& out, const Fill& fill)
{
  legate::dim_dispatch(std::max(1, out.dim()), FillBlock<T, Fill>{}, out, fill);
}

template <typename T>
void draw_two(const legate::PhysicalStore& out, RandutilGenerator generator, Generate<T> generate,
              T first, T second)
{
  fill_block<T>(
      out, [&](T* data, std::size_t n) { check(generate(generator, data, n, first, second)); });
}

std::atomic<std::uint32_t> next_probe_id{0xFFFFFFFFU};

}  // namespace

bool random_draws_available() { return randutil().complete(); }

void draw_random(const Draw& draw, const legate::PhysicalStore& out)
{
  const Randutil& functions = randutil();
  if (!functions.complete()) {
    throw std::runtime_error("legate-fuse: cuPyNumeric's random library is not loaded");
  }
  RandutilGenerator generator =
      generator_of(functions, draw.generator, draw.generator_type, draw.seed, draw.flags);
  if (generator == nullptr) {
    throw std::runtime_error("legate-fuse: cuPyNumeric's generator not found as expected");
  }
  const auto f0 = static_cast<float>(draw.reals[0]);
  const auto f1 = static_cast<float>(draw.reals[1]);
  switch (draw.kind) {
    case DrawKind::Raw:
      fill_block<std::uint32_t>(out, [&](std::uint32_t* data, std::size_t n) {
        check(functions.raw(generator, data, n));
      });
      return;
    case DrawKind::Integers16:
      draw_two<std::int16_t>(out, generator, functions.integers16,
                             static_cast<std::int16_t>(draw.integers[0]),
                             static_cast<std::int16_t>(draw.integers[1]));
      return;
    case DrawKind::Integers32:
      draw_two<std::int32_t>(out, generator, functions.integers32,
                             static_cast<std::int32_t>(draw.integers[0]),
                             static_cast<std::int32_t>(draw.integers[1]));
      return;
    case DrawKind::Integers64:
      draw_two<std::int64_t>(out, generator, functions.integers64, draw.integers[0],
                             draw.integers[1]);
      return;
    case DrawKind::Uniform32:
      draw_two<float>(out, generator, functions.uniform32, f0, f1);
      return;
    case DrawKind::Uniform64:
      draw_two<double>(out, generator, functions.uniform64, draw.reals[0], draw.reals[1]);
      return;
    case DrawKind::Normal32:
      draw_two<float>(out, generator, functions.normal32, f0, f1);
      return;
    case DrawKind::Normal64:
      draw_two<double>(out, generator, functions.normal64, draw.reals[0], draw.reals[1]);
      return;
    case DrawKind::LogNormal32:
      draw_two<float>(out, generator, functions.lognormal32, f0, f1);
      return;
    case DrawKind::LogNormal64:
      draw_two<double>(out, generator, functions.lognormal64, draw.reals[0], draw.reals[1]);
      return;
  }
  throw std::runtime_error("legate-fuse: an unknown kind of random draw");
}

bool probe_random_generators()
{
  const Randutil& functions = randutil();
  if (!functions.complete()) {
    return false;
  }
  constexpr std::uint64_t kSeed = 0x5eed5eedULL;
  constexpr std::uint32_t kType = 1;  // XORWOW
  constexpr std::size_t kCount  = 16;
  const std::uint32_t id        = next_probe_id.fetch_sub(1);
  RandutilGenerator theirs      = generator_of(functions, id, kType, kSeed, 0);
  if (theirs == nullptr) {
    return false;
  }
  RandutilGenerator ours = nullptr;
  if (functions.create_host(&ours, curand_type(kType), kSeed, this_processor(), 0) != 0 ||
      ours == nullptr) {
    return false;
  }
  std::uint32_t expected[kCount];
  std::uint32_t found[kCount];
  const bool drawn =
      functions.raw(ours, expected, kCount) == 0 && functions.raw(theirs, found, kCount) == 0;
  functions.destroy(ours);
  if (!drawn) {
    return false;
  }
  for (std::size_t i = 0; i < kCount; ++i) {
    if (expected[i] != found[i]) {
      return false;
    }
  }
  return true;
}

void RandomProbeTask::cpu_variant(legate::TaskContext context)
{
  auto out        = context.output(0).data();
  const auto rect = out.shape<1>();
  if (rect.empty()) {
    return;
  }
  out.write_accessor<std::int32_t, 1>(rect)[rect.lo] = probe_random_generators() ? 1 : 0;
}

}  // namespace legate_fuse
