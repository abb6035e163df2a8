// hierarchical.cpp — nodes of devices: a fast switch inside each node, one slow NIC per node to a global switch.
//
// The shape of a GPU cluster (NVLink/NVSwitch inside a server, one InfiniBand or Ethernet port out of it, as in
// NCCL's hierarchical algorithms): rank = node·per_node + local. Devices talk through their node's switch
// exactly as in fully_connected (intra α on the uplink, 0 on the downlink, intra β). Leaving the node adds the
// node's NIC up-link (inter α, inter β) and the destination node's NIC down-link (0, inter β), so a cross-node
// message costs T = α_intra + α_inter + max(β_intra, β_inter)·n, and all per_node devices share one NIC.
//
// Links: up 0 … p−1, down 0 … p−1, nic up node 0 … nodes−1, nic down node 0 … nodes−1 (p = nodes·per_node).
#include <memory>
#include <string>

#include "net/family.h"

namespace dsml::net {

namespace {

class Hierarchical final : public Family {
 public:
  Hierarchical(int nodes, int per_node, const CostModel& intra, const CostModel& inter)
      : nodes_(nodes), per_node_(per_node), p_(nodes * per_node), intra_(intra), inter_(inter) {}

  const char* kind() const override { return "hierarchical"; }
  int ranks() const override { return p_; }
  int links() const override { return 2 * p_ + 2 * nodes_; }

  std::string link_name(int link) const override {
    if (link < p_) return "up " + std::to_string(link);
    if (link < 2 * p_) return "down " + std::to_string(link - p_);
    if (link < 2 * p_ + nodes_) return "nic up node " + std::to_string(link - 2 * p_);
    return "nic down node " + std::to_string(link - 2 * p_ - nodes_);
  }

  void route(int src, int dst, Route& out) const override {
    const int src_node = src / per_node_, dst_node = dst / per_node_;
    add_hop(out, src, intra_.alpha, intra_.beta);  // device → node switch
    if (src_node != dst_node) {
      add_hop(out, 2 * p_ + src_node, inter_.alpha, inter_.beta);       // node switch → global switch
      add_hop(out, 2 * p_ + nodes_ + dst_node, 0.0, inter_.beta);       // global switch → destination node
    }
    add_hop(out, p_ + dst, 0.0, intra_.beta);      // node switch → device
  }

 private:
  int nodes_, per_node_, p_;
  CostModel intra_, inter_;
};

}  // namespace

std::shared_ptr<const Family> make_hierarchical(int nodes, int per_node, const CostModel& intra,
                                                const CostModel& inter) {
  return std::make_shared<Hierarchical>(nodes, per_node, intra, inter);
}

}  // namespace dsml::net
