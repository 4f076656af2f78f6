#pragma once

#include <cstddef>
#include <cstdint>

#include "tasks/random_draws.h"
#include "tasks/randutil.h"

namespace legate_fuse {

// A draw of many values, made in parts on the kernel threads with the numbers and the final
// generator state of one call of cuPyNumeric's random library.
//
// randutil draws a block's values one after the other from one generator, so one call runs on
// one core. Each value of a distribution takes a fixed count of the generator's 32-bit numbers
// (normal and log-normal values: a pair from a fixed count, the second kept in the state for
// the next value), so the state at any value of the block is the state at its start advanced
// by a known count of numbers; cuRAND's XORWOW, cuPyNumeric's default, advances by any count in
// a few microseconds (xorwow.h). Each part is then one call of randutil on a generator of ours
// set to the state at the part's first value, and the last part is drawn from the program's
// generator itself, first moved to that state, so that it ends where one call leaves it.
//
// This writes the state of randutil's generators, which cuPyNumeric does not export: once per
// process, before the first draw in parts, a check makes every kind of draw both ways on
// generators of its own and compares the numbers and the states they end in; if anything
// differs, or the generator is not XORWOW, draws are made by one call as before.

// Fills `out` with `n` values of `draw` (its kind and parameters) from `generator` (of cuRAND
// type `curand_type`), exactly as one call of randutil would, in parts where that pays: where
// the kernel threads are several, the block holds at least two parts of the kernels' least
// part size (KernelThreads::min_part_elements), the check passed and, for normal and
// log-normal values, no value is kept from the generator's last draw. Throws
// std::runtime_error if randutil reports a failure.
void draw_values(const Randutil& functions, RandutilGenerator generator, std::int32_t curand_type,
                 const Draw& draw, void* out, std::size_t n);

// Draws made in parts so far, in this process (statistics and tests).
[[nodiscard]] std::uint64_t split_draw_runs();

// The check, made once: whether draws in parts give exactly one call's numbers and final
// state, for every kind of draw (false if cuPyNumeric's library is not loaded).
[[nodiscard]] bool draws_in_parts_match_one_call();

}  // namespace legate_fuse
