#include "cli/commands/list_command.hpp"

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <string>

#include "cli/arguments.hpp"
#include "cli/command_line.hpp"
#include "cli/interruption.hpp"
#include "cli/io/placement_io.hpp"
#include "cli/io/standard_output.hpp"
#include "cli/shared_options.hpp"
#include "cli/signals.hpp"
#include "nqueens/enumerate.hpp"

namespace nqueens::cli {

int run_list(const std::vector<std::string>& args) {
  cxxopts::Options options("nqueens list",
                           "Print the solutions on an N x N board, smallest tuple first: the same order for\n"
                           "every thread count. A tuple gives the column (0-based) of the queen in each row.");
  options.custom_help("N [options]");
  options.positional_help("");
  const shared_options shared{.threads = worker_threads_help};
  add_worker_options(options, shared);
  add_format_option(options, "tuple: (1, 3, 0, 2); board: rows of Q and .; fen: chess notation (N = 8 only)");
  options.add_options()("unique",
                        "One solution per symmetry class (the smallest tuple of the class), followed in the tuple "
                        "format by the class size 1, 2, 4 or 8")("limit", "Stop after K solutions",
                                                                 cxxopts::value<std::string>());
  add_closing_options(options, shared);
  add_board_size_operand(options);
  const auto result = parse_command_line(options, args, true);
  if (printed_help(result, options, "N is a board size from " + board_size_range() + ".\n")) return 0;
  const int n = board_size_operand(result);
  const placement_format format = parse_placement_format(result["format"].as<std::string>(), n);
  enumerate_options opts;
  opts.unique = result.count("unique") != 0;
  if (result.count("threads")) opts.threads = parse_threads(result["threads"].as<std::string>());
  if (result.count("limit")) {
    opts.limit = static_cast<std::uint64_t>(
        parse_integer(result["limit"].as<std::string>(), "--limit", 1, 1'000'000'000'000'000'000LL));
  }

  // A reader that stops early (`nqueens list 16 | head`) ends the output
  // quietly (buffered_output), SIGPIPE being ignored (prepare_standard_streams).
  flush_standard_output();
  buffered_output out(STDOUT_FILENO);
  const int class_marker = opts.unique && format == placement_format::tuple;
  install_stop_handlers();
  opts.cancel = &stop_requested();
  const enumerate_result listed = enumerate(n, opts, [&](const listed_solution& s) {
    write_placement(out, s.columns, format, class_marker ? s.class_size : 0);
    out.flush_if_slow(std::chrono::milliseconds(100));  // large n: seconds between solutions
    return !out.closed();
  });
  out.flush();
  if (stop_requested()) {  // as count: a signal is never swallowed
    const bool one = listed.delivered == 1;
    return report_interruption_of(
        "after " + std::to_string(listed.delivered) +
        (opts.unique ? (one ? " class was" : " classes were") : (one ? " solution was" : " solutions were")) +
        (out.cut() ? " found, the output cut short after the last whole line its reader had room for" : " written"));
  }
  return 0;
}

}  // namespace nqueens::cli
