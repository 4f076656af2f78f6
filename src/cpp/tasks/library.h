#pragma once

namespace legate_fuse {

// Creates the Legate library "legate_fuse" and registers its tasks. Idempotent; must be called
// after the Legate runtime has started.
void register_library();

}  // namespace legate_fuse
