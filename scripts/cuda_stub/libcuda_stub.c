/* A stand-in for the NVIDIA driver library (libcuda.so.1) on hosts without one.
 *
 * Legate's and cuPyNumeric's wheels link libcuda.so.1 directly for four symbols and load the
 * rest through dlopen. This library provides those four plus the entry points Realm probes at
 * start-up, all reporting "no device", so Legate starts with CPUs only. It is built by the
 * project's set-up only when no real driver can be loaded; a real driver always wins. */
#include <stddef.h>

typedef int CUresult;
enum { CUDA_SUCCESS = 0, CUDA_ERROR_NO_DEVICE = 100 };

static const char kNoDevice[] = "CUDA_ERROR_NO_DEVICE (no NVIDIA driver: libcuda stub)";

CUresult cuInit(unsigned int flags) {
  (void)flags;
  return CUDA_ERROR_NO_DEVICE;
}

CUresult cuDriverGetVersion(int* version) {
  if (version != NULL) *version = 0;
  return CUDA_ERROR_NO_DEVICE;
}

CUresult cuDeviceGetCount(int* count) {
  if (count != NULL) *count = 0;
  return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult error, const char** name) {
  (void)error;
  if (name != NULL) *name = "CUDA_ERROR_NO_DEVICE";
  return CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult error, const char** text) {
  (void)error;
  if (text != NULL) *text = kNoDevice;
  return CUDA_SUCCESS;
}

CUresult cuMemFreeHost(void* ptr) {
  (void)ptr;
  return CUDA_ERROR_NO_DEVICE;
}

CUresult cuMemFree_v2(unsigned long long ptr) {
  (void)ptr;
  return CUDA_ERROR_NO_DEVICE;
}
