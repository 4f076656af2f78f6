#include "codegen/vector_expm1.h"

#include "codegen/vector_checks.h"

namespace legate_fuse::codegen {
namespace {

// expm1(x) = exp(x) - 1 as glibc's __expm1_fma computes it: x = k ln2 + r (+ a correction c
// for the rounding of r), expm1(r) from a rational form whose polynomial is in r^2 / 2, then
// 2^k (expm1(r) + 1) - 1 by one of six formulas chosen by k. Every multiply that the library's
// compiled code fuses with the add or subtract using it is an fma here (GCC fuses a product
// whose every use is an addition); the others are rounded on their own. A vector lane computes
// both reductions and every formula and keeps one, chosen by masks (a branch would stop GCC
// from vectorising the loop; LF_BLEND, not LF_SELECT: see c_vector_math.cc). The common path
// is |x| in [2^-54, 709.78), but not x <= -56 ln2, where the library returns -1; the rest (and
// NaN, infinities) goes to the library's own function.
//
// tanh(x), as glibc's __tanh (built without FMA: no operation is fused) computes it for
// 2^-55 <= |x| < 22: 1 - 2 / (expm1(2|x|) + 2) from |x| = 1 on, -t / (t + 2) with
// t = expm1(-2|x|) below, its sign that of x.
const char* const kExpm1Core = R"(
/* 1 when x is off the common path: |x| < 2^-54, x <= -56 ln2, |x| >= 709.78, NaN, inf. */
LF_INLINE int lf_expm1_special(double x)
{
  const uint64_t u = lf_bits(x);
  const uint32_t top = (uint32_t)(u >> 32) & 0x7fffffffu;
  return top < 0x3c900000u || top >= 0x40862e42u || ((u >> 63) != 0 && top >= 0x4043687au);
}
LF_INLINE double lf_expm1_common(double x)
{
  const double ln2_hi = 0x1.62e42feep-1, ln2_lo = 0x1.a39ef35793c76p-33;
  const uint64_t u = lf_bits(x);
  const uint32_t top = (uint32_t)(u >> 32) & 0x7fffffffu;
  const uint64_t negative = 0 - (u >> 63);
  const uint64_t reduced = LF_MASK(top > 0x3fd62e42u);  /* |x| > ln2 / 2 */
  const uint64_t one_step = LF_MASK(top < 0x3ff0a2b2u); /* |x| < 3 ln2 / 2: k = +-1 */
  /* k = +-1: x -+ ln2, as a head and a tail. */
  const double head1 = x - LF_BLEND(negative, -ln2_hi, ln2_hi);
  const double tail1 = LF_BLEND(negative, -ln2_lo, ln2_lo);
  const double r1 = head1 - tail1;
  const double c1 = (head1 - r1) - tail1;
  /* k = x / ln2 rounded half away from zero (truncated after adding +-1/2). */
  const int64_t kn = (int64_t)(int32_t)fma(0x1.71547652b82fep0, x,
                                           LF_BLEND(negative, -0.5, 0.5));
  const double kd = (double)kn;
  const double headn = fma(-kd, ln2_hi, x);
  const double tailn = kd * ln2_lo;
  const double rn = headn - tailn;
  const double cn = (headn - rn) - tailn;
  const uint64_t k1 = 1 | negative; /* 1, or -1 */
  const int64_t k = (int64_t)(((k1 & one_step) | ((uint64_t)kn & ~one_step)) & reduced);
  const double r = LF_BLEND(reduced, LF_BLEND(one_step, r1, rn), x);
  const double c = LF_BLEND(reduced, LF_BLEND(one_step, c1, cn), 0.0);
  /* expm1(r + c), as r - e. */
  const double half_r = 0.5 * r;
  const double hxs = r * half_r;
  const double p1 = fma(hxs, -3.33333333333331316428e-02, 1.0);
  const double h2 = hxs * hxs;
  const double p2 = fma(hxs, -7.93650757867487942473e-05, 1.58730158725481460165e-03);
  const double h4 = h2 * h2;
  const double p3 = fma(hxs, -2.01099218183624371326e-07, 4.00821782732936239552e-06);
  const double rat = fma(h4, p3, fma(h2, p2, p1));
  const double t = fma(-rat, half_r, 3.0);
  const double e0 = hxs * ((rat - t) / fma(-r, t, 6.0));
  const double e = fma(r, e0 - c, -c) - hxs;
  /* The formula for each k. */
  const double k_zero = r - fma(r, e0, -hxs);
  const double k_minus_one = fma(0.5, r - e, -0.5);
  const double k_one = LF_BLEND(LF_MASK(r < -0.25), -2.0 * (e - (r + 0.5)),
                                       fma(2.0, r - e, 1.0));
  const uint64_t exponent = (uint64_t)k << 52; /* adds k to a value's exponent */
  const double k_far = lf_double(lf_bits(1.0 - (e - r)) + exponent) - 1.0;
  const double one_minus = lf_double((uint64_t)(0x3ff00000u - (0x200000u >> (k & 31))) << 32);
  const double k_below_20 = lf_double(lf_bits(one_minus - (e - r)) + exponent);
  const double two_minus = lf_double((uint64_t)((0x3ff - k) & 0x7ff) << 52);
  const double k_from_20 = lf_double(lf_bits((r - (e + two_minus)) + 1.0) + exponent);
  const double large =
    LF_BLEND(LF_MASK(k <= -2 || k > 56), k_far,
                    LF_BLEND(LF_MASK(k < 20), k_below_20, k_from_20));
  return LF_BLEND(
    LF_MASK(k == 0), k_zero,
    LF_BLEND(LF_MASK(k == -1), k_minus_one,
                    LF_BLEND(LF_MASK(k == 1), k_one, large)));
}
)";

const char* const kTanh = R"(
/* 1 when x is off the common path: |x| < 2^-55, |x| >= 22, NaN, inf. */
LF_INLINE int lf_tanh_special(double x)
{
  const uint32_t top = (uint32_t)(lf_bits(x) >> 32) & 0x7fffffffu;
  return top < 0x3c800000u || top >= 0x40360000u;
}
LF_INLINE double lf_tanh_common(double x)
{
  const double magnitude = fabs(x);
  const uint64_t from_one = LF_MASK(magnitude >= 1.0);
  const double t = lf_expm1_common(LF_BLEND(from_one, 2.0 * magnitude, -2.0 * magnitude));
  const double z = LF_BLEND(from_one, 1.0 - 2.0 / (t + 2.0), -t / (t + 2.0));
  return LF_BLEND(0 - (lf_bits(x) >> 63), -z, z);
}
)";

}  // namespace

std::string vector_expm1_helpers() { return kExpm1Core; }

std::string vector_tanh_helpers() { return kTanh; }

std::string vector_expm1_check_main()
{
  // Every reduction and every formula: |x| below ln2 / 2 (k = 0), to 3 ln2 / 2 (k = +-1), k up
  // to 19 and from 20, far negative and far positive, tiny values, then random bit patterns.
  return float64_check_main(
      "expm1", 8,
      "static const double spans[] = {80.0, 2.2, 0.7, 1e-6, 60.0, 1419.0, 1e-15, 0.0};\n"
      "      x[i] = spans[round] != 0.0 ? (u - 0.5) * spans[round] : lf_double(state);",
      "0.0, -0.0, 0x1p-54, -0x1p-54, 0x1.fffffffffffffp-55, 0x1.62e42fefa39efp-2, "
      "-0x1.62e42fefa39efp-2, 0x1.0a2b23f3bab73p0, -0x1.0a2b23f3bab73p0, -0.25, 0.25, "
      "13.5, 13.9, 38.8, -38.8, 38.81624129999178, -38.81624129999178, 709.78, 709.79, "
      "-709.0, 1e308, -1e308");
}

std::string vector_tanh_check_main()
{
  return float64_check_main(
      "tanh", 6,
      "static const double spans[] = {50.0, 4.0, 2.2, 1e-6, 1e-15, 0.0};\n"
      "      x[i] = spans[round] != 0.0 ? (u - 0.5) * spans[round] : lf_double(state);",
      "0.0, -0.0, 1.0, -1.0, 0x1.fffffffffffffp-1, -0x1.fffffffffffffp-1, 0x1p-55, -0x1p-55, "
      "22.0, -22.0, 0x1.5ffffffffffffp4, 19.0, 0.5, 1e308");
}

}  // namespace legate_fuse::codegen
