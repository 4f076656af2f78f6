// Just enough of CUDA to run a generated kernel on the host, for the tests (cuda_on_host.py):
// compiled as C++ in front of the kernel's source, with a launcher after it.
//
// A block's threads are real threads, so that __syncthreads is a barrier and the atomic folds
// race as on a device; blocks run one after another (a __shared__ array is then one static
// array, as each block's own). threadIdx and blockIdx are each thread's own. Math functions are
// the host C library's: the kernels then compute what the C kernels compute, so that the two
// are compared bit for bit and what is tested is the CUDA kernel's indexing, strides, folds
// and launch parameter.
#include <math.h>
#include <string.h>

#include <barrier>
#include <cstdint>
#include <thread>
#include <vector>

// The kernel's prelude defines the fixed-width integer types as NVRTC has them (int64_t is long
// long there, long here): under other names, so that they do not clash with the host's.
#define int8_t lf_cuda_int8_t
#define int16_t lf_cuda_int16_t
#define int32_t lf_cuda_int32_t
#define int64_t lf_cuda_int64_t
#define uint8_t lf_cuda_uint8_t
#define uint16_t lf_cuda_uint16_t
#define uint32_t lf_cuda_uint32_t
#define uint64_t lf_cuda_uint64_t
#undef INT8_MIN
#undef INT8_MAX
#undef INT16_MIN
#undef INT16_MAX
#undef INT32_MIN
#undef INT32_MAX
#undef INT64_MIN
#undef INT64_MAX
#undef UINT8_MAX
#undef UINT16_MAX
#undef UINT32_MAX
#undef UINT64_MAX
#undef INFINITY
#undef NAN

#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(threads)
#define __shared__ static

struct dim3 {
  unsigned int x = 1, y = 1, z = 1;
};
static thread_local dim3 threadIdx;
static thread_local dim3 blockIdx;
static dim3 blockDim;
static dim3 gridDim;
static std::barrier<>* lf_block_barrier = nullptr;

static inline void __syncthreads() { lf_block_barrier->arrive_and_wait(); }

static inline float __int_as_float(int bits)
{
  float value;
  memcpy(&value, &bits, sizeof value);
  return value;
}

static inline unsigned int atomicCAS(unsigned int* address, unsigned int compare,
                                     unsigned int value)
{
  __atomic_compare_exchange_n(address, &compare, value, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return compare;
}

static inline unsigned long long atomicCAS(unsigned long long* address, unsigned long long compare,
                                           unsigned long long value)
{
  __atomic_compare_exchange_n(address, &compare, value, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return compare;
}

// Runs `kernel(parameter)` over `blocks` blocks of `threads` threads.
template <typename Parameter>
static void lf_launch_on_host(void (*kernel)(Parameter), long long blocks, unsigned int threads,
                              const Parameter& parameter)
{
  gridDim.x  = static_cast<unsigned int>(blocks);
  blockDim.x = threads;
  for (long long b = 0; b < blocks; ++b) {
    std::barrier<> barrier(threads);
    lf_block_barrier = &barrier;
    std::vector<std::thread> block;
    block.reserve(threads);
    for (unsigned int t = 0; t < threads; ++t) {
      block.emplace_back([=, &parameter] {
        threadIdx.x = t;
        blockIdx.x  = static_cast<unsigned int>(b);
        kernel(parameter);
      });
    }
    for (auto& thread : block) {
      thread.join();
    }
  }
}
