// channel_table.h — the engine's mailboxes: per (destination, source, tag) channel, the FIFO of messages that have
// arrived and wait to be received (internal; see engine.h).
//
// Two levels. Each destination rank has one channel slot of its own (`first_`, indexed by rank): a rank receiving
// from one source at a time — every ring, tree and pairwise schedule — never leaves it. Further channels of the
// same destination go to a flat open-addressing hash table (linear probing, deletion by backward shift, no
// tombstones), not an std::unordered_map: a lean run opens and closes a channel for almost every message (a
// 16,384-rank ring all-reduce: 537 M of them), and a node-based map paid a malloc and a free each time. The
// per-rank slot is why it is two levels: lockstep collectives deliver in rank order, so the slots are visited in
// memory order, where the hash table's probes (spread on purpose) missed the cache every time. A channel lives in
// exactly one of the two places. Both arrays only grow.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
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
  // `ranks`: destinations are 0 … ranks − 1.
  explicit ChannelTable(std::size_t ranks = 0) : first_(ranks) {
    std::size_t capacity = 16;
    while (capacity < ranks / 4) capacity *= 2;  // the overflow: a few channels per destination at most, usually
    entries_.resize(capacity);
  }

  // The channel's FIFO, opened empty if it was not there. Valid until the next open() or close().
  Fifo& open(const Channel& key) {
    Slot& own = first_[static_cast<std::size_t>(key.dst)];
    if (own.used && own.src == key.src && own.tag == key.tag) return own.fifo;
    if (Fifo* other = find_in_table(key)) return *other;
    if (!own.used) {
      own = Slot{Fifo{}, key.src, key.tag, true};
      return own.fifo;
    }
    if (2 * (size_ + 1) > entries_.size()) grow();
    std::size_t i = home(key);
    while (entries_[i].used) i = (i + 1) & mask();
    entries_[i] = Entry{key, Fifo{}, true};
    ++size_;
    return entries_[i].fifo;
  }

  // The channel's FIFO, or nullptr if it is not open.
  Fifo* find(const Channel& key) {
    Slot& own = first_[static_cast<std::size_t>(key.dst)];
    if (own.used && own.src == key.src && own.tag == key.tag) return &own.fifo;
    return find_in_table(key);
  }

  // Closes the channel whose FIFO `find` or `open` returned.
  void close(Fifo* fifo) {
    // std::less orders any two pointers (the built-in < only those into one array).
    const std::less<const Fifo*> before;
    if (!first_.empty() && !before(fifo, &first_.front().fifo) && !before(&first_.back().fifo, fifo)) {
      reinterpret_cast<Slot*>(fifo)->used = false;  // fifo is its Slot's first member
      return;
    }
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
    for (std::size_t dst = 0; dst < first_.size(); ++dst)
      if (first_[dst].used) visit(Channel{static_cast<int>(dst), first_[dst].src, first_[dst].tag}, first_[dst].fifo);
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

  struct Slot {
    Fifo fifo;  // first, so a Fifo* is its Slot's address
    int src = 0, tag = 0;
    bool used = false;
  };

  Fifo* find_in_table(const Channel& key) {
    if (size_ == 0) return nullptr;  // the usual case: no probe at all
    for (std::size_t i = home(key); entries_[i].used; i = (i + 1) & mask())
      if (entries_[i].key == key) return &entries_[i].fifo;
    return nullptr;
  }

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
    for (const Entry& e : old) {
      if (!e.used) continue;
      std::size_t i = home(e.key);
      while (entries_[i].used) i = (i + 1) & mask();
      entries_[i] = e;
    }
  }

  std::vector<Slot> first_;     // per destination rank: its own channel
  std::vector<Entry> entries_;  // size: a power of two, at most half full
  std::size_t size_ = 0;
};

}  // namespace dsml::sim
