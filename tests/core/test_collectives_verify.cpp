// Every generated schedule computes its collective: for every (collective, algorithm), rank counts that are and
// are not powers of two, sizes that do and do not divide into p chunks, and every root. Plus the single-node
// reference (STYLE rule 7): the ring all-reduce of real vectors equals their plain sum.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "dsml/collective_executor.h"
#include "dsml/schedule.h"

namespace {

using dsml::AlgorithmName;

const int kRanks[] = {1, 2, 3, 4, 5, 7, 8, 13, 16};

std::vector<double> sizes(int p) { return {0.0, 4.0, 4.0 * p * 3 + 8, 4096.0}; }

bool rooted(const std::string& collective) { return collective == "broadcast" || collective == "reduce"; }

std::vector<int> divisors(int p) {
  std::vector<int> d;
  for (int k = 1; k <= p; ++k)
    if (p % k == 0) d.push_back(k);
  return d;
}

// Parameterised by "collective/algorithm", which gtest and ctest print as it is.
class EveryAlgorithm : public ::testing::TestWithParam<std::string> {
 protected:
  AlgorithmName algorithm() const {
    const std::string& name = GetParam();
    const std::size_t slash = name.find('/');
    return {name.substr(0, slash), name.substr(slash + 1)};
  }
};

std::vector<std::string> all_algorithms() {
  std::vector<std::string> names;
  for (const AlgorithmName& a : dsml::list_algorithms()) names.push_back(a.collective + "/" + a.algorithm);
  return names;
}

TEST_P(EveryAlgorithm, VerifiesOnEveryRankCountSizeAndRoot) {
  const AlgorithmName a = algorithm();
  int checked = 0;
  for (int p : kRanks) {
    const std::vector<int> roots = rooted(a.collective) ? std::vector<int>{0, p / 2, p - 1} : std::vector<int>{0};
    const std::vector<int> nodes = a.algorithm == "hierarchical" ? divisors(p) : std::vector<int>{0};
    for (double bytes : sizes(p))
      for (int root : roots)
        for (int d : nodes) {
          const dsml::Schedule s = dsml::make_schedule(a.collective, a.algorithm, p, bytes, root, d);
          const dsml::VerifyResult v = dsml::verify(s);
          EXPECT_TRUE(v.ok) << a.collective << " " << a.algorithm << " p=" << p << " bytes=" << bytes
                            << " root=" << root << " devices_per_node=" << d << ": " << v.message;
          ++checked;
        }
  }
  EXPECT_GE(checked, 36);
}

TEST_P(EveryAlgorithm, SlotsSplitTheDataAsEquallyAsPossible) {
  const AlgorithmName a = algorithm();
  for (int p : kRanks)
    for (double bytes : sizes(p)) {
      const dsml::Schedule s = dsml::make_schedule(a.collective, a.algorithm, p, bytes, 0, 1);
      const double total = std::accumulate(s.slot_bytes.begin(), s.slot_bytes.end(), 0.0);
      // all-to-all: p ranks each send `bytes`; every other collective's slots hold the data once.
      EXPECT_EQ(total, a.collective == "all-to-all" ? p * bytes : bytes) << a.algorithm << " p=" << p;
      for (double b : s.slot_bytes) {
        EXPECT_EQ(std::fmod(b, 4.0), 0.0) << "slots hold whole float32 elements";
        if (a.collective != "all-to-all") EXPECT_LE(std::abs(b - s.slot_bytes[0]), 4.0);
      }
      EXPECT_EQ(s.ranks, p);
      EXPECT_EQ(s.steps.size(), static_cast<std::size_t>(p));
      if (p == 1) {
        EXPECT_TRUE(s.steps[0].empty()) << "one rank needs no messages";
      }
    }
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name)
    if (c == '-' || c == '/') c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Collectives, EveryAlgorithm, ::testing::ValuesIn(all_algorithms()), test_name);

// STYLE rule 7: a distributed algorithm against its single-node reference. Real-valued vectors (not the integer
// test data), summed once in plain rank order: the ring adds in another order, so allow rounding.
TEST(RingAllReduce, EqualsPlainSumOfRealVectors) {
  for (int p : {2, 3, 5, 8}) {
    const double bytes = 4.0 * 37;  // 37 elements: chunks of unequal length
    const dsml::Schedule s = dsml::make_schedule("all-reduce", "ring", p, bytes);
    std::mt19937 rng(1234 + p);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    dsml::Buffers buffers = dsml::initial_buffers(s);
    std::vector<std::vector<double>> gradient(static_cast<std::size_t>(p));  // rank r's whole vector
    for (int r = 0; r < p; ++r)
      for (auto& slot : buffers[static_cast<std::size_t>(r)])
        for (double& x : slot.values) {
          x = uniform(rng);
          gradient[static_cast<std::size_t>(r)].push_back(x);
        }
    std::vector<double> reference(gradient[0].size(), 0.0);
    for (const auto& g : gradient)
      for (std::size_t i = 0; i < g.size(); ++i) reference[i] += g[i];

    const dsml::Buffers out = dsml::execute_on_buffers(s, buffers);
    for (int r = 0; r < p; ++r) {
      std::vector<double> result;
      for (const auto& slot : out[static_cast<std::size_t>(r)]) result.insert(result.end(), slot.values.begin(), slot.values.end());
      ASSERT_EQ(result.size(), reference.size());
      for (std::size_t i = 0; i < result.size(); ++i) EXPECT_NEAR(result[i], reference[i], 1e-12) << "rank " << r;
      // The all-gather copies one reduced chunk to everyone: the replicas agree bit for bit.
      if (r > 0) {
        for (std::size_t sl = 0; sl < out[0].size(); ++sl)
          EXPECT_EQ(out[static_cast<std::size_t>(r)][sl].values, out[0][sl].values) << "rank " << r << " slot " << sl;
      }
    }
  }
}

// Every all-reduce and reduce agrees with the same plain sum (the integer data make the sums exact).
TEST(AllReduce, EveryAlgorithmGivesTheSameSums) {
  const int p = 6;
  const double bytes = 4.0 * 30;
  std::vector<double> first;
  for (const AlgorithmName& a : dsml::list_algorithms()) {
    if (a.collective != "all-reduce") continue;
    const dsml::Buffers out = dsml::execute_on_buffers(dsml::make_schedule("all-reduce", a.algorithm, p, bytes, 0, 3));
    std::vector<double> flat;
    for (const auto& slot : out[static_cast<std::size_t>(p - 1)]) flat.insert(flat.end(), slot.values.begin(), slot.values.end());
    if (first.empty()) first = flat;
    EXPECT_EQ(flat, first) << a.algorithm;
  }
  ASSERT_EQ(first.size(), 30u);
  // Element g of rank q is (q + 1) + (p + 1)·g, so the sum over ranks is p(p + 1)/2 + p(p + 1)·g.
  for (std::size_t g = 0; g < first.size(); ++g) EXPECT_EQ(first[g], 21.0 + 42.0 * static_cast<double>(g));
}

TEST(Verify, SuccessMessageSaysWhatHolds) {
  const dsml::VerifyResult v = dsml::verify(dsml::make_schedule("broadcast", "binomial-tree", 8, 4096, 3));
  EXPECT_TRUE(v.ok);
  EXPECT_EQ(v.message, "broadcast binomial-tree on 8 ranks, 1 slot: every rank holds rank 3's data");
}

}  // namespace
