// ring.cpp — ranks on a bidirectional ring: rank r is wired to r − 1 and r + 1 (mod p), nothing else.
//
// A message to a rank k positions away crosses k links (the shorter way round), so it pays k·α and holds k
// links at once; neighbour traffic — what ring all-reduce sends (Patarasuk & Yuan 2009) — crosses one. Two
// messages whose routes share a link direction take turns; that is the contention this topology teaches.
//
// Links (ring_routing.h): "ring j→j+1" is link j, "ring j+1→j" is link p + j (p ≥ 3).
#include <memory>
#include <string>

#include "net/family.h"
#include "net/ring_routing.h"

namespace dsml::net {

namespace {

class Ring final : public Family {
 public:
  Ring(int ranks, const CostModel& model) : p_(ranks), model_(model) {}

  const char* kind() const override { return "ring"; }
  int ranks() const override { return p_; }
  int links() const override { return ring_link_count(p_); }

  std::string link_name(int link) const override {
    int from = 0, to = 0;
    ring_link_ends(p_, link, from, to);
    return "ring " + std::to_string(from) + "→" + std::to_string(to);
  }

  void route(int src, int dst, Route& out) const override {
    const RingPath path = ring_path(src, dst, p_);
    int* link = add_hops(out, path.hops, model_.alpha, model_.beta);  // h hops: h·α + β·n
    for (int h = 0, at = src; h < path.hops; ++h, at = ring_next(p_, at, path.step))
      *link++ = ring_link(p_, at, path.step);
  }

 private:
  int p_;
  CostModel model_;
};

}  // namespace

std::shared_ptr<const Family> make_ring(int ranks, const CostModel& model) {
  return std::make_shared<Ring>(ranks, model);
}

}  // namespace dsml::net
