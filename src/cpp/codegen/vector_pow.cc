#include "codegen/vector_pow.h"

#include "codegen/vector_checks.h"

namespace legate_fuse::codegen {
namespace {

// glibc's __pow_fma for x > 0 normal and 2^-65 <= |y| < 2^63, where its product y log(x)
// (ehi) has 2^-54 <= |ehi| < 512: x = 2^k z, log(x) = k ln2 + log(c) + log1p(z/c - 1) with
// 1/c, log(c) and its tail from the library's table of 128 (lf_pow_data: ln2hi, ln2lo,
// poly[7], then 128 entries of invc, a pad, logc, logctail), a head and a tail; times y as
// ehi + elo; then exp(ehi + elo) as exp's form computes exp(x), with elo added to the reduced
// argument. Which multiply-adds the library's build fuses was read from its machine code (the
// sum of the log's low parts is added in order, then the polynomial's product fused into it).
// Lanes whose ehi is off exp's common path (overflow, underflow, |ehi| < 2^-54) get NaN, which
// the common path never gives: lf_pow_special sends them to the library.
const char* const kHelpers = R"(
#define LF_POW_D(i) lf_double(lf_pow_data[i])
LF_INLINE double lf_pow_common(double x, double y)
{
  const uint64_t ix = lf_bits(x);
  const uint64_t tmp = ix - 0x3fe6955500000000ULL;
  const uint64_t i = (tmp >> 45) % 128;
  const double kd = (double)(int32_t)((int64_t)tmp >> 52);
  const double z = lf_double(ix - (tmp & (0xfffULL << 52)));
  const double invc = LF_POW_D(9 + 4 * i), logc = LF_POW_D(11 + 4 * i);
  const double logctail = LF_POW_D(12 + 4 * i);
  const double r = fma(z, invc, -1.0);
  const double t1 = fma(kd, LF_POW_D(0), logc);
  const double t2 = t1 + r;
  const double lo1 = fma(kd, LF_POW_D(1), logctail);
  const double lo2 = t1 - t2 + r;
  const double ar = LF_POW_D(2) * r;
  const double ar2 = r * ar;
  const double ar3 = r * ar2;
  const double hi = t2 + ar2;
  const double lo3 = fma(ar, r, -ar2);
  const double lo4 = t2 - hi + ar2;
  const double inner = fma(fma(r, LF_POW_D(8), LF_POW_D(7)), ar2, fma(r, LF_POW_D(6), LF_POW_D(5)));
  const double poly = fma(ar2, inner, fma(r, LF_POW_D(4), LF_POW_D(3)));
  const double lo = fma(ar3, poly, ((lo1 + lo2) + lo3) + lo4);
  const double log_head = hi + lo;
  const double log_tail = hi - log_head + lo;
  const double ehi = y * log_head;
  const double elo = fma(y, log_tail, fma(y, log_head, -ehi));
  /* exp(ehi + elo) */
  const uint32_t abstop = (uint32_t)(lf_bits(ehi) >> 52) & 0x7ffu;
  const double shifted = fma(ehi, 0x1.71547652b82fep+7, 0x1.8p52);
  const uint64_t ki = lf_bits(shifted);
  const double kn = shifted - 0x1.8p52;
  const double reduced = fma(kn, -0x1.cf79abc9e3b3ap-47, fma(kn, -0x1.62e42fefa0000p-8, ehi));
  const double rr = elo + reduced;
  const uint64_t idx = 2 * (ki % 128);
  const double tail = lf_double(lf_exp_table[idx]);
  const uint64_t sbits = lf_exp_table[idx + 1] + (ki << 45);
  const double p23 = fma(rr, 0x1.555555555543cp-3, 0x1.ffffffffffdbdp-2);
  const double head = rr + tail;
  const double r2 = rr * rr;
  const double p45 = fma(rr, 0x1.1111167a4d017p-7, 0x1.55555cf172b91p-5);
  const double low = fma(p23, r2, head);
  const double t = fma(r2 * r2, p45, low);
  const double scale = lf_double(sbits);
  return LF_SELECT(LF_MASK(abstop - 0x3c9u >= 0x3fu), (double)NAN, fma(scale, t, scale));
}
/* 1 when (x, y) is off the common path: x not a positive normal number, |y| < 2^-65 or
   >= 2^63, NaN or inf; or its common value (`value`) says ehi is. */
LF_INLINE int lf_pow_special(double x, double y, double value)
{
  const uint64_t top_x = lf_bits(x) >> 52, top_y = (lf_bits(y) >> 52) & 0x7ff;
  return top_x - 0x001 >= 0x7ff - 0x001 || top_y - 0x3be >= 0x43e - 0x3be || value != value;
}
)";

}  // namespace

std::string vector_pow_helpers() { return kHelpers; }

std::string vector_pow_check_main()
{
  // Both arguments over their ranges, integral exponents, x near 1 with large |y| (ehi near
  // its bounds), then random bit patterns for x.
  return float64_binary_check_main(
      "pow", 6,
      "switch (round) {\n"
      "        case 0: x[i] = u * 10.0; y[i] = (v - 0.5) * 20.0; break;\n"
      "        case 1: x[i] = exp((u - 0.5) * 1400.0); y[i] = (v - 0.5) * 2.0; break;\n"
      "        case 2: x[i] = 0.5 + u; y[i] = (v - 0.5) * 2000.0; break;\n"
      "        case 3: x[i] = u * 4.0; y[i] = 2.0 + (int)(v * 4.0); break;\n"
      "        case 4: x[i] = lf_double(state >> 1); y[i] = (v - 0.5) * 6.0; break;\n"
      "        default: x[i] = 1.0 + (u - 0.5) * 1e-6; y[i] = (v - 0.5) * 1e6; break;\n"
      "      }",
      "{2.0, 0.5}, {2.0, 2.0}, {10.0, 3.0}, {0.5, -1.0}, {1.0, 1e300}, {0.0, 2.0}, "
      "{-2.0, 2.0}, {2.0, 1023.9}, {2.0, -1074.5}, {3.0, 1e-20}, {1e300, 1.5}");
}

}  // namespace legate_fuse::codegen
