#pragma once

// std::cerr written through write_message (stoppable_io.hpp): as before
// until a stop comes, and then a stderr that takes nothing (a full pipe
// nobody reads, a terminal paused with Ctrl-S) holds the stop's report at
// most message_grace before it is dropped, where a plain write held the
// process until a second signal or SIGKILL.

namespace nqueens::cli {

/// Points std::cerr at standard error through write_message, a whole line
/// a write (std::flush, and the exit, write the start of one too); once,
/// before anything is written there.
void route_standard_error() noexcept;

}  // namespace nqueens::cli
