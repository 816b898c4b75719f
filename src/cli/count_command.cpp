#include <iostream>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "nqueens/count.hpp"

namespace nqueens::cli {

int run_count(const std::vector<std::string>& args) {
  cxxopts::Options options("nqueens count", "Count every solution of the n-queens problem on an N x N board.");
  options.custom_help("N [options]");
  options.positional_help("");
  options.add_options()
      ("t,threads", "Worker threads (default: all hardware threads)", cxxopts::value<std::string>())
      ("e,engine", engine_help(), cxxopts::value<std::string>()->default_value("symmetric"))
      ("split-depth", "Leading rows fixed per subproblem (default: automatic)", cxxopts::value<std::string>())
      ("json", "Print one JSON object instead of text")
      ("h,help", "Show this help")
      ("n", "Board size", cxxopts::value<std::vector<std::string>>());
  options.parse_positional({"n"});
  const auto result =
      parse_command_line(options, args, {"-t", "--threads", "-e", "--engine", "--split-depth"}, true);
  if (result.count("help")) {
    std::cout << options.help() << "\nN is a board size from 1 to " << max_board_size << ".\n";
    return 0;
  }

  const int n = parse_board_size(single_positional(result, "n", "board size N (1 to 32)"));
  count_options opts;
  opts.kind = parse_engine_option(result["engine"].as<std::string>());
  if (result.count("threads")) opts.threads = parse_threads(result["threads"].as<std::string>());
  if (result.count("split-depth")) {
    opts.split_depth = static_cast<int>(
        parse_integer(result["split-depth"].as<std::string>(), "--split-depth", 1, max_split_depth));
  }

  const count_result r = count(n, opts);
  if (result.count("json")) {
    std::cout << count_json(r) << '\n';
  } else {
    std::cout << "Q(" << r.n << ") = " << to_string(r.total) << "  "
              << describe(r.check.total, r.check.published_total, "A000170") << '\n';
    if (r.unique) {
      std::cout << "unique = " << to_string(*r.unique) << "  "
                << describe(r.check.unique, r.check.published_unique, "A002562") << '\n';
    }
    std::cout << "  engine " << to_string(r.kind) << ", " << r.threads << (r.threads == 1 ? " thread" : " threads")
              << ", " << r.subproblems << " subproblems (split depth " << r.split_depth << "), "
              << format_seconds(r.seconds) << '\n';
  }
  return r.check.ok() ? 0 : 1;
}

}  // namespace nqueens::cli
