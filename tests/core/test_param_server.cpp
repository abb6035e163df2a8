// The parameter-server simulator: bsp equals the same protocol written as Programs for dsml::simulate, SSP never
// lets a worker run more than s clocks ahead, backup workers drop the late, and bad input is named.
#include <gtest/gtest.h>

#include <algorithm>

#include "dsml/param_server.h"
#include "dsml/simulator.h"
#include "test_support.h"

using namespace dsml;

namespace {

ParamServerConfig small_config(Consistency regime, int workers, int servers) {
  ParamServerConfig c;
  c.workers = workers;
  c.servers = servers;
  c.consistency = regime;
  c.iterations = 6;
  c.parameters = 1000;
  c.speed.base_seconds = 1e-4;
  return c;
}

Topology star(const ParamServerConfig& c, double alpha = 1e-5, double bandwidth = 1e8) {
  return Topology::fully_connected(c.workers + c.servers, CostModel::from_bandwidth(alpha, bandwidth));
}

}  // namespace

// The bsp protocol is static (every shard waits for every worker), so it can also be written as Programs and run by
// the course's engine: same makespan, same busy time on every link.
TEST(ParamServer, BspEqualsTheProtocolAsPrograms) {
  ParamServerConfig c = small_config(Consistency::bsp, 4, 2);
  c.speed.multipliers = {1, 1, 2, 3};
  c.speed.distribution = SpeedDistribution::lognormal;
  const Topology topology = star(c);
  const ParamServerResult ps = simulate_param_server(topology, c);

  std::vector<Program> programs(static_cast<std::size_t>(c.workers + c.servers));
  for (int r = 0; r < c.iterations; ++r) {
    for (int w = 0; w < c.workers; ++w) {
      programs[w].push_back(Step::compute(iteration_seconds(c.speed, w, r)));
      for (int k = 0; k < c.servers; ++k) programs[w].push_back(Step::send(c.workers + k, shard_bytes(c, k), r));
      for (int k = 0; k < c.servers; ++k) programs[w].push_back(Step::recv(c.workers + k, r));
    }
    for (int k = 0; k < c.servers; ++k) {
      Program& server = programs[c.workers + k];
      for (int w = 0; w < c.workers; ++w) server.push_back(Step::recv(w, r));
      for (int w = 0; w < c.workers; ++w) server.push_back(Step::send(w, shard_bytes(c, k), r));
    }
  }
  const SimResult sim = simulate(topology, programs);
  EXPECT_EQ(ps.makespan, sim.makespan);
  EXPECT_EQ(ps.link_busy, sim.link_busy);
  EXPECT_EQ(ps.busiest_link, sim.busiest_link);
  EXPECT_EQ(ps.messages, static_cast<int>(sim.messages.size()));
  double last_push = 0;  // the last round ends when the last push reaches its shard
  for (const MessageRecord& m : sim.messages)
    if (m.dst >= c.workers) last_push = std::max(last_push, m.arrived);
  EXPECT_EQ(ps.round_end.back(), last_push);
  EXPECT_EQ(static_cast<int>(ps.updates.size()), c.iterations * c.workers * c.servers);
}

TEST(ParamServer, OneAspWorkerIsNeverStale) {
  const ParamServerConfig c = small_config(Consistency::asp, 1, 3);
  const ParamServerResult r = simulate_param_server(star(c), c);
  ASSERT_EQ(r.updates.size(), 18u);
  for (const PsUpdate& u : r.updates) EXPECT_EQ(u.tau, 0);
}

// Equal workers, one shard, free network: all four read version 0, so the first four updates have τ = 0, 1, 2, 3;
// after that each worker reads just after its own update and the other three land before its next one: τ = W − 1
// exactly (the recipe for "training with a fixed staleness τ": asp with τ + 1 equal workers).
TEST(ParamServer, AspStalenessIsTheUpdatesSinceTheRead) {
  ParamServerConfig c = small_config(Consistency::asp, 4, 1);
  const ParamServerResult r = simulate_param_server(star(c, 0.0, 1e30), c);
  ASSERT_EQ(r.updates.size(), 24u);
  for (int i = 0; i < 24; ++i) EXPECT_EQ(r.updates[i].tau, std::min(i, 3));
}

// Ho et al.'s guarantee: when a worker starts clock c, every worker has finished clock c − s − 1 (its clock ≥ c − s).
// Without the bound (asp) the fast worker runs away: the check fails.
int worst_lead(const ParamServerResult& r, int workers) {
  std::vector<int> clock(static_cast<std::size_t>(workers), 0);
  int worst = 0;
  for (const PsOp& op : r.ops) {
    if (op.kind == PsOp::Kind::kApply && op.shard == 0) clock[op.worker] = op.iteration + 1;
    if (op.kind == PsOp::Kind::kCompute)
      worst = std::max(worst, op.iteration - *std::min_element(clock.begin(), clock.end()));
  }
  return worst;
}

TEST(ParamServer, SspKeepsEveryWorkerWithinSClocks) {
  for (int s : {0, 1, 3}) {
    ParamServerConfig c = small_config(Consistency::ssp, 5, 2);
    c.staleness = s;
    c.iterations = 30;
    c.speed.distribution = SpeedDistribution::lognormal;
    c.speed.sigma = 1.0;
    c.speed.multipliers = {1, 1, 1, 2, 4};
    const ParamServerResult r = simulate_param_server(star(c), c);
    EXPECT_LE(worst_lead(r, c.workers), s) << "s = " << s;
    EXPECT_EQ(static_cast<int>(r.updates.size()), 30 * 5 * 2);
  }
  ParamServerConfig c = small_config(Consistency::asp, 5, 2);
  c.iterations = 30;
  c.speed.multipliers = {1, 1, 1, 2, 4};
  EXPECT_GT(worst_lead(simulate_param_server(star(c), c), c.workers), 3);
}

TEST(ParamServer, BackupWorkersDropTheLate) {
  ParamServerConfig c = small_config(Consistency::backup, 6, 2);
  c.backup = 2;
  c.speed.multipliers = {1, 1, 1, 1, 3, 5};
  const auto fast = [](const ParamServerConfig& x) { return star(x, 1e-6, 1e10); };
  const ParamServerResult r = simulate_param_server(fast(c), c);
  EXPECT_EQ(static_cast<int>(r.updates.size()), c.iterations * 4 * 2);  // P = 4 per round per shard
  EXPECT_GT(r.dropped, 0);
  for (const PsUpdate& u : r.updates) EXPECT_LT(u.worker, 4);  // the two slow ones never make the quota
  // b = 0 is bsp.
  ParamServerConfig none = c;
  none.backup = 0;
  ParamServerConfig bsp = none;
  bsp.consistency = Consistency::bsp;
  EXPECT_EQ(simulate_param_server(fast(none), none).makespan, simulate_param_server(fast(bsp), bsp).makespan);
  // Waiting for only the 4 fast workers makes rounds ~1e-4 s, not 5e-4 s.
  EXPECT_LT(r.round_end.back(), simulate_param_server(fast(bsp), bsp).round_end.back() / 3);
}

// With cancel_stragglers the slow workers abandon their work when a round ends; training still replays (no gradient
// is left behind) and a cancelled compute shows as a shorter compute span.
TEST(ParamServer, CancelledStragglersRestartOnTheNewRound) {
  ParamServerConfig c = small_config(Consistency::backup, 6, 2);
  c.backup = 2;
  c.cancel_stragglers = true;
  c.speed.multipliers = {1, 1, 1, 1, 3, 5};
  const ParamServerResult r = simulate_param_server(star(c, 1e-6, 1e10), c);
  EXPECT_EQ(r.dropped, 0);  // nobody pushes late: the slow ones are always cancelled first
  int cancels = 0;
  for (const PsOp& op : r.ops) cancels += op.kind == PsOp::Kind::kCancel;
  EXPECT_GE(cancels, 2 * (c.iterations - 1));
  c.consistency = Consistency::asp;
  c.backup = 0;
  EXPECT_EQ(error_of([&] { validate(c); }),
            "cancel_stragglers applies to the synchronous regimes (bsp, backup), got asp");
}

TEST(ParamServer, TimelineCoversEveryWorker) {
  ParamServerConfig c = small_config(Consistency::ssp, 3, 2);
  c.staleness = 1;
  const ParamServerResult r = simulate_param_server(star(c), c);
  for (int w = 0; w < 3; ++w) {
    double compute = 0;
    for (const PsSpan& s : r.spans)
      if (s.worker == w && s.kind == PsSpan::Kind::kCompute) compute += s.end - s.start;
    EXPECT_NEAR(compute, r.compute_seconds[w], 1e-15);
    EXPECT_NEAR(compute, 6 * 1e-4, 1e-15);
  }
}

TEST(ParamServer, BadInputSaysWhat) {
  ParamServerConfig c = small_config(Consistency::bsp, 4, 2);
  EXPECT_EQ(error_of([&] { simulate_param_server(Topology::fully_connected(5, CostModel{0, 1e-9, 0}), c); }),
            "the parameter server needs a topology of workers + servers = 6 ranks, got 5");
  c.consistency = Consistency::backup;
  c.backup = 4;
  EXPECT_EQ(error_of([&] { validate(c); }), "backup workers b must be in [0, workers − 1] = [0, 3], got 4");
  EXPECT_EQ(error_of([] { parse_consistency("eventual"); }),
            "unknown regime \"eventual\"; choose bsp, asp, ssp or backup");
  c = small_config(Consistency::bsp, 4, 2);
  c.servers = 2000;
  EXPECT_NE(error_of([&] { validate(c); }).find("servers must be a whole number"), std::string::npos);
}

TEST(ParamServer, ShardsSplitTheKeysEvenly) {
  ParamServerConfig c;
  c.parameters = 10;
  c.servers = 3;
  EXPECT_EQ(shard_begin(c, 1), 3);
  EXPECT_EQ(shard_begin(c, 2), 6);
  EXPECT_EQ(shard_begin(c, 3), 10);
  EXPECT_EQ(shard_bytes(c, 2), 16.0);
}
