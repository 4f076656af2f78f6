#include "runtime/kernel_registry.h"

#include <dlfcn.h>

#include <cstdint>
#include <stdexcept>

namespace legate_fuse {
namespace {

// The kernel and the optional symbols that say how it may be split (runtime/kernel_abi.h); a
// kernel without them, or with a part form missing, runs on its whole block.
CpuKernel describe(void* library, legate_fuse_kernel_fn whole)
{
  CpuKernel kernel;
  kernel.whole        = whole;
  const auto* flag    = static_cast<const std::int32_t*>(dlsym(library, LEGATE_FUSE_SPLIT_SYMBOL));
  kernel.split        = flag == nullptr ? 0U : static_cast<std::uint32_t>(*flag);
  const bool partials = (kernel.split & LEGATE_FUSE_SPLIT_PARTIALS) != 0;
  const bool ordered  = (kernel.split & LEGATE_FUSE_SPLIT_ORDERED) != 0;
  const bool resumes  = (kernel.split & LEGATE_FUSE_SPLIT_RESUMES) != 0;
  if (!partials && !ordered && !resumes) {
    return kernel;
  }
  kernel.combine =
      reinterpret_cast<legate_fuse_combine_fn>(dlsym(library, LEGATE_FUSE_COMBINE_SYMBOL));
  const auto* count =
      static_cast<const std::int32_t*>(dlsym(library, LEGATE_FUSE_PARTIAL_COUNT_SYMBOL));
  kernel.partial_count = count == nullptr ? 0 : *count;
  bool complete        = kernel.combine != nullptr && kernel.partial_count > 0;
  if (partials) {
    kernel.part = reinterpret_cast<legate_fuse_part_fn>(dlsym(library, LEGATE_FUSE_PART_SYMBOL));
    complete    = complete && kernel.part != nullptr;
  }
  if (ordered) {
    kernel.stage = reinterpret_cast<legate_fuse_stage_fn>(dlsym(library, LEGATE_FUSE_STAGE_SYMBOL));
    kernel.fold  = reinterpret_cast<legate_fuse_fold_fn>(dlsym(library, LEGATE_FUSE_FOLD_SYMBOL));
    kernel.start = reinterpret_cast<legate_fuse_start_fn>(dlsym(library, LEGATE_FUSE_START_SYMBOL));
    complete     = complete && kernel.stage != nullptr && kernel.fold != nullptr &&
                   kernel.start != nullptr && !partials;
  }
  if (resumes) {
    kernel.resume =
        reinterpret_cast<legate_fuse_part_fn>(dlsym(library, LEGATE_FUSE_RESUME_SYMBOL));
    kernel.start = reinterpret_cast<legate_fuse_start_fn>(dlsym(library, LEGATE_FUSE_START_SYMBOL));
    complete     = complete && kernel.resume != nullptr && kernel.start != nullptr && !partials &&
                   !ordered && (kernel.split & LEGATE_FUSE_SPLIT_ROWS) == 0;
  }
  if (!complete) {
    kernel.split = 0;
  }
  return kernel;
}

}  // namespace

KernelRegistry& KernelRegistry::instance()
{
  static KernelRegistry registry;
  return registry;
}

void KernelRegistry::add_cpu(const std::string& id, const std::string& path,
                             const std::string& symbol)
{
  const std::lock_guard<std::mutex> guard{mutex_};
  void*& library = libraries_[path];
  if (library == nullptr) {
    library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      libraries_.erase(path);
      throw std::runtime_error("legate-fuse: cannot load kernel library " + path + ": " +
                               dlerror());
    }
  }
  void* address = dlsym(library, symbol.c_str());
  if (address == nullptr) {
    throw std::runtime_error("legate-fuse: kernel " + symbol + " not found in " + path);
  }
  cpu_[id] = describe(library, reinterpret_cast<legate_fuse_kernel_fn>(address));
}

void KernelRegistry::add_ptx(const std::string& id, const std::string& path,
                             const std::string& symbol)
{
  const std::lock_guard<std::mutex> guard{mutex_};
  ptx_[id] = {path, symbol};
}

CpuKernel KernelRegistry::cpu(const std::string& id)
{
  const std::lock_guard<std::mutex> guard{mutex_};
  if (auto hit = cpu_.find(id); hit != cpu_.end()) {
    return hit->second;
  }
  throw std::runtime_error("legate-fuse: no CPU kernel is registered as " + id +
                           " in this process");
}

std::pair<std::string, std::string> KernelRegistry::ptx(const std::string& id)
{
  const std::lock_guard<std::mutex> guard{mutex_};
  if (auto hit = ptx_.find(id); hit != ptx_.end()) {
    return hit->second;
  }
  throw std::runtime_error("legate-fuse: no GPU kernel is registered as " + id +
                           " in this process");
}

}  // namespace legate_fuse
