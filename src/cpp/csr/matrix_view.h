// What every task of the library reads of a matrix: its row ranges, columns and values as the
// task's instances hold them, and the C++ type of its values.
#pragma once

#include <legate.h>

#include <cstdint>
#include <stdexcept>

namespace legate_csr {

// The address of element 0 of a 1-D store's instance (the store's own elements are at their
// indices from it): the loops index raw pointers, which the compiler keeps in registers.
template <typename T>
const T* base_of(const legate::PhysicalStore& store)
{
  const auto shape = store.shape<1>();
  return shape.empty() ? nullptr : store.read_accessor<T, 1>().ptr(shape.lo) - shape.lo[0];
}

// A matrix's row ranges, columns and values.
template <typename T>
struct Elements {
  Elements(const legate::PhysicalStore& pos, const legate::PhysicalStore& crd,
           const legate::PhysicalStore& vals)
      : ranges{base_of<legate::Rect<1>>(pos)},
        columns{base_of<std::int64_t>(crd)},
        values{base_of<T>(vals)}
  {
  }

  const legate::Rect<1>* ranges;
  const std::int64_t* columns;
  const T* values;
};

// Calls `body(T{})` with T the C++ type of values of type `code` (float32 or float64).
template <typename Body>
void with_value_type(legate::Type::Code code, Body&& body)
{
  switch (code) {
    case legate::Type::Code::FLOAT32:
      body(float{});
      break;
    case legate::Type::Code::FLOAT64:
      body(double{});
      break;
    default:
      throw std::invalid_argument("legate_csr: values must be float32 or float64");
  }
}

}  // namespace legate_csr
