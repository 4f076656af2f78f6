#pragma once

#include <sstream>
#include <string>

#include "codegen/element_body.h"
#include "ir/kernel_spec.h"

namespace legate_fuse::codegen {

// Elements per tile of a staged loop: the tile buffers of a large kernel stay in L1.
inline constexpr int STAGE_TILE = 256;

// Whether the contiguous loop of this kernel is better staged: it calls at least one
// out-of-line C library function (exp, log, ...) and computes something besides, and it
// reduces into no array.
[[nodiscard]] bool wants_staging(const KernelSpec& spec);

// Renders the loop `for i in [0, count)` over contiguous elements tile by tile: each library
// call runs in a loop of its own over the tile, and the arithmetic between calls in loops the
// compiler vectorises. Every operation and call is the element body's, in the same order per
// element, and reductions fold the elements in the same order, so the results are bit for bit
// those of write_element_body. Values that cross from one loop to another live in tile
// buffers; stores come last, after every load of the element (an output that is also an input
// is read before it is written), then the reductions in a loop of their own. That loop reads
// the inputs it folds from tile buffers filled before the stores, never from memory a store
// may have overwritten: reductions see the inputs' values from before the kernel, as in
// write_element_body.
void write_staged_body(std::ostringstream& out, const KernelSpec& spec, const std::string& indent,
                       const std::string& count, const ElementAccess& element,
                       const ValueFold& value_fold = {});

}  // namespace legate_fuse::codegen
