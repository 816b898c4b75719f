#pragma once

// A command's command line read with cxxopts: negative numbers told from
// options, cxxopts' errors as usage errors, --help, and the board size N
// every counting command takes as its operand.

#include <string>
#include <string_view>
#include <vector>

#include "cli/arguments.hpp"
#include "cli/whole_operands.hpp"

namespace nqueens::cli {

/// Parses `args` (args[0] is the program name) with `options`. A bare negative
/// number that is not the value of an option (value_option_names) is reported
/// as a board size out of range (1 to `largest_board_size`) when
/// `board_size_positional`, else as unexpected, rather than as an unknown
/// option. cxxopts errors become usage_error, and so do a flag given a
/// value ("--json=false") and an option given twice (but the operands).
cxxopts::ParseResult parse_command_line(cxxopts::Options& options, const std::vector<std::string>& args,
                                        bool board_size_positional, int largest_board_size = max_board_size);

/// Prints `options`' help (the board size operand, in a group of its own,
/// unlisted), a blank line and `tail` to standard output.
void print_help(cxxopts::Options& options, const std::string& tail = {});

/// When `result` asked for --help: print_help, and returns true.
bool printed_help(const cxxopts::ParseResult& result, cxxopts::Options& options, const std::string& tail = {});

/// The single positional argument (the board size), or a usage_error when it
/// is missing or repeated.
std::string single_positional(const cxxopts::ParseResult& result, std::string_view name, std::string_view what);

/// Declares the positional board size N (the option "n"), after the options.
void add_board_size_operand(cxxopts::Options& options);

/// The board size N given to add_board_size_operand's options (parse_board_size).
int board_size_operand(const cxxopts::ParseResult& result);

}  // namespace nqueens::cli
