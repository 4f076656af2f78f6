// A minimal test harness for the native tests: each test binary runs its checks and exits
// non-zero if any failed, so that ctest reports it (no test framework to install).
#pragma once

#include <cstdlib>
#include <functional>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace legate_fuse::testing {

inline int& failures()
{
  static int count = 0;
  return count;
}

inline std::vector<std::pair<std::string, std::function<void()>>>& registry()
{
  static std::vector<std::pair<std::string, std::function<void()>>> tests;
  return tests;
}

struct Register {
  Register(std::string name, std::function<void()> test)
  {
    registry().emplace_back(std::move(name), std::move(test));
  }
};

inline int run_all()
{
  for (const auto& [name, test] : registry()) {
    const int before = failures();
    test();
    std::cout << (failures() == before ? "PASS " : "FAIL ") << name << "\n";
  }
  std::cout << registry().size() << " tests, " << failures() << " failed checks\n";
  return failures() == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

}  // namespace legate_fuse::testing

#define LF_TEST(name)                                                         \
  static void name();                                                         \
  static const legate_fuse::testing::Register name##_registered{#name, name}; \
  static void name()

#define LF_CHECK(condition)                                                           \
  do {                                                                                \
    if (!(condition)) {                                                               \
      ++legate_fuse::testing::failures();                                             \
      std::cout << __FILE__ << ":" << __LINE__ << ": check failed: " #condition "\n"; \
    }                                                                                 \
  } while (false)

#define LF_CHECK_EQ(actual, expected)                                               \
  do {                                                                              \
    const auto& lf_actual_   = (actual);                                            \
    const auto& lf_expected_ = (expected);                                          \
    if (!(lf_actual_ == lf_expected_)) {                                            \
      ++legate_fuse::testing::failures();                                           \
      std::cout << __FILE__ << ":" << __LINE__ << ": " #actual " is " << lf_actual_ \
                << ", expected " << lf_expected_ << "\n";                           \
    }                                                                               \
  } while (false)

#define LF_TEST_MAIN \
  int main() { return legate_fuse::testing::run_all(); }
