#include "cli/merge_command.hpp"

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
#include "cli/command_line.hpp"
#include "cli/json.hpp"
#include "cli/json_reader.hpp"
#include "cli/message_text.hpp"
#include "cli/output.hpp"
#include "cli/report.hpp"
#include "cli/shard_file.hpp"
#include "cli/shared_options.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/reduce.hpp"
#include "nqueens/verify.hpp"

namespace nqueens::cli {

namespace {

// What keeps `files` from making up one whole run: files of another run,
// shards given twice, shards missing.
std::vector<std::string> problems_of(const std::vector<shard_file>& files) {
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
  return problems;
}

// The merged counts, verified: what merge prints.
class merge_report final : public report {
 public:
  merge_report(const shard_file& first, const totals& sums)
      : first_(first), shown_{first.n,
                              sums.total,
                              sums.unique,
                              sums.symmetric_180,
                              sums.symmetric_90,
                              verify(first.n, sums.total, sums.unique, sums.symmetric_180, sums.symmetric_90)} {}
  bool ok() const noexcept { return shown_.check.ok(); }

  void write_text(std::ostream& out) const override {
    out << describe_counts(shown_);
    out << "  merged " << counted(static_cast<std::size_t>(first_.shards), "shard") << " of engine " << first_.engine
        << ", plan " << first_.fingerprint << '\n';
  }
  json_object json() const override {
    json_object o;
    add_counts(o, shown_)
        .add_raw("verified", verified_json(shown_.check))
        .add("engine", first_.engine)
        .add("isa", to_string(active_isa()))  // this machine's; each shard file names its own
        .add("plan_fingerprint", first_.fingerprint)
        .add("shards", first_.shards);
    return o;
  }

 private:
  const shard_file& first_;
  counts_shown shown_;
};

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
  if (printed_help(result, options)) return 0;
  if (result.count("files") == 0) throw usage_error("merge needs the shard files to add up");
  std::vector<shard_file> files;
  for (const std::string& name : result["files"].as<std::vector<std::string>>()) files.push_back(read_shard_file(name));
  // Every file's fields must make the plan its fingerprint names, and its
  // shard of it; each distinct plan is rebuilt, and dealt into its shards,
  // once (4 096 files of one plan: one deal, not 4 096).
  std::map<std::string, plan> plans;
  std::map<std::pair<std::string, int>, std::vector<std::size_t>> dealt;
  for (const shard_file& f : files) {
    const std::string key = std::to_string(f.n) + " " + f.engine + " " + std::to_string(f.split_depth);
    auto it = plans.find(key);
    if (it == plans.end()) it = plans.emplace(key, plan_of(f)).first;
    auto sizes = dealt.find({key, f.shards});
    if (sizes == dealt.end()) sizes = dealt.emplace(std::pair{key, f.shards}, shard_sizes(it->second, f.shards)).first;
    check_against_plan(f, it->second, sizes->second);
  }

  // Every problem is reported, by file name, before giving up.
  const std::vector<std::string> problems = problems_of(files);
  if (!problems.empty()) {
    for (const std::string& p : problems) std::cerr << "nqueens merge: " << p << '\n';
    std::cerr << "nqueens merge: no total: the shards do not make up one whole run\n";
    return 1;
  }
  const shard_file& first = files.front();

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
  const totals sums{.total = total, .unique = unique, .symmetric_180 = symmetric_180, .symmetric_90 = symmetric_90};
  const merge_report merged(first, sums);
  write_report(merged, format_for(result.count("json") != 0));
  return merged.ok() ? 0 : 1;
}

}  // namespace nqueens::cli
