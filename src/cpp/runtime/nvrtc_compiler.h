#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace legate_fuse {

class NvrtcError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// CUDA C++ to PTX with NVRTC, loaded at run time from `library` (e.g. the versioned
// libnvrtc.so.13 of NVIDIA's wheels), so that nothing links against CUDA. Works without a GPU
// or a driver. Throws NvrtcError with NVRTC's log when the library cannot be loaded or the
// source does not compile.
std::string nvrtc_compile_ptx(const std::string& library, const std::string& source,
                              const std::string& name, const std::vector<std::string>& options);

// NVRTC's version as "major.minor"; throws NvrtcError if the library cannot be loaded.
std::string nvrtc_version(const std::string& library);

}  // namespace legate_fuse
