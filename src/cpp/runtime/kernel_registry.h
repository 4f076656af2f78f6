#pragma once

#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include "runtime/cpu_kernel.h"
#include "runtime/kernel_abi.h"

namespace legate_fuse {

// Process-wide table of the kernels a FUSED task may run, by kernel id: the content hash of
// the kernel's specification, the same in every process. Each process builds the kernel for its
// own hardware, from its own cache, and registers it under that id before launching a task that
// names it; the task's arguments therefore never carry a path or anything else that differs
// between processes (under control replication every rank must issue identical tasks).
// Thread-safe: point tasks run concurrently.
class KernelRegistry {
 public:
  static KernelRegistry& instance();

  // Loads the CPU kernel `symbol` of the shared object at `path` (dlopen is ~0.2 ms; each
  // object is opened once) and registers it as `id`; throws std::runtime_error with the
  // loader's message if either cannot be found.
  void add_cpu(const std::string& id, const std::string& path, const std::string& symbol);

  // Registers the PTX module at `path` and its kernel `symbol` as `id` (loaded by the GPU
  // variant, once per context).
  void add_ptx(const std::string& id, const std::string& path, const std::string& symbol);

  // The CPU kernel registered as `id`; throws std::runtime_error if there is none.
  CpuKernel cpu(const std::string& id);

  // The PTX file and symbol registered as `id`; throws std::runtime_error if there is none.
  std::pair<std::string, std::string> ptx(const std::string& id);

  KernelRegistry(const KernelRegistry&)            = delete;
  KernelRegistry& operator=(const KernelRegistry&) = delete;

 private:
  KernelRegistry() = default;

  std::mutex mutex_;
  std::unordered_map<std::string, void*> libraries_;  // path -> dlopen handle
  std::unordered_map<std::string, CpuKernel> cpu_;
  std::unordered_map<std::string, std::pair<std::string, std::string>> ptx_;
};

}  // namespace legate_fuse
