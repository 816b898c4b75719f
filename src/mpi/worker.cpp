#include "mpi/worker.hpp"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "cli/exit_status.hpp"
#include "cli/signals.hpp"
#include "engines/plain_number.hpp"
#include "mpi/protocol.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/threads.hpp"

namespace nqueens::mpi {
namespace {

// The next message from rank 0 other than a tag_cut (one that came after
// the chunk it cut had ended), into `buffer`; its tag. Polled with a short
// sleep, as rank 0 polls: Open MPI's blocking probe spins a core for as
// long as the worker waits (for its next chunk, or for rank 0 to wind
// down), a core its node's counting threads could use.
int receive_from_rank0(std::vector<std::uint64_t>& buffer) {
  for (;;) {
    MPI_Status status;
    for (int ready = 0;;) {
      MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &ready, &status);
      if (ready != 0) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    int size = 0;
    MPI_Get_count(&status, MPI_UINT64_T, &size);
    buffer.resize(static_cast<std::size_t>(size));
    MPI_Recv(buffer.data(), size, MPI_UINT64_T, 0, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (status.MPI_TAG != tag_cut) return status.MPI_TAG;
  }
}

// Builds this rank's context and counts its chunks on a thread of its own,
// the same from the first chunk to the last (a thread a chunk would give the
// quadrant engine's per-thread buffers a new entry each time), while the
// thread that calls MPI looks every 10 ms for rank 0's tag_cut and this
// rank's own stop: either cuts the job short (its cancel flag), so that a
// job stopped anywhere ends within a second, not after the chunk or after
// the tables (seconds at n = 22, minutes at n = 24).
class chunk_counter {
 public:
  chunk_counter() : thread_([this] { serve(); }) {}
  ~chunk_counter() {
    {
      const std::lock_guard lock(mutex_);
      quit_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }
  chunk_counter(const chunk_counter&) = delete;
  chunk_counter& operator=(const chunk_counter&) = delete;

  // run_cancelled when cut while the tables were built.
  run_context build(const plan& p, const cli::count_request& request, int threads) {
    std::optional<run_context> context;
    run([&](const std::atomic<bool>* cut) {
      context.emplace(p, request.options.kernels, threads, cut, request.options.max_memory, request.options.gpu);
    });
    return std::move(*context);
  }

  execution count(const plan& p, const std::vector<std::size_t>& indices, execute_options options,
                  const run_context& context) {
    std::optional<execution> result;
    run([&](const std::atomic<bool>* cut) {
      options.cancel = cut;
      result = execute(p, indices, options, &context);
    });
    return std::move(*result);
  }

  // A new chunk: not cut yet. Once a chunk, not once a job: a cut taken
  // while the tables were built, after their last look at the flag (the GPU
  // engine's devices open after it), must still cut the chunk's count.
  void begin_chunk() noexcept { cut_ = false; }

 private:
  // Runs `job` on the counting thread, its cancel flag set on a cut or a stop.
  void run(const std::function<void(const std::atomic<bool>*)>& job) {
    std::unique_lock lock(mutex_);
    job_ = &job;
    done_ = false;
    changed_.notify_all();
    while (!changed_.wait_for(lock, std::chrono::milliseconds(10), [&] { return done_; })) {
      if (cli::stop_requested().load()) cut_ = true;
      int cut_sent = 0;
      MPI_Iprobe(0, tag_cut, MPI_COMM_WORLD, &cut_sent, MPI_STATUS_IGNORE);
      if (cut_sent != 0) {
        MPI_Recv(nullptr, 0, MPI_UINT64_T, 0, tag_cut, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        cut_ = true;
      }
    }
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

  void serve() {
    std::unique_lock lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return quit_ || job_ != nullptr; });
      if (quit_) return;
      const auto* job = std::exchange(job_, nullptr);
      lock.unlock();
      std::exception_ptr error;
      try {
        (*job)(&cut_);
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      error_ = error;
      done_ = true;
      changed_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;  // a job given, a job done, or quit
  const std::function<void(const std::atomic<bool>*)>* job_ = nullptr;
  std::exception_ptr error_;
  bool done_ = false;
  bool quit_ = false;
  std::atomic<bool> cut_{false};
  std::thread thread_;  // last: it runs serve() on the members above
};

// Test hook: NQUEENS_MPI_TEST_PARK=DIR makes each worker given no more
// work say so in DIR/parked.RANK (rank 0 holds a chunk meanwhile,
// rank0_executor.cpp), so that a test can signal it there.
void say_parked_for_test(int rank) {
  if (const char* dir = std::getenv("NQUEENS_MPI_TEST_PARK"); dir != nullptr) {
    std::ofstream(std::string(dir) + "/parked." + std::to_string(rank)) << ::getpid() << '\n';
  }
}

// Given no more work while the job goes on (rank 0's last chunk, another
// worker's), the worker waits for rank 0's word (tag_finish, protocol.hpp)
// rather than in MPI_Finalize: a stop signal that reaches it meanwhile
// stops the job, as one that reaches it mid-chunk does, and one that comes
// as the job ends is reported, not lost. Returns as run_worker().
int wait_for_the_end(int rank) {
  say_parked_for_test(rank);
  std::vector<std::uint64_t> message;
  int own = 0;  // the signal this rank reported, once it has
  const auto leave = [&](const std::vector<std::uint64_t>& word) {
    return cli::interrupted_status(own != 0 ? own : word.empty() ? SIGTERM : static_cast<int>(word[0]));
  };
  const auto report_a_stop = [&] {
    if (own != 0 || !cli::stop_requested()) return;
    own = cli::stop_signal();
    message.assign(header_words, 0);  // no records: its last chunk's went with its request
    message.push_back(static_cast<std::uint64_t>(own));
    MPI_Send(message.data(), static_cast<int>(message.size()), MPI_UINT64_T, 0, tag_stopped, MPI_COMM_WORLD);
  };
  for (;;) {
    report_a_stop();
    int ready = 0;
    MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &ready, MPI_STATUS_IGNORE);
    if (ready == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    const int tag = receive_from_rank0(message);
    if (tag == tag_stop) return leave(message);
    if (tag != tag_finish) throw std::runtime_error("rank 0 sent work after it said there was none");
    report_a_stop();  // one that came just now is the answer
    if (own == 0) {   // the one answer: still here, no stop
      message.assign(header_words, 0);
      MPI_Send(message.data(), static_cast<int>(message.size()), MPI_UINT64_T, 0, tag_results, MPI_COMM_WORLD);
    }
    return receive_from_rank0(message) == tag_finish ? 0 : leave(message);
  }
}

}  // namespace

int run_worker(const cli::count_request& request, const plan& p, int rank) {
  const int threads = resolve_threads(request.options.threads);
  std::optional<run_context> context;  // built with the first chunk: none for a finished journal
  execute_options options;
  options.threads = threads;
  // Test hook: NQUEENS_MPI_TEST_DIE_RANK=k[:c] makes rank k die on its c-th
  // chunk (default 1), as kill -9 would, to prove that the job then fails
  // loudly instead of printing a partial total, and that rank 0's journal
  // survives it.
  int die_at_chunk = 0;
  if (const char* die = std::getenv("NQUEENS_MPI_TEST_DIE_RANK"); die != nullptr) {
    const std::string_view text(die);
    const std::size_t colon = text.find(':');
    if (detail::plain_integer(text.substr(0, colon), 0, INT_MAX) == rank) {
      die_at_chunk = colon == std::string_view::npos
                         ? 1
                         : static_cast<int>(detail::plain_integer(text.substr(colon + 1), 1, INT_MAX).value_or(1));
    }
  }
  chunk_counter counter;
  std::vector<std::uint64_t> results(header_words, 0);  // no records yet: the first message only asks for work
  std::vector<std::uint64_t> chunk;
  for (int chunks = 1;; ++chunks) {
    if (cli::stop_requested()) {
      const int sig = cli::stop_signal();
      results.push_back(static_cast<std::uint64_t>(sig));
      MPI_Send(results.data(), static_cast<int>(results.size()), MPI_UINT64_T, 0, tag_stopped, MPI_COMM_WORLD);
      // Rank 0 reports first, then dismisses this rank (main.cpp says why).
      receive_from_rank0(chunk);  // tag_stop
      return cli::interrupted_status(sig);
    }
    MPI_Send(results.data(), static_cast<int>(results.size()), MPI_UINT64_T, 0, tag_results, MPI_COMM_WORLD);
    if (receive_from_rank0(chunk) == tag_stop)
      return cli::interrupted_status(chunk.empty() ? SIGTERM : static_cast<int>(chunk[0]));
    if (chunk.empty()) return wait_for_the_end(rank);
    if (chunks == die_at_chunk) std::raise(SIGKILL);
    results.assign(header_words, 0);
    counter.begin_chunk();
    if (!context) {
      try {
        context.emplace(counter.build(p, request, threads));
      } catch (const run_cancelled&) {
        continue;  // stopped or cut while building: leave at the top of the loop
      }
    }
    const std::vector<std::size_t> indices(chunk.begin(), chunk.end());
    const execution run = counter.count(p, indices, options, *context);
    write_device_header(results, run.device);
    for (std::size_t k = 0; k < run.indices.size(); ++k) {
      if (run.finished[k] == 0) continue;  // cancelled: rank 0 does not count it as done
      const subproblem_count& c = run.counts[k];
      results.insert(results.end(), {run.indices[k], c.total, c.unique, c.symmetric_180, c.symmetric_90});
    }
  }
}

}  // namespace nqueens::mpi
