// dsml/topology.h — the network a simulated run crosses: ranks, directed links, and the route between two ranks.
//
// Four families. Every link has its own α (s per message) and β (s per byte); "link i" is one DIRECTION:
//   fully_connected(p, m)   one non-blocking switch, a full-duplex port per rank — the single-port model of
//                           Thakur, Rabenseifner & Gropp (2005) and Week 1's simulator. Links "up r" (α = m.α)
//                           and "down r" (α = 0), both β = m.β. route(s, d) = [up s, down d]: T = α + β·n.
//   ring(p, m)              ranks on a bidirectional ring, one link per direction per neighbour pair
//                           ("ring 2→3", "ring 3→2"), each α = m.α, β = m.β. Shortest direction; half-way
//                           round (p even) goes clockwise (increasing rank). p = 2 has two links, p = 1 none.
//   torus2d(rows, cols, m)  rank = row·cols + col on a 2-D torus: a ring along every row (x) and every column
//                           (y), links "torus (1,2)→(1,3)". Dimension-order routing (Dally & Seitz 1987):
//                           first along x to the destination's column, then along y, each the shorter way
//                           round (wraparound links included; half-way goes to increasing index).
//   hierarchical(nodes, per_node, intra, inter)
//                           rank = node·per_node + local. Inside a node a switch as in fully_connected
//                           ("up 3" α = intra.α, "down 5" α = 0, β = intra.β); each node has ONE NIC into a
//                           global switch ("nic up node 1" α = inter.α, "nic down node 1" α = 0, β = inter.β).
//                           Same node: [up s, down d]. Other node: [up s, nic up, nic down, down d], so every
//                           device of a node shares its NIC (the bottleneck of a flat all-to-all).
//
// Transfer model (cut-through, as in wormhole-routed networks): a message of n bytes holds EVERY link of its
// route at once, for T = Σ α_hop + β_max·n — each hop adds its latency, while the data stream through the
// whole path at the pace of its slowest link. The simulator lets a link direction carry one message at a time
// and takes a route's links all together or not at all (see simulator.h).
//
// Routes are computed on demand from the ranks' coordinates, never tabulated (no p² tables).
// Units: seconds, bytes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "dsml/cost_model.h"

namespace dsml {

namespace net {
class Family;  // one topology family's ranks, links and routing (core/net/)
}

// The links a message crosses, from source to destination, and what they cost together.
struct Route {
  std::vector<int> links;  // link indices, in the order the data crosses them
  double alpha = 0.0;      // Σ α over the hops, s
  double beta = 0.0;       // the slowest hop's β, s per byte
  int hops() const { return static_cast<int>(links.size()); }
  double time(double bytes) const { return alpha + beta * bytes; }  // T = Σ α + β_max·n, s
};

class Topology {
 public:
  // Throw dsml::Error on a size < 1 (or too large to index) or an invalid CostModel (see cost_model.h).
  static Topology fully_connected(int ranks, const CostModel& model);
  static Topology ring(int ranks, const CostModel& model);
  static Topology torus2d(int rows, int cols, const CostModel& model);
  static Topology hierarchical(int nodes, int per_node, const CostModel& intra, const CostModel& inter);

  Topology();  // an empty network: 0 ranks, 0 links (what a default SimResult holds)

  std::string kind() const;  // "fully-connected", "ring", "torus2d", "hierarchical"; "" when empty
  int ranks() const;
  int links() const;                       // directed links, numbered 0 … links() − 1
  std::string link_name(int link) const;   // "up 3", "ring 2→3", "torus (1,2)→(1,3)", "nic up node 1"

  // The route from src to dst (src = dst: no links). The first form refills `out`, reusing its storage, so a
  // simulator can route millions of messages without allocating. Throws dsml::Error on a rank out of range.
  void route(int src, int dst, Route& out) const;
  Route route(int src, int dst) const;

 private:
  [[noreturn]] void throw_bad_route(int src, int dst) const;

  explicit Topology(std::shared_ptr<const net::Family> family);
  std::shared_ptr<const net::Family> family_;  // immutable, so copies share it
  int ranks_ = 0;                              // cached: route() checks ranks on every call
  int links_ = 0;
};

// A run of `ranks` ranks on `topology`: a torus or a two-level cluster fixes its own rank count (rows·cols,
// nodes·per-node), which must be the one the run asks for. Throws dsml::Error naming both counts otherwise.
void check_topology_ranks(const Topology& topology, int ranks);

namespace net {
// Appends the route (family.h); declared here so that Topology::route, called twice per simulated message,
// can be inlined.
void route_into(const Family& family, int src, int dst, Route& out);
}  // namespace net

inline void Topology::route(int src, int dst, Route& out) const {
  if (src < 0 || src >= ranks_ || dst < 0 || dst >= ranks_) throw_bad_route(src, dst);
  out.links.clear();  // keeps its capacity: no allocation once the longest route has been seen
  out.alpha = 0.0;
  out.beta = 0.0;
  if (src != dst) net::route_into(*family_, src, dst, out);
}

}  // namespace dsml
