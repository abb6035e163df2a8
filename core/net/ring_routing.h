// ring_routing.h — shortest-direction routing around one ring of k positions (internal).
//
// Shared by ring (the whole network is one ring) and torus2d (a ring along every row and every column).
// Directed links of a ring of k positions are numbered
//   k ≥ 3:  clockwise j → j+1 (mod k) is link j, counter-clockwise j+1 → j is link k + j   (2k links)
//   k = 2:  one neighbour pair, one link per direction: 0 → 1 is link 0, 1 → 0 is link 1  (2 links)
//   k = 1:  no links.
#pragma once

namespace dsml::net {

// How many directed links a ring of k positions has (see above).
int ring_link_count(int k);

struct RingPath {
  int step = +1;  // +1 clockwise (increasing position), −1 counter-clockwise
  int hops = 0;
};

// The shorter way from `from` to `to`: min(d, k − d) hops with d = (to − from) mod k. Half-way round (k even,
// d = k/2) both ways are equally short; we go clockwise, so routing is deterministic.
RingPath ring_path(int from, int to, int k);

// The link leaving position `from` in direction `step` (only the directions ring_path can return). Inline and
// free of divisions: routing runs this once per hop, several times per simulated message.
inline int ring_link(int k, int from, int step) {
  if (step > 0) return from;               // from → from + 1 (for k = 2 also the only link leaving `from`)
  return k + (from == 0 ? k - 1 : from - 1);  // from → from − 1: the counter-clockwise link of pair (from − 1, from)
}

// The next position in direction `step`, wrapping round.
inline int ring_next(int k, int at, int step) {
  at += step;
  return at == k ? 0 : (at < 0 ? k - 1 : at);
}

// The positions a link joins: link goes from `from` to `to`.
void ring_link_ends(int k, int link, int& from, int& to);

}  // namespace dsml::net
