#pragma once

#include <legate.h>

namespace legate_fuse {

// Products a fused task computes before its kernel runs: cuPyNumeric's MATVECMUL task and its
// MATMUL task computed whole, made by the same BLAS call on the same block, so that the kernel
// reads the very bits cuPyNumeric's task would have written.
//
// cuPyNumeric's CPU tasks call `cblas_?gemv` and `cblas_?gemm` of the OpenBLAS it links,
// row-major, on the factors' blocks (each transposed where it is stored column by column),
// with beta 0 where the output is readable, as it is in a launch of one point: the only
// launches whose products are fused (the plugin checks that Legate runs one CPU task at a
// time). The library is the one already loaded in the process (found by its soname), never
// another copy: the same kernels and the same thread settings, so the same bits.

// Whether the BLAS library cuPyNumeric calls is loaded in this process with the functions.
[[nodiscard]] bool product_blas_available();

// `out` = `first` times `second`, as cuPyNumeric's task computes them, over the intersection of
// the factors' domains: a matrix-vector product where `first` is two-dimensional (the matrix,
// either layout; `second` the vector promoted along the rows; `out` the rows), a
// matrix-matrix product where it is three-dimensional ((rows, inner, columns): `first`
// promoted along the columns, `second` along the rows; `out` (rows, columns), row-major).
// float32 or float64. Throws std::runtime_error when the BLAS library is not loaded or the type
// is not one of those.
void compute_product(const legate::PhysicalStore& first, const legate::PhysicalStore& second,
                     const legate::PhysicalStore& out);

}  // namespace legate_fuse
