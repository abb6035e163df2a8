// cost_formulas.cpp — the closed forms, lower bounds and NCCL bandwidths of dsml/collective_cost.h, each written
// as the paper writes it (Thakur, Rabenseifner & Gropp 2005; Chan et al. 2007; nccl-tests PERFORMANCE.md), split
// into its α, β and γ terms so a lesson can show which one dominates.
#include <cmath>
#include <string>

#include "dsml/collective_cost.h"
#include "dsml/error.h"
#include "dsml/schedule.h"

namespace dsml {

namespace {

int ceil_log2(int p) {
  int k = 0;
  while ((1 << k) < p) ++k;
  return k;
}

int floor_log2(int p) {
  int k = 0;
  while ((2 << k) <= p) ++k;
  return k;
}

// k message steps of b bytes each, the first `reduced` of them also reducing b bytes.
CostTerms steps(double k, double b, double reduced, const CostModel& m) {
  return {k * m.alpha, k * b * m.beta, reduced * b * m.gamma};
}

CostTerms operator+(CostTerms a, const CostTerms& b) {
  a.latency += b.latency;
  a.bandwidth += b.bandwidth;
  a.reduction += b.reduction;
  return a;
}

// k latencies, with `fraction`·n bytes sent (β) and `reduced_fraction`·n reduced (γ) along the critical path.
CostTerms terms(double k, double fraction, double reduced_fraction, double n, const CostModel& m) {
  return {k * m.alpha, fraction * n * m.beta, reduced_fraction * n * m.gamma};
}

void check(int ranks, double bytes, const CostModel& model) {
  if (ranks < 1) throw Error("ranks must be >= 1, got " + std::to_string(ranks));
  require_non_negative("bytes", bytes);
  validate(model);
}

// Folded recursive doubling / halving on p = p' + r ranks (power_of_two_fold.cpp): the core's members 0 … r − 1
// carry two ranks' chunks, the others one. The core step exchanging blocks of 2^k parts is as slow as its
// largest message, the first block: 2^k + min(2^k, r) chunks. Summed over the log₂p' steps, in chunks of n/p:
//   D = (p' − 1) + Σ_k min(2^k, r).
double doubled_core_chunks(int p) {
  const int core = 1 << floor_log2(p);
  const int extra = p - core;
  double chunks = core - 1.0;
  for (int block = 1; block < core; block *= 2) chunks += block < extra ? block : extra;
  return chunks;
}

bool power_of_two(int p) { return (p & (p - 1)) == 0; }

// The power-of-two families: the paper's formula for p = 2^L, else fold + core + unfold (collective_cost.h).
CostTerms recursive_doubling_allreduce(int p, double n, const CostModel& m) {
  const double L = floor_log2(p);
  return power_of_two(p) ? steps(L, n, L, m) : steps(L + 2, n, L + 1, m);
}

CostTerms rabenseifner(int p, double n, const CostModel& m) {
  const int core = 1 << floor_log2(p);
  const double f = (core - 1.0) / core;
  const CostTerms on_core = terms(2.0 * floor_log2(core), 2 * f, f, n, m);
  return power_of_two(p) ? on_core : on_core + steps(2, n, 1, m);
}

CostTerms recursive_halving(int p, double n, const CostModel& m) {
  const double L = floor_log2(p), f = (p - 1.0) / p, D = doubled_core_chunks(p);
  return power_of_two(p) ? terms(L, f, f, n, m) : terms(L + 2, 1 + (D + 1) / p, 1 + D / p, n, m);
}

CostTerms recursive_doubling_allgather(int p, double n, const CostModel& m) {
  const double L = floor_log2(p), f = (p - 1.0) / p, D = doubled_core_chunks(p);
  return power_of_two(p) ? terms(L, f, 0, n, m) : terms(L + 2, (1 + D + p - 1) / p, 0, n, m);
}

}  // namespace

CostTerms closed_form_time(const std::string& collective, const std::string& algorithm, int ranks, double bytes,
                           const CostModel& model, int devices_per_node, int segments) {
  check(ranks, bytes, model);
  const int p = ranks;
  const double n = bytes;
  const double f = (p - 1.0) / p;
  const CostModel& m = model;
  const std::string name = collective + " " + algorithm;

  if (name == "broadcast linear") return steps(p - 1, n, 0, m);
  if (name == "broadcast binomial-tree") return steps(ceil_log2(p), n, 0, m);
  if (name == "broadcast scatter-allgather") return terms(ceil_log2(p) + p - 1.0, 2 * f, 0, n, m);
  if (name == "broadcast pipelined-chain" || name == "broadcast pipelined-tree")
    return pipelined_broadcast_time(algorithm, p, n, segments == 0 ? p : segments, m);
  if (name == "reduce linear") return steps(p - 1, n, p - 1, m);
  if (name == "reduce binomial-tree") return steps(ceil_log2(p), n, ceil_log2(p), m);
  if (name == "all-reduce naive") return steps(2.0 * (p - 1), n, p - 1, m);
  if (name == "all-reduce ring") return terms(2.0 * (p - 1), 2 * f, f, n, m);
  if (name == "all-reduce recursive-doubling") return recursive_doubling_allreduce(p, n, m);
  if (name == "all-reduce rabenseifner") return rabenseifner(p, n, m);
  if (name == "all-reduce hierarchical") {
    if (devices_per_node < 1 || p % devices_per_node != 0)
      throw Error("hierarchical needs devices_per_node dividing ranks, got devices_per_node = " +
                  std::to_string(devices_per_node) + " for " + std::to_string(p) + " ranks");
    const double d = devices_per_node;
    const double nodes = p / devices_per_node;
    const double fd = (d - 1) / d, fm = (nodes - 1) / nodes;
    return terms(2 * (d - 1), 2 * fd, fd, n, m) + terms(2 * (nodes - 1), 2 * fm, fm, n / d, m);
  }
  if (name == "all-gather ring") return terms(p - 1, f, 0, n, m);
  if (name == "all-gather recursive-doubling") return recursive_doubling_allgather(p, n, m);
  if (name == "all-gather bruck") return terms(ceil_log2(p), f, 0, n, m);
  if (name == "reduce-scatter ring" || name == "reduce-scatter pairwise") return terms(p - 1, f, f, n, m);
  if (name == "reduce-scatter recursive-halving") return recursive_halving(p, n, m);
  if (name == "all-to-all pairwise") return terms(p - 1, f, 0, n, m);

  make_schedule(collective, algorithm, 1, 0, 0, 1);  // throws the registry's "unknown …; choose one of" message
  throw Error("no closed form for " + name);         // a registered algorithm without a formula: a bug here
}

CostTerms lower_bound_time(const std::string& collective, int ranks, double bytes, const CostModel& model) {
  check(ranks, bytes, model);
  const double f = (ranks - 1.0) / ranks;
  const double n = bytes;
  const double latency = ceil_log2(ranks) * model.alpha;
  if (collective == "broadcast") return {latency, ranks > 1 ? n * model.beta : 0.0, 0.0};
  if (collective == "reduce") return {latency, ranks > 1 ? n * model.beta : 0.0, f * n * model.gamma};
  if (collective == "all-reduce") return {latency, 2 * f * n * model.beta, f * n * model.gamma};
  if (collective == "all-gather" || collective == "all-to-all") return {latency, f * n * model.beta, 0.0};
  if (collective == "reduce-scatter") return {latency, f * n * model.beta, f * n * model.gamma};
  make_schedule(collective, "?", 1, 0);  // throws "unknown collective …; choose one of: …"
  throw Error("no lower bound for " + collective);
}

double algbw(double bytes, double seconds) {
  require_non_negative("bytes", bytes);
  require_positive("seconds", seconds);
  return bytes / seconds;
}

double busbw_factor(const std::string& collective, int ranks) {
  if (ranks < 1) throw Error("ranks must be >= 1, got " + std::to_string(ranks));
  const double f = (ranks - 1.0) / ranks;
  if (collective == "all-reduce") return 2 * f;
  if (collective == "all-gather" || collective == "reduce-scatter" || collective == "all-to-all") return f;
  if (collective == "broadcast" || collective == "reduce") return 1.0;
  make_schedule(collective, "?", 1, 0);  // throws "unknown collective …"
  return 0.0;
}

double busbw(const std::string& collective, int ranks, double bytes, double seconds) {
  return algbw(bytes, seconds) * busbw_factor(collective, ranks);
}

}  // namespace dsml
