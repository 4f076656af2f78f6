#include "codegen/vector_checks.h"

namespace legate_fuse::codegen {

std::string float64_check_main(const std::string& function, int rounds, const std::string& input,
                               const std::string& specials)
{
  return R"(
#include <stdio.h>
#include <stdlib.h>

static int compare(const double* x, long n)
{
  int differences = 0;
  for (long i = 0; i < n; ++i) {
    const double want = )" +
         function + R"((x[i]);
    const double got = lf_)" +
         function + "_special(x[i]) ? " + function + "(x[i]) : lf_" + function +
         R"(_common(x[i]);
    if (lf_bits(want) != lf_bits(got)) {
      if (differences < 5) printf(")" +
         function + R"((%a): C library %a, vector form %a\n", x[i], want, got);
      ++differences;
    }
  }
  return differences;
}

int main(void)
{
  const long n = 2000000;
  double* x = malloc(sizeof(double) * n);
  if (!x) return 2;
  uint64_t state = 88172645463325252ULL;
  int differences = 0;
  for (int round = 0; round < )" +
         std::to_string(rounds) + R"(; ++round) {
    for (long i = 0; i < n; ++i) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      const double u = (double)(state >> 11) * 0x1p-53;
      )" +
         input +
         R"(
    }
    differences += compare(x, n);
  }
  const double specials[] = {)" +
         specials + R"(};
  differences += compare(specials, (long)(sizeof specials / sizeof specials[0]));
  printf("%d differences\n", differences);
  return differences == 0 ? 0 : 1;
}
)";
}

std::string float64_binary_check_main(const std::string& function, int rounds,
                                      const std::string& input, const std::string& specials)
{
  return R"(
#include <stdio.h>
#include <stdlib.h>

static int compare(const double* x, const double* y, long n)
{
  int differences = 0;
  for (long i = 0; i < n; ++i) {
    const double want = )" +
         function + R"((x[i], y[i]);
    const double common = lf_)" +
         function + R"(_common(x[i], y[i]);
    const double got = lf_)" +
         function + "_special(x[i], y[i], common) ? " + function +
         R"((x[i], y[i]) : common;
    if (lf_bits(want) != lf_bits(got)) {
      if (differences < 5) printf(")" +
         function + R"((%a, %a): C library %a, vector form %a\n", x[i], y[i], want, got);
      ++differences;
    }
  }
  return differences;
}

int main(void)
{
  const long n = 2000000;
  double* x = malloc(sizeof(double) * n);
  double* y = malloc(sizeof(double) * n);
  if (!x || !y) return 2;
  uint64_t state = 88172645463325252ULL;
  int differences = 0;
  for (int round = 0; round < )" +
         std::to_string(rounds) + R"(; ++round) {
    for (long i = 0; i < n; ++i) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      const double u = (double)(state >> 11) * 0x1p-53;
      const double v = (double)((state * 0x9e3779b97f4a7c15ULL) >> 11) * 0x1p-53;
      )" +
         input +
         R"(
    }
    differences += compare(x, y, n);
  }
  const double specials[][2] = {)" +
         specials + R"(};
  for (unsigned k = 0; k < sizeof specials / sizeof specials[0]; ++k) {
    differences += compare(&specials[k][0], &specials[k][1], 1);
  }
  printf("%d differences\n", differences);
  return differences == 0 ? 0 : 1;
}
)";
}

std::string float32_check_main(const std::string& function, const std::string& specials)
{
  return R"(
#include <stdio.h>

static int compare(float x)
{
  if (lf_)" +
         function +
         R"(_special(x)) return 0;
  const float want = )" +
         function + R"((x);
  const float got = lf_)" +
         function + R"(_common(x);
  if (lf_fbits(want) == lf_fbits(got)) return 0;
  printf(")" +
         function +
         R"((%a): C library %a, vector form %a\n", x, want, got);
  return 1;
}

int main(void)
{
  long differences = 0;
  for (uint64_t u = 0; u < (1ULL << 32) && differences < 5; u += 61) {
    differences += compare(lf_float((uint32_t)u));
  }
  const float specials[] = {)" +
         specials + R"(};
  for (unsigned k = 0; k < sizeof specials / sizeof specials[0]; ++k) {
    differences += compare(specials[k]);
  }
  printf("%ld differences\n", differences);
  return differences == 0 ? 0 : 1;
}
)";
}

}  // namespace legate_fuse::codegen
