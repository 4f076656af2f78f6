#pragma once

#include <string>

namespace legate_fuse::codegen {

// The main functions of the programs that check vector forms against the C library (see
// c_vector_math.h): each compares `function` with its vector form (lf_<function>_common, or the
// C library's own function where lf_<function>_special says so) bit for bit, prints the first
// differences and exits with 0 when there is none.

// float64: `rounds` rounds of 2,000,000 inputs, each set by `input` (C statements assigning
// x[i], given `round`, a uniform double `u` in [0, 1) and 64 random bits `state`), then the
// values of `specials` (a C initialiser list).
[[nodiscard]] std::string float64_check_main(const std::string& function, int rounds,
                                             const std::string& input, const std::string& specials);

// float64 of two arguments: `rounds` rounds of 2,000,000 pairs, each set by `input` (C
// statements assigning x[i] and y[i], given `round`, uniform doubles `u` and `v` in [0, 1) and
// the 64 random bits `state` of u), then the pairs of `specials` (an initialiser list of
// {x, y}). The form's special test also takes its common value.
[[nodiscard]] std::string float64_binary_check_main(const std::string& function, int rounds,
                                                    const std::string& input,
                                                    const std::string& specials);

// float32: every 61st float, then the values of `specials`.
[[nodiscard]] std::string float32_check_main(const std::string& function,
                                             const std::string& specials);

}  // namespace legate_fuse::codegen
