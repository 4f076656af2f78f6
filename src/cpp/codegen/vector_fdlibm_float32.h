#pragma once

#include <string>

namespace legate_fuse::codegen {

// The vector forms of float32 expm1, tanh and log1p (see c_vector_math.h): glibc's expm1f,
// tanhf and log1pf, fdlibm's float algorithms, built without FMA (no operation fused). The
// helpers lf_<function>_common and lf_<function>_special (tanhf's call expm1f's), and the main
// functions of the programs that check them on every 61st float.
[[nodiscard]] std::string vector_expm1f_helpers();
[[nodiscard]] std::string vector_expm1f_check_main();
[[nodiscard]] std::string vector_tanhf_helpers();
[[nodiscard]] std::string vector_tanhf_check_main();
[[nodiscard]] std::string vector_log1pf_helpers();
[[nodiscard]] std::string vector_log1pf_check_main();

}  // namespace legate_fuse::codegen
