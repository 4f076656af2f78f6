#include "runtime/kernel_registry.h"

#include <dlfcn.h>

#include <stdexcept>

namespace legate_fuse {

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
  cpu_[id] = reinterpret_cast<legate_fuse_kernel_fn>(address);
}

void KernelRegistry::add_ptx(const std::string& id, const std::string& path,
                             const std::string& symbol)
{
  const std::lock_guard<std::mutex> guard{mutex_};
  ptx_[id] = {path, symbol};
}

legate_fuse_kernel_fn KernelRegistry::cpu(const std::string& id)
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
