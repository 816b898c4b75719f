#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/json.hpp"
#include "cli/output.hpp"
#include "cli/shared_options.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/verify.hpp"

namespace nqueens::cli {
namespace {

// The top-level members of one flat JSON object, as raw value text (strings
// without their quotes). Enough for the objects `count --json` writes; anything
// else is rejected.
std::optional<std::map<std::string, std::string>> parse_flat_object(const std::string& text) {
  std::map<std::string, std::string> members;
  std::size_t i = 0;
  const auto skip = [&] {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  };
  const auto read_string = [&]() -> std::optional<std::string> {
    if (i >= text.size() || text[i] != '"') return std::nullopt;
    std::string out;
    for (++i; i < text.size() && text[i] != '"'; ++i) {
      if (text[i] == '\\') ++i;
      if (i < text.size()) out += text[i];
    }
    if (i >= text.size()) return std::nullopt;
    ++i;
    return out;
  };
  skip();
  if (i >= text.size() || text[i++] != '{') return std::nullopt;
  for (;;) {
    skip();
    const auto key = read_string();
    if (!key) return std::nullopt;
    skip();
    if (i >= text.size() || text[i++] != ':') return std::nullopt;
    skip();
    std::string value;
    if (i < text.size() && text[i] == '"') {
      const auto v = read_string();
      if (!v) return std::nullopt;
      value = *v;
    } else {
      while (i < text.size() && text[i] != ',' && text[i] != '}') value += text[i++];
      while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) value.pop_back();
      if (value.empty() || value.front() == '[' || value.front() == '{') return std::nullopt;
    }
    members[*key] = value;
    skip();
    if (i < text.size() && text[i] == ',') {
      ++i;
      continue;
    }
    if (i < text.size() && text[i] == '}') break;
    return std::nullopt;
  }
  return members;
}

uint128 parse_count(const std::string& text, const std::string& file) {
  if (text.empty() || text.size() > 39) throw usage_error(file + ": invalid count '" + text + "'");
  uint128 value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') throw usage_error(file + ": invalid count '" + text + "'");
    value = checked_add(value * 10, static_cast<unsigned>(c - '0'));
  }
  return value;
}

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

shard_file read_shard_file(const std::string& name) {
  std::ifstream in(name);
  if (!in) throw usage_error("cannot read '" + name + "'");
  std::stringstream text;
  text << in.rdbuf();
  const auto members = parse_flat_object(text.str());
  if (!members) throw usage_error("'" + name + "' is not the JSON output of 'nqueens count --json'");
  const auto need = [&](const char* key) -> const std::string& {
    const auto it = members->find(key);
    if (it == members->end()) throw usage_error("'" + name + "' has no \"" + key + "\": not a count --json output");
    return it->second;
  };
  shard_file f;
  f.name = name;
  f.n = static_cast<int>(parse_integer(need("n"), "n in '" + name + "'", min_board_size, max_board_size));
  f.engine = need("engine");
  f.fingerprint = need("plan_fingerprint");
  f.shards = static_cast<int>(parse_integer(need("shards"), "shards in '" + name + "'", 1, max_shards));
  f.shard = static_cast<int>(parse_integer(need("shard"), "shard in '" + name + "'", 0, f.shards - 1));
  f.total = parse_count(need("total"), name);
  f.symmetric_180 = parse_count(need("symmetric_180"), name);
  f.symmetric_90 = parse_count(need("symmetric_90"), name);
  return f;
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
      problems.push_back("shard " + std::to_string(f.shard) + "/" + std::to_string(f.shards) + " is given twice: " +
                         it->second + " and " + f.name);
      continue;
    }
    seen.emplace(f.shard, f.name);
  }
  std::vector<int> missing;
  for (int k = 0; k < first.shards; ++k) {
    if (seen.count(k) == 0) missing.push_back(k);
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
  for (const shard_file& f : files) {
    total = checked_add(total, f.total);
    symmetric_180 = checked_add(symmetric_180, f.symmetric_180);
    symmetric_90 = checked_add(symmetric_90, f.symmetric_90);
  }
  uint128 unique = 0;
  try {
    unique = fundamental_count(first.n, total, symmetric_180, symmetric_90);
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
