#include "mpi/rank0_executor.hpp"

#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "cli/signals.hpp"
#include "mpi/chunk_ledger.hpp"
#include "mpi/protocol.hpp"
#include "nqueens/cancelled.hpp"
#include "nqueens/device_work.hpp"

namespace nqueens::mpi {
namespace {

// The message `status` announced, into `buffer`.
void receive(const MPI_Status& status, std::vector<std::uint64_t>& buffer) {
  int size = 0;
  MPI_Get_count(&status, MPI_UINT64_T, &size);
  buffer.resize(static_cast<std::size_t>(size));
  MPI_Recv(buffer.data(), size, MPI_UINT64_T, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

// Test hook: NQUEENS_MPI_TEST_PARK=DIR holds rank 0's first chunk until
// DIR/release exists or the job stops, so that the workers take the rest
// and wait for the end (saying so, worker.cpp): a test signals one there.
void hold_for_test(const std::atomic<bool>& halt) {
  const char* dir = std::getenv("NQUEENS_MPI_TEST_PARK");
  if (dir == nullptr) return;
  const std::string release = std::string(dir) + "/release";
  while (!halt.load() && ::access(release.c_str(), F_OK) != 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// Test hook: NQUEENS_MPI_TEST_COUNTED=FILE makes rank 0 create FILE once the
// first subproblem's count has reached it, so that a test stops the job
// after counting began by that event rather than by a guess of CPU time.
void mark_counted_for_test(const char* file) {
  if (file == nullptr) return;
  const int fd = ::open(file, O_WRONLY | O_CREAT | O_EXCL, 0644);  // never a file that exists: nothing emptied
  if (fd >= 0) ::close(fd);
}

}  // namespace

void rank0_executor::release_workers() {
  std::vector<std::uint64_t> buffer;
  while (waiting_ > 0) {
    MPI_Status status;
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    receive(status, buffer);
    add_header(buffer);
    // A request here carries no records: every chunk handed out was
    // answered inside run(). One that does is a rank out of step.
    const std::size_t records = buffer.size() - (status.MPI_TAG == tag_stopped ? 1 : 0);
    if (records > header_words) ledger_.reported(status.MPI_SOURCE, buffer[header_words]);
    if (status.MPI_TAG == tag_stopped) {
      worker_left(status.MPI_SOURCE, buffer);
    } else {
      answer(status.MPI_SOURCE, {});
    }
  }
}

int rank0_executor::stopping_signal() const {
  if (worker_stop_) return worker_stop_->second;
  return cancel_ != nullptr && cancel_->load() ? cli::stop_signal() : 0;
}

void rank0_executor::answer(int worker, const std::vector<std::uint64_t>& chunk) {
  if (!chunk.empty()) {
    ledger_.handed(worker, chunk);
    MPI_Send(chunk.data(), static_cast<int>(chunk.size()), MPI_UINT64_T, worker, tag_chunk, MPI_COMM_WORLD);
    busy_.push_back(worker);
    return;
  }
  --waiting_;
  if (stopping_signal() != 0) {
    held_.push_back(worker);
    return;
  }
  MPI_Send(nullptr, 0, MPI_UINT64_T, worker, tag_chunk, MPI_COMM_WORLD);
  finished_.push_back(worker);
}

void rank0_executor::worker_left(int rank, const std::vector<std::uint64_t>& message) {
  note_stop(rank, message);
  held_.push_back(rank);
  if (const auto it = std::find(finished_.begin(), finished_.end(), rank); it != finished_.end()) {
    finished_.erase(it);
  } else {
    --waiting_;
  }
}

void rank0_executor::finish_workers(bool stops_count) {
  const std::vector<int> asked = finished_;
  for (const int worker : asked) MPI_Send(nullptr, 0, MPI_UINT64_T, worker, tag_finish, MPI_COMM_WORLD);
  // One answer each: tag_results with no records, or tag_stopped (sent as
  // the question crossed it, or in answer).
  std::vector<std::uint64_t> buffer;
  for (const int worker : asked) {
    MPI_Status status;
    MPI_Probe(worker, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    receive(status, buffer);
    add_header(buffer);
    if (status.MPI_TAG == tag_stopped) worker_left(worker, buffer);
  }
  if (stops_count && stopping_signal() != 0) return;  // dismiss_workers() tells them all
  for (const int worker : asked) MPI_Send(nullptr, 0, MPI_UINT64_T, worker, tag_finish, MPI_COMM_WORLD);
  finished_.clear();
  for (const int worker : asked) held_.erase(std::remove(held_.begin(), held_.end(), worker), held_.end());
}

void rank0_executor::cut_busy_workers() {
  if (cut_sent_) return;
  cut_sent_ = true;
  // Not waited for: the worker may be sending its records this moment (a
  // send that waits for its receive), and takes the word later, before
  // dismiss_workers' synchronous stop (messages between two ranks keep
  // their order), so that every one is received before MPI_Finalize.
  // NOLINTBEGIN(clang-analyzer-optin.mpi.MPI-Checker): each request freed, not waited for (above)
  for (const int worker : busy_) {
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Isend(nullptr, 0, MPI_UINT64_T, worker, tag_cut, MPI_COMM_WORLD, &request);
    MPI_Request_free(&request);
  }
  // NOLINTEND(clang-analyzer-optin.mpi.MPI-Checker)
}

void rank0_executor::dismiss_workers() {
  const auto word = static_cast<std::uint64_t>(stopping_signal());
  // Synchronous: a worker that never got the word would wait for mpirun to
  // kill it rather than end by itself.
  for (const int worker : held_) MPI_Ssend(&word, 1, MPI_UINT64_T, worker, tag_stop, MPI_COMM_WORLD);
  for (const int worker : finished_) MPI_Ssend(&word, 1, MPI_UINT64_T, worker, tag_stop, MPI_COMM_WORLD);
  held_.clear();
  finished_.clear();
}

void rank0_executor::run(const plan& p, std::span<const std::size_t> indices, const detail::report_fn& report,
                         const std::atomic<bool>& stop) {
  if (indices.empty()) {  // a finished journal: no tables, no work (release_workers answers them)
    counted_ = true;
    return;
  }
  todo_ = indices;  // the driver's list, alive until run() returns: no copy of 10^8 indices
  const char* counted_flag = std::getenv("NQUEENS_MPI_TEST_COUNTED");
  const detail::report_fn reported = [&](std::size_t index, const subproblem_count& count) {
    const bool first = !counted_.load(std::memory_order_relaxed) && !counted_.exchange(true);
    report(index, count);
    if (first) mark_counted_for_test(counted_flag);  // once the driver holds the count
  };
  next_ = 0;
  // Rank 0 counts too, on a thread of its own; only this (main) thread calls MPI.
  std::exception_ptr local_error;
  std::atomic<bool> local_done{false};
  std::thread local([&] {
    try {
      execute_options options;
      options.threads = threads_;
      options.on_finished = reported;
      options.cancel = &halt_;
      bool first = true;
      for (auto chunk = next_chunk(); !chunk.empty(); chunk = next_chunk()) {
        if (std::exchange(first, false)) hold_for_test(halt_);
        // Its tables are built with its first chunk (none when the workers
        // took all), once the driver holds the journal (a second job on it
        // is refused before it spends minutes on them), while the main
        // thread hands the workers theirs: each builds its own at the same
        // time, not after rank 0's, and a stop that reaches a worker alone
        // meanwhile is heard (halt_ cuts the build).
        if (!context_) {
          const auto building = std::chrono::steady_clock::now();
          context_.emplace(p, kernels_, threads_, &halt_, max_memory_, gpu_);
          phases_.start += std::chrono::duration<double>(std::chrono::steady_clock::now() - building).count();
        }
        const std::vector<std::size_t> mine(chunk.begin(), chunk.end());
        const execution done = execute(p, mine, options, &*context_);
        const std::lock_guard lock(device_mutex_);
        device_ += done.device;
      }
    } catch (const run_cancelled&) {
      // stopped while the tables were built: nothing counted here, the driver reports the stop
    } catch (...) {
      local_error = std::current_exception();
      failed_ = true;  // no more chunks for anyone: the job fails now, not after the rest of the plan
    }
    local_done = true;
  });
  try {
    serve_workers(reported, stop, local_done);
  } catch (...) {
    failed_ = true;
    halt_ = true;
    local.join();
    throw;
  }
  halt_ = true;
  local.join();
  if (local_error) std::rethrow_exception(local_error);
  // The tables go now, timed as count's are, not when the executor does.
  const auto releasing = std::chrono::steady_clock::now();
  context_.reset();
  phases_.release += std::chrono::duration<double>(std::chrono::steady_clock::now() - releasing).count();
}

void rank0_executor::serve_workers(const detail::report_fn& report, const std::atomic<bool>& stop,
                                   const std::atomic<bool>& local_done) {
  std::vector<std::uint64_t> buffer;
  while ((waiting_ > 0 || !local_done) && !abandoned_ && !failed_) {
    // The caller's cancel too, looked at here every millisecond, not only
    // as the driver copies it into `stop` (every 50 ms): no chunk is handed
    // out once it is set.
    if (stop.load() || (cancel_ != nullptr && cancel_->load())) halt_ = true;
    if (halt_ && stopping_signal() != 0) cut_busy_workers();
    int ready = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &ready, &status);
    if (ready == 0 || (status.MPI_TAG != tag_results && status.MPI_TAG != tag_stopped)) {
      // Polling with a short sleep keeps this thread off the CPU the workers use.
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    receive(status, buffer);
    add_header(buffer);
    busy_.erase(std::remove(busy_.begin(), busy_.end(), status.MPI_SOURCE), busy_.end());
    const bool leaving = status.MPI_TAG == tag_stopped;
    const std::size_t records = leaving ? buffer.size() - 1 : buffer.size();
    if ((records - header_words) % record_words != 0) {
      throw std::runtime_error("rank " + std::to_string(status.MPI_SOURCE) + " sent a record cut short");
    }
    for (std::size_t k = header_words; k + record_words <= records; k += record_words) {
      ledger_.reported(status.MPI_SOURCE, buffer[k]);  // one of its chunk's, once: the driver sums what it is told
      report(static_cast<std::size_t>(buffer[k]), {buffer[k + 1], buffer[k + 2], buffer[k + 3], buffer[k + 4]});
    }
    ledger_.closed(status.MPI_SOURCE);
    if (leaving) {  // a signal reached that rank: the job stops, as if it had reached rank 0
      worker_left(status.MPI_SOURCE, buffer);
      halt_ = true;
      continue;
    }
    answer(status.MPI_SOURCE, next_chunk());
  }
}

void rank0_executor::note_stop(int rank, const std::vector<std::uint64_t>& message) {
  if (!worker_stop_ && message.size() > header_words) {
    worker_stop_ = std::pair{rank, static_cast<int>(message.back())};
    worker_stopped_ = true;
  }
}

void rank0_executor::add_header(const std::vector<std::uint64_t>& message) {
  if (message.size() < header_words) throw std::runtime_error("a rank sent a message without its header");
  const std::lock_guard lock(device_mutex_);
  device_ += read_device_header(message);
}

device_work rank0_executor::device() const noexcept {
  const std::lock_guard lock(device_mutex_);
  return device_;
}

std::vector<std::uint64_t> rank0_executor::next_chunk() {
  const std::lock_guard lock(mutex_);
  std::vector<std::uint64_t> chunk;
  if (halt_.load() || failed_.load() || abandoned_.load()) return chunk;
  const std::size_t left = todo_.size() - next_;
  const std::size_t size = std::clamp<std::size_t>(left / (4 * static_cast<std::size_t>(ranks_)), 1, 4096);
  for (std::size_t k = 0; k < size && next_ < todo_.size(); ++k) chunk.push_back(todo_[next_++]);
  return chunk;
}

}  // namespace nqueens::mpi
