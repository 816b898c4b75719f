#include "mpi/launcher_watch.hpp"

#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <string>
#include <thread>

namespace nqueens::mpi {

// A rank whose launcher (mpirun, or the daemon that started it on its node)
// died must not go on counting for no one, holding the journal's lock. Open
// MPI often notices, not always, so the rank watches its parent itself: a
// thread polls getppid(), which changes when the parent dies. Not
// PR_SET_PDEATHSIG: it fires when the launcher's *thread* that forked the
// rank ends, which may come long before the launcher does. Only under a
// launcher (its variables are in the environment): a singleton started from
// a shell may outlive it (nohup). The rank stops as a SIGTERM stops it: rank
// 0's driver saves its finished subproblems within 50 ms, on a thread of its
// own, whatever MPI call its main thread waits in (with a long
// --checkpoint-interval, up to an hour of work), then the SIGKILL, 0.75 s
// later (time for that save on a machine short of CPU, within the second a
// stop is given), ends what a teardown among vanished ranks would leave
// waiting: gone within a second of its launcher.
void exit_with_launcher() {
  if (std::getenv("OMPI_COMM_WORLD_SIZE") == nullptr && std::getenv("PMIX_RANK") == nullptr &&
      std::getenv("PMI_RANK") == nullptr) {
    return;
  }
  const pid_t launcher = ::getppid();
  // Said before the stop: no one sent the SIGTERM it reports (and a process
  // started by hand with a launcher's variables, inherited from an `srun
  // --pty` shell say, ends here with that shell). Built now, written only
  // where stderr takes it at once (a full pipe, a terminal held by ^S):
  // nothing may hold up the stop, the journal's save and the SIGKILL.
  const std::string why = "nqueens-mpi: its launcher (parent process " + std::to_string(launcher) +
                          ") ended: stopping as a SIGTERM stops it\n";
  std::thread([launcher, why] {
    for (;;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      if (::getppid() != launcher) {
        pollfd err{.fd = STDERR_FILENO, .events = POLLOUT, .revents = 0};
        if (::poll(&err, 1, 0) == 1 && (err.revents & POLLOUT) != 0) {
          static_cast<void>(::write(STDERR_FILENO, why.data(), why.size()) >= 0);  // < PIPE_BUF: whole or not at all
        }
        ::kill(::getpid(), SIGTERM);
        std::this_thread::sleep_for(std::chrono::milliseconds(750));
        ::kill(::getpid(), SIGKILL);  // as kill -9 would: the journal holds whole records only
      }
    }
  }).detach();
}

}  // namespace nqueens::mpi
