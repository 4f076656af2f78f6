#pragma once

#include <string>

namespace legate_fuse::codegen {

// The vector forms of float64 expm1 and tanh (see c_vector_math.h): glibc's expm1 (the fdlibm
// algorithm, in the build for CPUs with FMA) and its tanh (fdlibm, built without FMA, which
// calls that expm1). The helpers lf_expm1_common, lf_expm1_special, lf_tanh_common and
// lf_tanh_special, and the main functions of the programs that check them.
[[nodiscard]] std::string vector_expm1_helpers();
[[nodiscard]] std::string vector_expm1_check_main();
[[nodiscard]] std::string vector_tanh_helpers();
[[nodiscard]] std::string vector_tanh_check_main();

}  // namespace legate_fuse::codegen
