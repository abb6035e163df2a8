// Hogwild!: the measured collision rate against 1 − q^(T−1), one thread is plain SGD, lost updates only without
// atomics, and it learns.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "dsml/hogwild.h"
#include "test_support.h"

using namespace dsml;

namespace {

struct AtomicAndPlain {
  HogwildResult atomic, plain;
};

// The same run (same supports, same schedule) with atomic writes and with plain ones.
AtomicAndPlain atomic_and_plain(int threads, int features, double sparsity, int updates) {
  HogwildConfig c{threads, features, sparsity, updates};
  AtomicAndPlain out;
  out.atomic = simulate_hogwild(c);
  c.atomic = false;
  out.plain = simulate_hogwild(c);
  return out;
}

}  // namespace

TEST(Hogwild, ClosedFormCollisionProbability) {
  // k = 1: 1 − (1 − 1/n)^(T−1).
  EXPECT_DOUBLE_EQ(hogwild_collision_probability(4, 100, 1), 1 - std::pow(0.99, 3));
  // k = 2, n = 4: q = C(2,2)/C(4,2) = 1/6.
  EXPECT_DOUBLE_EQ(hogwild_collision_probability(2, 4, 2), 1 - 1.0 / 6);
  EXPECT_EQ(hogwild_collision_probability(3, 10, 6), 1.0);  // 2k > n: always collide
  EXPECT_EQ(hogwild_collision_probability(1, 10, 6), 0.0);  // one thread never does
  EXPECT_EQ(hogwild_support(1000, 0.01), 10);
  EXPECT_EQ(hogwild_support(1000, 1e-9), 1);
}

// Each wave's T updates share a model snapshot; the collision indicator of an update is Bernoulli(p). Updates of one
// wave are correlated, so the slack is 5 standard errors of the mean of N updates inflated by √T. N is chosen per
// case so that the slack is at most p/2: at sparsity 0.001 (one feature of 1 000) p is 1e-3 for two threads, and
// 16 000 updates would give a slack of 1.8e-3 > p, so a simulator that never collides would pass.
TEST(Hogwild, MeasuredCollisionRateMatchesThePrediction) {
  for (int threads : {2, 4, 16}) {
    for (double sparsity : {0.001, 0.01, 0.05}) {
      HogwildConfig c;
      c.threads = threads;
      c.features = 1000;
      c.sparsity = sparsity;
      const double p = hogwild_collision_probability(threads, c.features, hogwild_support(c.features, sparsity));
      // 5·√(p(1 − p)T/N) ≤ p/2  ⇐  N ≥ 100·T/p; whole waves of T.
      const int waves = std::max(16000 / threads, static_cast<int>(std::ceil(100.0 / p)));
      c.updates = waves * threads;
      c.points = 1;
      c.seed = 4;
      const HogwildResult r = simulate_hogwild(c);
      ASSERT_EQ(r.predicted_collision_rate, p);
      const double slack = 5 * std::sqrt(p * (1 - p) / r.updates * threads);
      ASSERT_LE(slack, p / 2) << "the test could not tell a rate of 0 from p";
      EXPECT_NEAR(r.collision_rate, p, slack) << "T = " << threads << ", sparsity = " << sparsity;
    }
  }
}

TEST(Hogwild, OneThreadIsSequentialAndLearns) {
  const auto [atomic, plain] = atomic_and_plain(1, 200, 0.05, 20000);
  EXPECT_EQ(atomic.collision_rate, 0.0);
  EXPECT_EQ(atomic.loss, plain.loss);  // nothing to lose with one thread
  EXPECT_LT(atomic.final_loss, 1e-3 * atomic.loss.front());
}

TEST(Hogwild, OnlyPlainWritesLoseUpdates) {
  const auto [atomic, plain] = atomic_and_plain(16, 100, 0.2, 4000);
  EXPECT_EQ(atomic.lost_writes, 0);
  EXPECT_GT(plain.lost_writes, 1000);
  EXPECT_EQ(atomic.collision_rate, plain.collision_rate);  // same supports, same schedule
}

TEST(Hogwild, BadInputSaysWhat) {
  HogwildConfig c;
  c.sparsity = 0;
  EXPECT_EQ(error_of([&] { simulate_hogwild(c); }),
            "sparsity (the fraction of features an example touches) must be in (0, 1], got 0");
  c = HogwildConfig{};
  c.threads = 0;
  EXPECT_EQ(error_of([&] { simulate_hogwild(c); }), "threads must be in [1, 4096], got 0");
}
