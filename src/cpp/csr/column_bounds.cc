// Each row's least and greatest column, as the Rect<1> a product reads `x` through the image
// of (empty for an empty row): built by a task, in Legate's memory, since a store of
// rectangles attached from the host is copied by Legate once more.
#include <legate.h>

#include <algorithm>

#include "csr/csr_tasks.h"
#include "csr/matrix_view.h"

namespace legate_csr {
namespace {

template <typename I>
void column_bounds(const legate::PhysicalStore& out, const legate::PhysicalStore& pos,
                   const legate::PhysicalStore& crd)
{
  const auto rows = out.shape<1>();
  if (rows.empty()) {
    return;
  }
  const legate::Rect<1>* const ranges = base_of<legate::Rect<1>>(pos);
  const I* const columns              = base_of<I>(crd);
  legate::Rect<1>* const bounds =
      out.write_accessor<legate::Rect<1>, 1>().ptr(rows.lo) - rows.lo[0];
  for (legate::coord_t row = rows.lo[0]; row <= rows.hi[0]; ++row) {
    const legate::Rect<1>& range = ranges[row];
    if (range.empty()) {
      bounds[row] = legate::Rect<1>{0, -1};
      continue;
    }
    const auto [least, greatest] =
        std::minmax_element(columns + range.lo[0], columns + range.hi[0] + 1);
    bounds[row] = legate::Rect<1>{*least, *greatest};
  }
}

}  // namespace

void ColumnBoundsTask::cpu_variant(legate::TaskContext context)
{
  const auto out = context.output(0).data();
  const auto pos = context.input(0).data();
  const auto crd = context.input(1).data();
  with_index_type(crd.code(), [&](auto index) { column_bounds<decltype(index)>(out, pos, crd); });
}

}  // namespace legate_csr
