#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <limits>
#include <map>
#include <stdexcept>
#include <string_view>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/json.hpp"
#include "cli/json_reader.hpp"
#include "cli/output.hpp"
#include "cli/shared_options.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/verify.hpp"

namespace nqueens::cli {
namespace {

struct shard_file {
  std::string name;
  int n = 0;
  std::string engine;
  std::string fingerprint;
  int shard = 0;
  int shards = 0;
  uint128 total = 0;
  uint128 symmetric_180 = 0;
  uint128 symmetric_90 = 0;
};

// The whole of a shard file, refused past max_json_bytes without reading on.
std::string read_bounded(const std::string& name) {
  const int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw usage_error("cannot read '" + name + "': " + std::strerror(errno));
  std::string text;
  char buffer[65536];
  while (text.size() <= max_json_bytes) {  // one byte past the bound is enough to refuse
    const ssize_t got = ::read(fd, buffer, std::min(sizeof buffer, max_json_bytes + 1 - text.size()));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const int error = errno;
      ::close(fd);
      throw usage_error("cannot read '" + name + "': " + std::strerror(error));
    }
    if (got == 0) break;
    text.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(fd);
  return text;
}

bool is_fingerprint(std::string_view text) {
  return text.size() == 16 &&
         std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// Everything taken from the file is checked here, so that what merge prints
// (engine, fingerprint, counts) is well-formed whatever the file held.
shard_file read_shard_file(const std::string& name) {
  const std::string text = read_bounded(name);
  try {
    const json_members members = json_members::parse(text);
    shard_file f;
    f.name = name;
    f.n = static_cast<int>(members.get_unsigned("n", min_board_size, max_board_size));
    const std::string& engine_name = members.get_string("engine");
    const auto kind = parse_engine(engine_name);
    if (!kind) {
      throw json_error(members.find("engine")->offset, "\"engine\" is not one of " + std::string(engine_names()));
    }
    f.engine = std::string(to_string(*kind));
    f.fingerprint = members.get_string("plan_fingerprint");
    if (!is_fingerprint(f.fingerprint)) {
      throw json_error(members.find("plan_fingerprint")->offset,
                       "\"plan_fingerprint\" is not 16 lower-case hex digits");
    }
    f.shards = static_cast<int>(members.get_unsigned("shards", 1, max_shards));
    f.shard = static_cast<int>(members.get_unsigned("shard", 0, static_cast<uint128>(f.shards - 1)));
    constexpr uint128 any = std::numeric_limits<uint128>::max();
    f.total = members.get_unsigned("total", 0, any);
    f.symmetric_180 = members.get_unsigned("symmetric_180", 0, any);
    f.symmetric_90 = members.get_unsigned("symmetric_90", 0, any);
    return f;
  } catch (const json_error& e) {
    throw usage_error(name + ": " + e.what());
  }
}

}  // namespace

int run_merge(const std::vector<std::string>& args) {
  cxxopts::Options options("nqueens merge",
                           "Add up the --json outputs of 'nqueens count N --shard I/M' for I = 0..M-1 and verify\n"
                           "the total. Exit 1 if a shard is missing, given twice, or from another run.");
  options.custom_help("FILE... [options]");
  options.positional_help("");
  options.add_options()("files", "", cxxopts::value<std::vector<std::string>>());
  add_shared_options(options, {.json = true});
  options.parse_positional({"files"});
  const auto result = parse_command_line(options, args, false);
  if (result.count("help")) {
    std::cout << options.help({""}) << '\n';
    return 0;
  }
  if (result.count("files") == 0) throw usage_error("merge needs the shard files to add up");
  std::vector<shard_file> files;
  for (const std::string& name : result["files"].as<std::vector<std::string>>()) files.push_back(read_shard_file(name));

  // Every problem is reported, by file name, before giving up.
  std::vector<std::string> problems;
  const shard_file& first = files.front();
  std::map<int, std::string> seen;
  for (const shard_file& f : files) {
    if (f.n != first.n || f.engine != first.engine || f.fingerprint != first.fingerprint || f.shards != first.shards) {
      problems.push_back(f.name + " belongs to another run (n = " + std::to_string(f.n) + ", engine " + f.engine +
                         ", plan " + f.fingerprint + ", " + std::to_string(f.shards) + " shards) than " + first.name +
                         " (n = " + std::to_string(first.n) + ", engine " + first.engine + ", plan " +
                         first.fingerprint + ", " + std::to_string(first.shards) + " shards)");
      continue;
    }
    if (const auto it = seen.find(f.shard); it != seen.end()) {
      problems.push_back("shard " + std::to_string(f.shard) + "/" + std::to_string(f.shards) +
                         " is given twice: " + it->second + " and " + f.name);
      continue;
    }
    seen.emplace(f.shard, f.name);
  }
  std::vector<int> missing;
  for (int k = 0; k < first.shards; ++k) {
    if (!seen.contains(k)) missing.push_back(k);
  }
  if (!missing.empty()) {
    std::string list;
    for (std::size_t i = 0; i < missing.size() && i < 20; ++i) list += (i ? ", " : "") + std::to_string(missing[i]);
    if (missing.size() > 20) list += ", ...";
    problems.push_back(std::to_string(missing.size()) + " of " + std::to_string(first.shards) +
                       " shards missing: " + list);
  }
  if (!problems.empty()) {
    for (const std::string& p : problems) std::cerr << "nqueens merge: " << p << '\n';
    std::cerr << "nqueens merge: no total: the shards do not make up one whole run\n";
    return 1;
  }

  uint128 total = 0, symmetric_180 = 0, symmetric_90 = 0;
  uint128 unique = 0;
  try {
    for (const shard_file& f : files) {
      total = checked_add(total, f.total);
      symmetric_180 = checked_add(symmetric_180, f.symmetric_180);
      symmetric_90 = checked_add(symmetric_90, f.symmetric_90);
    }
    unique = fundamental_count(first.n, total, symmetric_180, symmetric_90);
  } catch (const std::overflow_error&) {  // each file's count fits, their sum does not: they cannot all be right
    std::cerr << "nqueens merge: the shards' counts add up past 2^128, so they cannot all be right\n";
    return 1;
  } catch (const std::domain_error& e) {  // the shards' counts cannot all be right
    std::cerr << "nqueens merge: " << e.what() << '\n';
    return 1;
  }
  const verification check = verify(first.n, total, unique, symmetric_180, symmetric_90);
  if (result.count("json")) {
    json_object o;
    o.add("n", first.n)
        .add("total", total)
        .add("unique", unique)
        .add("symmetric_180", symmetric_180)
        .add("symmetric_90", symmetric_90)
        .add("published_total", check.published_total)
        .add("published_unique", check.published_unique)
        .add("published_symmetric_180", check.published_symmetric_180)
        .add("published_symmetric_90", check.published_symmetric_90)
        .add_raw("verified", verified_json(check))
        .add("engine", first.engine)
        .add("isa", to_string(active_isa()))  // this machine's; each shard file names its own
        .add("plan_fingerprint", first.fingerprint)
        .add("shards", first.shards);
    std::cout << o.str() << '\n';
  } else {
    std::cout << "Q(" << first.n << ") = " << to_string(total) << "  "
              << describe(check.total, check.published_total, "A000170") << '\n';
    std::cout << "unique = " << to_string(unique) << "  " << describe(check.unique, check.published_unique, "A002562")
              << '\n';
    std::cout << describe_symmetric_counts(symmetric_180, symmetric_90, check);
    std::cout << "  merged " << first.shards << " shards of engine " << first.engine << ", plan " << first.fingerprint
              << '\n';
  }
  return check.ok() ? 0 : 1;
}

}  // namespace nqueens::cli
