/* Black-Scholes as a C programmer writes it for speed: the pricing of bench/apps/black_scholes.py
 * (the same options, the same rate sweep, the same running total), one loop over the options
 * per pricing, parallel over both cores with OpenMP, compiled with -O3 -march=native
 * -ffast-math so that GCC calls glibc's vector math library (libmvec) for exp and log. The
 * bound a hand-written program reaches on this machine; not bit for bit.
 *
 *     black_scholes SIZE ITERATIONS     prints one RESULT line as the applications do
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const double RISK_FREE = 0.02, VOLATILITY = 0.30, RATE_STEP = 1e-5;

static double spread(double i, double alpha, double low, double high)
{
  return low + (high - low) * fmod(i * alpha + 0.5, 1.0);
}

static double normal_cdf_tail(double d, double* k_out)
{
  const double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
  const double poly =
      k *
      (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))));
  *k_out = k;
  return 0.39894228040143267793994605993438 * exp(-0.5 * d * d) * poly;
}

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void price_all(long n, const double* price, const double* strike, const double* years,
                      double rate, double* total)
{
#pragma omp parallel for simd schedule(static)
  for (long i = 0; i < n; ++i) {
    const double sqrt_t = sqrt(years[i]);
    const double d1 =
        (log(price[i] / strike[i]) + (rate + 0.5 * VOLATILITY * VOLATILITY) * years[i]) /
        (VOLATILITY * sqrt_t);
    const double d2 = d1 - VOLATILITY * sqrt_t;
    double k;
    const double tail1 = normal_cdf_tail(d1, &k), tail2 = normal_cdf_tail(d2, &k);
    const double cnd1 = d1 > 0 ? 1.0 - tail1 : tail1, cnd2 = d2 > 0 ? 1.0 - tail2 : tail2;
    const double discount = exp(-rate * years[i]);
    const double call     = price[i] * cnd1 - strike[i] * discount * cnd2;
    const double put      = strike[i] * discount * (1.0 - cnd2) - price[i] * (1.0 - cnd1);
    total[i] += call + put;
  }
}

int main(int argc, char** argv)
{
  if (argc != 3) {
    fprintf(stderr, "usage: %s SIZE ITERATIONS\n", argv[0]);
    return 2;
  }
  const long n         = atol(argv[1]);
  const int iterations = atoi(argv[2]);
  double *price = malloc(sizeof(double) * (size_t)n), *strike = malloc(sizeof(double) * (size_t)n);
  double *years = malloc(sizeof(double) * (size_t)n), *total = malloc(sizeof(double) * (size_t)n);
  if (!price || !strike || !years || !total) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) { /* first touch by the thread that prices the element */
    price[i]  = spread((double)i, 0.8191725133961645, 5.0, 30.0);
    strike[i] = spread((double)i, 0.6710436067037893, 1.0, 100.0);
    years[i]  = spread((double)i, 0.5497004779019703, 0.25, 10.0);
    total[i]  = 0.0;
  }
  int pricing = 0;
  price_all(n, price, strike, years, RISK_FREE + RATE_STEP * pricing++, total); /* warm-up */
  const double start = now();
  for (int it = 0; it < iterations; ++it) {
    price_all(n, price, strike, years, RISK_FREE + RATE_STEP * pricing++, total);
  }
  const double seconds = (now() - start) / iterations;
  double checksum      = 0.0;
  for (long i = 0; i < n; ++i) checksum += total[i];
  printf(
      "RESULT {\"app\": \"black_scholes[c]\", \"size\": %ld, \"seconds_per_iteration\": %.9g, "
      "\"checksum\": %.17g}\n",
      n, seconds, checksum);
  return 0;
}
