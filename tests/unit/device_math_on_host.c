// The device instructions libdevice's functions use, as host functions (device_math_on_host.py
// renames each NVVM intrinsic `llvm.nvvm.X` to `lf_nvvm_X` and each one-instruction inline PTX
// `X` to `lf_ptx_X`; the names are given with asm labels, as they hold dots).
//
// Each follows the PTX ISA's definition of the instruction: its rounding mode (rn, rz, rm; the
// host's default is round to nearest even), flushing of subnormal inputs and results (ftz),
// saturation of conversions to integers (NaN to 0). The approximate instructions (`approx`) are
// not published bit for bit: they are emulated by the exact value in the instruction's format
// (the double-precision reciprocals of the hardware read and write the high 32 bits only).
// Built with -frounding-math, so that the compiler neither folds nor moves operations across
// the rounding mode changes.
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define NAMED(symbol) __asm__(symbol)

static double from_bits(uint64_t bits)
{
  double value;
  memcpy(&value, &bits, sizeof value);
  return value;
}

static uint64_t bits_of(double value)
{
  uint64_t bits;
  memcpy(&bits, &value, sizeof bits);
  return bits;
}

// Subnormal floats flushed to a zero of their sign, as ftz instructions read and write them.
static float flushed(float x) { return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x; }

static double flushed_double(double x)
{
  return fpclassify(x) == FP_SUBNORMAL ? copysign(0.0, x) : x;
}

// A double with its low 32 bits cleared: the part the hardware's double reciprocals use.
static double high_word(double x) { return from_bits(bits_of(x) & 0xffffffff00000000ull); }

// Conversion to a 32-bit integer as cvt does it: saturated, NaN to 0.
static int32_t saturated_int(double rounded)
{
  if (isnan(rounded)) return 0;
  if (rounded >= 2147483647.0) return INT32_MAX;
  if (rounded <= -2147483648.0) return INT32_MIN;
  return (int32_t)rounded;
}

#define WITH_ROUNDING(mode, type, expression) \
  do {                                        \
    const int saved = fegetround();           \
    fesetround(mode);                         \
    volatile type result = (expression);      \
    fesetround(saved);                        \
    return result;                            \
  } while (0)

// Exact arithmetic in the rounding mode the name says.
double add_rn_d(double a, double b) NAMED("lf_nvvm_add.rn.d");
double add_rn_d(double a, double b) { return a + b; }
float add_rn_f(float a, float b) NAMED("lf_nvvm_add.rn.f");
float add_rn_f(float a, float b) { return a + b; }
double add_rz_d(double a, double b) NAMED("lf_nvvm_add.rz.d");
double add_rz_d(double a, double b) { WITH_ROUNDING(FE_TOWARDZERO, double, a + b); }
float add_rz_f(float a, float b) NAMED("lf_nvvm_add.rz.f");
float add_rz_f(float a, float b) { WITH_ROUNDING(FE_TOWARDZERO, float, a + b); }
float sub_rn_f32(float a, float b) NAMED("lf_ptx_sub.rn.f32");
float sub_rn_f32(float a, float b) { return a - b; }
double mul_rn_d(double a, double b) NAMED("lf_nvvm_mul.rn.d");
double mul_rn_d(double a, double b) { return a * b; }
float mul_rn_f(float a, float b) NAMED("lf_nvvm_mul.rn.f");
float mul_rn_f(float a, float b) { return a * b; }
float div_rn_f(float a, float b) NAMED("lf_nvvm_div.rn.f");
float div_rn_f(float a, float b) { return a / b; }
double fma_rn_d(double a, double b, double c) NAMED("lf_nvvm_fma.rn.d");
double fma_rn_d(double a, double b, double c) { return fma(a, b, c); }
float fma_rn_f(float a, float b, float c) NAMED("lf_nvvm_fma.rn.f");
float fma_rn_f(float a, float b, float c) { return fmaf(a, b, c); }
float fma_rm_f(float a, float b, float c) NAMED("lf_nvvm_fma.rm.f");
float fma_rm_f(float a, float b, float c) { WITH_ROUNDING(FE_DOWNWARD, float, fmaf(a, b, c)); }
float fma_rz_f(float a, float b, float c) NAMED("lf_nvvm_fma.rz.f");
float fma_rz_f(float a, float b, float c) { WITH_ROUNDING(FE_TOWARDZERO, float, fmaf(a, b, c)); }
double sqrt_rn_d(double a) NAMED("lf_nvvm_sqrt.rn.d");
double sqrt_rn_d(double a) { return sqrt(a); }
float sqrt_rn_f(float a) NAMED("lf_nvvm_sqrt.rn.f");
float sqrt_rn_f(float a) { return sqrtf(a); }

// Rounding to integral values (round.d is cvt.rni: to nearest even) and conversions.
double ceil_d(double a) NAMED("lf_nvvm_ceil.d");
double ceil_d(double a) { return ceil(a); }
float ceil_f(float a) NAMED("lf_nvvm_ceil.f");
float ceil_f(float a) { return ceilf(a); }
double floor_d(double a) NAMED("lf_nvvm_floor.d");
double floor_d(double a) { return floor(a); }
float floor_f(float a) NAMED("lf_nvvm_floor.f");
float floor_f(float a) { return floorf(a); }
double trunc_d(double a) NAMED("lf_nvvm_trunc.d");
double trunc_d(double a) { return trunc(a); }
float trunc_f(float a) NAMED("lf_nvvm_trunc.f");
float trunc_f(float a) { return truncf(a); }
double round_d(double a) NAMED("lf_nvvm_round.d");
double round_d(double a) { return nearbyint(a); }
float round_f(float a) NAMED("lf_nvvm_round.f");
float round_f(float a) { return nearbyintf(a); }
int32_t d2i_rn(double a) NAMED("lf_nvvm_d2i.rn");
int32_t d2i_rn(double a) { return saturated_int(nearbyint(a)); }
int32_t f2i_rn(float a) NAMED("lf_nvvm_f2i.rn");
int32_t f2i_rn(float a) { return saturated_int(nearbyintf(a)); }
int32_t f2i_rz(float a) NAMED("lf_nvvm_f2i.rz");
int32_t f2i_rz(float a) { return saturated_int(truncf(a)); }

// Bits of doubles.
int32_t d2i_hi(double a) NAMED("lf_nvvm_d2i.hi");
int32_t d2i_hi(double a) { return (int32_t)(bits_of(a) >> 32); }
int32_t d2i_lo(double a) NAMED("lf_nvvm_d2i.lo");
int32_t d2i_lo(double a) { return (int32_t)(uint32_t)bits_of(a); }
double lohi_i2d(int32_t lo, int32_t hi) NAMED("lf_nvvm_lohi.i2d");
double lohi_i2d(int32_t lo, int32_t hi)
{
  return from_bits(((uint64_t)(uint32_t)hi << 32) | (uint32_t)lo);
}

// Selections.
double fabs_f64(double a) NAMED("lf_nvvm_fabs.f64");
double fabs_f64(double a) { return fabs(a); }
float fabs_f32(float a) NAMED("lf_nvvm_fabs.f32");
float fabs_f32(float a) { return fabsf(a); }
// min.f64: a NaN operand gives the other; -0 is below +0.
double fmin_d(double a, double b) NAMED("lf_nvvm_fmin.d");
double fmin_d(double a, double b)
{
  if (isnan(a)) return b;
  if (isnan(b)) return a;
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
}
float saturate_f(float a) NAMED("lf_nvvm_saturate.f");
float saturate_f(float a) { return isnan(a) ? 0.0f : a < 0.0f ? 0.0f : a > 1.0f ? 1.0f : a; }
// setp.equ.f64 (equal or unordered), then selp.f64.
double select_if_equal_or_unordered(double a, double b, double if_so, double if_not)
    NAMED("lf_ptx_select_if_equal_or_unordered");
double select_if_equal_or_unordered(double a, double b, double if_so, double if_not)
{
  return (a == b || isnan(a) || isnan(b)) ? if_so : if_not;
}

// Approximate instructions: the exact value, in the instruction's format.
float ex2_approx_f32(float a) NAMED("lf_nvvm_ex2.approx.f32");
float ex2_approx_f32(float a) { return exp2f(a); }
float ex2_approx_ftz_f32(float a) NAMED("lf_nvvm_ex2.approx.ftz.f32");
float ex2_approx_ftz_f32(float a) { return flushed(exp2f(flushed(a))); }
float lg2_approx_f(float a) NAMED("lf_nvvm_lg2.approx.f");
float lg2_approx_f(float a) { return log2f(a); }
float lg2_approx_ftz_f(float a) NAMED("lf_nvvm_lg2.approx.ftz.f");
float lg2_approx_ftz_f(float a) { return flushed(log2f(flushed(a))); }
float rcp_approx_ftz_f32(float a) NAMED("lf_ptx_rcp.approx.ftz.f32");
float rcp_approx_ftz_f32(float a) { return flushed(1.0f / flushed(a)); }
float div_approx_f(float a, float b) NAMED("lf_nvvm_div.approx.f");
float div_approx_f(float a, float b) { return a * (1.0f / b); }
float div_approx_ftz_f(float a, float b) NAMED("lf_nvvm_div.approx.ftz.f");
float div_approx_ftz_f(float a, float b) { return flushed(flushed(a) * (1.0f / flushed(b))); }
float rsqrt_approx_ftz_f(float a) NAMED("lf_nvvm_rsqrt.approx.ftz.f");
float rsqrt_approx_ftz_f(float a) { return flushed(1.0f / sqrtf(flushed(a))); }
double rcp_approx_ftz_d(double a) NAMED("lf_nvvm_rcp.approx.ftz.d");
double rcp_approx_ftz_d(double a) { return high_word(1.0 / high_word(flushed_double(a))); }
double rsqrt_approx_ftz_f64(double a) NAMED("lf_ptx_rsqrt.approx.ftz.f64");
double rsqrt_approx_ftz_f64(double a)
{
  return high_word(1.0 / sqrt(high_word(flushed_double(a))));
}
