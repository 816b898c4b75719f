// The thread that calls count_options::on_progress: a callback that throws
// stops the run (the flag set), is not handed the snapshot that waited
// meanwhile, and its exception is the one handed back.

#include "run/progress_relay.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>

namespace nqueens::detail {
namespace {

TEST(ProgressRelayTest, ACallbackThatThrowsStopsTheRunAndIsCalledNoMore) {
  std::atomic<int> calls{0};
  std::promise<void> entered;
  std::promise<void> go_on;
  std::shared_future<void> may_throw = go_on.get_future().share();
  const std::function<void(const progress&)> callback = [&](const progress& p) {
    if (calls.fetch_add(1) == 0) {
      entered.set_value();
      may_throw.wait();
    }
    throw std::runtime_error("call " + std::to_string(calls.load()) + " of snapshot " + std::to_string(p.finished));
  };
  std::atomic<bool> stop{false};
  progress_relay relay(callback, stop);
  relay.post({.subproblems = 10, .finished = 1});
  entered.get_future().wait();
  // Waiting while the first call is under way: dropped once it throws,
  // never handed to a callback that has failed.
  relay.post({.subproblems = 10, .finished = 2});
  go_on.set_value();
  // The flag is set with the relay's lock held, which it keeps until it
  // waits again (or, had it kept the waiting snapshot, until it calls
  // back): finish() below comes after either.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!stop.load() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_TRUE(stop.load()) << "the run is told to start no further subproblem";
  const std::exception_ptr thrown = relay.finish();
  EXPECT_EQ(calls.load(), 1);
  ASSERT_TRUE(thrown);
  try {
    std::rethrow_exception(thrown);
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "call 1 of snapshot 1");
  }
}

// A callback that returns is handed the latest snapshot, and the relay
// ends cleanly with nothing thrown.
TEST(ProgressRelayTest, ACallbackThatReturnsGetsTheLatestSnapshot) {
  std::atomic<std::size_t> last{0};
  std::promise<void> seen;
  bool told = false;
  const std::function<void(const progress&)> callback = [&](const progress& p) {
    last = p.finished;
    if (p.finished == 5 && !told) {
      told = true;
      seen.set_value();
    }
  };
  std::atomic<bool> stop{false};
  progress_relay relay(callback, stop);
  relay.post({.subproblems = 5, .finished = 5});
  seen.get_future().wait();
  EXPECT_FALSE(relay.finish());
  EXPECT_EQ(last.load(), 5U);
  EXPECT_FALSE(stop.load());
}

}  // namespace
}  // namespace nqueens::detail
