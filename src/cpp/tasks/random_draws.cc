#include "tasks/random_draws.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "tasks/draw_in_parts.h"
#include "tasks/randutil.h"

namespace legate_fuse {

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

namespace {

// cuRAND's type for cuPyNumeric's BitGeneratorType (random/curand_help.h); -1 for the types
// randutil does not make on a CPU.
std::int32_t curand_type(std::uint32_t generator_type)
{
  switch (generator_type) {
    case 0:  // DEFAULT
    case 1:  // XORWOW
      return kCurandXorwow;
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
  // The block's values, of the draw's type, in one call of randutil or in parts.
  const auto fill = [&](auto* data, std::size_t n) {
    draw_values(functions, generator, curand_type(draw.generator_type), draw, data, n);
  };
  switch (draw.kind) {
    case DrawKind::Raw:
      fill_block<std::uint32_t>(out, fill);
      return;
    case DrawKind::Integers16:
      fill_block<std::int16_t>(out, fill);
      return;
    case DrawKind::Integers32:
      fill_block<std::int32_t>(out, fill);
      return;
    case DrawKind::Integers64:
      fill_block<std::int64_t>(out, fill);
      return;
    case DrawKind::Uniform32:
    case DrawKind::Normal32:
    case DrawKind::LogNormal32:
      fill_block<float>(out, fill);
      return;
    case DrawKind::Uniform64:
    case DrawKind::Normal64:
    case DrawKind::LogNormal64:
      fill_block<double>(out, fill);
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
