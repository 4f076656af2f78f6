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
 * Legate object, and not throw. The routine may throw before its parts run. */
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
} legate_fuse_row_parts;

#ifdef __cplusplus
}
#endif

#endif /* LEGATE_FUSE_ROW_CALL_ABI_H */
