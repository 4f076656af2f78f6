#include "codegen/cuda_renderer.h"

#include <sstream>

#include "codegen/c_ops.h"
#include "codegen/c_renderer.h"
#include "codegen/element_body.h"
#include "codegen/kernel_abi_text.h"
#include "codegen/value_outputs.h"

namespace legate_fuse::codegen {
namespace {

// NVRTC compiles without the C library headers: the names the C expressions use are defined
// here. Math functions (exp, isnan, ...) are CUDA's device functions, as in cuPyNumeric's
// GPU kernels.
const char* const kPrelude = R"(typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
#define INT8_MIN (-128)
#define INT8_MAX 127
#define INT16_MIN (-32768)
#define INT16_MAX 32767
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
#define INT64_MIN (-9223372036854775807LL - 1)
#define INT64_MAX 9223372036854775807LL
#define UINT8_MAX 255
#define UINT16_MAX 65535
#define UINT32_MAX 4294967295U
#define UINT64_MAX 18446744073709551615ULL
#define INFINITY __int_as_float(0x7f800000)
#define NAN __int_as_float(0x7fc00000)
)";

// An atomic fold of `value` into `*target` with the reduction's combining step, by
// compare-and-swap on the aligned word holding the target (1, 2, 4 or 8 bytes wide).
void write_atomic_fold(std::ostringstream& out, std::size_t r, const std::string& op,
                       const std::string& dtype)
{
  const auto type = c_type_of(dtype);
  const auto step = require_rendering(reduction_combine(op, dtype, "cur", "value"), op);
  out << "__device__ inline void lf_fold" << r << "(" << type << "* target, " << type
      << " value)\n{\n";
  out << "  if (sizeof(" << type << ") == 8) {\n"
      << "    unsigned long long* word = (unsigned long long*)target;\n"
      << "    unsigned long long old = *word, assumed;\n"
      << "    do {\n"
      << "      assumed = old;\n"
      << "      union { unsigned long long bits; " << type << " v; } u; u.bits = assumed;\n"
      << "      const " << type << " cur = u.v;\n"
      << "      u.v = " << step << ";\n"
      << "      old = atomicCAS(word, assumed, u.bits);\n"
      << "    } while (assumed != old);\n"
      << "  } else {\n"
      << "    const unsigned long long address = (unsigned long long)target;\n"
      << "    unsigned int* word = (unsigned int*)(address & ~3ULL);\n"
      << "    const unsigned int shift = (unsigned int)(address & 3ULL) * 8;\n"
      << "    const unsigned int mask = sizeof(" << type
      << ") == 4 ? 0xFFFFFFFFu : ((1u << (8 * sizeof(" << type << "))) - 1u);\n"
      << "    unsigned int old = *word, assumed;\n"
      << "    do {\n"
      << "      assumed = old;\n"
      << "      union { unsigned int bits; " << type << " v; } u; u.bits = assumed >> shift;\n"
      << "      const " << type << " cur = u.v;\n"
      << "      u.bits = 0; u.v = " << step << ";\n"
      << "      const unsigned int next = (assumed & ~(mask << shift)) | ((u.bits & mask) << "
         "shift);\n"
      << "      old = atomicCAS(word, assumed, next);\n"
      << "    } while (assumed != old);\n"
      << "  }\n}\n\n";
}

}  // namespace

std::string render_cuda(const KernelSpec& spec)
{
  // cuPyNumeric's GPU kernels compute float16 with the device's half-precision instructions
  // and complex numbers with libcu++'s device code, which the CPU models of half_float.h and
  // complex_float.h have not been checked against, and fold argmin/argmax pairs with atomics
  // (arg_reduction.h models the CPU fold): such groups run unfused on GPUs.
  if (uses_half(spec) || uses_complex(spec) || uses_argval(spec)) {
    throw UnsupportedError(
        "legate-fuse: no CUDA rendering for float16, complex or argmin/argmax kernels");
  }
  if (writes_values_once(spec)) {
    // (A group writes such values only where its fused task runs as one point on a CPU.)
    throw UnsupportedError("legate-fuse: no CUDA rendering for a 0-d output of a loop");
  }
  std::ostringstream out;
  out << kPrelude << KERNEL_ABI_TEXT << "\n" << remainder_helpers("__device__ inline") << "\n";
  const auto nargs = spec.args.empty() ? std::size_t{1} : spec.args.size();
  // The run-time scalars follow the arrays, one 8-byte slot each, as the FUSED task packs them.
  out << "struct legate_fuse_launch {\n  legate_fuse_launch_header header;\n"
         "  legate_fuse_array arrays["
      << nargs << "];\n";
  if (!spec.scalar_types.empty()) {
    out << "  unsigned long long scalars[" << spec.scalar_types.size() << "];\n";
  }
  // Then the block's lower corner (kernel_abi.h), in every kernel: the parameter's size.
  out << "  long long origin[LEGATE_FUSE_MAX_DIM];\n};\n\n";
  if (uses_index(spec)) {
    out << "#define LF_INDEX (p.origin[0] + idx)\n\n";
  }
  for (std::size_t r = 0; r < spec.reductions.size(); ++r) {
    write_atomic_fold(out, r, spec.reductions[r].op, spec.args.at(spec.reductions[r].arg).dtype);
  }
  out << "extern \"C\" __global__ void __launch_bounds__(" << CUDA_BLOCK_SIZE << ") "
      << KERNEL_SYMBOL << "(const legate_fuse_launch p)\n{\n";
  for (std::size_t k = 0; k < spec.scalar_types.size(); ++k) {
    const auto type = c_type_of(spec.scalar_types[k]);
    out << "  const " << type << " s" << k << " = *(const " << type << "*)&p.scalars[" << k
        << "];\n";
  }
  for (std::size_t a = 0; a < spec.args.size(); ++a) {
    if (is_value_input(spec, a)) {
      const auto type = c_type_of(spec.args[a].dtype);
      out << "  const " << type << " in" << a << " = *(const " << type << "*)p.arrays[" << a
          << "].data;\n";
    }
  }
  for (std::size_t r = 0; r < spec.reductions.size(); ++r) {
    if (is_array_reduction(spec, r)) {
      continue;
    }
    const auto& red   = spec.reductions[r];
    const auto& dtype = spec.args.at(red.arg).dtype;
    out << "  " << c_type_of(dtype) << " acc" << r << " = "
        << require_rendering(reduction_identity(red.op, dtype), red.op + " over " + dtype) << ";\n";
  }
  out << "  for (int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; idx < "
         "p.header.volume;\n"
         "       idx += (int64_t)blockDim.x * gridDim.x) {\n"
         "    int64_t rest = idx;\n";
  for (std::size_t a = 0; a < spec.args.size(); ++a) {
    out << "    int64_t o" << a << " = 0;\n";
  }
  out << "    for (int32_t d = p.header.ndim - 1; d >= 0; --d) {\n"
         "      const int64_t i = rest % p.header.extents[d];\n"
         "      rest /= p.header.extents[d];\n";
  for (std::size_t a = 0; a < spec.args.size(); ++a) {
    out << "      o" << a << " += i * p.arrays[" << a << "].strides[d];\n";
  }
  out << "    }\n";
  // Threads share the elements an array reduction folds into: each folds atomically.
  const ArrayFold fold_atomically = [](std::size_t r, const std::string& element,
                                       const std::string& value) {
    return "lf_fold" + std::to_string(r) + "(&" + element + ", " + value + ");";
  };
  write_element_body(
      out, spec, "    ",
      [&](std::size_t a) {
        return "(*(" + c_type_of(spec.args[a].dtype) + "*)(p.arrays[" + std::to_string(a) +
               "].data + o" + std::to_string(a) + "))";
      },
      fold_atomically);
  out << "  }\n";
  for (std::size_t r = 0; r < spec.reductions.size(); ++r) {
    if (is_array_reduction(spec, r)) {
      continue;
    }
    const auto& red   = spec.reductions[r];
    const auto& dtype = spec.args.at(red.arg).dtype;
    const auto type   = c_type_of(dtype);
    const auto rs     = std::to_string(r);
    out << "  __shared__ " << type << " shared" << rs << "[" << CUDA_BLOCK_SIZE << "];\n"
        << "  shared" << rs << "[threadIdx.x] = acc" << rs << ";\n"
        << "  __syncthreads();\n"
        << "  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {\n"
        << "    if (threadIdx.x < s) {\n"
        << "      shared" << rs << "[threadIdx.x] = "
        << require_rendering(reduction_combine(red.op, dtype, "shared" + rs + "[threadIdx.x]",
                                               "shared" + rs + "[threadIdx.x + s]"),
                             red.op)
        << ";\n"
        << "    }\n"
        << "    __syncthreads();\n"
        << "  }\n"
        << "  if (threadIdx.x == 0) lf_fold" << rs << "((" << type << "*)p.arrays[" << red.arg
        << "].data, shared" << rs << "[0]);\n";
  }
  out << "}\n";
  return out.str();
}

}  // namespace legate_fuse::codegen
