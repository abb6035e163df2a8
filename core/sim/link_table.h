// link_table.h — which links are busy, who waits for them, and how long each carried data (internal).
//
// The contention rule of dsml::simulate on any topology:
//   * a link direction carries one message at a time;
//   * a message takes every link of its route at once or none of them (all-or-nothing): it never holds some
//     links while waiting for others, so links can never deadlock;
//   * waiting messages are retried in the order they were posted (FIFO): when links free up, the oldest waiter
//     that now finds its whole route free starts first. A younger message whose route is free may start while
//     an older one still waits for some other busy link — no link is left idle for a reservation.
// A waiting message sits in the waiting list of ONE busy link of its route (the first it found busy). Until
// that link frees, the route cannot be free, so a release retries just the lists of the links it freed. (Which
// busy link does not change the outcome: a message is a candidate at the latest when its last busy link frees,
// and candidates that can start do so in posting order.) Lists are singly linked through next_ (one int per
// message slot) and kept in posting order, so nothing is allocated per message.
// On fully_connected this is exactly Week 1's rule: a send waits only for the receiver's downlink, in FIFO order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dsml/topology.h"

namespace dsml::sim {

class LinkTable {
 public:
  explicit LinkTable(int links);

  // Room for `messages` slots without growing (a run that keeps every record knows its count up front).
  void reserve(std::size_t messages);

  // Message slot `id` — a new one (= the number of slots so far) or one reused once its message was received —
  // now holds the `order`-th posted message.
  void track(int id, std::uint64_t order);

  // Takes every link of `route` for message `id` and returns true if all are free; otherwise puts `id` in the
  // waiting list of a busy one, in posting order, and returns false.
  bool acquire_or_wait(int id, const Route& route);

  // Frees the links of `route` after they carried a message for `seconds` (its T), and remembers those with waiters.
  void release(const Route& route, double seconds);

  // The oldest message waiting on a link freed by the last release() that is still free, taken off its list —
  // the caller retries it with acquire_or_wait() — or −1 when there is none left.
  int next_candidate();

  std::vector<double>& busy_seconds() { return busy_seconds_; }  // per link, s

 private:
  struct Link {
    bool busy = false;
    int head = -1;  // waiting messages, oldest first
    int tail = -1;
  };

  void insert_in_order(Link& link, int id);

  std::vector<Link> links_;
  std::vector<double> busy_seconds_;
  std::vector<int> next_;              // per message slot: the next waiter on the same link, or −1
  std::vector<std::uint64_t> order_;   // per message slot: its posting order
  std::vector<int> freed_;             // links the last release() freed that have waiters
};

}  // namespace dsml::sim
