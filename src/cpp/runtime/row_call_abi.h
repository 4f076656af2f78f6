/* The calling convention between the FUSED task and a library's row call (tasks/row_calls.h):
 * what another Legate library's C++ includes to define a routine a fused task may run.
 *
 *   void routine(const legate::PhysicalStore* stores, size_t count,
 *                const legate_fuse_row_parts* parts);
 *
 * `stores` are the point task's, in the order of the task the routine stands for. The routine
 * reads them on the calling thread (Legate's accessors belong to the point task's thread),
 * then may run its work in parts through `parts` (null: on the calling thread alone), which
 * hands them to the fused task's threads: each part must depend on its index alone, touch no
 * Legate object, and not throw. The routine may throw before its parts run. A routine whose
 * part i computes the rows [i * rows_per_part, (i + 1) * rows_per_part) of its result, counted
 * from the result's first row, and writes nothing else, runs them through `run_rows` where it
 * is not null: the fused task may then run its kernel on each part's rows as soon as they are
 * computed, while they are in cache. */
#ifndef LEGATE_FUSE_ROW_CALL_ABI_H
#define LEGATE_FUSE_ROW_CALL_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct legate_fuse_row_parts {
  void* context;
  /* Runs part(data, i) for every i in [0, count), on the calling thread and the fused task's
   * helpers; returns once every part has run. */
  void (*run_each)(void* context, int64_t count, void (*part)(void* data, int64_t index),
                   void* data);
  /* As run_each, for parts of `rows_per_part` rows of the result each, in order of index. */
  void (*run_rows)(void* context, int64_t count, int64_t rows_per_part,
                   void (*part)(void* data, int64_t index), void* data);
} legate_fuse_row_parts;

#ifdef __cplusplus
}
#endif

#endif /* LEGATE_FUSE_ROW_CALL_ABI_H */
