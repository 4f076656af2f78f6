#include "codegen/vector_sincos.h"

#include "codegen/vector_checks.h"

namespace legate_fuse::codegen {
namespace {

// glibc's __sin_fma and __cos_fma: below 0.855469 sin is do_sin(x) (a Taylor polynomial below
// 0.126, else the table entry nearest |x| and polynomials of the rest), cos do_cos(x); up to
// 2.426265 each is the other of pi/2 - |x| (given as a head and a tail); up to 105414350 both
// reduce x by pi/2 (quadrant n, head a and tail da) and take do_sin or do_cos of (a, da) by
// n, negated by n. The library's compiler fuses a product with the addition that uses it
// when both are in one basic block; which ones it fused was read from its machine code. A
// lane chooses its argument and quadrant first, then evaluates do_sin and do_cos once each and
// keeps one: every table load is made for every lane (a load on one path only would stop GCC
// from vectorising the loop), its index clamped to the table.
const char* const kCore = R"(
#define LF_SC_BIG 0x1.8p45
LF_INLINE double lf_sc_copysign(double magnitude, double sign)
{
  return lf_double((lf_bits(magnitude) & ~(1ULL << 63)) | (lf_bits(sign) & (1ULL << 63)));
}
/* The table entry of |a| (round(|a| * 128), at most 109): sin head, sin tail, cos head and
   tail, and |a| minus the entry's point. */
LF_INLINE uint64_t lf_sc_entry(double magnitude, double* rest)
{
  const double u = LF_SC_BIG + magnitude;
  *rest = magnitude - (u - LF_SC_BIG);
  const uint64_t index = lf_bits(u) & 0xffffffffULL;
  return 4 * (index < 109 ? index : 109);
}
LF_INLINE double lf_sc_do_sin(const uint64_t* table, double a, double da)
{
  const double xx0 = a * a;
  const double p = fma(fma(fma(fma(-0x1.addffc2fcdf59p-26, xx0, 0x1.71de27b9a7ed9p-19), xx0,
                               -0x1.a01a019db08b8p-13), xx0, 0x1.1111111110ecep-7), xx0,
                       -0x1.5555555555555p-3);
  const double taylor = a + fma(xx0, fma(p, a, -(0.5 * da)), da);
  const double dx = LF_SELECT(LF_MASK(a <= 0.0), -da, da);
  double x;
  const uint64_t k = lf_sc_entry(fabs(a), &x);
  const double xx = x * x;
  const double s = x + fma(x * xx, fma(xx, 0x1.11110e829872fp-7, -0x1.5555555555515p-3), dx);
  const double c =
    fma(x, dx, xx * fma(xx, fma(xx, 0x1.6c16bedd9e239p-10, -0x1.5555555555535p-5), 0.5));
  const double sn = lf_double(table[k]), ssn = lf_double(table[k + 1]);
  const double cs = lf_double(table[k + 2]), ccs = lf_double(table[k + 3]);
  const double cor = fma(s, cs, fma(-c, sn, fma(s, ccs, ssn)));
  return LF_SELECT(LF_MASK(fabs(a) < 0.126), taylor, lf_sc_copysign(sn + cor, a));
}
LF_INLINE double lf_sc_do_cos(const uint64_t* table, double a, double da)
{
  const double dx = LF_SELECT(LF_MASK(a < 0.0), -da, da);
  double rest;
  const uint64_t k = lf_sc_entry(fabs(a), &rest);
  const double x = rest + dx;
  const double xx = x * x;
  const double s = fma(x * xx, fma(xx, 0x1.11110e829872fp-7, -0x1.5555555555515p-3), x);
  const double c = xx * fma(xx, fma(xx, 0x1.6c16bedd9e239p-10, -0x1.5555555555535p-5), 0.5);
  const double sn = lf_double(table[k]), ssn = lf_double(table[k + 1]);
  const double cs = lf_double(table[k + 2]), ccs = lf_double(table[k + 3]);
  const double cor = fma(-s, sn, fma(-c, cs, fma(-s, ssn, ccs)));
  return cs + cor;
}
/* x = n pi/2 + a + da, n mod 4 returned */
LF_INLINE uint64_t lf_sc_reduce(double x, double* a, double* da)
{
  const double t = fma(x, 0x1.45f306dc9c883p-1, 0x1.8p52);
  const double xn = t - 0x1.8p52;
  const double y = fma(-xn, -0x1.dde973cp-27, fma(-xn, 0x1.921fb58p0, x));
  const double t2 = fma(-xn, -0x1.cb3b398p-55, y);
  const double db = fma(-xn, -0x1.cb3b398p-55, y - t2);
  const double b = fma(-xn, -0x1.d747f23e32ed7p-83, t2);
  *a = b;
  *da = db + fma(-xn, -0x1.d747f23e32ed7p-83, t2 - b);
  return lf_bits(t) & 3;
}
LF_INLINE double lf_sc_common(const uint64_t* table, double x, int cosine)
{
  const uint32_t top = (uint32_t)(lf_bits(x) >> 32) & 0x7fffffffu;
  double a, da;
  const uint64_t n = lf_sc_reduce(x, &a, &da) + (uint64_t)cosine;
  const uint64_t direct = LF_MASK(top < 0x3feb6000u);
  const uint64_t near = LF_MASK(top < 0x400368fdu) & ~direct;
  /* pi/2 - |x| as a head and a tail: sin's given to do_cos as (head, tail), cos's summed. */
  const double head = 0x1.921fb54442d18p0 - fabs(x);
  const double summed = head + 0x1.1a62633145c07p-54;
  const double near_arg = cosine ? summed : head;
  const double near_tail =
    cosine ? (head - summed) + 0x1.1a62633145c07p-54 : 0x1.1a62633145c07p-54;
  const double arg = LF_SELECT(direct, x, LF_SELECT(near, near_arg, a));
  const double tail = LF_SELECT(direct, 0.0, LF_SELECT(near, near_tail, da));
  const uint64_t same = cosine ? direct : 0, other = cosine ? 0 : near;
  const uint64_t use_cos = same | other | (LF_MASK(n & 1) & ~direct & ~near);
  const double r = LF_SELECT(use_cos, lf_sc_do_cos(table, arg, tail),
                                lf_sc_do_sin(table, arg, tail));
  const double signed_r = cosine ? r : LF_SELECT(near, lf_sc_copysign(r, x), r);
  return LF_SELECT(LF_MASK(n & 2) & ~direct & ~near, -signed_r, signed_r);
}
)";

const char* const kSin = R"(
/* 1 when x is off the common path: |x| < 2^-26, |x| >= 105414350, NaN, inf. */
LF_INLINE int lf_sin_special(double x)
{
  const uint32_t top = (uint32_t)(lf_bits(x) >> 32) & 0x7fffffffu;
  return top < 0x3e500000u || top >= 0x419921fbu;
}
LF_INLINE double lf_sin_common(double x) { return lf_sc_common(lf_sin_data, x, 0); }
)";

const char* const kCos = R"(
/* 1 when x is off the common path: |x| < 2^-27, |x| >= 105414350, NaN, inf. */
LF_INLINE int lf_cos_special(double x)
{
  const uint32_t top = (uint32_t)(lf_bits(x) >> 32) & 0x7fffffffu;
  return top < 0x3e400000u || top >= 0x419921fbu;
}
LF_INLINE double lf_cos_common(double x) { return lf_sc_common(lf_cos_data, x, 1); }
)";

// Every path: below 0.126, to 0.855, to 2.426, a few and many quadrants, up to the bound of
// the reduction, then random bit patterns.
const char* const kInputs =
    "static const double spans[] = {0.25, 1.7, 4.9, 60.0, 2e4, 2.1e8, 1e-6, 0.0};\n"
    "      x[i] = spans[round] != 0.0 ? (u - 0.5) * spans[round] : lf_double(state);";

// sinf and cosf: x = n pi/2 + r (n = x 2/pi, scaled by 2^24 and rounded through an integer, as
// the library does without rounding instructions), then the sine polynomial of r times the
// quadrant's sign, or the cosine polynomial, negated in quadrants 2 and 3 (the library's second
// table: every coefficient negated, which negates the result exactly). The library's compiler
// fused every multiply-add of the polynomials and of the reduction.
const char* const kFloatCore = R"(
/* 1 when y is off the common path: |y| < 2^-12, |y| >= 120, NaN, inf. */
LF_INLINE int lf_scf_special(float y)
{
  const uint32_t top = (lf_fbits(y) >> 20) & 0x7ffu;
  return top < 0x398u || top > 0x42eu;
}
LF_INLINE float lf_scf_common(float y, uint32_t cosine)
{
  const double x = (double)y;
  const uint64_t small = LF_MASK(((lf_fbits(y) >> 20) & 0x7ffu) < 0x3f4u);
  const int32_t n_reduced = ((int32_t)(x * 0x1.45f306dc9c883p+23) + 0x800000) >> 24;
  const double reduced = fma(-(double)n_reduced, 0x1.921fb54442d18p+0, x);
  const double r = LF_SELECT(small, x, reduced);
  const uint32_t n = (uint32_t)n_reduced & ~(uint32_t)small;
  const double x2 = r * r;
  /* the sine polynomial of r times the sign of quadrant n */
  const double xs = LF_SELECT(LF_MASK(((n + 1) & 2) != 0), -r, r);
  const double x3 = xs * x2;
  const double s1 = fma(x2, -0x1.994eb3774cf24p-13, 0x1.1107605230bc4p-7);
  const double x7 = x3 * x2;
  const double sine = fma(s1, x7, fma(x3, -0x1.555545995a603p-3, xs));
  /* the cosine polynomial */
  const double x4 = x2 * x2;
  const double c1 = fma(x2, -0x1.ffffffd0c621cp-2, 1.0);
  const double c2 = fma(x2, 0x1.99343027bf8c3p-16, -0x1.6c087e89a359dp-10);
  const double x6 = x4 * x2;
  const double cosine_value = fma(c2, x6, fma(x4, 0x1.55553e1068f19p-5, c1));
  const double cosine_signed = LF_SELECT(LF_MASK((n & 2) != 0), -cosine_value, cosine_value);
  return (float)LF_SELECT(LF_MASK(((n + cosine) & 1) != 0), cosine_signed, sine);
}
)";

const char* const kSinf = R"(
LF_INLINE int lf_sinf_special(float x) { return lf_scf_special(x); }
LF_INLINE float lf_sinf_common(float x) { return lf_scf_common(x, 0); }
)";

const char* const kCosf = R"(
LF_INLINE int lf_cosf_special(float x) { return lf_scf_special(x); }
LF_INLINE float lf_cosf_common(float x) { return lf_scf_common(x, 1); }
)";

}  // namespace

std::string vector_sincosf_core() { return kFloatCore; }

std::string vector_sinf_helpers() { return kSinf; }

std::string vector_cosf_helpers() { return kCosf; }

std::string vector_sinf_check_main()
{
  return float32_check_main("sinf",
                            "0x1p-12f, -0x1p-12f, 0x1.921fb6p-1f, 0x1.921fb4p-1f, "
                            "3.1415927f, 119.99999f, -119.99999f, 1.5707964f");
}

std::string vector_cosf_check_main()
{
  return float32_check_main("cosf",
                            "0x1p-12f, -0x1p-12f, 0x1.921fb6p-1f, 0x1.921fb4p-1f, "
                            "3.1415927f, 119.99999f, -119.99999f, 1.5707964f");
}

std::string vector_sincos_core() { return kCore; }

std::string vector_sin_helpers() { return kSin; }

std::string vector_cos_helpers() { return kCos; }

std::string vector_sin_check_main()
{
  return float64_check_main("sin", 8, kInputs,
                            "0.0, -0.0, 0x1p-26, -0x1p-26, 0.126, -0.126, 0x1.b6p-1, "
                            "0x1.b5fffffffffffp-1, 0x1.368fdp1, 0x1.368fcffffffffp1, "
                            "1.5707963267948966, 3.141592653589793, 105414349.0, 1e300");
}

std::string vector_cos_check_main()
{
  return float64_check_main("cos", 8, kInputs,
                            "0.0, -0.0, 0x1p-27, -0x1p-27, 0.126, -0.126, 0x1.b6p-1, "
                            "0x1.b5fffffffffffp-1, 0x1.368fdp1, 0x1.368fcffffffffp1, "
                            "1.5707963267948966, 3.141592653589793, 105414349.0, 1e300");
}

}  // namespace legate_fuse::codegen
