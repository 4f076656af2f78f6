#pragma once

#include <string>

namespace legate_fuse::codegen {

// The vector forms of float64 sin and cos (see c_vector_math.h): glibc's (IBM's Accurate
// Mathematical Library, in the build for CPUs with FMA), which reduce the argument by pi/2 in
// up to four parts and combine a short polynomial with a table of sin and cos of i/128, each in
// two parts. The table is the C library's own (`lf_sin_data`, `lf_cos_data`, read from its
// file by legate_fuse/backend/libm_tables.py and defined in front of the source). The helpers
// lf_sin_common, lf_sin_special, lf_cos_common and lf_cos_special, and the main functions of
// the programs that check them.
[[nodiscard]] std::string vector_sincos_core();
[[nodiscard]] std::string vector_sin_helpers();
[[nodiscard]] std::string vector_cos_helpers();
[[nodiscard]] std::string vector_sin_check_main();
[[nodiscard]] std::string vector_cos_check_main();

}  // namespace legate_fuse::codegen
