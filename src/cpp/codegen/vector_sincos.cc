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
#define LF_SC_SELECT(mask, a, b) lf_double((lf_bits(a) & (mask)) | (lf_bits(b) & ~(mask)))
#define LF_SC_MASK(condition) (0 - (uint64_t)(condition))
#define LF_SC_BIG 0x1.8p45
static inline double lf_sc_copysign(double magnitude, double sign)
{
  return lf_double((lf_bits(magnitude) & ~(1ULL << 63)) | (lf_bits(sign) & (1ULL << 63)));
}
/* The table entry of |a| (round(|a| * 128), at most 109): sin head, sin tail, cos head and
   tail, and |a| minus the entry's point. */
static inline uint64_t lf_sc_entry(double magnitude, double* rest)
{
  const double u = LF_SC_BIG + magnitude;
  *rest = magnitude - (u - LF_SC_BIG);
  const uint64_t index = lf_bits(u) & 0xffffffffULL;
  return 4 * (index < 109 ? index : 109);
}
static inline double lf_sc_do_sin(const uint64_t* table, double a, double da)
{
  const double xx0 = a * a;
  const double p = fma(fma(fma(fma(-0x1.addffc2fcdf59p-26, xx0, 0x1.71de27b9a7ed9p-19), xx0,
                               -0x1.a01a019db08b8p-13), xx0, 0x1.1111111110ecep-7), xx0,
                       -0x1.5555555555555p-3);
  const double taylor = a + fma(xx0, fma(p, a, -(0.5 * da)), da);
  const double dx = LF_SC_SELECT(LF_SC_MASK(a <= 0.0), -da, da);
  double x;
  const uint64_t k = lf_sc_entry(fabs(a), &x);
  const double xx = x * x;
  const double s = x + fma(x * xx, fma(xx, 0x1.11110e829872fp-7, -0x1.5555555555515p-3), dx);
  const double c =
    fma(x, dx, xx * fma(xx, fma(xx, 0x1.6c16bedd9e239p-10, -0x1.5555555555535p-5), 0.5));
  const double sn = lf_double(table[k]), ssn = lf_double(table[k + 1]);
  const double cs = lf_double(table[k + 2]), ccs = lf_double(table[k + 3]);
  const double cor = fma(s, cs, fma(-c, sn, fma(s, ccs, ssn)));
  return LF_SC_SELECT(LF_SC_MASK(fabs(a) < 0.126), taylor, lf_sc_copysign(sn + cor, a));
}
static inline double lf_sc_do_cos(const uint64_t* table, double a, double da)
{
  const double dx = LF_SC_SELECT(LF_SC_MASK(a < 0.0), -da, da);
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
static inline uint64_t lf_sc_reduce(double x, double* a, double* da)
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
static inline double lf_sc_common(const uint64_t* table, double x, int cosine)
{
  const uint32_t top = (uint32_t)(lf_bits(x) >> 32) & 0x7fffffffu;
  double a, da;
  const uint64_t n = lf_sc_reduce(x, &a, &da) + (uint64_t)cosine;
  const uint64_t direct = LF_SC_MASK(top < 0x3feb6000u);
  const uint64_t near = LF_SC_MASK(top < 0x400368fdu) & ~direct;
  /* pi/2 - |x| as a head and a tail: sin's given to do_cos as (head, tail), cos's summed. */
  const double head = 0x1.921fb54442d18p0 - fabs(x);
  const double summed = head + 0x1.1a62633145c07p-54;
  const double near_arg = cosine ? summed : head;
  const double near_tail =
    cosine ? (head - summed) + 0x1.1a62633145c07p-54 : 0x1.1a62633145c07p-54;
  const double arg = LF_SC_SELECT(direct, x, LF_SC_SELECT(near, near_arg, a));
  const double tail = LF_SC_SELECT(direct, 0.0, LF_SC_SELECT(near, near_tail, da));
  const uint64_t same = cosine ? direct : 0, other = cosine ? 0 : near;
  const uint64_t use_cos = same | other | (LF_SC_MASK(n & 1) & ~direct & ~near);
  const double r = LF_SC_SELECT(use_cos, lf_sc_do_cos(table, arg, tail),
                                lf_sc_do_sin(table, arg, tail));
  const double signed_r = cosine ? r : LF_SC_SELECT(near, lf_sc_copysign(r, x), r);
  return LF_SC_SELECT(LF_SC_MASK(n & 2) & ~direct & ~near, -signed_r, signed_r);
}
)";

const char* const kSin = R"(
/* 1 when x is off the common path: |x| < 2^-26, |x| >= 105414350, NaN, inf. */
static inline int lf_sin_special(double x)
{
  const uint32_t top = (uint32_t)(lf_bits(x) >> 32) & 0x7fffffffu;
  return top < 0x3e500000u || top >= 0x419921fbu;
}
static inline double lf_sin_common(double x) { return lf_sc_common(lf_sin_data, x, 0); }
)";

const char* const kCos = R"(
/* 1 when x is off the common path: |x| < 2^-27, |x| >= 105414350, NaN, inf. */
static inline int lf_cos_special(double x)
{
  const uint32_t top = (uint32_t)(lf_bits(x) >> 32) & 0x7fffffffu;
  return top < 0x3e400000u || top >= 0x419921fbu;
}
static inline double lf_cos_common(double x) { return lf_sc_common(lf_cos_data, x, 1); }
)";

// Every path: below 0.126, to 0.855, to 2.426, a few and many quadrants, up to the bound of
// the reduction, then random bit patterns.
const char* const kInputs =
    "static const double spans[] = {0.25, 1.7, 4.9, 60.0, 2e4, 2.1e8, 1e-6, 0.0};\n"
    "      x[i] = spans[round] != 0.0 ? (u - 0.5) * spans[round] : lf_double(state);";

}  // namespace

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
