#pragma once

// Standard descriptors closed when the process starts: the next file the tool
// opens (a journal, a CSV) would take the number, and the progress line or the
// result would then be written into it.

namespace nqueens::cli {

/// What a tool does first, before anything opens a file:
/// reserve_standard_descriptors, and SIGXFSZ and SIGPIPE ignored, so that
/// a write past a file-size limit or to a closed pipe fails (EFBIG, EPIPE:
/// reported, exit 3) rather than killing the process; std::cerr routed as
/// route_standard_error says. Standard error or output that is a checkpoint
/// journal, any run's (`2>> run.ckpt`, `>> run.ckpt`), ends the process at
/// once, exit 2, the journal untouched (the reason on standard error for
/// the output, on the terminal where there is one for standard error).
void prepare_standard_streams(const char* program) noexcept;

}  // namespace nqueens::cli
