#pragma once

#include <legate.h>

#include <cstdint>

#include "tasks/task_ids.h"

namespace legate_fuse {

// Random numbers a fused task draws before its kernel runs, from cuPyNumeric's own generators.
//
// cuPyNumeric's BITGENERATOR task keeps one generator per processor and generator id in its
// library (created on the processor's first draw, seeded with the program's seed and the
// processor's id) and fills its result block by one call of its random library (randutil),
// which advances that generator. A fused task makes the same call on the same generator
// object, found the way cuPyNumeric's task finds it, so the numbers are the very ones its task
// would have drawn and the generator is where it would have left it: a draw fused or not,
// before or after, continues the same stream. The generator's holder is read through the
// functions cuPyNumeric exports for it; its layout is checked by a probe task before any draw
// is lifted (lift/random_draws.py) and again at each draw.

// What a draw fills its result with: cuPyNumeric's distributions of those lifted, each one
// call of randutil.
enum class DrawKind : std::int32_t {
  Raw         = 0,  // uint32: the generator's raw output (random_raw)
  Integers16  = 1,  // [low, high) of int16, int32, int64
  Integers32  = 2,
  Integers64  = 3,
  Uniform32   = 4,  // [low, high) of float32, float64
  Uniform64   = 5,
  Normal32    = 6,  // mean, standard deviation
  Normal64    = 7,
  LogNormal32 = 8,
  LogNormal64 = 9,
};

struct Draw {
  std::uint32_t out{};  // the task's output written (whole): the kernel reads it
  DrawKind kind{};
  std::uint32_t generator{};       // cuPyNumeric's generator id
  std::uint32_t generator_type{};  // cuPyNumeric's BitGeneratorType
  std::uint64_t seed{};
  std::uint32_t flags{};
  double reals[2]{};  // the distribution's parameters (float32 ones widened: exact)
  std::int64_t integers[2]{};
};

// Whether cuPyNumeric's library is loaded with the functions a draw calls.
[[nodiscard]] bool random_draws_available();

// Fills `out` (one point's block, row-major order as cuPyNumeric's task fills it) as
// cuPyNumeric's BITGENERATOR task with the draw's arguments would, from its generator of this
// processor. Throws std::runtime_error when a function is missing or the generator found is
// not laid out as expected.
void draw_random(const Draw& draw, const legate::PhysicalStore& out);

// The probe: run inside a task on a CPU, whether a generator cuPyNumeric's holder creates is
// found and laid out as draw_random reads it (its seed, processor and type where expected, its
// numbers those of a generator made alike). Creates a generator of an id cuPyNumeric never
// gives (the largest ones, counting down); never throws.
[[nodiscard]] bool probe_random_generators();

// A task of one int32 output of one element: 1 when probe_random_generators() holds, else 0.
class RandomProbeTask : public legate::LegateTask<RandomProbeTask> {
 public:
  static inline const auto TASK_CONFIG =
      legate::TaskConfig{legate::LocalTaskID{TaskId::RANDOM_PROBE}};

  static void cpu_variant(legate::TaskContext context);
};

}  // namespace legate_fuse
