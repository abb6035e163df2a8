// wait_for_graph.cpp — find the cycle (or the dead end) behind a deadlock; see wait_for_graph.h.
#include "sim/wait_for_graph.h"

#include <algorithm>
#include <cstddef>

namespace dsml::sim {

WaitChain find_wait_chain(const std::vector<int>& waits_for) {
  const int ranks = static_cast<int>(waits_for.size());
  // walk_of[r]: which walk first visited r (-1: not yet). A walk that meets its own mark has closed a cycle;
  // one that meets an older mark has joined a path already explored. Every rank is visited once: O(P).
  std::vector<int> walk_of(waits_for.size(), -1);
  WaitChain best;
  for (int start = 0; start < ranks; ++start) {
    int r = start;
    while (r >= 0 && walk_of[r] < 0) {
      walk_of[r] = start;
      r = waits_for[r];
    }
    if (r < 0 || walk_of[r] != start) continue;  // reached a finished rank, or an explored path
    std::vector<int> cycle{r};
    for (int next = waits_for[r]; next != r; next = waits_for[next]) cycle.push_back(next);
    std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
    if (!best.cycle || cycle.front() < best.ranks.front()) best = WaitChain{cycle, true};
  }
  if (best.cycle) return best;
  for (int r = 0; r < ranks; ++r) {
    const int source = waits_for[r];
    if (source >= 0 && waits_for[source] < 0) return WaitChain{{r, source}, false};
  }
  return best;  // unreachable when some rank is waiting: a functional graph without cycles has dead ends
}

std::string describe(const WaitChain& chain) {
  std::string text;
  const std::size_t n = chain.ranks.size();
  if (!chain.cycle) {
    if (n != 2) return "no rank is waiting";
    return "rank " + std::to_string(chain.ranks[0]) + " waits for rank " + std::to_string(chain.ranks[1]) +
           ", which finished without sending";
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) text += ", ";
    text += "rank " + std::to_string(chain.ranks[i]) + " waits for rank " + std::to_string(chain.ranks[(i + 1) % n]);
  }
  return text;
}

}  // namespace dsml::sim
