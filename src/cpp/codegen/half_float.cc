#include "codegen/half_float.h"

#include "codegen/element_body.h"

namespace legate_fuse::codegen {
namespace {

// The conversions, written for the C renderer (memcpy for the bit patterns). Rounding to the
// nearest half, ties to even: the bits below the half's last place decide. Values of at least
// 65520 round to infinity; at most 2^-25 (half the smallest subnormal) to zero. Where the
// compiler has _Float16, a result is rounded by it (to nearest even too, by the F16C
// instruction where the machine has one: 1.6x faster on a float16 chain), a NaN apart;
// LF_SOFT_HALF (defined by a test) keeps the bit arithmetic.
const char* const kHelpers = R"(float lf_half_to_float(uint16_t h)
{
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  uint32_t bits;
  if (exponent == 0x1fu) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
  } else {
    const float subnormal = (float)mantissa * 0x1p-24f;
    return sign ? -subnormal : subnormal;
  }
  float f;
  memcpy(&f, &bits, sizeof(f));
  return f;
}
uint16_t lf_float_to_half_rn(float f)
{
  uint32_t x;
  memcpy(&x, &f, sizeof(x));
  const uint32_t sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
  if (ax > 0x7f800000u) return 0x7fffu;
  if (ax >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);
  if (ax >= 0x38800000u) {
    uint32_t h = ((ax >> 23) - 112u) << 10 | ((ax & 0x7fffffu) >> 13);
    const uint32_t rest = ax & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) h += 1;
    return (uint16_t)(sign | h);
  }
  if (ax <= 0x33000000u) return (uint16_t)sign;
  const uint32_t significand = (ax & 0x7fffffu) | 0x800000u, shift = 126u - (ax >> 23);
  uint32_t h = significand >> shift;
  const uint32_t rest = significand & ((1u << shift) - 1u), halfway = 1u << (shift - 1u);
  if (rest > halfway || (rest == halfway && (h & 1u))) h += 1;
  return (uint16_t)(sign | h);
}
uint16_t lf_double_to_half_rn(double d)
{
  uint64_t x;
  memcpy(&x, &d, sizeof(x));
  const uint32_t sign = (uint32_t)(x >> 48) & 0x8000u;
  const uint64_t ax = x & 0x7fffffffffffffffULL;
  if (ax > 0x7ff0000000000000ULL) return 0x7fffu;
  if (ax >= 0x40effe0000000000ULL) return (uint16_t)(sign | 0x7c00u);
  if (ax >= 0x3f10000000000000ULL) {
    uint32_t h = ((uint32_t)(ax >> 52) - 1008u) << 10 | (uint32_t)((ax >> 42) & 0x3ffu);
    const uint64_t rest = ax & ((1ULL << 42) - 1), halfway = 1ULL << 41;
    if (rest > halfway || (rest == halfway && (h & 1u))) h += 1;
    return (uint16_t)(sign | h);
  }
  if (ax <= 0x3e60000000000000ULL) return (uint16_t)sign;
  const uint64_t significand = (ax & 0xfffffffffffffULL) | (1ULL << 52);
  const uint32_t shift = 1051u - (uint32_t)(ax >> 52);
  uint64_t h = significand >> shift;
  const uint64_t rest = significand & ((1ULL << shift) - 1), halfway = 1ULL << (shift - 1u);
  if (rest > halfway || (rest == halfway && (h & 1u))) h += 1;
  return (uint16_t)(sign | (uint32_t)h);
}
uint16_t lf_half_bits(float f)
{
  uint32_t x;
  memcpy(&x, &f, sizeof(x));
  if ((x & 0x7fffffffu) > 0x7f800000u) {
    const uint32_t payload = (x & 0x7fffffu) >> 13;
    return (uint16_t)(((x >> 16) & 0x8000u) | 0x7c00u | (payload ? payload : 0x200u));
  }
  return lf_float_to_half_rn(f);
}
float lf_half_value(float f)
{
  if (f == f) return f;
  const uint32_t bits = 0x7fffffffu;
  memcpy(&f, &bits, sizeof(f));
  return f;
}
#if defined(__FLT16_MAX__) && !defined(LF_SOFT_HALF)
float lf_half_round(float f)
{
  if (f != f) return lf_half_to_float(0x7fffu);
  return (float)(_Float16)f;
}
#else
float lf_half_round(float f) { return lf_half_to_float(lf_float_to_half_rn(f)); }
#endif
float lf_half_round_double(double d) { return lf_half_to_float(lf_double_to_half_rn(d)); }
)";

}  // namespace

bool is_half(const std::string& dtype) { return dtype == "float16"; }

std::string loaded(const std::string& dtype, const std::string& lvalue)
{
  return is_half(dtype) ? "lf_half_to_float(" + lvalue + ")" : lvalue;
}

std::string to_storage(const std::string& dtype, const std::string& value)
{
  return is_half(dtype) ? "lf_half_bits(" + value + ")" : value;
}

std::string half_value(const std::string& value) { return "lf_half_value(" + value + ")"; }

std::string half_rounded(const std::string& value) { return "lf_half_round(" + value + ")"; }

std::string half_rounded_from_double(const std::string& value)
{
  return "lf_half_round_double(" + value + ")";
}

std::string half_helpers(const std::string& qualifier)
{
  return declared_with(kHelpers, qualifier);
}

}  // namespace legate_fuse::codegen
