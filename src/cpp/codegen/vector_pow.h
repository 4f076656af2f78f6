#pragma once

#include <string>

namespace legate_fuse::codegen {

// The vector form of float64 pow (see c_vector_math.h): glibc's (from the Arm Optimized
// Routines, in the build for CPUs with FMA): log(x) to about 68 bits from the C library's own
// table (`lf_pow_data`, defined in front of the source), times y in two parts, then exp of the
// sum from exp's table. The helpers lf_pow_common (NaN where the library's exp leaves its
// common path) and lf_pow_special (of x, y and that value), and the main function of the
// program that checks them.
[[nodiscard]] std::string vector_pow_helpers();
[[nodiscard]] std::string vector_pow_check_main();

}  // namespace legate_fuse::codegen
