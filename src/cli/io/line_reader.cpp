#include "cli/io/line_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "cli/io/stoppable_io.hpp"
#include "cli/signals.hpp"

namespace nqueens::cli {

namespace {

// Gives `line` room for `bytes`, no more (reserve() doubles the room where
// asked for less than twice what it has); false, `line` as it was, where a
// stop came first. The copy goes in slices with a look for a stop between:
// a 10^8-queen line's last copy faults in half a gigabyte of fresh pages,
// which took 1.2 s on a 2-vCPU guest, past a stop's second.
bool grow_exactly(std::string& line, std::size_t bytes) {
  constexpr std::size_t slice = std::size_t{1} << 24;
  std::string grown;
  grown.reserve(bytes);
  for (std::size_t at = 0; at < line.size(); at += slice) {
    if (stop_requested().load(std::memory_order_relaxed)) return false;
    grown.append(line, at, slice);
  }
  line.swap(grown);
  return true;
}

}  // namespace

input_error::input_error(int error)
    : std::runtime_error(std::string("cannot read standard input: ") + std::strerror(error)) {}

bool line_reader::fill() {
  at_ = 0;
  buffer_.clear();
  if (!read_more()) return false;
  if (skip_mark_) {
    // The mark's three bytes may come in more than one read (a pipe's writer
    // is free to split them).
    constexpr std::string_view mark = "\xEF\xBB\xBF";
    while (buffer_.size() < mark.size() && mark.starts_with(buffer_) && read_more()) {
    }
    skip_mark_ = false;
    if (buffer_.starts_with(mark)) at_ = mark.size();
    if (at_ == buffer_.size()) return fill();  // the mark alone so far
  }
  return true;
}

// Appends the next read of fd_ to the buffer: false at its end, or at a stop.
bool line_reader::read_more() {
  if (fd_ < 0) return false;
  const std::size_t held = buffer_.size();
  buffer_.resize(held + (std::size_t{1} << 16));
  std::size_t n = 0;
  const io_outcome outcome = read_unless_stopped(fd_, buffer_.data() + held, buffer_.size() - held, n);
  if (outcome == io_outcome::failed) throw input_error(errno);
  buffer_.resize(held + n);
  stopped_ = outcome == io_outcome::stopped;
  if (n == 0) fd_ = -1;  // a terminal is not asked again after its end of input (nor after a stop)
  return n > 0;
}

bool line_reader::next(std::string& line) {
  const auto line_break = [](char c) { return c == '\n' || c == '\r'; };
  cut_ = line_cut::none;
  if (skip_rest_) {  // the rest of the line cut short last time
    skip_rest_ = false;
    for (;;) {
      if (at_ == buffer_.size() && !fill()) return false;
      const auto end = std::find_if(buffer_.begin() + static_cast<std::ptrdiff_t>(at_), buffer_.end(), line_break);
      at_ = static_cast<std::size_t>(end - buffer_.begin());
      if (end != buffer_.end()) {
        after_cr_ = *end == '\r';
        ++at_;
        break;
      }
    }
  }
  line.clear();
  digits_ = 0;
  bool started = false;           // some of this line, or its break, was read
  std::size_t keep = max_bytes_;  // where the line is cut, and why: lowered by what is found in it
  line_cut why = line_cut::longest;
  const auto cut_at = [&](std::size_t at, line_cut reason) {
    if (at >= keep) return;
    keep = at;
    why = reason;
  };
  bool stray = false;   // a byte not in the alphabet was found
  bool capped = false;  // a capped byte was found
  for (;;) {
    // A line a stop cut short is no line: its start alone might read as a
    // placement of another size, or as none.
    if (at_ == buffer_.size() && !fill()) return started && !stopped_;
    if (after_cr_) {
      after_cr_ = false;
      if (buffer_[at_] == '\n') {
        ++at_;
        continue;
      }
    }
    started = true;
    const auto begin = buffer_.begin() + static_cast<std::ptrdiff_t>(at_);
    const auto end = std::find_if(begin, buffer_.end(), line_break);
    const std::size_t from = line.size();  // at most keep: a longer line was cut
    // Never more than a byte past the cut, and room doubled up to the cut's
    // at most: grown past it, a line past 2^31 / 15 bytes took 4.2 GB (its
    // old array and one of twice the size at once) to refuse a line of
    // 2 GiB, now 2.1 GB; the room of the cut taken at once would ask every
    // line past a few MB for 2 GiB of address space (ulimit -v).
    auto last = end;
    if (keep != std::string::npos) {
      if (static_cast<std::size_t>(end - begin) > keep + 1 - from)
        last = begin + static_cast<std::ptrdiff_t>(keep + 1 - from);
      const std::size_t needed = from + static_cast<std::size_t>(last - begin);
      if (needed > line.capacity()) {
        // The cut's room once doubling passes half of it: the copy then
        // holds less than half of the cut beside its new room, never a whole
        // cut's (reads of uneven sizes could double to just under the cut).
        const std::size_t doubled = std::max(needed, 2 * line.capacity());
        if (!grow_exactly(line, doubled >= keep / 2 ? keep + 1 : doubled)) {
          stopped_ = true;  // a line a stop cut short is no line
          fd_ = -1;
          return false;
        }
      }
    }
    line.append(begin, last);
    at_ = static_cast<std::size_t>(last - buffer_.begin());
    if (!alphabet_.empty() && !stray) {
      const std::size_t at = alphabet_.find_first(line, from, false);
      stray = at != std::string::npos;
      if (stray) cut_at(at + 21, line_cut::stray_byte);
    }
    if (!capped_bytes_.empty() && !capped) {
      const std::size_t at = capped_bytes_.find_first(line, from, true);
      capped = at != std::string::npos;
      if (capped && at < capped_max_bytes_) {
        cut_at(capped_max_bytes_, line_cut::capped);
      } else if (capped) {  // a line already longer than the cap is of a kind that holds no such byte
        cut_at(at + 21, line_cut::stray_byte);
      }
    }
    for (std::size_t k = from; max_digits_ != std::string::npos && k < line.size() && digits_ <= max_digits_; ++k) {
      digits_ = line[k] >= '0' && line[k] <= '9' ? digits_ + 1 : 0;
      if (digits_ > max_digits_) cut_at(k + 1, line_cut::long_digits);
    }
    if (line.size() > keep) {
      line.resize(keep);
      cut_ = why;
      if (last != end || end == buffer_.end()) {
        skip_rest_ = true;  // its end is still to come
      } else {
        after_cr_ = *end == '\r';
        ++at_;
      }
      return true;
    }
    if (end != buffer_.end()) {
      after_cr_ = *end == '\r';
      ++at_;
      return true;
    }
  }
}

}  // namespace nqueens::cli
