#include "codegen/c_vector_math.h"

#include <array>
#include <stdexcept>

#include "codegen/element_body.h"
#include "codegen/vector_exp.h"
#include "codegen/vector_log.h"

namespace legate_fuse::codegen {
namespace {

const std::array<VectorForm, 2> kForms{{
    {"exp", "LF_VECTOR_EXP", "lf_exp_common", "lf_exp_special"},
    {"log", "LF_VECTOR_LOG", "lf_log_common", "lf_log_special"},
}};

// What every vector form uses: a double's bits and back.
const char* const kBitHelpers = R"(
static inline uint64_t lf_bits(double x)
{
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}
static inline double lf_double(uint64_t u)
{
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}
)";

}  // namespace

std::string vector_math_helpers()
{
  return std::string("#if LF_VECTOR_EXP || LF_VECTOR_LOG\n") + kBitHelpers + "#endif\n" +
         "#if LF_VECTOR_EXP\n" + vector_exp_helpers() + "#endif\n" + "#if LF_VECTOR_LOG\n" +
         vector_log_helpers() + "#endif\n";
}

std::string vector_math_check_program(const std::string& function)
{
  std::string main;
  if (function == "exp") {
    main = vector_exp_check_main();
  } else if (function == "log") {
    main = vector_log_check_main();
  } else {
    throw std::invalid_argument("no vector form of " + function);
  }
  const std::string macro = function == "exp" ? "LF_VECTOR_EXP" : "LF_VECTOR_LOG";
  return "#include <math.h>\n#include <stdint.h>\n#include <string.h>\n#define " + macro + " 1\n" +
         vector_math_helpers() + main;
}

const VectorForm* vector_form_of(const KernelSpec& spec, std::size_t n)
{
  const auto& node = spec.nodes[n];
  if (node.dtype != "float64" || node.inputs.size() != 1 ||
      operand_dtype(spec, node.inputs[0]) != "float64") {
    return nullptr;
  }
  if (node.op == "UNARY_OP.EXP") {
    return &kForms[0];
  }
  if (node.op == "UNARY_OP.LOG") {
    return &kForms[1];
  }
  return nullptr;
}

}  // namespace legate_fuse::codegen
