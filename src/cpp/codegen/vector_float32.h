#pragma once

#include <string>

namespace legate_fuse::codegen {

// The vector forms of float32 exp and log (see c_vector_math.h): glibc's expf and logf, which
// compute in double precision from small tables. Their helpers read the C library's own data,
// `lf_expf_data` and `lf_logf_data` (defined in front of the source); the main functions of the
// programs that check them try every 61st float.
[[nodiscard]] std::string vector_expf_helpers();
[[nodiscard]] std::string vector_expf_check_main();
[[nodiscard]] std::string vector_logf_helpers();
[[nodiscard]] std::string vector_logf_check_main();

}  // namespace legate_fuse::codegen
