// dsml/collective_cost.h — what a collective costs on paper: closed forms, lower bounds, and NCCL's bandwidths.
//
// Closed forms in the α–β–γ model (Thakur, Rabenseifner & Gropp 2005): p ranks, n bytes, α s per message,
// β s per byte sent, γ s per byte reduced, on a network where every rank can send one message and receive one
// message at a time (the single-port switch of simulator.h). For the byte count n of each collective see
// make_schedule (schedule.h): the vector (broadcast, reduce, all-reduce), the gathered total (all-gather), each
// rank's input (reduce-scatter), what each rank sends (all-to-all).
//
//   broadcast   linear (p − 1)(α + nβ)            binomial-tree ⌈log₂p⌉(α + nβ)
//               scatter-allgather (⌈log₂p⌉ + p − 1)α + 2((p − 1)/p)nβ
//               pipelined-chain, k segments (k + p − 2)(α + nβ/k)
//               pipelined-tree, k segments (2k + A − 2)(α + nβ/k), p ≥ 3; A the binary tree's latest rank
//                                             (broadcast_pipelined_tree.cpp; A = 2·depth for a full tree)
//   reduce      linear (p − 1)(α + nβ + nγ)       binomial-tree ⌈log₂p⌉(α + nβ + nγ)
//   all-reduce  naive 2(p − 1)(α + nβ) + (p − 1)nγ
//               ring 2(p − 1)α + 2((p − 1)/p)nβ + ((p − 1)/p)nγ
//               recursive-doubling log₂p(α + nβ + nγ)
//               rabenseifner 2log₂p·α + 2((p − 1)/p)nβ + ((p − 1)/p)nγ
//               hierarchical (d devices per node, m = p/d nodes) 2(d − 1)α + 2((d − 1)/d)nβ + ((d − 1)/d)nγ
//                                             + 2(m − 1)α + 2((m − 1)/m)(n/d)β + ((m − 1)/m)(n/d)γ
//   all-gather  ring (p − 1)α + ((p − 1)/p)nβ     recursive-doubling log₂p·α + ((p − 1)/p)nβ
//               bruck ⌈log₂p⌉α + ((p − 1)/p)nβ
//   reduce-scatter  ring, pairwise (p − 1)α + ((p − 1)/p)n(β + γ)   recursive-halving log₂p·α + ((p − 1)/p)n(β + γ)
//   all-to-all  pairwise (p − 1)α + ((p − 1)/p)nβ
//
// When the simulator (dsml::simulate over to_programs) reproduces them exactly — n a multiple of 4p:
//   any p: broadcast linear, binomial-tree, scatter-allgather and both pipelined (n a multiple of 4k), all-gather ring, bruck and
//          recursive-doubling (with the fold formula below), reduce-scatter ring and pairwise, all-reduce ring,
//          hierarchical and recursive-doubling (fold formula below), all-to-all pairwise;
//   p a power of two: rabenseifner, reduce-scatter recursive-halving, reduce binomial-tree (for other p its
//          unbalanced tree beats ⌈log₂p⌉ full steps);
//   p = 2 only: reduce linear and all-reduce naive. The paper charges the root's p − 1 reductions one after
//          another; in the simulator the root adds message k while message k + 1 is on the wire, so the reduce
//          takes max((p − 1)(α + nβ) + nγ, (α + nβ) + (p − 1)nγ) — never more than the formula.
// For p not a power of two the power-of-two algorithms fold (Thakur et al. §4, power_of_two_fold.cpp): with
// p = p' + r, p' = 2^⌊log₂p⌋, L = ⌊log₂p⌋, c = n/p, closed_form_time counts the fold, the core and the unfold
// step by step, each step as long as its largest message. Core members 0 … r − 1 carry two ranks' chunks, so
// the core's step with blocks of 2^k parts moves up to 2^k + min(2^k, r) chunks: D = (p' − 1) + Σ_k min(2^k, r).
//   all-reduce recursive-doubling   (L + 2)(α + nβ) + (L + 1)nγ                               (exact)
//   all-gather recursive-doubling   (L + 2)α + (1 + D + p − 1)cβ                              (exact)
//   reduce-scatter recursive-halving (L + 2)α + (n + (D + 1)c)β + (n + Dc)γ     (estimate: the simulator
//                                    overlaps the fold's reduction with early ranks' messages, up to ≈ 22% less)
//   all-reduce rabenseifner        (its formula on p') + 2(α + nβ) + nγ          (estimate: early ranks' messages
//                                    contend for the folded ranks' links, up to ≈ 15% more)
// Lower bounds (Chan, Heimlich, Purkayastha & van de Geijn 2007), each term on its own:
//   latency ⌈log₂p⌉α (data must reach p ranks, doubling at best);
//   bandwidth all-reduce 2((p − 1)/p)nβ; all-gather, reduce-scatter, all-to-all ((p − 1)/p)nβ;
//             broadcast, reduce nβ;
//   reduction ((p − 1)/p)nγ for reduce, all-reduce, reduce-scatter.
// No algorithm meets all three at once; their sum is a floor every algorithm's time stays above.
//
// NCCL-style bandwidths (nccl-tests, PERFORMANCE.md): algbw = n / t; busbw = algbw × factor, the factor making
// busbw comparable with the link bandwidth whatever p: all-reduce 2(p − 1)/p; all-gather, reduce-scatter,
// all-to-all (p − 1)/p; broadcast, reduce 1.
#pragma once

#include <string>

#include "dsml/cost_model.h"

namespace dsml {

struct CostTerms {
  double latency = 0.0;    // the α terms, s
  double bandwidth = 0.0;  // the β terms, s
  double reduction = 0.0;  // the γ terms, s
  double total() const { return latency + bandwidth + reduction; }
};

// Throws dsml::Error on unknown names (same names as make_schedule), ranks < 1, bytes < 0 or not finite, a bad
// model (validate in cost_model.h), or, for hierarchical, devices_per_node not dividing ranks.
// `segments` (k) is used by the pipelined broadcasts only, 0 meaning p as in make_schedule.
CostTerms closed_form_time(const std::string& collective, const std::string& algorithm, int ranks, double bytes,
                           const CostModel& model, int devices_per_node = 0, int segments = 0);

// The hierarchical all-reduce on Topology::hierarchical(nodes, per_node, intra, inter) — one NIC per node, shared
// by the per_node inter-node rings (two_level_cost.cpp): with d = per_node, m = nodes, T = α_i + α_e + max(β_i, β_e)·n/(dm),
//   2(d − 1)(α_i + (n/d)β_i) + 2(m − 1)·d·T + ((d − 1)/d)nγ + ((m − 1)/m)(n/d)γ       (γ = intra.gamma)
// Exact in the simulator for γ = 0 and n a multiple of 4p; an upper bound for γ > 0. Throws dsml::Error on
// nodes or per_node < 1, bytes < 0, or an invalid model.
CostTerms hierarchical_allreduce_two_level(int nodes, int per_node, double bytes, const CostModel& intra,
                                           const CostModel& inter);

// A pipelined broadcast ("pipelined-chain" or "pipelined-tree") costs T(k) = (a·k + c)(α + nβ/k): a segments'
// worth of sends per step on the busiest rank (chain 1; tree 2, an inner rank sends each segment twice) and
// c further steps of start-up (chain p − 2; tree A − 2). pipelined_broadcast.cpp.
struct PipelineShape {
  double per_segment = 1.0;  // a
  double startup = 0.0;      // c
};
PipelineShape pipeline_shape(const std::string& algorithm, int ranks);
// T(k) for k = segments ≥ 1, split into its α and β terms.
CostTerms pipelined_broadcast_time(const std::string& algorithm, int ranks, double bytes, int segments,
                                   const CostModel& model);

// The whole number of segments k ≥ 1 with the least T(k) — the better of ⌊k*⌋ and ⌈k*⌉ for the real optimum
// k* = √(c·nβ / (a·α)) (chain: √((p − 2)nβ/α)) — capped at what make_schedule accepts
// (kMaxPipelineSegmentsTimesRanks / p). k = 1 when c ≤ 0 or n = 0 (nothing to overlap); the cap when α = 0.
struct BestSegments {
  int segments = 1;       // k
  double optimum = 1.0;   // k*, real-valued (∞ when α = 0 and c·nβ > 0)
  double seconds = 0.0;   // T(k)
};
BestSegments best_segments(const std::string& algorithm, int ranks, double bytes, const CostModel& model);

CostTerms lower_bound_time(const std::string& collective, int ranks, double bytes, const CostModel& model);

// n / t in bytes per second. bytes ≥ 0, seconds > 0.
double algbw(double bytes, double seconds);
// The factor above; 1 for broadcast and reduce, 0 for p = 1 otherwise.
double busbw_factor(const std::string& collective, int ranks);
// algbw(bytes, seconds) × busbw_factor(collective, ranks), bytes per second.
double busbw(const std::string& collective, int ranks, double bytes, double seconds);

}  // namespace dsml
