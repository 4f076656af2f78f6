#pragma once

// float16 in the C kernels, as cuPyNumeric's CPU kernels compute it with CUDA's `__half` on the
// host: every operation in single precision on the operands widened to float (exactly, but any
// NaN becomes the positive NaN 0x7FFFFFFF), its result rounded to the nearest half (ties to
// even; a NaN becomes the one NaN 0x7FFF); conversions into float16 through double, rounded
// once; selections (copies, where, maximum...) keep the bits they select. Kernel values of
// float16 are `float` (NaN payloads kept); arrays hold the 16-bit patterns.

#include <string>

namespace legate_fuse::codegen {

bool is_half(const std::string& dtype);

// The C type of a float16 element in memory.
inline constexpr const char* HALF_STORAGE_TYPE = "uint16_t";

// The value of a memory element `lvalue` of `dtype` (float16: widened to float, exactly).
std::string loaded(const std::string& dtype, const std::string& lvalue);

// What to write into a memory element of `dtype` for the kernel value `value` (float16: its
// bit pattern; kernel values of float16 are always exactly representable, NaN payloads kept).
std::string to_storage(const std::string& dtype, const std::string& value);

// The value `__half` widens a float16 kernel value to: the same, but every NaN is the positive
// NaN 0x7FFFFFFF (the kernel value of a NaN keeps its bits, for the operations that select).
std::string half_value(const std::string& value);

// `value` (a float expression) rounded to float16 as `__half`'s conversion rounds, as a float.
std::string half_rounded(const std::string& value);

// `value` (a double expression) rounded once to float16, as a float.
std::string half_rounded_from_double(const std::string& value);

// The C functions the expressions above call, each declared with `qualifier`.
std::string half_helpers(const std::string& qualifier);

}  // namespace legate_fuse::codegen
