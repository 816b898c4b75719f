#include "cli/commands/merge_command.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli/arguments.hpp"
#include "cli/command_line.hpp"
#include "cli/interruption.hpp"
#include "cli/io/json.hpp"
#include "cli/io/shard_file.hpp"
#include "cli/message_text.hpp"
#include "cli/output.hpp"
#include "cli/report.hpp"
#include "cli/shared_options.hpp"
#include "cli/signals.hpp"
#include "nqueens/cancelled.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/merge.hpp"
#include "nqueens/plan.hpp"
#include "nqueens/verify.hpp"

namespace nqueens::cli {

namespace {

// The merged counts, verified: what merge prints.
class merge_report final : public report {
 public:
  merge_report(const count_result& whole, std::size_t shards, std::vector<std::string> kernels)
      : whole_(whole), shards_(shards), kernels_(std::move(kernels)), shown_{whole.n,
                                                                             whole.total,
                                                                             whole.unique,
                                                                             whole.symmetric_180,
                                                                             whole.symmetric_90,
                                                                             whole.check} {}
  bool ok() const noexcept { return shown_.check.ok(); }

  void write_text(std::ostream& out) const override {
    out << describe_counts(shown_);
    out << "  merged " << counted(shards_, "shard") << " of engine " << to_string(whole_.kind) << ", plan "
        << format_fingerprint(whole_.plan_fingerprint) << '\n';
  }
  json_object json() const override {
    json_object o;
    add_counts(o, shown_)
        .add_raw("verified", verified_json(shown_.check))
        .add("engine", std::string(to_string(whole_.kind)))
        // One name where the shards agree, as count's "isa"; each, in "isas".
        .add_raw("isa", kernels_.size() == 1 ? json_string(kernels_.front()) : "null")
        .add_raw("isas", json_array_of(kernels_))
        .add("plan_fingerprint", format_fingerprint(whole_.plan_fingerprint))
        .add("shards", shards_)
        .add("ok", ok());
    return o;
  }

 private:
  const count_result& whole_;
  std::size_t shards_;
  std::vector<std::string> kernels_;
  counts_shown shown_;
};

// Shards that make no total: the problems, each already on stderr, and in
// the JSON for a script that reads only that, with the shard files read
// ("files": not the run's shards, which a duplicate or a foreign file
// would misstate).
class merge_failure final : public report {
 public:
  merge_failure(const std::vector<std::string>& problems, std::size_t files) : problems_(problems), files_(files) {}
  void write_text(std::ostream&) const override {}  // the lines on stderr say it all
  json_object json() const override {
    json_object o;
    o.add("files", files_).add("ok", false).add_raw("problems", json_array_of(problems_));
    return o;
  }

 private:
  const std::vector<std::string>& problems_;
  std::size_t files_;
};

// Whether `name` is the empty file this process writes its standard output
// to: `merge q-*.json > q-all.json` again, the glob taking in q-all.json as
// the shell just emptied it. (A shard given as stdout too, `>> q-2.json`,
// holds its counts: it is read as any other, before merge writes.)
bool is_own_empty_output(const std::string& name) {
  struct stat out {};
  struct stat file {};
  return ::fstat(STDOUT_FILENO, &out) == 0 && S_ISREG(out.st_mode) && out.st_size == 0 &&
         ::stat(name.c_str(), &file) == 0 && file.st_dev == out.st_dev && file.st_ino == out.st_ino;
}

// The kernels the shards counted with, as their files name them, each
// once, in the files' order.
std::vector<std::string> kernels_of(const std::vector<shard_file>& files) {
  std::vector<std::string> seen;
  for (const shard_file& f : files) {
    for (const std::string& isa : f.isas) {
      if (std::ranges::find(seen, isa) == seen.end()) seen.push_back(isa);
    }
  }
  return seen;
}

// The files merge was given, read: every one, and every problem named,
// before giving up (a job array's shards killed at their time limit leave
// several empty files, and a user told of one at a time would count them
// again one at a time).
struct read_files {
  std::vector<shard_file> shards;
  std::vector<std::string> malformed;         // exit 2
  std::vector<std::string> unfinished;        // empty files: shards not counted, named beside those missing
  std::vector<std::string> unfinished_names;  // their names
  // Checkpoint journals and earlier merges' outputs, which a glob of a
  // job's files (q23-*) takes in beside its shards: left out with a note,
  // the shards deciding; given alone, refused (exit 2) as any file that is
  // not a shard's.
  std::vector<std::string> journals;
  std::vector<std::string> journal_names;
  std::vector<std::string> earlier_merges;
  std::vector<std::string> earlier_merge_names;
};

// Throws run_cancelled on a stop.
read_files read_all(const std::vector<std::string>& names) {
  read_files read;
  for (const std::string& name : names) {
    if (stop_requested()) throw run_cancelled();
    // `merge q-*.json > q-all.json` again: the glob takes in the shell's
    // fresh, empty output file, which is not a shard.
    if (is_own_empty_output(name)) {
      std::cerr << "nqueens merge: note: " << one_line(name) << " is this merge's own output: left out\n";
      continue;
    }
    try {
      read.shards.push_back(read_shard_file(name));  // a FIFO's wait for its writer ends on a stop
    } catch (const merge_output_file& e) {
      read.earlier_merges.emplace_back(e.what());
      read.earlier_merge_names.push_back(name);
    } catch (const unfinished_shard_file& e) {
      read.unfinished.emplace_back(e.what());
      read.unfinished_names.push_back(name);
    } catch (const journal_file& e) {
      read.journals.emplace_back(e.what());
      read.journal_names.push_back(name);
    } catch (const usage_error& e) {
      read.malformed.emplace_back(e.what());
    }
  }
  return read;
}

// The shards' files against the plans their fields make.
struct plan_check {
  /// Files of another version's plan (exit 1), each named.
  std::vector<std::string> foreign;
  /// Their places in the files: each is named once, by what it holds, and
  /// takes no part in merge(), whose shards it does not give (nor does it
  /// outvote the good files as the run they are judged by).
  std::set<std::size_t> foreign_files;
};

// Every file's fields must make the plan its fingerprint names, and its
// shard of it; each distinct plan is rebuilt, and dealt into its shards,
// once (4 096 files of one plan: one deal, not 4 096). A file that
// contradicts its own plan is malformed: added to `malformed`. Throws
// run_cancelled on a stop.
plan_check check_plans(const std::vector<shard_file>& files, std::vector<std::string>& malformed) {
  std::map<std::string, plan> plans;
  std::map<std::pair<std::string, int>, dealt_shards> dealt;
  plan_check check;
  for (std::size_t k = 0; k < files.size(); ++k) {
    const shard_file& f = files[k];
    const std::string key = std::to_string(f.n) + " " + f.engine + " " + std::to_string(f.split_depth);
    auto it = plans.find(key);
    try {
      if (it == plans.end()) it = plans.emplace(key, plan_of(f, &stop_requested())).first;
    } catch (const usage_error& e) {
      malformed.emplace_back(e.what());
      continue;
    }
    if (stop_requested()) throw run_cancelled();
    if (auto problem = foreign_plan(f, it->second)) {
      check.foreign.push_back(std::move(*problem));
      check.foreign_files.insert(k);
      continue;
    }
    auto sizes = dealt.find({key, f.shards});
    if (sizes == dealt.end()) sizes = dealt.emplace(std::pair{key, f.shards}, deal_shards(it->second, f.shards)).first;
    try {
      check_against_plan(f, it->second, sizes->second);
    } catch (const usage_error& e) {
      malformed.emplace_back(e.what());
    }
  }
  return check;
}

// `a` then `b`.
std::vector<std::string> joined(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

int run_merge(const std::vector<std::string>& args) {
  cxxopts::Options options(
      "nqueens merge",
      "Add up the --json outputs of 'nqueens count N --shard I/M' for I = 0..M-1 and verify\n"
      "the total. Exit 1 if a shard is missing (or its file empty), given twice, or from another run;\n"
      "exit 2 if a file is not a shard's --json (a count's text, cut short), was edited (its checksum),\n"
      "or cannot be read. A checkpoint journal or an earlier merge's output among the files is left out\n"
      "with a note (given alone: exit 2).");
  options.custom_help("FILE... [options]");
  options.positional_help("");
  const shared_options shared{.json = true};
  add_worker_options(options, shared);
  options.add_options()("files", "", cxxopts::value<std::vector<std::string>>());
  add_closing_options(options, shared);
  options.parse_positional({"files"});
  const auto result = parse_command_line(options, args, false);
  if (printed_help(result, options)) return 0;
  if (result.count("files") == 0) throw usage_error("merge needs the shard files to add up");
  // Rebuilding a large plan takes seconds (n = 28 at split depth 12: 7):
  // a stop signal then is answered, as every command answers it.
  install_stop_handlers();
  read_files read;
  plan_check check;
  try {
    read = read_all(result["files"].as<std::vector<std::string>>());
    check = check_plans(read.shards, read.malformed);
  } catch (const run_cancelled&) {
    return report_interruption_of("before the shards were added up; nothing was merged");
  }
  // Problems that make no total: each on stderr, naming its file, and in
  // the JSON for a script that reads only that.
  const auto fail_with = [&](const std::vector<std::string>& problems, int status) {
    // Refused as malformed, as every usage error of the tool is said; a
    // merge that makes no total, by merge. A file name's control bytes are
    // shown escaped, not sent to the terminal.
    const char* who = status == 2 ? "nqueens: " : "nqueens merge: ";
    for (const std::string& p : problems) std::cerr << who << one_line(p) << '\n';
    if (result.count("json") != 0) write_report(merge_failure(problems, read.shards.size()), output_format::json);
    return status;
  };
  // Journals or earlier merges and nothing else: the one mistake is that.
  if (read.shards.empty() && read.unfinished.empty() && read.malformed.empty() &&
      !(read.journals.empty() && read.earlier_merges.empty())) {
    return fail_with(joined(read.earlier_merges, read.journals), 2);
  }
  for (const std::string& earlier : read.earlier_merge_names) {
    std::cerr << "nqueens merge: note: " << one_line(earlier) << " is the output of an earlier merge: left out\n";
  }
  for (const std::string& journal : read.journal_names) {
    std::cerr << "nqueens merge: note: " << one_line(journal)
              << " is a checkpoint journal (--checkpoint), not a shard's --json: left out\n";
  }
  // A malformed file holds a shard merge cannot name: what the rest make is
  // not judged.
  if (!read.malformed.empty()) return fail_with(joined(read.malformed, read.unfinished), 2);
  if (read.shards.empty()) {
    return fail_with(joined(read.unfinished, {"no total: none of the files holds a finished shard"}), 1);
  }

  // Every problem is reported, by file name, before giving up: the shards
  // of another version's plan first, the empty files, then what the other
  // parts say (a foreign file's shard among the missing).
  std::vector<count_result> parts;
  std::vector<std::string> names;
  for (std::size_t k = 0; k < read.shards.size(); ++k) {
    if (check.foreign_files.contains(k)) continue;
    parts.push_back(part_of(read.shards[k]));
    names.push_back(read.shards[k].name);
  }
  if (parts.empty()) return fail_with(joined(check.foreign, read.unfinished), 1);
  count_result whole;
  try {
    whole = nqueens::merge(parts, names);
  } catch (const merge_error& e) {
    std::vector<std::string> problems = joined(joined(check.foreign, read.unfinished), e.problems());
    if (e.why() == merge_error::reason::parts) {
      problems.emplace_back("no total: the shards do not make up one whole run");
    } else {
      // Each file is intact (its checksum holds) and of this run, so no one
      // file can be named: the sums alone contradict each other.
      problems.emplace_back(
          "no total: no file can be named, as each is intact and of this run; a shard counted on a "
          "faulty machine is a likely cause: count the shards again (each gives the same count on "
          "any machine) and merge those files, or compare each with its count again");
    }
    return fail_with(problems, 1);
  }
  if (!check.foreign.empty()) return fail_with(joined(check.foreign, read.unfinished), 1);
  // Every shard is in: an empty file beside them (a count of a shard that
  // was stopped, then counted again into another file) takes nothing away.
  for (const std::string& extra : read.unfinished_names) {
    std::cerr << "nqueens merge: note: " << one_line(extra)
              << " is empty (a count stopped before its end): every shard is in without it, so it is left out\n";
  }
  const merge_report merged(whole, read.shards.size(), kernels_of(read.shards));
  write_report(merged, format_for(result.count("json") != 0));
  return merged.ok() ? 0 : 1;
}

}  // namespace nqueens::cli
