#include "codegen/vector_float32.h"

#include "codegen/vector_checks.h"

namespace legate_fuse::codegen {
namespace {

// glibc's __expf_fma, operation for operation as its compiled code performs them. lf_expf_data
// is the C library's struct: 32 words of 2^(i/32) (minus i << 47), then the constants the
// algorithm reads: 1/ln2 scaled by 32 at 36, the scaled polynomial at 37..39, the rounding
// shift 0x1.8p52 at 40.
const char* const kExpfHelpers = R"(
#define LF_EXPF_D(i) lf_double(lf_expf_data[i])
/* 1 when x is off the table path: |x| >= 0x1p+7 or so (overflow, underflow), inf, NaN. */
LF_INLINE int lf_expf_special(float x)
{
  return ((lf_fbits(x) >> 20) & 0x7ffu) > 0x42au;
}
/* expf(x) on the table path, exactly as the C library computes it. */
LF_INLINE float lf_expf_common(float x)
{
  const double xd = (double)x;
  const double shifted = fma(LF_EXPF_D(36), xd, LF_EXPF_D(40));
  const uint64_t ki = lf_bits(shifted);
  const double kd = shifted - LF_EXPF_D(40);
  const double r = fma(LF_EXPF_D(36), xd, -kd);
  const double s = lf_double(lf_expf_data[ki % 32] + (ki << 47));
  const double z = fma(LF_EXPF_D(37), r, LF_EXPF_D(38));
  const double r2 = r * r;
  const double y = fma(LF_EXPF_D(39), r, 1.0);
  return (float)(fma(z, r2, y) * s);
}
)";

// glibc's __logf_fma. lf_logf_data is the C library's struct: 16 pairs (1/c, log(c)), then
// ln 2 at 32 and the polynomial at 33..35. The library's case of its own for logf(1) (+0 in
// every rounding mode) needs none here: in the default rounding the polynomial gives +0 too.
// The table index is 64 bits wide: a 32-bit one stops GCC from vectorising the loop.
const char* const kLogfHelpers = R"(
#define LF_LOGF_D(i) lf_double(lf_logf_data[i])
/* 1 when x is off the table path: zero, subnormal, negative, infinite or NaN. */
LF_INLINE int lf_logf_special(float x)
{
  return lf_fbits(x) - 0x00800000u > 0x7effffffu;
}
/* logf(x) off the special inputs, exactly as the C library computes it. */
LF_INLINE float lf_logf_common(float x)
{
  const uint32_t ix = lf_fbits(x);
  const uint32_t tmp = ix - 0x3f330000u;
  const uint64_t i = (uint64_t)((tmp >> 19) & 15u);
  const int32_t k = (int32_t)tmp >> 23;
  const double z = (double)lf_float(ix - (tmp & 0xff800000u));
  const double y0 = fma((double)k, LF_LOGF_D(32), LF_LOGF_D(2 * i + 1));
  const double r = fma(z, LF_LOGF_D(2 * i), -1.0);
  double y = fma(r, LF_LOGF_D(34), LF_LOGF_D(35));
  const double r2 = r * r;
  y = fma(r2, LF_LOGF_D(33), y);
  return (float)fma(r2, y, r + y0);
}
)";

// The algorithms' edges: overflow and underflow bounds, 1 and its neighbours, the extremes.
const char* const kFloat32Edges =
    "1.0f, -1.0f, 0.0f, -0.0f, 0x1p-126f, 0x1p-149f, 88.0f, -88.0f, 87.9f, -103.9f, "
    "0x1.fffffep127f, 0x1.62e43p+6f, 0x1.fffffep-1f, 0x1.000002p0f";

}  // namespace

std::string vector_expf_helpers() { return kExpfHelpers; }

std::string vector_expf_check_main() { return float32_check_main("expf", kFloat32Edges); }

std::string vector_logf_helpers() { return kLogfHelpers; }

std::string vector_logf_check_main() { return float32_check_main("logf", kFloat32Edges); }

}  // namespace legate_fuse::codegen
