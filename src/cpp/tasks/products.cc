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
template <typename T>
using Gemm = void (*)(int order, int trans_a, int trans_b, int m, int n, int k, T alpha, const T* a,
                      int lda, const T* b, int ldb, T beta, T* c, int ldc);

struct Blas {
  Gemv<float> sgemv{};
  Gemv<double> dgemv{};
  Gemm<float> sgemm{};
  Gemm<double> dgemm{};
};

// Looked up once: the library already loaded (RTLD_NOLOAD), never loaded here.
const Blas& blas()
{
  static const Blas found = [] {
    Blas result;
    if (void* handle = dlopen(kSoname, RTLD_NOW | RTLD_NOLOAD); handle != nullptr) {
      result.sgemv = reinterpret_cast<Gemv<float>>(dlsym(handle, "cblas_sgemv"));
      result.dgemv = reinterpret_cast<Gemv<double>>(dlsym(handle, "cblas_dgemv"));
      result.sgemm = reinterpret_cast<Gemm<float>>(dlsym(handle, "cblas_sgemm"));
      result.dgemm = reinterpret_cast<Gemm<double>>(dlsym(handle, "cblas_dgemm"));
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

// cuPyNumeric's MATVECMUL: `matrix` and `vector` as it promotes them (rows, columns), `out` its
// result without the promotion (rows).
template <typename T>
void matrix_vector(Gemv<T> gemv, const legate::PhysicalStore& matrix,
                   const legate::PhysicalStore& vector, const legate::PhysicalStore& out)
{
  const auto shape = matrix.shape<2>().intersection(vector.shape<2>());
  if (shape.empty()) {
    return;
  }
  auto m = static_cast<std::size_t>(shape.hi[0] - shape.lo[0] + 1);
  auto n = static_cast<std::size_t>(shape.hi[1] - shape.lo[1] + 1);
  std::size_t matrix_strides[2];
  std::size_t vector_strides[2];
  std::size_t out_strides[1];
  const T* a = matrix.read_accessor<T, 2>(shape).ptr(shape, matrix_strides);
  const T* x = vector.read_accessor<T, 2>(shape).ptr(shape, vector_strides);
  bool transpose{};
  const auto lda = stride_for_blas(m, n, matrix_strides[0], matrix_strides[1], transpose);
  if (transpose) {
    std::swap(m, n);
  }
  const legate::Rect<1> rows{shape.lo[0], shape.hi[0]};
  T* y = out.write_accessor<T, 1>(rows).ptr(rows, out_strides);
  gemv(kRowMajor, transpose ? kTrans : kNoTrans, static_cast<int>(m), static_cast<int>(n), T{1}, a,
       static_cast<int>(lda), x, 1, T{0}, y, 1);
}

// cuPyNumeric's MATMUL computed whole: `left` and `right` as it promotes them (rows, inner,
// columns), `out` its result without the promotion (rows, columns), laid out row by row (the
// mapper asks for it, as cuPyNumeric's does).
template <typename T>
void matrix_matrix(Gemm<T> gemm, const legate::PhysicalStore& left,
                   const legate::PhysicalStore& right, const legate::PhysicalStore& out)
{
  const auto shape = left.shape<3>().intersection(right.shape<3>());
  if (shape.empty()) {
    return;
  }
  const auto m = static_cast<std::size_t>(shape.hi[0] - shape.lo[0] + 1);
  const auto k = static_cast<std::size_t>(shape.hi[1] - shape.lo[1] + 1);
  const auto n = static_cast<std::size_t>(shape.hi[2] - shape.lo[2] + 1);
  std::size_t left_strides[3];
  std::size_t right_strides[3];
  std::size_t out_strides[2];
  const T* a = left.read_accessor<T, 3>(shape).ptr(shape, left_strides);
  const T* b = right.read_accessor<T, 3>(shape).ptr(shape, right_strides);
  bool transpose_a{};
  bool transpose_b{};
  const auto lda = stride_for_blas(m, k, left_strides[0], left_strides[1], transpose_a);
  const auto ldb = stride_for_blas(k, n, right_strides[1], right_strides[2], transpose_b);
  const legate::Rect<2> block{{shape.lo[0], shape.lo[2]}, {shape.hi[0], shape.hi[2]}};
  T* c = out.write_accessor<T, 2>(block).ptr(block, out_strides);
  if (out_strides[1] != 1 && n > 1) {
    throw std::runtime_error("legate-fuse: a product's result not laid out row by row");
  }
  gemm(kRowMajor, transpose_a ? kTrans : kNoTrans, transpose_b ? kTrans : kNoTrans,
       static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), T{1}, a,
       static_cast<int>(lda), b, static_cast<int>(ldb), T{0}, c, static_cast<int>(out_strides[0]));
}

template <typename T>
void product(Gemv<T> gemv, Gemm<T> gemm, const legate::PhysicalStore& first,
             const legate::PhysicalStore& second, const legate::PhysicalStore& out)
{
  if (first.dim() == 3) {
    matrix_matrix(gemm, first, second, out);
  } else {
    matrix_vector(gemv, first, second, out);
  }
}

}  // namespace

bool product_blas_available()
{
  const Blas& found = blas();
  return found.sgemv != nullptr && found.dgemv != nullptr && found.sgemm != nullptr &&
         found.dgemm != nullptr;
}

void compute_product(const legate::PhysicalStore& first, const legate::PhysicalStore& second,
                     const legate::PhysicalStore& out)
{
  if (!product_blas_available()) {
    throw std::runtime_error("legate-fuse: the BLAS library cuPyNumeric calls is not loaded");
  }
  switch (first.code()) {
    case legate::Type::Code::FLOAT32:
      product<float>(blas().sgemv, blas().sgemm, first, second, out);
      return;
    case legate::Type::Code::FLOAT64:
      product<double>(blas().dgemv, blas().dgemm, first, second, out);
      return;
    default:
      throw std::runtime_error("legate-fuse: a fused product of a type other than float32/64");
  }
}

}  // namespace legate_fuse
