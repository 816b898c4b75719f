// `nqueens merge` and the shard files of `count --shard` it adds up.

#include <cstdint>
#include <string>

#include "nqueens/plan.hpp"
#include "run/shard/shard_members.hpp"
#include "support/cli_run.hpp"
#include "support/scratch_directory.hpp"
#include "support/shard_json.hpp"

namespace nqueens::test {
namespace {

class CliShardTest : public ::testing::Test {
 protected:
  // Counts shard k of `shards` of Q(n) into its own JSON file; returns the file.
  std::string shard_file(int n, int k, int shards, const std::string& extra = "") {
    std::string file = (std::filesystem::temp_directory_path() /
                        ("nqueens-shard-" + std::to_string(::getpid()) + "-" + std::to_string(n) + "-" +
                         std::to_string(k) + "of" + std::to_string(shards) + ".json"))
                           .string();
    files_.push_back(file);
    const cli_run r = run_cli("count " + std::to_string(n) + " --shard " + std::to_string(k) + "/" +
                              std::to_string(shards) + " --json " + extra);
    EXPECT_EQ(r.status, 0) << r.err;
    std::ofstream(file) << r.out;
    return file;
  }
  void TearDown() override {
    for (const auto& f : files_) std::filesystem::remove(f);
  }
  std::vector<std::string> files_;
};

TEST_F(CliShardTest, FourShardsMergeToTheVerifiedCounts) {
  std::string all;
  for (int k = 0; k < 4; ++k) {
    all += ' ';  // appended: GCC 12 misreads " " + string (-Wstringop-overflow)
    all += shard_file(13, k, 4);
  }
  const cli_run r = run_cli("merge" + all);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Q(13) = 73712  verified"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unique = 9233  verified"), std::string::npos) << r.out;
}

// Shard files an earlier build wrote (0.1.1 at d9ec0ef, timings left out)
// still merge: their checksums are over a fixed text of the fields merge
// reads, and a change to that text would refuse every shard on users' disks.
TEST(CliTest, ShardsOfAnEarlierBuildStillMerge) {
  const scratch_directory dir("earlier-shards");
  const std::string common = R"("unique":null,"symmetric_90":0,"verified":null,"engine":"symmetric","subproblems":16,)"
                             R"("split_depth":1,"plan_fingerprint":"a055406ae6451f3e","resumed":0,"shards":2,)";
  std::ofstream(dir.path() / "a.json") << R"({"n":8,"total":64,"symmetric_180":0,)" << common
                                       << R"("shard":0,"shard_subproblems":7,"shard_digest":"84551f1f22dd3c8e",)"
                                       << R"("checksum":"e124e4411a4b3b68"})" << '\n';
  std::ofstream(dir.path() / "b.json") << R"({"n":8,"total":28,"symmetric_180":4,)" << common
                                       << R"("shard":1,"shard_subproblems":9,"shard_digest":"87725ec335f657de",)"
                                       << R"("checksum":"2830390db76a12d9"})" << '\n';
  const cli_run r = run_script("cd '" + dir.path().string() + "' && $NQ merge a.json b.json");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Q(8) = 92  verified"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unchanged by a half turn: 4  verified"), std::string::npos) << r.out;
}

// A file name is one argument, whole, commas and all.
TEST_F(CliShardTest, FileNamesWithCommasMerge) {
  std::string all;
  for (int k = 0; k < 2; ++k) {
    const std::string plain = shard_file(11, k, 2);
    const std::string comma = plain.substr(0, plain.size() - 5) + ",a,b.json";
    std::filesystem::rename(plain, comma);
    files_.push_back(comma);
    all += ' ';
    all += comma;
  }
  const cli_run r = run_cli("merge" + all);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Q(11) = 2680  verified"), std::string::npos) << r.out;
}

TEST_F(CliShardTest, MoreShardsThanSubproblemsAndOneShard) {
  std::string all;
  for (int k = 0; k < 40; ++k) {  // the 5-board plan is tiny
    all += ' ';
    all += shard_file(5, k, 40);
  }
  EXPECT_EQ(run_cli("merge" + all).status, 0);
  EXPECT_EQ(run_cli("merge " + shard_file(11, 0, 1)).status, 0);
}

TEST_F(CliShardTest, MissingDuplicateAndForeignShardsAreNamed) {
  const std::string a = shard_file(12, 0, 3), b = shard_file(12, 1, 3), c = shard_file(12, 2, 3);
  const std::string other = shard_file(11, 2, 3);
  cli_run r = run_cli("merge " + a + " " + b);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("1 of 3 shards missing: 2"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;  // never a partial sum presented as a total
  r = run_cli("merge " + a + " " + b + " " + b + " " + c);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("shard 1/3 is given twice: " + b + " and " + b), std::string::npos) << r.err;
  r = run_cli("merge " + a + " " + b + " " + other);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(other + " belongs to another run (n = 11"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("shards missing: 2"), std::string::npos) << r.err;
}

// Shards whose fingerprint is not the plan their fields make here (another
// version of nqueens counted them, its plan for the same options another)
// are of another run: exit 1, every one named once, in the JSON too, not a
// usage error on the first; their shards are missing.
TEST_F(CliShardTest, ShardsOfAnotherVersionsPlanAreEachNamed) {
  const std::string a = shard_file(12, 0, 3), b = shard_file(12, 1, 3), c = shard_file(12, 2, 3);
  for (const std::string& name : {b, c}) {
    std::string text = slurp(name);
    const std::string key = "\"plan_fingerprint\":\"";
    const std::size_t at = text.find(key);
    ASSERT_NE(at, std::string::npos) << text;
    text.replace(at + key.size(), 16, "0123456789abcdef");
    std::ofstream(name, std::ios::trunc) << resigned(text);
  }
  const cli_run r = run_cli("merge --json " + a + " " + b + " " + c);
  EXPECT_EQ(r.status, 1) << r.err;
  for (const std::string& name : {b, c}) {
    EXPECT_NE(r.err.find("nqueens merge: " + name +
                         ": plan 0123456789abcdef is not the plan its fields make in this version of nqueens (n = 12,"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.out.find(name + ": plan 0123456789abcdef"), std::string::npos) << r.out;
  }
  EXPECT_EQ(r.err.find(a), std::string::npos) << r.err;
  // Their shards are not given: missing, as the good file's run says.
  EXPECT_NE(r.err.find("2 of 3 shards missing: 1-2"), std::string::npos) << r.err;
  EXPECT_EQ(lines_in(r.err), 4) << r.err;
  EXPECT_EQ(r.out.rfind("{\"files\":3,\"ok\":false,\"problems\":[", 0), 0u) << r.out;
  // The run's other problems are named beside them: here a shard given twice.
  const cli_run twice = run_cli("merge " + a + " " + b + " " + c + " " + a);
  EXPECT_EQ(twice.status, 1) << twice.err;
  EXPECT_NE(twice.err.find(b + ": plan 0123456789abcdef"), std::string::npos) << twice.err;
  EXPECT_NE(twice.err.find("shard 0/3 is given twice: " + a + " and " + a), std::string::npos) << twice.err;
}

// Files whose fields were edited (their split depth) and re-signed are
// named once each, by the fingerprint they hold, and never outvote a good
// file: they were named a second time as of another run, and two of them
// made the good one "of another run" and its shard missing.
TEST_F(CliShardTest, EditedShardsAreNamedOnceAndBlameNoGoodOne) {
  const std::string a = shard_file(12, 0, 3), b = shard_file(12, 1, 3), c = shard_file(12, 2, 3);
  for (const std::string& edited : {b, c}) {
    std::string text = slurp(edited);
    const std::string key = "\"split_depth\":";
    const std::size_t at = text.find(key);
    ASSERT_NE(at, std::string::npos) << text;
    const std::size_t digits = text.find_first_not_of("0123456789", at + key.size()) - (at + key.size());
    const int depth = std::stoi(text.substr(at + key.size(), digits));
    text.replace(at + key.size(), digits, std::to_string(depth + 1));
    std::ofstream(edited, std::ios::trunc) << resigned(text);
    const cli_run r = run_cli("merge " + a + " " + b + " " + c);
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.err.find(edited + ": plan "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("is not the plan its fields make"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find(edited), r.err.rfind(edited)) << "named twice:\n" << r.err;
    EXPECT_EQ(r.err.find(a), std::string::npos) << "a good file blamed:\n" << r.err;
  }
  const cli_run r = run_cli("merge " + a + " " + b + " " + c);
  EXPECT_NE(r.err.find("2 of 3 shards missing: 1-2"), std::string::npos) << r.err;
}

// A count's text output (its --json forgotten) is named as such, with the
// command that makes a file merge takes, not as a JSON parse error.
TEST_F(CliShardTest, ACountsTextOutputIsNamedWithItsRemedy) {
  const std::string a = shard_file(12, 0, 2), b = shard_file(12, 1, 2);
  for (const std::string& args : {std::string("count 12 --shard 1/2"), std::string("count 12")}) {
    std::ofstream(b, std::ios::trunc) << "\n" << run_cli(args).out;  // after a blank line too
    const cli_run r = run_cli("merge " + a + " " + b);
    EXPECT_EQ(r.status, 2) << args << '\n' << r.err;
    EXPECT_NE(r.err.find(b + ": this is the text output of 'nqueens count', which merge cannot add up: count the "
                             "shard again with --json"),
              std::string::npos)
        << args << '\n'
        << r.err;
    EXPECT_EQ(lines_in(r.err), 1) << r.err;
  }
  // scale's text is not count's: no remedy of count's for it.
  std::ofstream(b, std::ios::trunc) << run_cli("scale 9 --threads 1 --repeat 1").out;
  const cli_run scale = run_cli("merge " + a + " " + b);
  EXPECT_EQ(scale.status, 2) << scale.err;
  EXPECT_EQ(scale.err.find("text output of 'nqueens count'"), std::string::npos) << scale.err;
}

// With --json a failed merge prints one object too, "ok" false and every
// problem in it, for a script that reads only the JSON; a merge that
// succeeds says "ok" true.
TEST_F(CliShardTest, AFailedMergeSaysSoInItsJson) {
  const std::string a = shard_file(12, 0, 3), b = shard_file(12, 1, 3), c = shard_file(12, 2, 3);
  cli_run r = run_cli("merge --json " + a + " " + b);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out,
            "{\"files\":2,\"ok\":false,\"problems\":[\"1 of 3 shards missing: 2\","
            "\"no total: the shards do not make up one whole run\"]}\n");
  EXPECT_NE(r.err.find("nqueens merge: 1 of 3 shards missing: 2\n"), std::string::npos) << r.err;
  r = run_cli("merge --json " + a + " " + b + " " + c);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"verified\":true"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"ok\":true}"), std::string::npos) << r.out;
}

// The merged JSON names the kernels the shards counted with, as their files
// say, not the merging machine's: one name, or each distinct one.
// A file name's control bytes, in a problem merge names, are shown escaped
// on stderr, not sent to the terminal.
TEST_F(CliShardTest, MergeEscapesControlBytesInNames) {
  const std::string plain = shard_file(11, 0, 2);
  const std::string odd = plain + "\x1b[31m";
  std::filesystem::rename(plain, odd);
  files_.push_back(odd);
  const cli_run r = run_cli("merge '" + odd + "' '" + odd + "'");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("shard 0/2 is given twice: " + plain + "\\x1b[31m and "), std::string::npos) << r.err;
}

// After '--' every argument is a file, one named like a negative number
// too; before it, such a word is refused as an operand.
TEST_F(CliShardTest, MergeTakesFilesNamedLikeNumbersAfterTheOptionsEnd) {
  const scratch_directory dir("merge-dashes");
  std::filesystem::copy_file(shard_file(12, 0, 2), dir.path() / "-5");
  std::filesystem::copy_file(shard_file(12, 1, 2), dir.path() / "-x.json");
  const std::string in_dir = "cd '" + dir.path().string() + "' && " + NQUEENS_CLI_PATH;
  cli_run r = run_cli_command(in_dir + " merge -- -5 -x.json");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Q(12) = 14200"), std::string::npos) << r.out;
  r = run_cli_command(in_dir + " merge -5 ./-x.json");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err, "nqueens: unexpected argument '-5'\n");
}

// Rewrites a shard file's "isa":"portable" (outside its checksum) as
// `replacement`; false where the file names no such isa.
bool replace_isa(const std::string& file, const std::string& replacement) {
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  const std::string portable = "\"isa\":\"portable\"";
  const std::size_t at = text.find(portable);
  if (at == std::string::npos) return false;
  text.replace(at, portable.size(), replacement);
  std::ofstream(file) << text;
  return true;
}

TEST_F(CliShardTest, MergeNamesTheShardsKernels) {
  std::string all;
  for (int k = 0; k < 2; ++k) {
    const std::string file = (std::filesystem::temp_directory_path() /
                              ("nqueens-shard-" + std::to_string(::getpid()) + "-portable-" + std::to_string(k)))
                                 .string();
    files_.push_back(file);
    const cli_run r = run_cli_command("NQUEENS_ISA=portable " + std::string(NQUEENS_CLI_PATH) + " count 11 --shard " +
                                      std::to_string(k) + "/2 --json");
    ASSERT_EQ(r.status, 0) << r.err;
    std::ofstream(file) << r.out;
    all += ' ';
    all += file;
  }
  const cli_run r = run_cli("merge --json" + all);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"isa\":\"portable\",\"isas\":[\"portable\"]"), std::string::npos) << r.out;
  // The isa is outside the checksum: a name that is no instruction set is
  // not reported.
  ASSERT_TRUE(replace_isa(files_[1], "\"isa\":\"\\u001b[31mred\""));
  const cli_run forged = run_cli("merge --json" + all);
  EXPECT_EQ(forged.status, 0) << forged.err;
  EXPECT_NE(forged.out.find("\"isa\":\"portable\",\"isas\":[\"portable\"]"), std::string::npos) << forged.out;
  // A file of nqueens-mpi's ranks on different kernels names no one set
  // ("isa" null) but each in its "isas": those are reported.
  ASSERT_TRUE(replace_isa(files_[0], "\"isa\":null,\"isas\":[\"portable\",\"avx2\",\"none\"]"));
  const cli_run ranks = run_cli("merge --json" + all);
  EXPECT_EQ(ranks.status, 0) << ranks.err;
  EXPECT_NE(ranks.out.find("\"isa\":null,\"isas\":[\"portable\",\"avx2\"]"), std::string::npos) << ranks.out;
  // With a shard of other kernels: no one name, and each in "isas".
  const cli_run other = run_cli("count 11 --shard 1/2 --json");
  ASSERT_EQ(other.status, 0) << other.err;
  if (other.out.find("\"isa\":\"portable\"") != std::string::npos) GTEST_SKIP() << "this CPU runs the portable kernels";
  const std::string file = files_.back() + "-own";
  files_.push_back(file);
  std::ofstream(file) << other.out;
  const cli_run mixed = run_cli("merge --json " + files_[0] + " " + file);
  EXPECT_EQ(mixed.status, 0) << mixed.err;
  EXPECT_NE(mixed.out.find("\"isa\":null,\"isas\":[\"portable\",\""), std::string::npos) << mixed.out;
}

// The rotation-symmetric parts are summed and the fundamental count derived;
// shards whose counts cannot all be right (Q + P + 2R not a multiple of 8)
// are a mismatch, exit 1, not a crash.
TEST_F(CliShardTest, MergeDerivesTheFundamentalCountAndRefusesInconsistentParts) {
  const std::string a = shard_file(12, 0, 2), b = shard_file(12, 1, 2);
  cli_run r = run_cli("merge --json " + a + " " + b);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"total\":14200,\"unique\":1787,\"symmetric_180\":80,\"symmetric_90\":8,"), std::string::npos)
      << r.out;
  std::string text = slurp(a);
  const std::size_t field = text.find("\"symmetric_180\":");
  ASSERT_NE(field, std::string::npos) << text;
  text.insert(field + 16, 1, '1');
  std::ofstream(a, std::ios::trunc) << resigned(text);  // past the checksum, to Burnside's check
  r = run_cli("merge " + a + " " + b);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("not a multiple of 8"), std::string::npos) << r.err;
  // With what to do, as no file can be named.
  EXPECT_NE(r.err.find("no total: no file can be named"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("count the shards again"), std::string::npos) << r.err;
}

// A whole run's file (one shard) may carry its fundamental count, but only
// the one its counts make: another, edited in past the checksum (which
// covers what merge adds up), is refused naming the file, exit 2.
TEST_F(CliShardTest, AWholeRunsUniqueMustBeTheOneItsCountsMake) {
  const std::string whole = shard_file(12, 0, 1);
  std::string text = slurp(whole);
  const std::size_t at = text.find("\"unique\":1787,");
  ASSERT_NE(at, std::string::npos) << text;
  const std::string edited = "\"unique\":1786,";
  std::ofstream(whole, std::ios::trunc) << text.replace(at, edited.size(), edited);
  const cli_run r = run_cli("merge " + whole);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(lines_in(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(whole + ": byte " + std::to_string(at + 10) +
                       ": \"unique\" 1786 contradicts the counts beside it, whose fundamental count is 1787"),
            std::string::npos)
      << r.err;
}

// A checkpoint journal given to merge alone, by mistake, is named as one.
TEST_F(CliShardTest, AJournalGivenToMergeIsNamedAsOne) {
  const std::string journal = shard_file(11, 0, 1) + ".ckpt";
  files_.push_back(journal);
  ASSERT_EQ(run_cli("count 11 --checkpoint " + journal).status, 0);
  const cli_run r = run_cli("merge " + journal);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err, "nqueens: " + journal +
                       ": this is a checkpoint journal (--checkpoint), not the --json output of 'nqueens count N "
                       "--shard I/M' that merge adds up\n");
}

// An earlier merge's output given alone, its text or its --json, is no
// shard's: refused as a journal alone is (exit 2), one line a file, not
// "no total" as if shards were missing (exit 1).
TEST_F(CliShardTest, AnEarlierMergeGivenAloneIsRefusedAsNoShard) {
  const cli_run r = run_script(
      "mkdir -p remerge && cd remerge || exit 9\n"
      "for k in 0 1; do $NQ count 10 --shard $k/2 --json > q-$k.json || exit 9; done\n"
      "$NQ merge q-0.json q-1.json --json > all.json && $NQ merge q-0.json q-1.json > all.txt || exit 8\n"
      "$NQ count 10 --checkpoint q.ckpt > /dev/null || exit 7\n"
      "$NQ merge all.json; echo status=$?\n"
      "$NQ merge all.txt q.ckpt --json; echo status=$?\n");
  // Both refused: nothing on stdout but the second's JSON.
  EXPECT_TRUE(r.out.starts_with("status=2\n{") && r.out.ends_with("}\nstatus=2\n")) << r.out << r.err;
  EXPECT_NE(r.out.find("\"ok\":false"), std::string::npos) << r.out;
  EXPECT_EQ(r.err,
            "nqueens: all.json: this is the output of 'nqueens merge', not a shard's\n"
            "nqueens: all.txt: this is the output of 'nqueens merge', not a shard's\n"
            "nqueens: q.ckpt: this is a checkpoint journal (--checkpoint), not the --json output of 'nqueens count N "
            "--shard I/M' that merge adds up\n");
}

// A glob of a job's files (q-*) takes in its journals beside its shards:
// each is left out with a note, and the shards alone decide: a total where
// every one is in, exit 1 naming those missing or given twice (what a job
// script resubmits by), never a refusal for the journals.
TEST_F(CliShardTest, AJournalAmongTheShardsIsLeftOutWithANote) {
  const auto noted = [](const std::string& err, const char* journal) {
    return err.find(std::string("nqueens merge: note: ") + journal +
                    " is a checkpoint journal (--checkpoint), not a shard's --json: left out") != std::string::npos;
  };
  cli_run r = run_script(
      "mkdir -p journals && cd journals || exit 9\n"
      "for k in 0 1; do $NQ count 11 --shard $k/2 --checkpoint q-$k.ckpt --json > q-$k.json || exit 9; done\n"
      "$NQ merge q-*; echo status=$?\n");
  EXPECT_NE(r.out.find("status=0"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find("Q(11) = 2680  verified"), std::string::npos) << r.out;
  EXPECT_TRUE(noted(r.err, "q-0.ckpt") && noted(r.err, "q-1.ckpt")) << r.err;
  r = run_script("cd journals && $NQ merge q-0.json q-0.json q-1.json q-0.ckpt; echo status=$?");
  EXPECT_NE(r.out.find("status=1"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.err.find("given twice"), std::string::npos) << r.err;
  EXPECT_TRUE(noted(r.err, "q-0.ckpt")) << r.err;
  r = run_script("cd journals && rm q-1.json && $NQ merge q-* --json > failed.json; echo status=$?; cat failed.json");
  EXPECT_NE(r.out.find("status=1"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.err.find("nqueens merge: 1 of 2 shards missing: 1"), std::string::npos) << r.err;
  EXPECT_TRUE(noted(r.err, "q-0.ckpt") && noted(r.err, "q-1.ckpt")) << r.err;
  EXPECT_NE(r.out.find("\"ok\":false"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 of 2 shards missing: 1"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("checkpoint journal"), std::string::npos) << r.out;  // a note, not a problem
}

// Another command's --json is named as that command's (it used to be
// refused for the first member a shard has and it lacks: 'no "n" member').
TEST_F(CliShardTest, AnotherCommandsJsonIsNamedAsIts) {
  for (const auto& [command, args] : {std::pair{"verify", "verify --to 6 --json"},
                                      {"rotational", "rotational 10 --json"},
                                      {"plan", "plan 10 --json"},
                                      {"plan", "plan 10 --stats --json"},
                                      {"scale", "scale 8 --threads 1 --repeat 1 --json"}}) {
    const std::string file = shard_file(8, 0, 1) + "." + command + ".json";
    files_.push_back(file);
    const cli_run made = run_cli(args);
    ASSERT_EQ(made.status, 0) << args << ": " << made.err;
    std::ofstream(file) << made.out;
    const cli_run r = run_cli("merge " + file);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(r.err, "nqueens: " + file + ": this is the --json output of 'nqueens " + command +
                         "', not of 'nqueens count N --shard I/M' that merge adds up\n")
        << args;
  }
}

// A shard file that gained a UTF-8 byte order mark on its way (a Windows
// editor) merges as it was written; an error in it is placed as before.
TEST_F(CliShardTest, AByteOrderMarkIsNoShardFilesError) {
  const std::string file = shard_file(10, 0, 1);
  std::string text;
  {
    std::ifstream in(file);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::ofstream(file) << "\xEF\xBB\xBF" << text;
  const cli_run r = run_cli("merge " + file);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Q(10) = 724  verified"), std::string::npos) << r.out;
  std::ofstream(file) << "\xEF\xBB\xBF"
                      << "[";
  const cli_run bad = run_cli("merge " + file);
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.err, "nqueens: " + file + ": byte 4: expected a JSON object ('{')\n");
  // A mark and nothing else is the empty file of a count that never ended.
  std::ofstream(file) << "\xEF\xBB\xBF\n";
  const cli_run empty = run_cli("merge " + file);
  EXPECT_EQ(empty.status, 1) << empty.err;
  EXPECT_NE(empty.err.find(": the file is empty"), std::string::npos) << empty.err;
}

// A count's shard file that lost its "total" (edited, damaged) is refused
// for that, not named as another command's output.
TEST_F(CliShardTest, AShardWithoutItsTotalIsNoRotationalOutput) {
  const std::string file = shard_file(9, 0, 2);
  std::string text;
  {
    std::ifstream in(file);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::size_t at = text.find("\"total\":");
  ASSERT_NE(at, std::string::npos) << text;
  text.erase(at, text.find(',', at) + 1 - at);
  std::ofstream(file) << text;
  const cli_run r = run_cli("merge " + file);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.find("rotational"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\"total\""), std::string::npos) << r.err;
}

// Past the published table (n = 28) a count is "not verified", exit 0, and
// `"verified":null` in JSON: shown here on a merge, whose parts a test can
// give without counting Q(28). The part's fields are those of the real plan
// (asked of `plan`), its total made up (8); its half- and quarter-turn
// counts, which are published for n = 28, those the first merge names.
TEST_F(CliShardTest, PastThePublishedTableACountIsNotVerifiedAndExitsZero) {
  const cli_run planned = run_cli("plan 28 --engine quadrant --split-depth 1 --json");
  ASSERT_EQ(planned.status, 0) << planned.err;
  const auto field = json_field;
  std::string text = slurp(shard_file(8, 0, 1));
  const auto set = [&](const std::string& key, const std::string& value) { set_json_field(text, key, value); };
  set("n", "28");
  set("engine", "\"quadrant\"");
  set("split_depth", "1");
  set("subproblems", field(planned.out, "subproblems"));
  set("shard_subproblems", field(planned.out, "subproblems"));
  set("plan_fingerprint", field(planned.out, "plan_fingerprint"));
  // The whole plan's indices, 0 to its size less one, as the count would deal them.
  std::uint64_t whole = 0;
  for (std::size_t i = 0; i < std::stoull(field(planned.out, "subproblems")); ++i) whole += detail::digest_term(i);
  set("shard_digest", "\"" + format_fingerprint(whole) + "\"");
  set("total", "8");
  set("unique", "null");      // merge derives it
  set("symmetric_180", "0");  // Q + P + 2R a multiple of 8, as Burnside's lemma asks
  set("symmetric_90", "0");
  const std::string part = files_.back();
  std::ofstream(part, std::ios::trunc) << resigned(text);
  const cli_run first = run_cli("merge --json " + part);
  EXPECT_EQ(first.status, 1) << first.err;  // P = R = 0 differ from the published
  const std::uint64_t half_turn = std::stoull(field(first.out, "published_symmetric_180"));
  const std::uint64_t quarter_turn = std::stoull(field(first.out, "published_symmetric_90"));
  // Q = 7P + 6R: at least P, and Q + P + 2R = 8 (P + R).
  const std::string total = std::to_string(7 * half_turn + 6 * quarter_turn);
  set("total", total);
  set("symmetric_180", std::to_string(half_turn));
  set("symmetric_90", std::to_string(quarter_turn));
  std::ofstream(part, std::ios::trunc) << resigned(text);
  const cli_run shown = run_cli("merge " + part);
  EXPECT_EQ(shown.status, 0) << shown.err;
  EXPECT_NE(shown.out.find("Q(28) = " + total + "  not verified (no published value)"), std::string::npos) << shown.out;
  const cli_run json = run_cli("merge --json " + part);
  EXPECT_EQ(json.status, 0) << json.err;
  EXPECT_NE(json.out.find("\"n\":28,\"total\":" + total + ","), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"verified\":null"), std::string::npos) << json.out;
}

// A shard file that is not strictly the JSON `count --json` writes is a usage
// error (exit 2) naming the file and the byte, never wrapped, guessed or
// echoed raw into the output.
TEST_F(CliShardTest, MalformedShardFilesAreRefusedNamingTheFile) {
  const std::string a = shard_file(12, 0, 2), b = shard_file(12, 1, 2);
  const std::string good = slurp(a);
  ASSERT_NE(good.find("\"total\":6994,"), std::string::npos) << good;
  const auto replaced = [&](const std::string& from, const std::string& to, std::string text = {}) {
    if (text.empty()) text = good;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  struct bad_shard {
    std::string text;
    const char* message;
    bool resign = false;  // the checksum made to match, to reach the checks behind it
  };
  // The digest of another deal of the plan's subproblems (another version's
  // rule), the same number of them: only the digest tells it.
  const std::string digest = json_field(good, "shard_digest");
  ASSERT_EQ(digest.size(), 18U) << good;
  std::string other_digest = digest;
  other_digest[1] = other_digest[1] == '0' ? '1' : '0';
  const bad_shard cases[] = {
      {replaced(digest, other_digest), "the checksum does not match the counts"},
      {replaced(digest, other_digest),
       "its subproblems are not shard 0/2 of its plan as this version of nqueens deals them (\"shard_digest\")", true},
      {replaced(digest, "\"a6a0\""), "\"shard_digest\" is not 16 lower-case hex digits"},
      {replaced(",\"shard_digest\":", ",\"digest\":"), "no \"shard_digest\": it was written by an nqueens older"},
      // Above 2^128: once wrapped silently to a small total.
      {replaced("\"total\":6994", "\"total\":340282366920938463463374607431768218450"),
       "byte 17: \"total\" does not fit in 128 bits"},
      {replaced("\"total\":6994", "\"total\":\"6994\""), "\"total\" must be a number, not a string"},
      {replaced("\"total\":6994", "\"total\":6994.0"), "\"total\" must be a whole number"},
      {replaced("{\"n\":12,", "{\"n\":12,\"n\":13,"), "byte 9: duplicate key \"n\""},
      {good + "x", "unexpected text after the object"},
      {good + good, "a second object after the first: give each shard's --json output as a file of its own"},
      {replaced("\"engine\":\"symmetric\"", "\"engine\":\"sym\x1b[2Jmetric\""), "raw control character 0x1b"},
      {replaced("\"engine\":\"symmetric\"",
                "\"engine\":\"sym\xff"
                "metric\""),
       "invalid UTF-8 in a string"},
      {replaced("\"engine\":\"symmetric\"", "\"engine\":\"sym\\u001b[2Jmetric\""), "\"engine\" is not one of"},
      {replaced("\"plan_fingerprint\":\"", "\"plan_fingerprint\":\"\\n"), "\"plan_fingerprint\" is not 16"},
      {replaced("\"shard\":0", "\"shard\":2"), "\"shard\" 2 is out of range: expected an integer from 0 to 1"},
      {replaced("\"n\":12", "\"m\":12"), "no \"n\" member"},
      {good + std::string(std::size_t{1} << 20, ' '), "larger than 1048576 bytes"},
      // Past the bound it is its size that is wrong, not "empty".
      {std::string((std::size_t{1} << 20) + 100, ' '), "larger than 1048576 bytes"},
      // A digit changed in transit, which Burnside's divisibility cannot see.
      {replaced("\"total\":6994", "\"total\":6995"), "the checksum does not match the counts"},
      {replaced("\"total\":6994", "\"total\":7002"), "the checksum does not match the counts"},
      {replaced("\"symmetric_90\":4", "\"symmetric_90\":5"), "the checksum does not match the counts"},
      {replaced("\"shard_subproblems\":671", "\"shard_subproblems\":672"), "the checksum does not match"},
      {replaced(",\"checksum\":\"", ",\"sum\":\""), "no \"checksum\": it was written by an nqueens older"},
      // A part of a run claims no verified total and no fundamental count.
      {replaced("\"verified\":null", "\"verified\":true"), "\"verified\" must be null in shard 0/2"},
      {replaced("\"unique\":null", "\"unique\":1787"), "\"unique\" must be null in shard 0/2"},
      // Fields that contradict the plan the fingerprint names.
      {replaced("\"subproblems\":1342", "\"subproblems\":1343"), "\"subproblems\" 1343 contradicts its plan", true},
      // A count writes its plan's depth, never 0 (automatic); and no count
      // runs a plan past 2^22 subproblems, whose refusal names the file, not
      // count's --split-depth.
      {replaced("\"split_depth\":4", "\"split_depth\":0"), "\"split_depth\" 0 is out of range", true},
      {replaced("\"split_depth\":4", "\"split_depth\":12", replaced("{\"n\":12,", "{\"n\":20,")),
       "its n, engine and split depth make no plan a count runs (split depth 12 gives more than", true},
      {replaced("\"shard_subproblems\":671", "\"shard_subproblems\":670"),
       "\"shard_subproblems\" 670 contradicts shard 0/2 of its plan, which holds 671", true},
  };
  const std::string bad =
      (std::filesystem::temp_directory_path() / ("nqueens-bad-shard-" + std::to_string(::getpid()) + ".json")).string();
  files_.push_back(bad);
  for (const bad_shard& c : cases) {
    std::ofstream(bad, std::ios::binary | std::ios::trunc) << (c.resign ? resigned(c.text) : c.text);
    const cli_run r = run_cli(std::string("merge ").append(bad).append(" ").append(b));
    EXPECT_EQ(r.status, 2) << c.message << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(lines_in(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind("nqueens: " + bad + ": ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;  // nothing read reaches the terminal raw
  }
  EXPECT_EQ(run_cli("merge " + a + " " + b).status, 0);  // the untouched files still merge
  const cli_run dash = run_cli("merge - " + b);
  EXPECT_EQ(dash.status, 2);
  EXPECT_EQ(dash.err, "nqueens: '-': merge reads shard files, not standard input: name them (or /dev/stdin)\n");
}

// A job array's tasks killed at their limit leave empty files (the shell's
// `>` made them): each is named with every shard missing, all at once, exit
// 1, in the JSON too; a malformed file beside them is exit 2, and they are
// named with it. Once every shard is in, merge's own output file, an
// earlier merge's output and an empty file left over are left out with a
// note, as a glob of the shards' names takes them in.
TEST_F(CliShardTest, EveryUnfinishedShardIsNamedWithThoseMissing) {
  cli_run r = run_script(
      "mkdir -p job && cd job || exit 9\n"
      "for k in 0 1 2 3; do $NQ count 12 --shard $k/4 --json > q-$k.json || exit 9; done\n"
      ": > q-1.json; : > q-2.json; rm q-3.json\n"
      "$NQ merge q-*.json --json > ../failed.json; echo status=$?\n");
  EXPECT_NE(r.out.find("status=1"), std::string::npos) << r.out << r.err;
  for (const char* problem :
       {"q-1.json: the file is empty", "q-2.json: the file is empty", "3 of 4 shards missing: 1-3"}) {
    EXPECT_NE(r.err.find(std::string("nqueens merge: ") + problem), std::string::npos) << problem << " in " << r.err;
    EXPECT_NE(slurp("failed.json").find(problem), std::string::npos) << problem << " in " << slurp("failed.json");
  }
  r = run_script("cd job && echo '{' > q-9.json && $NQ merge q-*.json; echo status=$?; rm q-9.json");
  EXPECT_NE(r.out.find("status=2"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.err.find("q-9.json: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("q-1.json: the file is empty"), std::string::npos) << r.err;

  r = run_script(
      "cd job && $NQ count 12 --shard 1/4 --json > q-1b.json && $NQ count 12 --shard 2/4 --json > q-2b.json &&\n"
      "$NQ count 12 --shard 3/4 --json > q-3.json || exit 9\n"
      "$NQ merge q-*.json --json > q-all.json 2> /dev/null || exit 8\n"
      "$NQ merge q-*.json --json > q-all.json; echo status=$?; cat q-all.json\n");
  EXPECT_NE(r.out.find("status=0"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find("\"total\":14200"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"shards\":4"), std::string::npos) << r.out;
  for (const char* note : {"q-all.json is this merge's own output: left out",
                           "q-1.json is empty (a count stopped before its end): every shard is in without it"}) {
    EXPECT_NE(r.err.find(std::string("nqueens merge: note: ") + note), std::string::npos) << note << " in " << r.err;
  }
  // An earlier merge's JSON and its text report alike.
  r = run_script(
      "cd job && $NQ merge q-*.json > q-text.json 2> /dev/null || exit 8\n"
      "$NQ merge q-*.json --json > total.json; echo status=$?");
  EXPECT_NE(r.out.find("status=0"), std::string::npos) << r.out << r.err;
  for (const char* earlier : {"q-all.json", "q-text.json"}) {
    EXPECT_NE(
        r.err.find(std::string("nqueens merge: note: ") + earlier + " is the output of an earlier merge: left out"),
        std::string::npos)
        << r.err;
  }
  // A failed merge's output is left out too, as this version writes it and
  // as versions before 2026-12-06 did ("shards" for "files"); an object that
  // only holds "ok" and "shards" is no merge's output, but a malformed file:
  // exit 2.
  r = run_script(
      "cd job && $NQ merge q-0.json --json > q-failed.json; "
      "printf '{\"shards\":1,\"ok\":false,\"problems\":[\"3 of 4 shards missing: 1-3\"]}\\n' > q-older.json; "
      "$NQ merge q-*.json > /dev/null; echo status=$?; rm q-failed.json q-older.json; "
      "printf '{\"ok\":1,\"shards\":\"x\"}' > q-odd.json; $NQ merge q-*.json > /dev/null; echo status=$?; "
      "rm q-odd.json");
  EXPECT_NE(r.out.find("status=0\nstatus=2\n"), std::string::npos) << r.out << r.err;
  for (const char* failed : {"q-failed.json", "q-older.json"}) {
    EXPECT_NE(
        r.err.find(std::string("nqueens merge: note: ") + failed + " is the output of an earlier merge: left out"),
        std::string::npos)
        << r.err;
  }
  EXPECT_NE(r.err.find("q-odd.json: no \"n\" member"), std::string::npos) << r.err;
  // A shard that is also standard output, appended to, holds its counts:
  // read as any other, not left out.
  r = run_script(
      "cd job && cp q-0.json own.json && $NQ merge own.json q-1b.json q-2b.json q-3.json >> own.json; "
      "echo status=$?");
  EXPECT_NE(r.out.find("status=0"), std::string::npos) << r.out << r.err;
  EXPECT_EQ(r.err.find("own output"), std::string::npos) << r.err;
}

TEST_F(CliShardTest, ShardsWithTheirOwnJournals) {
  const auto journal = std::filesystem::temp_directory_path() / ("nqueens-shard-" + std::to_string(::getpid()));
  std::string all;
  for (int k = 0; k < 2; ++k) {
    const std::string j = journal.string() + "-" + std::to_string(k) + ".ckpt";
    files_.push_back(j);
    all += ' ';
    all += shard_file(13, k, 2, "--checkpoint " + j);
  }
  EXPECT_EQ(run_cli("merge" + all).status, 0);
  // A shard's journal is refused for another shard.
  const cli_run r = run_cli("count 13 --shard 1/2 --checkpoint " + journal.string() + "-0.ckpt");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("shard 0/2"), std::string::npos) << r.err;
  // Its own shard's journal is read back, and the text report says so.
  const cli_run again = run_cli("count 13 --shard 0/2 --checkpoint " + journal.string() + "-0.ckpt");
  EXPECT_EQ(again.status, 0) << again.err;
  const std::size_t of = again.out.find(" of the shard taken from ");
  EXPECT_NE(again.out.find("  resumed: "), std::string::npos) << again.out;
  EXPECT_NE(of, std::string::npos) << again.out;
}

}  // namespace
}  // namespace nqueens::test
