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

// A host function named as the IR calls the instruction (`symbol`, with dots: an asm label).
#define INSTRUCTION(type, name, symbol, parameters, ...) \
  type name parameters __asm__(symbol);                  \
  type name parameters __VA_ARGS__

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
INSTRUCTION(double, add_rn_d, "lf_nvvm_add.rn.d", (double a, double b), { return a + b; })
INSTRUCTION(float, add_rn_f, "lf_nvvm_add.rn.f", (float a, float b), { return a + b; })
INSTRUCTION(double, add_rz_d, "lf_nvvm_add.rz.d", (double a, double b),
            { WITH_ROUNDING(FE_TOWARDZERO, double, a + b); })
INSTRUCTION(float, add_rz_f, "lf_nvvm_add.rz.f", (float a, float b),
            { WITH_ROUNDING(FE_TOWARDZERO, float, a + b); })
INSTRUCTION(float, sub_rn_f32, "lf_ptx_sub.rn.f32", (float a, float b), { return a - b; })
INSTRUCTION(double, mul_rn_d, "lf_nvvm_mul.rn.d", (double a, double b), { return a * b; })
INSTRUCTION(float, mul_rn_f, "lf_nvvm_mul.rn.f", (float a, float b), { return a * b; })
INSTRUCTION(float, div_rn_f, "lf_nvvm_div.rn.f", (float a, float b), { return a / b; })
INSTRUCTION(double, fma_rn_d, "lf_nvvm_fma.rn.d", (double a, double b, double c),
            { return fma(a, b, c); })
INSTRUCTION(float, fma_rn_f, "lf_nvvm_fma.rn.f", (float a, float b, float c),
            { return fmaf(a, b, c); })
INSTRUCTION(float, fma_rm_f, "lf_nvvm_fma.rm.f", (float a, float b, float c),
            { WITH_ROUNDING(FE_DOWNWARD, float, fmaf(a, b, c)); })
INSTRUCTION(float, fma_rz_f, "lf_nvvm_fma.rz.f", (float a, float b, float c),
            { WITH_ROUNDING(FE_TOWARDZERO, float, fmaf(a, b, c)); })
INSTRUCTION(double, sqrt_rn_d, "lf_nvvm_sqrt.rn.d", (double a), { return sqrt(a); })
INSTRUCTION(float, sqrt_rn_f, "lf_nvvm_sqrt.rn.f", (float a), { return sqrtf(a); })

// Rounding to integral values (round.d is cvt.rni: to nearest even) and conversions.
INSTRUCTION(double, ceil_d, "lf_nvvm_ceil.d", (double a), { return ceil(a); })
INSTRUCTION(float, ceil_f, "lf_nvvm_ceil.f", (float a), { return ceilf(a); })
INSTRUCTION(double, floor_d, "lf_nvvm_floor.d", (double a), { return floor(a); })
INSTRUCTION(float, floor_f, "lf_nvvm_floor.f", (float a), { return floorf(a); })
INSTRUCTION(double, trunc_d, "lf_nvvm_trunc.d", (double a), { return trunc(a); })
INSTRUCTION(float, trunc_f, "lf_nvvm_trunc.f", (float a), { return truncf(a); })
INSTRUCTION(double, round_d, "lf_nvvm_round.d", (double a), { return nearbyint(a); })
INSTRUCTION(float, round_f, "lf_nvvm_round.f", (float a), { return nearbyintf(a); })
INSTRUCTION(int32_t, d2i_rn, "lf_nvvm_d2i.rn", (double a), { return saturated_int(nearbyint(a)); })
INSTRUCTION(int32_t, f2i_rn, "lf_nvvm_f2i.rn", (float a), { return saturated_int(nearbyintf(a)); })
INSTRUCTION(int32_t, f2i_rz, "lf_nvvm_f2i.rz", (float a), { return saturated_int(truncf(a)); })

// Bits of doubles.
INSTRUCTION(int32_t, d2i_hi, "lf_nvvm_d2i.hi", (double a), { return (int32_t)(bits_of(a) >> 32); })
INSTRUCTION(int32_t, d2i_lo, "lf_nvvm_d2i.lo", (double a),
            { return (int32_t)(uint32_t)bits_of(a); })
INSTRUCTION(double, lohi_i2d, "lf_nvvm_lohi.i2d", (int32_t lo, int32_t hi),
            { return from_bits(((uint64_t)(uint32_t)hi << 32) | (uint32_t)lo); })

// Selections.
INSTRUCTION(double, fabs_f64, "lf_nvvm_fabs.f64", (double a), { return fabs(a); })
INSTRUCTION(float, fabs_f32, "lf_nvvm_fabs.f32", (float a), { return fabsf(a); })
// min.f64: a NaN operand gives the other; -0 is below +0.
INSTRUCTION(double, fmin_d, "lf_nvvm_fmin.d", (double a, double b), {
  if (isnan(a)) return b;
  if (isnan(b)) return a;
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
})
INSTRUCTION(float, saturate_f, "lf_nvvm_saturate.f", (float a), {
  return isnan(a) ? 0.0f : a < 0.0f ? 0.0f : a > 1.0f ? 1.0f : a;
})
// setp.equ.f64 (equal or unordered), then selp.f64.
INSTRUCTION(double, select_if_equal_or_unordered, "lf_ptx_select_if_equal_or_unordered",
            (double a, double b, double if_so, double if_not),
            { return (a == b || isnan(a) || isnan(b)) ? if_so : if_not; })

// Approximate instructions: the exact value, in the instruction's format.
INSTRUCTION(float, ex2_approx_f32, "lf_nvvm_ex2.approx.f32", (float a), { return exp2f(a); })
INSTRUCTION(float, ex2_approx_ftz_f32, "lf_nvvm_ex2.approx.ftz.f32", (float a),
            { return flushed(exp2f(flushed(a))); })
INSTRUCTION(float, lg2_approx_f, "lf_nvvm_lg2.approx.f", (float a), { return log2f(a); })
INSTRUCTION(float, lg2_approx_ftz_f, "lf_nvvm_lg2.approx.ftz.f", (float a),
            { return flushed(log2f(flushed(a))); })
INSTRUCTION(float, rcp_approx_ftz_f32, "lf_ptx_rcp.approx.ftz.f32", (float a),
            { return flushed(1.0f / flushed(a)); })
INSTRUCTION(float, div_approx_f, "lf_nvvm_div.approx.f", (float a, float b),
            { return a * (1.0f / b); })
INSTRUCTION(float, div_approx_ftz_f, "lf_nvvm_div.approx.ftz.f", (float a, float b),
            { return flushed(flushed(a) * (1.0f / flushed(b))); })
INSTRUCTION(float, rsqrt_approx_ftz_f, "lf_nvvm_rsqrt.approx.ftz.f", (float a),
            { return flushed(1.0f / sqrtf(flushed(a))); })
INSTRUCTION(double, rcp_approx_ftz_d, "lf_nvvm_rcp.approx.ftz.d", (double a),
            { return high_word(1.0 / high_word(flushed_double(a))); })
INSTRUCTION(double, rsqrt_approx_ftz_f64, "lf_ptx_rsqrt.approx.ftz.f64", (double a),
            { return high_word(1.0 / sqrt(high_word(flushed_double(a)))); })
