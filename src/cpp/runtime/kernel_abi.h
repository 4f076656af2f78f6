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

/* A CPU kernel may define `const int32_t legate_fuse_kernel_split`, flags saying how the FUSED
 * task may call it on parts of its block, each part a range of rows of the outermost dimension
 * with its arrays' addresses moved to the part's first row (absent: only on the whole block).
 * ROWS: every element is computed from its own position alone, so the parts may run at once on
 * other threads. MOVES_CORNER: the kernel reads the block's lower corner (the index of its
 * first element in a one-dimensional launch): each part gets its own. PARTIALS: the kernel
 * reduces into single values; its parts run `legate_fuse_kernel_part`, which writes each
 * reduction's value over the part into its own slot of `partial` (LEGATE_FUSE_PARTIAL_SLOT
 * bytes each, `legate_fuse_kernel_partial_count` of them), and `legate_fuse_kernel_combine`
 * then folds each part's slots into the reduction arrays, part after part in order: the same
 * parts and order whatever the number of threads, so the same result. ORDERED: the kernel
 * reduces into single values whose result depends on the order of their operands (a
 * floating-point sum), and folds them element after element as cuPyNumeric's task does; its
 * parts run `legate_fuse_kernel_stage`, which does the part's element-wise work and writes each
 * reduction's operands, element by element, into `operands` (reduction k's at byte
 * LEGATE_FUSE_OPERAND_BYTES * k * volume, in its operand's C type, `volume` the part's elements;
 * a masked reduction's masks, one byte each, at LEGATE_FUSE_OPERAND_BYTES * (count + k) * volume,
 * `count` the reductions: 2 * count * LEGATE_FUSE_OPERAND_BYTES bytes per element in all).
 * `legate_fuse_kernel_start` writes each reduction's identity into a `partial` (as above),
 * `legate_fuse_kernel_fold` folds a part's `count` operands into it in element order, part
 * after part in order, and `legate_fuse_kernel_combine` folds it into the reduction arrays:
 * the very operations of the kernel's one pass, so the same bits. RESUMES (never with ROWS:
 * its parts may not run at once): the kernel reduces into single values in an order that shows,
 * by arithmetic alone; `legate_fuse_kernel_resume` is its one pass over a part of its rows,
 * from the accumulators in `partial` (started by `legate_fuse_kernel_start`, as above) and
 * back into them, and `legate_fuse_kernel_combine` folds them into the reduction arrays: the
 * kernel's parts, resumed one after another in order of their rows, give the bits of its one
 * pass (a row call's parts may then run between them: tasks/fused_task.cc). */
#define LEGATE_FUSE_SPLIT_SYMBOL "legate_fuse_kernel_split"
#define LEGATE_FUSE_PART_SYMBOL "legate_fuse_kernel_part"
#define LEGATE_FUSE_COMBINE_SYMBOL "legate_fuse_kernel_combine"
#define LEGATE_FUSE_PARTIAL_COUNT_SYMBOL "legate_fuse_kernel_partial_count"
#define LEGATE_FUSE_SPLIT_ROWS 1u
#define LEGATE_FUSE_SPLIT_MOVES_CORNER 2u
#define LEGATE_FUSE_SPLIT_PARTIALS 4u
#define LEGATE_FUSE_SPLIT_ORDERED 8u
#define LEGATE_FUSE_SPLIT_RESUMES 16u
#define LEGATE_FUSE_RESUME_SYMBOL "legate_fuse_kernel_resume"
#define LEGATE_FUSE_STAGE_SYMBOL "legate_fuse_kernel_stage"
#define LEGATE_FUSE_FOLD_SYMBOL "legate_fuse_kernel_fold"
#define LEGATE_FUSE_START_SYMBOL "legate_fuse_kernel_start"
/* Bytes per operand in a stage's operand arrays: reductions of wider types never split. */
#define LEGATE_FUSE_OPERAND_BYTES 8
#define LEGATE_FUSE_PARTIAL_SLOT 16
typedef void (*legate_fuse_part_fn)(int32_t ndim, const int64_t* extents,
                                    const legate_fuse_array* arrays, const void* scalars,
                                    void* partial);
typedef void (*legate_fuse_combine_fn)(const legate_fuse_array* arrays, const void* partial);
typedef void (*legate_fuse_stage_fn)(int32_t ndim, const int64_t* extents,
                                     const legate_fuse_array* arrays, const void* scalars,
                                     void* operands);
typedef void (*legate_fuse_fold_fn)(const void* operands, int64_t count, void* partial);
typedef void (*legate_fuse_start_fn)(void* partial);

#ifdef __cplusplus
}
#endif

#endif /* LEGATE_FUSE_KERNEL_ABI_H */
