// pipelined_broadcast.cpp — the closed form of the pipelined broadcasts and their best number of segments
// (dsml/collective_cost.h; the schedules are broadcast_pipelined_chain.cpp and broadcast_pipelined_tree.cpp).
//
// With t = α + nβ/k, one segment's time on one link, both run in a·k + c steps of length t:
//   chain  a = 1, c = p − 2    (the first segment needs p − 1 steps, then one arrives per step)
//   tree   a = 2, c = A − 2    (each inner rank sends each segment twice; the last rank starts A·t late)
//   T(k) = (a·k + c)(α + nβ/k) = a·k·α + c·α + a·nβ + c·nβ/k,
// convex in k, least at dT/dk = a·α − c·nβ/k² = 0: k* = √(c·nβ / (a·α)). At k*, T = (√(c·α) + √(a·nβ))².
// (Johnsson & Ho 1989; Thakur, Rabenseifner & Gropp 2005 §4.1; Sanders, Speck & Träff 2009 for the tree.)
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "dsml/collective_cost.h"
#include "dsml/error.h"
#include "dsml/schedule.h"

namespace dsml {

namespace {

int popcount(unsigned x) {
  int bits = 0;
  for (; x; x &= x - 1) ++bits;
  return bits;
}

// A: the latest rank of the heap-ordered binary tree on p ranks, in steps t — depth + right turns
// (broadcast_pipelined_tree.cpp).
int latest_tree_rank(int p) {
  int latest = 0;
  for (int v = 1; v < p; ++v) {
    const unsigned label = static_cast<unsigned>(v) + 1;
    int depth = 0;
    while ((2u << depth) <= label) ++depth;
    latest = std::max(latest, depth + popcount(label) - 1);
  }
  return latest;
}

double steps_for(const PipelineShape& shape, double k) { return shape.per_segment * k + shape.startup; }

}  // namespace

PipelineShape pipeline_shape(const std::string& algorithm, int ranks) {
  if (ranks < 1) throw Error("ranks must be >= 1, got " + std::to_string(ranks));
  if (algorithm != "pipelined-chain" && algorithm != "pipelined-tree")
    throw Error("no pipelined broadcast \"" + algorithm + "\"; choose one of: pipelined-chain, pipelined-tree");
  if (ranks == 1) return {0.0, 0.0};  // nobody to send to
  if (algorithm == "pipelined-chain" || ranks == 2) return {1.0, ranks - 2.0};
  return {2.0, latest_tree_rank(ranks) - 2.0};
}

CostTerms pipelined_broadcast_time(const std::string& algorithm, int ranks, double bytes, int segments,
                                   const CostModel& model) {
  if (segments < 1) throw Error(algorithm + " needs segments >= 1, got " + std::to_string(segments));
  const PipelineShape shape = pipeline_shape(algorithm, ranks);
  const double steps = steps_for(shape, segments);
  return {steps * model.alpha, steps * bytes / segments * model.beta, 0.0};
}

BestSegments best_segments(const std::string& algorithm, int ranks, double bytes, const CostModel& model) {
  require_non_negative("bytes", bytes);
  validate(model);
  const PipelineShape shape = pipeline_shape(algorithm, ranks);
  const int cap = std::max(1, static_cast<int>(kMaxPipelineSegmentsTimesRanks / ranks));
  const double pull = shape.startup * bytes * model.beta;  // c·nβ: what more segments save
  BestSegments best;
  if (pull <= 0.0 || shape.per_segment == 0.0) {
    best.optimum = 1.0;
  } else if (model.alpha == 0.0) {
    best.optimum = std::numeric_limits<double>::infinity();
  } else {
    best.optimum = std::sqrt(pull / (shape.per_segment * model.alpha));
  }
  const double below = std::clamp(std::floor(best.optimum), 1.0, static_cast<double>(cap));
  const double above = std::clamp(std::ceil(best.optimum), 1.0, static_cast<double>(cap));
  const auto time = [&](double k) { return pipelined_broadcast_time(algorithm, ranks, bytes, static_cast<int>(k), model).total(); };
  best.segments = static_cast<int>(time(above) < time(below) ? above : below);
  best.seconds = time(best.segments);
  return best;
}

}  // namespace dsml
