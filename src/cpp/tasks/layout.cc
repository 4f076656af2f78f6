#include "tasks/layout.h"

#include <cstring>
#include <utility>

namespace legate_fuse {

Layout parse_layout(const void* bytes, std::size_t size)
{
  std::vector<std::int32_t> words(size / sizeof(std::int32_t));
  std::memcpy(words.data(), bytes, words.size() * sizeof(std::int32_t));
  Layout layout;
  std::size_t at   = 0;
  const auto count = static_cast<std::size_t>(words.at(at++));
  for (std::size_t i = 0; i < count; ++i, at += 2) {
    layout.slots.push_back(
        Slot{static_cast<Source>(words.at(at)), static_cast<std::uint32_t>(words.at(at + 1))});
  }
  const auto products = static_cast<std::size_t>(words.at(at++));
  for (std::size_t i = 0; i < products; ++i, at += 3) {
    layout.products.push_back(Product{static_cast<std::uint32_t>(words.at(at)),
                                      static_cast<std::uint32_t>(words.at(at + 1)),
                                      static_cast<std::uint32_t>(words.at(at + 2))});
  }
  return layout;
}

Layout default_layout(std::uint32_t inputs, std::uint32_t outputs, std::uint32_t reductions)
{
  Layout layout;
  const std::pair<Source, std::uint32_t> kinds[] = {
      {Source::Input, inputs}, {Source::Output, outputs}, {Source::Reduction, reductions}};
  for (const auto& [source, count] : kinds) {
    for (std::uint32_t i = 0; i < count; ++i) {
      layout.slots.push_back(Slot{source, i});
    }
  }
  return layout;
}

}  // namespace legate_fuse
