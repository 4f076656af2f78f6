#include "tasks/row_calls.h"

#include <mutex>
#include <stdexcept>
#include <unordered_map>

namespace legate_fuse {
namespace {

struct Registry {
  std::mutex mutex;
  std::unordered_map<std::string, RowCallFunction> functions;
};

Registry& registry()
{
  static Registry instance;
  return instance;
}

}  // namespace

void register_row_call(const std::string& name, std::uintptr_t function)
{
  auto& calls = registry();
  const std::lock_guard<std::mutex> lock{calls.mutex};
  // The address is a function of this process, given by the library that defines it.
  calls.functions[name] = reinterpret_cast<RowCallFunction>(function);
}

RowCallFunction row_call(const std::string& name)
{
  auto& calls = registry();
  const std::lock_guard<std::mutex> lock{calls.mutex};
  const auto found = calls.functions.find(name);
  if (found == calls.functions.end()) {
    throw std::out_of_range("legate-fuse: no row call registered as '" + name + "'");
  }
  return found->second;
}

}  // namespace legate_fuse
