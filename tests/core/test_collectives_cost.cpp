// Closed forms against the simulator: dsml::simulate over to_programs(make_schedule(...)) on the single-port
// switch reproduces Thakur, Rabenseifner & Gropp's α–β–γ formulas exactly where they hold; no algorithm beats
// the lower bounds of Chan et al.; NCCL's algbw and busbw.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "dsml/collective_cost.h"
#include "dsml/error.h"
#include "dsml/schedule.h"
#include "dsml/simulator.h"

namespace {

using dsml::AlgorithmName;
using dsml::CostModel;

// α, β and γ all non-zero and of comparable weight at these sizes, so a wrong count in any term shows.
const CostModel kModel{2e-6, 1e-9, 2.5e-10};  // 2 µs, 1 GB/s, 4 GB/s of reduction

double simulated(const std::string& collective, const std::string& algorithm, int p, double bytes, int root = 0,
                 int devices_per_node = 0) {
  const dsml::Schedule s = dsml::make_schedule(collective, algorithm, p, bytes, root, devices_per_node);
  return dsml::simulate(dsml::Network{p, kModel}, dsml::to_programs(s, kModel.gamma)).makespan;
}

double formula(const std::string& collective, const std::string& algorithm, int p, double bytes,
               int devices_per_node = 0) {
  return dsml::closed_form_time(collective, algorithm, p, bytes, kModel, devices_per_node).total();
}

void expect_relative(double got, double want, const std::string& what) {
  EXPECT_NEAR(got, want, 1e-9 * std::abs(want)) << what;
}

std::string label(const AlgorithmName& a, int p, double bytes, int d = 0) {
  return a.collective + " " + a.algorithm + " p=" + std::to_string(p) + " bytes=" + std::to_string(bytes) +
         (d ? " devices_per_node=" + std::to_string(d) : "");
}

std::vector<int> divisors(int p) {
  std::vector<int> d;
  for (int k = 1; k <= p; ++k)
    if (p % k == 0) d.push_back(k);
  return d;
}

// Chunk-divisible sizes: 4·p·k bytes gives every rank whole, equal chunks.
const double kMultiples[] = {1, 25, 1000};

bool exact_for_any_p(const AlgorithmName& a) {
  const std::string n = a.collective + " " + a.algorithm;
  return n != "reduce linear" && n != "all-reduce naive" && n != "reduce binomial-tree" &&
         n != "all-reduce rabenseifner" && n != "reduce-scatter recursive-halving";
}

TEST(ClosedForm, SimulatorMatchesEveryFormulaForPowersOfTwo) {
  for (const AlgorithmName& a : dsml::list_algorithms()) {
    if (a.algorithm == "linear" && a.collective == "reduce") continue;  // p = 2 only: below
    if (a.algorithm == "naive") continue;
    for (int p : {2, 4, 8, 16})
      for (double k : kMultiples) {
        const double bytes = 4.0 * p * k;
        const std::vector<int> nodes = a.algorithm == "hierarchical" ? divisors(p) : std::vector<int>{0};
        for (int d : nodes)
          expect_relative(simulated(a.collective, a.algorithm, p, bytes, p - 1, d),
                          formula(a.collective, a.algorithm, p, bytes, d), label(a, p, bytes, d));
      }
  }
}

TEST(ClosedForm, SimulatorMatchesForAnyRankCountWhereTheFormulaHolds) {
  for (const AlgorithmName& a : dsml::list_algorithms()) {
    if (!exact_for_any_p(a)) continue;
    for (int p : {1, 3, 5, 6, 7, 12, 13})
      for (double k : kMultiples) {
        const double bytes = 4.0 * p * k;
        const std::vector<int> nodes = a.algorithm == "hierarchical" ? divisors(p) : std::vector<int>{0};
        for (int d : nodes)
          expect_relative(simulated(a.collective, a.algorithm, p, bytes, p / 2, d),
                          formula(a.collective, a.algorithm, p, bytes, d), label(a, p, bytes, d));
      }
  }
}

// The paper charges the root's reductions one after another; the simulator overlaps each with the next
// transfer. Equal for p = 2; otherwise the simulator follows max((p − 1)T + nγ, T + (p − 1)nγ), T = α + nβ.
TEST(ClosedForm, LinearReduceOverlapsReductionsWithTransfers) {
  for (int p : {2, 3, 4, 7, 16})
    for (double bytes : {400.0, 40000.0}) {
      const double T = kModel.alpha + bytes * kModel.beta;
      const double reduce = bytes * kModel.gamma;
      const double phase1 = std::max((p - 1) * T + reduce, T + (p - 1) * reduce);
      expect_relative(simulated("reduce", "linear", p, bytes, p - 1), phase1, "reduce linear p=" + std::to_string(p));
      expect_relative(simulated("all-reduce", "naive", p, bytes), phase1 + (p - 1) * T,
                      "all-reduce naive p=" + std::to_string(p));
      EXPECT_LE(phase1, formula("reduce", "linear", p, bytes) * (1 + 1e-12));
      if (p == 2) {
        expect_relative(simulated("reduce", "linear", p, bytes), formula("reduce", "linear", p, bytes), "p=2");
        expect_relative(simulated("all-reduce", "naive", p, bytes), formula("all-reduce", "naive", p, bytes), "p=2");
      }
    }
  // A slow reduction (γn > α + nβ) makes the root's additions the bottleneck instead.
  const CostModel slow{1e-6, 1e-9, 1e-8};
  const dsml::Schedule s = dsml::make_schedule("reduce", "linear", 5, 4000);
  const double T = slow.alpha + 4000 * slow.beta;
  expect_relative(dsml::simulate(dsml::Network{5, slow}, dsml::to_programs(s, slow.gamma)).makespan,
                  T + 4 * 4000 * slow.gamma, "slow reduction");
}

// For p not a power of two the folded algorithms' formulas are step-by-step estimates (collective_cost.h). At p = 3
// (p' = 2: rank 0 folds onto rank 1, which then pairs with rank 2; c = n/3) the simulator's time follows by hand,
// T(x) = α + xβ, each rank sending one message and receiving one at a time:
//   reduce binomial-tree (no fold): ranks 1 and 2 both send to the root; the root adds the first vector while the
//     second arrives: 2T(n) + nγ (the formula charges ⌈log₂3⌉ = 2 full steps, 2T(n) + 2nγ).
//   reduce-scatter recursive-halving: the fold's T(n) into rank 1 holds up rank 2's 2c bytes (chunks 0 and 1) to
//     rank 1, which adds them and unfolds chunk 0 to rank 0: T(n) + T(2c) + 2cγ + T(c).
//   all-reduce rabenseifner: fold T(n) + nγ; rank 1's half T(n/2) to rank 2, added, (n/2)γ; rank 2's reduced half
//     back T(n/2); unfold T(n): 2T(n) + nγ + 2T(n/2) + (n/2)γ — here equal to the formula.
TEST(ClosedForm, FoldedAlgorithmsOnThreeRanksByHand) {
  for (double n : {1200.0, 120000.0}) {
    const auto T = [](double x) { return kModel.alpha + x * kModel.beta; };
    const double g = kModel.gamma, c = n / 3;
    expect_relative(simulated("reduce", "binomial-tree", 3, n), 2 * T(n) + n * g, "reduce binomial-tree p=3");
    expect_relative(simulated("reduce-scatter", "recursive-halving", 3, n), T(n) + T(2 * c) + 2 * c * g + T(c),
                    "reduce-scatter recursive-halving p=3");
    expect_relative(simulated("all-reduce", "rabenseifner", 3, n), 2 * T(n) + n * g + 2 * T(n / 2) + n / 2 * g,
                    "all-reduce rabenseifner p=3");
  }
}

// For other p, two one-sided facts: the binomial reduce's formula charges ⌈log₂p⌉ full steps, which the unbalanced
// tree never exceeds; rabenseifner's counts each fold, core and unfold step without contention, which can only add.
TEST(ClosedForm, FoldedFormulasBoundTheSimulatorFromOneSide) {
  for (int p : {5, 6, 7, 12, 13})
    for (double k : kMultiples) {
      const double bytes = 4.0 * p * k;
      EXPECT_LE(simulated("reduce", "binomial-tree", p, bytes), formula("reduce", "binomial-tree", p, bytes) * (1 + 1e-12))
          << "p=" << p << " bytes=" << bytes;
      EXPECT_GE(simulated("all-reduce", "rabenseifner", p, bytes), formula("all-reduce", "rabenseifner", p, bytes) * (1 - 1e-12))
          << "p=" << p << " bytes=" << bytes;
    }
}

TEST(ClosedForm, PublishedFormsByHand) {
  const double a = kModel.alpha, b = kModel.beta, g = kModel.gamma, n = 1e6;
  const dsml::CostTerms ring = dsml::closed_form_time("all-reduce", "ring", 8, n, kModel);
  EXPECT_DOUBLE_EQ(ring.latency, 14 * a);
  EXPECT_DOUBLE_EQ(ring.bandwidth, 2 * 7.0 / 8 * n * b);
  EXPECT_DOUBLE_EQ(ring.reduction, 7.0 / 8 * n * g);
  EXPECT_DOUBLE_EQ(formula("all-reduce", "recursive-doubling", 8, n), 3 * (a + n * b + n * g));
  EXPECT_DOUBLE_EQ(formula("all-reduce", "rabenseifner", 8, n), 6 * a + 2 * 7.0 / 8 * n * b + 7.0 / 8 * n * g);
  EXPECT_DOUBLE_EQ(formula("broadcast", "binomial-tree", 5, n), 3 * (a + n * b));  // ⌈log₂ 5⌉ = 3
  EXPECT_DOUBLE_EQ(formula("broadcast", "scatter-allgather", 8, n), 10 * a + 2 * 7.0 / 8 * n * b);
  EXPECT_DOUBLE_EQ(formula("all-gather", "bruck", 5, n), 3 * a + 4.0 / 5 * n * b);
  EXPECT_DOUBLE_EQ(formula("reduce-scatter", "pairwise", 4, n), 3 * a + 3.0 / 4 * n * (b + g));
  EXPECT_DOUBLE_EQ(formula("all-to-all", "pairwise", 4, n), 3 * a + 3.0 / 4 * n * b);
  // Hierarchical with d = 1 or d = p is the plain ring.
  EXPECT_DOUBLE_EQ(formula("all-reduce", "hierarchical", 8, n, 1), ring.total());
  EXPECT_DOUBLE_EQ(formula("all-reduce", "hierarchical", 8, n, 8), ring.total());
  for (const AlgorithmName& x : dsml::list_algorithms())
    EXPECT_EQ(formula(x.collective, x.algorithm, 1, n, 1), 0.0) << x.algorithm << ": one rank costs nothing";
}

TEST(LowerBound, NoAlgorithmBeatsIt) {
  for (const AlgorithmName& a : dsml::list_algorithms())
    for (int p : {1, 2, 3, 4, 5, 7, 8, 13, 16})
      for (double bytes : {0.0, 4.0, 4.0 * p * 3 + 8, 4096.0, 4.0 * p * 1000}) {
        const std::vector<int> nodes = a.algorithm == "hierarchical" ? divisors(p) : std::vector<int>{0};
        for (int d : nodes) {
          const double bound = dsml::lower_bound_time(a.collective, p, bytes, kModel).total();
          const double sim = simulated(a.collective, a.algorithm, p, bytes, 0, d);
          EXPECT_GE(sim, bound * (1 - 1e-12)) << label(a, p, bytes, d);
          EXPECT_GE(formula(a.collective, a.algorithm, p, bytes, d), bound * (1 - 1e-12)) << label(a, p, bytes, d);
        }
      }
}

TEST(LowerBound, BandwidthOptimalAlgorithmsMeetTheBetaBound) {
  const double n = 1 << 20;
  for (int p : {2, 4, 8, 16}) {
    const double ar = dsml::lower_bound_time("all-reduce", p, n, kModel).bandwidth;
    EXPECT_DOUBLE_EQ(dsml::closed_form_time("all-reduce", "ring", p, n, kModel).bandwidth, ar);
    EXPECT_DOUBLE_EQ(dsml::closed_form_time("all-reduce", "rabenseifner", p, n, kModel).bandwidth, ar);
    EXPECT_DOUBLE_EQ(dsml::closed_form_time("all-gather", "bruck", p, n, kModel).bandwidth,
                     dsml::lower_bound_time("all-gather", p, n, kModel).bandwidth);
    // Recursive doubling is latency-optimal instead.
    EXPECT_DOUBLE_EQ(dsml::closed_form_time("all-reduce", "recursive-doubling", p, n, kModel).latency,
                     dsml::lower_bound_time("all-reduce", p, n, kModel).latency);
  }
  const dsml::CostTerms bcast = dsml::lower_bound_time("broadcast", 8, n, kModel);
  EXPECT_DOUBLE_EQ(bcast.latency, 3 * kModel.alpha);
  EXPECT_DOUBLE_EQ(bcast.bandwidth, n * kModel.beta);
  EXPECT_EQ(bcast.reduction, 0.0);
  EXPECT_DOUBLE_EQ(dsml::lower_bound_time("reduce-scatter", 4, n, kModel).reduction, 0.75 * n * kModel.gamma);
}

TEST(Bandwidth, AlgbwAndBusbwFollowNcclTests) {
  EXPECT_DOUBLE_EQ(dsml::algbw(1e9, 0.5), 2e9);
  EXPECT_DOUBLE_EQ(dsml::busbw("all-reduce", 8, 1e9, 1.0), 1e9 * 2 * 7 / 8);
  EXPECT_DOUBLE_EQ(dsml::busbw("all-gather", 8, 1e9, 1.0), 1e9 * 7 / 8);
  EXPECT_DOUBLE_EQ(dsml::busbw("reduce-scatter", 4, 1e9, 2.0), 0.5e9 * 3 / 4);
  EXPECT_DOUBLE_EQ(dsml::busbw("all-to-all", 2, 1e9, 1.0), 0.5e9);
  EXPECT_DOUBLE_EQ(dsml::busbw("broadcast", 64, 1e9, 1.0), 1e9);
  EXPECT_DOUBLE_EQ(dsml::busbw("reduce", 64, 1e9, 1.0), 1e9);
  EXPECT_EQ(dsml::busbw_factor("all-reduce", 1), 0.0);
  // The point of busbw: a bandwidth-optimal ring's busbw tends to the link bandwidth 1/β for large n. With the ring's
  // t = 2(p − 1)α + 2((p − 1)/p)n(β + γ/2) written out, busbw = (2(p − 1)/p)·n/t = 1/(pα/n + β + γ/2) exactly:
  // here 1/(3.2e-14 + 1e-9 + 1.25e-10) ≈ 0.889 GB/s, below 1/β by the reduction's γ/2 (and pα/n, negligible).
  const double n = 1e9, p = 16;
  const double t = 2 * (p - 1) * kModel.alpha + 2 * ((p - 1) / p) * n * (kModel.beta + kModel.gamma / 2);
  EXPECT_NEAR(dsml::busbw("all-reduce", 16, n, t), 1 / (p * kModel.alpha / n + kModel.beta + kModel.gamma / 2),
              1e-12 / kModel.beta);
  EXPECT_NEAR(dsml::busbw("all-reduce", 16, n, t) * kModel.beta, 1 / 1.125, 1e-4);
}

TEST(CostErrors, NameWhatIsWrong) {
  const auto message = [](auto call) {
    try {
      call();
    } catch (const dsml::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([] { formula("all-reduce", "tree", 4, 8); }).find("all-reduce has no algorithm \"tree\""),
            std::string::npos);
  EXPECT_NE(message([] { dsml::lower_bound_time("gather", 4, 8, kModel); }).find("unknown collective \"gather\""),
            std::string::npos);
  EXPECT_NE(message([] { formula("all-reduce", "hierarchical", 6, 8, 4); })
                .find("hierarchical needs devices_per_node dividing ranks"),
            std::string::npos);
  EXPECT_THROW(formula("all-reduce", "ring", 0, 8), dsml::Error);
  EXPECT_THROW(formula("all-reduce", "ring", 4, -1), dsml::Error);
  EXPECT_THROW(dsml::algbw(1, 0), dsml::Error);
  EXPECT_THROW(dsml::busbw_factor("scatter", 4), dsml::Error);
}

}  // namespace
