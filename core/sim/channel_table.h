// channel_table.h — the engine's mailboxes: per (destination, source, tag) channel, the FIFO of messages that have
// arrived and wait to be received (internal; see engine.h).
//
// A flat open-addressing hash table (linear probing, deletion by backward shift, no tombstones) instead of an
// std::unordered_map: a lean run opens and closes a channel for almost every message (a 4096-rank ring all-reduce:
// 33 M of them), and a node-based map paid a malloc and a free each time. Entries live in one array that only grows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dsml::sim {

// Intrusive FIFO of message ids; the links live in the engine (next_[id]).
struct Fifo {
  int head = -1;
  int tail = -1;
  bool empty() const { return head < 0; }
};

struct Channel {
  int dst, src, tag;
  bool operator==(const Channel& o) const { return dst == o.dst && src == o.src && tag == o.tag; }
};

class ChannelTable {
 public:
  explicit ChannelTable(std::size_t expected = 16) {
    std::size_t capacity = 16;
    while (capacity < 2 * expected) capacity *= 2;
    entries_.resize(capacity);
  }

  // The channel's FIFO, opened empty if it was not there. Valid until the next open() or close().
  Fifo& open(const Channel& key) {
    if (2 * (size_ + 1) > entries_.size()) grow();
    std::size_t i = home(key);
    while (entries_[i].used && !(entries_[i].key == key)) i = (i + 1) & mask();
    if (!entries_[i].used) {
      entries_[i] = Entry{key, Fifo{}, true};
      ++size_;
    }
    return entries_[i].fifo;
  }

  // The channel's FIFO, or nullptr if it is not open.
  Fifo* find(const Channel& key) {
    for (std::size_t i = home(key); entries_[i].used; i = (i + 1) & mask())
      if (entries_[i].key == key) return &entries_[i].fifo;
    return nullptr;
  }

  // Closes the channel whose FIFO `find` or `open` returned.
  void close(Fifo* fifo) {
    std::size_t hole = static_cast<std::size_t>(reinterpret_cast<Entry*>(fifo) - entries_.data());
    --size_;
    // Backward shift: move later entries of the probe run into the hole when their home allows it.
    for (std::size_t j = hole;;) {
      entries_[hole].used = false;
      for (;;) {
        j = (j + 1) & mask();
        if (!entries_[j].used) return;
        const std::size_t k = home(entries_[j].key);
        const bool stays = hole <= j ? (hole < k && k <= j) : (hole < k || k <= j);  // k cyclically in (hole, j]
        if (!stays) break;
      }
      entries_[hole] = entries_[j];
      hole = j;
    }
  }

  template <typename F>
  void for_each(F visit) const {
    for (const Entry& e : entries_)
      if (e.used) visit(e.key, e.fifo);
  }

 private:
  struct Entry {
    Fifo fifo;  // first, so a Fifo* is its Entry's address
    Channel key;
    bool used;
    Entry() : fifo{}, key{0, 0, 0}, used(false) {}
    Entry(const Channel& k, const Fifo& f, bool u) : fifo(f), key(k), used(u) {}
  };

  std::size_t mask() const { return entries_.size() - 1; }
  std::size_t home(const Channel& c) const {
    // splitmix64-style mixing of the three ints; ranks and tags are small, so spread them over all bits.
    std::uint64_t x = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.dst)) << 32) ^
                      static_cast<std::uint32_t>(c.src);
    x ^= static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.tag)) * 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return static_cast<std::size_t>(x ^ (x >> 31)) & mask();
  }
  void grow() {
    std::vector<Entry> old(entries_.size() * 2);
    old.swap(entries_);
    size_ = 0;
    for (const Entry& e : old)
      if (e.used) open(e.key) = e.fifo;
  }

  std::vector<Entry> entries_;  // size: a power of two, at most half full
  std::size_t size_ = 0;
};

}  // namespace dsml::sim
