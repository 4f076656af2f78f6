#include "codegen/vector_checks.h"

namespace legate_fuse::codegen {
namespace {

// Where the vector form rounds as the library: whether it is also faster on this machine. It
// is not everywhere (without AVX-512, GCC leaves some forms' loops scalar, and a lane then
// computes every path of the algorithm: expm1 and tanh took twice the library's time on an
// AVX2 CPU). Both are timed over `x` (and `y`), the vector form as kernels call it (tiles of
// 256 values, the library for the special ones), best of 5; the program exits with 3 where
// the vector form is not faster. `type` is the values' C type, `arguments` the call's
// arguments given an index `i` ("x[i]" or "x[i], y[i]"); `common` the vector form's value,
// `special` whether the library computes the element instead (given the value in out[i]).
// Timed on the inputs off the special paths only (lf_common_only), as kernels mostly see.
std::string timing(const std::string& function, const std::string& type,
                   const std::string& arguments, const std::string& common,
                   const std::string& special, bool draw)
{
  const std::string values = type + "* x, " + type + "* y";
  const std::string bits   = type == "float" ? "lf_float((uint32_t)state)" : "lf_double(state)";
  const std::string draw_common =
      R"(/* Fills x (and y, the same) with values off the special paths, drawn from every bit pattern. */
static long lf_draw_common()" +
      values + R"(, long n)
{
  uint64_t state = 0x9e3779b97f4a7c15ULL;
  for (long i = 0; i < n;) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    x[i] = )" +
      bits + R"(;
    y[i] = x[i];
    if (!()" +
      special + R"()) ++i;
  }
  return n;
}

)";
  return R"(
#include <time.h>

static double lf_now(void)
{
  struct timespec t;
  timespec_get(&t, TIME_UTC); /* C11's clock (the checks are compiled as C11) */
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

__attribute__((noinline)) static void lf_time_vector()" +
         values + ", " + type + R"(* out, long n)
{
  (void)y;
  for (long tile = 0; tile < n; tile += 256) {
    const long end = n - tile < 256 ? n : tile + 256;
    int special = 0;
    for (long i = tile; i < end; ++i) {
      out[i] = )" +
         common + R"(;
      special |= )" +
         special + R"(;
    }
    if (special) {
      for (long i = tile; i < end; ++i) {
        if ()" +
         special + ") out[i] = " + function + "(" + arguments + R"();
      }
    }
  }
}

__attribute__((noinline)) static void lf_time_library()" +
         values + ", " + type + R"(* out, long n)
{
  (void)y;
  for (long i = 0; i < n; ++i) out[i] = )" +
         function + "(" + arguments + R"();
}

/* Keeps, in order, the inputs off the special paths; returns how many. */
static long lf_common_only()" +
         values + R"(, long n)
{
  )" + type +
         R"(* out = malloc(sizeof(*out) * (size_t)n);
  if (!out) return 0;
  long kept = 0;
  for (long i = 0; i < n; ++i) {
    out[i] = )" +
         common + R"(;
    if (!()" +
         special + R"()) {
      x[kept] = x[i];
      y[kept] = y[i];
      out[kept] = out[i];
      ++kept;
    }
  }
  free(out);
  return kept;
}

)" + (draw ? draw_common : std::string()) +
         R"(/* 0 where the vector form is faster than the library here (or too few inputs tell), else 3. */
static int lf_faster()" +
         values + R"(, long n)
{
  n = )" +
         std::string(draw ? "lf_draw_common" : "lf_common_only") +
         R"((x, y, n);
  if (n < 100000) return 0;
  )" + type +
         R"(* out = malloc(sizeof(*out) * (size_t)n);
  if (!out) return 2;
  double vector = 1e30, library = 1e30;
  for (int run = 0; run < 5; ++run) {
    double start = lf_now();
    lf_time_vector(x, y, out, n);
    const double v = lf_now() - start;
    start = lf_now();
    lf_time_library(x, y, out, n);
    const double l = lf_now() - start;
    vector = v < vector ? v : vector;
    library = l < library ? l : library;
  }
  free(out);
  printf("vector form %.3f ms, C library %.3f ms\n", 1e3 * vector, 1e3 * library);
  return vector < library ? 0 : 3;
}
)";
}

}  // namespace

std::string float64_check_main(const std::string& function, int rounds, const std::string& input,
                               const std::string& specials)
{
  const std::string common  = "lf_" + function + "_common(x[i])";
  const std::string special = "lf_" + function + "_special(x[i])";
  return R"(
#include <stdio.h>
#include <stdlib.h>
)" + timing(function, "double", "x[i]", common, special, true) +
         R"(
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
  return differences == 0 ? lf_faster(x, x, n) : 1;
}
)";
}

std::string float64_binary_check_main(const std::string& function, int rounds,
                                      const std::string& input, const std::string& specials)
{
  const std::string special = "lf_" + function + "_special(x[i], y[i], out[i])";
  return R"(
#include <stdio.h>
#include <stdlib.h>
)" +
         timing(function, "double", "x[i], y[i]", "lf_" + function + "_common(x[i], y[i])", special,
                false) +
         R"(
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
  return differences == 0 ? lf_faster(x, y, n) : 1;
}
)";
}

std::string float32_check_main(const std::string& function, const std::string& specials)
{
  const std::string common  = "lf_" + function + "_common(x[i])";
  const std::string special = "lf_" + function + "_special(x[i])";
  return R"(
#include <stdio.h>
#include <stdlib.h>
)" + timing(function, "float", "x[i]", common, special, true) +
         R"(
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
  if (differences != 0) return 1;
  const long n = 2000000;
  float* x = malloc(sizeof(float) * n);
  if (!x) return 2;
  return lf_faster(x, x, n);
}
)";
}

}  // namespace legate_fuse::codegen
