#pragma once

#include <legate.h>

namespace legate_fuse {

// Matrix-vector products a fused task computes before its kernel runs: cuPyNumeric's
// MATVECMUL task, made by the same BLAS call on the same block, so that the kernel reads the
// very bits cuPyNumeric's task would have written.
//
// cuPyNumeric's CPU task calls `cblas_?gemv` of the OpenBLAS it links, row-major, on the
// matrix's block (transposed where the matrix is stored column by column), with beta 0 where
// its output is readable, as it is in a launch of one point: the only launches whose products
// are fused (the plugin checks that Legate runs one CPU task at a time). The library is the
// one already loaded in the process (found by its soname), never another copy: the same
// kernels and the same thread settings, so the same bits.

// Whether the BLAS library cuPyNumeric calls is loaded in this process with both functions.
[[nodiscard]] bool product_blas_available();

// `out` (the product's result promoted along its second dimension, cuPyNumeric's lhs) =
// `matrix` (two-dimensional, either layout) times `vector` (promoted along the first
// dimension), over the intersection of their domains: float32 or float64. Throws
// std::runtime_error when the BLAS library is not loaded or the type is not one of those.
void compute_product(const legate::PhysicalStore& matrix, const legate::PhysicalStore& vector,
                     const legate::PhysicalStore& out);

}  // namespace legate_fuse
