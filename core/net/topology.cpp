// topology.cpp — dsml::Topology, the facade over the topology families (family.h): argument checks, link
// names and routes with their ranks checked, and the empty topology a default SimResult holds.
#include "dsml/topology.h"

#include <cstdint>
#include <string>
#include <utility>

#include "dsml/error.h"
#include "net/family.h"

namespace dsml {

namespace {

// Up to 2^26 ranks keeps every link index (at most 4 per rank, on the torus) well inside an int.
constexpr std::int64_t kMaxRanks = std::int64_t{1} << 26;

void require_size(const std::string& what, std::int64_t value) {
  if (value >= 1 && value <= kMaxRanks) return;
  throw Error(what + " must be a whole number from 1 to " + std::to_string(kMaxRanks) + ", got " +
              std::to_string(value));
}

void require_model(const std::string& which, const CostModel& model) {
  try {
    validate(model);
  } catch (const Error& e) {
    throw Error(which + e.what());
  }
}

}  // namespace

Topology::Topology() = default;

Topology::Topology(std::shared_ptr<const net::Family> family)
    : family_(std::move(family)), ranks_(family_->ranks()), links_(family_->links()) {}

Topology Topology::fully_connected(int ranks, const CostModel& model) {
  require_size("fully-connected ranks", ranks);
  validate(model);
  return Topology(net::make_fully_connected(ranks, model));
}

Topology Topology::ring(int ranks, const CostModel& model) {
  require_size("ring ranks", ranks);
  validate(model);
  return Topology(net::make_ring(ranks, model));
}

Topology Topology::torus2d(int rows, int cols, const CostModel& model) {
  require_size("torus2d rows", rows);
  require_size("torus2d cols", cols);
  require_size("torus2d rows × cols", std::int64_t{rows} * cols);
  validate(model);
  return Topology(net::make_torus2d(rows, cols, model));
}

Topology Topology::hierarchical(int nodes, int per_node, const CostModel& intra, const CostModel& inter) {
  require_size("hierarchical nodes", nodes);
  require_size("hierarchical devices per node", per_node);
  require_size("hierarchical nodes × devices per node", std::int64_t{nodes} * per_node);
  require_model("intra-node link: ", intra);
  require_model("inter-node link: ", inter);
  return Topology(net::make_hierarchical(nodes, per_node, intra, inter));
}

std::string Topology::kind() const { return family_ ? family_->kind() : ""; }

int Topology::ranks() const { return ranks_; }

int Topology::links() const { return links_; }

std::string Topology::link_name(int link) const {
  if (link < 0 || link >= links())
    throw Error("link " + std::to_string(link) + " does not exist; this " + kind() + " topology has links 0 to " +
                std::to_string(links() - 1));
  return family_->link_name(link);
}

void Topology::throw_bad_route(int src, int dst) const {
  throw Error("cannot route " + std::to_string(src) + " → " + std::to_string(dst) + ": ranks are numbered 0 to " +
              std::to_string(ranks_ - 1));
}

void check_topology_ranks(const Topology& topology, int ranks) {
  if (topology.ranks() != ranks)
    throw Error("the topology has " + std::to_string(topology.ranks()) + " ranks but the run needs " +
                std::to_string(ranks));
}

void net::route_into(const Family& family, int src, int dst, Route& out) { family.route(src, dst, out); }

Route Topology::route(int src, int dst) const {
  Route out;
  route(src, dst, out);
  return out;
}

}  // namespace dsml
