// Replaying a journal: its records read back, a block at a time, into the
// bit per subproblem and the exact sums a resumed run starts from.

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

#include "nqueens/checkpoint.hpp"
#include "run/journal_io.hpp"
#include "run/journal_layout.hpp"
#include "run/journal_state.hpp"
#include "run/shard_members.hpp"

namespace nqueens {
namespace {
using namespace detail::journal;  // NOLINT(google-build-using-namespace): the format's own names
using detail::fail;
using detail::journal_name;
}  // namespace

// Reads the records after a header checkpoint_file has checked, a block at a
// time (memory bounded whatever the file's size), and cuts off a torn tail.
void checkpoint_journal::load(const plan& p, shard_spec shard, const std::atomic<bool>* cancel) {
  using reason = checkpoint_error::reason;
  const int fd = state_->file.fd_;
  const std::string name = journal_name(state_->path);
  const auto expected = header_for(p, shard);
  std::array<unsigned char, header_size> h{};
  if (::lseek(fd, 0, SEEK_SET) != 0 || detail::read_up_to(fd, h.data(), h.size()) != static_cast<ssize_t>(h.size())) {
    fail(reason::unusable, "cannot read " + name + ": " + std::strerror(errno));
  }
  if (std::memcmp(h.data(), expected.data(), header_size) != 0) {
    fail(reason::foreign, name + " belongs to another run (" + describe_run(h.data()) + "), not this one (" +
                              describe_run(expected.data()) + ")");
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail(reason::unusable, "cannot read " + name + ": " + std::strerror(errno));
  const auto file_size = static_cast<std::uint64_t>(st.st_size);
  const detail::shard_members owned(p, shard);  // the subproblems this shard counts
  const std::size_t owned_count = owned.size();
  const auto bit_of = [](const std::vector<std::uint64_t>& bits, std::size_t i) {
    return ((bits[i / 64] >> (i % 64)) & 1U) != 0;
  };

  // The first record that fails its checksum starts the tail. A crash during
  // one flush can leave there only what that flush was writing: a record cut
  // short, and zeros where the file grew before its data reached the disk (a
  // record may straddle the last page that did). So the tail is torn, and cut
  // off, when every byte past the first record_size - 1 of it is zero; any
  // other byte there is damage.
  struct repeat {
    std::size_t index, record_number;
    subproblem_count count;
  };
  std::vector<repeat> repeats;  // records of a subproblem already held (none in a journal a run wrote)
  constexpr std::size_t block_records = 4096;
  std::vector<unsigned char> block(block_records * record_size);
  std::uint64_t offset = header_size;  // of block[0]
  std::optional<std::uint64_t> tail;   // where the torn tail starts
  std::size_t record_number = 0;
  for (;;) {
    detail::throw_if_cancelled(cancel);  // a block of 4096 records: well under a millisecond
    const ssize_t got = detail::read_up_to(fd, block.data(), block.size());
    if (got < 0) fail(reason::unusable, "cannot read " + name + ": " + std::strerror(errno));
    const auto size = static_cast<std::size_t>(got);
    for (std::size_t at = 0; at < size; at += record_size) {
      const unsigned char* r = block.data() + at;
      const std::uint64_t where_bytes = offset + at;
      const std::size_t length = std::min(record_size, size - at);
      if (!tail && (length < record_size || !checksum_matches(r, record::checksum))) {
        // Nothing is written after the mark: whatever follows it is damage,
        // never a torn flush to cut off.
        if (state_->complete) {
          fail(reason::corrupt, name + ": " + std::to_string(file_size - where_bytes) + " bytes at byte " +
                                    std::to_string(where_bytes) + " follow the completion mark");
        }
        tail = where_bytes;
        // One flush writes at most a record per subproblem: a longer tail is
        // no torn flush (and a sparse terabyte is not scanned to find out).
        if (file_size - where_bytes > (p.size() + 1) * record_size) {
          fail(reason::corrupt, name + ": record " + std::to_string(record_number) + " at byte " +
                                    std::to_string(where_bytes) + " is damaged (checksum mismatch), and " +
                                    std::to_string(file_size - where_bytes) +
                                    " bytes follow it, more than one flush writes");
        }
      }
      if (tail) {
        for (std::size_t k = 0; k < length; ++k) {
          if (r[k] != 0 && where_bytes + k >= *tail + record_size - 1) {
            fail(reason::corrupt, name + ": record " + std::to_string((*tail - header_size) / record_size) +
                                      " at byte " + std::to_string(*tail) +
                                      " is damaged (checksum mismatch), and it is no torn end: byte " +
                                      std::to_string(where_bytes + k) + " is not zero");
          }
        }
        continue;
      }
      const std::string where =
          name + ": record " + std::to_string(record_number) + " at byte " + std::to_string(where_bytes);
      if (state_->complete) fail(reason::corrupt, where + " follows the completion mark");
      const auto type = static_cast<std::uint32_t>(get(r, record::type));
      const auto index = static_cast<std::size_t>(get(r, record::index));
      const subproblem_count c = counts_of(r);
      if (type == static_cast<std::uint32_t>(record_type::complete)) {
        if (state_->held_sums.finished != owned_count)
          fail(reason::corrupt, where + " marks the run complete with subproblems missing");
        state_->complete = true;
      } else if (type == static_cast<std::uint32_t>(record_type::subproblem) && index < p.size() &&
                 owned.contains(index)) {
        if (bit_of(state_->held, index)) {
          // Harmless if it repeats the first record: checked below, once the
          // first ones are known (a bit each is all this pass keeps).
          if (repeats.size() >= owned_count) {
            fail(reason::corrupt, where + " repeats a subproblem: more records than the shard has subproblems");
          }
          repeats.push_back({index, record_number, c});
        } else {
          state_->held[index / 64] |= std::uint64_t{1} << (index % 64);
          accumulate(state_->held_sums, c);
        }
      } else {
        fail(reason::corrupt, where + " is not a valid record");
      }
      ++record_number;
    }
    offset += size;
    if (size < block.size()) break;
  }
  const std::uint64_t keep = tail.value_or(offset);
  if (!repeats.empty()) {
    // A repeated record must say what its subproblem's first record said:
    // one more pass, looking only at the subproblems repeated.
    std::sort(repeats.begin(), repeats.end(), [](const repeat& a, const repeat& b) {
      return a.index != b.index ? a.index < b.index : a.record_number < b.record_number;
    });
    const auto slot = [&](std::size_t index) {  // the first repeat of `index`
      return static_cast<std::size_t>(std::lower_bound(repeats.begin(), repeats.end(), index,
                                                       [](const repeat& r, std::size_t i) { return r.index < i; }) -
                                      repeats.begin());
    };
    std::vector<std::optional<subproblem_count>> first(repeats.size());
    if (::lseek(fd, static_cast<off_t>(header_size), SEEK_SET) < 0) {
      fail(reason::unusable, "cannot seek in " + name + ": " + std::strerror(errno));
    }
    for (std::uint64_t at_byte = header_size; at_byte < keep;) {
      const ssize_t got = detail::read_up_to(
          fd, block.data(), static_cast<std::size_t>(std::min<std::uint64_t>(block.size(), keep - at_byte)));
      if (got <= 0) fail(reason::unusable, "cannot read " + name + ": " + std::strerror(errno));
      for (std::size_t at = 0; at + record_size <= static_cast<std::size_t>(got); at += record_size) {
        const unsigned char* r = block.data() + at;
        if (get(r, record::type) != static_cast<std::uint32_t>(record_type::subproblem)) continue;
        const std::size_t k = slot(static_cast<std::size_t>(get(r, record::index)));
        if (k < repeats.size() && repeats[k].index == get(r, record::index) && !first[k]) {
          first[k] = counts_of(r);
        }
      }
      at_byte += static_cast<std::uint64_t>(got);
    }
    for (const repeat& r : repeats) {
      if (!(*first[slot(r.index)] == r.count)) {
        fail(reason::corrupt, name + ": record " + std::to_string(r.record_number) + " gives subproblem " +
                                  std::to_string(r.index) + " a second, different count");
      }
    }
  }
  if (keep != offset && state_->file.read_only()) {
    fail(reason::unusable, name + " is read-only and ends in a torn record that must be cut off; make it writable");
  }
  if (keep != offset) {
    state_->dropped_bytes = static_cast<std::size_t>(offset - keep);
    if (::ftruncate(fd, static_cast<off_t>(keep)) != 0 || ::fsync(fd) != 0) {
      fail(reason::unusable, "cannot repair " + name + ": " + std::strerror(errno));
    }
  }
  if (::lseek(fd, static_cast<off_t>(keep), SEEK_SET) < 0) {
    fail(reason::unusable, "cannot seek in " + name + ": " + std::strerror(errno));
  }
}

}  // namespace nqueens
