/* The machine's floating-point peak in float64, the compute roof of bench/run.py's roofline:
 * every OpenMP thread (one per core unless OMP_NUM_THREADS says otherwise) updates 12 x 8
 * independent accumulators with a multiply-add, acc = acc * m + c, so that GCC (-O3
 * -march=native -ffast-math -fopenmp) keeps every vector unit busy with fused multiply-adds
 * and no add waits for the one before it.
 *
 *     peak_flops [STEPS]     prints floating-point operations per second (a multiply-add as two)
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { CHAINS = 12, LANES = 8 };

int main(int argc, char** argv)
{
  const long steps = argc > 1 ? atol(argv[1]) : 20000000L;
  double best      = 0.0;
  for (int round = 0; round < 3; ++round) {
    double sink        = 0.0;
    const double start = omp_get_wtime();
    int threads        = 1;
#pragma omp parallel reduction(+ : sink)
    {
      threads = omp_get_num_threads();
      double acc[CHAINS][LANES];
      for (int a = 0; a < CHAINS; ++a) {
        for (int l = 0; l < LANES; ++l) {
          acc[a][l] = 1.0 + 1e-3 * (a * LANES + l);
        }
      }
      /* Close to 1 and a small step: the values stay normal numbers for any number of steps. */
      const double m = 0.9999999, c = 1e-7;
      for (long s = 0; s < steps; ++s) {
        for (int a = 0; a < CHAINS; ++a) {
          for (int l = 0; l < LANES; ++l) {
            acc[a][l] = acc[a][l] * m + c;
          }
        }
      }
      for (int a = 0; a < CHAINS; ++a) {
        for (int l = 0; l < LANES; ++l) {
          sink += acc[a][l];
        }
      }
    }
    const double seconds = omp_get_wtime() - start;
    const double flops   = 2.0 * CHAINS * LANES * (double)steps * threads / seconds;
    if (flops > best) {
      best = flops;
    }
    if (sink != sink) {
      return 1; /* keeps the result alive */
    }
  }
  printf("%.6g\n", best);
  return 0;
}
