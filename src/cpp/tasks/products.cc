#include "tasks/products.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>

namespace legate_fuse {
namespace {

// CBLAS's enumerations, as every CBLAS defines them.
constexpr int kRowMajor  = 101;
constexpr int kNoTrans   = 111;
constexpr int kTrans     = 112;
constexpr char kSoname[] = "libopenblas.so.0";  // what cuPyNumeric's library links

template <typename T>
using Gemv = void (*)(int order, int trans, int m, int n, T alpha, const T* a, int lda, const T* x,
                      int incx, T beta, T* y, int incy);

struct Blas {
  Gemv<float> sgemv{};
  Gemv<double> dgemv{};
};

// Looked up once: the library already loaded (RTLD_NOLOAD), never loaded here.
const Blas& blas()
{
  static const Blas found = [] {
    Blas result;
    if (void* handle = dlopen(kSoname, RTLD_NOW | RTLD_NOLOAD); handle != nullptr) {
      result.sgemv = reinterpret_cast<Gemv<float>>(dlsym(handle, "cblas_sgemv"));
      result.dgemv = reinterpret_cast<Gemv<double>>(dlsym(handle, "cblas_dgemv"));
    }
    return result;
  }();
  return found;
}

// cuPyNumeric's choice of the matrix's leading dimension (matrix/util.cc, stride_for_blas):
// one of the two strides is 1; where it is the first, the matrix is the transpose of a
// row-major one.
std::size_t stride_for_blas(std::size_t m, std::size_t n, std::size_t x_stride,
                            std::size_t y_stride, bool& transpose)
{
  if (n == 1) {
    transpose = false;
    return x_stride;
  }
  if (m == 1) {
    transpose = y_stride != 1;
    return y_stride == 1 ? n : y_stride;
  }
  transpose = x_stride == 1;
  return std::max(x_stride, y_stride);
}

template <typename T>
void product(Gemv<T> gemv, const legate::PhysicalStore& matrix, const legate::PhysicalStore& vector,
             const legate::PhysicalStore& out)
{
  const auto shape = matrix.shape<2>().intersection(vector.shape<2>());
  if (shape.empty()) {
    return;
  }
  auto m = static_cast<std::size_t>(shape.hi[0] - shape.lo[0] + 1);
  auto n = static_cast<std::size_t>(shape.hi[1] - shape.lo[1] + 1);
  std::size_t matrix_strides[2];
  std::size_t vector_strides[2];
  std::size_t out_strides[2];
  const T* a = matrix.read_accessor<T, 2>(shape).ptr(shape, matrix_strides);
  const T* x = vector.read_accessor<T, 2>(shape).ptr(shape, vector_strides);
  bool transpose{};
  const auto lda = stride_for_blas(m, n, matrix_strides[0], matrix_strides[1], transpose);
  if (transpose) {
    std::swap(m, n);
  }
  T* y = out.write_accessor<T, 2>(shape).ptr(shape, out_strides);
  gemv(kRowMajor, transpose ? kTrans : kNoTrans, static_cast<int>(m), static_cast<int>(n), T{1}, a,
       static_cast<int>(lda), x, 1, T{0}, y, 1);
}

}  // namespace

bool product_blas_available() { return blas().sgemv != nullptr && blas().dgemv != nullptr; }

void compute_product(const legate::PhysicalStore& matrix, const legate::PhysicalStore& vector,
                     const legate::PhysicalStore& out)
{
  if (!product_blas_available()) {
    throw std::runtime_error("legate-fuse: the BLAS library cuPyNumeric calls is not loaded");
  }
  switch (matrix.code()) {
    case legate::Type::Code::FLOAT32:
      product<float>(blas().sgemv, matrix, vector, out);
      return;
    case legate::Type::Code::FLOAT64:
      product<double>(blas().dgemv, matrix, vector, out);
      return;
    default:
      throw std::runtime_error("legate-fuse: a fused product of a type other than float32/64");
  }
}

}  // namespace legate_fuse
