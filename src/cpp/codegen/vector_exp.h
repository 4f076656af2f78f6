#pragma once

#include <string>

namespace legate_fuse::codegen {

// The vector form of float64 exp (see c_vector_math.h): the helpers lf_exp_common and
// lf_exp_special with their table, and the main function of the program that checks them.
[[nodiscard]] std::string vector_exp_helpers();
// exp's table of 2^(i/128) (lf_exp_table), which pow's form reads too.
[[nodiscard]] std::string vector_exp_table();
[[nodiscard]] std::string vector_exp_check_main();

}  // namespace legate_fuse::codegen
