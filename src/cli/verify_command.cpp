#include <cstdio>
#include <iostream>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/json.hpp"
#include "cli/output.hpp"
#include "cli/shared_options.hpp"
#include "nqueens/count.hpp"
#include "nqueens/known_counts.hpp"

namespace nqueens::cli {
namespace {

// The default range finishes in well under a second on two cores.
constexpr int default_from = 1;
constexpr int default_to = 15;

}  // namespace

int run_verify(const std::vector<std::string>& args) {
  cxxopts::Options options("nqueens verify",
                           "Count Q(n) for every n in a range and check each against the published table.\n"
                           "Exit status 1 when any count differs.");
  options.custom_help("[options]");
  options.add_options()
      ("from", "First board size", cxxopts::value<std::string>()->default_value(std::to_string(default_from)))
      ("to", "Last board size", cxxopts::value<std::string>()->default_value(std::to_string(default_to)))
      ("extra", "", cxxopts::value<std::vector<std::string>>());
  add_shared_options(options, {.threads = worker_threads_help, .engine = std::string(to_string(default_engine)), .json = true});
  options.parse_positional({"extra"});
  const auto result = parse_command_line(options, args, false);
  if (result.count("help")) {
    std::cout << options.help({""}) << "\nBoard sizes with published counts: 1 to " << max_published_board_size
              << ".\n\n" << engines_help();
    return 0;
  }
  if (result.count("extra")) {
    throw usage_error("unexpected argument '" + result["extra"].as<std::vector<std::string>>().front() +
                      "' (verify takes --from and --to)");
  }
  const int from = static_cast<int>(
      parse_integer(result["from"].as<std::string>(), "--from", 1, max_published_board_size));
  const int to = static_cast<int>(
      parse_integer(result["to"].as<std::string>(), "--to", 1, max_published_board_size));
  if (from > to) {
    throw usage_error("--from " + std::to_string(from) + " is greater than --to " + std::to_string(to));
  }
  count_options opts;
  opts.kind = parse_engine_option(result["engine"].as<std::string>());
  if (result.count("threads")) opts.threads = parse_threads(result["threads"].as<std::string>());
  const bool json = result.count("json") != 0;

  const bool unique = counts_unique(opts.kind);
  if (!json) {
    std::printf("%4s %20s %20s", "n", "total", "published");
    if (unique) std::printf(" %18s %18s", "unique", "published");
    std::printf(" %10s  %s\n", "seconds", "status");
    std::fflush(stdout);
  }
  int mismatches = 0;
  double seconds = 0.0;
  int threads = 0;
  isa kernels = isa::portable;
  std::string rows;
  for (int n = from; n <= to; ++n) {
    const count_result r = count(n, opts);
    threads = r.threads;
    kernels = r.kernels;
    seconds += r.seconds;
    const bool ok = r.check.verified(unique);
    mismatches += ok ? 0 : 1;
    if (json) {
      rows += rows.empty() ? "" : ",";
      rows += json_object()
                  .add("n", n)
                  .add("total", r.total)
                  .add("unique", r.unique)
                  .add("published_total", r.check.published_total)
                  .add("published_unique", r.check.published_unique)
                  .add("verified", ok)
                  .add("seconds", r.seconds)
                  .str();
    } else {
      std::printf("%4d %20s %20llu", n, to_string(r.total).c_str(),
                  static_cast<unsigned long long>(*r.check.published_total));
      if (unique) {
        std::printf(" %18s %18llu", to_string(*r.unique).c_str(),
                    static_cast<unsigned long long>(*r.check.published_unique));
      }
      std::printf(" %10.3f  %s\n", r.seconds, ok ? "OK" : "MISMATCH");
      std::fflush(stdout);  // a long range shows each row as it finishes
    }
  }
  const int checked = to - from + 1;
  if (json) {
    std::cout << json_object()
                     .add("from", from)
                     .add("to", to)
                     .add("engine", to_string(opts.kind))
                     .add("isa", to_string(kernels))
                     .add("threads", threads)
                     .add("seconds", seconds)
                     .add("checked", checked)
                     .add("mismatches", mismatches)
                     .add("ok", mismatches == 0)
                     .add_raw("results", "[" + rows + "]")
                     .str()
              << '\n';
  } else if (mismatches == 0) {
    std::printf("all %d counts match the published values (%.3f s)\n", checked, seconds);
  } else {
    std::printf("%d of %d counts DO NOT match the published values\n", mismatches, checked);
  }
  return mismatches == 0 ? 0 : 1;
}

}  // namespace nqueens::cli
