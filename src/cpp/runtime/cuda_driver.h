#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

// The driver's opaque handle types, declared as cuda.h declares them (global scope).
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUctx_st;

namespace legate_fuse {

// The CUDA driver entry points the FUSED task's GPU variant needs, loaded from libcuda.so.1 at
// first use (the module never links the driver; on a host without one it is never loaded).
class CudaDriver {
 public:
  using CUresult   = int;
  using CUmodule   = ::CUmod_st*;
  using CUfunction = ::CUfunc_st*;
  using CUstream   = ::CUstream_st*;
  using CUcontext  = ::CUctx_st*;

  static CudaDriver& instance();

  // Compute capability of the current device as major * 10 + minor (0 without a device).
  int device_arch();

  // The kernel `symbol` of the PTX module in file `ptx_path`, loaded once per context.
  CUfunction function(const std::string& ptx_path, const std::string& symbol);

  // Launches `function` on `stream` with one by-value parameter of `size` bytes at `params`.
  void launch(CUfunction function, std::int64_t blocks, int threads, CUstream stream, void* params,
              std::size_t size);

 private:
  CudaDriver();
  void check(CUresult result, const char* what) const;

  void* handle_{};
  CUresult (*init_)(unsigned int){};
  CUresult (*ctx_get_current_)(CUcontext*){};
  CUresult (*ctx_get_device_)(int*){};
  CUresult (*device_get_attribute_)(int*, int, int){};
  CUresult (*module_load_data_)(CUmodule*, const void*){};
  CUresult (*module_get_function_)(CUfunction*, CUmodule, const char*){};
  CUresult (*launch_kernel_)(CUfunction, unsigned int, unsigned int, unsigned int, unsigned int,
                             unsigned int, unsigned int, unsigned int, CUstream, void**, void**){};
  CUresult (*get_error_string_)(CUresult, const char**){};
};

}  // namespace legate_fuse
