// registry.cpp — make_schedule() and list_algorithms(): the one table that maps (collective, algorithm) to its
// generator, and the argument checks every generator can then rely on.
//
// The table lists each collective's algorithms naive first, then by what they optimise, the order a lesson
// introduces them. `per_rank_slots` marks generators whose schedules grow as p² (every rank handles p chunks):
// they are capped at kMaxRanksQuadratic ranks so a slider cannot ask for gigabytes of steps. Those with a lazy
// generator (lazy_schedule.h) make no steps in advance: make_lazy_schedule takes them up to kMaxRanksLazy.
// `pipelined` marks the broadcasts cut into k segments: k·(p − 1) messages, so k·p is capped too.
#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include "collectives/generators.h"
#include "dsml/error.h"

namespace dsml {

namespace {

using collectives::Generator;
using collectives::LazyGenerator;

struct Entry {
  const char* collective;
  const char* algorithm;
  Generator generate;
  bool per_rank_slots;  // p chunks (or p² blocks): O(p²) slot entries in total
  LazyGenerator lazy = nullptr;  // the same steps as formulas, if the algorithm has them
  bool pipelined = false;        // takes `segments` (k pieces of n/k bytes)
};

constexpr int kMaxRanks = 65536;
constexpr int kMaxRanksQuadratic = 1024;

const Entry kEntries[] = {
    {"broadcast", "linear", collectives::broadcast_linear, false},
    {"broadcast", "binomial-tree", collectives::broadcast_binomial, false},
    {"broadcast", "scatter-allgather", collectives::broadcast_scatter_allgather, true},
    {"broadcast", "pipelined-chain", collectives::broadcast_pipelined_chain, true, nullptr, true},
    {"broadcast", "pipelined-tree", collectives::broadcast_pipelined_tree, true, nullptr, true},
    {"reduce", "linear", collectives::reduce_linear, false},
    {"reduce", "binomial-tree", collectives::reduce_binomial, false},
    {"all-reduce", "naive", collectives::allreduce_naive, false},
    {"all-reduce", "ring", collectives::allreduce_ring, true, collectives::lazy_allreduce_ring},
    {"all-reduce", "recursive-doubling", collectives::allreduce_recursive_doubling, false},
    {"all-reduce", "rabenseifner", collectives::allreduce_rabenseifner, true},
    {"all-reduce", "hierarchical", collectives::allreduce_hierarchical, true,
     collectives::lazy_allreduce_hierarchical},
    {"all-gather", "ring", collectives::allgather_ring, true, collectives::lazy_allgather_ring},
    {"all-gather", "recursive-doubling", collectives::allgather_recursive_doubling, true},
    {"all-gather", "bruck", collectives::allgather_bruck, true},
    {"reduce-scatter", "ring", collectives::reduce_scatter_ring, true, collectives::lazy_reduce_scatter_ring},
    {"reduce-scatter", "recursive-halving", collectives::reduce_scatter_recursive_halving, true},
    {"reduce-scatter", "pairwise", collectives::reduce_scatter_pairwise, true,
     collectives::lazy_reduce_scatter_pairwise},
    {"all-to-all", "pairwise", collectives::alltoall_pairwise, true},
};

const Entry& find_entry(const std::string& collective, const std::string& algorithm) {
  std::string known, algorithms;  // what exists, for the error message
  const char* previous = "";
  for (const Entry& e : kEntries) {
    if (std::string(e.collective) != previous) known += (*previous ? ", " : "") + std::string(e.collective);
    previous = e.collective;
    if (collective != e.collective) continue;
    if (algorithm == e.algorithm) return e;
    algorithms += (algorithms.empty() ? "" : ", ") + std::string(e.algorithm);
  }
  if (algorithms.empty()) throw Error("unknown collective \"" + collective + "\"; choose one of: " + known);
  throw Error(collective + " has no algorithm \"" + algorithm + "\"; choose one of: " + algorithms);
}

// `lazy`: the schedule will be made step by step (make_lazy_schedule with a lazy generator).
void check_arguments(const Entry& entry, int ranks, double bytes, int root, int devices_per_node, int segments,
                     bool lazy = false) {
  const int max_ranks = lazy ? kMaxRanksLazy : entry.per_rank_slots ? kMaxRanksQuadratic : kMaxRanks;
  const char* why = lazy ? " (its simulation moves O(p²) messages)"
                         : entry.per_rank_slots ? " (its schedule lists O(p²) steps)" : "";
  if (ranks < 1 || ranks > max_ranks)
    throw Error("ranks must be between 1 and " + std::to_string(max_ranks) + " for " + entry.collective + " " +
                entry.algorithm + why + ", got " + std::to_string(ranks));
  constexpr double kMaxBytes = 9007199254740992.0;  // 2^53: every whole number of bytes below is exact
  if (!(std::isfinite(bytes) && bytes >= 0.0 && bytes <= kMaxBytes))
    throw Error("bytes must be a finite number between 0 and 2^53, got " + format_number(bytes));
  if (std::fmod(bytes, collectives::kElementBytes) != 0.0)
    throw Error("bytes must be a whole number of float32 elements (a multiple of 4), got " + format_number(bytes));
  if (root < 0 || root >= ranks)
    throw Error("root must be a rank between 0 and " + std::to_string(ranks - 1) + ", got " + std::to_string(root));
  if (std::string(entry.algorithm) == "hierarchical" && (devices_per_node < 1 || ranks % devices_per_node != 0))
    throw Error("hierarchical needs devices_per_node dividing ranks, got devices_per_node = " +
                std::to_string(devices_per_node) + " for " + std::to_string(ranks) + " ranks");
  if (entry.pipelined && (segments < 1 || static_cast<double>(segments) * ranks > kMaxPipelineSegmentsTimesRanks))
    throw Error(std::string(entry.algorithm) + " needs segments between 1 and " +
                format_number(std::floor(kMaxPipelineSegmentsTimesRanks / ranks)) + " for " + std::to_string(ranks) +
                " ranks (segments × ranks ≤ 2^22), got " + std::to_string(segments));
}

// The segment count a pipelined algorithm runs with: `segments` if given (> 0), else p — one segment per rank,
// a neutral default that needs no α and β (best_segments in collective_cost.h picks k for a network).
int segments_for(const Entry& entry, int ranks, int segments) {
  if (!entry.pipelined) return 1;
  return segments == 0 ? ranks : segments;
}

// The header every generator starts from: names, ranks, root, and the request it is built for.
Schedule header_for(const std::string& collective, const std::string& algorithm, int ranks, double bytes, int root,
                    int devices_per_node, int segments, collectives::Request& request) {
  const bool rooted = collective == "broadcast" || collective == "reduce";
  Schedule schedule;
  schedule.collective = collective;
  schedule.algorithm = algorithm;
  schedule.ranks = ranks;
  schedule.root = rooted ? root : 0;
  request.ranks = ranks;
  request.bytes = bytes;
  request.root = schedule.root;
  request.devices_per_node = devices_per_node;
  request.segments = segments;
  return schedule;
}

}  // namespace

std::vector<AlgorithmName> list_algorithms() {
  std::vector<AlgorithmName> names;
  for (const Entry& e : kEntries) names.push_back({e.collective, e.algorithm});
  return names;
}

Schedule make_schedule(const std::string& collective, const std::string& algorithm, int ranks, double bytes,
                       int root, int devices_per_node, int segments) {
  const Entry& entry = find_entry(collective, algorithm);
  const int k = segments_for(entry, ranks, segments);
  check_arguments(entry, ranks, bytes, root, devices_per_node, k);
  collectives::Request request;
  Schedule schedule = header_for(collective, algorithm, ranks, bytes, root, devices_per_node, k, request);
  schedule.steps.resize(static_cast<std::size_t>(ranks));
  entry.generate(request, schedule);
  return schedule;
}

std::unique_ptr<LazySchedule> make_lazy_schedule(const std::string& collective, const std::string& algorithm,
                                                 int ranks, double bytes, int root, int devices_per_node,
                                                 int segments) {
  const Entry& entry = find_entry(collective, algorithm);
  if (!entry.lazy)
    return read_lazily(make_schedule(collective, algorithm, ranks, bytes, root, devices_per_node, segments));
  check_arguments(entry, ranks, bytes, root, devices_per_node, 1, true);
  collectives::Request request;
  Schedule header = header_for(collective, algorithm, ranks, bytes, root, devices_per_node, 1, request);
  return entry.lazy(request, std::move(header));
}

}  // namespace dsml
