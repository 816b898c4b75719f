#pragma once

// The sub-commands of the `nqueens` tool (commands.cpp): the one list that
// drives both dispatch and the usage text. Each command lives in
// <name>_command.{hpp,cpp}, takes its arguments with args[0] set to
// "nqueens <command>", prints its own output and returns the exit status
// (exit_status.hpp: 0 ok, 1 count mismatch, 2 usage error thrown as
// usage_error, 3 a failure, 128 + the signal that stopped it).

#include <string>
#include <vector>

namespace nqueens::cli {

struct command {
  std::string name;
  std::string operands;  ///< as shown in the usage text, e.g. "N"
  std::string summary;   ///< one line for the usage text
  int (*run)(const std::vector<std::string>& args);
  /// `nqueens N ...` means this command (one command has it).
  bool takes_shorthand = false;
};

/// Every command, in the order the usage text lists them.
const std::vector<command>& commands();

/// The command called `name`, or null.
const command* find_command(const std::string& name);

/// The command `nqueens N` stands for.
const command& shorthand_command();

/// The command `name` names: a command's name, or a board size (text a
/// user meant as one, such as "12", "-3" or "12x", which the shorthand's
/// command then takes or refuses). Throws usage_error for anything else: an
/// option before the command ("options go after it", where `where_options_go`:
/// not after "--" nor in `help NAME`), a command's name mistyped ("did you
/// mean"), or no command at all.
const command& command_named(const std::string& name, bool where_options_go = true);

/// True for text a user meant as a board size: "12", "12x", "-3", " 12",
/// "+12".
bool looks_like_board_size(const std::string& text);

/// `nqueens --help`: the commands, the options and the exit statuses.
std::string usage_text();

/// What `PROGRAM --version` prints: the build's version, the commit built
/// (where known) and the kernels in use (which build runs on each node of a job).
std::string version_text(const std::string& program);

/// `--help --version` or `--version --help` (either spelling of each):
/// help wins, whichever comes first, as `--help` alone would print.
bool asks_help_and_version(const std::vector<std::string>& args);

}  // namespace nqueens::cli
