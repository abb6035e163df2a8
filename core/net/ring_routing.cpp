// ring_routing.cpp — see ring_routing.h.
#include "net/ring_routing.h"

namespace dsml::net {

int ring_link_count(int k) { return k >= 3 ? 2 * k : (k == 2 ? 2 : 0); }

RingPath ring_path(int from, int to, int k) {
  const int d = ((to - from) % k + k) % k;  // clockwise distance, 0 … k − 1
  if (2 * d <= k) return RingPath{+1, d};
  return RingPath{-1, k - d};
}

void ring_link_ends(int k, int link, int& from, int& to) {
  if (link < k) {
    from = link;
    to = (link + 1) % k;
  } else {
    to = link - k;
    from = (to + 1) % k;
  }
}

}  // namespace dsml::net
