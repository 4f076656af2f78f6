#pragma once

#include "analysis/plan.h"
#include "ir/window.h"

namespace legate_fuse::analysis {

// Hands the memory of arrays the window is done with to arrays it creates later
// (plan.shared_storage), as Legate does when a program frees an array before making the next.
//
// Held in a window, every array a task writes stays referenced until the window runs, so
// Legate gives each its own field and each field its own memory: an in-place stencil whose
// update is copied back through a named temporary made one new array per iteration, and every
// fused launch faulted in fresh pages (Legate, unfused, reuses the field of the array freed
// one statement earlier, its memory already mapped). Here an array whose every access lies in
// the window takes the memory of one of its shape and type whose accesses all ended in an
// earlier group, as a register allocator's linear scan reuses registers.
//
// An array takes part only when nothing outside the plan can tell: it is not live after the
// window, touched only by tasks the plan launches (no opaque task, already built with its
// stores, and no dead task), not a temporary, seen whole or through slices and projections
// only (ir::StoreRef: the views its memory's owner can be given; and a product's result,
// written whole through the promotion cuPyNumeric gives it, which is rebuilt over the owner
// too), and its first access writes all of it without reading it. Its contents before the window
// are then never read, and after its last access never again; Legate orders the next owner's first
// write after the last access. Each store of the array is listed with the whole store of the owner;
// a view is rebuilt from it by the launch (backend/shared_storage.py).
//
// An array the window reads before writing it all (one made before the window: a loop's state
// of the iteration before) keeps its memory, and gives it to a later array once its last
// access has run, when the same holds of it but the first write, it is seen whole by a task of
// the window, and its memory is Legate's own (window.root_foreign: not a buffer attached to a
// store, nor memory NumPy reads in place). Unfused, Legate reuses it so once the program lets
// go of the array; held in a window, the array stays referenced until the window has run.
//
// Spare stores (window.spare_stores: arrays an earlier window let go, whole and Legate's own,
// touched by no task of this one) are memory free from the window's start. A full window runs
// its first part and keeps the rest held; the tasks it keeps made their arrays while it was
// held, when Legate had no freed memory to give them, and each would get new memory. The memory
// the first part leaves free (plan.free_at_end: the owners still free after its last group,
// Legate's own) is kept for the next window's plan; a spare no array of the window took is not
// in it, and goes back to Legate (handed on, the spares nothing took would pile up).
void share_storage(const ir::Window& window, Plan& plan);

}  // namespace legate_fuse::analysis
