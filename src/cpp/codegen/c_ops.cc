#include "codegen/c_ops.h"

#include <algorithm>
#include <unordered_map>

#include "codegen/arg_reduction.h"
#include "codegen/complex_float.h"
#include "codegen/half_float.h"

namespace legate_fuse::codegen {
namespace {

struct TypeInfo {
  const char* c_name;
  char kind;  // 'b' bool, 'i' signed, 'u' unsigned, 'f' floating, 'h' float16 (half_float.h)
  const char* unsigned_;  // same-width unsigned type, for wrap-around integer arithmetic
  const char* lowest;
  const char* highest;
};

const TypeInfo* info(const std::string& dtype)
{
  static const std::unordered_map<std::string, TypeInfo> types{
      {"bool", {"bool", 'b', "uint8_t", "false", "true"}},
      {"int8", {"int8_t", 'i', "uint8_t", "INT8_MIN", "INT8_MAX"}},
      {"int16", {"int16_t", 'i', "uint16_t", "INT16_MIN", "INT16_MAX"}},
      {"int32", {"int32_t", 'i', "uint32_t", "INT32_MIN", "INT32_MAX"}},
      {"int64", {"int64_t", 'i', "uint64_t", "INT64_MIN", "INT64_MAX"}},
      {"uint8", {"uint8_t", 'u', "uint8_t", "0", "UINT8_MAX"}},
      {"uint16", {"uint16_t", 'u', "uint16_t", "0", "UINT16_MAX"}},
      {"uint32", {"uint32_t", 'u', "uint32_t", "0", "UINT32_MAX"}},
      {"uint64", {"uint64_t", 'u', "uint64_t", "0", "UINT64_MAX"}},
      {"float16", {"float", 'h', "", "(-INFINITY)", "INFINITY"}},
      {"complex64", {"lf_complex64", 'c', "", "", ""}},
      {"complex128", {"lf_complex128", 'c', "", "", ""}},
      {"float32", {"float", 'f', "", "(-INFINITY)", "INFINITY"}},
      {"float64", {"double", 'f', "", "(-INFINITY)", "INFINITY"}},
  };
  const auto found = types.find(dtype);
  return found == types.end() ? nullptr : &found->second;
}

bool is_integer(const TypeInfo* t) { return t->kind == 'i' || t->kind == 'u'; }

// libm function name for the float type: sqrt / sqrtf.
std::string libm(const std::string& name, const std::string& dtype)
{
  return dtype == "float32" ? name + "f" : name;
}

std::string call(const std::string& fn, const std::vector<std::string>& x)
{
  std::string text = fn + "(";
  for (std::size_t i = 0; i < x.size(); ++i) {
    text += (i ? ", " : "") + x[i];
  }
  return text + ")";
}

std::string wrap(const TypeInfo* t, const std::string& a, const char* op, const std::string& b)
{
  return std::string("((") + t->c_name + ")((" + t->unsigned_ + ")(" + a + ") " + op + " (" +
         t->unsigned_ + ")(" + b + ")))";
}

std::optional<std::string> comparison(const std::string& name, const std::vector<std::string>& x)
{
  static const std::unordered_map<std::string, const char*> ops{
      {"EQUAL", "=="},      {"NOT_EQUAL", "!="}, {"LESS", "<"},
      {"LESS_EQUAL", "<="}, {"GREATER", ">"},    {"GREATER_EQUAL", ">="}};
  const auto found = ops.find(name);
  if (found == ops.end()) {
    return std::nullopt;
  }
  return "(" + x[0] + " " + found->second + " " + x[1] + ")";
}

std::optional<std::string> logical(const std::string& name, const std::vector<std::string>& x)
{
  const std::string a = "(" + x[0] + " != 0)", b = "(" + x[1] + " != 0)";
  if (name == "LOGICAL_AND") return "(" + a + " && " + b + ")";
  if (name == "LOGICAL_OR") return "(" + a + " || " + b + ")";
  if (name == "LOGICAL_XOR") return "(" + a + " != " + b + ")";
  return std::nullopt;
}

std::optional<std::string> conversion(const std::string& mode, const std::string& out,
                                      const std::string& in, const std::string& a);

std::optional<std::string> binary(const std::string& name, const std::string& out,
                                  const std::string& in, const std::vector<std::string>& x)
{
  const TypeInfo* t = info(in);
  if (out == "bool" && name != "ADD" && name != "MULTIPLY" && name.rfind("BITWISE", 0) != 0 &&
      name != "MAXIMUM" && name != "MINIMUM") {
    if (auto e = comparison(name, x)) return e;
    if (auto e = logical(name, x)) return e;
  }
  // cuPyNumeric divides integers and bools as NumPy does, into float64: static_cast<double>(a)
  // / b (b converted to double for the division).
  if (name == "DIVIDE" && out == "float64" && (is_integer(t) || t->kind == 'b')) {
    return "((double)" + x[0] + " / (double)" + x[1] + ")";
  }
  if (out != in) {
    return std::nullopt;
  }
  const std::string& a = x[0];
  const std::string& b = x[1];
  if (t->kind == 'f') {
    static const std::unordered_map<std::string, const char*> arithmetic{
        {"ADD", "+"}, {"SUBTRACT", "-"}, {"MULTIPLY", "*"}, {"DIVIDE", "/"}};
    if (const auto op = arithmetic.find(name); op != arithmetic.end()) {
      return "(" + a + " " + op->second + " " + b + ")";
    }
    // cuPyNumeric raises float32 to a power in double precision (std::pow promotes a float
    // to double), which rounds differently from powf in about 1 case in 2,000.
    if ((name == "POWER" || name == "FLOAT_POWER") && in == "float32") {
      return "((float)pow((double)" + a + ", (double)" + b + "))";
    }
    static const std::unordered_map<std::string, const char*> functions{
        {"POWER", "pow"},   {"FLOAT_POWER", "pow"},   {"ARCTAN2", "atan2"},
        {"HYPOT", "hypot"}, {"COPYSIGN", "copysign"}, {"FMOD", "fmod"}};
    if (const auto fn = functions.find(name); fn != functions.end()) {
      return call(libm(fn->second, in), x);
    }
    // As cuPyNumeric computes them (std::max / std::min): a NaN in `b` is not propagated.
    if (name == "MAXIMUM") return "(" + a + " < " + b + " ? " + b + " : " + a + ")";
    if (name == "MINIMUM") return "(" + b + " < " + a + " ? " + b + " : " + a + ")";
    if (name == "FLOOR_DIVIDE") return libm("floor", in) + "(" + a + " / " + b + ")";
    if (name == "MOD") return call("lf_remainder_" + in, x);
    return std::nullopt;
  }
  if (is_integer(t)) {
    if (name == "ADD") return wrap(t, a, "+", b);
    if (name == "SUBTRACT") return wrap(t, a, "-", b);
    if (name == "MULTIPLY") return wrap(t, a, "*", b);
    if (name == "MAXIMUM") return "(" + a + " > " + b + " ? " + a + " : " + b + ")";
    if (name == "MINIMUM") return "(" + a + " < " + b + " ? " + a + " : " + b + ")";
    // cuPyNumeric raises integers to a power in double precision, rounds half away from zero
    // (2 ** -1 is 1) and converts the result back: exact up to 2^53, and as the conversion
    // instructions make it beyond (an overflow gives the minimum of a 32- or 64-bit type, 0 in
    // the narrower ones), unlike NumPy, which computes in integers.
    if (name == "POWER") {
      return conversion("NOOP", in, "float64", "round(pow((double)" + a + ", (double)" + b + "))");
    }
    if (name == "BITWISE_AND") return "((" + std::string(t->c_name) + ")(" + a + " & " + b + "))";
    if (name == "BITWISE_OR") return "((" + std::string(t->c_name) + ")(" + a + " | " + b + "))";
    if (name == "BITWISE_XOR") return "((" + std::string(t->c_name) + ")(" + a + " ^ " + b + "))";
    // As cuPyNumeric divides integers: C's truncating `/` and `%` in the promoted type, floored
    // for signed operands (helpers of element_body.h); a zero divisor traps in both.
    if (name == "FMOD") return "((" + std::string(t->c_name) + ")(" + a + " % " + b + "))";
    if (t->kind == 'u') {
      if (name == "FLOOR_DIVIDE")
        return "((" + std::string(t->c_name) + ")(" + a + " / " + b + "))";
      if (name == "MOD") return "((" + std::string(t->c_name) + ")(" + a + " % " + b + "))";
    } else {
      if (name == "FLOOR_DIVIDE") return call("lf_floor_divide_" + in, x);
      if (name == "MOD") return call("lf_mod_" + in, x);
    }
    return std::nullopt;
  }
  // bool
  if (name == "ADD" || name == "MAXIMUM" || name == "BITWISE_OR") return "(" + a + " || " + b + ")";
  if (name == "MULTIPLY" || name == "MINIMUM" || name == "BITWISE_AND")
    return "(" + a + " && " + b + ")";
  if (name == "BITWISE_XOR") return "(" + a + " != " + b + ")";
  return std::nullopt;
}

std::optional<std::string> unary(const std::string& name, const std::string& out,
                                 const std::string& in, const std::string& a)
{
  const TypeInfo* t = info(in);
  if (out == "bool" && in != "bool") {
    if (name == "LOGICAL_NOT") return "(" + a + " == 0)";
    if (t->kind == 'f') {
      if (name == "ISNAN") return "(isnan(" + a + ") != 0)";
      if (name == "ISINF") return "(isinf(" + a + ") != 0)";
      if (name == "ISFINITE") return "(isfinite(" + a + ") != 0)";
      if (name == "SIGNBIT") return "(signbit(" + a + ") != 0)";
    } else {
      if (name == "ISNAN" || name == "ISINF") return std::string("false");
      if (name == "ISFINITE") return std::string("true");
      if (name == "SIGNBIT") return t->kind == 'i' ? "(" + a + " < 0)" : std::string("false");
    }
    return std::nullopt;
  }
  if (out != in) {
    return std::nullopt;
  }
  if (name == "COPY" || name == "POSITIVE") return a;
  const std::string type = t->c_name;
  if (t->kind == 'f') {
    static const std::unordered_map<std::string, const char*> functions{
        {"ABSOLUTE", "fabs"}, {"SQRT", "sqrt"},   {"EXP", "exp"},       {"EXP2", "exp2"},
        {"EXPM1", "expm1"},   {"LOG", "log"},     {"LOG2", "log2"},     {"LOG10", "log10"},
        {"LOG1P", "log1p"},   {"SIN", "sin"},     {"COS", "cos"},       {"TAN", "tan"},
        {"ARCSIN", "asin"},   {"ARCCOS", "acos"}, {"ARCTAN", "atan"},   {"SINH", "sinh"},
        {"COSH", "cosh"},     {"TANH", "tanh"},   {"ARCSINH", "asinh"}, {"ARCCOSH", "acosh"},
        {"ARCTANH", "atanh"}, {"CBRT", "cbrt"},   {"FLOOR", "floor"},   {"CEIL", "ceil"},
        {"TRUNC", "trunc"},   {"RINT", "rint"}};
    if (const auto fn = functions.find(name); fn != functions.end()) {
      const auto value = libm(fn->second, in) + "(" + a + ")";
      // cuPyNumeric's float64 logarithms of negative numbers give a positive quiet NaN (the C
      // library's is negative).
      if (in == "float64" && (name == "LOG" || name == "LOG2" || name == "LOG10")) {
        return "(" + a + " < 0 ? (" + type + ")NAN : " + value + ")";
      }
      return value;
    }
    // By its sign bit: the compiler folds `-a + b` into `b - a`, which returns a NaN `a` with
    // its own sign where cuPyNumeric, negating first, returns it with the sign flipped.
    if (name == "NEGATIVE") return "lf_negate_" + in + "(" + a + ")";
    if (name == "SQUARE") return "(" + a + " * " + a + ")";
    // cuPyNumeric's reciprocal of zero is zero; its sign of NaN is zero.
    if (name == "RECIPROCAL")
      return "(" + a + " == 0 ? (" + type + ")0 : (" + type + ")1 / " + a + ")";
    if (name == "SIGN") {
      return "(" + a + " > 0 ? (" + type + ")1 : (" + a + " < 0 ? (" + type + ")-1 : (" + type +
             ")0))";
    }
    return std::nullopt;
  }
  if (is_integer(t)) {
    if (name == "NEGATIVE") return wrap(t, "0", "-", a);
    if (name == "SQUARE") return wrap(t, a, "*", a);
    if (name == "ABSOLUTE")
      return t->kind == 'u' ? a : "(" + a + " < 0 ? " + wrap(t, "0", "-", a) + " : " + a + ")";
    if (name == "SIGN") return "((" + type + ")((" + a + " > 0) - (" + a + " < 0)))";
    if (name == "INVERT") return "((" + type + ")~" + a + ")";
    return std::nullopt;
  }
  // bool
  if (name == "ABSOLUTE") return a;
  if (name == "INVERT" || name == "LOGICAL_NOT") return "(!" + a + ")";
  return std::nullopt;
}

std::optional<std::string> conversion(const std::string& mode, const std::string& out,
                                      const std::string& in, const std::string& a)
{
  const TypeInfo* from = info(in);
  std::string value    = a;
  if (from->kind == 'f' && mode == "SUM") {
    value = "(isnan(" + a + ") ? (" + from->c_name + ")0 : " + a + ")";
  } else if (from->kind == 'f' && mode == "PROD") {
    value = "(isnan(" + a + ") ? (" + from->c_name + ")1 : " + a + ")";
  } else if (mode != "NOOP" && mode != "SUM" && mode != "PROD") {
    return std::nullopt;
  }
  if (out == "bool") {
    return "(" + value + " != 0)";
  }
  const TypeInfo* to = info(out);
  if (from->kind == 'f' && to->kind == 'u') {
    // Floating point to unsigned as generic x86-64 code does it (through a signed conversion),
    // which is what cuPyNumeric's kernels compute; a direct conversion
    // instruction would saturate out-of-range values instead.
    if (out == "uint64") {
      return "(" + value + " < 9223372036854775808.0 ? (uint64_t)(int64_t)" + value +
             " : ((uint64_t)(int64_t)(" + value +
             " - 9223372036854775808.0) ^ 0x8000000000000000ULL))";
    }
    // Narrower than 32 bits: through a signed 32-bit conversion, as generic code does it.
    const bool narrow = out == "uint8" || out == "uint16";
    return "((" + std::string(to->c_name) + ")(" + (narrow ? "int32_t" : "int64_t") + ")" + value +
           ")";
  }
  return "((" + std::string(to->c_name) + ")" + value + ")";
}

std::string single_for_half(const std::string& dtype)
{
  return is_half(dtype) ? std::string("float32") : dtype;
}

std::optional<std::string> expression(const std::string& op, const std::string& out_dtype,
                                      const std::vector<std::string>& in_dtypes,
                                      const std::vector<std::string>& operands);

// An operation with a float16 result or operand (half_float.h): computed as in float32 on the
// operands' values (a NaN's value is the one positive NaN `__half` widens every NaN to), the
// result rounded to float16; selections take the operands' bits as they are. Conversions go
// through double, as cuPyNumeric's ConvertOp for float16 does: into float16 rounded once, out
// of it as from a double, except that a NaN converts to integer 0 there.
std::optional<std::string> half_expression(const std::string& op, const std::string& out,
                                           const std::vector<std::string>& ins,
                                           const std::vector<std::string>& operands)
{
  if (op == "UNARY_OP.CLIP" || op == "ARANGE") {
    return std::nullopt;  // run-time scalars of float16 are not passed
  }
  std::vector<std::string> singles, values;
  for (std::size_t k = 0; k < ins.size(); ++k) {
    singles.push_back(single_for_half(ins[k]));
    values.push_back(is_half(ins[k]) ? half_value(operands[k]) : operands[k]);
  }
  if (is_selection(op)) {
    return expression(op, single_for_half(out), singles, operands);
  }
  if (op.rfind("CONVERT.", 0) == 0 && ins.size() == 1) {
    if (is_half(out)) {
      if (is_half(ins[0])) {
        return op == "CONVERT.NOOP" ? std::optional<std::string>{operands[0]} : std::nullopt;
      }
      const auto wide = expression(op, "float64", singles, values);
      return wide ? std::optional<std::string>{half_rounded_from_double(*wide)} : std::nullopt;
    }
    const auto value   = expression(op, out, {"float64"}, {"((double)" + values[0] + ")"});
    const TypeInfo* to = info(out);
    if (!value || !is_integer(to)) {
      return value;
    }
    // Explicitly: a NaN's conversion to an integer is undefined in C. (GCC folds the one NaN
    // of lf_half_value to 0 by itself, so no test on GCC can tell this test from its absence.)
    return "(isnan(" + operands[0] + ") ? (" + to->c_name + ")0 : " + *value + ")";
  }
  const auto single = expression(op, single_for_half(out), singles, values);
  if (!single || !is_half(out)) {
    return single;
  }
  return half_rounded(*single);
}

}  // namespace

std::optional<std::string> c_type(const std::string& dtype)
{
  const TypeInfo* t = info(dtype);
  return t ? std::optional<std::string>{t->c_name} : argval_c_type(dtype);
}

std::optional<std::string> c_expression(const std::string& op, const std::string& out_dtype,
                                        const std::vector<std::string>& in_dtypes,
                                        const std::vector<std::string>& operands)
{
  if (in_dtypes.size() == operands.size() &&
      (is_argval(out_dtype) ||
       std::any_of(in_dtypes.begin(), in_dtypes.end(),
                   [](const auto& d) { return is_argval(d); }) ||
       ir::parse_argval_node(op))) {
    return argval_expression(op, out_dtype, in_dtypes, operands);
  }
  if (!info(out_dtype) || in_dtypes.size() != operands.size()) {
    return std::nullopt;
  }
  bool half = is_half(out_dtype), complex = is_complex(out_dtype);
  for (const auto& dtype : in_dtypes) {
    if (!info(dtype)) {
      return std::nullopt;
    }
    half    = half || is_half(dtype);
    complex = complex || is_complex(dtype);
  }
  if (half && complex) {
    return std::nullopt;
  }
  if (complex) {
    return complex_expression(op, out_dtype, in_dtypes, operands, expression);
  }
  return half ? half_expression(op, out_dtype, in_dtypes, operands)
              : expression(op, out_dtype, in_dtypes, operands);
}

bool is_selection(const std::string& op)
{
  return op == "UNARY_OP.COPY" || op == "UNARY_OP.POSITIVE" || op == "BINARY_OP.MAXIMUM" ||
         op == "BINARY_OP.MINIMUM" || op.rfind("WHERE", 0) == 0 || op.rfind("PUTMASK", 0) == 0 ||
         op.rfind("FILL", 0) == 0;
}

namespace {

// c_expression on dtypes other than float16.
std::optional<std::string> expression(const std::string& op, const std::string& out_dtype,
                                      const std::vector<std::string>& in_dtypes,
                                      const std::vector<std::string>& operands)
{
  const auto dot         = op.find('.');
  const std::string kind = op.substr(0, dot);
  const std::string name = dot == std::string::npos ? "" : op.substr(dot + 1);
  if (kind == "BINARY_OP" && operands.size() == 2 && in_dtypes[0] == in_dtypes[1]) {
    return binary(name, out_dtype, in_dtypes[0], operands);
  }
  if (kind == "UNARY_OP" && operands.size() == 1) {
    return unary(name, out_dtype, in_dtypes[0], operands[0]);
  }
  if (op == "UNARY_OP.CLIP" && operands.size() == 3 && in_dtypes[0] == out_dtype &&
      in_dtypes[1] == out_dtype && in_dtypes[2] == out_dtype) {
    // cuPyNumeric's CLIP: (x < min) ? min : (x > max) ? max : x. A NaN stays NaN.
    const auto& x = operands[0];
    return "(" + x + " < " + operands[1] + " ? " + operands[1] + " : (" + x + " > " + operands[2] +
           " ? " + operands[2] + " : " + x + "))";
  }
  if (kind == "CONVERT" && operands.size() == 1) {
    return conversion(name, out_dtype, in_dtypes[0], operands[0]);
  }
  if (kind == "WHERE" && operands.size() == 3 && in_dtypes[0] == "bool" &&
      in_dtypes[1] == out_dtype && in_dtypes[2] == out_dtype) {
    return "(" + operands[0] + " ? " + operands[1] + " : " + operands[2] + ")";
  }
  // cuPyNumeric's arange: static_cast<VAL>(idx) * step + start, in the output's type; its
  // floating-point kernel is built with the product and the sum contracted into one fused
  // multiply-add (one rounding), which fma() computes exactly so.
  if (op == "ARANGE" && operands.size() == 3 && in_dtypes[0] == "int64" &&
      in_dtypes[1] == out_dtype && in_dtypes[2] == out_dtype && out_dtype != "bool") {
    const TypeInfo* t      = info(out_dtype);
    const std::string type = t->c_name;
    const std::string idx  = "((" + type + ")" + operands[0] + ")";
    if (t->kind == 'f') {
      const std::string fma = libm("fma", out_dtype);
      return fma + "(" + idx + ", " + operands[2] + ", " + operands[1] + ")";
    }
    return wrap(t, wrap(t, idx, "*", operands[2]), "+", operands[1]);
  }
  // cuPyNumeric's putmask: where the mask is set, the value; elsewhere the array, unchanged.
  if (kind == "PUTMASK" && operands.size() == 3 && in_dtypes[0] == out_dtype &&
      in_dtypes[1] == "bool" && in_dtypes[2] == out_dtype) {
    return "(" + operands[1] + " ? " + operands[2] + " : " + operands[0] + ")";
  }
  if (kind == "FILL" && operands.size() == 1 && in_dtypes[0] == out_dtype) {
    return operands[0];
  }
  return std::nullopt;
}

}  // namespace

bool is_library_call(const std::string& op, const std::vector<std::string>& in_dtypes)
{
  if (op == "BINARY_OP.POWER" && !in_dtypes.empty() && info(in_dtypes[0]) &&
      is_integer(info(in_dtypes[0]))) {
    return true;  // pow() in double precision
  }
  if (in_dtypes.empty() || in_dtypes[0].rfind("float", 0) != 0) {
    return false;
  }
  static const std::unordered_map<std::string, bool> calls{
      // Single instructions (or a compare and a select) on x86-64 and AArch64.
      {"UNARY_OP.ABSOLUTE", false},
      {"UNARY_OP.SQRT", false},
      {"UNARY_OP.FLOOR", false},
      {"UNARY_OP.CEIL", false},
      {"UNARY_OP.TRUNC", false},
      {"UNARY_OP.RINT", false},
      {"BINARY_OP.COPYSIGN", false},
      {"BINARY_OP.FLOOR_DIVIDE", false},
      // Out-of-line C library functions.
      {"BINARY_OP.POWER", true},
      {"BINARY_OP.FLOAT_POWER", true},
      {"BINARY_OP.ARCTAN2", true},
      {"BINARY_OP.HYPOT", true},
      {"BINARY_OP.FMOD", true},
      {"BINARY_OP.MOD", true}};
  if (const auto found = calls.find(op); found != calls.end()) {
    return found->second;
  }
  // Every other floating-point function of the unary table (exp, log, sin, ...) is a call.
  static const char* const unary_functions[] = {"EXP",    "EXP2",    "EXPM1",   "LOG",     "LOG2",
                                                "LOG10",  "LOG1P",   "SIN",     "COS",     "TAN",
                                                "ARCSIN", "ARCCOS",  "ARCTAN",  "SINH",    "COSH",
                                                "TANH",   "ARCSINH", "ARCCOSH", "ARCTANH", "CBRT"};
  for (const char* name : unary_functions) {
    if (op == std::string("UNARY_OP.") + name) {
      return true;
    }
  }
  return false;
}

std::optional<std::string> reduction_identity(const std::string& op, const std::string& dtype)
{
  if (is_argval(dtype)) {
    return argval_identity(op, dtype);
  }
  const TypeInfo* t = info(dtype);
  if (!t || is_half(dtype) || t->kind == 'c') return std::nullopt;
  const std::string type = t->c_name;
  if (op == "SUM" || (op == "SUM_PRODUCT" && t->kind == 'f')) return "((" + type + ")0)";
  if (op == "PROD") return "((" + type + ")1)";
  if (op == "MAX") return "((" + type + ")" + t->lowest + ")";
  if (op == "MIN") return "((" + type + ")" + t->highest + ")";
  if (op == "ALL" && dtype == "bool") return std::string("true");
  if (op == "ANY" && dtype == "bool") return std::string("false");
  return std::nullopt;
}

std::optional<std::string> product_fold(const std::string& dtype, const std::string& acc,
                                        const std::string& first, const std::string& second)
{
  if (dtype == "float64") return "fma(" + first + ", " + second + ", " + acc + ")";
  if (dtype == "float32") return "fmaf(" + first + ", " + second + ", " + acc + ")";
  return std::nullopt;
}

bool reduction_free_of_order(const std::string& dtype)
{
  const TypeInfo* t = info(dtype);
  return t != nullptr && (is_integer(t) || t->kind == 'b');
}

std::optional<std::string> reduction_combine(const std::string& op, const std::string& dtype,
                                             const std::string& acc, const std::string& value)
{
  if (is_argval(dtype)) {
    return argval_combine(op, dtype, acc, value);
  }
  const TypeInfo* t = info(dtype);
  if (!t || is_half(dtype) || t->kind == 'c') return std::nullopt;
  if (op == "ALL")
    return dtype == "bool" ? std::optional<std::string>{"(" + acc + " && (" + value + " != 0))"}
                           : std::nullopt;
  if (op == "ANY")
    return dtype == "bool" ? std::optional<std::string>{"(" + acc + " || (" + value + " != 0))"}
                           : std::nullopt;
  if (t->kind == 'b') {
    if (op == "SUM" || op == "MAX") return "(" + acc + " || " + value + ")";
    if (op == "PROD" || op == "MIN") return "(" + acc + " && " + value + ")";
    return std::nullopt;
  }
  if (op == "SUM")
    return is_integer(t) ? wrap(t, acc, "+", value) : "(" + acc + " + " + value + ")";
  if (op == "SUM_PRODUCT" && t->kind == 'f') return "(" + acc + " + " + value + ")";
  if (op == "PROD")
    return is_integer(t) ? wrap(t, acc, "*", value) : "(" + acc + " * " + value + ")";
  // As Legate's and cuPyNumeric's max/min reductions (std::max / std::min): NaN is skipped.
  if (op == "MAX") return "(" + acc + " < " + value + " ? " + value + " : " + acc + ")";
  if (op == "MIN") return "(" + value + " < " + acc + " ? " + value + " : " + acc + ")";
  return std::nullopt;
}

}  // namespace legate_fuse::codegen
