#pragma once

#include <string>

namespace legate_fuse::codegen {

// The vector form of float64 exp (see c_vector_math.h): the helpers lf_exp_common and
// lf_exp_special with their table, and the main function of the program that checks them.
[[nodiscard]] std::string vector_exp_helpers();
[[nodiscard]] std::string vector_exp_check_main();

}  // namespace legate_fuse::codegen
