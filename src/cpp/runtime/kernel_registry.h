#pragma once

#include <mutex>
#include <string>
#include <unordered_map>

#include "runtime/kernel_abi.h"

namespace legate_fuse {

// Process-wide table of compiled kernels. Each shared object is opened once (dlopen is
// ~0.2 ms); later lookups are a hash-map hit. Thread-safe: point tasks run concurrently.
class KernelRegistry {
 public:
  static KernelRegistry& instance();

  // Returns the kernel `symbol` of the shared object at `path`; throws std::runtime_error with
  // the loader's message if either cannot be found.
  legate_fuse_kernel lookup(const std::string& path, const std::string& symbol);

  KernelRegistry(const KernelRegistry&)            = delete;
  KernelRegistry& operator=(const KernelRegistry&) = delete;

 private:
  KernelRegistry() = default;

  std::mutex mutex_;
  std::unordered_map<std::string, void*> libraries_;
  std::unordered_map<std::string, legate_fuse_kernel> kernels_;
};

}  // namespace legate_fuse
