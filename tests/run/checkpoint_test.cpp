#include "nqueens/checkpoint.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "engines/fingerprint.hpp"
#include "nqueens/count.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/memory.hpp"
#include "nqueens/shard.hpp"
#include "run/journal/journal_layout.hpp"
#include "run/journal/journal_run.hpp"

namespace nqueens {
namespace {

namespace fs = std::filesystem;

class CheckpointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = fs::temp_directory_path() / ("nqueens-ckpt-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".journal");
    fs::remove(path_);
  }
  void TearDown() override { fs::remove(path_); }

  // A journal holding the first k subproblems of `p`, as a run would leave it.
  void write_journal(const plan& p, std::size_t k) {
    checkpoint_journal j(path_.string(), p);
    const run_context context(p);
    for (std::size_t i = 0; i < k; ++i) j.record(i, context.solve(i));
    j.flush();
  }
  std::vector<char> bytes() const {
    std::ifstream in(path_, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  void set_bytes(const std::vector<char>& b) const {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(b.data(), static_cast<std::streamsize>(b.size()));
  }
  count_result resume(int n, int threads = 2) {
    count_options o;
    o.threads = threads;
    o.checkpoint = path_.string();
    return count(n, o);
  }

  fs::path path_;
};

// A caller's index outside the plan is refused, not written: the journal
// would otherwise be refused as damaged at every later resume. A shard out of
// range is refused before a file is made.
TEST_F(CheckpointTest, RecordsOutsideThePlanAndBadShardsAreRefused) {
  const plan p(10);
  EXPECT_THROW(checkpoint_journal(path_.string(), p, {.index = 2, .count = 2}), std::invalid_argument);
  EXPECT_FALSE(fs::exists(path_));
  {
    checkpoint_journal j(path_.string(), p);
    const run_context context(p);
    j.record(0, context.solve(0));
    EXPECT_THROW(j.record(p.size(), {}), std::out_of_range);
    EXPECT_THROW(j.record(std::size_t{1} << 32, {}), std::out_of_range);
    j.flush();
  }
  const checkpoint_journal again(path_.string(), p);
  EXPECT_EQ(again.finished_count(), 1U);
}

// held() says what the journal holds of its shard: complete() only once
// every subproblem is there (not for a new journal, whose sums are zero, and
// for a finished one, not never).
// A count refused for its memory while a journal of another run is kept
// names the journal's run, not the remedies: more memory would only lead
// to the journal's refusal. Here the journal was made at split depth 4 and
// the count, at the automatic split (5), passes the bound; and one of
// another engine under an engine whose tables do not fit.
TEST_F(CheckpointTest, ARefusalForMemoryNamesAKeptJournalOfAnotherRunFirst) {
  constexpr std::uint64_t tight = std::uint64_t{1} << 20;
  count_options made{
      .kind = engine::symmetric, .threads = 2, .split_depth = 4, .checkpoint = path_.string(), .max_memory = tight};
  ASSERT_TRUE(count(14, made).check.verified());
  const std::vector<char> kept = bytes();
  count_options resumed = made;
  resumed.split_depth = 0;
  try {
    static_cast<void>(count(14, resumed));
    FAIL() << "the automatic split fits: the test's bound is no longer tight";
  } catch (const checkpoint_error& e) {
    EXPECT_EQ(e.why(), checkpoint_error::reason::foreign);
    EXPECT_NE(std::string(e.what()).find("split depth 4"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not this one (n = 14, engine symmetric, split depth 5)"), std::string::npos)
        << e.what();
  }
  count_options other_engine = made;
  other_engine.kind = engine::quadrant;
  count_options no_journal = other_engine;
  no_journal.checkpoint.clear();
  ASSERT_THROW(static_cast<void>(count(14, no_journal)), memory_limit_error);  // the memory is refused first
  try {
    static_cast<void>(count(14, other_engine));
    FAIL() << "counted";
  } catch (const checkpoint_error& e) {
    EXPECT_NE(std::string(e.what()).find("belongs to another run (n = 14, engine symmetric, split depth 4"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(bytes(), kept);  // left as it was
  // The journal's own run still resumes within the bound.
  EXPECT_EQ(count(14, made).resumed, count(14, made).subproblems);
  // A plan refused while it was built, at an automatic split (n = 27's
  // passes 1 MiB at depth 4): its depth is at least the one it had
  // reached, deeper than the journal's 1 (a journal of no record yet).
  fs::remove(path_);
  { checkpoint_journal started(path_.string(), plan(27, {.kind = engine::mirror, .split_depth = 1})); }
  try {
    static_cast<void>(
        count(27, {.kind = engine::mirror, .threads = 2, .checkpoint = path_.string(), .max_memory = tight}));
    FAIL() << "counted";
  } catch (const checkpoint_error& e) {
    EXPECT_NE(std::string(e.what()).find("split depth 1,"), std::string::npos) << e.what();
  } catch (const memory_limit_error& e) {
    ADD_FAILURE() << "refused for memory, not as another run's: " << e.what();
  }
  // The automatic plan's own journal (depth 4 or more) is this run's: the
  // memory is what refuses it.
  fs::remove(path_);
  { checkpoint_journal started(path_.string(), plan(27, {.kind = engine::mirror})); }
  EXPECT_THROW(static_cast<void>(count(
                   27, {.kind = engine::mirror, .threads = 2, .checkpoint = path_.string(), .max_memory = tight})),
               memory_limit_error);
}

TEST_F(CheckpointTest, HeldSumsKnowTheShardsSize) {
  const plan p(10);
  {
    const checkpoint_journal fresh(path_.string(), p);
    EXPECT_EQ(fresh.held().subproblems, p.size());
    EXPECT_FALSE(fresh.held().complete());
  }
  write_journal(p, p.size());
  {
    const checkpoint_journal whole(path_.string(), p);
    EXPECT_EQ(whole.held().finished, p.size());
    EXPECT_TRUE(whole.held().complete());
    EXPECT_EQ(whole.held().total, *published_total(10));
  }
  fs::remove(path_);
  const shard_spec second{.index = 1, .count = 3};
  const checkpoint_journal shard(path_.string(), p, second);
  EXPECT_EQ(shard.held().subproblems, shard_indices(p, second).size());
}

// No journal (an empty checkpoint_file) is refused by name, not as a file
// called '' that cannot be made.
TEST_F(CheckpointTest, AJournalNeedsAFileName) {
  try {
    const checkpoint_journal j(checkpoint_file(), plan(8));
    ADD_FAILURE() << "a journal without a file was opened";
  } catch (const checkpoint_error& e) {
    EXPECT_STREQ(e.what(), "a checkpoint needs a file name");
  }
}

// A shard's journal takes no other shard's subproblem (its replay would call
// the record invalid and refuse the journal at every later resume), and no
// completion mark while a subproblem is missing (refused the same way): the
// caller's error, thrown before anything is written.
TEST_F(CheckpointTest, RecordsOfAnotherShardAndAnEarlyMarkAreRefused) {
  const plan p(10);
  const run_context context(p);
  const shard_spec second{.index = 1, .count = 2};
  const std::vector<std::size_t> mine = shard_indices(p, second);
  ASSERT_GE(mine.size(), 2U);
  std::size_t other = 0;
  while (std::ranges::find(mine, other) != mine.end()) ++other;
  {
    checkpoint_journal j(path_.string(), p, second);
    EXPECT_THROW(j.record(other, context.solve(other)), std::out_of_range);
    j.record(mine[0], context.solve(mine[0]));
    j.record(mine[0], context.solve(mine[0]));  // twice: still one of them
    EXPECT_THROW(j.mark_complete(), std::logic_error);
    j.flush();
  }
  const auto size = fs::file_size(path_);
  {
    checkpoint_journal j(path_.string(), p, second);
    EXPECT_EQ(j.finished_count(), 1U);
    EXPECT_FALSE(j.complete());
    for (std::size_t k = 1; k + 1 < mine.size(); ++k) j.record(mine[k], context.solve(mine[k]));
    j.record(mine[0], context.solve(mine[0]));          // held, recorded again: one of them, not one more
    EXPECT_THROW(j.mark_complete(), std::logic_error);  // held and recorded, one short
    EXPECT_EQ(fs::file_size(path_), size);              // the refusal wrote nothing
    j.record(mine.back(), context.solve(mine.back()));
    j.mark_complete();
    EXPECT_THROW(j.record(mine[0], context.solve(mine[0])), std::logic_error);  // after the mark
  }
  const checkpoint_journal done(path_.string(), p, second);
  EXPECT_TRUE(done.complete());
  EXPECT_EQ(done.finished_count(), mine.size());
}

TEST_F(CheckpointTest, ResumingAfterKSubproblemsGivesTheExactCounts) {
  const plan p(13);
  for (const std::size_t k : {std::size_t{0}, std::size_t{1}, p.size() / 3, p.size() - 1, p.size()}) {
    for (const int threads : {1, 2, 3}) {
      fs::remove(path_);
      write_journal(p, k);
      const count_result r = resume(13, threads);
      EXPECT_TRUE(r.complete);
      EXPECT_EQ(r.resumed, k);
      EXPECT_EQ(r.total, *published_total(13)) << "k = " << k << ", threads " << threads;
      EXPECT_EQ(*r.unique, *published_unique(13));
      EXPECT_TRUE(r.check.verified());
    }
  }
}

// A count cancelled at its first progress tick (50 ms in) resumes to the
// exact counts. Where the count ends before that tick, the next board size
// is tried (each about ten times the work), so that the cancel lands mid-run
// on any machine and the resume costs about ten ticks' counting.
#ifdef NQUEENS_SANITIZED
constexpr int first_cancelled_n = 12;  // sanitized builds are 10-50x slower
#else
constexpr int first_cancelled_n = 15;
#endif

TEST_F(CheckpointTest, CancelledRunResumesToTheExactCounts) {
  for (const int threads : {1, 2}) {
    bool cancelled_mid_run = false;
    for (int n = first_cancelled_n; n <= 22 && !cancelled_mid_run; ++n) {
      fs::remove(path_);
      std::atomic<bool> cancel{false};
      count_options o;
      o.threads = threads;
      o.checkpoint = path_.string();
      o.cancel = &cancel;
      o.progress_interval_seconds = 0.0;  // every tick: cancel at the first one with a subproblem done
      // Not before: a stop while the tables are built ends the count as
      // cancelled before it began (run_cancelled), with nothing to resume.
      o.on_progress = [&](const progress& p) {
        if (p.finished > 0) cancel = true;
      };
      const count_result partial = count(n, o);
      if (partial.complete) continue;  // done before the first tick: a larger board
      cancelled_mid_run = true;
      EXPECT_LT(partial.finished, partial.subproblems);
      const count_result r = resume(n, threads);
      EXPECT_TRUE(r.complete);
      EXPECT_EQ(r.resumed, partial.finished) << "n = " << n << ", " << threads << " threads";
      EXPECT_EQ(r.total, *published_total(n)) << "n = " << n << ", " << threads << " threads";
      EXPECT_EQ(*r.unique, *published_unique(n)) << "n = " << n << ", " << threads << " threads";
    }
    EXPECT_TRUE(cancelled_mid_run) << "every count up to Q(22) ended before its first progress tick";
  }
}

TEST_F(CheckpointTest, FinishedJournalIsReadNotRecounted) {
  ASSERT_TRUE(resume(12).complete);
  const count_result again = resume(12);
  EXPECT_EQ(again.resumed, again.subproblems);
  EXPECT_EQ(again.total, *published_total(12));
  EXPECT_TRUE(checkpoint_journal(path_.string(), plan(12)).complete());
}

// A finished journal is known from its file alone (its mark, checksum
// holding), before the plan: only its lists are priced, so that a bound
// too small for the engine's tables (quadrant: about 10 MiB at n = 15)
// still reads it. A journal without its mark, or whose mark is damaged,
// counts, and is refused for memory as before.
TEST_F(CheckpointTest, FinishedJournalIsReadWithinTheListsMemory) {
  count_options o;
  o.kind = engine::quadrant;
  o.threads = 2;
  o.checkpoint = path_.string();
  const plan p(15, plan_options{.kind = engine::quadrant});
  write_journal(p, p.size() - 1);
  EXPECT_FALSE(checkpoint_file(path_.string()).finished());
  ASSERT_TRUE(count(15, o).complete);
  EXPECT_TRUE(checkpoint_file(path_.string()).finished());
  EXPECT_TRUE(checkpoint_file(path_.string()).finished_run_of(p));
  EXPECT_TRUE(checkpoint_file(path_.string()).finished_run_of(15, engine::quadrant));
  EXPECT_FALSE(checkpoint_file(path_.string()).finished_run_of(14, engine::quadrant));
  EXPECT_FALSE(checkpoint_file(path_.string()).finished_run_of(15, engine::symmetric));
  EXPECT_FALSE(checkpoint_file(path_.string()).finished_run_of(15, engine::quadrant, {1, 3}));
  EXPECT_FALSE(checkpoint_file(path_.string()).finished_run_of(plan(15, plan_options{.kind = engine::symmetric})));
  {  // moved: the file's state goes with it
    checkpoint_file taken(path_.string());
    const checkpoint_file moved(std::move(taken));
    EXPECT_TRUE(moved.finished_run_of(p));
    EXPECT_FALSE(taken.finished());  // NOLINT(bugprone-use-after-move): what a moved-from file says
  }
  count_options small = o;
  small.max_memory = std::uint64_t{1} << 20;
  ASSERT_GT(memory_estimate(15, engine::quadrant, 2, small.max_memory), small.max_memory);
  const count_result r = count(15, small);
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.resumed, r.subproblems);
  EXPECT_EQ(r.total, *published_total(15));
  EXPECT_TRUE(r.check.verified());
  // Another run's finished journal (another split) is refused as another
  // run's, whether the count fits or not: more memory would only lead there.
  count_options other = small;
  other.split_depth = 2;
  EXPECT_THROW(count(15, other), checkpoint_error);
  other.max_memory = 0;
  EXPECT_THROW(count(15, other), checkpoint_error);
  // A shard's finished journal too.
  {
    const fs::path shard_path = path_.string() + ".shard";
    fs::remove(shard_path);
    count_options shard = o;
    shard.checkpoint = shard_path.string();
    shard.shard = {1, 3};
    const count_result counted = count(15, shard);
    ASSERT_TRUE(counted.complete);
    shard.max_memory = small.max_memory;
    const count_result read = count(15, shard);
    EXPECT_TRUE(read.complete);
    EXPECT_EQ(read.resumed, read.shard_subproblems);
    EXPECT_EQ(read.total, counted.total);
    fs::remove(shard_path);
  }
  // The mark's checksum broken: not finished, so priced as a count.
  std::vector<char> damaged = bytes();
  damaged[damaged.size() - 1] = static_cast<char>(damaged.back() ^ 1);
  set_bytes(damaged);
  EXPECT_FALSE(checkpoint_file(path_.string()).finished());
  EXPECT_THROW(count(15, small), memory_limit_error);
  // Without its mark: the same.
  damaged.resize(damaged.size() - checkpoint_journal::record_size);
  set_bytes(damaged);
  EXPECT_FALSE(checkpoint_file(path_.string()).finished());
  EXPECT_THROW(count(15, small), memory_limit_error);
}

TEST_F(CheckpointTest, TornLastRecordIsDroppedAtEveryCut) {
  const plan p(12);
  write_journal(p, 5);
  const std::vector<char> whole = bytes();
  for (std::size_t cut = 1; cut < checkpoint_journal::record_size; ++cut) {
    set_bytes(std::vector<char>(whole.begin(), whole.end() - static_cast<std::ptrdiff_t>(cut)));
    {
      const checkpoint_journal j(path_.string(), p);
      EXPECT_EQ(j.finished_count(), 4u) << "cut " << cut;
      EXPECT_EQ(j.dropped_bytes(), checkpoint_journal::record_size - cut);
    }
    EXPECT_EQ(fs::file_size(path_), whole.size() - checkpoint_journal::record_size);
    const count_result r = resume(12);
    EXPECT_EQ(r.total, *published_total(12)) << "cut " << cut;
    EXPECT_EQ(r.resumed, 4u);
  }
}

TEST_F(CheckpointTest, ZeroedLastRecordCountsAsTorn) {
  const plan p(12);
  write_journal(p, 3);
  std::vector<char> b = bytes();
  std::fill(b.end() - checkpoint_journal::record_size, b.end(), '\0');
  set_bytes(b);
  EXPECT_EQ(checkpoint_journal(path_.string(), p).finished_count(), 2u);
}

// A header cut short says so, with how much of it is there: within its
// magic too (1 to 7 bytes were "another kind of file").
TEST_F(CheckpointTest, AHeaderCutShortSaysHowMuchIsThere) {
  const plan p(12);
  write_journal(p, 0);
  const std::vector<char> whole = bytes();
  for (const std::size_t kept : {std::size_t{1}, std::size_t{7}, std::size_t{30}}) {
    set_bytes({whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(kept)});
    try {
      checkpoint_journal j(path_.string(), p);
      ADD_FAILURE() << "a header of " << kept << " bytes accepted";
    } catch (const checkpoint_error& e) {
      EXPECT_EQ(e.why(), checkpoint_error::reason::corrupt);
      EXPECT_NE(std::string(e.what()).find("has a header cut short (" + std::to_string(kept) + " of its 64 bytes)"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST_F(CheckpointTest, DamagedRecordIsReportedNotSkipped) {
  const plan p(12);
  write_journal(p, 4);
  const std::vector<char> whole = bytes();
  for (std::size_t record = 0; record < 4; ++record) {
    for (const std::size_t offset :
         {std::size_t{0}, std::size_t{5}, std::size_t{9}, std::size_t{17}, std::size_t{30}}) {
      std::vector<char> b = whole;
      b[checkpoint_journal::header_size + record * checkpoint_journal::record_size + offset] ^= 0x01;
      set_bytes(b);
      try {
        checkpoint_journal j(path_.string(), p);
        ADD_FAILURE() << "record " << record << ", byte " << offset << " accepted";
      } catch (const checkpoint_error& e) {
        EXPECT_EQ(e.why(), checkpoint_error::reason::corrupt);
        EXPECT_NE(std::string(e.what()).find("record " + std::to_string(record)), std::string::npos) << e.what();
      }
    }
  }
}

// A record with a valid checksum that no count writes (forged, or a bug) is
// refused saying what is wrong with it: a subproblem past the plan or of
// another shard, a type neither a subproblem's nor the mark's, a completion
// mark that names a subproblem or counts something.
TEST_F(CheckpointTest, ARecordNoCountWritesIsRefusedSayingWhy) {
  const plan p(12);
  const shard_spec shard{.index = 0, .count = 3};
  const std::vector<std::size_t> mine = shard_indices(p, shard);
  const std::size_t others = shard_indices(p, {.index = 1, .count = 3}).front();
  const auto header = detail::journal::header_for(p, shard);
  const std::uint64_t run = detail::journal::get(header.data(), detail::journal::header::checksum);
  using detail::journal::record_type;
  struct forged {
    record_type type;
    std::size_t index;
    subproblem_count counts;
    std::string said;
  };
  const std::vector<forged> cases = {
      {record_type::subproblem,
       p.size(),
       {.total = 1},
       "names subproblem " + std::to_string(p.size()) + ", past the plan's " + std::to_string(p.size())},
      {record_type::subproblem,
       others,
       {.total = 1},
       "names subproblem " + std::to_string(others) + ", which is not in shard 0/3"},
      {static_cast<record_type>(3),
       mine[0],
       {.total = 1},
       "has type 3, neither a subproblem's (1) nor the completion mark (2)"},
      {record_type::complete, 7, {}, "is a completion mark with a subproblem or counts, which no mark has"},
      {record_type::complete, 0, {.total = 1}, "is a completion mark with a subproblem or counts, which no mark has"},
  };
  for (const forged& f : cases) {
    SCOPED_TRACE(f.said);
    std::vector<char> b(header.begin(), header.end());
    const auto record = detail::journal::record_for(f.type, f.index, f.counts, run);
    b.insert(b.end(), record.begin(), record.end());
    set_bytes(b);
    try {
      checkpoint_journal j(path_.string(), p, shard);
      ADD_FAILURE() << "a forged record accepted: " << j.finished_count() << " held";
    } catch (const checkpoint_error& e) {
      EXPECT_EQ(e.why(), checkpoint_error::reason::corrupt) << e.what();
      EXPECT_NE(std::string(e.what()).find("record 0 at byte " + std::to_string(checkpoint_journal::header_size) + " " +
                                           f.said),
                std::string::npos)
          << e.what();
    }
  }
}

// A completion mark before every subproblem is in (a journal copied over a
// running count's ends so) is refused with the cut that keeps the records
// before it; made, the cut resumes to the exact counts.
TEST_F(CheckpointTest, AnEarlyMarkIsRefusedWithTheCutThatResumes) {
  const plan p(10);
  write_journal(p, 2);
  std::vector<char> b = bytes();
  const auto run =
      detail::journal::get(reinterpret_cast<const unsigned char*>(b.data()), detail::journal::header::checksum);
  const auto mark = detail::journal::record_for(detail::journal::record_type::complete, 0, {}, run);
  const std::size_t cut = b.size();
  b.insert(b.end(), mark.begin(), mark.end());
  set_bytes(b);
  try {
    checkpoint_journal j(path_.string(), p);
    ADD_FAILURE() << "an early mark accepted";
  } catch (const checkpoint_error& e) {
    EXPECT_EQ(e.why(), checkpoint_error::reason::corrupt);
    EXPECT_NE(std::string(e.what()).find("record 2 at byte " + std::to_string(cut) +
                                         " marks the run complete with subproblems missing; to resume from the 2 "
                                         "whole records before it, cut the file there (truncate -s " +
                                         std::to_string(cut) + " '"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(fs::file_size(path_), cut + checkpoint_journal::record_size);  // refused, not cut
  fs::resize_file(path_, cut);
  const count_result r = resume(10);
  EXPECT_EQ(r.resumed, 2U);
  EXPECT_EQ(r.total, *published_total(10));
}

// A record copied from another run's journal (another board, engine or
// split depth) under an index this plan has too is refused as damage: a
// record's checksum covers its run's header, so parts of two runs never
// add up to one count.
TEST_F(CheckpointTest, ARecordFromAnotherRunsJournalIsRefused) {
  const plan p(12);
  write_journal(p, 4);
  const std::vector<char> own = bytes();
  const std::size_t at = checkpoint_journal::header_size + checkpoint_journal::record_size;  // record 1: subproblem 1
  for (const plan& other : {plan(13), plan(12, {.kind = engine::mirror}), plan(12, {.split_depth = 2})}) {
    fs::remove(path_);
    write_journal(other, 4);
    const std::vector<char> theirs = bytes();
    std::vector<char> b = own;
    std::copy_n(theirs.begin() + static_cast<std::ptrdiff_t>(at), checkpoint_journal::record_size,
                b.begin() + static_cast<std::ptrdiff_t>(at));
    set_bytes(b);
    try {
      checkpoint_journal j(path_.string(), p);
      ADD_FAILURE() << "another run's record accepted: " << j.finished_count() << " held";
    } catch (const checkpoint_error& e) {
      EXPECT_EQ(e.why(), checkpoint_error::reason::corrupt) << e.what();
      EXPECT_NE(std::string(e.what()).find("record 1 at byte " + std::to_string(at) + " is damaged"), std::string::npos)
          << e.what();
    }
  }
}

TEST_F(CheckpointTest, JournalOfAnotherRunIsRefused) {
  write_journal(plan(12), 2);
  for (const plan& other : {plan(13), plan(12, {.kind = engine::mirror}), plan(12, {.split_depth = 2})}) {
    try {
      checkpoint_journal j(path_.string(), other);
      ADD_FAILURE() << "accepted";
    } catch (const checkpoint_error& e) {
      EXPECT_EQ(e.why(), checkpoint_error::reason::foreign);
      EXPECT_NE(std::string(e.what()).find("belongs to another run (n = 12"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("; resume it with the options it names"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(checkpoint_journal(path_.string(), plan(12)).finished_count(), 2u);  // left untouched
}

// A journal of this very run (n, engine, split depth) whose plan differs was
// written by another version of nqueens: the message says so, not "another
// run" described twice alike but for the fingerprint.
TEST_F(CheckpointTest, AJournalOfAnotherVersionsPlanSaysSo) {
  const plan p(12);
  write_journal(p, 2);
  std::vector<char> b = bytes();
  auto* const header = reinterpret_cast<unsigned char*>(b.data());
  detail::journal::put(header, detail::journal::header::fingerprint, 0x0123456789abcdefULL);
  detail::journal::put(header, detail::journal::header::checksum,
                       detail::journal::checksum(header, detail::journal::header::checksum.offset));
  set_bytes(b);
  try {
    checkpoint_journal j(path_.string(), p);
    FAIL() << "another plan's journal accepted";
  } catch (const checkpoint_error& e) {
    EXPECT_EQ(e.why(), checkpoint_error::reason::foreign) << e.what();
    EXPECT_NE(std::string(e.what()).find("was written by another version of nqueens: its plan for this run is "
                                         "0123456789abcdef, this version's is " +
                                         format_fingerprint(p.fingerprint())),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(bytes(), b);  // left untouched
}

// A header with a valid checksum that names this very run yet differs from
// the one it writes (bytes kept zero, or the subproblem count) was refused
// with two identical descriptions; it says where it differs.
TEST_F(CheckpointTest, HeaderThatNamesThisRunButDiffersSaysWhere) {
  const plan p(12);
  write_journal(p, 2);
  const std::vector<char> whole = bytes();
  for (const std::size_t offset : {std::size_t{52}, std::size_t{32}}) {  // a kept-zero byte; the subproblem count
    std::vector<char> b = whole;
    b[offset] ^= 0x01;
    auto* const header = reinterpret_cast<unsigned char*>(b.data());
    detail::journal::put(header, detail::journal::header::checksum,
                         detail::journal::checksum(header, detail::journal::header::checksum.offset));
    set_bytes(b);
    try {
      checkpoint_journal j(path_.string(), p);
      ADD_FAILURE() << "byte " << offset << " accepted";
    } catch (const checkpoint_error& e) {
      EXPECT_EQ(e.why(), checkpoint_error::reason::corrupt) << e.what();
      EXPECT_NE(std::string(e.what()).find("' names this run (n = 12, engine symmetric"), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("differs from the one it writes at byte " + std::to_string(offset) + ":"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST_F(CheckpointTest, ForeignFileIsNotOverwritten) {
  set_bytes({'N', 'Q'});  // even the start of a journal's magic: a journal is never shorter than its header
  EXPECT_THROW(checkpoint_journal(path_.string(), plan(10)), checkpoint_error);
  EXPECT_EQ(bytes().size(), 2u);
  set_bytes({'h', 'e', 'l', 'l', 'o', '\n'});
  EXPECT_THROW(checkpoint_journal(path_.string(), plan(10)), checkpoint_error);
  EXPECT_EQ(bytes().size(), 6u);
  set_bytes(std::vector<char>(200, 'x'));
  EXPECT_THROW(checkpoint_journal(path_.string(), plan(10)), checkpoint_error);
  EXPECT_EQ(bytes().size(), 200u);
}

// One flush appends many records; a crash can leave any part of them as
// zeros (the file grew, its data never reached the disk), a record cut short,
// or a record straddling the last page written. All of it is cut off.
TEST_F(CheckpointTest, TornTailOfAnyLengthIsCut) {
  const plan p(12);
  write_journal(p, 10);
  const std::vector<char> whole = bytes();
  const std::size_t header = checkpoint_journal::header_size, record = checkpoint_journal::record_size;
  ASSERT_EQ(whole.size(), header + 10 * record);
  for (const std::size_t zeros : {std::size_t{1}, std::size_t{47}, std::size_t{48}, std::size_t{96}, std::size_t{100},
                                  std::size_t{4096}, std::size_t{60000}}) {  // one flush: at most 1342 records here
    for (const std::size_t prefix : {std::size_t{0}, std::size_t{1}, std::size_t{20}, record - 1}) {
      // `prefix` bytes of an eleventh record, then `zeros` zero bytes.
      std::vector<char> b = whole;
      b.insert(b.end(), whole.begin() + static_cast<std::ptrdiff_t>(header),
               whole.begin() + static_cast<std::ptrdiff_t>(header + prefix));
      b.insert(b.end(), zeros, '\0');
      set_bytes(b);
      {
        const checkpoint_journal j(path_.string(), p);
        EXPECT_EQ(j.finished_count(), 10u) << prefix << " + " << zeros;
        EXPECT_EQ(j.dropped_bytes(), prefix + zeros);
      }
      EXPECT_EQ(fs::file_size(path_), whole.size());
    }
  }
  // Zeros over the last whole records of the flush, too.
  std::vector<char> b = whole;
  std::fill(b.end() - static_cast<std::ptrdiff_t>(3 * record + 10), b.end(), '\0');
  set_bytes(b);
  EXPECT_EQ(checkpoint_journal(path_.string(), p).finished_count(), 6u);
  EXPECT_EQ(resume(12).total, *published_total(12));
}

// Damage with data after it is no torn tail: refused, with both offsets.
TEST_F(CheckpointTest, DamageBeforeMoreDataIsRefusedWithItsOffset) {
  const plan p(12);
  write_journal(p, 10);
  std::vector<char> b = bytes();
  const std::size_t at = checkpoint_journal::header_size + 9 * checkpoint_journal::record_size;
  b[at + checkpoint_journal::record_size - 1] ^= 0x40;  // the last record's checksum byte: a whole record, wrong
  set_bytes(b);
  try {
    checkpoint_journal j(path_.string(), p);
    ADD_FAILURE() << "accepted";
  } catch (const checkpoint_error& e) {
    EXPECT_EQ(e.why(), checkpoint_error::reason::corrupt);
    EXPECT_NE(std::string(e.what()).find("record 9 at byte " + std::to_string(at)), std::string::npos) << e.what();
  }
  b = bytes();
  b.insert(b.end(), 200, '\0');
  b.push_back('x');  // zeros, then something: not what a flush leaves
  b[at + checkpoint_journal::record_size - 1] ^= 0x40;
  set_bytes(b);
  EXPECT_THROW(checkpoint_journal(path_.string(), p), checkpoint_error);
}

TEST_F(CheckpointTest, NewJournalAppearsWholeWithNoLeftovers) {
  const fs::path dir = path_.string() + ".dir";  // its own: other tests write to the temp directory meanwhile
  fs::remove_all(dir);
  fs::create_directory(dir);
  const fs::path journal = dir / "new.ckpt";
  { const checkpoint_journal j(journal.string(), plan(10)); }
  EXPECT_EQ(fs::file_size(journal), checkpoint_journal::header_size);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

TEST_F(CheckpointTest, SecondOpenIsRefusedWhileTheFirstHoldsTheLock) {
  const plan p(10);
  {
    const checkpoint_journal first(path_.string(), p);
    try {
      checkpoint_journal second(path_.string(), p);
      ADD_FAILURE() << "a second run took the same journal";
    } catch (const checkpoint_error& e) {
      EXPECT_EQ(e.why(), checkpoint_error::reason::unusable);
      EXPECT_NE(std::string(e.what()).find("in use by another run"), std::string::npos) << e.what();
    }
    EXPECT_THROW(checkpoint_file{path_.string()}, checkpoint_error);  // before any plan is built
  }
  EXPECT_NO_THROW(checkpoint_journal(path_.string(), p));  // released with the first
}

// A journal deleted, moved or replaced under its run is found at the next
// flush: a write failure, the records it took kept in the file that moved,
// nothing more written (its records would go where no resume looks, and
// the path's lock no longer kept a second run off it).
TEST_F(CheckpointTest, AJournalGoneFromItsPathEndsItsWrites) {
  const plan p(10);
  const run_context context(p);
  const fs::path moved = path_.string() + ".moved";
  for (const std::string how : {"moved", "deleted", "replaced"}) {
    SCOPED_TRACE(how);
    fs::remove(path_);
    fs::remove(moved);
    checkpoint_journal j(path_.string(), p);
    j.record(0, context.solve(0));
    j.flush();  // where it was: written
    if (how == "deleted") {
      fs::remove(path_);
    } else {
      fs::rename(path_, moved);
      if (how == "replaced") fs::copy_file(moved, path_);
    }
    j.record(1, context.solve(1));
    try {
      j.flush();
      ADD_FAILURE() << "wrote on to a journal " << how;
    } catch (const checkpoint_error& e) {
      EXPECT_EQ(e.why(), checkpoint_error::reason::write);
      EXPECT_NE(std::string(e.what()).find("was deleted, moved or replaced while the run wrote it"), std::string::npos)
          << e.what();
    }
    j.record(2, context.solve(2));
    EXPECT_THROW(j.flush(), checkpoint_error);  // failed for good
    if (how != "deleted") {
      // What it took before it was found out is whole: both records.
      EXPECT_EQ(fs::file_size(moved), checkpoint_journal::header_size + 2 * checkpoint_journal::record_size);
    }
  }
  fs::remove(moved);
  // A relative name stays the file it named when the journal was opened,
  // whatever the working directory is by the flush.
  fs::remove(path_);
  const fs::path before = fs::current_path();
  fs::current_path(path_.parent_path());
  {
    checkpoint_journal j(path_.filename().string(), p);
    fs::current_path(before);
    j.record(0, context.solve(0));
    EXPECT_NO_THROW(j.flush());
  }
  fs::current_path(before);
}

TEST_F(CheckpointTest, SymlinkAndEmptyFileAreRefused) {
  { const checkpoint_journal j(path_.string(), plan(10)); }
  const fs::path link = path_.string() + ".link";
  fs::remove(link);
  fs::create_symlink(path_, link);
  try {
    checkpoint_journal j(link.string(), plan(10));
    ADD_FAILURE() << "followed a symlink";
  } catch (const checkpoint_error& e) {
    EXPECT_NE(std::string(e.what()).find("symbolic link"), std::string::npos) << e.what();
  }
  fs::remove(link);
  set_bytes({});
  try {
    checkpoint_journal j(path_.string(), plan(10));
    ADD_FAILURE() << "took over an empty file";
  } catch (const checkpoint_error& e) {
    EXPECT_EQ(e.why(), checkpoint_error::reason::corrupt);
    EXPECT_NE(std::string(e.what()).find("not an nqueens checkpoint journal (an empty file)"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(fs::file_size(path_), 0u);
}

// Only the header of a foreign file is read, whatever its size: a sparse
// terabyte is refused at once, not loaded.
TEST_F(CheckpointTest, HugeForeignFileIsRefusedFromItsHeader) {
  set_bytes(std::vector<char>(100, 'x'));
  fs::resize_file(path_, std::uintmax_t{1} << 40);
  EXPECT_THROW(checkpoint_file{path_.string()}, checkpoint_error);
  EXPECT_EQ(fs::file_size(path_), std::uintmax_t{1} << 40);
}

// A journal damaged past its header, a terabyte long, is read a block at a
// time and refused at the damage.
TEST_F(CheckpointTest, LongJournalIsReadInBlocks) {
  const plan p(10);
  write_journal(p, 2);
  std::vector<char> b = bytes();
  b.insert(b.end(), 100, 'x');
  set_bytes(b);
  fs::resize_file(path_, std::uintmax_t{1} << 40);
  EXPECT_THROW(checkpoint_journal(path_.string(), p), checkpoint_error);
}

// A hole longer than any flush after the records is damage, found without
// reading the hole.
TEST_F(CheckpointTest, TailLongerThanAFlushIsDamage) {
  const plan p(10);
  write_journal(p, 2);
  fs::resize_file(path_, std::uintmax_t{1} << 40);
  try {
    checkpoint_journal j(path_.string(), p);
    ADD_FAILURE() << "accepted";
  } catch (const checkpoint_error& e) {
    EXPECT_EQ(e.why(), checkpoint_error::reason::corrupt);
    EXPECT_NE(std::string(e.what()).find("more than one flush writes"), std::string::npos) << e.what();
  }
  EXPECT_EQ(fs::file_size(path_), std::uintmax_t{1} << 40);  // refused, not cut
}

// A shard's flush writes its own subproblems' records alone: zeros longer
// than that after a shard's records are damage, though the whole plan's
// flush could have been as long; zeros as long as it are a torn flush, cut.
TEST_F(CheckpointTest, AShardsTailIsBoundByTheShardsFlush) {
  const plan p(10, {.split_depth = 3});
  const shard_spec shard{1, 3};
  const std::size_t members = shard_indices(p, shard).size();
  ASSERT_GT(p.size(), members + 2);
  {
    checkpoint_journal j(path_.string(), p, shard);
    j.flush();
  }
  const auto header_bytes = fs::file_size(path_);
  const auto with_zeros = [&](std::size_t records) {
    fs::resize_file(path_, header_bytes + records * detail::journal::record_size);
  };
  with_zeros(members + 2);
  try {
    checkpoint_journal j(path_.string(), p, shard);
    ADD_FAILURE() << "accepted";
  } catch (const checkpoint_error& e) {
    EXPECT_EQ(e.why(), checkpoint_error::reason::corrupt);
    EXPECT_NE(std::string(e.what()).find("more than one flush writes"), std::string::npos) << e.what();
  }
  with_zeros(members + 1);
  const checkpoint_journal j(path_.string(), p, shard);
  EXPECT_EQ(j.dropped_bytes(), (members + 1) * detail::journal::record_size);
  EXPECT_EQ(fs::file_size(path_), header_bytes);
}

TEST_F(CheckpointTest, CompleteJournalIsNeverAppendedTo) {
  ASSERT_TRUE(resume(10).complete);
  const auto size = fs::file_size(path_);
  {
    checkpoint_journal j(path_.string(), plan(10));
    ASSERT_TRUE(j.complete());
    j.mark_complete();
  }
  EXPECT_TRUE(resume(10).complete);
  EXPECT_EQ(fs::file_size(path_), size);
}

// Nothing is ever written after the mark: bytes there are damage, refused
// with their offset, not a torn flush cut off (which would write to a
// finished journal).
TEST_F(CheckpointTest, BytesAfterTheCompletionMarkAreDamage) {
  ASSERT_TRUE(resume(10).complete);
  const std::vector<char> finished = bytes();
  for (const std::string& extra : {std::string("x"), std::string(48, '\0'), std::string(47, '\0') + "y"}) {
    std::vector<char> damaged = finished;
    damaged.insert(damaged.end(), extra.begin(), extra.end());
    set_bytes(damaged);
    try {
      resume(10);
      ADD_FAILURE() << "a journal with " << extra.size() << " bytes after its mark was accepted";
    } catch (const checkpoint_error& e) {
      EXPECT_EQ(e.why(), checkpoint_error::reason::corrupt);
      const std::string follows = extra.size() == 1 ? "1 byte at byte " + std::to_string(finished.size()) + " follows"
                                                    : std::to_string(extra.size()) + " bytes at byte " +
                                                          std::to_string(finished.size()) + " follow";
      EXPECT_NE(std::string(e.what()).find(follows + " the completion mark"), std::string::npos) << e.what();
      // The remedy: the finished journal is the file cut at the mark's end.
      EXPECT_NE(std::string(e.what()).find("cut the file after the mark (truncate -s " +
                                           std::to_string(finished.size()) + " '"),
                std::string::npos)
          << e.what();
    }
    EXPECT_EQ(bytes(), damaged);
  }
}

// The remedy's command names a journal whose name starts with '-' as
// ./-name: `truncate -s N '-z'` took it for options.
TEST_F(CheckpointTest, TheRemedyNamesADashedJournalAsAPath) {
  ASSERT_TRUE(resume(10).complete);
  std::vector<char> damaged = bytes();
  const std::size_t mark_end = damaged.size();
  damaged.push_back('x');
  const std::string dashed = "-dashed.ckpt";  // in the test's own directory
  {
    std::ofstream out(dashed, std::ios::binary);
    out.write(damaged.data(), static_cast<std::streamsize>(damaged.size()));
    ASSERT_TRUE(out.good());
  }
  try {
    checkpoint_journal j(dashed, plan(10));
    ADD_FAILURE() << "a journal with a byte after its mark was accepted";
  } catch (const checkpoint_error& e) {
    EXPECT_NE(std::string(e.what()).find("(truncate -s " + std::to_string(mark_end) + " './-dashed.ckpt')"),
              std::string::npos)
        << e.what();
  }
}

// A cancel while the records are read stops the run before it counts, with
// the journal as it was.
TEST_F(CheckpointTest, CancelWhileReadingLeavesTheJournalAsItWas) {
  const plan p(12);
  write_journal(p, p.size() / 2);
  const std::vector<char> before = bytes();
  const std::atomic<bool> cancel{true};
  EXPECT_THROW(checkpoint_journal(checkpoint_file(path_.string()), p, {}, &cancel), run_cancelled);
  count_options o;
  o.checkpoint = path_.string();
  o.cancel = &cancel;
  EXPECT_THROW(count(12, o), run_cancelled);
  EXPECT_EQ(bytes(), before);
  EXPECT_EQ(resume(12).resumed, p.size() / 2);
}

// What the tools word a kept journal's refusal by, read without opening
// it as a journal: the run its header names, and nothing for what no run
// writes (a torn header, another format, a FIFO, which must not block).
TEST_F(CheckpointTest, TheRunAJournalNamesIsReadFromItsHeader) {
  using detail::journal::journal_run_of;
  EXPECT_FALSE(journal_run_of(path_.string()));  // no file
  const plan p(13, plan_options{.kind = engine::quadrant, .split_depth = 2});
  {
    checkpoint_journal j(path_.string(), p, {1, 3});
    j.flush();
  }
  const auto run = journal_run_of(path_.string());
  ASSERT_TRUE(run);
  EXPECT_EQ(run->n, 13);
  EXPECT_EQ(run->kind, engine::quadrant);
  EXPECT_EQ(run->split_depth, 2);
  EXPECT_EQ(run->shard, (shard_spec{1, 3}));
  EXPECT_EQ(run->scope, plan_scope::all);
  std::vector<char> b = bytes();
  b.resize(detail::journal::header_size - 1);
  set_bytes(b);
  EXPECT_FALSE(journal_run_of(path_.string())) << "a torn header";
  b = bytes();
  fs::remove(path_);
  write_journal(plan(12, {.scope = plan_scope::rotational}), 0);
  ASSERT_TRUE(journal_run_of(path_.string()));
  EXPECT_EQ(journal_run_of(path_.string())->scope, plan_scope::rotational);
  b = bytes();
  b[44] = 0;  // shard count 0: no run has it
  set_bytes(b);
  EXPECT_FALSE(journal_run_of(path_.string()));
  b[44] = 1;
  b[40] = 1;  // shard 1 of 1: no run has it
  set_bytes(b);
  EXPECT_FALSE(journal_run_of(path_.string()));
  b[40] = 0;
  b[8] = 2;  // version 2
  set_bytes(b);
  EXPECT_FALSE(journal_run_of(path_.string()));
  fs::remove(path_);
  ASSERT_EQ(::mkfifo(path_.c_str(), 0600), 0);
  EXPECT_FALSE(journal_run_of(path_.string())) << "a FIFO with no writer";
}

// A rotational plan runs no engine: built with any kind, its journal names
// engine 0 and resumes under rotational_counts, which builds it with none.
TEST_F(CheckpointTest, ARotationalPlansJournalResumesWhateverKindBuiltIt) {
  const plan built_for_quadrant(12, {.kind = engine::quadrant, .scope = plan_scope::rotational});
  ASSERT_EQ(built_for_quadrant.fingerprint(), plan(12, {.scope = plan_scope::rotational}).fingerprint());
  write_journal(built_for_quadrant, built_for_quadrant.size() / 2);
  const std::vector<char> header = bytes();
  ASSERT_GE(header.size(), 24U);
  EXPECT_EQ(header[16], 0) << "the engine field of a rotational journal";
  count_options o;
  o.checkpoint = path_.string();
  const count_result r = rotational_counts(12, o);
  EXPECT_EQ(r.resumed, built_for_quadrant.size() / 2);
  EXPECT_EQ(r.symmetric_180, *published_symmetric_180(12));
  EXPECT_EQ(r.symmetric_90, *published_symmetric_90(12));
}

// remove_if_unused() takes away only a file its journal made and wrote
// nothing to: not one that was there, nor one that took a record.
TEST_F(CheckpointTest, OnlyAnUnusedJournalMadeHereIsRemoved) {
  const plan p(10);
  {
    checkpoint_journal made(path_.string(), p);
    ASSERT_TRUE(fs::exists(path_));
    EXPECT_TRUE(made.remove_if_unused());
    EXPECT_FALSE(fs::exists(path_));
    EXPECT_FALSE(made.remove_if_unused());
    EXPECT_THROW(made.record(0, run_context(p).solve(0)), std::logic_error) << "a record for a removed journal";
    made.flush();
  }
  EXPECT_FALSE(fs::exists(path_)) << "the journal's end wrote the removed file again";
  {
    checkpoint_journal made(path_.string(), p);
    made.record(0, run_context(p).solve(0));
    EXPECT_FALSE(made.remove_if_unused()) << "a queued record";
    made.flush();
    EXPECT_FALSE(made.remove_if_unused()) << "a written record";
  }
  EXPECT_EQ(checkpoint_journal(path_.string(), p).finished_count(), 1U);
  fs::remove(path_);
  write_journal(p, 0);  // a header alone, made by another journal
  const std::vector<char> before = bytes();
  EXPECT_FALSE(checkpoint_journal(path_.string(), p).remove_if_unused());
  EXPECT_EQ(bytes(), before);
}

TEST_F(CheckpointTest, UnwritablePathIsReported) {
  try {
    checkpoint_journal j("/nonexistent-dir/q.journal", plan(10));
    ADD_FAILURE() << "accepted";
  } catch (const checkpoint_error& e) {
    EXPECT_EQ(e.why(), checkpoint_error::reason::unusable);
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos) << e.what();
  }
}

TEST_F(CheckpointTest, SameRecordTwiceIsHarmlessDifferentTwiceIsCorrupt) {
  const plan p(11);
  {
    checkpoint_journal j(path_.string(), p);
    j.record(3, run_context(p).solve(3));
    j.record(3, run_context(p).solve(3));
    j.flush();
  }
  EXPECT_EQ(checkpoint_journal(path_.string(), p).finished_count(), 1u);
  {
    checkpoint_journal j(path_.string(), p);
    subproblem_count wrong = run_context(p).solve(3);
    wrong.total += 8;
    j.record(3, wrong);
  }
  try {
    checkpoint_journal j(path_.string(), p);
    FAIL() << "read two counts of one subproblem";
  } catch (const checkpoint_error& e) {
    // Where it is, as every other refusal of a record says (64-byte header, 48-byte records).
    EXPECT_NE(std::string(e.what()).find("record 2 at byte 160 gives subproblem 3 a second, different count"),
              std::string::npos)
        << e.what();
  }
}

// Repeats are bounded by the shard's size, so that a journal of endless
// repeats is refused before the list of them outgrows memory; a run that
// recorded every subproblem twice (as resumed crashes can) is still read.
TEST_F(CheckpointTest, RepeatsAreBoundedByTheShardsSize) {
  const plan p(8);
  const run_context context(p);
  {
    checkpoint_journal j(path_.string(), p);
    for (std::size_t i = 0; i < p.size(); ++i) {
      j.record(i, context.solve(i));
      j.record(i, context.solve(i));
    }
    j.flush();
  }
  EXPECT_EQ(checkpoint_journal(path_.string(), p).finished_count(), p.size());
  fs::remove(path_);
  {
    checkpoint_journal j(path_.string(), p);
    for (std::size_t k = 0; k < p.size() + 2; ++k) j.record(0, context.solve(0));
    j.flush();
  }
  try {
    checkpoint_journal j(path_.string(), p);
    FAIL() << "read " << p.size() + 1 << " repeats of one subproblem in a plan of " << p.size();
  } catch (const checkpoint_error& e) {
    EXPECT_NE(std::string(e.what()).find("repeats a subproblem: more records than the shard has subproblems"),
              std::string::npos)
        << e.what();
  }
}

// A record whose checksum holds but whose count is not the subproblem's
// (another run's, forged) and that the rest of the counts contradict
// (Burnside's lemma against the engine's own classes, or Q + P + 2R not a
// multiple of 8) names the journal as corrupt, not the engine, and the
// journal is not marked finished on it.
TEST_F(CheckpointTest, ResumedCountsThatDisagreeNameTheJournal) {
  const plan p(10, {.kind = engine::symmetric});
  for (const bool half_turn : {false, true}) {
    SCOPED_TRACE(half_turn ? "a half turn's count" : "a total");
    fs::remove(path_);
    {
      checkpoint_journal j(path_.string(), p);
      const run_context context(p);
      subproblem_count forged = context.solve(0);
      if (half_turn) {
        forged.symmetric_180 += 5;
      } else {
        forged.total += 1000000;
      }
      j.record(0, forged);
      for (std::size_t i = 1; i < p.size(); ++i) j.record(i, context.solve(i));
      j.flush();
    }
    try {
      count(10, {.kind = engine::symmetric, .threads = 2, .checkpoint = path_.string()});
      ADD_FAILURE() << "no error";
    } catch (const checkpoint_error& e) {
      EXPECT_EQ(e.why(), checkpoint_error::reason::corrupt);
      EXPECT_NE(std::string(e.what()).find("checkpoint '" + path_.string() + "' gave " + std::to_string(p.size()) +
                                           " of the counts, and the counts disagree ("),
                std::string::npos)
          << e.what();
    }
    EXPECT_FALSE(checkpoint_journal(path_.string(), p).complete());
  }
}

// Every damaged header byte is said to be damage (reason corrupt,
// "damaged header" past the magic), never taken for another run's journal
// (whose remedy, another --checkpoint or the options it names, would leave
// the damage unseen) nor for another format.
TEST_F(CheckpointTest, EveryDamagedHeaderByteIsCalledDamage) {
  const plan p(12);
  write_journal(p, 3);
  const std::vector<char> whole = bytes();
  for (std::size_t at = 0; at < checkpoint_journal::header_size; ++at) {
    std::vector<char> b = whole;
    b[at] = static_cast<char>(b[at] ^ 0x10);
    set_bytes(b);
    try {
      checkpoint_journal j(path_.string(), p);
      ADD_FAILURE() << "byte " << at << " accepted";
    } catch (const checkpoint_error& e) {
      EXPECT_EQ(e.why(), checkpoint_error::reason::corrupt) << "byte " << at << ": " << e.what();
      if (at >= detail::journal::magic.size()) {
        EXPECT_NE(std::string(e.what()).find("has a damaged header (checksum mismatch)"), std::string::npos)
            << "byte " << at << ": " << e.what();
      }
    }
  }
}

// Require_run_of's split depth 0 means any (a refusal that names no
// split, as check_memory's for an engine's tables): the journal's own run is
// accepted at whatever split it was made, another run's still refused.
TEST_F(CheckpointTest, ASplitDepthOfZeroRequiresAnyDepth) {
  { checkpoint_journal started(path_.string(), plan(12, {.kind = engine::symmetric, .split_depth = 4})); }
  const checkpoint_file f(path_.string());
  EXPECT_NO_THROW(f.require_run_of(12, engine::symmetric, 0));
  EXPECT_NO_THROW(f.require_run_of(12, engine::symmetric, 4));
  EXPECT_THROW(f.require_run_of(12, engine::symmetric, 3), checkpoint_error);
  EXPECT_THROW(f.require_run_of(12, engine::mirror, 0), checkpoint_error);
}

// A rotational plan's journal names engine 0, which is also the symmetric
// engine's number: at the same split it is still no run of that engine's
// (its scope differs), so that a memory refusal names it as another run's.
TEST_F(CheckpointTest, ARotationalJournalIsNoRunOfTheEngineItsNumberNames) {
  const plan rotational(12, {.scope = plan_scope::rotational});
  ASSERT_EQ(static_cast<int>(engine::symmetric), 0);
  write_journal(rotational, 0);
  const checkpoint_file f(path_.string());
  try {
    f.require_run_of(12, engine::symmetric, rotational.split_depth());
    ADD_FAILURE() << "a rotational journal was taken for the symmetric engine's";
  } catch (const checkpoint_error& e) {
    EXPECT_EQ(e.why(), checkpoint_error::reason::foreign) << e.what();
  }
}

// DEL (0x7f) in a journal's name is no plain byte: messages show it as
// the text \x7f (one_line), so between plain single quotes the repair
// command would name, and truncate -s create, another file. It is given in
// bash's $'...' as \x7f, as every other byte past printable ASCII is.
TEST_F(CheckpointTest, TheRemedyEscapesADelInTheJournalsName) {
  ASSERT_TRUE(resume(10).complete);
  std::vector<char> damaged = bytes();
  damaged.push_back('x');
  const std::string odd = path_.string() + "-del\x7f.ckpt";
  {
    std::ofstream out(odd, std::ios::binary);
    out.write(damaged.data(), static_cast<std::streamsize>(damaged.size()));
    ASSERT_TRUE(out.good());
  }
  try {
    checkpoint_journal j(odd, plan(10));
    ADD_FAILURE() << "a journal with a byte after its mark was accepted";
  } catch (const checkpoint_error& e) {
    EXPECT_NE(std::string(e.what()).find(" $'" + path_.string() + "-del\\x7f.ckpt')"), std::string::npos) << e.what();
  }
  fs::remove(odd);
}

}  // namespace
}  // namespace nqueens

namespace nqueens {
namespace {

// A journal of format 1 (records without the rotation-symmetric counts, from
// an older build) is refused with a message saying so, not misread.
TEST(CheckpointFormatTest, OlderFormatIsRefusedClearly) {
  const auto path = std::filesystem::temp_directory_path() / ("nqueens-format-" + std::to_string(::getpid()) + ".ckpt");
  std::filesystem::remove(path);
  const plan p(10);
  { checkpoint_journal j(path.string(), p); }
  std::vector<unsigned char> header(checkpoint_journal::header_size);
  {
    std::ifstream in(path, std::ios::binary);
    in.read(reinterpret_cast<char*>(header.data()), static_cast<std::streamsize>(header.size()));
  }
  // The format before this build's, then the header's own checksum over bytes 0..55.
  constexpr std::uint32_t older = detail::journal::format_version - 1;
  header[8] = static_cast<unsigned char>(older);
  detail::fnv1a hash;
  for (std::size_t i = 0; i < 56; ++i) hash.add_byte(header[i]);
  for (int i = 0; i < 8; ++i)
    header[56 + static_cast<std::size_t>(i)] = static_cast<unsigned char>(hash.value() >> (8 * i));
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(header.data()), static_cast<std::streamsize>(header.size()));
  }
  try {
    checkpoint_journal j(path.string(), p);
    FAIL() << "a format-" << older << " journal was accepted";
  } catch (const checkpoint_error& e) {
    EXPECT_EQ(e.why(), checkpoint_error::reason::foreign);
    EXPECT_NE(std::string(e.what()).find("has journal format " + std::to_string(older) + ", this build reads format " +
                                         std::to_string(detail::journal::format_version)),
              std::string::npos)
        << e.what();
  }
  std::filesystem::remove(path);
}

// Records carry all four counts: a resumed count gets the same rotation-
// symmetric counts, and so the same fundamental count, as a fresh one.
TEST(CheckpointFormatTest, ResumedCountKeepsTheSymmetricCounts) {
  const auto path = std::filesystem::temp_directory_path() / ("nqueens-sym-" + std::to_string(::getpid()) + ".ckpt");
  std::filesystem::remove(path);
  const plan p(12, {.kind = engine::mirror});
  {
    checkpoint_journal j(path.string(), p);
    const run_context context(p);
    for (std::size_t i = p.engine_subproblems() / 2; i < p.size(); ++i) j.record(i, context.solve(i));
  }
  count_options o{.kind = engine::mirror, .threads = 2};
  o.checkpoint = path.string();
  const count_result r = count(12, o);
  EXPECT_GT(r.resumed, 0u);
  EXPECT_EQ(r.symmetric_180, *published_symmetric_180(12));
  EXPECT_EQ(r.symmetric_90, *published_symmetric_90(12));
  EXPECT_EQ(*r.unique, *published_unique(12));
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace nqueens
