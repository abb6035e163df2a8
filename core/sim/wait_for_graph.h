// wait_for_graph.h — naming the cause of a deadlock (internal to the simulator).
//
// When the event queue runs dry while ranks are still blocked in recv, each blocked rank waits for exactly one
// other rank, so the "waits for" relation is a functional graph: following it from any blocked rank ends
// either in a cycle (a true deadlock: everyone in it waits for the next) or at a rank that already finished.
#pragma once

#include <string>
#include <vector>

namespace dsml::sim {

struct WaitChain {
  // cycle:  r0 waits for r1, r1 for r2, …, the last for r0; rotated to start at its lowest rank.
  // !cycle: ranks = {r, s}: r waits for s, and s finished.
  std::vector<int> ranks;
  bool cycle = false;
};

// waits_for[r] is the rank r waits for in recv, or -1 if r finished. At least one rank must be waiting.
// Prefers a cycle (the one whose lowest rank is lowest); otherwise the lowest rank waiting for a finished one.
WaitChain find_wait_chain(const std::vector<int>& waits_for);

// "rank 0 waits for rank 1, rank 1 waits for rank 0" or "rank 1 waits for rank 0, which finished without sending".
std::string describe(const WaitChain& chain);

}  // namespace dsml::sim
