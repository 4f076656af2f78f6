#include "codegen/c_vector_math.h"

#include <array>
#include <stdexcept>
#include <utility>

#include "codegen/element_body.h"
#include "codegen/vector_exp.h"
#include "codegen/vector_expm1.h"
#include "codegen/vector_fdlibm_float32.h"
#include "codegen/vector_float32.h"
#include "codegen/vector_log.h"
#include "codegen/vector_log1p.h"
#include "codegen/vector_pow.h"
#include "codegen/vector_sincos.h"

namespace legate_fuse::codegen {
namespace {

const std::array<VectorForm, 15> kForms{{
    {"exp", "LF_VECTOR_EXP", "lf_exp_common", "lf_exp_special", vector_exp_check_main},
    {"log", "LF_VECTOR_LOG", "lf_log_common", "lf_log_special", vector_log_check_main},
    {"expm1", "LF_VECTOR_EXPM1", "lf_expm1_common", "lf_expm1_special", vector_expm1_check_main},
    {"tanh", "LF_VECTOR_TANH", "lf_tanh_common", "lf_tanh_special", vector_tanh_check_main},
    {"log1p", "LF_VECTOR_LOG1P", "lf_log1p_common", "lf_log1p_special", vector_log1p_check_main},
    {"expm1f", "LF_VECTOR_EXPM1F", "lf_expm1f_common", "lf_expm1f_special",
     vector_expm1f_check_main},
    {"tanhf", "LF_VECTOR_TANHF", "lf_tanhf_common", "lf_tanhf_special", vector_tanhf_check_main},
    {"log1pf", "LF_VECTOR_LOG1PF", "lf_log1pf_common", "lf_log1pf_special",
     vector_log1pf_check_main},
    {"sin", "LF_VECTOR_SIN", "lf_sin_common", "lf_sin_special", vector_sin_check_main},
    {"cos", "LF_VECTOR_COS", "lf_cos_common", "lf_cos_special", vector_cos_check_main},
    {"sinf", "LF_VECTOR_SINF", "lf_sinf_common", "lf_sinf_special", vector_sinf_check_main},
    {"cosf", "LF_VECTOR_COSF", "lf_cosf_common", "lf_cosf_special", vector_cosf_check_main},
    {"pow", "LF_VECTOR_POW", "lf_pow_common", "lf_pow_special", vector_pow_check_main, 2, true},
    {"expf", "LF_VECTOR_EXPF", "lf_expf_common", "lf_expf_special", vector_expf_check_main},
    {"logf", "LF_VECTOR_LOGF", "lf_logf_common", "lf_logf_special", vector_logf_check_main},
}};

// Every helper of the vector forms is inlined wherever it is called: GCC stops inlining a
// function called in many places (a kernel of ten iterations of tanh called it ten times in one
// loop), and a call left in a loop stops its vectorisation (95 ms per iteration of the tanh
// chain at 1e7 elements, against 16 inlined).
const std::string kInline =
    "#if defined(__GNUC__)\n#define LF_INLINE static inline __attribute__((always_inline))\n#else\n"
    "#define LF_INLINE static inline\n#endif\n";

// A lane's choice between two values by a mask of all ones or zeros (LF_MASK of a condition):
// the forms compute every path and keep one, as a branch would stop GCC from vectorising.
// LF_BLEND chooses as b ^ ((a ^ b) & mask): GCC 12 folds the ~mask of LF_SELECT into a branch,
// and without AVX-512's masked instructions it may then not compute a floating-point operation
// on the side not taken (it could raise an exception flag), so the loop stays scalar. On an
// AVX2 CPU the expm1 and tanh forms, written with LF_SELECT, were 3-4x slower than the C
// library, 2x faster with LF_BLEND; float32's forms all vectorise with the blend. The sin and
// cos forms' double choices are slower blended (their loops stay scalar then): they keep
// LF_SELECT. Which is faster is measured, per form, by its check program.
const char* const kSelect = R"(#define LF_MASK(condition) (0 - (uint64_t)(condition))
#define LF_SELECT(mask, a, b) lf_double((lf_bits(a) & (mask)) | (lf_bits(b) & ~(mask)))
#define LF_BLEND(mask, a, b) lf_double(lf_bits(b) ^ ((lf_bits(a) ^ lf_bits(b)) & (mask)))
#define LF_MASK32(condition) (0u - (uint32_t)(condition))
#define LF_SELECT32(mask, a, b) lf_float(lf_fbits(b) ^ ((lf_fbits(a) ^ lf_fbits(b)) & (mask)))
)";

// What every vector form uses: a value's bits and back (`bits` and `value` name the two
// functions, for a floating-point type and the unsigned integer of its width).
std::string bit_helpers(const std::string& bits, const std::string& value, const std::string& type,
                        const std::string& word)
{
  return "LF_INLINE " + word + " " + bits + "(" + type + " x)\n{\n  " + word +
         " u;\n  memcpy(&u, &x, sizeof u);\n  return u;\n}\nLF_INLINE " + type + " " + value + "(" +
         word + " u)\n{\n  " + type + " x;\n  memcpy(&x, &u, sizeof x);\n  return x;\n}\n";
}

// The form of the C library's function `name`, or nullptr.
const VectorForm* form_named(const std::string& name)
{
  for (const auto& form : kForms) {
    if (name == form.function) {
      return &form;
    }
  }
  return nullptr;
}

}  // namespace

std::string vector_math_helpers()
{
  // Each piece of C under the condition in which it is compiled: the bit helpers for any form,
  // shared cores (expm1's, which tanh's form calls; sin's and cos's) for any form using them.
  std::string any_form = "0";
  for (const auto& form : kForms) {
    any_form += std::string(" || ") + form.macro;
  }
  const std::array<std::pair<std::string, std::string>, 19> pieces{{
      {any_form, kInline + bit_helpers("lf_bits", "lf_double", "double", "uint64_t") +
                     bit_helpers("lf_fbits", "lf_float", "float", "uint32_t") + kSelect},
      {"LF_VECTOR_EXP || LF_VECTOR_POW", vector_exp_table()},
      {"LF_VECTOR_EXP", vector_exp_helpers()},
      {"LF_VECTOR_LOG", vector_log_helpers()},
      {"LF_VECTOR_EXPF", vector_expf_helpers()},
      {"LF_VECTOR_LOGF", vector_logf_helpers()},
      {"LF_VECTOR_EXPM1 || LF_VECTOR_TANH", vector_expm1_helpers()},
      {"LF_VECTOR_TANH", vector_tanh_helpers()},
      {"LF_VECTOR_LOG1P", vector_log1p_helpers()},
      {"LF_VECTOR_EXPM1F || LF_VECTOR_TANHF", vector_expm1f_helpers()},
      {"LF_VECTOR_TANHF", vector_tanhf_helpers()},
      {"LF_VECTOR_LOG1PF", vector_log1pf_helpers()},
      {"LF_VECTOR_SIN || LF_VECTOR_COS", vector_sincos_core()},
      {"LF_VECTOR_SIN", vector_sin_helpers()},
      {"LF_VECTOR_COS", vector_cos_helpers()},
      {"LF_VECTOR_SINF || LF_VECTOR_COSF", vector_sincosf_core()},
      {"LF_VECTOR_SINF", vector_sinf_helpers()},
      {"LF_VECTOR_COSF", vector_cosf_helpers()},
      {"LF_VECTOR_POW", vector_pow_helpers()},
  }};
  std::string out;
  for (const auto& [condition, code] : pieces) {
    out += "#if " + condition + "\n" + code + "#endif\n";
  }
  return out;
}

std::string vector_math_defaults()
{
  std::string out;
  for (const auto& form : kForms) {
    out += std::string("#ifndef ") + form.macro + "\n#define " + form.macro + " 0\n#endif\n";
  }
  return out;
}

std::string vector_math_check_program(const std::string& function)
{
  const VectorForm* form = form_named(function);
  if (form == nullptr) {
    throw std::invalid_argument("no vector form of " + function);
  }
  return std::string("#include <math.h>\n#include <stdint.h>\n#include <string.h>\n#define ") +
         form->macro + " 1\n" + vector_math_helpers() + form->check_main();
}

const VectorForm* vector_form_of(const KernelSpec& spec, std::size_t n)
{
  const auto& node = spec.nodes[n];
  if (node.dtype != "float64" && node.dtype != "float32") {
    return nullptr;
  }
  for (const auto& input : node.inputs) {
    if (operand_dtype(spec, input) != node.dtype) {
      return nullptr;
    }
  }
  if (node.inputs.size() == 2) {
    // float32 powers too: cuPyNumeric computes them as (float)pow((double)x, (double)y), and C
    // does the same with the form, which takes and returns doubles: its float operands are
    // widened, and its value rounded to float where the tile buffer of the node stores it.
    const bool power = node.op == "BINARY_OP.POWER" || node.op == "BINARY_OP.FLOAT_POWER";
    return power ? form_named("pow") : nullptr;
  }
  if (node.inputs.size() != 1) {
    return nullptr;
  }
  const std::string suffix = node.dtype == "float32" ? "f" : "";  // expf, logf
  if (node.op == "UNARY_OP.EXP") {
    return form_named("exp" + suffix);
  }
  if (node.op == "UNARY_OP.LOG") {
    return form_named("log" + suffix);
  }
  if (node.op == "UNARY_OP.EXPM1") {
    return form_named("expm1" + suffix);
  }
  if (node.op == "UNARY_OP.TANH") {
    return form_named("tanh" + suffix);
  }
  if (node.op == "UNARY_OP.LOG1P") {
    return form_named("log1p" + suffix);
  }
  if (node.op == "UNARY_OP.SIN") {
    return form_named("sin" + suffix);
  }
  if (node.op == "UNARY_OP.COS") {
    return form_named("cos" + suffix);
  }
  return nullptr;
}

}  // namespace legate_fuse::codegen
