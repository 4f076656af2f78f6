/* A hand-written kernel in the fused-kernel calling convention: out = x * s + y, over any
 * number of dimensions and any strides. Used to test the FUSED task before code generation. */
#include <legate_fuse/kernel_abi.h>

void axpb(int32_t ndim, const int64_t* extents, const legate_fuse_array* arrays,
          const void* scalars) {
  const double s = *(const double*)scalars;
  int64_t volume = 1;
  for (int32_t d = 0; d < ndim; ++d) volume *= extents[d];
  for (int64_t linear = 0; linear < volume; ++linear) {
    int64_t rest = linear, offset[3] = {0, 0, 0};
    for (int32_t d = ndim - 1; d >= 0; --d) {
      const int64_t index = rest % extents[d];
      rest /= extents[d];
      for (int k = 0; k < 3; ++k) offset[k] += index * arrays[k].strides[d];
    }
    const double x = *(const double*)(arrays[0].data + offset[0]);
    const double y = *(const double*)(arrays[1].data + offset[1]);
    *(double*)(arrays[2].data + offset[2]) = x * s + y;
  }
}
