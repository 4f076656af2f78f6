#pragma once

#include <string>

namespace legate_fuse::codegen {

// The vector form of float64 log1p (see c_vector_math.h): glibc's log1p (the fdlibm algorithm,
// in the build for CPUs with FMA). The helpers lf_log1p_common and lf_log1p_special, and the
// main function of the program that checks them.
[[nodiscard]] std::string vector_log1p_helpers();
[[nodiscard]] std::string vector_log1p_check_main();

}  // namespace legate_fuse::codegen
