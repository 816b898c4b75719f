#include "cli/shared_options.hpp"

#include <unistd.h>

#include "nqueens/count.hpp"

namespace nqueens::cli {

long_run_choice read_long_run_options(const cxxopts::ParseResult& result) {
  long_run_choice choice;
  if (result.count("checkpoint")) {
    choice.checkpoint = result["checkpoint"].as<std::string>();
    if (choice.checkpoint.empty()) throw usage_error("--checkpoint needs a file name");
  }
  choice.checkpoint_interval_seconds =
      parse_seconds(result["checkpoint-interval"].as<std::string>(), "--checkpoint-interval",
                    min_checkpoint_interval_seconds, max_checkpoint_interval_seconds);
  if (result.count("progress") && result.count("no-progress")) {
    throw usage_error("--progress and --no-progress contradict each other");
  }
  choice.progress_option = result.count("progress") ? 1 : result.count("no-progress") ? -1 : 0;
  choice.terminal = ::isatty(STDERR_FILENO) != 0;
  choice.progress = choice.progress_option > 0 || (choice.terminal && choice.progress_option == 0);
  return choice;
}

}  // namespace nqueens::cli
