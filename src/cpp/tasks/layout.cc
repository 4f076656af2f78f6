#include "tasks/layout.h"

#include <cstring>
#include <stdexcept>
#include <utility>

namespace legate_fuse {
namespace {
constexpr std::size_t kDrawWords = 15;  // per draw: see layout.h
}  // namespace

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
  if (at == words.size()) {
    return layout;
  }
  const auto wide = [&](std::size_t first) {
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(words.at(first))) |
           (static_cast<std::uint64_t>(static_cast<std::uint32_t>(words.at(first + 1))) << 32);
  };
  const auto draws = static_cast<std::size_t>(words.at(at++));
  for (std::size_t i = 0; i < draws; ++i, at += kDrawWords) {
    Draw draw;
    draw.out            = static_cast<std::uint32_t>(words.at(at));
    draw.kind           = static_cast<DrawKind>(words.at(at + 1));
    draw.generator      = static_cast<std::uint32_t>(words.at(at + 2));
    draw.generator_type = static_cast<std::uint32_t>(words.at(at + 3));
    draw.flags          = static_cast<std::uint32_t>(words.at(at + 4));
    draw.seed           = wide(at + 5);
    for (std::size_t k = 0; k < 2; ++k) {
      const std::uint64_t bits = wide(at + 7 + 2 * k);
      std::memcpy(&draw.reals[k], &bits, sizeof(bits));
      draw.integers[k] = static_cast<std::int64_t>(wide(at + 11 + 2 * k));
    }
    layout.draws.push_back(draw);
  }
  if (at == words.size()) {
    return layout;
  }
  const auto calls = static_cast<std::size_t>(words.at(at++));
  for (std::size_t i = 0; i < calls; ++i) {
    RowCallSite call;
    const auto name_bytes = static_cast<std::size_t>(words.at(at++));
    const auto name_words = (name_bytes + sizeof(std::int32_t) - 1) / sizeof(std::int32_t);
    if (at + name_words > words.size()) {
      throw std::out_of_range("legate-fuse: truncated layout");
    }
    call.name.assign(reinterpret_cast<const char*>(words.data() + at), name_bytes);
    at += name_words;
    const auto stores = static_cast<std::size_t>(words.at(at++));
    for (std::size_t k = 0; k < stores; ++k, at += 2) {
      call.stores.push_back(
          Slot{static_cast<Source>(words.at(at)), static_cast<std::uint32_t>(words.at(at + 1))});
    }
    layout.calls.push_back(std::move(call));
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
