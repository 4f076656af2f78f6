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

// The vector forms of float32 sin and cos: glibc's sinf and cosf (from the Arm Optimized
// Routines, built with FMA), which compute in double precision: below pi/4 a polynomial of x,
// up to 120 a reduction by pi/2 in one multiply-add and the sine or cosine polynomial by the
// quadrant. Their coefficients are part of this source. The helpers lf_sinf_common,
// lf_sinf_special, lf_cosf_common and lf_cosf_special, and the main functions of the programs
// that check them on every 61st float.
[[nodiscard]] std::string vector_sincosf_core();
[[nodiscard]] std::string vector_sinf_helpers();
[[nodiscard]] std::string vector_cosf_helpers();
[[nodiscard]] std::string vector_sinf_check_main();
[[nodiscard]] std::string vector_cosf_check_main();

}  // namespace legate_fuse::codegen
