// fully_connected.cpp — one non-blocking switch with a full-duplex port per rank (Week 1's network).
//
// This is the single-port model of Thakur, Rabenseifner & Gropp (2005): a rank sends one message at a time on
// its uplink and receives one at a time on its downlink, and the switch itself never congests. The per-message
// latency α sits on the uplink and the downlink has α = 0, so a message's T = α + β·n — exactly dsml::Network.
//
// Links: 0 … p−1 are "up r", p … 2p−1 are "down r".
#include <memory>
#include <string>

#include "net/family.h"

namespace dsml::net {

namespace {

class FullyConnected final : public Family {
 public:
  FullyConnected(int ranks, const CostModel& model) : p_(ranks), model_(model) {}

  const char* kind() const override { return "fully-connected"; }
  int ranks() const override { return p_; }
  int links() const override { return 2 * p_; }

  std::string link_name(int link) const override {
    return link < p_ ? "up " + std::to_string(link) : "down " + std::to_string(link - p_);
  }

  void route(int src, int dst, Route& out) const override {
    add_hop(out, src, model_.alpha, model_.beta);  // the sender's uplink pays the message's latency
    add_hop(out, p_ + dst, 0.0, model_.beta);      // the receiver's downlink: same β, no extra α
  }

 private:
  int p_;
  CostModel model_;
};

}  // namespace

std::shared_ptr<const Family> make_fully_connected(int ranks, const CostModel& model) {
  return std::make_shared<FullyConnected>(ranks, model);
}

}  // namespace dsml::net
