// The simulator on topologies: one message costs Σ α + β_max·n, messages sharing a link direction take turns and
// disjoint ones do not, all-or-nothing acquisition with FIFO retries, a hierarchical NIC bottleneck, per-link
// busy time, lean runs, and fully_connected reproducing Week 1's Network exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dsml/error.h"
#include "dsml/scenarios.h"
#include "dsml/simulator.h"
#include "dsml/topology.h"

namespace {

using dsml::CostModel;
using dsml::Program;
using dsml::SimResult;
using dsml::Step;
using dsml::Topology;

constexpr double kAlpha = 1e-6;  // s
constexpr double kBeta = 1e-9;   // s/B
constexpr double kBytes = 1000;

CostModel model(double alpha = kAlpha, double beta = kBeta) {
  CostModel m;
  m.alpha = alpha;
  m.beta = beta;
  return m;
}

// p ranks, each message `src → dst` sent at t = 0 (or after `delay`) and received.
struct Traffic {
  explicit Traffic(int p) : programs(static_cast<std::size_t>(p)) {}
  Traffic& message(int src, int dst, double bytes = kBytes, double delay = 0.0) {
    if (delay > 0) programs[src].push_back(Step::compute(delay));
    programs[src].push_back(Step::send(dst, bytes));
    programs[dst].push_back(Step::recv(src));
    return *this;
  }
  std::vector<Program> programs;
};

const dsml::MessageRecord& from(const SimResult& r, int src) {
  for (const dsml::MessageRecord& m : r.messages)
    if (m.src == src) return m;
  ADD_FAILURE() << "no message from rank " << src;
  return r.messages.front();
}

// Two runs of the same programs that must agree on every timing and every link's load.
void expect_same_timings_and_loads(const SimResult& a, const SimResult& b) {
  EXPECT_EQ(a.makespan, b.makespan);
  EXPECT_EQ(a.finish_time, b.finish_time);
  EXPECT_EQ(a.events, b.events);
  EXPECT_EQ(a.total_bytes, b.total_bytes);
  EXPECT_EQ(a.link_busy, b.link_busy);
  EXPECT_EQ(a.busiest_link, b.busiest_link);
}

TEST(LinkContention, OneMessageCostsSumOfAlphasPlusSlowestBeta) {
  const CostModel intra = model(1e-6, 1e-10), inter = model(5e-6, 1e-9);
  struct Case {
    Topology topology;
    int src, dst;
    double expected;  // s, worked out by hand
  };
  const std::vector<Case> cases = {
      {Topology::fully_connected(8, model()), 3, 6, kAlpha + kBeta * kBytes},
      {Topology::ring(8, model()), 1, 4, 3 * kAlpha + kBeta * kBytes},
      {Topology::ring(8, model()), 1, 6, 3 * kAlpha + kBeta * kBytes},
      {Topology::torus2d(4, 5, model()), 0, 19, 2 * kAlpha + kBeta * kBytes},
      {Topology::torus2d(4, 5, model()), 0, 12, 4 * kAlpha + kBeta * kBytes},
      {Topology::hierarchical(4, 2, intra, inter), 2, 3, 1e-6 + 1e-10 * kBytes},
      {Topology::hierarchical(4, 2, intra, inter), 1, 6, 1e-6 + 5e-6 + 1e-9 * kBytes},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.topology.kind() + " " + std::to_string(c.src) + " → " + std::to_string(c.dst));
    const SimResult r = dsml::simulate(c.topology, Traffic(c.topology.ranks()).message(c.src, c.dst).programs);
    EXPECT_NEAR(r.makespan, c.expected, 1e-15);
    EXPECT_NEAR(r.messages[0].arrived - r.messages[0].started, c.expected, 1e-15);
    // Every link of the route carried the message for its whole time, and no other link did.
    const dsml::Route route = c.topology.route(c.src, c.dst);
    double busy = 0;
    for (double b : r.link_busy) busy += b;
    EXPECT_NEAR(busy, route.hops() * c.expected, 1e-15);
    for (int l : route.links) EXPECT_NEAR(r.link_busy[l], c.expected, 1e-15) << c.topology.link_name(l);
  }
}

TEST(LinkContention, MessagesSharingARingLinkTakeTurns) {
  // 0 → 2 (ring 0→1, 1→2) and 1 → 3 (ring 1→2, 2→3) share ring 1→2: the second waits for the first.
  const Topology ring = Topology::ring(8, model());
  const double T = 2 * kAlpha + kBeta * kBytes;
  const SimResult r = dsml::simulate(ring, Traffic(8).message(0, 2).message(1, 3).programs);
  EXPECT_DOUBLE_EQ(from(r, 0).started, 0.0);
  EXPECT_DOUBLE_EQ(from(r, 1).posted, 0.0);
  EXPECT_DOUBLE_EQ(from(r, 1).started, T);
  EXPECT_DOUBLE_EQ(r.makespan, 2 * T);
  EXPECT_EQ(ring.link_name(r.busiest_link), "ring 1→2");
  EXPECT_DOUBLE_EQ(r.link_busy[r.busiest_link], 2 * T);
  EXPECT_NE(dsml::format_trace(r).find("rank 1 send-blocked -> 3 1000 B (link busy)"), std::string::npos);
}

TEST(LinkContention, DisjointRoutesAndOppositeDirectionsDoNotContend) {
  const Topology ring = Topology::ring(8, model());
  const double T = 2 * kAlpha + kBeta * kBytes;
  const SimResult disjoint = dsml::simulate(ring, Traffic(8).message(0, 2).message(4, 6).programs);
  EXPECT_DOUBLE_EQ(disjoint.makespan, T);
  const SimResult opposite = dsml::simulate(ring, Traffic(8).message(0, 2).message(3, 1).programs);
  EXPECT_DOUBLE_EQ(opposite.makespan, T);  // 0→1→2 and 3→2→1 use different directions of the same cables
  for (const dsml::MessageRecord& m : opposite.messages) EXPECT_DOUBLE_EQ(m.started, 0.0);
}

TEST(LinkContention, AWaitingMessageHoldsNoLinks) {
  // A: 2 → 3, big, holds ring 2→3. B: 1 → 3 (ring 1→2, 2→3), posted just after, must wait for 2→3 — and it
  // does not sit on 1→2 meanwhile, so C: 0 → 2 (ring 0→1, 1→2), posted later still, goes at once.
  const Topology ring = Topology::ring(8, model());
  const double eps = 1e-9;
  const SimResult r = dsml::simulate(
      ring, Traffic(8).message(2, 3, 1e6).message(1, 3, kBytes, eps).message(0, 2, kBytes, 2 * eps).programs);
  const double TA = kAlpha + kBeta * 1e6;
  EXPECT_DOUBLE_EQ(from(r, 0).started, 2 * eps);  // C: no waiting
  EXPECT_DOUBLE_EQ(from(r, 1).posted, eps);
  EXPECT_DOUBLE_EQ(from(r, 1).started, TA);       // B: when A frees 2→3
  EXPECT_DOUBLE_EQ(r.makespan, TA + 2 * kAlpha + kBeta * kBytes);
}

TEST(LinkContention, WaitersAreRetriedInPostingOrder) {
  // Ranks 1, 2, 3 all send to rank 0 at t = 0, all over ring 1→0. Rank 1 goes first; when 1→0 frees, rank 2
  // (posted before rank 3) takes it, and rank 3 waits on until rank 2 is done. Starts 0, T1, T1 + T2.
  const Topology ring = Topology::ring(8, model());
  const double T1 = kAlpha + kBeta * kBytes, T2 = 2 * kAlpha + kBeta * kBytes, T3 = 3 * kAlpha + kBeta * kBytes;
  const SimResult r = dsml::simulate(ring, Traffic(8).message(1, 0).message(2, 0).message(3, 0).programs);
  EXPECT_DOUBLE_EQ(from(r, 1).started, 0.0);
  EXPECT_DOUBLE_EQ(from(r, 2).started, T1);
  EXPECT_DOUBLE_EQ(from(r, 3).started, T1 + T2);
  EXPECT_DOUBLE_EQ(r.makespan, T1 + T2 + T3);
  EXPECT_EQ(ring.link_name(r.busiest_link), "ring 1→0");
  EXPECT_DOUBLE_EQ(r.link_busy[r.busiest_link], T1 + T2 + T3);
}

TEST(LinkContention, HierarchicalFlatExchangeIsLimitedByTheNic) {
  // 4 nodes × 2 devices. Every device sends n bytes to the same local device on the next node: the two devices
  // of a node share its NIC, so the exchange takes two cross-node transfers back to back. Within a node
  // (device r ↔ r xor 1) the same exchange takes one fast transfer.
  const CostModel intra = model(1e-6, 1e-10), inter = model(5e-6, 1e-9);
  const Topology t = Topology::hierarchical(4, 2, intra, inter);
  const double n = 1e6;
  Traffic cross(8), local(8);
  for (int r = 0; r < 8; ++r) {
    cross.programs[r] = {Step::send((r + 2) % 8, n), Step::recv((r + 6) % 8)};
    local.programs[r] = {Step::send(r ^ 1, n), Step::recv(r ^ 1)};
  }
  const double T_cross = 1e-6 + 5e-6 + 1e-9 * n, T_local = 1e-6 + 1e-10 * n;
  const SimResult c = dsml::simulate(t, cross.programs);
  EXPECT_DOUBLE_EQ(c.makespan, 2 * T_cross);
  EXPECT_EQ(t.link_name(c.busiest_link), "nic up node 0");
  EXPECT_DOUBLE_EQ(c.link_busy[c.busiest_link], 2 * T_cross);
  EXPECT_DOUBLE_EQ(dsml::simulate(t, local.programs).makespan, T_local);
  // The same exchange on one big switch at the inter-node speed: no shared NIC, one transfer time.
  EXPECT_DOUBLE_EQ(dsml::simulate(Topology::fully_connected(8, inter), cross.programs).makespan, 5e-6 + 1e-9 * n);
}

TEST(LinkContention, LinkBusyIsTheSumOfHoldTimes) {
  // A tagged all-to-all on a 3 × 4 torus: plenty of multi-hop contention.
  const Topology t = Topology::torus2d(3, 4, model());
  const int p = t.ranks();
  std::vector<Program> programs(p);
  for (int r = 0; r < p; ++r) {
    for (int k = 1; k < p; ++k) programs[r].push_back(Step::send((r + k) % p, 100.0 * (r + 1), k));
    for (int k = 1; k < p; ++k) programs[r].push_back(Step::recv((r + p - k) % p, k));
  }
  const SimResult r = dsml::simulate(t, programs);
  std::vector<double> expected(static_cast<std::size_t>(t.links()), 0.0);
  for (const dsml::MessageRecord& m : r.messages) {
    const dsml::Route route = t.route(m.src, m.dst);
    EXPECT_NEAR(m.arrived - m.started, route.time(m.bytes), 1e-18);  // a message holds its route for T
    for (int l : route.links) expected[l] += route.time(m.bytes);
  }
  ASSERT_EQ(r.link_busy.size(), expected.size());
  for (int l = 0; l < t.links(); ++l) EXPECT_NEAR(r.link_busy[l], expected[l], 1e-12 * expected[l]) << t.link_name(l);
  // busiest_link: the first link with the largest busy time.
  ASSERT_GE(r.busiest_link, 0);
  for (int l = 0; l < t.links(); ++l) {
    if (l < r.busiest_link) EXPECT_LT(r.link_busy[l], r.link_busy[r.busiest_link]);
    else EXPECT_LE(r.link_busy[l], r.link_busy[r.busiest_link]);
  }
  // A link is never double-booked: its busy time fits in the run.
  for (double b : r.link_busy) EXPECT_LE(b, r.makespan * (1 + 1e-12));
}

TEST(LinkContention, FullyConnectedIsWeek1sNetwork) {
  dsml::Network network;
  network.model = model();
  for (const std::string& name : dsml::scenario_names()) {
    dsml::ScenarioOptions options;
    options.ranks = name == "ping-pong" ? 2 : 6;
    options.bytes = 1000;
    options.rounds = 3;
    options.laps = 2;
    options.compute_seconds = 5e-6;
    const std::vector<Program> programs = dsml::make_scenario(name, options);
    network.ranks = static_cast<int>(programs.size());
    const SimResult a = dsml::simulate(network, programs);
    const SimResult b = dsml::simulate(Topology::fully_connected(network.ranks, network.model), programs);
    SCOPED_TRACE(name);
    EXPECT_EQ(dsml::format_trace(a), dsml::format_trace(b));
    expect_same_timings_and_loads(a, b);
    EXPECT_EQ(a.topology.kind(), "fully-connected");
    ASSERT_EQ(a.spans.size(), b.spans.size());
    for (std::size_t i = 0; i < a.spans.size(); ++i) {
      EXPECT_EQ(a.spans[i].start, b.spans[i].start);
      EXPECT_EQ(a.spans[i].end, b.spans[i].end);
      EXPECT_EQ(a.spans[i].peer, b.spans[i].peer);
    }
  }
  // Gather: the root's downlink carries all p − 1 messages.
  network.ranks = 5;
  const SimResult gather = dsml::simulate(network, dsml::gather_to_root(5, 1000));
  EXPECT_EQ(gather.topology.link_name(gather.busiest_link), "down 0");
  EXPECT_NEAR(gather.link_busy[gather.busiest_link], 4 * (kAlpha + kBeta * 1000), 1e-18);
}

TEST(LinkContention, DeadlockReportsAreTheSameOnEveryTopology) {
  const std::vector<Program> cycle = {{Step::recv(2)}, {Step::recv(0)}, {Step::recv(1)}, {Step::compute(1e-6)}};
  const std::vector<Topology> topologies = {Topology::fully_connected(4, model()), Topology::ring(4, model()),
                                            Topology::torus2d(2, 2, model()),
                                            Topology::hierarchical(2, 2, model(), model(2e-6, 2e-9))};
  for (const Topology& t : topologies) {
    try {
      dsml::simulate(t, cycle);
      ADD_FAILURE() << "expected a deadlock on " << t.kind();
    } catch (const dsml::DeadlockError& e) {
      EXPECT_STREQ(e.what(), "deadlock: rank 0 waits for rank 2, rank 2 waits for rank 1, rank 1 waits for rank 0");
    }
  }
  EXPECT_THROW(dsml::simulate(Topology::ring(3, model()), {{}, {}}), dsml::Error);  // 2 programs for 3 ranks
  EXPECT_THROW(dsml::simulate(Topology(), {}), dsml::Error);
}

// Ring all-reduce (reduce-scatter then all-gather, 2(p − 1) neighbour steps of n/p bytes): on a ring every
// step's p messages use p different links, so it takes exactly 2(p − 1)(α + β·n/p).
std::vector<Program> ring_allreduce(int p, double bytes) {
  std::vector<Program> programs(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r)
    for (int step = 0; step < 2 * (p - 1); ++step) {
      programs[r].push_back(Step::send((r + 1) % p, bytes / p));
      programs[r].push_back(Step::recv((r + p - 1) % p));
    }
  return programs;
}

TEST(LinkContention, LeanRunKeepsTimingsAndLinkLoads) {
  const int p = 256;
  const double n = 1 << 20;  // 1 MiB
  const Topology ring = Topology::ring(p, model());
  const std::vector<Program> programs = ring_allreduce(p, n);
  dsml::SimOptions lean;
  lean.record_spans = false;
  lean.record_messages = false;
  const SimResult full = dsml::simulate(ring, programs);
  const SimResult thin = dsml::simulate(ring, programs, lean);
  const double expected = 2 * (p - 1) * (kAlpha + kBeta * n / p);
  EXPECT_NEAR(thin.makespan, expected, 1e-9 * expected);
  EXPECT_TRUE(thin.messages.empty());
  EXPECT_TRUE(thin.spans.empty());
  EXPECT_EQ(full.messages.size(), static_cast<std::size_t>(2 * (p - 1) * p));
  expect_same_timings_and_loads(thin, full);

  // Spans without messages, on a run with contention and unreceived-then-received mailboxes.
  dsml::SimOptions spans_only;
  spans_only.record_messages = false;
  const std::vector<Program> gather = dsml::gather_to_root(6, 1000);
  const SimResult a = dsml::simulate(Topology::ring(6, model()), gather);
  const SimResult b = dsml::simulate(Topology::ring(6, model()), gather, spans_only);
  ASSERT_EQ(a.spans.size(), b.spans.size());
  for (std::size_t i = 0; i < a.spans.size(); ++i) {
    EXPECT_EQ(a.spans[i].start, b.spans[i].start);
    EXPECT_EQ(a.spans[i].end, b.spans[i].end);
  }
  EXPECT_EQ(a.makespan, b.makespan);
}

}  // namespace
