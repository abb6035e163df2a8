// event_queue.h — the engine's pending events, popped in (time, creation order), without a heap of events
// (internal; see engine.h).
//
// A collective runs in lockstep: on a uniform network every rank's transfer of a round ends at the same instant, so
// the p events pending at once share a handful of distinct times. A binary heap of the p events paid log₂p
// comparisons per pop (14 at 16,384 ranks), each a likely cache miss. Here the events are grouped by time instead:
// each distinct pending time has a FIFO bucket, and only the buckets sit in a heap. An event is appended to its
// time's bucket; since events are created in increasing order, every bucket is already in creation order, so the
// pops come out exactly as the heap ordered them — (time, then creation order) — and a run is bit-identical.
// Finding a time's bucket: the last bucket pushed to is checked first (the common case: a round's events all end
// together), then a small open-addressing table from the time's bits to its bucket. Buckets are recycled, so a run
// allocates nothing once the largest set of pending times has been seen. When every pending time is distinct
// (irregular compute) each bucket holds one event and this is a heap of buckets: no worse than before.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace dsml::sim {

template <typename Payload>
class EventQueue {
 public:
  struct Item {
    double time;
    Payload payload;
  };

  bool empty() const { return heap_.empty(); }

  void push(double time, const Payload& payload) {
    int b = last_ >= 0 && buckets_[static_cast<std::size_t>(last_)].time == time ? last_ : find(time);
    if (b < 0) b = open(time);
    buckets_[static_cast<std::size_t>(b)].items.push_back(payload);
    last_ = b;
  }

  // The earliest event, earliest created first among equal times. The queue must not be empty.
  Item pop() {
    const int b = heap_.front();
    Bucket& bucket = buckets_[static_cast<std::size_t>(b)];
    Item item{bucket.time, bucket.items[bucket.head++]};
    if (bucket.head == bucket.items.size()) close(b);
    return item;
  }

 private:
  struct Bucket {
    double time = 0.0;
    std::vector<Payload> items;  // in creation order; items[head …] still pending
    std::size_t head = 0;
  };

  static std::uint64_t bits(double time) {
    std::uint64_t b;
    std::memcpy(&b, &time, sizeof b);
    return b;
  }
  std::size_t home(double time) const {
    std::uint64_t x = bits(time);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return static_cast<std::size_t>(x ^ (x >> 31)) & (table_.size() - 1);
  }

  // The bucket of `time`, or −1. (Times compared by value: −0 and +0 are one time, as they were in the heap.)
  int find(double time) const {
    if (table_.empty()) return -1;
    if (time == 0.0) time = 0.0;  // one bit pattern for ±0
    for (std::size_t i = home(time);; i = (i + 1) & (table_.size() - 1)) {
      const int b = table_[i];
      if (b < 0) return -1;
      if (buckets_[static_cast<std::size_t>(b)].time == time) return b;
    }
  }

  int open(double time) {
    if (time == 0.0) time = 0.0;
    int b;
    if (!free_.empty()) {
      b = free_.back();
      free_.pop_back();
    } else {
      b = static_cast<int>(buckets_.size());
      buckets_.emplace_back();
    }
    Bucket& bucket = buckets_[static_cast<std::size_t>(b)];
    bucket.time = time;
    bucket.items.clear();
    bucket.head = 0;
    if (2 * (heap_.size() + 1) > table_.size()) rehash(table_.empty() ? 16 : 2 * table_.size());
    insert(b);
    heap_.push_back(b);
    sift_up(heap_.size() - 1);
    return b;
  }

  void close(int b) {
    erase(b);
    if (last_ == b) last_ = -1;
    free_.push_back(b);
    heap_.front() = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(0);
  }

  // The time table: open addressing, linear probing, deletion by backward shift (as channel_table.h).
  void insert(int b) {
    std::size_t i = home(buckets_[static_cast<std::size_t>(b)].time);
    while (table_[i] >= 0) i = (i + 1) & (table_.size() - 1);
    table_[i] = b;
  }
  void erase(int b) {
    const std::size_t mask = table_.size() - 1;
    std::size_t hole = home(buckets_[static_cast<std::size_t>(b)].time);
    while (table_[hole] != b) hole = (hole + 1) & mask;
    for (std::size_t j = hole;;) {
      table_[hole] = -1;
      for (;;) {
        j = (j + 1) & mask;
        if (table_[j] < 0) return;
        const std::size_t k = home(buckets_[static_cast<std::size_t>(table_[j])].time);
        const bool stays = hole <= j ? (hole < k && k <= j) : (hole < k || k <= j);  // k cyclically in (hole, j]
        if (!stays) break;
      }
      table_[hole] = table_[j];
      hole = j;
    }
  }
  void rehash(std::size_t size) {
    table_.assign(size, -1);
    for (const int b : heap_) insert(b);
  }

  // The heap of open buckets, earliest time on top (distinct times: no ties to break).
  bool earlier(int a, int b) const {
    return buckets_[static_cast<std::size_t>(a)].time < buckets_[static_cast<std::size_t>(b)].time;
  }
  void sift_up(std::size_t i) {
    while (i > 0) {
      const std::size_t parent = (i - 1) / 2;
      if (!earlier(heap_[i], heap_[parent])) return;
      std::swap(heap_[i], heap_[parent]);
      i = parent;
    }
  }
  void sift_down(std::size_t i) {
    for (;;) {
      std::size_t first = i;
      const std::size_t left = 2 * i + 1, right = left + 1;
      if (left < heap_.size() && earlier(heap_[left], heap_[first])) first = left;
      if (right < heap_.size() && earlier(heap_[right], heap_[first])) first = right;
      if (first == i) return;
      std::swap(heap_[i], heap_[first]);
      i = first;
    }
  }

  std::vector<Bucket> buckets_;  // open and recycled
  std::vector<int> free_;        // recycled bucket ids
  std::vector<int> heap_;        // open buckets by time
  std::vector<int> table_;       // time → bucket (−1 empty); size a power of two, at most half full
  int last_ = -1;                // the bucket pushed to last, if still open
};

}  // namespace dsml::sim
