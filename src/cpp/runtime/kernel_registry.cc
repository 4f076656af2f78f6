#include "runtime/kernel_registry.h"

#include <dlfcn.h>

#include <stdexcept>

namespace legate_fuse {

KernelRegistry& KernelRegistry::instance()
{
  static KernelRegistry registry;
  return registry;
}

legate_fuse_kernel KernelRegistry::lookup(const std::string& path, const std::string& symbol)
{
  const std::string key = path + '\n' + symbol;
  const std::lock_guard<std::mutex> guard{mutex_};
  if (auto hit = kernels_.find(key); hit != kernels_.end()) {
    return hit->second;
  }
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
  auto kernel = reinterpret_cast<legate_fuse_kernel>(address);
  kernels_.emplace(key, kernel);
  return kernel;
}

}  // namespace legate_fuse
