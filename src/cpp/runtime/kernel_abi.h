/* The calling convention between the FUSED task and the kernels generated at run time.
 *
 * Plain C so that generated C and CUDA sources can include the same declarations. Bump
 * LEGATE_FUSE_KERNEL_ABI_VERSION whenever a struct or the signature changes: it is part of the
 * kernel cache key, so old compiled kernels are never called with a new layout. The generated
 * kernels' sources begin with this very text (the renderers embed it at build time). */
#ifndef LEGATE_FUSE_KERNEL_ABI_H
#define LEGATE_FUSE_KERNEL_ABI_H

#ifndef __CUDACC_RTC__
#include <stdint.h> /* NVRTC has no C library: the CUDA prelude defines the integer types */
#endif

#define LEGATE_FUSE_KERNEL_ABI_VERSION 1
#define LEGATE_FUSE_MAX_DIM 8
/* Threads per block of the GPU kernels: their launch bounds, and the FUSED task's launch. */
#define LEGATE_FUSE_CUDA_BLOCK_SIZE 256

#ifdef __cplusplus
extern "C" {
#endif

/* One store argument as seen by a point task: its local block. */
typedef struct legate_fuse_array {
  /* Address of the element at the lower corner of the iteration block. */
  char* data;
  /* Distance in bytes between neighbours in each dimension; 0 along broadcast dimensions. */
  int64_t strides[LEGATE_FUSE_MAX_DIM];
} legate_fuse_array;

/* GPU kernels take one by-value parameter: this header followed by the argument arrays. */
typedef struct legate_fuse_launch_header {
  int64_t volume;
  int32_t ndim;
  int32_t reserved;
  int64_t extents[LEGATE_FUSE_MAX_DIM];
} legate_fuse_launch_header;

/* A fused kernel: iterates over `extents` (ndim dimensions), arrays in the order of the task's
 * inputs, then outputs, then reductions; `scalars` holds the run-time scalar values packed as
 * the kernel's generator laid them out (8 bytes each), then the iteration block's lower corner
 * in the launch's coordinates (LEGATE_FUSE_MAX_DIM int64_t, before dimensions are merged). GPU
 * kernels find the same bytes after their arrays. */
typedef void (*legate_fuse_kernel_fn)(int32_t ndim, const int64_t* extents,
                                      const legate_fuse_array* arrays, const void* scalars);

#ifdef __cplusplus
}
#endif

#endif /* LEGATE_FUSE_KERNEL_ABI_H */
