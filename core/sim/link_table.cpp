// link_table.cpp — all-or-nothing link acquisition with FIFO retries; see link_table.h for the rule.
#include "sim/link_table.h"

#include <limits>

namespace dsml::sim {

LinkTable::LinkTable(int links)
    : links_(static_cast<std::size_t>(links)), busy_seconds_(static_cast<std::size_t>(links), 0.0) {}

void LinkTable::reserve(std::size_t messages) {
  next_.reserve(messages);
  order_.reserve(messages);
}

void LinkTable::track(int id, std::uint64_t order) {
  const auto slot = static_cast<std::size_t>(id);
  if (slot == next_.size()) {
    next_.push_back(-1);
    order_.push_back(order);
    return;
  }
  next_[slot] = -1;
  order_[slot] = order;
}

bool LinkTable::acquire_or_wait(int id, const Route& route) {
  for (const int l : route.links) {
    if (links_[l].busy) {
      insert_in_order(links_[l], id);
      return false;
    }
  }
  for (const int l : route.links) links_[l].busy = true;
  return true;
}

void LinkTable::release(const Route& route, double seconds) {
  freed_.clear();
  for (const int l : route.links) {
    Link& link = links_[l];
    link.busy = false;
    busy_seconds_[l] += seconds;
    if (link.head >= 0) freed_.push_back(l);
  }
}

int LinkTable::next_candidate() {
  // Merge the freed links' lists by posting order. A link that a retried message has just taken is busy again:
  // its remaining waiters stay where they are, blocked by it. freed_ is short (a route's length at most).
  Link* best = nullptr;
  std::uint64_t best_order = std::numeric_limits<std::uint64_t>::max();
  for (const int l : freed_) {
    Link& link = links_[l];
    if (link.busy || link.head < 0 || order_[link.head] >= best_order) continue;
    best = &link;
    best_order = order_[link.head];
  }
  if (best == nullptr) return -1;
  const int id = best->head;
  best->head = next_[id];
  if (best->head < 0) best->tail = -1;
  next_[id] = -1;
  return id;
}

void LinkTable::insert_in_order(Link& link, int id) {
  next_[id] = -1;
  if (link.head < 0) {
    link.head = link.tail = id;
  } else if (order_[link.tail] < order_[id]) {  // the usual case: a newly posted message goes last
    next_[link.tail] = id;
    link.tail = id;
  } else if (order_[id] < order_[link.head]) {  // a retried message older than every waiter here
    next_[id] = link.head;
    link.head = id;
  } else {
    int before = link.head;
    while (order_[next_[before]] < order_[id]) before = next_[before];
    next_[id] = next_[before];
    next_[before] = id;
  }
}

}  // namespace dsml::sim
