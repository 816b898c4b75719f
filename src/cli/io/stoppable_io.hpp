#pragma once

// Reads and writes of the standard streams that a stop signal ends. A
// reader that stops reading (a paused pager, `| sleep`) or a writer that
// never writes (`sleep 30 | nqueens check`)
// leaves a plain read() or write() waiting as long as it pleases, and the
// stop handlers restart it (SA_RESTART, signals.cpp): the stop would wait
// for them. Here the wait is a poll(), which a signal always interrupts,
// looked at again at least every 100 ms (for a signal that came just
// before it), and stop_requested() ends it.

#include <sys/types.h>

#include <chrono>
#include <cstddef>

namespace nqueens::cli {

enum class io_outcome {
  done,     ///< every byte written; or what there was read
  failed,   ///< errno says why
  stopped,  ///< stop_requested() came first
};

/// Writes all `size` bytes of `data` to `fd` unless a stop ends a wait for
/// room first (what a reader takes at once still goes after a stop). To a
/// descriptor that may wait on a reader (not a regular file), once poll()
/// says there is room, as much as a write takes without waiting (a
/// pipe's free room; elsewhere PIPE_BUF bytes). `written` (may be null) says how many went.
/// With `whole_lines`, each such write ends at a line's end where the room
/// holds one: a stop then leaves the reader whole lines (but for one line
/// longer than the room).
io_outcome write_unless_stopped(int fd, const void* data, std::size_t size, std::size_t* written = nullptr,
                                bool whole_lines = false);

/// As write_unless_stopped, for a message on stderr: once a stop came, the
/// wait for room goes on for message_grace more (the line that says what
/// the stop did reaches a slow reader), then the rest is dropped (a full
/// pipe nobody reads held the process after its stop until SIGKILL); a
/// message dropped so leaves every later one no wait. `stopped` then.
io_outcome write_message(int fd, const void* data, std::size_t size);
inline constexpr std::chrono::milliseconds message_grace{1000};

/// As write_unless_stopped, for a display that must never hold up the
/// work (the progress line): its waits for room add up to display_patience
/// at most, stop or not, then the rest is dropped (`stopped`). Without it
/// a stderr that takes nothing held the count's end for good.
io_outcome write_display(int fd, const void* data, std::size_t size);
inline constexpr std::chrono::milliseconds display_patience{250};

/// One read() of up to `size` bytes from `fd` once poll() says there is
/// something (or its end), unless a stop came before or comes meanwhile;
/// `got` then holds what was read (0 at the end).
io_outcome read_unless_stopped(int fd, void* data, std::size_t size, std::size_t& got);

}  // namespace nqueens::cli
