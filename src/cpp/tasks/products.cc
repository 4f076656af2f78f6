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

template <int DIM>
std::size_t extent(const legate::Rect<DIM>& shape, int dim)
{
  return static_cast<std::size_t>(shape.hi[dim] - shape.lo[dim] + 1);
}

// A product's two factors on `shape`: their addresses and strides (in elements). The strides
// come first: members are initialised in this order, and the addresses' initialisers write
// the strides.
template <typename T, int DIM>
struct Factors {
  std::size_t first_strides[DIM]{};
  std::size_t second_strides[DIM]{};
  const T* first{};
  const T* second{};

  Factors(const legate::Rect<DIM>& shape, const legate::PhysicalStore& first_store,
          const legate::PhysicalStore& second_store)
      : first{first_store.read_accessor<T, DIM>(shape).ptr(shape, first_strides)},
        second{second_store.read_accessor<T, DIM>(shape).ptr(shape, second_strides)}
  {
  }
};

// cuPyNumeric's MATVECMUL on `shape` (rows, columns): `matrix` and `vector` as it promotes
// them, `out` its result without the promotion (rows).
template <typename T>
void matrix_vector(Gemv<T> gemv, const legate::Rect<2>& shape, const legate::PhysicalStore& matrix,
                   const legate::PhysicalStore& vector, const legate::PhysicalStore& out)
{
  auto m = extent(shape, 0);
  auto n = extent(shape, 1);
  const Factors<T, 2> factors{shape, matrix, vector};
  bool transpose{};
  const auto lda =
      stride_for_blas(m, n, factors.first_strides[0], factors.first_strides[1], transpose);
  if (transpose) {
    std::swap(m, n);
  }
  const legate::Rect<1> rows{shape.lo[0], shape.hi[0]};
  std::size_t out_strides[1];
  T* y = out.write_accessor<T, 1>(rows).ptr(rows, out_strides);
  gemv(kRowMajor, transpose ? kTrans : kNoTrans, static_cast<int>(m), static_cast<int>(n), T{1},
       factors.first, static_cast<int>(lda), factors.second, 1, T{0}, y, 1);
}

// cuPyNumeric's MATMUL computed whole, on `shape` (rows, inner, columns): `left` and `right`
// as it promotes them, `out` its result without the promotion (rows, columns), laid out row by row
// (the mapper asks for it, as cuPyNumeric's does).
template <typename T>
void matrix_matrix(Gemm<T> gemm, const legate::Rect<3>& shape, const legate::PhysicalStore& left,
                   const legate::PhysicalStore& right, const legate::PhysicalStore& out)
{
  const auto m = extent(shape, 0);
  const auto k = extent(shape, 1);
  const auto n = extent(shape, 2);
  const Factors<T, 3> factors{shape, left, right};
  bool transpose_a{};
  bool transpose_b{};
  const auto lda =
      stride_for_blas(m, k, factors.first_strides[0], factors.first_strides[1], transpose_a);
  const auto ldb =
      stride_for_blas(k, n, factors.second_strides[1], factors.second_strides[2], transpose_b);
  const legate::Rect<2> block{{shape.lo[0], shape.lo[2]}, {shape.hi[0], shape.hi[2]}};
  std::size_t out_strides[2];
  T* c = out.write_accessor<T, 2>(block).ptr(block, out_strides);
  if (out_strides[1] != 1 && n > 1) {
    throw std::runtime_error("legate-fuse: a product's result not laid out row by row");
  }
  gemm(kRowMajor, transpose_a ? kTrans : kNoTrans, transpose_b ? kTrans : kNoTrans,
       static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), T{1}, factors.first,
       static_cast<int>(lda), factors.second, static_cast<int>(ldb), T{0}, c,
       static_cast<int>(out_strides[0]));
}

template <typename T>
void product(Gemv<T> gemv, Gemm<T> gemm, const legate::PhysicalStore& first,
             const legate::PhysicalStore& second, const legate::PhysicalStore& out)
{
  // Over the intersection of the factors' domains, as cuPyNumeric's tasks compute.
  if (first.dim() == 3) {
    const auto shape = first.shape<3>().intersection(second.shape<3>());
    if (!shape.empty()) {
      matrix_matrix(gemm, shape, first, second, out);
    }
    return;
  }
  const auto shape = first.shape<2>().intersection(second.shape<2>());
  if (!shape.empty()) {
    matrix_vector(gemv, shape, first, second, out);
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
