#include "codegen/vector_exp.h"

#include "codegen/exp_table.h"
#include "codegen/vector_checks.h"

namespace legate_fuse::codegen {
namespace {

// The algorithm of glibc's __exp_fma, in the order its compiled code performs the operations
// (fma where it fuses a multiply and an add).
const char* const kHelpers = R"(
/* 1 when x is off the common path of the algorithm: |x| < 2^-54, |x| >= 512, NaN, inf. */
LF_INLINE int lf_exp_special(double x)
{
  const uint32_t abstop = (uint32_t)(lf_bits(x) >> 52) & 0x7ff;
  return abstop - 0x3c9u > 0x3eu;
}
/* exp(x) on the common path, exactly as the C library computes it. */
LF_INLINE double lf_exp_common(double x)
{
  const double shifted = fma(x, 0x1.71547652b82fep+7, 0x1.8p52);
  const uint64_t ki = lf_bits(shifted);
  const double kd = shifted - 0x1.8p52;
  double r = fma(kd, -0x1.62e42fefa0000p-8, x);
  r = fma(kd, -0x1.cf79abc9e3b3ap-47, r);
  const uint64_t idx = 2 * (ki & 127);
  const double tail = lf_double(lf_exp_table[idx]);
  const uint64_t sbits = lf_exp_table[idx + 1] + (ki << 45);
  const double p23 = fma(r, 0x1.555555555543cp-3, 0x1.ffffffffffdbdp-2);
  const double head = r + tail;
  const double r2 = r * r;
  const double p45 = fma(r, 0x1.1111167a4d017p-7, 0x1.55555cf172b91p-5);
  const double low = fma(p23, r2, head);
  const double tmp = fma(r2 * r2, p45, low);
  const double scale = lf_double(sbits);
  return fma(scale, tmp, scale);
}
)";

}  // namespace

std::string vector_exp_table() { return EXP_TABLE_C; }

std::string vector_exp_helpers() { return kHelpers; }

std::string vector_exp_check_main()
{
  // Random values over every range of the algorithm, then (the last round) random bit patterns:
  // every exponent, NaNs, infinities.
  return float64_check_main(
      "exp", 6,
      "static const double scales[] = {1420.0, 40.0, 1.0, 1e-3, 1e-12, 0.0};\n"
      "      x[i] = scales[round] != 0.0 ? (u - 0.5) * scales[round] : lf_double(state);",
      "0.0, -0.0, 1.0, -1.0, 0x1p-54, -0x1p-54, 0x1.fffffffffffffp-55, 511.99999999999994, "
      "512.0, -512.0, 709.782712893384, 709.7827128933841, -745.1332191019411, "
      "-745.1332191019412, -708.3964185322641, 1e308, -1e308, 0x1p-1074");
}

}  // namespace legate_fuse::codegen
