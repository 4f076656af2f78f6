#pragma once

#include <string>

namespace legate_fuse::codegen {

// The vector form of float64 log (see c_vector_math.h): the helpers lf_log_vector and
// lf_log_special, which read the C library's table `lf_log_data` (defined in front of the
// source), and the main function of the program that checks them.
[[nodiscard]] std::string vector_log_helpers();
[[nodiscard]] std::string vector_log_check_main();

}  // namespace legate_fuse::codegen
