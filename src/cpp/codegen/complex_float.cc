#include "codegen/complex_float.h"

#include "codegen/c_ops.h"
#include "codegen/element_body.h"

namespace legate_fuse::codegen {
namespace {

// Where both operands of a floating-point instruction are NaN, the result is one of them, and
// which one depends on the operand order the compiler chose; GCC swaps the operands of
// commutative operations freely once a function is inlined into its caller. cuPyNumeric
// compiles each operation as a function of its own: so are these (no inlining, no
// interprocedural changes), and a chain of them chooses its NaN as the chain of cuPyNumeric's
// tasks does. Inlined, (a * b + a) * (b - 2) + a gave other NaN bits than cuPyNumeric's in
// 260 of the 101,250 products of a grid of special parts; so compiled, none.
//
// GCC 12's straight-line (SLP) vectoriser drops the rounding of a complex128 value narrowed to
// complex64 and widened again within one function, (double)(float)x as x: the pragma keeps
// it out of the kernels that compute on complex numbers (their loops, with a call per
// operation, are not vectorised anyway).
const char* const kOpaque =
    "#if defined(__GNUC__) && !defined(__clang__)\n"
    "#pragma GCC optimize(\"no-tree-slp-vectorize\")\n"
    "#endif\n"
    "#if defined(__clang__)\n"
    "#define LF_OPAQUE static __attribute__((noinline))\n"
    "#else\n"
    "#define LF_OPAQUE static __attribute__((noipa))\n"
    "#endif\n";

// A complex value of type LF_C from its parts of type LF_T.
const char* const kMake = R"(static inline LF_C LF_C_make(LF_T re, LF_T im)
{
  LF_C z;
  z.re = re;
  z.im = im;
  return z;
}
)";

// libcu++'s operator+, operator-, operator* and operator/ of complex<T> (cuda/std/complex, CCCL
// 3.0), for T = LF_T with C library functions of suffix LF_F; LF_C names the struct. Products
// and sums are not contracted into fused multiply-adds, as in cuPyNumeric's CPU build, except in
// the quotient, where cuPyNumeric's compiled code contracts them: a*c + b*d into fma(a, c, b*d),
// b*c - a*d into fma(-a, d, b*c) and the denominator c*c + d*d into fma(c, c, d*d) (found by
// comparing every such choice with cuPyNumeric's quotients: only this one gives all of them).
// Where both parts added are NaN, cuPyNumeric's sum is the second one's (its compiled operand
// order), and so here. In the quotient a NaN result takes the NaN operand cuPyNumeric's
// instructions take (nan2, nan3: the first NaN of the operands in that order), measured the same
// way on 124,976 quotients of special and random parts, each part of either sign.
const char* const kTemplate = R"(LF_C LF_C_add(LF_C z, LF_C w)
{
  return LF_C_make(isnan(w.re) ? w.re + w.re : z.re + w.re, isnan(w.im) ? w.im + w.im : z.im + w.im);
}
LF_C LF_C_subtract(LF_C z, LF_C w) { return LF_C_make(z.re - w.re, z.im - w.im); }
LF_C LF_C_multiply(LF_C z, LF_C w)
{
  LF_T a = z.re, b = z.im, c = w.re, d = w.im;
  const LF_T ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  LF_T x = ac - bd, y = ad + bc;
  if (isnan(x) && isnan(y)) {
    int recalc = 0;
    if (isinf(a) || isinf(b)) {
      a = copysignLF_F(isinf(a) ? (LF_T)1 : (LF_T)0, a);
      b = copysignLF_F(isinf(b) ? (LF_T)1 : (LF_T)0, b);
      if (isnan(c)) c = copysignLF_F((LF_T)0, c);
      if (isnan(d)) d = copysignLF_F((LF_T)0, d);
      recalc = 1;
    }
    if (isinf(c) || isinf(d)) {
      c = copysignLF_F(isinf(c) ? (LF_T)1 : (LF_T)0, c);
      d = copysignLF_F(isinf(d) ? (LF_T)1 : (LF_T)0, d);
      if (isnan(a)) a = copysignLF_F((LF_T)0, a);
      if (isnan(b)) b = copysignLF_F((LF_T)0, b);
      recalc = 1;
    }
    if (!recalc && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {
      if (isnan(a)) a = copysignLF_F((LF_T)0, a);
      if (isnan(b)) b = copysignLF_F((LF_T)0, b);
      if (isnan(c)) c = copysignLF_F((LF_T)0, c);
      if (isnan(d)) d = copysignLF_F((LF_T)0, d);
      recalc = 1;
    }
    if (recalc) {
      const LF_T ac2 = a * c, bd2 = b * d, ad2 = a * d, bc2 = b * c;
      x = (LF_T)INFINITY * (ac2 - bd2);
      y = (LF_T)INFINITY * (ad2 + bc2);
    }
  }
  return LF_C_make(x, y);
}
LF_T LF_C_nan2(LF_T v, LF_T p, LF_T q)
{
  return !isnan(v) ? v : isnan(p) ? p : isnan(q) ? q : v;
}
LF_T LF_C_nan3(LF_T v, LF_T p, LF_T q, LF_T r)
{
  return !isnan(v) ? v : isnan(p) ? p : isnan(q) ? q : isnan(r) ? r : v;
}
LF_C LF_C_divide(LF_C z, LF_C w)
{
  LF_T a = z.re, b = z.im, c = w.re, d = w.im;
  int ilogbw = 0;
  const LF_T logbw = logbLF_F(fmaxLF_F(fabsLF_F(c), fabsLF_F(d)));
  if (isfinite(logbw)) {
    ilogbw = (int)logbw;
    c = scalbnLF_F(c, -ilogbw);
    d = scalbnLF_F(d, -ilogbw);
  }
  const LF_T denom = fmaLF_F(c, c, d * d);
  const LF_T bd = LF_C_nan2(b * d, d, b), bc = LF_C_nan2(b * c, c, b);
  const LF_T nx = LF_C_nan3(fmaLF_F(a, c, bd), c, a, bd);
  const LF_T ny = LF_C_nan3(fmaLF_F(-a, d, bc), d, a, bc);
  LF_T x = scalbnLF_F(LF_C_nan2(nx / denom, nx, denom), -ilogbw);
  LF_T y = scalbnLF_F(LF_C_nan2(ny / denom, ny, denom), -ilogbw);
  if (isnan(x) && isnan(y)) {
    if (denom == (LF_T)0 && (!isnan(a) || !isnan(b))) {
      x = copysignLF_F((LF_T)INFINITY, c) * a;
      y = copysignLF_F((LF_T)INFINITY, c) * b;
    } else if ((isinf(a) || isinf(b)) && isfinite(c) && isfinite(d)) {
      a = copysignLF_F(isinf(a) ? (LF_T)1 : (LF_T)0, a);
      b = copysignLF_F(isinf(b) ? (LF_T)1 : (LF_T)0, b);
      x = (LF_T)INFINITY * fmaLF_F(a, c, b * d);
      y = (LF_T)INFINITY * fmaLF_F(-a, d, b * c);
    } else if (isinf(logbw) && logbw > (LF_T)0 && isfinite(a) && isfinite(b)) {
      c = copysignLF_F(isinf(c) ? (LF_T)1 : (LF_T)0, c);
      d = copysignLF_F(isinf(d) ? (LF_T)1 : (LF_T)0, d);
      x = (LF_T)0 * fmaLF_F(a, c, b * d);
      y = (LF_T)0 * fmaLF_F(-a, d, b * c);
    }
  }
  return LF_C_make(x, y);
}
)";

// The same sums, differences and products written to be inlined and vectorised: where no
// operand and no result has a NaN part, each computes exactly what the function above computes
// (libcu++'s recovery of infinities and the choice between NaN operands happen only where a NaN
// is there), so a kernel uses them on a tile in which no complex value is NaN and computes the
// tile again with the functions above otherwise (checked_complex_body.h). The product's real
// part adds the negated product, which is subtraction by definition (the same bits): GCC 12
// recognises (ac - bd, ad + bc) as a complex product and vectorises it with fused
// multiply-adds (vfmaddsub), even with -ffp-contract=off, which rounds otherwise.
const char* const kInlineTemplate = R"(LF_C LF_C_add_inline(LF_C z, LF_C w)
{
  return LF_C_make(z.re + w.re, z.im + w.im);
}
LF_C LF_C_subtract_inline(LF_C z, LF_C w) { return LF_C_make(z.re - w.re, z.im - w.im); }
LF_C LF_C_multiply_inline(LF_C z, LF_C w)
{
  return LF_C_make(z.re * w.re + lf_negate_LF_N(z.im * w.im), z.re * w.im + z.im * w.re);
}
int LF_C_has_nan(LF_C z) { return isnan(z.re) | isnan(z.im); }
)";

// The operations with an inline form, as named in the kernels (lf_<dtype>_<name>).
const char* const kInlined[]      = {"add", "subtract", "multiply"};
const char* const kComplexTypes[] = {"complex64", "complex128"};

std::string replace_all(std::string text, const std::string& from, const std::string& to)
{
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// The real dtype of a complex dtype's parts.
std::string part_of(const std::string& dtype)
{
  return dtype == "complex64" ? "float32" : "float64";
}

std::string make(const std::string& dtype, const std::string& re, const std::string& im)
{
  return "lf_" + dtype + "_make(" + re + ", " + im + ")";
}

}  // namespace

bool is_complex(const std::string& dtype) { return dtype == "complex64" || dtype == "complex128"; }

std::optional<std::string> complex_expression(const std::string& op, const std::string& out,
                                              const std::vector<std::string>& ins,
                                              const std::vector<std::string>& operands,
                                              RealExpression real_expression)
{
  if (is_selection(op) && op != "BINARY_OP.MAXIMUM" && op != "BINARY_OP.MINIMUM") {
    return real_expression(op, out, ins, operands);  // a choice of values, whatever their type
  }
  if (op == "CONVERT.NOOP" && ins.size() == 1) {
    const auto& from = ins[0];
    const auto& a    = operands[0];
    if (is_complex(out) && is_complex(from)) {
      const auto part = out == "complex64" ? "(float)" : "(double)";
      return make(out, part + a + ".re", part + a + ".im");
    }
    if (is_complex(out)) {
      const auto re = real_expression(op, part_of(out), {from}, {a});
      return re ? std::optional<std::string>{make(out, *re, "0")} : std::nullopt;
    }
    if (out == "bool") {
      return "(" + a + ".re != 0 || " + a + ".im != 0)";
    }
    return real_expression(op, out, {part_of(from)}, {a + ".re"});
  }
  const bool same = !ins.empty() && is_complex(ins[0]) &&
                    (ins.size() == 1 || (ins.size() == 2 && ins[1] == ins[0]));
  if (!same) {
    return std::nullopt;
  }
  const auto& a = operands[0];
  if (op == "UNARY_OP.NEGATIVE" && out == ins[0]) {
    return make(out, "-" + a + ".re", "-" + a + ".im");
  }
  if (ins.size() != 2) {
    return std::nullopt;
  }
  const auto& b = operands[1];
  if (op == "BINARY_OP.EQUAL" && out == "bool") {
    return "(" + a + ".re == " + b + ".re && " + a + ".im == " + b + ".im)";
  }
  if (op == "BINARY_OP.NOT_EQUAL" && out == "bool") {
    return "(!(" + a + ".re == " + b + ".re && " + a + ".im == " + b + ".im))";
  }
  if (out != ins[0]) {
    return std::nullopt;
  }
  for (const char* name : {"ADD", "SUBTRACT", "MULTIPLY", "DIVIDE"}) {
    if (op == std::string("BINARY_OP.") + name) {
      std::string function = name;
      for (auto& c : function) {
        c = static_cast<char>(c - 'A' + 'a');
      }
      return "lf_" + out + "_" + function + "(" + a + ", " + b + ")";
    }
  }
  return std::nullopt;
}

std::string complex_helpers()
{
  std::string text = kOpaque;
  text +=
      "typedef struct { float re, im; } lf_complex64;\n"
      "typedef struct { double re, im; } lf_complex128;\n";
  const char* const types[][4] = {{"lf_complex64", "float", "f", "float32"},
                                  {"lf_complex128", "double", "", "float64"}};
  for (const auto& [name, type, suffix, real] : types) {
    auto functions = std::string(kMake) + declared_with(kTemplate, "LF_OPAQUE") +
                     declared_with(kInlineTemplate, "static inline");
    functions      = replace_all(functions, "LF_C", name);
    functions      = replace_all(functions, "LF_T", type);
    functions      = replace_all(functions, "LF_N", real);
    text += replace_all(functions, "LF_F", suffix);
  }
  return text;
}

bool has_inline_form(const std::string& op)
{
  for (const char* name : kInlined) {
    std::string upper = name;
    for (auto& c : upper) {
      c = static_cast<char>(c - 'a' + 'A');
    }
    if (op == "BINARY_OP." + upper) {
      return true;
    }
  }
  return false;
}

std::string complex_has_nan(const std::string& dtype, const std::string& value)
{
  return "lf_" + dtype + "_has_nan(" + value + ")";
}

std::string complex_loaded_by_parts(const std::string& dtype, const std::string& lvalue)
{
  return make(dtype, "(" + lvalue + ").re", "(" + lvalue + ").im");
}

std::string complex_inline_forms_begin()
{
  std::string text;
  for (const char* type : kComplexTypes) {
    for (const char* name : kInlined) {
      const auto function = std::string("lf_") + type + "_" + name;
      text += "#define " + function + " " + function + "_inline\n";
    }
  }
  return text;
}

std::string complex_inline_forms_end()
{
  std::string text;
  for (const char* type : kComplexTypes) {
    for (const char* name : kInlined) {
      text += std::string("#undef lf_") + type + "_" + name + "\n";
    }
  }
  return text;
}

}  // namespace legate_fuse::codegen
