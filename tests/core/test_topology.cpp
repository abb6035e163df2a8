// Topologies: link counts and names, routes and hop counts (ring shortest direction, torus dimension order with
// wraparound, hierarchical intra- versus inter-node), route cost T = Σ α + β_max·n, and argument checks.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "dsml/error.h"
#include "dsml/topology.h"

namespace {

using dsml::CostModel;
using dsml::Route;
using dsml::Topology;

CostModel model(double alpha, double beta) {
  CostModel m;
  m.alpha = alpha;
  m.beta = beta;
  return m;
}

const CostModel kLink = model(1e-6, 1e-9);

std::vector<std::string> names(const Topology& t, const Route& route) {
  std::vector<std::string> out;
  for (int link : route.links) out.push_back(t.link_name(link));
  return out;
}

std::vector<std::string> path(const Topology& t, int src, int dst) { return names(t, t.route(src, dst)); }

// Every link has a distinct name.
void expect_distinct_names(const Topology& t) {
  std::set<std::string> seen;
  for (int l = 0; l < t.links(); ++l) EXPECT_TRUE(seen.insert(t.link_name(l)).second) << t.link_name(l);
}

TEST(Topology, FullyConnectedIsUplinkThenDownlink) {
  const Topology t = Topology::fully_connected(4, kLink);
  EXPECT_EQ(t.kind(), "fully-connected");
  EXPECT_EQ(t.ranks(), 4);
  EXPECT_EQ(t.links(), 8);
  EXPECT_EQ(t.link_name(3), "up 3");
  EXPECT_EQ(t.link_name(5), "down 1");
  EXPECT_EQ(path(t, 2, 0), (std::vector<std::string>{"up 2", "down 0"}));
  const Route r = t.route(2, 0);
  EXPECT_EQ(r.hops(), 2);
  EXPECT_EQ(r.alpha, 1e-6);  // α once, exactly (the downlink adds 0)
  EXPECT_EQ(r.beta, 1e-9);
  EXPECT_EQ(r.time(1000), 1e-6 + 1e-9 * 1000);
  expect_distinct_names(t);
}

TEST(Topology, RingTakesTheShorterWayRound) {
  const Topology t = Topology::ring(8, kLink);
  EXPECT_EQ(t.links(), 16);
  EXPECT_EQ(path(t, 2, 3), (std::vector<std::string>{"ring 2→3"}));
  EXPECT_EQ(path(t, 3, 2), (std::vector<std::string>{"ring 3→2"}));
  EXPECT_EQ(path(t, 1, 4), (std::vector<std::string>{"ring 1→2", "ring 2→3", "ring 3→4"}));
  EXPECT_EQ(path(t, 1, 6), (std::vector<std::string>{"ring 1→0", "ring 0→7", "ring 7→6"}));  // 3 back, not 5 on
  EXPECT_EQ(path(t, 7, 0), (std::vector<std::string>{"ring 7→0"}));                         // wraparound
  EXPECT_EQ(t.route(0, 4).hops(), 4);                                                      // half-way: clockwise
  EXPECT_EQ(path(t, 0, 4).front(), "ring 0→1");
  for (int s = 0; s < 8; ++s)
    for (int d = 0; d < 8; ++d) {
      const int cw = (d - s + 8) % 8;
      EXPECT_EQ(t.route(s, d).hops(), std::min(cw, 8 - cw)) << s << " → " << d;
    }
  EXPECT_EQ(t.route(5, 5).hops(), 0);
  expect_distinct_names(t);
}

TEST(Topology, SmallRings) {
  const Topology two = Topology::ring(2, kLink);  // one neighbour pair: one link each way
  EXPECT_EQ(two.links(), 2);
  EXPECT_EQ(path(two, 0, 1), (std::vector<std::string>{"ring 0→1"}));
  EXPECT_EQ(path(two, 1, 0), (std::vector<std::string>{"ring 1→0"}));
  EXPECT_EQ(Topology::ring(1, kLink).links(), 0);
  const Topology three = Topology::ring(3, kLink);
  EXPECT_EQ(three.links(), 6);
  EXPECT_EQ(path(three, 0, 2), (std::vector<std::string>{"ring 0→2"}));  // one hop back round the wrap
  expect_distinct_names(three);
}

TEST(Topology, RingRouteCostsOneAlphaPerHop) {
  const Topology t = Topology::ring(8, kLink);
  const Route r = t.route(1, 4);
  EXPECT_DOUBLE_EQ(r.alpha, 3e-6);
  EXPECT_EQ(r.beta, 1e-9);
  EXPECT_DOUBLE_EQ(r.time(1000), 3e-6 + 1e-6);
}

TEST(Topology, TorusRoutesXThenYWithWraparound) {
  const Topology t = Topology::torus2d(4, 5, kLink);  // rank = row·5 + col
  EXPECT_EQ(t.kind(), "torus2d");
  EXPECT_EQ(t.ranks(), 20);
  EXPECT_EQ(t.links(), 4 * 10 + 5 * 8);
  // (1,2) → (1,3): one hop along the row.
  EXPECT_EQ(path(t, 7, 8), (std::vector<std::string>{"torus (1,2)→(1,3)"}));
  // (0,0) → (2,1): x first (col 0 → 1), then y down column 1 (row 0 → 1 → 2).
  EXPECT_EQ(path(t, 0, 11),
            (std::vector<std::string>{"torus (0,0)→(0,1)", "torus (0,1)→(1,1)", "torus (1,1)→(2,1)"}));
  // (0,0) → (3,4): both legs wrap: col 0 → 4 backwards, row 0 → 3 backwards.
  EXPECT_EQ(path(t, 0, 19), (std::vector<std::string>{"torus (0,0)→(0,4)", "torus (0,4)→(3,4)"}));
  // Hop count = torus distance in each dimension.
  for (int s = 0; s < 20; ++s)
    for (int d = 0; d < 20; ++d) {
      const int dc = (d % 5 - s % 5 + 5) % 5, dr = (d / 5 - s / 5 + 4) % 4;
      EXPECT_EQ(t.route(s, d).hops(), std::min(dc, 5 - dc) + std::min(dr, 4 - dr)) << s << " → " << d;
    }
  EXPECT_DOUBLE_EQ(t.route(0, 19).time(1000), 2e-6 + 1e-6);
  expect_distinct_names(t);
}

TEST(Topology, ThinToriAreRings) {
  const Topology row = Topology::torus2d(1, 6, kLink);  // no column links
  EXPECT_EQ(row.links(), 12);
  EXPECT_EQ(path(row, 0, 5), (std::vector<std::string>{"torus (0,0)→(0,5)"}));
  const Topology two = Topology::torus2d(2, 2, kLink);  // each dimension: one link per direction per pair
  EXPECT_EQ(two.links(), 8);
  EXPECT_EQ(path(two, 0, 3), (std::vector<std::string>{"torus (0,0)→(0,1)", "torus (0,1)→(1,1)"}));
  expect_distinct_names(two);
}

TEST(Topology, HierarchicalIntraVersusInterNode) {
  const CostModel intra = model(1e-6, 1e-10);   // fast: 10 GB/s
  const CostModel inter = model(5e-6, 1e-9);    // slow: 1 GB/s
  const Topology t = Topology::hierarchical(4, 2, intra, inter);  // ranks 0,1 on node 0; 2,3 on node 1; …
  EXPECT_EQ(t.kind(), "hierarchical");
  EXPECT_EQ(t.ranks(), 8);
  EXPECT_EQ(t.links(), 2 * 8 + 2 * 4);
  EXPECT_EQ(path(t, 0, 1), (std::vector<std::string>{"up 0", "down 1"}));
  EXPECT_EQ(path(t, 1, 6), (std::vector<std::string>{"up 1", "nic up node 0", "nic down node 3", "down 6"}));
  const Route same = t.route(2, 3), cross = t.route(3, 4);
  EXPECT_EQ(same.hops(), 2);
  EXPECT_EQ(cross.hops(), 4);
  EXPECT_EQ(same.time(1000), 1e-6 + 1e-10 * 1000);
  EXPECT_DOUBLE_EQ(cross.alpha, 1e-6 + 5e-6);
  EXPECT_EQ(cross.beta, 1e-9);  // the NIC is the slowest hop
  expect_distinct_names(t);
}

TEST(Topology, RouteReusesItsStorage) {
  const Topology t = Topology::ring(64, kLink);
  Route r;
  t.route(0, 32, r);
  const int* storage = r.links.data();
  t.route(5, 9, r);
  EXPECT_EQ(r.hops(), 4);
  EXPECT_EQ(r.links.data(), storage);  // refilled in place
  EXPECT_DOUBLE_EQ(r.alpha, 4e-6);     // and the sums start again from 0
}

TEST(Topology, RejectsBadArguments) {
  const auto message = [](auto build) -> std::string {
    try {
      build();
    } catch (const dsml::Error& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(message([] { Topology::ring(0, kLink); }), "ring ranks must be a whole number from 1 to 67108864, got 0");
  EXPECT_NE(message([] { Topology::torus2d(3, -1, kLink); }).find("torus2d cols"), std::string::npos);
  EXPECT_NE(message([] { Topology::torus2d(1 << 20, 1 << 20, kLink); }).find("rows × cols"), std::string::npos);
  EXPECT_NE(message([] { Topology::fully_connected(2, model(1e-6, 0)); }).find("beta"), std::string::npos);
  EXPECT_EQ(message([] { Topology::hierarchical(2, 2, kLink, model(-1, 1e-9)); }).rfind("inter-node link: alpha", 0),
            0u);
  EXPECT_NE(message([] { Topology::ring(4, kLink).route(0, 4); }).find("ranks are numbered 0 to 3"),
            std::string::npos);
  EXPECT_NE(message([] { Topology::ring(4, kLink).link_name(8); }).find("link 8 does not exist"), std::string::npos);
  const Topology empty;
  EXPECT_EQ(empty.ranks(), 0);
  EXPECT_EQ(empty.links(), 0);
  EXPECT_EQ(empty.kind(), "");
}

TEST(Topology, ARunMustHaveTheTopologysRankCount) {
  const CostModel link = CostModel::from_bandwidth(1e-6, 1e9);
  EXPECT_NO_THROW(dsml::check_topology_ranks(dsml::Topology::torus2d(3, 3, link), 9));
  EXPECT_NO_THROW(dsml::check_topology_ranks(dsml::Topology::hierarchical(2, 4, link, link), 8));
  const auto message = [&](const dsml::Topology& t, int ranks) {
    try {
      dsml::check_topology_ranks(t, ranks);
    } catch (const dsml::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(dsml::Topology::torus2d(3, 3, link), 8), "the topology has 9 ranks but the run needs 8");
  EXPECT_EQ(message(dsml::Topology::hierarchical(2, 4, link, link), 16), "the topology has 8 ranks but the run needs 16");
}

}  // namespace
