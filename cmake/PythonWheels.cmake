# Locating Legate and the CUDA headers inside installed Python wheels.

function(_legate_fuse_python_query out code)
  execute_process(COMMAND "${Python_EXECUTABLE}" -c "${code}"
                  OUTPUT_VARIABLE value OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "legate-fuse: Python query failed: ${code}")
  endif()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

# CMake's FindCUDAToolkit looks for nvcc, which the wheels do not carry, unless the CUDA language
# already told it where the toolkit is. Describing the wheels' folder the way an enabled CUDA
# language would lets it take the headers and libcudart from there.
macro(_legate_fuse_use_wheel_cuda root)
  file(STRINGS "${root}/include/cuda_runtime_api.h" _cudart_line REGEX "#define CUDART_VERSION +[0-9]+")
  string(REGEX MATCH "[0-9]+$" _cudart "${_cudart_line}")
  math(EXPR _cuda_major "${_cudart} / 1000")
  math(EXPR _cuda_minor "(${_cudart} % 1000) / 10")
  set(CMAKE_CUDA_COMPILER_TOOLKIT_ROOT "${root}")
  set(CMAKE_CUDA_COMPILER_LIBRARY_ROOT "${root}")
  set(CMAKE_CUDA_COMPILER_TOOLKIT_VERSION "${_cuda_major}.${_cuda_minor}.0")
  set(CMAKE_CUDA_HOST_IMPLICIT_LINK_DIRECTORIES "${root}/lib")
  set(CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES "${root}/include")
  set(CUDA_CUDART "${root}/lib/libcudart.so.${_cuda_major}" CACHE FILEPATH "" FORCE)
endmacro()

# find_package(legate) from the legate wheel, with CUDA headers from the nvidia-cuda-* wheels.
# Legate's headers need the CUDA runtime headers even for a CPU-only build; taking them from
# wheels keeps the build independent of any toolkit installed on the host.
# Defines the target legate_fuse_legate.
macro(legate_fuse_find_legate)
  _legate_fuse_python_query(LEGATE_FUSE_LEGATE_DIR
    "import legate, os; print(os.path.dirname(legate.__file__))")
  _legate_fuse_python_query(LEGATE_FUSE_CUDA_WHEEL_DIR [=[
import nvidia, os
roots = [os.path.join(p, "cu13") for p in nvidia.__path__]
hits = [r for r in roots if os.path.exists(os.path.join(r, "include", "cuda_runtime.h"))]
print(hits[0] if hits else "")
]=])
  if(LEGATE_FUSE_CUDA_WHEEL_DIR STREQUAL "")
    message(FATAL_ERROR "legate-fuse: CUDA runtime headers not found; "
                        "install the nvidia-cuda-runtime and nvidia-cuda-crt wheels")
  endif()
  _legate_fuse_use_wheel_cuda("${LEGATE_FUSE_CUDA_WHEEL_DIR}")
  list(PREPEND CMAKE_PREFIX_PATH "${LEGATE_FUSE_LEGATE_DIR}" "${LEGATE_FUSE_LEGATE_DIR}/lib64/cmake")
  find_package(legate REQUIRED CONFIG)
  # legate::legate plus the CUDA headers its own headers include.
  add_library(legate_fuse_legate INTERFACE)
  target_link_libraries(legate_fuse_legate INTERFACE legate::legate)
  target_include_directories(legate_fuse_legate SYSTEM INTERFACE
                             "${LEGATE_FUSE_CUDA_WHEEL_DIR}/include")
  message(STATUS "legate-fuse: legate from ${LEGATE_FUSE_LEGATE_DIR}, "
                 "CUDA headers from ${LEGATE_FUSE_CUDA_WHEEL_DIR}")
endmacro()

# RPATH (not RUNPATH) so the module finds liblegate and its dependencies in the wheels beside it,
# whatever was imported first.
function(legate_fuse_set_wheel_rpath target)
  set_target_properties(${target} PROPERTIES
    INSTALL_RPATH "$ORIGIN/../legate/lib64;$ORIGIN/../legate/lib64/legate/deps;$ORIGIN/../nvidia/nccl/lib"
    BUILD_WITH_INSTALL_RPATH ON)
  target_link_options(${target} PRIVATE "LINKER:--disable-new-dtags")
endfunction()
