// dsml/schedule.h — a collective algorithm as data: per rank, an ordered list of send / receive steps.
//
// One algorithm, many executors (DESIGN.md): a generator writes a Schedule once; the buffer executor checks that
// it computes the collective (collective_executor.h), to_programs() turns it into simulator programs to time it
// (simulator.h), the browser runs it on Workers, and collective_cost.h gives its closed-form α–β–γ cost
// (Thakur, Rabenseifner & Gropp, "Optimization of Collective Communication Operations in MPICH", IJHPCA 2005).
//
// Slots. Every rank sees the same layout: the collective's data split into slot_bytes.size() chunks. A step
// names slots, never byte offsets, so one schedule reads the same at any message size:
//   send         the message carries the listed slots' current contents, concatenated in that order;
//   recv-copy    the message's i-th chunk replaces slots[i];
//   recv-reduce  the message's i-th chunk is added into slots[i] (costs γ per byte when timed).
// Message bytes = Σ slot_bytes over the listed slots. Matching is FIFO per (source, destination): a rank's
// k-th receive from s takes the k-th message s sent it. Sends are eager: they never wait for the receiver.
//
// What each collective promises, over slots (p ranks; sums are element-wise over all ranks):
//   broadcast(root)   root holds every slot              → every rank holds root's slots
//   reduce(root)      every rank holds its own values     → root holds the sums
//   all-reduce        every rank holds its own values     → every rank holds the sums
//   all-gather        rank r holds the slots it owns      → every rank holds every slot (owner[slot] says whose)
//   reduce-scatter    every rank holds its own values     → rank owner[slot] holds that slot's sum
//   all-to-all        p·p slots; slot i·p + j is rank i's block for rank j, held by rank i
//                                                        → rank j holds slots i·p + j for every i
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "dsml/simulator.h"

namespace dsml {

// The slots one step names, in message order. Reads and writes like a std::vector<int> (and compares equal to
// one), but keeps up to two slots inside the step instead of in a heap block of their own. Why: the ring
// all-reduce on 1024 ranks has 4.2 M steps of one slot each; a heap block per step made building, converting
// and freeing the schedule cost more than simulating it (page faults, malloc/free: ~1 s natively, more in wasm).
class SlotList {
 public:
  using value_type = int;
  using size_type = std::size_t;
  using reference = int&;
  using const_reference = const int&;
  using iterator = int*;
  using const_iterator = const int*;

  SlotList() noexcept {}
  SlotList(std::initializer_list<int> slots) { assign(slots.begin(), slots.end()); }
  SlotList(const std::vector<int>& slots) { assign(slots.data(), slots.data() + slots.size()); }  // NOLINT: implicit
  SlotList(const SlotList& other) { assign(other.begin(), other.end()); }
  SlotList(SlotList&& other) noexcept { take(other); }
  SlotList& operator=(const SlotList& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  SlotList& operator=(SlotList&& other) noexcept {
    if (this != &other) {
      release();
      take(other);
    }
    return *this;
  }
  SlotList& operator=(std::initializer_list<int> slots) {
    assign(slots.begin(), slots.end());
    return *this;
  }
  ~SlotList() { release(); }

  size_type size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  int* data() noexcept { return on_heap() ? heap_ : inline_; }
  const int* data() const noexcept { return on_heap() ? heap_ : inline_; }
  iterator begin() noexcept { return data(); }
  iterator end() noexcept { return data() + size_; }
  const_iterator begin() const noexcept { return data(); }
  const_iterator end() const noexcept { return data() + size_; }
  int& operator[](size_type i) noexcept { return data()[i]; }
  const int& operator[](size_type i) const noexcept { return data()[i]; }
  int& front() noexcept { return data()[0]; }
  int& back() noexcept { return data()[size_ - 1]; }
  const int& front() const noexcept { return data()[0]; }
  const int& back() const noexcept { return data()[size_ - 1]; }

  void push_back(int slot) {
    if (size_ == capacity_) grow(2 * static_cast<size_type>(capacity_));
    data()[size_++] = slot;
  }
  void pop_back() noexcept { --size_; }
  void clear() noexcept { size_ = 0; }
  void reserve(size_type n) {
    if (n > capacity_) grow(n);
  }
  // Makes the list exactly {slot}. Never allocates: one slot always fits (inline, or in the heap block).
  void set_single(int slot) noexcept {
    data()[0] = slot;
    size_ = 1;
  }
  std::vector<int> to_vector() const { return std::vector<int>(begin(), end()); }
  void assign(const int* first, const int* last) {  // [first, last) must not point into *this
    const auto n = static_cast<size_type>(last - first);
    size_ = 0;
    reserve(n);
    std::copy(first, last, data());
    size_ = static_cast<std::uint32_t>(n);
  }

 private:
  static constexpr std::uint32_t kInline = 2;  // fits in the pointer's room on 64-bit hosts

  bool on_heap() const noexcept { return capacity_ > kInline; }
  void grow(size_type n) {
    int* fresh = new int[n];
    std::copy(begin(), end(), fresh);
    release();
    heap_ = fresh;
    capacity_ = static_cast<std::uint32_t>(n);
  }
  void release() noexcept {
    if (on_heap()) delete[] heap_;
  }
  void take(SlotList& other) noexcept {  // *this holds nothing on the heap
    size_ = other.size_;
    capacity_ = other.capacity_;
    if (other.on_heap()) heap_ = other.heap_;
    else std::copy(other.inline_, other.inline_ + kInline, inline_);
    other.size_ = 0;
    other.capacity_ = kInline;
  }

  std::uint32_t size_ = 0;
  std::uint32_t capacity_ = kInline;
  union {
    int inline_[kInline] = {0, 0};
    int* heap_;
  };
};

inline bool operator==(const SlotList& a, const SlotList& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}
inline bool operator==(const SlotList& a, const std::vector<int>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}
inline bool operator==(const std::vector<int>& a, const SlotList& b) { return b == a; }
inline bool operator!=(const SlotList& a, const SlotList& b) { return !(a == b); }
inline bool operator!=(const SlotList& a, const std::vector<int>& b) { return !(a == b); }
inline bool operator!=(const std::vector<int>& a, const SlotList& b) { return !(b == a); }

struct ScheduleStep {
  enum class Kind { kSend, kRecvCopy, kRecvReduce };
  Kind kind = Kind::kSend;
  int peer = -1;   // destination (send) or source (recv)
  SlotList slots;  // in message order
};

struct Schedule {
  std::string collective;  // "broadcast", "reduce", "all-reduce", "all-gather", "reduce-scatter", "all-to-all"
  std::string algorithm;   // e.g. "ring"; list_algorithms() names them all
  int ranks = 0;
  int root = 0;                                  // broadcast and reduce; 0 for the others
  std::vector<double> slot_bytes;                // bytes per slot; sums to the collective's data size
  std::vector<int> owner;                        // all-gather, reduce-scatter: owning rank per slot; else empty
  std::vector<std::vector<ScheduleStep>> steps;  // steps[rank], executed in order
};

struct AlgorithmName {
  std::string collective;
  std::string algorithm;
};

// Every (collective, algorithm) make_schedule knows, grouped by collective, naive before optimised.
std::vector<AlgorithmName> list_algorithms();

// Builds the schedule of `algorithm` for `collective` on `ranks` ranks moving `bytes` bytes:
//   broadcast, reduce, all-reduce: the vector every rank holds (n);   all-gather: the gathered total (n);
//   reduce-scatter: each rank's input (n);                             all-to-all: what each rank sends in total,
//   its own block included (n). The data are float32 elements: bytes must be a whole multiple of 4. Slots are
// as equal as possible (the first (n/4) mod k slots one element larger). `root` is used by broadcast and reduce
// (the other collectives record root 0). `devices_per_node` is used by "hierarchical" all-reduce only: ranks
// d·k … d·k + d − 1 share node k. `segments` is used by the pipelined broadcasts only ("pipelined-chain",
// "pipelined-tree"): the message is cut into that many slots, 0 meaning p of them. Any p ≥ 1 works: p = 1 gives an empty schedule; algorithms built for
// powers of two fold the extra ranks in first (Thakur et al. 2005 §4). Throws dsml::Error on unknown names or
// bad arguments, naming what is wrong.
// The pipelined broadcasts accept segments × ranks up to this (2^22: about the steps of the ring all-reduce on
// 1024 ranks).
constexpr double kMaxPipelineSegmentsTimesRanks = 4194304;

Schedule make_schedule(const std::string& collective, const std::string& algorithm, int ranks, double bytes,
                       int root = 0, int devices_per_node = 0, int segments = 0);
// The element make_schedule counts: float32. Executors that move other elements (doubles in comm.h, any
// element_bytes in step_cost.h) build the schedule for n·4 bytes and rescale.
constexpr int kScheduleElementBytes = 4;

// Throws dsml::Error naming the rank and step of the first malformed step (peer out of range or itself, slot out
// of range, no slots) or an inconsistent header (steps.size() != ranks, owner of the wrong size, …).
void validate(const Schedule& schedule);

// Bytes a step moves: Σ slot_bytes over its slots.
double step_bytes(const Schedule& schedule, const ScheduleStep& step);
// Max over ranks of the bytes the rank sends (Σ step_bytes of its sends): what comm.h logs per call.
double busiest_rank_send_bytes(const Schedule& schedule);

// "send slots {1, 2} to rank 3", "recv-reduce slot 0 from rank 1" — for error messages and traces.
std::string describe(const ScheduleStep& step);

// Programs for dsml::simulate: send → Step::send(peer, bytes); recv-copy → Step::recv(peer);
// recv-reduce → Step::recv(peer) then Step::compute(γ · bytes). γ in seconds per byte reduced, ≥ 0.
std::vector<Program> to_programs(const Schedule& schedule, double gamma);

}  // namespace dsml
