#include "run/journal/journal_run.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>

#include "nqueens/board.hpp"
#include "nqueens/plan.hpp"
#include "run/journal/journal_layout.hpp"
#include "run/posix_io.hpp"

namespace nqueens::detail::journal {

std::optional<journal_run> journal_run_of(const std::string& path) {
  // Read without blocking: a FIFO there is no journal.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  std::array<unsigned char, header_size> h{};
  const bool whole = read_up_to(fd, h.data(), h.size()) == static_cast<ssize_t>(h.size());
  ::close(fd);
  if (!whole || !std::equal(magic.begin(), magic.end(), h.begin()) ||
      get(h.data(), header::version) != format_version) {
    return std::nullopt;
  }
  const auto value = [&](field f) { return get(h.data(), f); };
  const std::uint64_t n = value(header::n), kind = value(header::engine), depth = value(header::split_depth),
                      index = value(header::shard_index), count = value(header::shard_count),
                      scope = value(header::scope);
  // Fields no run has.
  const auto known = std::ranges::find(all_engines(), kind, [](engine e) { return static_cast<std::uint64_t>(e); });
  if (n > static_cast<std::uint64_t>(max_board_size) || known == all_engines().end() ||
      depth > static_cast<std::uint64_t>(max_split_depth) || count == 0 ||
      count > static_cast<std::uint64_t>(max_shards) || index >= count ||
      (scope != static_cast<std::uint64_t>(plan_scope::all) &&
       scope != static_cast<std::uint64_t>(plan_scope::rotational))) {
    return std::nullopt;
  }
  return journal_run{.n = static_cast<int>(n),
                     .kind = *known,
                     .split_depth = static_cast<int>(depth),
                     .shard = {.index = static_cast<int>(index), .count = static_cast<int>(count)},
                     .scope = static_cast<plan_scope>(scope)};
}

}  // namespace nqueens::detail::journal
