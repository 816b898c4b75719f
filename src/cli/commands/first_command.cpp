#include "cli/commands/first_command.hpp"

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <optional>
#include <vector>

#include "cli/arguments.hpp"
#include "cli/command_line.hpp"
#include "cli/interruption.hpp"
#include "cli/io/placement_io.hpp"
#include "cli/io/standard_output.hpp"
#include "cli/number_text.hpp"
#include "cli/shared_options.hpp"
#include "cli/signals.hpp"
#include "nqueens/first.hpp"

namespace nqueens::cli {

namespace {
// A board drawing is N^2 characters: beyond this it is no longer something to look at.
constexpr int max_drawn_board = 1000;
}  // namespace

int run_first(const std::vector<std::string>& args) {
  cxxopts::Options options("nqueens first",
                           "Print one solution on an N x N board, built by formula (no search), for N up\n"
                           "to " +
                               format_grouped(max_constructed_board_size) +
                               ". Check it with: nqueens first N | nqueens check (which holds the\n"
                               "placement whole: about 14 bytes a queen, 1.4 GB at N = 100,000,000)");
  options.custom_help("N [options]");
  options.positional_help("");
  const shared_options shared{};
  add_worker_options(options, shared);
  add_format_option(options, "tuple, board (N <= " + std::to_string(max_drawn_board) + ") or fen (N = 8)");
  add_closing_options(options, shared);
  add_board_size_operand(options);
  const auto result = parse_command_line(options, args, true, max_constructed_board_size);
  if (printed_help(result, options)) return 0;
  const int n =
      static_cast<int>(parse_integer(single_positional(result, "n",
                                                       "board size N (" + std::to_string(min_board_size) + " to " +
                                                           format_grouped(max_constructed_board_size) + ")"),
                                     "board size", min_board_size, max_constructed_board_size));
  const placement_format format = parse_placement_format(result["format"].as<std::string>(), n);
  if (format == placement_format::board && n > max_drawn_board) {
    throw usage_error("--format board draws at most " + std::to_string(max_drawn_board) + " columns; use tuple");
  }
  // A large board takes a second to build and write: a stop signal then is
  // answered, as every command that runs that long answers it.
  install_stop_handlers();
  std::optional<std::vector<int>> columns;
  try {
    columns = first_solution(n, &stop_requested());
  } catch (const run_cancelled&) {
    return report_interruption_of("before the placement was written");
  }
  if (!columns) {
    std::cerr << "nqueens: no solution exists for N = " << n << '\n';
    return 1;
  }
  if (stop_requested()) return report_interruption_of("before the placement was written");
  flush_standard_output();
  buffered_output out(STDOUT_FILENO);
  out.end_at_a_stop();
  write_placement(out, *columns, format);
  out.flush();
  return 0;
}

}  // namespace nqueens::cli
