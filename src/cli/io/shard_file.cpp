#include "cli/io/shard_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "cli/arguments.hpp"
#include "cli/io/json_reader.hpp"
#include "cli/io/stoppable_io.hpp"
#include "engines/fingerprint.hpp"
#include "nqueens/cancelled.hpp"
#include "nqueens/count_types.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/plan.hpp"
#include "nqueens/shard.hpp"
#include "run/journal/journal_layout.hpp"

namespace nqueens::cli {
namespace {

// The whole of a shard file, refused past max_json_bytes without reading on.
// A FIFO or a pipe (`<(ssh host cat part.json)`) may keep merge waiting for
// its writer: the open does not wait (O_NONBLOCK, cleared after it) and the
// reads wait in poll() (read_unless_stopped), so that a stop signal ends
// the wait, where the handlers would restart a plain open() or read().
// Throws run_cancelled then.
std::string read_bounded(const std::string& name) {
  if (name == "-") throw usage_error("'-': merge reads shard files, not standard input: name them (or /dev/stdin)");
  const int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw usage_error("cannot read '" + name + "': " + std::strerror(errno));
  const auto fail = [&](int error) {
    ::close(fd);
    throw usage_error("cannot read '" + name + "': " + std::strerror(error));
  };
  if (const int flags = ::fcntl(fd, F_GETFL); flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) fail(errno);
  std::string text;
  std::vector<char> buffer(std::size_t{1} << 16);  // not on the stack, which a small limit keeps small
  while (text.size() <= max_json_bytes) {          // one byte past the bound is enough to refuse
    std::size_t got = 0;
    const io_outcome outcome =
        read_unless_stopped(fd, buffer.data(), std::min(buffer.size(), max_json_bytes + 1 - text.size()), got);
    if (outcome == io_outcome::stopped) {
      ::close(fd);
      throw run_cancelled();
    }
    if (outcome == io_outcome::failed) fail(errno);
    if (got == 0) break;
    text.append(buffer.data(), got);
  }
  ::close(fd);
  return text;
}

bool is_hex16(std::string_view text) {
  return text.size() == 16 &&
         std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// A part of a run verifies nothing and has no fundamental count: a file
// that claims either was not written by `count --shard`. A whole run's
// fundamental count, which merge derives again, must be the one its counts
// make: another was edited in, or came from another file. Counts that make
// none are merge's to refuse (exit 1).
void check_verdict_members(const json_members& members, const shard_file& f) {
  constexpr uint128 any = std::numeric_limits<uint128>::max();
  if (f.shards > 1) {
    for (const char* key : {"unique", "verified"}) {
      const json_value* v = members.find(key);
      if (v != nullptr && v->type != json_type::null) {
        throw json_error(v->offset, "\"" + std::string(key) + "\" must be null in shard " + std::to_string(f.shard) +
                                        "/" + std::to_string(f.shards) + ": a part of a run is verified only by merge");
      }
    }
  } else if (const json_value* unique = members.find("unique"); unique != nullptr && unique->type != json_type::null) {
    const uint128 given = members.get_unsigned("unique", 0, any);
    std::optional<uint128> derived;
    try {
      derived = fundamental_count(f.n, f.total, f.symmetric_180, f.symmetric_90);
    } catch (const std::domain_error&) {
    }
    if (derived && *derived != given) {
      throw json_error(unique->offset, "\"unique\" " + to_string(given) + " contradicts the counts beside it, " +
                                           "whose fundamental count is " + to_string(*derived));
    }
  }
}

// Whether `members` are an earlier merge's --json, as merge writes it: no
// "shard", a boolean "ok", and either a whole number "shards" and the whole
// numbers "n" and "total", or, where it failed, a whole number "files" (or
// "shards", as merges before 2026-12-06 wrote it) and a "problems" array.
// Any other object holding "ok" and "shards" is a malformed shard file,
// refused as one, not left out as a merge's output with a note and exit 0.
bool is_merge_output(const json_members& members) {
  const auto of_type = [&](std::string_view key, json_type type) {
    const json_value* value = members.find(key);
    return value != nullptr && value->type == type;
  };
  const auto whole_number = [&](std::string_view key) {
    const json_value* value = members.find(key);
    return value != nullptr && value->type == json_type::number && !value->text.empty() &&
           value->text.find_first_not_of("0123456789") == std::string::npos;
  };
  if (members.find("shard") != nullptr || !of_type("ok", json_type::boolean)) return false;
  if (whole_number("shards") && whole_number("n") && whole_number("total")) return true;
  return (whole_number("files") || whole_number("shards")) && of_type("problems", json_type::array);
}

// Whether `text` starts (after blank lines) as count's text report does:
// "shard I/M of Q(N): " or "Q(N) = ".
bool looks_like_count_text(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return false;
  text.remove_prefix(first);
  const auto digits = [&text] {  // skips a run of digits; false where there is none
    const std::size_t end = std::min(text.find_first_not_of("0123456789"), text.size());
    text.remove_prefix(end);
    return end > 0;
  };
  const auto word = [&text](std::string_view w) {
    if (!text.starts_with(w)) return false;
    text.remove_prefix(w.size());
    return true;
  };
  if (word("shard ")) return digits() && word("/") && digits() && word(" of Q(") && digits() && word("): ");
  return word("Q(") && digits() && word(") = ");
}

// Refuses a file that is no shard's --json for what it is instead: empty
// (a count stopped), an earlier merge's text report, a count's text
// report, a journal.
void refuse_other_files(const std::string& name, const std::string& text) {
  // What `count --json > FILE` leaves of a count stopped or failed before
  // its end (a JSON object is written whole or not at all).
  // (Past the bound, it is refused for its size, whatever it holds.)
  if (text.size() <= max_json_bytes && text.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw unfinished_shard_file(name +
                                ": the file is empty: a count writes its --json only once it has finished (was it "
                                "stopped, or did it fail?); count that shard again");
  }
  // An earlier merge's text report, which a glob of the shards' names can
  // take in (its --json, as the file is parsed).
  // (After the blanks a byte order mark became.)
  const std::size_t first = text.find_first_not_of(' ');
  if (first != std::string::npos && text.compare(first, 2, "Q(") == 0 &&
      text.find("\n  merged ") != std::string::npos) {
    throw merge_output_file(name + ": this is the output of 'nqueens merge', not a shard's");
  }
  // The likeliest slip of all: a count without --json, a shard's text
  // ("shard 0/3 of Q(12): ...") or a whole count's ("Q(12) = ..."; not
  // scale's "Q(12) with engine").
  if (looks_like_count_text(text)) {
    throw usage_error(name +
                      ": this is the text output of 'nqueens count', which merge cannot add up: count the shard "
                      "again with --json ('nqueens count N --shard I/M --json > FILE')");
  }
  // A likely mix-up in a job script: the journal of `count --checkpoint`.
  if (text.size() >= detail::journal::magic.size() &&
      std::equal(detail::journal::magic.begin(), detail::journal::magic.end(), text.begin(),
                 [](unsigned char m, char t) { return m == static_cast<unsigned char>(t); })) {
    throw journal_file(name +
                       ": this is a checkpoint journal (--checkpoint), not the --json output of 'nqueens count N "
                       "--shard I/M' that merge adds up");
  }
}

// The command whose --json `members` is, where it is another's than
// count's: what merge was given instead of a shard, named for it (rather
// than for the first member a shard has and it lacks).
std::optional<std::string_view> other_command_of(const json_members& members) {
  const auto has = [&members](const char* key) { return members.find(key) != nullptr; };
  if (has("results") && has("from")) return "verify";
  if (has("rows") && has("repeat")) return "scale";
  if (has("memory_estimate_bytes")) return "plan";
  if (has("symmetric_90") && !has("total") && !has("shard") && !has("engine")) return "rotational";
  return std::nullopt;
}

}  // namespace

std::string shard_checksum(const shard_file& f) {
  // Every field merge reads, in a fixed order and spelling: the file's own
  // layout (spaces, member order) may change on the way without harm.
  const std::string canonical =
      "n=" + std::to_string(f.n) + ";engine=" + f.engine + ";split_depth=" + std::to_string(f.split_depth) +
      ";subproblems=" + std::to_string(f.subproblems) + ";plan_fingerprint=" + f.fingerprint +
      ";shard=" + std::to_string(f.shard) + ";shards=" + std::to_string(f.shards) +
      ";shard_subproblems=" + std::to_string(f.shard_subproblems) +
      ";shard_digest=" + format_fingerprint(f.shard_digest) + ";total=" + to_string(f.total) +
      ";symmetric_180=" + to_string(f.symmetric_180) + ";symmetric_90=" + to_string(f.symmetric_90) + ";";
  detail::fnv1a hash;  // as plan fingerprints: stable across machines and builds
  hash.add_text(canonical);
  return format_fingerprint(hash.value());
}

shard_file shard_fields_of(const count_result& r) {
  shard_file f;
  f.n = r.n;
  f.engine = std::string(to_string(r.kind));
  f.split_depth = r.split_depth;
  f.subproblems = r.subproblems;
  f.fingerprint = format_fingerprint(r.plan_fingerprint);
  f.shard = r.shard.index;
  f.shards = r.shard.count;
  f.shard_subproblems = r.shard_subproblems;
  f.shard_digest = r.shard_digest;
  f.total = r.total;
  f.symmetric_180 = r.symmetric_180;
  f.symmetric_90 = r.symmetric_90;
  return f;
}

count_result part_of(const shard_file& f) {
  count_result r;
  r.n = f.n;
  r.kind = *parse_engine(f.engine);
  r.split_depth = f.split_depth;
  r.subproblems = f.subproblems;
  r.plan_fingerprint = std::stoull(f.fingerprint, nullptr, 16);
  r.shard = {.index = f.shard, .count = f.shards};
  r.shard_subproblems = r.finished = f.shard_subproblems;
  r.shard_digest = f.shard_digest;
  r.total = f.total;
  r.symmetric_180 = f.symmetric_180;
  r.symmetric_90 = f.symmetric_90;
  return r;
}

// Everything taken from the file is checked here, so that what merge prints
// (engine, fingerprint, counts) is well-formed whatever the file held.
shard_file read_shard_file(const std::string& name) {
  std::string text = read_bounded(name);
  // A UTF-8 byte order mark (some Windows editors save one) read as the
  // blanks JSON allows before its value: the bytes' offsets stay as they are.
  if (text.starts_with("\xEF\xBB\xBF")) text.replace(0, 3, "   ");
  refuse_other_files(name, text);
  try {
    const json_members members = json_members::parse(text);
    if (const std::optional<std::string_view> command = other_command_of(members)) {
      throw usage_error(name + ": this is the --json output of 'nqueens " + std::string(*command) +
                        "', not of 'nqueens count N --shard I/M' that merge adds up");
    }
    // Another likely mix-up: an earlier merge's output, which a glob of the
    // shards' names can take in.
    if (is_merge_output(members)) {
      throw merge_output_file(name + ": this is the output of 'nqueens merge', not a shard's");
    }
    shard_file f;
    f.name = name;
    f.n = static_cast<int>(members.get_unsigned("n", min_board_size, max_board_size));
    const std::string& engine_name = members.get_string("engine");
    const auto kind = parse_engine(engine_name);
    if (!kind) {
      throw json_error(members.find("engine")->offset, "\"engine\" is not one of " + std::string(engine_names()));
    }
    f.engine = std::string(to_string(*kind));
    // A count writes the depth its plan has, never 0 (automatic).
    f.split_depth = static_cast<int>(members.get_unsigned("split_depth", 1, max_split_depth));
    constexpr uint128 any_size = std::numeric_limits<std::size_t>::max();
    f.subproblems = static_cast<std::size_t>(members.get_unsigned("subproblems", 1, any_size));
    f.fingerprint = members.get_string("plan_fingerprint");
    if (!is_hex16(f.fingerprint)) {
      throw json_error(members.find("plan_fingerprint")->offset,
                       "\"plan_fingerprint\" is not 16 lower-case hex digits");
    }
    f.shards = static_cast<int>(members.get_unsigned("shards", 1, max_shards));
    f.shard = static_cast<int>(members.get_unsigned("shard", 0, static_cast<uint128>(f.shards - 1)));
    f.shard_subproblems = static_cast<std::size_t>(members.get_unsigned("shard_subproblems", 0, f.subproblems));
    const json_value* digest = members.find("shard_digest");
    if (digest == nullptr) {
      throw json_error(
          "no \"shard_digest\": it was written by an nqueens older than this merge; merge it with the version that "
          "counted it, or count that shard again");
    }
    const std::string& digest_text = members.get_string("shard_digest");
    if (!is_hex16(digest_text)) throw json_error(digest->offset, "\"shard_digest\" is not 16 lower-case hex digits");
    f.shard_digest = std::stoull(digest_text, nullptr, 16);
    constexpr uint128 any = std::numeric_limits<uint128>::max();
    f.total = members.get_unsigned("total", 0, any);
    f.symmetric_180 = members.get_unsigned("symmetric_180", 0, any);
    f.symmetric_90 = members.get_unsigned("symmetric_90", 0, any);
    check_verdict_members(members, f);
    // Outside the checksum: taken only where they name instruction sets.
    const auto take_isa = [&f](const std::string& written) {
      if (const auto named = parse_isa(written)) f.isas.emplace_back(to_string(*named));
    };
    if (const json_value* isa = members.find("isa"); isa != nullptr && isa->type == json_type::string) {
      take_isa(isa->text);
    } else if (const json_value* isas = members.find("isas"); isas != nullptr) {
      for (const std::string& written : isas->strings) take_isa(written);
    }
    const json_value* checksum = members.find("checksum");
    if (checksum == nullptr) {
      throw json_error("no \"checksum\": it was written by an nqueens older than this merge; count that shard again");
    }
    const std::string& written = members.get_string("checksum");
    if (!is_hex16(written) || written != shard_checksum(f)) {
      throw json_error(checksum->offset,
                       "the checksum does not match the counts: the file was changed after it was written");
    }
    return f;
  } catch (const json_error& e) {
    throw usage_error(name + ": " + e.what());
  }
}

plan plan_of(const shard_file& f, const std::atomic<bool>* cancel) {
  try {
    return plan(f.n, {.kind = *parse_engine(f.engine), .split_depth = f.split_depth, .cancel = cancel});
  } catch (const std::invalid_argument& e) {
    // No count writes such a file (it would have refused the plan): named,
    // without count's remedy, which merge has no option for.
    std::string why = e.what();
    why = why.substr(0, why.find(": choose"));
    throw usage_error(f.name + ": its n, engine and split depth make no plan a count runs (" + why + ")");
  }
}

namespace {

// " (n = N, engine E, split depth D make plan F of S subproblems)"
std::string plan_made(const shard_file& f, const plan& p) {
  return " (n = " + std::to_string(f.n) + ", engine " + f.engine + ", split depth " + std::to_string(f.split_depth) +
         " make plan " + format_fingerprint(p.fingerprint()) + " of " + std::to_string(p.size()) + " subproblems)";
}

}  // namespace

std::optional<std::string> foreign_plan(const shard_file& f, const plan& p) {
  if (format_fingerprint(p.fingerprint()) == f.fingerprint) return std::nullopt;
  // Its checksum held: a count of another version (another plan for the
  // same options) wrote it, or it was edited and signed again.
  return f.name + ": plan " + f.fingerprint + " is not the plan its fields make in this version of nqueens" +
         plan_made(f, p) + ": merge it with the version that counted it (or it was edited)";
}

dealt_shards deal_shards(const plan& p, int count) { return {shard_sizes(p, count), shard_digests(p, count)}; }

void check_against_plan(const shard_file& f, const plan& p, const dealt_shards& dealt) {
  const auto refuse = [&](const std::string& what) { throw usage_error(f.name + ": " + what + plan_made(f, p)); };
  if (p.size() != f.subproblems) refuse("\"subproblems\" " + std::to_string(f.subproblems) + " contradicts its plan");
  const std::size_t mine = dealt.sizes.at(static_cast<std::size_t>(f.shard));
  if (mine != f.shard_subproblems) {
    refuse("\"shard_subproblems\" " + std::to_string(f.shard_subproblems) + " contradicts shard " +
           std::to_string(f.shard) + "/" + std::to_string(f.shards) + " of its plan, which holds " +
           std::to_string(mine));
  }
  if (dealt.digests.at(static_cast<std::size_t>(f.shard)) != f.shard_digest) {
    refuse("its subproblems are not shard " + std::to_string(f.shard) + "/" + std::to_string(f.shards) +
           " of its plan as this version of nqueens deals them (\"shard_digest\"): merge it with the version that "
           "counted it (or it was edited)");
  }
}

}  // namespace nqueens::cli
