#include "runtime/cuda_driver.h"

#include <dlfcn.h>

#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace legate_fuse {
namespace {

constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
void* const CU_LAUNCH_PARAM_BUFFER_POINTER                 = reinterpret_cast<void*>(0x01);
void* const CU_LAUNCH_PARAM_BUFFER_SIZE                    = reinterpret_cast<void*>(0x02);
void* const CU_LAUNCH_PARAM_END                            = reinterpret_cast<void*>(0x00);

template <typename F>
void bind(void* handle, const char* name, F& target)
{
  void* symbol = dlsym(handle, name);
  if (symbol == nullptr) {
    throw std::runtime_error(std::string{"legate-fuse: the CUDA driver has no "} + name);
  }
  target = reinterpret_cast<F>(symbol);
}

std::mutex& modules_mutex()
{
  static std::mutex mutex;
  return mutex;
}

}  // namespace

CudaDriver& CudaDriver::instance()
{
  static CudaDriver driver;
  return driver;
}

CudaDriver::CudaDriver()
{
  handle_ = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    throw std::runtime_error(std::string{"legate-fuse: cannot load the CUDA driver: "} + dlerror());
  }
  bind(handle_, "cuInit", init_);
  bind(handle_, "cuCtxGetCurrent", ctx_get_current_);
  bind(handle_, "cuCtxGetDevice", ctx_get_device_);
  bind(handle_, "cuDeviceGetAttribute", device_get_attribute_);
  bind(handle_, "cuModuleLoadData", module_load_data_);
  bind(handle_, "cuModuleGetFunction", module_get_function_);
  bind(handle_, "cuLaunchKernel", launch_kernel_);
  bind(handle_, "cuGetErrorString", get_error_string_);
}

void CudaDriver::check(CUresult result, const char* what) const
{
  if (result != 0) {
    const char* text = "unknown error";
    get_error_string_(result, &text);
    throw std::runtime_error(std::string{"legate-fuse: "} + what + ": " + text);
  }
}

int CudaDriver::device_arch()
{
  if (init_(0) != 0) {
    return 0;
  }
  int device = 0;
  if (ctx_get_device_(&device) != 0) {
    return 0;
  }
  int major = 0, minor = 0;
  check(device_get_attribute_(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device),
        "cuDeviceGetAttribute");
  check(device_get_attribute_(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device),
        "cuDeviceGetAttribute");
  return major * 10 + minor;
}

CudaDriver::CUfunction CudaDriver::function(const std::string& ptx_path, const std::string& symbol)
{
  CUcontext context{};
  check(ctx_get_current_(&context), "cuCtxGetCurrent");
  static std::map<std::pair<CUcontext, std::string>, CUfunction> functions;
  const std::lock_guard<std::mutex> guard{modules_mutex()};
  const auto key = std::make_pair(context, ptx_path + '\n' + symbol);
  if (auto hit = functions.find(key); hit != functions.end()) {
    return hit->second;
  }
  std::ifstream file{ptx_path};
  if (!file) {
    throw std::runtime_error("legate-fuse: cannot read kernel " + ptx_path);
  }
  std::stringstream text;
  text << file.rdbuf();
  const std::string ptx = text.str();
  CUmodule module{};
  check(module_load_data_(&module, ptx.c_str()), "cuModuleLoadData");
  CUfunction function{};
  check(module_get_function_(&function, module, symbol.c_str()), "cuModuleGetFunction");
  functions.emplace(key, function);
  return function;
}

void CudaDriver::launch(CUfunction function, std::int64_t blocks, int threads, CUstream stream,
                        void* params, std::size_t size)
{
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, params, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                   CU_LAUNCH_PARAM_END};
  check(launch_kernel_(function, static_cast<unsigned int>(blocks), 1, 1,
                       static_cast<unsigned int>(threads), 1, 1, 0, stream, nullptr, extra),
        "cuLaunchKernel");
}

}  // namespace legate_fuse
