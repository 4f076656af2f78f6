#include "tasks/randutil.h"

#include <dlfcn.h>

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

template <typename F>
void find(void* library, const char* name, F& function)
{
  function = reinterpret_cast<F>(dlsym(library, name));
}

}  // namespace

bool Randutil::complete() const
{
  return generator_map != nullptr && create != nullptr && create_host != nullptr &&
         destroy != nullptr && raw != nullptr && integers16 != nullptr && integers32 != nullptr &&
         integers64 != nullptr && uniform32 != nullptr && uniform64 != nullptr &&
         normal32 != nullptr && normal64 != nullptr && lognormal32 != nullptr &&
         lognormal64 != nullptr;
}

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

}  // namespace legate_fuse
