#include "codegen/vector_fdlibm_float32.h"

#include "codegen/vector_checks.h"

namespace legate_fuse::codegen {
namespace {

// The float versions of the float64 forms of vector_expm1.h and vector_log1p.h, in float
// arithmetic, each operation rounded on its own as the library's build (plain SSE) rounds it.
// expm1f: the same reductions (|x| > ln2 / 2, k = +-1 below 3 ln2 / 2) and formulas (2^-k
// from k = 23 on); its common path is |x| in [2^-25, 88.72), but not x <= -27 ln2. tanhf: its
// formulas over expm1f, for 2^-55 <= |x| < 22, where expm1f's argument below 2^-25 is itself.
// log1pf: log1p's reduction and formulas; its common path is x > -1 from |x| = 2^-29 on.
const char* const kExpm1f = R"(
LF_INLINE int lf_expm1f_special(float x)
{
  const uint32_t u = lf_fbits(x), magnitude = u & 0x7fffffffu;
  return magnitude < 0x33000000u || magnitude >= 0x42b17218u ||
         ((u >> 31) != 0 && magnitude >= 0x4195b844u);
}
LF_INLINE float lf_expm1f_common(float x)
{
  const float ln2_hi = 0x1.62e3p-1f, ln2_lo = 0x1.2fefa2p-17f;
  const uint32_t u = lf_fbits(x), magnitude = u & 0x7fffffffu;
  const uint32_t negative = 0u - (u >> 31);
  const uint32_t reduced = LF_MASK32(magnitude > 0x3eb17218u);
  const uint32_t one_step = LF_MASK32(magnitude < 0x3f851592u);
  const float head1 = x - LF_SELECT32(negative, -ln2_hi, ln2_hi);
  const float tail1 = LF_SELECT32(negative, -ln2_lo, ln2_lo);
  const float r1 = head1 - tail1, c1 = (head1 - r1) - tail1;
  const int32_t kn = (int32_t)(0x1.715476p0f * x + LF_SELECT32(negative, -0.5f, 0.5f));
  const float kd = (float)kn;
  const float headn = x - kd * ln2_hi, tailn = kd * ln2_lo;
  const float rn = headn - tailn, cn = (headn - rn) - tailn;
  const int32_t k = (int32_t)((((1u | negative) & one_step) | ((uint32_t)kn & ~one_step)) & reduced);
  const float r = LF_SELECT32(reduced, LF_SELECT32(one_step, r1, rn), x);
  const float c = LF_SELECT32(reduced, LF_SELECT32(one_step, c1, cn), 0.0f);
  const float half_r = 0.5f * r, hxs = r * half_r;
  const float rat =
    1.0f + hxs * (-0x1.111112p-5f +
                  hxs * (0x1.a01a02p-10f +
                         hxs * (-0x1.4ce19ap-14f + hxs * (0x1.0cfca8p-18f + hxs * -0x1.afdb76p-23f))));
  const float t = 3.0f - rat * half_r;
  const float e0 = hxs * ((rat - t) / (6.0f - r * t));
  const float e = (r * (e0 - c) - c) - hxs;
  const float k_zero = r - (r * e0 - hxs);
  const float k_minus_one = 0.5f * (r - e) - 0.5f;
  const float k_one =
    LF_SELECT32(LF_MASK32(r < -0.25f), -2.0f * (e - (r + 0.5f)), 1.0f + 2.0f * (r - e));
  const uint32_t exponent = (uint32_t)k << 23;
  const float k_far = lf_float(lf_fbits(1.0f - (e - r)) + exponent) - 1.0f;
  const float one_minus = lf_float(0x3f800000u - (0x1000000u >> (k & 31)));
  const float k_below_23 = lf_float(lf_fbits(one_minus - (e - r)) + exponent);
  const float two_minus = lf_float(((uint32_t)(0x7f - k) & 0xffu) << 23);
  const float k_from_23 = lf_float(lf_fbits((r - (e + two_minus)) + 1.0f) + exponent);
  const float large = LF_SELECT32(LF_MASK32(k <= -2 || k > 56), k_far,
                                    LF_SELECT32(LF_MASK32(k < 23), k_below_23, k_from_23));
  return LF_SELECT32(
    LF_MASK32(k == 0), k_zero,
    LF_SELECT32(LF_MASK32(k == -1), k_minus_one,
                  LF_SELECT32(LF_MASK32(k == 1), k_one, large)));
}
)";

const char* const kTanhf = R"(
LF_INLINE int lf_tanhf_special(float x)
{
  const uint32_t magnitude = lf_fbits(x) & 0x7fffffffu;
  return magnitude < 0x24000000u || magnitude >= 0x41b00000u;
}
LF_INLINE float lf_tanhf_common(float x)
{
  const float magnitude = fabsf(x);
  const uint32_t from_one = LF_MASK32(magnitude >= 1.0f);
  const float argument = LF_SELECT32(from_one, 2.0f * magnitude, -2.0f * magnitude);
  const uint32_t tiny = LF_MASK32((lf_fbits(argument) & 0x7fffffffu) < 0x33000000u);
  const float t = LF_SELECT32(tiny, argument, lf_expm1f_common(argument));
  const float z = LF_SELECT32(from_one, 1.0f - 2.0f / (t + 2.0f), -t / (t + 2.0f));
  return LF_SELECT32(0u - (lf_fbits(x) >> 31), -z, z);
}
)";

const char* const kLog1pf = R"(
LF_INLINE int lf_log1pf_special(float x)
{
  const int32_t top = (int32_t)lf_fbits(x), magnitude = top & 0x7fffffff;
  return (top < 0x3ed413d7 && (magnitude >= 0x3f800000 || magnitude < 0x31000000)) ||
         top >= 0x7f800000;
}
LF_INLINE float lf_log1pf_common(float x)
{
  const float ln2_hi = 0x1.62e3p-1f, ln2_lo = 0x1.2fefa2p-17f;
  const int32_t top = (int32_t)lf_fbits(x);
  const uint32_t direct = LF_MASK32(top < 0x3ed413d7 && (top > 0 || top <= (int32_t)0xbe95f61f));
  const uint32_t huge = LF_MASK32(top >= 0x5a000000);
  const float u = LF_SELECT32(huge, x, 1.0f + x);
  const int32_t u_bits = (int32_t)lf_fbits(u);
  const int32_t k_u = (u_bits >> 23) - 127;
  const float rounding = LF_SELECT32(LF_MASK32(k_u > 0), 1.0f - (u - x), x - (u - 1.0f));
  const float c_u = LF_SELECT32(huge, 0.0f, rounding / u);
  const int32_t mantissa = u_bits & 0x007fffff;
  const int32_t halve = -(int32_t)(mantissa >= 0x3504f7);
  const float normalised = lf_float((uint32_t)(mantissa | (0x3f800000 - (halve & 0x00800000))));
  const int32_t tiny_f = ~halve & -(int32_t)(mantissa == 0);
  const float f = LF_SELECT32(direct, x, normalised - 1.0f);
  const float c = LF_SELECT32(direct, 0.0f, c_u);
  const float k = (float)((k_u - halve) & ~(int32_t)direct);
  const float hfsq = 0.5f * f * f;
  const float at_zero = k * ln2_hi + (c + k * ln2_lo);
  const float short_r = hfsq * (1.0f - 0.66666666666666666f * f);
  const float near_zero = k * ln2_hi - ((short_r - (k * ln2_lo + c)) - f);
  const float s = f / (2.0f + f), z = s * s;
  const float R =
    z * (0x1.555556p-1f +
         z * (0x1.99999ap-2f +
              z * (0x1.24924ap-2f +
                   z * (0x1.c71c52p-3f +
                        z * (0x1.74664ap-3f + z * (0x1.39a09ep-3f + z * 0x1.2f112ep-3f))))));
  const float k_zero = f - (hfsq - s * (hfsq + R));
  const float k_other = k * ln2_hi - ((hfsq - (s * (hfsq + R) + (k * ln2_lo + c))) - f);
  const uint32_t small = LF_MASK32(tiny_f != 0) & ~direct;
  const uint32_t k_is_zero = LF_MASK32(k == 0.0f);
  return LF_SELECT32(
    small,
    LF_SELECT32(LF_MASK32(f == 0.0f), LF_SELECT32(k_is_zero, 0.0f, at_zero),
                  LF_SELECT32(k_is_zero, f - short_r, near_zero)),
    LF_SELECT32(k_is_zero, k_zero, k_other));
}
)";

}  // namespace

std::string vector_expm1f_helpers() { return kExpm1f; }

std::string vector_tanhf_helpers() { return kTanhf; }

std::string vector_log1pf_helpers() { return kLog1pf; }

std::string vector_expm1f_check_main()
{
  return float32_check_main("expm1f",
                            "0.0f, -0.0f, 0x1p-25f, -0x1p-25f, 0x1.62e43p-2f, -0x1.62e43p-2f, "
                            "0x1.0a2b24p0f, -0.25f, 0.25f, 18.7f, -18.7f, 88.7f, 88.72f");
}

std::string vector_tanhf_check_main()
{
  return float32_check_main("tanhf",
                            "0.0f, -0.0f, 1.0f, -1.0f, 0x1.fffffep-1f, 0x1p-55f, 0x1p-26f, "
                            "22.0f, -22.0f, 0x1.5ffffep4f, 0.5f");
}

std::string vector_log1pf_check_main()
{
  return float32_check_main("log1pf",
                            "0.0f, -0.0f, 1.0f, -1.0f, 0x1p-29f, -0x1p-29f, 0x1.a827aep-2f, "
                            "-0.2929f, 0x1.6a09e6p0f, 0x1p25f, 1e38f, -0x1.fffffep-1f, 3.0f");
}

}  // namespace legate_fuse::codegen
