#include "cli/count_report.hpp"

#include <algorithm>
#include <cmath>

#include "cli/io/shard_file.hpp"
#include "cli/message_text.hpp"
#include "cli/number_text.hpp"
#include "cli/output.hpp"
#include "nqueens/device_work.hpp"
#include "nqueens/engine.hpp"

namespace nqueens::cli {

std::string describe_ranks(const std::vector<int>& rank_threads) {
  const std::size_t ranks = rank_threads.size();
  if (std::all_of(rank_threads.begin(), rank_threads.end(), [&](int t) { return t == rank_threads.front(); })) {
    return counted(ranks, "rank") + " x " + counted(static_cast<std::size_t>(rank_threads.front()), "thread");
  }
  std::string sum;
  std::size_t total = 0;  // a rank's threads are 1..1024, its ranks unbounded: int could pass 2^31
  for (const int t : rank_threads) {
    sum += (sum.empty() ? "" : " + ") + std::to_string(t);
    total += static_cast<std::size_t>(t);
  }
  return counted(ranks, "rank") + ", " + counted(total, "thread") + " (" + sum + ")";
}

std::string ranks_named(const std::vector<std::size_t>& ranks) {
  std::string text = ranks.size() == 1 ? "rank " : "ranks ";
  for (std::size_t k = 0; k < ranks.size();) {
    std::size_t end = k;
    while (end + 1 < ranks.size() && ranks[end + 1] == ranks[end] + 1) ++end;
    if (k > 0) text += ", ";
    text += std::to_string(ranks[k]);
    if (end > k) {  // appended: GCC 12 misreads "-" + string (-Wrestrict)
      text += '-';
      text += std::to_string(ranks[end]);
    }
    k = end + 1;
  }
  return text;
}

namespace {

// Each kernel set of `rank_kernels` once, in rank order, with the ranks
// that ran it.
std::vector<std::pair<isa, std::vector<std::size_t>>> kernels_by_rank(const std::vector<isa>& rank_kernels) {
  std::vector<std::pair<isa, std::vector<std::size_t>>> sets;
  for (std::size_t rank = 0; rank < rank_kernels.size(); ++rank) {
    const auto same = std::ranges::find(sets, rank_kernels[rank], &std::pair<isa, std::vector<std::size_t>>::first);
    if (same != sets.end()) {
      same->second.push_back(rank);
    } else {
      sets.emplace_back(rank_kernels[rank], std::vector<std::size_t>{rank});
    }
  }
  return sets;
}

// "GPU 0 (NVIDIA H100 80GB HBM3), GPU 1 (..., shared by 2 processes)".
std::string describe_gpus(const std::vector<gpu_taken>& gpus) {
  std::string text;
  for (const gpu_taken& g : gpus) {
    text += (text.empty() ? "" : ", ") + std::string("GPU ") + std::to_string(g.index) + " (" + one_line(g.name) +
            (g.sharers > 1 ? ", shared by " + std::to_string(g.sharers) + " processes" : std::string()) + ")";
  }
  return text;
}

}  // namespace

namespace {

// "visit 1.234 s, join 0.456 s, ...": the kernels' device times, the
// longest first, those not timed left out.
std::string describe_kernel_times(const device_work& work) {
  std::vector<std::size_t> order;
  for (std::size_t k = 0; k < device_kernel_names.size(); ++k) {
    if (work.kernel_nanoseconds[k] != 0) order.push_back(k);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return work.kernel_nanoseconds[a] > work.kernel_nanoseconds[b];
  });
  std::string text;
  for (const std::size_t k : order) {
    text += (text.empty() ? "" : ", ") + std::string(device_kernel_names[k]) + " " +
            format_seconds(static_cast<double>(work.kernel_nanoseconds[k]) / 1e9);
  }
  return text;
}

// "between 1.2 s, submit 0.3 s, wait 4.5 s of the streams' time".
std::string describe_round_phases(const device_work& work) {
  std::string text;
  for (std::size_t p = 0; p < device_round_phase_names.size(); ++p) {
    text += (p == 0 ? "" : ", ") + std::string(device_round_phase_names[p]) + " " +
            format_seconds(static_cast<double>(work.round_nanoseconds[p]) / 1e9);
  }
  return text + " of the streams' time";
}

}  // namespace

void count_report::write_text(std::ostream& out) const {
  const count_result& r = result_;
  const std::string threads = counted(static_cast<std::size_t>(r.threads), "thread");
  if (!r.shard.whole()) {
    // A line a number, as a whole count's, so that each fits 80 columns.
    out << "shard " << r.shard.index << "/" << r.shard.count << " of Q(" << r.n << "): " << to_string(r.total)
        << " solutions\n"
        << "unchanged by a half turn: " << to_string(r.symmetric_180) << '\n'
        << "unchanged by a quarter turn: " << to_string(r.symmetric_90) << '\n'
        << "  a part of the count: combine every shard's --json output with 'nqueens merge'\n"
        << "  engine " << to_string(r.kind) << ", " << threads << ", " << format_grouped(r.shard_subproblems) << " of "
        << format_grouped(r.subproblems) << " subproblems, " << format_seconds(r.seconds) << '\n';
    out << describe_resumed(r, checkpoint_);
    return;
  }
  out << describe_counts(counts_of(r));
  out << "  engine " << to_string(r.kind) << ", " << threads << ", " << format_grouped(r.subproblems)
      << " subproblems (split depth " << r.split_depth << "), " << format_seconds(r.seconds) << '\n';
  // A line of its own: beside the engine, it took the line past 80 columns.
  if (engine_fitted_to_memory) out << "  the engine chosen to fit --max-memory\n";
  out << describe_resumed(r, checkpoint_);
  if (!rank_threads.empty()) out << "  MPI: " << describe_ranks(rank_threads) << '\n';
  if (const auto sets = kernels_by_rank(rank_kernels); sets.size() > 1) {
    out << "  kernels:";
    for (std::size_t k = 0; k < sets.size(); ++k) {
      out << (k == 0 ? " " : "; ") << to_string(sets[k].first) << " on " << ranks_named(sets[k].second);
    }
    out << '\n';
  }
  if (!gpus.empty()) out << "  on " << describe_gpus(gpus) << '\n';
  for (std::size_t rank = 0; rank < rank_gpus.size(); ++rank) {
    if (!rank_gpus[rank].empty()) out << "  rank " << rank << " on " << describe_gpus(rank_gpus[rank]) << '\n';
  }
  if (r.device.timed()) {  // NQUEENS_GPU_TIMES=1: where the device's time went, and the host's
    out << "  device time: " << describe_kernel_times(r.device) << '\n';
    out << "  host time: checks " << format_seconds(r.phases.checks) << ", planning "
        << format_seconds(r.phases.planning) << ", start " << format_seconds(r.phases.start) << ", counting "
        << format_seconds(r.phases.counting) << ", release " << format_seconds(r.phases.release);
    if (r.device.host_list_nanoseconds != 0) {
      out << "; own quarter lists " << format_seconds(static_cast<double>(r.device.host_list_nanoseconds) / 1e9)
          << " of thread time, " << format_scaled(static_cast<double>(r.device.staged_list_bytes)) << "B staged";
    }
    out << '\n';
    out << "  rounds: " << describe_round_phases(r.device) << '\n';
  }
}

json_object& add_device_work(json_object& o, const device_work& work) {
  json_object phases;
  for (std::size_t p = 0; p < device_round_phase_names.size(); ++p) {
    phases.add(device_round_phase_names[p], static_cast<double>(work.round_nanoseconds[p]) / 1e9);
  }
  return o.add("device_launches", work.launches)
      .add("device_operations", work.operations)
      .add("host_list_seconds", static_cast<double>(work.host_list_nanoseconds) / 1e9)
      .add("staged_list_bytes", work.staged_list_bytes)
      .add_raw("round_phase_seconds", phases.str());
}

json_object count_report::json() const {
  const count_result& r = result_;
  const auto kernel_sets = kernels_by_rank(rank_kernels);
  json_object o;
  add_counts(o, counts_of(r))
      .add_raw("verified", verified_json(r))
      .add("engine", to_string(r.kind))
      .add_raw("isa", kernel_sets.size() > 1 ? "null" : json_string(to_string(r.kernels)))
      .add("threads", r.threads)
      .add("seconds", r.seconds)
      .add("subproblems", r.subproblems)
      .add("split_depth", r.split_depth)
      .add("plan_fingerprint", format_fingerprint(r.plan_fingerprint))
      .add("fitted_to_memory", engine_fitted_to_memory)
      .add("resumed", r.resumed)
      .add("shard", r.shard.index)
      .add("shards", r.shard.count)
      .add("shard_subproblems", r.shard_subproblems)
      .add("shard_digest", format_fingerprint(r.shard_digest))
      .add("checksum", shard_checksum(shard_fields_of(r)));
  // Sums and differences of the clocks' readings, in whole nanoseconds as
  // the clocks give them: their last bits are noise ("0.0025863490000000004").
  const auto nanoseconds = [](double seconds) { return std::round(seconds * 1e9) / 1e9; };
  // Under MPI the ranks' CPU time is their own: not known here.
  if (rank_threads.empty()) o.add("cpu_seconds", nanoseconds(r.cpu_seconds));
  json_object phases;
  phases.add("checks", nanoseconds(r.phases.checks))
      .add("planning", nanoseconds(r.phases.planning))
      .add("start", nanoseconds(r.phases.start))
      .add("counting", nanoseconds(r.phases.counting))
      .add("release", nanoseconds(r.phases.release));
  o.add_raw("host_phase_seconds", phases.str());
  if (counts_on_gpus(r.kind)) {  // what the device was asked, per subproblem counted here a fraction of an operation
    add_device_work(o, r.device);
    if (r.device.timed()) {  // NQUEENS_GPU_TIMES=1
      json_object kernels;
      for (std::size_t k = 0; k < device_kernel_names.size(); ++k) {
        kernels.add(device_kernel_names[k], static_cast<double>(r.device.kernel_nanoseconds[k]) / 1e9);
      }
      o.add_raw("device_kernel_seconds", kernels.str());
    } else {
      o.add_raw("device_kernel_seconds", "null");
    }
  }
  if (!gpus.empty() || !rank_gpus.empty()) {
    std::string list;
    const auto add_gpu = [&list](json_object entry, const gpu_taken& g) {
      list += list.empty() ? "[" : ",";
      list += entry.add("index", g.index).add("uuid", g.uuid).add("name", g.name).add("sharers", g.sharers).str();
    };
    for (const gpu_taken& g : gpus) add_gpu(json_object(), g);
    for (std::size_t rank = 0; rank < rank_gpus.size(); ++rank) {
      for (const gpu_taken& g : rank_gpus[rank]) add_gpu(json_object().add("rank", rank), g);
    }
    o.add_raw("gpus", (list.empty() ? "[" : list) + "]");
  }
  if (!rank_threads.empty()) {  // nqueens-mpi: how many ranks ran, with how many threads each
    std::string threads = "[";
    for (const int t : rank_threads) {
      if (threads.size() > 1) threads += ',';
      threads += std::to_string(t);
    }
    threads += ']';
    std::vector<std::string> isas;
    isas.reserve(kernel_sets.size());
    for (const auto& [kernels, ranks] : kernel_sets) isas.emplace_back(to_string(kernels));
    o.add("ranks", rank_threads.size()).add_raw("rank_threads", threads).add_raw("isas", json_array_of(isas));
  }
  return o;
}

}  // namespace nqueens::cli
