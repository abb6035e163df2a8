// family.h — what every topology family provides behind dsml::Topology (internal; the facade is topology.h).
//
// A family knows its ranks, numbers its directed links 0 … links() − 1, names them, and routes a message by
// arithmetic on rank coordinates — nothing is tabulated per pair of ranks. Each family lives in its own file:
// fully_connected.cpp, ring.cpp, torus2d.cpp, hierarchical.cpp (ring_routing.* is shared by ring and torus).
#pragma once

#include <algorithm>
#include <memory>
#include <string>

#include "dsml/cost_model.h"
#include "dsml/topology.h"

namespace dsml::net {

class Family {
 public:
  virtual ~Family() = default;
  virtual const char* kind() const = 0;
  virtual int ranks() const = 0;
  virtual int links() const = 0;
  virtual std::string link_name(int link) const = 0;  // link in range (checked by Topology)
  // Appends the hops from src to dst to `out` (already cleared; src ≠ dst, both in range).
  virtual void route(int src, int dst, Route& out) const = 0;
};

// One hop more: its latency adds up, the route streams at its slowest link's pace (T = Σ α + β_max·n).
inline void add_hop(Route& out, int link, double alpha, double beta) {
  out.links.push_back(link);
  out.alpha += alpha;
  out.beta = std::max(out.beta, beta);
}

// `hops` more links that all cost α, β (a ring or torus leg): returns where to write their indices. Cheaper
// than add_hop per link — routes on rings and tori are long and routed several times per message.
inline int* add_hops(Route& out, int hops, double alpha, double beta) {
  const std::size_t first = out.links.size();
  out.links.resize(first + static_cast<std::size_t>(hops));  // within capacity once the longest route was seen
  out.alpha += hops * alpha;
  out.beta = std::max(out.beta, beta);
  return out.links.data() + first;
}

// Factories (argument checks happen in topology.cpp, before these are called).
std::shared_ptr<const Family> make_fully_connected(int ranks, const CostModel& model);
std::shared_ptr<const Family> make_ring(int ranks, const CostModel& model);
std::shared_ptr<const Family> make_torus2d(int rows, int cols, const CostModel& model);
std::shared_ptr<const Family> make_hierarchical(int nodes, int per_node, const CostModel& intra,
                                                const CostModel& inter);

}  // namespace dsml::net
