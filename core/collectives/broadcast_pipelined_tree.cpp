// broadcast_pipelined_tree.cpp — the pipelined chain (broadcast_pipelined_chain.cpp) with a binary tree in place
// of the chain: k segments flow down a complete binary tree, so the start-up is the tree's depth instead of p − 2
// steps (Sanders, Speck & Träff, "Two-tree algorithms for full bandwidth broadcast, reduction and scan", Parallel
// Computing 2009, §2; NCCL's "tree" is a pipelined double binary tree of this kind, used for all-reduce).
//
// Slots: k segments of n/k bytes. Relative rank v = (rank − root) mod p; the tree is a heap: v's children are
// 2v + 1 (left) and 2v + 2 (right), when < p.
//   every v > 0: for i = 0 … k − 1: receive segment i from its parent (v − 1)/2, then
//   every v:     send segment i to its left child, then to its right child.
// A single port sends one message at a time, so an inner rank spends 2t per segment (t = α + βn/k): segments
// enter the tree one per 2t and the bandwidth term is 2nβ, twice the chain's — the reason for Sanders et al.'s
// two trees, each carrying half the data. Segment i reaches v at a(v) + 2i·t, where a(left child) = a(v) + t and
// a(right child) = a(v) + 2t: a(v)/t = depth(v) + (right turns on the way to v) = ⌊log₂(v + 1)⌋ + popcount(v + 1) − 1.
// With A = max over v < p of a(v)/t (the latest rank; A = 2·depth for a full tree), for p ≥ 3:
//   T(k) = (2k + A − 2)(α + βn/k),   best k* = √((A − 2)nβ / (2α)).
// For p ≤ 2 the tree is a chain: T(k) = (k + p − 2)(α + βn/k). Exact in the simulator when n is a multiple of 4k.
#include "collectives/generators.h"

namespace dsml::collectives {

void broadcast_pipelined_tree(const Request& request, Schedule& s) {
  const int p = request.ranks, k = request.segments;
  s.slot_bytes = split_bytes(request.bytes, k);
  const auto rank = [&](int v) { return wrap(v + request.root, p); };
  // Segment by segment, parents before children (heap order), so each rank's list reads
  // "recv i from parent, send i left, send i right, recv i + 1, …".
  for (int i = 0; i < k; ++i)
    for (int v = 0; v < p; ++v)
      for (int child = 2 * v + 1; child <= 2 * v + 2 && child < p; ++child)
        add_transfer(s, rank(v), rank(child), {i}, /*reduce=*/false);
}

}  // namespace dsml::collectives
