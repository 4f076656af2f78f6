#include "runtime/launch_parameter.h"

#include <algorithm>
#include <cstring>

namespace legate_fuse {

std::vector<char> cuda_launch_parameter(std::int64_t volume, std::int32_t ndim,
                                        const std::int64_t* extents,
                                        const std::vector<legate_fuse_array>& arrays,
                                        const std::vector<char>& scalars)
{
  legate_fuse_launch_header header{};
  header.volume = volume;
  header.ndim   = ndim;
  std::copy(extents, extents + LEGATE_FUSE_MAX_DIM, header.extents);
  const std::size_t arrays_size = arrays.size() * sizeof(legate_fuse_array);
  std::vector<char> parameter(sizeof(header) + arrays_size + scalars.size());
  std::memcpy(parameter.data(), &header, sizeof(header));
  if (arrays_size > 0) {
    std::memcpy(parameter.data() + sizeof(header), arrays.data(), arrays_size);
  }
  if (!scalars.empty()) {
    std::memcpy(parameter.data() + sizeof(header) + arrays_size, scalars.data(), scalars.size());
  }
  return parameter;
}

std::int64_t cuda_blocks(std::int64_t volume)
{
  return std::min<std::int64_t>(
      (volume + LEGATE_FUSE_CUDA_BLOCK_SIZE - 1) / LEGATE_FUSE_CUDA_BLOCK_SIZE, CUDA_MAX_BLOCKS);
}

}  // namespace legate_fuse
