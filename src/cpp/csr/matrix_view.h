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

// A matrix's row ranges, columns (of index type I) and values.
template <typename T, typename I>
struct Elements {
  Elements(const legate::PhysicalStore& pos, const legate::PhysicalStore& crd,
           const legate::PhysicalStore& vals)
      : ranges{base_of<legate::Rect<1>>(pos)}, columns{base_of<I>(crd)}, values{base_of<T>(vals)}
  {
  }

  const legate::Rect<1>* ranges;
  const I* columns;
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

// Calls `body(I{})` with I the C++ type of column indices of type `columns` (int32, as scipy
// keeps them where the columns allow, or int64); with_element_types, `body(T{}, I{})` with T
// that of values of type `values` too.
template <typename Body>
void with_index_type(legate::Type::Code columns, Body&& body)
{
  switch (columns) {
    case legate::Type::Code::INT32:
      body(std::int32_t{});
      break;
    case legate::Type::Code::INT64:
      body(std::int64_t{});
      break;
    default:
      throw std::invalid_argument("legate_csr: column indices must be int32 or int64");
  }
}

template <typename Body>
void with_element_types(legate::Type::Code values, legate::Type::Code columns, Body&& body)
{
  with_value_type(
      values, [&](auto zero) { with_index_type(columns, [&](auto index) { body(zero, index); }); });
}

}  // namespace legate_csr
