// The tool as a whole (src/cli/main.cpp): help, version, exit statuses, the instruction
// set, and the rules every command shares (numbers, messages, help that matches the parsers).

#include <sys/resource.h>

#include <regex>
#include <set>
#include <sstream>

#include "cli/stack_limit.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/version.hpp"
#include "support/cli_run.hpp"
#include "support/scratch_directory.hpp"

namespace nqueens::test {
namespace {

TEST(CliTest, HelpAndVersion) {
  EXPECT_EQ(run_cli("--help").status, 0);
  EXPECT_NE(run_cli("--help").out.find("verify"), std::string::npos);
  EXPECT_EQ(run_cli("count --help").status, 0);
  EXPECT_NE(run_cli("count --help").out.find("--threads"), std::string::npos);
  const cli_run v = run_cli("--version");
  EXPECT_EQ(v.status, 0);
  EXPECT_EQ(v.out.rfind("nqueens ", 0), 0u) << v.out;
  // The commit built, where the source was a git checkout: 12 hex digits,
  // "-dirty" where tracked files had changed; the same in --version.
  const std::string commit(build_commit());
  if (!commit.empty()) {
    EXPECT_TRUE(std::regex_match(commit, std::regex("[0-9a-f]{12}(-dirty)?"))) << commit;
    EXPECT_NE(v.out.find("\ncommit: " + commit + "\n"), std::string::npos) << v.out;
  } else {
    EXPECT_EQ(v.out.find("commit:"), std::string::npos) << v.out;
  }
}

// A stack limit below what the main thread's share of a count needs (a
// quadrant count's table build: about 28 KiB) was a SIGSEGV, and so was one
// of 512 KiB for the threads of the tools' own (`plan --estimate`'s), whose
// stacks glibc sized by it. A soft limit is raised where the hard one
// allows, silently; a hard one under the least is one line and 3. Each runs
// with an empty environment: with 12 KB of it, 24 KiB fail in the loader,
// before main.
TEST(CliTest, ASmallStackLimitIsRaisedOrRefusedNeverACrash) {
  rlimit limit{};
  ASSERT_EQ(::getrlimit(RLIMIT_STACK, &limit), 0);
  if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < cli::least_stack_bytes) {
    GTEST_SKIP() << "the hard stack limit here is " << limit.rlim_max / 1024 << " KiB";
  }
  const std::string least = std::to_string(cli::least_stack_bytes / 1024);
  const std::string under = std::to_string(cli::least_stack_bytes / 1024 * 3 / 4);
  const auto under_limit = [](const std::string& stack, const std::string& args) {
    return run_script("exec env -i PATH=\"$PATH\" sh -c 'ulimit " + stack + " && exec \"$@\"' sh $NQ " + args);
  };
  const cli_run hard = under_limit("-s " + under, "count 14 --engine quadrant");
  EXPECT_EQ(hard.status, 3) << hard.err;
  EXPECT_EQ(hard.err, "nqueens: the stack's hard limit (ulimit -Hs) is " + under + " KiB, less than the " + least +
                          " KiB this program needs; run it where the limit is higher (8192 KiB is usual; only root "
                          "raises a hard limit)\n");
  EXPECT_EQ(hard.out, "");
  const scratch_directory dir("small-stack");
  const std::string shards = (dir.path() / "s").string();
  ASSERT_EQ(run_script("$NQ count 12 --json --shard 0/2 > " + shards + "0.json && $NQ count 12 --json --shard 1/2 > " +
                       shards + "1.json")
                .status,
            0);
  // The third: a hard limit over the least but
  // under the usual 8 MiB; the soft one is raised to it, not refused.
  for (const std::string& stack :
       {std::string("-S -s 24"), "-s " + least, std::string("-S -s 24 && ulimit -H -s 1024")}) {
    SCOPED_TRACE("ulimit " + stack);
    const cli_run count = under_limit(stack, "count 16 --engine quadrant --threads 1");
    EXPECT_EQ(count.status, 0) << count.err;
    EXPECT_NE(count.out.find("Q(16) = 14772512  verified"), std::string::npos) << count.out;
    const cli_run estimate = under_limit(stack, "plan 16 --estimate --threads 2");
    EXPECT_EQ(estimate.status, 0) << estimate.err;
    const cli_run merge = under_limit(stack, "merge " + shards + "0.json " + shards + "1.json");
    EXPECT_EQ(merge.status, 0) << merge.err;
    EXPECT_NE(merge.out.find("Q(12) = 14200  verified"), std::string::npos) << merge.out;
  }
}

// Output that never arrived is a failure: every command, its help and the
// version, with standard output on /dev/full (each write fails with ENOSPC),
// exit 3 with one line, whatever they computed, and whatever their own
// status: a check that found no solution ("check 0 1 2 3", status 1) says
// so on stdout, so its 1 would tell of a verdict no one could read.
TEST(CliTest, LostStandardOutputIsExitThree) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const std::string shard = "full.json";  // in the test's own directory (own_directory.cpp)
  ASSERT_EQ(run_script("$NQ count 8 --json > " + shard).status, 0);
  for (const std::string& args : std::vector<std::string>{
           "count 8 --shard 0/2 --json", "count 8", "merge " + shard, "merge --json " + shard, "verify --to 8",
           "check 1 3 0 2", "check 0 1 2 3", "plan 8", "scale 8 --threads 1 --repeat 1", "rotational 8", "list 8",
           "first 8", "first 1000000", "--version", "--help", "count --help", "merge --help"}) {
    const cli_run r = run_script("$NQ " + args + " >/dev/full");
    EXPECT_EQ(r.status, 3) << args << ": " << r.err;
    EXPECT_EQ(r.err, "nqueens: cannot write to standard output: No space left on device\n") << args;
  }
  // A usage error says more than the lost output.
  const cli_run usage = run_script("$NQ count 33 >/dev/full");
  EXPECT_EQ(usage.status, 2);
  EXPECT_EQ(lines_in(usage.err), 1) << usage.err;
}

TEST(CliTest, ClosedStandardOutputIsExitThreeOnlyWhenWrittenTo) {
  const cli_run version = run_script("$NQ --version >&-");
  EXPECT_EQ(version.status, 3);
  EXPECT_EQ(version.err, "nqueens: cannot write to standard output: Bad file descriptor\n");
  // `first 2` prints nothing on stdout: nothing was lost, its own status stays.
  const cli_run none = run_script("$NQ first 2 >&-");
  EXPECT_EQ(none.status, 1);
  EXPECT_EQ(none.err, "nqueens: no solution exists for N = 2\n");
  // A reader that goes away still ends list and first quietly.
  const cli_run first = run_script("($NQ first 100000; echo \"first exited $?\" >&2) | head -c 4");
  EXPECT_EQ(first.out, "(1, ");
  EXPECT_EQ(first.err, "first exited 0\n");
}

// A pipe whose reader is gone before the first write (a FIFO opened for
// reading and writing, then its reading side closed: no race with a reader
// that exits): every output but list's and first's is a failed write, exit 3
// with the reason, never a silent death by SIGPIPE (141); check stops reading
// an endless standard input.
TEST(CliTest, AReaderGoneIsAFailedWrite) {
  const scratch_directory dir("reader-gone");
  const std::string gone = "cd '" + dir.path().string() + "' && rm -f p && mkfifo p && exec 4<>p 5>p && exec 4<&- && ";
  for (const char* args : {"count 8", "count 8 --json", "verify --to 8", "check 1 3 0 2", "plan 8", "rotational 8",
                           "--version", "--help", "help count", "scale 6 --threads 1 --repeat 1"}) {
    const cli_run r = run_script(gone + "$NQ " + args + " >&5");
    EXPECT_EQ(r.status, 3) << args << ": " << r.err;
    EXPECT_EQ(r.err, "nqueens: cannot write to standard output: Broken pipe\n") << args;
  }
  for (const char* args : {"list 8", "first 8"}) {
    const cli_run r = run_script(gone + "$NQ " + args + " >&5");
    EXPECT_EQ(r.status, 0) << args << ": " << r.err;
    EXPECT_EQ(r.err, "") << args;
  }
  const cli_run endless = run_script(gone + "yes '0 0' | $NQ check >&5");
  EXPECT_EQ(endless.status, 3) << endless.err;
  EXPECT_EQ(endless.err, "nqueens: cannot write to standard output: Broken pipe\n");
}

TEST(CliTest, HelpListsEveryCommandAndEachHasItsOwnHelp) {
  const cli_run r = run_cli("--help");
  EXPECT_EQ(r.status, 0) << r.err;
  for (const char* command : {"count", "verify", "scale", "plan", "merge", "list", "first", "check"}) {
    EXPECT_NE(r.out.find(std::string("\n  ") + command + " "), std::string::npos) << command << " in " << r.out;
    const cli_run help = run_cli(std::string(command) + " --help");
    EXPECT_EQ(help.status, 0) << command << ": " << help.err;
    EXPECT_NE(help.out.find("nqueens " + std::string(command)), std::string::npos) << help.out;
    EXPECT_NE(help.out.find("-h, --help"), std::string::npos) << help.out;
  }
  EXPECT_NE(r.out.find("\n  N              Shorthand for 'count N'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  -V, --version  Print the version"), std::string::npos) << r.out;
  // Every summary starts in one column.
  std::set<std::size_t> columns;
  std::istringstream lines(
      r.out.substr(r.out.find("Commands:\n"), r.out.find("\nExit status") - r.out.find("Commands:\n")));
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  ", 0) == 0) columns.insert(line.find_first_not_of(' ', line.find("  ", 2)));
  }
  EXPECT_EQ(columns.size(), 1u) << r.out;
  // `nqueens help COMMAND` is that command's help.
  const cli_run count = run_cli("help count");
  EXPECT_EQ(count.status, 0) << count.err;
  EXPECT_EQ(count.out, run_cli("count --help").out);
  // `help 12`: the help of what `nqueens 12` runs.
  const cli_run shorthand = run_cli("help 12");
  EXPECT_EQ(shorthand.status, 0) << shorthand.err;
  EXPECT_EQ(shorthand.out, count.out);
  // Help asked of help, or beside --version, is this help.
  for (const char* args : {"help help", "help --help", "help -h", "--help --version", "--version --help", "-V -h",
                           "-h --help", "-- help"}) {
    const cli_run again = run_cli(args);
    EXPECT_EQ(again.status, 0) << args << ": " << again.err;
    EXPECT_EQ(again.out, r.out) << args;
  }
  // "--" ends this level's options: the command or board size follows.
  const auto counts = [](const std::string& out) { return out.substr(0, out.find("  engine ")); };  // no timing
  for (const char* args : {"-- 8", "-- count 8"}) {
    const cli_run after = run_cli(args);
    EXPECT_EQ(after.status, 0) << args << ": " << after.err;
    EXPECT_EQ(counts(after.out), counts(run_cli("count 8").out)) << args;
  }
}

// Every help fits an 80-column terminal, with nothing past its words: the
// engines' summaries, the exit statuses and the commands' own paragraphs
// were written or wrapped wider.
TEST(CliTest, EveryHelpFitsEightyColumns) {
  for (const std::string command :
       {"", "count", "verify", "scale", "rotational", "plan", "merge", "list", "first", "check"}) {
    const cli_run help = run_cli(command + " --help");
    ASSERT_EQ(help.status, 0) << command << ": " << help.err;
    std::istringstream lines(help.out);
    for (std::string line; std::getline(lines, line);) {
      EXPECT_LE(line.size(), 80u) << "nqueens " << command << " --help: " << line;
      EXPECT_TRUE(line.empty() || line.back() != ' ') << "nqueens " << command << " --help: '" << line << "'";
    }
  }
  // The engines keep their hanging indent, the exit statuses their own paragraph.
  const std::string count = run_cli("count --help").out;
  EXPECT_NE(count.find("\n  quadrant    half boards joined"), std::string::npos) << count;
  EXPECT_NE(count.find("\n              "), std::string::npos) << count;
  EXPECT_NE(run_cli("check --help").out.find("\nExit status: 0 all are solutions"), std::string::npos);
  EXPECT_EQ(run_cli("count --help").out.find("\nExit status"), std::string::npos);  // nqueens --help says it
}

// The value of "key" in a one-line JSON object, when it is a string.
std::string json_string(const std::string& json, const std::string& key) {
  const std::string open = "\"" + key + "\":\"";
  const auto start = json.find(open);
  if (start == std::string::npos) return "<no " + key + ">";
  const auto first = start + open.size();
  return json.substr(first, json.find('"', first) - first);
}

bool is_isa_name(const std::string& name) { return parse_isa(name).has_value(); }

TEST(CliTest, VersionNamesTheInstructionSet) {
  const cli_run r = run_cli("--version");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_in(r.out), build_commit().empty() ? 3 : 4) << r.out;  // the commit's line where it is known
  const auto line = r.out.find("\nisa: ");
  ASSERT_NE(line, std::string::npos) << r.out;
  const auto end = r.out.find('\n', line + 1);
  const std::string name = r.out.substr(line + 6, end - line - 6);
  EXPECT_TRUE(is_isa_name(name)) << r.out;
  // Then the kernels that run it: that set's name, or a build of it ("avx2-no-pdep").
  EXPECT_EQ(r.out.substr(end, 10 + name.size()), "\nkernels: " + name) << r.out;
}

TEST(CliTest, EveryJsonOutputNamesTheInstructionSet) {
  const cli_run count = run_cli("count 8 --json");
  EXPECT_EQ(count.status, 0) << count.err;
  EXPECT_TRUE(is_isa_name(json_string(count.out, "isa"))) << count.out;
  const std::string shard = "isa.json";  // in the test's own directory (own_directory.cpp)
  for (const std::string args : {"verify --to 6 --json", "scale 8 --threads 1 --repeat 1 --json", "plan 8 --json",
                                 "plan 8 --stats --threads 1 --json"}) {
    const cli_run r = run_cli(args);
    EXPECT_EQ(r.status, 0) << args << ": " << r.err;
    EXPECT_EQ(lines_in(r.out), 1) << r.out;
    EXPECT_EQ(json_string(r.out, "isa"), json_string(count.out, "isa")) << args << ": " << r.out;
  }
  const cli_run merge = run_script("$NQ count 8 --json > " + shard + " && $NQ merge --json " + shard);
  EXPECT_EQ(merge.status, 0) << merge.err;
  EXPECT_EQ(json_string(merge.out, "isa"), json_string(count.out, "isa")) << merge.out;
}

TEST(CliTest, UnknownIsaIsAOneLineUsageError) {
  for (const char* command : {"count 8", "verify --to 6", "8", "--version"}) {
    const cli_run r = run_script(std::string("NQUEENS_ISA=bogus $NQ ") + command);
    EXPECT_EQ(r.status, 2) << command;
    EXPECT_TRUE(r.out.empty()) << command << ": " << r.out;  // checked before verify's table header
    EXPECT_EQ(lines_in(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind("nqueens: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("NQUEENS_ISA"), std::string::npos) << r.err;
  }
  EXPECT_EQ(run_script("NQUEENS_ISA=bogus $NQ --help").status, 0);  // help still says how to use the tool
}

TEST(CliTest, PortableIsaCountsTheSameTotals) {
  const cli_run r = run_script("NQUEENS_ISA=portable $NQ count 10 --json");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json_string(r.out, "isa"), "portable") << r.out;
  EXPECT_NE(r.out.find("\"total\":724,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"verified\":true"), std::string::npos) << r.out;
}

// NQUEENS_ISA set but empty (a job script's NQUEENS_ISA=$CHOICE with no
// choice) is NQUEENS_ISA unset: the set the CPU is chosen for, not a refusal.
TEST(CliTest, AnEmptyIsaIsNoChoice) {
  const cli_run unset = run_script("env -u NQUEENS_ISA $NQ count 8 --json");
  const cli_run empty = run_script("NQUEENS_ISA= $NQ count 8 --json");
  EXPECT_EQ(unset.status, 0) << unset.err;
  EXPECT_EQ(empty.status, 0) << empty.err;
  EXPECT_TRUE(is_isa_name(json_string(empty.out, "isa"))) << empty.out;
  EXPECT_EQ(json_string(empty.out, "isa"), json_string(unset.out, "isa")) << empty.out;
}

// One rule for every number on the command line, option or operand: plain
// decimal digits, no sign, no leading zero, no spaces, no base prefix;
// seconds may have a fraction. What one option refuses, every option refuses.
TEST(CliTest, EveryNumberIsReadByTheSameRule) {
  for (const char* refused :
       {"count +12", "count 012", "count 0x10", "count 12 --threads 0x2", "count 12 --threads ' 2'",
        "count 12 --threads 02", "count 12 --checkpoint-interval 0x10", "count 12 --checkpoint-interval ' 2'",
        "count 12 --checkpoint-interval 1e1", "count 12 --checkpoint-interval .5", "count 12 --checkpoint-interval 2.",
        "count 12 --checkpoint-interval +2",
        // past a bound by less than a double can tell
        "count 12 --checkpoint-interval 3600.0000000000000001",
        "count 12 --checkpoint-interval 0.0099999999999999999999", "count 12 --shard -0/2", "count 12 --shard 00/2",
        "count 12 --shard 0/+2", "count 12 --max-memory 08G", "count 12 --split-depth +2", "verify --to 08",
        "scale 8 --threads 1,02", "list 8 --limit 0x5", "first 08", "rotational 12 --checkpoint-interval 0x1"}) {
    const cli_run r = run_script(std::string("$NQ ") + refused);
    EXPECT_EQ(r.status, 2) << refused << ": " << r.out << r.err;
    EXPECT_EQ(lines_in(r.err), 1) << refused << ": " << r.err;
  }
  const scratch_directory dir("numbers");
  const std::string in_dir = "cd '" + dir.path().string() + "' && $NQ ";  // the journals land there
  for (const char* accepted :
       {"count 12 --checkpoint-interval 2.5 --json --checkpoint j1",
        "count 12 --checkpoint-interval 0.01 --json --checkpoint j2", "count 12 --shard 0/2 --json",
        "count 12 --checkpoint-interval 3600.000 --json --checkpoint j4",
        "count 12 --checkpoint-interval 0.0100 --json --checkpoint j5", "count 12 --threads 1 --json",
        "rotational 12 --checkpoint-interval 5 --no-progress --checkpoint j3"}) {
    const cli_run r = run_script(in_dir + accepted);
    EXPECT_EQ(r.status, 0) << accepted << ": " << r.err;
  }
}

// Each message names what the user gave, whole and readable.
TEST(CliTest, MessagesNameWhatWasGiven) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"$NQ first -1", "board size -1 is out of range: expected an integer from 1 to 100000000"},
      {"$NQ check -1", "columns are counted from 0: '-1' is negative"},
      {"$NQ check '1 -12 0'", "columns are counted from 0: '-12' is negative"},
      {"printf '1 3\\0 0 2\\n' | $NQ check",
       "line 1: unexpected character '\\x00' in the placement (expected column numbers)"},
      {"$NQ check \"$(printf '1 3 \\033 2')\"",
       "unexpected character '\\x1b' in the placement (expected column numbers)"},
      {"$NQ count 16 --engine mirror --split-depth 12",
       "split depth 12 gives more than 4194304 subproblems for n = 16 (depth 8 already does): "
       "choose a smaller --split-depth"},
      // verify has no --split-depth: it splits as deep as fits (1 MiB holds
      // every n to 17 so), and its refusals name the remedies it has.
      {"$NQ verify --from 20 --to 20 --engine quadrant --max-memory 1M -t 2",
       "the quadrant engine needs about 13 MiB for n = 20 and its lists (the plan's 48880 subproblems at split depth "
       "1) about 406 "
       "KiB, together about 14 MiB, more than the 1 MiB allowed (--max-memory); choose another --engine, or raise "
       "--max-memory"},
      {"$NQ ' 12'",
       "invalid board size ' 12': expected an integer from 1 to 32, in plain decimal digits, no sign, no leading zero"},
      {"$NQ '12 '",
       "invalid board size '12 ': expected an integer from 1 to 32, in plain decimal digits, no sign, no leading zero"},
      {"$NQ scale 8 --threads 1,", "--threads takes a comma-separated list of thread counts, such as 1,2,4: got '1,'"},
      {"$NQ scale 8 --threads ,1", "--threads takes a comma-separated list of thread counts, such as 1,2,4: got ',1'"},
      {"$NQ scale 8 --threads 1,,2",
       "--threads takes a comma-separated list of thread counts, such as 1,2,4: got '1,,2'"},
      {"$NQ scale 8 -t 1,2,1", "--threads names 1 twice ('1,2,1'): give each thread count once"},
      // A flag takes no value (it would act as if given), and an option
      // given twice would keep its last value in silence.
      {"$NQ count 12 --json=false", "--json takes no value ('--json=false'): give --json alone, or leave it out"},
      {"$NQ count 12 --progress=false",
       "--progress takes no value ('--progress=false'): give --progress alone, or leave it out"},
      {"$NQ plan 12 --estimate=false",
       "--estimate takes no value ('--estimate=false'): give --estimate alone, or leave it out"},
      {"$NQ list 6 --unique=false", "--unique takes no value ('--unique=false'): give --unique alone, or leave it out"},
      {"$NQ count 12 --shard 0/2 --shard 1/2", "--shard was given 2 times: give it once"},
      {"$NQ count 12 -t 1 --threads 2", "--threads was given 2 times: give it once"},
      {"$NQ count 12 --json --json", "--json was given 2 times: give it once"},
      {"$NQ check -h --help", "--help was given 2 times: give it once"},
      {"$NQ check -h -x",
       "unknown option '-x' for 'check': it takes placements and -h/--help (a placement after '--' "
       "may start with '-')"},
      // An option's value forgotten: the next option is not taken for it
      // (a journal named "--json", and no JSON), unless joined with '='.
      {"$NQ count 8 --checkpoint --json",
       "option '--checkpoint' needs a value, and the next argument '--json' is an option (to give it as the value, "
       "write '--checkpoint=--json')"},
      {"$NQ scale 8 --csv -t 1",
       "option '--csv' needs a value, and the next argument '-t' is an option (to give it as the value, write "
       "'--csv=-t')"},
      {"$NQ count 8 -t --json",
       "option '-t' needs a value, and the next argument '--json' is an option (to give it as the value, write "
       "'--threads=--json')"},
      {"$NQ count 8 -e=gpu", "'-e=gpu': a short option takes its value without '=': write '-e gpu' or '--engine=gpu'"},
      // A long option given one dash: named as such, not read as a short
      // option and its joined value ("2 is extra", "write '-t hreads=2'").
      {"$NQ count 8 -threads 2", "'-threads': a long option takes two dashes: write '--threads'"},
      {"$NQ count 8 -threads=2", "'-threads=2': a long option takes two dashes: write '--threads=2'"},
      {"$NQ list 4 -format board", "'-format': a long option takes two dashes: write '--format'"},
      {"$NQ verify -to 9", "'-to': a long option takes two dashes: write '--to'"},
      {"$NQ count 8 -json", "'-json': a long option takes two dashes: write '--json'"},
      {"$NQ count 8 -json=1", "'-json=1': a long option takes two dashes: write '--json' (it takes no value)"},
      // Short options grouped where the first takes a value: cxxopts would
      // read the rest as that value, and "1" would be named extra.
      {"$NQ scale 8 -rt 1",
       "'-rt': '-r' takes a value, so 't' would be read as its value: write each option apart, with its value after "
       "it"},
      {"$NQ count 8 -th",
       "'-th': '-t' takes a value, so 'h' would be read as its value: write each option apart, with "
       "its value after it"},
      // A board the engine does not take is refused for that, not priced.
      {"$NQ plan 29 --engine gpu", "the gpu engine handles n up to 28"},
      {"$NQ plan 29 --engine gpu --max-memory 16777215T", "the gpu engine handles n up to 28"},
      // What the user typed stays on the one line, control bytes escaped,
      // other bytes (UTF-8) as they are.
      {"$NQ count \"$(printf '1\\n2')\"",
       "invalid board size '1\\x0a2': expected an integer from 1 to 32, in plain decimal digits, no sign, no "
       "leading zero"},
      {"$NQ count 8 --engine \"$(printf 'x\\033[2Jy')\"",
       "unknown engine 'x\\x1b[2Jy': expected auto or one of symmetric, mirror, quadrant, gpu"},
      {"$NQ count 8 --engine 'caf\xc3\xa9'",
       "unknown engine 'caf\xc3\xa9': expected auto or one of symmetric, mirror, quadrant, gpu"},
      // Bytes outside well-formed UTF-8, and C1 controls (CSI, U+009B), escaped.
      {"$NQ count \"$(printf '\\377')\"",
       "invalid board size '\\xff': expected an integer from 1 to 32, in plain decimal digits, no sign, no leading "
       "zero"},
      {"$NQ count 8 --engine \"$(printf 'a\\302\\233b\\303')\"",
       "unknown engine 'a\\xc2\\x9bb\\xc3': expected auto or one of symmetric, mirror, quadrant, gpu"},
  };
  for (const auto& [script, message] : cases) {
    const cli_run r = run_script(script);
    EXPECT_EQ(r.status, 2) << script;
    EXPECT_EQ(r.err, "nqueens: " + message + "\n") << script;
    EXPECT_TRUE(r.out.empty()) << script << ": " << r.out;
  }
}

struct bad_input {
  const char* args;
  const char* message;  // a fragment the one-line error must contain
};

// Shows the arguments in test names and failure messages.
void PrintTo(const bad_input& c, std::ostream* os) { *os << '"' << c.args << '"'; }

class CliBadInputTest : public ::testing::TestWithParam<bad_input> {};

TEST_P(CliBadInputTest, ExitsTwoWithOneLineError) {
  const bad_input& c = GetParam();
  const cli_run r = run_cli(c.args);
  EXPECT_EQ(r.status, 2) << c.args;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(lines_in(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("nqueens: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(c.message), std::string::npos) << "stderr was: " << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    BadInputs, CliBadInputTest,
    ::testing::Values(
        bad_input{"count", "missing board size"},
        bad_input{"count abc",
                  "invalid board size 'abc': expected an integer from 1 to 32, in plain decimal digits, no sign, no "
                  "leading zero"},
        bad_input{"count 0", "board size 0 is out of range: expected an integer from 1 to 32"},
        bad_input{"count -4", "board size -4 is out of range"}, bad_input{"-4", "board size -4 is out of range"},
        bad_input{"count 33", "board size 33 is out of range"},
        bad_input{"count 99999999999999999999", "is out of range"}, bad_input{"count 12x", "invalid board size '12x'"},
        bad_input{"12x", "invalid board size '12x'"}, bad_input{"count 8 9", "expected one board size"},
        bad_input{"count 8 --threads 0", "--threads 0 is out of range: expected an integer from 1"},
        bad_input{"count 8 --threads -2", "--threads -2 is out of range"},
        bad_input{"count 8 --threads two", "invalid --threads 'two'"},
        // A negative number after an option that takes a value is that value; after a
        // flag it is a board size.
        bad_input{"count 8 -t -2", "--threads -2 is out of range"},
        bad_input{"count 8 --engine -1", "unknown engine '-1'"},
        bad_input{"count 8 --split-depth -1", "--split-depth -1 is out of range"},
        bad_input{"count 8 --json -3", "board size -3 is out of range"},
        bad_input{"list 8 --limit -5", "--limit -5 is out of range"},
        bad_input{"scale 10 -r -1", "--repeat -1 is out of range"},
        bad_input{"verify --from -3", "--from -3 is out of range"}, bad_input{"merge -3", "unexpected argument '-3'"},
        bad_input{"count 8 --threads", "option '--threads' needs a value"},
        bad_input{"count 8 --frobnicate", "frobnicate"}, bad_input{"count 8 --engine warp", "unknown engine 'warp'"},
        bad_input{"count 8 --split-depth 0", "--split-depth 0 is out of range"},
        bad_input{"verify --from 9 --to 5", "--from 9 is greater than --to 5"},
        bad_input{"verify --to 28", "--to 28 is out of range: expected an integer from 1 to 27"},
        bad_input{"verify --from 0", "--from 0 is out of range"}, bad_input{"verify 12", "unexpected argument '12'"},
        bad_input{"frobnicate", "unknown command 'frobnicate'"},
        // An operand is one argument, whole: cxxopts split "8," at its comma.
        bad_input{"list 8, --limit 1", "invalid board size '8,'"}, bad_input{"count 8,", "invalid board size '8,'"},
        bad_input{"first 1,000", "invalid board size '1,000'"},
        bad_input{"scale 10 --threads 1,0", "--threads 0 is out of range"},
        bad_input{"scale 10 --threads 1,x", "invalid --threads 'x'"},
        bad_input{"scale 10 --repeat 0", "--repeat 0 is out of range"},
        bad_input{"scale 12 --engine quadrant --max-memory 1M", "more than the 1 MiB allowed (--max-memory)"},
        bad_input{"scale 10 --split-depth 13", "--split-depth 13 is out of range"},
        bad_input{"scale 10 --gpu-memory 1G", "and the symmetric engine counts on the CPU"},
        bad_input{"scale 10 --csv /nonexistent-dir/s.csv", "cannot write --csv file"},
        bad_input{"scale 10 --csv /", "cannot write --csv file '/': it is a directory"},
        bad_input{"scale 10 --csv /dev/null", "cannot write --csv file '/dev/null': not a regular file"},
        bad_input{"scale", "missing board size"}, bad_input{"plan 40", "board size 40 is out of range"},
        bad_input{"count 10 --checkpoint /nonexistent-dir/q.ckpt", "cannot create checkpoint"},
        bad_input{"count 10 --checkpoint-interval 0", "--checkpoint-interval 0 is out of range"},
        bad_input{"count 10 --checkpoint-interval 5", "--checkpoint-interval goes with --checkpoint"},
        bad_input{"rotational 10 --checkpoint-interval 5", "--checkpoint-interval goes with --checkpoint"},
        bad_input{"count -", "invalid board size '-'"}, bad_input{"count 8 -t -", "invalid --threads '-'"},
        bad_input{"first", "missing board size N (1 to 100,000,000)"},
        bad_input{"count 8 --engine foo", "unknown engine 'foo': expected auto or one of"},
        bad_input{"--version extra", "--version takes no arguments ('extra' is extra)"},
        bad_input{"help frobnicate", "unknown command 'frobnicate'"}, bad_input{"--", "missing command after '--'"},
        bad_input{"-- --json", "unknown command '--json' (try 'nqueens --help')"},
        bad_input{"help --threads", "unknown command '--threads' (try 'nqueens --help')"},
        // An option before the command, a command mistyped, an option after "--".
        bad_input{"-t 2 8", "'-t' is an option, not a command: options go after the command or N, as in"},
        bad_input{"--json 8", "'--json' is an option, not a command"},
        bad_input{"lst 8", "unknown command 'lst': did you mean 'list'?"},
        bad_input{"help verfy", "unknown command 'verfy': did you mean 'verify'?"},
        bad_input{"list -- --unique 4", "got 2: '--unique' came after '--', where nothing is an option"},
        bad_input{"check -0", "column '-0' has a sign: columns are plain numbers, counted from 0"},
        // A refusal's remedy made exact: the split, or the engine, that fits.
        bad_input{"scale 14 --engine symmetric --split-depth 6 --max-memory 1M --threads 1,2 --repeat 1",
                  "or raise --max-memory (--split-depth 4 fits)"},
        bad_input{"count 17 --max-memory 1M --shard 1/2",
                  "(--engine symmetric --split-depth 3 fits: give every part of the run the same)"},
        bad_input{"count 16 --engine quadrant --max-memory 2M --threads 2",
                  "or raise --max-memory (--engine symmetric fits)"},
        bad_input{"count 16 --engine quadrant --split-depth 9 --max-memory 2M --threads 2",
                  "(--engine symmetric and no --split-depth fits)"},
        bad_input{"count 10 --progress --no-progress", "contradict"},
        bad_input{"count 10 --shard 4/4", "shard index I 4 is out of range: expected an integer from 0 to 3"},
        bad_input{"count 10 --shard 1", "invalid --shard '1': expected I/M"},
        bad_input{"count 10 --shard -0/2", "invalid shard index I '-0'"},
        bad_input{"count -0", "invalid board size '-0'"},
        bad_input{"count 10 --shard 0/0", "shard count M 0 is out of range"},
        bad_input{"merge", "merge needs the shard files"},
        bad_input{"merge /nonexistent.json", "cannot read '/nonexistent.json'"},
        bad_input{"plan 12 --split-depth 13", "--split-depth 13 is out of range"}, bad_input{"", "missing command"},
        bad_input{"list", "missing board size"}, bad_input{"list 33", "board size 33 is out of range"},
        bad_input{"list 6 --format fen", "--format fen describes a chess board: it needs N = 8, not 6"},
        bad_input{"list 8 --format ascii", "unknown --format 'ascii': expected tuple, board or fen"},
        bad_input{"list 8 --limit 0", "--limit 0 is out of range"},
        bad_input{"list 8 --threads 0", "--threads 0 is out of range"},
        bad_input{"first 0", "board size 0 is out of range"},
        bad_input{"first 100000001", "board size 100000001 is out of range"},
        bad_input{"first 5000 --format board", "--format board draws at most 1000 columns"},
        bad_input{"first 9 --format fen", "it needs N = 8, not 9"},
        bad_input{"check 1 3 x 2", "unexpected character 'x'"}, bad_input{"check 1,,3", "empty entry"},
        bad_input{"check 1,3,", "empty entry (a trailing comma)"},
        bad_input{"check '(1, 3, 0, 2,)'", "empty entry (a trailing comma)"},
        bad_input{"check '[1,3,0,2,]'", "empty entry (a trailing comma)"},
        bad_input{"count 10 --checkpoint ''", "--checkpoint needs a file name"},
        bad_input{"count 10 --checkpoint=", "--checkpoint needs a file name"},
        bad_input{"check - 1,3,0,2", "'-' (standard input) is checked alone"},
        bad_input{"check 1 3 0 4", "the queen of row 3 is in column 4, outside 0..3 (columns are counted from 0)"},
        bad_input{"count 14 --engine quadrant --max-memory 1M", "MiB for n = 14 and its lists (the plan's"},
        bad_input{"count 14 --max-memory 12x", "invalid --max-memory '12x'"},
        bad_input{"count 14 --max-memory 100K", "--max-memory 100K is out of range: expected a size from 1M"},
        bad_input{"plan 22 --engine quadrant --max-memory 1M",
                  "MiB for n = 22 and its lists (the plan's 180406 subproblems at split depth 1) about"},
        bad_input{"plan 14 --max-memory 12x", "invalid --max-memory '12x'"},
        bad_input{"count 29 --engine quadrant", "the quadrant engine handles n up to 28"},
        bad_input{"plan 28 --engine quadrant --threads 2 --max-memory 2G",
                  "GiB for n = 28 and its lists (the plan's"}));

// The long options a command's --help lists (its own parser's list).
std::set<std::string> options_in_help(const std::string& help) {
  std::set<std::string> options;
  std::istringstream lines(help);
  for (std::string line; std::getline(lines, line);) {
    std::size_t at = std::string::npos;
    if (line.rfind("  -", 0) == 0 && line.size() > 6 && line.compare(4, 4, ", --") == 0) at = 6;
    if (line.rfind("      --", 0) == 0) at = 6;
    if (at == std::string::npos) continue;
    const std::size_t end = line.find_first_not_of("abcdefghijklmnopqrstuvwxyz-", at + 2);
    options.insert(line.substr(at, end - at));
  }
  return options;
}

const std::vector<std::string> every_command = {"count", "verify", "scale", "rotational", "plan",
                                                "merge", "list",   "first", "check"};

// Help, completion and man page agree with what each command takes: every
// option a help text mentions is one its command takes; the completion
// offers exactly the options of each command's help; the man page names
// every option, and none that no command takes.
TEST(CliTest, HelpCompletionAndManPageAgreeWithTheCommands) {
  std::set<std::string> all = {"--version"};
  for (const std::string& command : every_command) {
    SCOPED_TRACE(command);
    const cli_run help = run_cli(command + " --help");
    ASSERT_EQ(help.status, 0);
    const std::set<std::string> taken = options_in_help(help.out);
    EXPECT_TRUE(taken.contains("--help"));
    all.insert(taken.begin(), taken.end());
    // Mentioned anywhere in the text, the description of another option
    // included; a quoted command line ('nqueens count N --shard I/M') is
    // another command's.
    std::string text = help.out;
    for (std::size_t open; (open = text.find('\'')) != std::string::npos;) {
      const std::size_t close = text.find('\'', open + 1);
      text.erase(open, close == std::string::npos ? std::string::npos : close - open + 1);
    }
    for (std::size_t at = text.find("--"); at != std::string::npos; at = text.find("--", at + 2)) {
      const std::size_t end = text.find_first_not_of("abcdefghijklmnopqrstuvwxyz-", at + 2);
      const std::string mentioned = text.substr(at, end - at);
      EXPECT_TRUE(taken.contains(mentioned)) << mentioned << " is mentioned but not taken";
    }
    EXPECT_EQ(help.out.find("\n  -n "), std::string::npos) << "the operand is listed as an option";
    EXPECT_EQ(help.out.find("positional parameters"), std::string::npos);
    // The completion, sourced into bash, completing "nqueens COMMAND --".
    const cli_run completion = run_cli_command(
        "bash -c 'source " NQUEENS_SOURCE_DIR "/packaging/nqueens.bash-completion; COMP_WORDS=(" NQUEENS_CLI_PATH " " +
        command + " --); COMP_CWORD=2; _nqueens; printf \"%s\\n\" \"${COMPREPLY[@]}\"'");
    ASSERT_EQ(completion.status, 0) << completion.err;
    std::set<std::string> offered;
    std::istringstream words(completion.out);
    for (std::string word; words >> word;) offered.insert(word);
    EXPECT_EQ(offered, taken);
  }
  std::set<std::string> in_man;
  const std::string man = slurp(NQUEENS_SOURCE_DIR "/packaging/nqueens.1");
  for (std::size_t at = man.find("\\-\\-"); at != std::string::npos; at = man.find("\\-\\-", at + 4)) {
    std::string name = "--";
    std::size_t k = at + 4;
    while (k < man.size() && ((man[k] >= 'a' && man[k] <= 'z') || man.compare(k, 2, "\\-") == 0)) {
      name += man[k] == '\\' ? '-' : man[k];
      k += man[k] == '\\' ? 2 : 1;
    }
    in_man.insert(name);
  }
  EXPECT_EQ(in_man, all);
  // The completion's first word: the commands, from the tool itself.
  const cli_run commands = run_cli_command("bash -c 'source " NQUEENS_SOURCE_DIR
                                           "/packaging/nqueens.bash-completion; COMP_WORDS=(" NQUEENS_CLI_PATH
                                           " \"\"); COMP_CWORD=1; _nqueens; printf \"%s\\n\" \"${COMPREPLY[@]}\"'");
  std::set<std::string> offered;
  std::istringstream words(commands.out);
  for (std::string word; words >> word;) offered.insert(word);
  std::set<std::string> expected(every_command.begin(), every_command.end());
  expected.insert({"help", "--help", "--version"});  // `nqueens help COMMAND` too
  EXPECT_EQ(offered, expected);
}

}  // namespace
}  // namespace nqueens::test
