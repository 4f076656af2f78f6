#include "codegen/c_vector_math.h"

#include <array>
#include <stdexcept>

#include "codegen/element_body.h"
#include "codegen/vector_exp.h"
#include "codegen/vector_expm1.h"
#include "codegen/vector_fdlibm_float32.h"
#include "codegen/vector_float32.h"
#include "codegen/vector_log.h"
#include "codegen/vector_log1p.h"

namespace legate_fuse::codegen {
namespace {

const std::array<VectorForm, 10> kForms{{
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
    {"expf", "LF_VECTOR_EXPF", "lf_expf_common", "lf_expf_special", vector_expf_check_main},
    {"logf", "LF_VECTOR_LOGF", "lf_logf_common", "lf_logf_special", vector_logf_check_main},
}};

// What every vector form uses: a value's bits and back (`bits` and `value` name the two
// functions, for a floating-point type and the unsigned integer of its width).
std::string bit_helpers(const std::string& bits, const std::string& value, const std::string& type,
                        const std::string& word)
{
  return "static inline " + word + " " + bits + "(" + type + " x)\n{\n  " + word +
         " u;\n  memcpy(&u, &x, sizeof u);\n  return u;\n}\nstatic inline " + type + " " + value +
         "(" + word + " u)\n{\n  " + type + " x;\n  memcpy(&x, &u, sizeof x);\n  return x;\n}\n";
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
  // tanh's form calls expm1's: the latter is compiled for either.
  return std::string(
             "#if LF_VECTOR_EXP || LF_VECTOR_LOG || LF_VECTOR_EXPF || LF_VECTOR_LOGF || "
             "LF_VECTOR_EXPM1 || LF_VECTOR_TANH || LF_VECTOR_LOG1P || LF_VECTOR_EXPM1F || "
             "LF_VECTOR_TANHF || LF_VECTOR_LOG1PF\n") +
         bit_helpers("lf_bits", "lf_double", "double", "uint64_t") +
         bit_helpers("lf_fbits", "lf_float", "float", "uint32_t") + "#endif\n#if LF_VECTOR_EXP\n" +
         vector_exp_helpers() + "#endif\n#if LF_VECTOR_LOG\n" + vector_log_helpers() +
         "#endif\n#if LF_VECTOR_EXPF\n" + vector_expf_helpers() + "#endif\n#if LF_VECTOR_LOGF\n" +
         vector_logf_helpers() + "#endif\n#if LF_VECTOR_EXPM1 || LF_VECTOR_TANH\n" +
         vector_expm1_helpers() + "#endif\n#if LF_VECTOR_TANH\n" + vector_tanh_helpers() +
         "#endif\n#if LF_VECTOR_LOG1P\n" + vector_log1p_helpers() +
         "#endif\n#if LF_VECTOR_EXPM1F || LF_VECTOR_TANHF\n" + vector_expm1f_helpers() +
         "#endif\n#if LF_VECTOR_TANHF\n" + vector_tanhf_helpers() +
         "#endif\n#if LF_VECTOR_LOG1PF\n" + vector_log1pf_helpers() + "#endif\n";
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
  if (node.inputs.size() != 1 || operand_dtype(spec, node.inputs[0]) != node.dtype) {
    return nullptr;
  }
  if (node.dtype != "float64" && node.dtype != "float32") {
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
  return nullptr;
}

}  // namespace legate_fuse::codegen
