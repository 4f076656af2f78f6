#pragma once

#include <legate.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "runtime/row_call_abi.h"

namespace legate_fuse {

// Row calls: routines of other Legate libraries that a fused task runs on its point's block
// before its kernel, into a result the kernel then reads (ir/window.h: ReadCall, WriteCall).
// legate_csr's sparse product is one: each point computes the rows of its block, reading the
// matrix's elements and the entries of `x` it needs through image partitions.
//
// A library registers each routine in every process under a name by which a FUSED task's
// layout names it (the same in every process, unlike the routine's address). The routine takes
// its task's stores in the order of the task it stands for, and computes what that task
// computes, so that the kernel reads the very bits the task would have written; it may run
// its work in parts on the fused task's threads (runtime/row_call_abi.h).
using RowCallFunction = void (*)(const legate::PhysicalStore* stores, std::size_t count,
                                 const legate_fuse_row_parts* parts);

// Registers `function` (an address in this process) under `name`; a name registered again
// takes the new address.
void register_row_call(const std::string& name, std::uintptr_t function);

// The routine registered under `name`; throws std::out_of_range when there is none.
[[nodiscard]] RowCallFunction row_call(const std::string& name);

}  // namespace legate_fuse
