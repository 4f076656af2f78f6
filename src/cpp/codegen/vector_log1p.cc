#include "codegen/vector_log1p.h"

#include "codegen/vector_checks.h"

namespace legate_fuse::codegen {
namespace {

// log1p(x) as glibc's FMA build of fdlibm's log1p computes it: 1 + x = 2^k (1 + f) with
// sqrt(2)/2 < 1 + f < sqrt(2) (k = 0 and f = x for -0.2929 < x < 0.41422; otherwise from
// u = 1 + x, with a correction c for its rounding, or from x itself from 2^53 on), then
// log(1 + f) = f - (f^2/2 - s (f^2/2 + R(s^2))), s = f / (2 + f), plus k ln2 in two parts and
// c where k is not 0 (k = 0 also where 1 + x rounds just below sqrt(2));
// for |f| < 2^-20 (where the normalised u's top mantissa bits are 0) a shorter formula. The
// library's compiler fuses a multiply with the add or subtract that uses it only within one
// basic block: `s (f^2/2 + R)` is computed before the branch on k and rounded on its own, the
// multiply-adds of R and of k ln2 are fused. A lane computes every path and keeps one by
// masks (the shorter formula for |f| < 2^-20 gives the polynomial's result on every input
// tried, but is kept, as the library computes it). The common path is x > -1 from
// |x| = 2^-29 on, finite; the rest goes to the library.
const char* const kHelpers = R"(
/* 1 when x is off the common path: x <= -1, |x| < 2^-29, NaN, +inf. */
LF_INLINE int lf_log1p_special(double x)
{
  const int32_t top = (int32_t)(lf_bits(x) >> 32);
  const int32_t magnitude = top & 0x7fffffff;
  return (top < 0x3fda827a && (magnitude >= 0x3ff00000 || magnitude < 0x3e200000)) ||
         top >= 0x7ff00000;
}
LF_INLINE double lf_log1p_common(double x)
{
  const double ln2_hi = 0x1.62e42feep-1, ln2_lo = 0x1.a39ef35793c76p-33;
  const int32_t top = (int32_t)(lf_bits(x) >> 32);
  /* -0.2929 < x < 0.41422: f = x, k = 0. */
  const uint64_t direct = LF_MASK(top < 0x3fda827a && (top > 0 || top <= (int32_t)0xbfd2bec3));
  /* From 2^53 on, u = x and no correction. */
  const uint64_t huge = LF_MASK(top >= 0x43400000);
  const double u = LF_SELECT(huge, x, 1.0 + x);
  const int32_t u_top = (int32_t)(lf_bits(u) >> 32);
  const int32_t k_u = (u_top >> 20) - 1023;
  const double rounding = LF_SELECT(LF_MASK(k_u > 0), 1.0 - (u - x), x - (u - 1.0));
  const double c_u = LF_SELECT(huge, 0.0, rounding / u);
  const int32_t mantissa = u_top & 0x000fffff;
  /* Above sqrt(2): u / 2, k + 1. */
  const int32_t halve = -(int32_t)(mantissa >= 0x6a09e);
  const int32_t k_reduced = k_u - halve;
  const uint64_t new_top = (uint64_t)(uint32_t)(mantissa | (0x3ff00000 - (halve & 0x00100000)));
  const double normalised = lf_double((new_top << 32) | (lf_bits(u) & 0xffffffffULL));
  const int32_t tiny_f = ~halve & -(int32_t)(mantissa == 0);
  const double f = LF_SELECT(direct, x, normalised - 1.0);
  const double c = LF_SELECT(direct, 0.0, c_u);
  const double k = (double)(k_reduced & ~(int32_t)direct);
  const double hfsq = 0.5 * f * f;
  /* |f| < 2^-20 (k != 0 there) */
  const double k_lo_c = fma(k, ln2_lo, c);
  const double at_zero = fma(k, ln2_hi, k_lo_c);
  const double near_zero = fma(k, ln2_hi, -((hfsq * fma(-f, 0x1.5555555555555p-1, 1.0) - k_lo_c) - f));
  /* the polynomial in s^2 */
  const double s = f / (2.0 + f);
  const double z = s * s;
  const double z2 = z * z;
  const double p2 = fma(z, 0x1.2492494229359p-2, 0x1.999999997fa04p-2);
  const double z4 = z2 * z2;
  const double p3 = fma(z, 0x1.7466496cb03dep-3, 0x1.c71c51d8e78afp-3);
  const double z6 = z4 * z2;
  const double p4 = fma(z, 0x1.2f112df3e5244p-3, 0x1.39a09d078c69fp-3);
  const double R = fma(z6, p4, fma(z4, p3, fma(z, 0x1.5555555555593p-1, z2 * p2)));
  const double sR = s * (hfsq + R);
  const double k_zero = f - (hfsq - sR);
  const double k_other = fma(k, ln2_hi, -((hfsq - (sR + k_lo_c)) - f));
  const uint64_t small = LF_MASK(tiny_f != 0) & ~direct;
  /* k = 0 (f = x, or 1 + x just below sqrt(2)): the formulas without k ln2 and c. */
  const uint64_t k_is_zero = LF_MASK(k == 0.0);
  const double at_zero_or_k = LF_SELECT(k_is_zero, 0.0, at_zero);
  const double near_zero_or_k =
    LF_SELECT(k_is_zero, f - hfsq * fma(-f, 0x1.5555555555555p-1, 1.0), near_zero);
  return LF_SELECT(
    small, LF_SELECT(LF_MASK(f == 0.0), at_zero_or_k, near_zero_or_k),
    LF_SELECT(k_is_zero, k_zero, k_other));
}
)";

}  // namespace

std::string vector_log1p_helpers() { return kHelpers; }

std::string vector_log1p_check_main()
{
  // Each path: f = x, u = 1 + x below and above sqrt(2) after halving, |f| < 2^-20 (u a
  // power of two times nearly 1), from 2^53 on, near -1, then random bit patterns.
  return float64_check_main(
      "log1p", 8,
      "static const double spans[] = {2.0, 1.0, 100.0, 1e-6, 0.0, 1e-9, 3e15, -1.0};\n"
      "      if (spans[round] > 0.0) x[i] = (u - 0.5) * spans[round] + (round == 2 ? 50.0 : 0.0);\n"
      "      else if (spans[round] < 0.0) x[i] = -1.0 + u * 1e-10;\n"
      "      else x[i] = lf_double(state);\n"
      "      if (round == 3 || round == 6) x[i] = ldexp(1.0 + x[i], (int)(u * 80.0) - 40) - 1.0;",
      "0.0, -0.0, 1.0, -1.0, 0x1p-29, -0x1p-29, 0x1p-30, 0.41422, -0.2929, 0x1.6a09ep-1, "
      "0x1.6a09e667f3bcdp0, 0x1p53, 0x1.fffffffffffffp52, 1e308, -0x1.fffffffffffffp-1, "
      "0x1.0000000000001p0, 3.0, 7.0");
}

}  // namespace legate_fuse::codegen
