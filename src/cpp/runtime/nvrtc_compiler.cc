#include "runtime/nvrtc_compiler.h"

#include <dlfcn.h>

#include <memory>
#include <mutex>
#include <unordered_map>

namespace legate_fuse {
namespace {

// The few NVRTC entry points used, declared here (nvrtc.h's types are an int enum and an
// opaque handle).
using nvrtcResult  = int;
using nvrtcProgram = struct _nvrtcProgram*;

struct Nvrtc {
  const char* (*get_error_string)(nvrtcResult);
  nvrtcResult (*version)(int*, int*);
  nvrtcResult (*create_program)(nvrtcProgram*, const char*, const char*, int, const char* const*,
                                const char* const*);
  nvrtcResult (*compile_program)(nvrtcProgram, int, const char* const*);
  nvrtcResult (*get_log_size)(nvrtcProgram, std::size_t*);
  nvrtcResult (*get_log)(nvrtcProgram, char*);
  nvrtcResult (*get_ptx_size)(nvrtcProgram, std::size_t*);
  nvrtcResult (*get_ptx)(nvrtcProgram, char*);
  nvrtcResult (*destroy_program)(nvrtcProgram*);
};

template <typename F>
void bind(void* handle, const char* name, F& target, const std::string& library)
{
  void* symbol = dlsym(handle, name);
  if (symbol == nullptr) {
    throw NvrtcError("legate-fuse: " + library + " has no " + name);
  }
  target = reinterpret_cast<F>(symbol);
}

const Nvrtc& load(const std::string& library)
{
  static std::mutex mutex;
  static std::unordered_map<std::string, std::unique_ptr<Nvrtc>> loaded;
  const std::lock_guard<std::mutex> guard{mutex};
  if (auto hit = loaded.find(library); hit != loaded.end()) {
    return *hit->second;
  }
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    throw NvrtcError("legate-fuse: cannot load NVRTC (" + library + "): " + dlerror());
  }
  auto api = std::make_unique<Nvrtc>();
  bind(handle, "nvrtcGetErrorString", api->get_error_string, library);
  bind(handle, "nvrtcVersion", api->version, library);
  bind(handle, "nvrtcCreateProgram", api->create_program, library);
  bind(handle, "nvrtcCompileProgram", api->compile_program, library);
  bind(handle, "nvrtcGetProgramLogSize", api->get_log_size, library);
  bind(handle, "nvrtcGetProgramLog", api->get_log, library);
  bind(handle, "nvrtcGetPTXSize", api->get_ptx_size, library);
  bind(handle, "nvrtcGetPTX", api->get_ptx, library);
  bind(handle, "nvrtcDestroyProgram", api->destroy_program, library);
  return *loaded.emplace(library, std::move(api)).first->second;
}

void check(const Nvrtc& api, nvrtcResult result, const char* what)
{
  if (result != 0) {
    throw NvrtcError(std::string{"legate-fuse: "} + what +
                     " failed: " + api.get_error_string(result));
  }
}

}  // namespace

std::string nvrtc_version(const std::string& library)
{
  const Nvrtc& api = load(library);
  int major = 0, minor = 0;
  check(api, api.version(&major, &minor), "nvrtcVersion");
  return std::to_string(major) + "." + std::to_string(minor);
}

std::string nvrtc_compile_ptx(const std::string& library, const std::string& source,
                              const std::string& name, const std::vector<std::string>& options)
{
  const Nvrtc& api = load(library);
  nvrtcProgram program{};
  check(api, api.create_program(&program, source.c_str(), name.c_str(), 0, nullptr, nullptr),
        "nvrtcCreateProgram");
  std::unique_ptr<nvrtcProgram, void (*)(nvrtcProgram*)> guard{&program, [](nvrtcProgram*) {}};
  std::vector<const char*> raw;
  raw.reserve(options.size());
  for (const auto& option : options) {
    raw.push_back(option.c_str());
  }
  const nvrtcResult compiled =
      api.compile_program(program, static_cast<int>(raw.size()), raw.data());
  std::size_t log_size = 0;
  api.get_log_size(program, &log_size);
  std::string log(log_size, '\0');
  if (log_size > 0) {
    api.get_log(program, log.data());
  }
  if (compiled != 0) {
    api.destroy_program(&program);
    throw NvrtcError("legate-fuse: NVRTC could not compile " + name + " (" +
                     api.get_error_string(compiled) + "):\n" + log);
  }
  std::size_t ptx_size = 0;
  check(api, api.get_ptx_size(program, &ptx_size), "nvrtcGetPTXSize");
  std::string ptx(ptx_size, '\0');
  check(api, api.get_ptx(program, ptx.data()), "nvrtcGetPTX");
  api.destroy_program(&program);
  if (!ptx.empty() && ptx.back() == '\0') {
    ptx.pop_back();
  }
  return ptx;
}

}  // namespace legate_fuse
