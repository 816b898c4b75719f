// Replaying a journal (journal_replay.hpp): a first pass over every record,
// a second over the repeated ones, then the torn tail cut off.

#include "run/journal/journal_replay.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

#include "nqueens/cancelled.hpp"
#include "nqueens/checkpoint.hpp"
#include "run/journal/journal_io.hpp"
#include "run/journal/journal_layout.hpp"
#include "run/posix_io.hpp"
#include "run/shard/shard_members.hpp"

namespace nqueens::detail {
namespace {

using namespace journal;  // NOLINT(google-build-using-namespace): the format's own names
using reason = checkpoint_error::reason;

// A record of a subproblem already held: harmless if it repeats the first
// record's counts, which the second pass checks.
struct repeat {
  std::size_t index, record_number;
  subproblem_count count;
};

constexpr std::size_t block_records = 4096;

class replay {
 public:
  replay(int fd, const std::string& path, const plan& p, shard_spec shard)
      : fd_(fd), path_(path), name_(journal_name(path)), plan_(p), shard_(shard), owned_(p, shard) {
    contents_.held.assign((p.size() + 63) / 64, 0);
  }

  // The header must be the one this run would write.
  void check_header() {
    const auto expected = header_for(plan_, shard_);
    std::array<unsigned char, header_size> h{};
    if (::lseek(fd_, 0, SEEK_SET) != 0 || read_up_to(fd_, h.data(), h.size()) != static_cast<ssize_t>(h.size())) {
      fail(reason::unusable, "cannot read " + name_ + ": " + std::strerror(errno));
    }
    if (std::memcmp(h.data(), expected.data(), header_size) != 0) {
      const std::string theirs = describe_run(h.data()), ours = describe_run(expected.data());
      if (theirs != ours && same_but_plan(h, expected)) {
        // Every option the same: the plan changed, so a version of nqueens
        // other than this one wrote it, and its indices mean other subproblems.
        fail(reason::foreign, name_ + " was written by another version of nqueens: its plan for this run is " +
                                  format_fingerprint(get(h.data(), header::fingerprint)) + ", this version's is " +
                                  format_fingerprint(get(expected.data(), header::fingerprint)) +
                                  "; finish it with that version, or use another checkpoint file");
      }
      if (theirs != ours) {
        fail(reason::foreign, name_ + " belongs to another run (" + theirs + "), not this one (" + ours +
                                  "); resume it with the options it names, or use another checkpoint file");
      }
      // The same run by every field a message names: what differs is one it
      // does not (the subproblem count, the bytes kept zero), so the header
      // was not written by this version for this run. Say where.
      const auto at = static_cast<std::size_t>(std::mismatch(h.begin(), h.end(), expected.begin()).first - h.begin());
      fail(reason::corrupt, "the header of " + name_ + " names this run (" + ours +
                                ") but differs from the one it writes at byte " + std::to_string(at) +
                                ": not written for this run by this version of nqueens");
    }
    run_ = get(expected.data(), header::checksum);
    struct stat st {};
    if (::fstat(fd_, &st) != 0) fail(reason::unusable, "cannot read " + name_ + ": " + std::strerror(errno));
    file_size_ = static_cast<std::uint64_t>(st.st_size);
  }

  // Whether two headers name the same run but for its plan.
  static bool same_but_plan(std::array<unsigned char, header_size> a, std::array<unsigned char, header_size> b) {
    for (auto* h : {a.data(), b.data()}) put(h, header::fingerprint, 0);
    return describe_run(a.data()) == describe_run(b.data());
  }

  // Every record, a block at a time: the bits and sums of the first record
  // of each subproblem, the repeats noted, the torn tail found.
  void read_records(const std::atomic<bool>* cancel) {
    std::vector<unsigned char> block(block_records * record_size);
    offset_ = header_size;  // of block[0]
    for (;;) {
      throw_if_cancelled(cancel);  // a block of 4096 records: well under a millisecond
      const ssize_t got = read_up_to(fd_, block.data(), block.size());
      if (got < 0) fail(reason::unusable, "cannot read " + name_ + ": " + std::strerror(errno));
      const auto size = static_cast<std::size_t>(got);
      for (std::size_t at = 0; at < size; at += record_size) {
        read_record(block.data() + at, offset_ + at, std::min(record_size, size - at));
      }
      offset_ += size;
      if (size < block.size()) break;
    }
  }

  // A repeated record must say what its subproblem's first record said: one
  // more pass, looking only at the subproblems repeated.
  void check_repeats() {
    if (repeats_.empty()) return;
    std::sort(repeats_.begin(), repeats_.end(), [](const repeat& a, const repeat& b) {
      return a.index != b.index ? a.index < b.index : a.record_number < b.record_number;
    });
    const auto slot = [&](std::size_t index) {  // the first repeat of `index`
      return static_cast<std::size_t>(std::lower_bound(repeats_.begin(), repeats_.end(), index,
                                                       [](const repeat& r, std::size_t i) { return r.index < i; }) -
                                      repeats_.begin());
    };
    std::vector<std::optional<subproblem_count>> first(repeats_.size());
    if (::lseek(fd_, static_cast<off_t>(header_size), SEEK_SET) < 0) {
      fail(reason::unusable, "cannot seek in " + name_ + ": " + std::strerror(errno));
    }
    std::vector<unsigned char> block(block_records * record_size);
    const std::uint64_t keep = kept();
    for (std::uint64_t at_byte = header_size; at_byte < keep;) {
      const ssize_t got = read_up_to(fd_, block.data(),
                                     static_cast<std::size_t>(std::min<std::uint64_t>(block.size(), keep - at_byte)));
      if (got <= 0) fail(reason::unusable, "cannot read " + name_ + ": " + std::strerror(errno));
      for (std::size_t at = 0; at + record_size <= static_cast<std::size_t>(got); at += record_size) {
        const unsigned char* r = block.data() + at;
        if (get(r, record::type) != static_cast<std::uint32_t>(record_type::subproblem)) continue;
        const std::size_t k = slot(static_cast<std::size_t>(get(r, record::index)));
        if (k < repeats_.size() && repeats_[k].index == get(r, record::index) && !first[k]) first[k] = counts_of(r);
      }
      at_byte += static_cast<std::uint64_t>(got);
    }
    for (const repeat& r : repeats_) {
      if (!(*first[slot(r.index)] == r.count)) {
        fail(reason::corrupt, name_ + ": record " + std::to_string(r.record_number) + " at byte " +
                                  std::to_string(header_size + r.record_number * record_size) + " gives subproblem " +
                                  std::to_string(r.index) + " a second, different count");
      }
    }
  }

  // Cuts the torn tail off (a read-only file cannot be) and leaves the file
  // at the end of its last whole record.
  void cut_tail(bool read_only) {
    const std::uint64_t keep = kept();
    if (keep != offset_ && read_only) {
      fail(reason::unusable, name_ + " is read-only and ends in a torn record that must be cut off; make it writable");
    }
    if (keep != offset_) {
      contents_.dropped_bytes = static_cast<std::size_t>(offset_ - keep);
      if (::ftruncate(fd_, static_cast<off_t>(keep)) != 0 || ::fsync(fd_) != 0) {
        fail(reason::unusable, "cannot repair " + name_ + ": " + std::strerror(errno));
      }
    }
    if (::lseek(fd_, static_cast<off_t>(keep), SEEK_SET) < 0) {
      fail(reason::unusable, "cannot seek in " + name_ + ": " + std::strerror(errno));
    }
  }

  journal_contents& contents() { return contents_; }

 private:
  std::uint64_t kept() const { return tail_.value_or(offset_); }

  // The first record that fails its checksum starts the tail. A crash during
  // one flush can leave there only what that flush was writing: a record cut
  // short, and zeros where the file grew before its data reached the disk (a
  // record may straddle the last page that did). So the tail is torn, and cut
  // off, when every byte past the first record_size - 1 of it is zero; any
  // other byte there is damage.
  void read_record(const unsigned char* r, std::uint64_t where_bytes, std::size_t length) {
    if (!tail_ && (length < record_size || !checksum_matches(r, record::checksum, run_))) start_tail(where_bytes);
    if (tail_) {
      for (std::size_t k = 0; k < length; ++k) {
        if (r[k] != 0 && where_bytes + k >= *tail_ + record_size - 1) {
          fail(reason::corrupt, name_ + ": record " + std::to_string((*tail_ - header_size) / record_size) +
                                    " at byte " + std::to_string(*tail_) +
                                    " is damaged (checksum mismatch), and it is no torn end: byte " +
                                    std::to_string(where_bytes + k) + " is not zero" + cut_hint(*tail_));
        }
      }
      return;
    }
    const std::string where =
        name_ + ": record " + std::to_string(record_number_) + " at byte " + std::to_string(where_bytes);
    if (contents_.complete)
      fail(reason::corrupt, where + " follows the completion mark" + after_mark_hint(where_bytes));
    const auto type = static_cast<std::uint32_t>(get(r, record::type));
    const auto index = static_cast<std::size_t>(get(r, record::index));
    const subproblem_count c = counts_of(r);
    if (type == static_cast<std::uint32_t>(record_type::complete)) {
      // The mark names no subproblem and counts nothing: one that does was
      // not written by a count.
      if (index != 0 || !(c == subproblem_count{})) {
        fail(reason::corrupt, where + " is a completion mark with a subproblem or counts, which no mark has");
      }
      if (contents_.sums.finished != owned_.size()) {
        // (A journal copied over a running count's can end so.)
        fail(reason::corrupt, where + " marks the run complete with subproblems missing" + cut_hint(where_bytes));
      }
      contents_.complete = true;
    } else if (type != static_cast<std::uint32_t>(record_type::subproblem)) {
      fail(reason::corrupt,
           where + " has type " + std::to_string(type) + ", neither a subproblem's (1) nor the completion mark (2)");
    } else if (index >= plan_.size()) {
      fail(reason::corrupt,
           where + " names subproblem " + std::to_string(index) + ", past the plan's " + std::to_string(plan_.size()));
    } else if (!owned_.contains(index)) {
      fail(reason::corrupt, where + " names subproblem " + std::to_string(index) + ", which is not in shard " +
                                std::to_string(shard_.index) + "/" + std::to_string(shard_.count));
    } else {
      std::uint64_t& word = contents_.held[index / 64];
      const std::uint64_t bit = std::uint64_t{1} << (index % 64);
      if ((word & bit) != 0) {
        if (repeats_.size() >= owned_.size()) {
          fail(reason::corrupt, where + " repeats a subproblem: more records than the shard has subproblems");
        }
        repeats_.push_back({index, record_number_, c});
      } else {
        word |= bit;
        accumulate(contents_.sums, c);
      }
    }
    ++record_number_;
  }

  // How to keep the records before the damage: a crash can persist a flush's
  // pages out of order (zeros, then records), which only the user may judge.
  std::string cut_hint(std::uint64_t at) const {
    return "; to resume from the " + std::to_string((at - header_size) / record_size) +
           " whole records before it, cut the file there (truncate -s " + std::to_string(at) + " " + quoted_path() +
           ")";
  }

  // How to read a finished journal past what was added after its mark.
  std::string after_mark_hint(std::uint64_t mark_end) const {
    return "; the run it records is finished: to read its counts, cut the file after the mark (truncate -s " +
           std::to_string(mark_end) + " " + quoted_path() + ")";
  }

  // The journal's name for a POSIX shell.
  std::string quoted_path() const {
    // Single-quoted for a POSIX shell: each ' closes the quote, is escaped,
    // and reopens it. A name holding a byte past printable ASCII is given in
    // bash's $'...', those bytes as \xHH: the message is shown on one line,
    // a newline, a C1 control or a byte of no UTF-8 character as the text
    // \xHH, which pasted between single quotes would name another file.
    const auto plain = [](char c) {
      const auto byte = static_cast<unsigned char>(c);
      return byte >= 0x20 && byte < 0x7f;
    };
    // A name that starts with '-' would be read as an option: ./ first.
    const std::string name = path_.starts_with('-') ? "./" + path_ : path_;
    const bool escaped = !std::all_of(name.begin(), name.end(), plain);
    std::string quoted = escaped ? "$'" : "'";
    for (const char c : name) {
      const auto byte = static_cast<unsigned char>(c);
      if (!escaped) {
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
      } else if (!plain(c)) {
        constexpr const char* hex = "0123456789abcdef";
        quoted += "\\x";
        quoted += hex[byte >> 4];
        quoted += hex[byte & 15];
      } else {
        if (c == '\'' || c == '\\') quoted += '\\';
        quoted += c;
      }
    }
    quoted += '\'';
    return quoted;
  }

  void start_tail(std::uint64_t where_bytes) {
    // Nothing is written after the mark: whatever follows it is damage,
    // never a torn flush to cut off.
    if (contents_.complete) {
      const std::uint64_t after = file_size_ - where_bytes;
      fail(reason::corrupt, name_ + ": " + std::to_string(after) + (after == 1 ? " byte" : " bytes") + " at byte " +
                                std::to_string(where_bytes) + (after == 1 ? " follows" : " follow") +
                                " the completion mark" + after_mark_hint(where_bytes));
    }
    tail_ = where_bytes;
    // One flush writes at most a record per subproblem of the shard, and the
    // mark: a longer tail is no torn flush (and a sparse terabyte is not
    // scanned to find out).
    if (file_size_ - where_bytes > (owned_.size() + 1) * record_size) {
      fail(reason::corrupt, name_ + ": record " + std::to_string(record_number_) + " at byte " +
                                std::to_string(where_bytes) + " is damaged (checksum mismatch), and " +
                                std::to_string(file_size_ - where_bytes) +
                                " bytes follow it, more than one flush writes" + cut_hint(*tail_));
    }
  }

  int fd_;
  std::string path_;  // as given
  std::string name_;  // for messages
  const plan& plan_;
  shard_spec shard_;
  shard_members owned_;  // the subproblems this shard counts
  journal_contents contents_;
  std::vector<repeat> repeats_;  // records of a subproblem already held (none in a journal a run wrote)
  std::uint64_t run_ = 0;        // the header's checksum, where every record's goes on from
  std::uint64_t file_size_ = 0;
  std::uint64_t offset_ = header_size;  // the end of what was read
  std::optional<std::uint64_t> tail_;   // where the torn tail starts
  std::size_t record_number_ = 0;
};

}  // namespace

journal_contents replay_journal(int fd, const std::string& path, bool read_only, const plan& p, shard_spec shard,
                                const std::atomic<bool>* cancel) {
  replay r(fd, path, p, shard);
  r.check_header();
  r.read_records(cancel);
  r.check_repeats();
  r.cut_tail(read_only);
  return std::move(r.contents());
}

}  // namespace nqueens::detail
