// Week 1's scenarios reproduce the closed forms stated in scenarios.h, for many p, n, α, β.
// The simulator adds T(n) once per hop, so the makespan equals the product k·T up to k rounding steps:
// we require 1e-12 relative agreement.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dsml/error.h"
#include "dsml/scenarios.h"
#include "dsml/simulator.h"
#include "test_support.h"

namespace {

struct Link {
  double alpha, beta;
};
const Link kLinks[] = {{1e-6, 1e-9}, {5e-6, 1.0 / 12.5e9}, {1e-6, 1.0 / 100e9}, {50e-6, 1.0 / 1e9}, {0.0, 1e-10}};
const double kSizes[] = {0, 1, 1000, 65536, 1e7};
const int kRanks[] = {2, 3, 5, 8, 64};

double run(const std::vector<dsml::Program>& programs, const Link& link) {
  dsml::Network network;
  network.ranks = static_cast<int>(programs.size());
  network.model.alpha = link.alpha;
  network.model.beta = link.beta;
  return dsml::simulate(network, programs).makespan;
}

void expect_close(double got, double want, const std::string& what) {
  EXPECT_NEAR(got, want, 1e-12 * want) << what;
}

std::string label(const Link& l, int p, double n) {
  return "alpha=" + std::to_string(l.alpha) + " beta=" + std::to_string(l.beta) + " p=" + std::to_string(p) +
         " n=" + std::to_string(n);
}

// check(l, p, n, t) for every link, message size and rank count, t = α + β·n the time of one message.
template <typename Check>
void for_each_link_size_and_ranks(Check check) {
  for (const Link& l : kLinks)
    for (double n : kSizes)
      for (int p : kRanks) check(l, p, n, l.alpha + l.beta * n);
}

TEST(Scenarios, PingPongIsTwoRoundsOfT) {
  for (const Link& l : kLinks)
    for (double n : kSizes)
      for (int rounds : {1, 2, 7, 100}) {
        const double t = l.alpha + l.beta * n;
        expect_close(run(dsml::ping_pong(rounds, n), l), 2 * rounds * t, label(l, 2, n));
      }
}

TEST(Scenarios, TokenRingIsLapsTimesPHops) {
  for_each_link_size_and_ranks([](const Link& l, int p, double n, double t) {
    for (int laps : {1, 3}) expect_close(run(dsml::token_ring(p, n, laps), l), laps * p * t, label(l, p, n));
  });
}

TEST(Scenarios, LinearBroadcastIsPMinusOneMessages) {
  for_each_link_size_and_ranks([](const Link& l, int p, double n, double t) {
    expect_close(run(dsml::linear_broadcast(p, n), l), (p - 1) * t, label(l, p, n));
  });
}

TEST(Scenarios, GatherToRootSerialisesOnTheRoot) {
  for_each_link_size_and_ranks([](const Link& l, int p, double n, double t) {
    expect_close(run(dsml::gather_to_root(p, n), l), (p - 1) * t, label(l, p, n));
  });
}

TEST(Scenarios, ComputeThenExchangeIsOneSuperstep) {
  for_each_link_size_and_ranks([](const Link& l, int p, double n, double t) {
    for (double c : {0.0, 1e-6, 0.25}) expect_close(run(dsml::compute_then_exchange(p, n, c), l), c + t, label(l, p, n));
  });
}

TEST(Scenarios, ZeroCostIsZeroTime) {
  EXPECT_EQ(run(dsml::token_ring(4, 0, 2), Link{0.0, 1e-9}), 0.0);
}

TEST(Scenarios, SingleRankBroadcastAndGatherAreEmpty) {
  EXPECT_EQ(run(dsml::linear_broadcast(1, 1000), kLinks[0]), 0.0);
  EXPECT_EQ(run(dsml::gather_to_root(1, 1000), kLinks[0]), 0.0);
}

TEST(Scenarios, ProgramShapes) {
  const auto ring = dsml::token_ring(4, 10, 2);
  ASSERT_EQ(ring.size(), 4u);
  EXPECT_EQ(ring[0].size(), 4u);
  EXPECT_EQ(ring[0][0].kind, dsml::Step::Kind::kSend);
  EXPECT_EQ(ring[0][0].peer, 1);
  EXPECT_EQ(ring[0][1].peer, 3);  // rank 0 receives from the last rank
  EXPECT_EQ(ring[3][1].peer, 0);  // the last rank sends back to rank 0
  const auto bsp = dsml::compute_then_exchange(3, 10, 1e-3);
  EXPECT_EQ(bsp[0][2].peer, 2);   // receive from the left neighbour
  EXPECT_EQ(bsp[2][1].peer, 0);   // send to the right neighbour
}

TEST(Scenarios, ByName) {
  dsml::ScenarioOptions options;
  options.ranks = 4;
  options.bytes = 1000;
  options.laps = 2;
  for (const std::string& name : dsml::scenario_names()) {
    if (name == "ping-pong") continue;
    EXPECT_EQ(dsml::make_scenario(name, options).size(), 4u) << name;
  }
  EXPECT_EQ(dsml::make_scenario("token-ring", options)[0].size(), 4u);  // two laps
  options.ranks = 2;
  EXPECT_EQ(dsml::make_scenario("ping-pong", options).size(), 2u);
}

TEST(Scenarios, RejectBadParameters) {
  expect_error([] { dsml::token_ring(1, 10); }, "ranks must be a whole number from 2");
  expect_error([] { dsml::token_ring(4, 10, 0); }, "laps");
  expect_error([] { dsml::ping_pong(0, 10); }, "rounds");
  expect_error([] { dsml::linear_broadcast(0, 10); }, "ranks");
  expect_error([] { dsml::gather_to_root(4, -1); }, "bytes must be a finite number >= 0, got -1");
  expect_error([] { dsml::compute_then_exchange(4, 10, -1); }, "compute seconds");
  expect_error([] { dsml::token_ring(1000000, 1, 1000); }, "accepts up to 1e8");
  dsml::ScenarioOptions options;
  EXPECT_NE(error_of([&] { dsml::make_scenario("telepathy", options); })
                .find("unknown scenario \"telepathy\"; expected one of ping-pong, token-ring"),
            std::string::npos);
  options.ranks = 3;
  expect_error([&] { dsml::make_scenario("ping-pong", options); }, "exactly 2 ranks");
}

}  // namespace
