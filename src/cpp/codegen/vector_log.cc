#include "codegen/vector_log.h"

#include "codegen/vector_checks.h"

namespace legate_fuse::codegen {
namespace {

// The algorithm of glibc's __log_fma (the Arm Optimized Routines' log), operation for
// operation as its compiled code performs them: fma wherever that code fuses a multiply and an
// add. lf_log_data is the C library's struct: ln2hi, ln2lo, poly[5], poly1[11], then 128
// pairs (1/c, log(c)).
//
// Near 1 (0x1.ep-1 <= x < 0x1.109p0) the library evaluates a longer polynomial in x - 1 with
// an exact split of its leading term; elsewhere x = 2^k z, log(x) = k ln2 + log(c) +
// log1p(z/c - 1). A vector lane computes both and keeps one, chosen by a mask (a branch would
// stop GCC from vectorising the loop). x == 1 needs no case of its own: both give +0.
const char* const kHelpers = R"(
#define LF_LOG_D(i) lf_double(lf_log_data[i])
/* 1 when x is off the table path: zero, subnormal, negative, infinite or NaN. */
LF_INLINE int lf_log_special(double x)
{
  const uint64_t top = lf_bits(x) >> 48;
  return top - 0x0010u >= 0x7ff0u - 0x0010u;
}
LF_INLINE double lf_log_near_one(double x)
{
  const double r = x - 1.0;
  const double r2 = r * r;
  const double r3 = r * r2;
  const double inner = fma(r3, LF_LOG_D(17), fma(r2, LF_LOG_D(16), fma(r, LF_LOG_D(15), LF_LOG_D(14))));
  const double middle = fma(r3, inner, fma(r2, LF_LOG_D(13), fma(r, LF_LOG_D(12), LF_LOG_D(11))));
  const double poly = fma(r3, middle, fma(r2, LF_LOG_D(10), fma(r, LF_LOG_D(9), LF_LOG_D(8))));
  const double w = r * 0x1p27;
  const double rhi = r + w - w;
  const double rlo = r - rhi;
  const double square = rhi * rhi;
  const double hi = fma(square, LF_LOG_D(7), r);
  double lo = fma(square, LF_LOG_D(7), r - hi);
  lo = fma(LF_LOG_D(7) * rlo, rhi + r, lo);
  return fma(r3, poly, lo) + hi;
}
LF_INLINE double lf_log_table(double x)
{
  const uint64_t ix = lf_bits(x);
  const uint64_t tmp = ix - 0x3fe6000000000000ULL;
  const uint64_t i = (tmp >> 45) % 128;
  const int32_t k = (int32_t)((int64_t)tmp >> 52);
  const double z = lf_double(ix - (tmp & (0xfffULL << 52)));
  const double r = fma(z, LF_LOG_D(18 + 2 * i), -1.0);
  const double kd = (double)k;
  const double w = fma(kd, LF_LOG_D(0), LF_LOG_D(19 + 2 * i));
  const double hi = w + r;
  const double lo = fma(kd, LF_LOG_D(1), w - hi + r);
  const double r2 = r * r;
  const double q = fma(r2, fma(r, LF_LOG_D(6), LF_LOG_D(5)), fma(r, LF_LOG_D(4), LF_LOG_D(3)));
  return fma(r * r2, q, fma(r2, LF_LOG_D(2), lo)) + hi;
}
/* log(x) off the special inputs, exactly as the C library computes it. */
LF_INLINE double lf_log_common(double x)
{
  const uint64_t near_one =
    0 - (uint64_t)(lf_bits(x) - 0x3fee000000000000ULL < 0x3ff1090000000000ULL - 0x3fee000000000000ULL);
  return lf_double((lf_bits(lf_log_near_one(x)) & near_one) |
                   (lf_bits(lf_log_table(x)) & ~near_one));
}
)";

}  // namespace

std::string vector_log_helpers() { return kHelpers; }

std::string vector_log_check_main()
{
  return float64_check_main(
      "log", 6,
      "switch (round) {\n"
      "        case 0: x[i] = exp((u - 0.5) * 1400.0); break;   /* every exponent */\n"
      "        case 1: x[i] = u * 4.0; break;                   /* the table's subintervals */\n"
      "        case 2: x[i] = 0.9 + u * 0.2; break;             /* near 1, both sides */\n"
      "        case 3: x[i] = 1.0 + (u - 0.5) * 0x1p-20; break; /* very near 1 */\n"
      "        case 4: x[i] = lf_double(state >> 1); break;     /* positive bit patterns */\n"
      "        default: x[i] = lf_double(state); break;         /* NaN, inf, negative */\n"
      "      }",
      "1.0, 0.0, -0.0, -1.0, 0x1p-1074, 0x1p-1022, 0x1.fffffffffffffp-1023, 0x1.ep-1, "
      "0x1.dffffffffffffp-1, 0x1.109p0, 0x1.108ffffffffffp0, 2.0, 0.5, 1e308, "
      "0x1.fffffffffffffp1023");
}

}  // namespace legate_fuse::codegen
