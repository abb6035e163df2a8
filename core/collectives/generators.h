// generators.h — the schedule generators and the building blocks they share (internal; the public facade is
// dsml/schedule.h).
//
// A generator fills in a Schedule whose header (collective, algorithm, ranks, root, one empty step list per
// rank) registry.cpp has already written: it sets slot_bytes, owner and the steps. Composite algorithms stack
// the blocks of simpler ones — a ring all-reduce is a ring reduce-scatter followed by a ring all-gather — so
// the blocks take a group of member ranks and the "parts" (lists of slots) they work on, not the whole world.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <vector>

#include "dsml/lazy_schedule.h"
#include "dsml/schedule.h"

namespace dsml::collectives {

struct Request {
  int ranks = 1;
  double bytes = 0.0;  // validated: finite, ≥ 0, a multiple of kElementBytes
  int root = 0;
  int devices_per_node = 0;
  int segments = 1;  // pipelined broadcasts: how many pieces the message is cut into (validated ≥ 1)
};

using Generator = void (*)(const Request&, Schedule&);
// A lazy generator gets the same header (steps empty), fills in slot_bytes and owner, and returns the steps as
// formulas (lazy_schedule.h).
using LazyGenerator = std::unique_ptr<LazySchedule> (*)(const Request&, Schedule header);

constexpr int kElementBytes = kScheduleElementBytes;  // float32 (schedule.h)

// ---- chunking.cpp ------------------------------------------------------------------------------------------
// `bytes` split into `parts` slots of whole elements, as equal as possible: the first (bytes/4) mod parts
// slots hold one element more.
std::vector<double> split_bytes(double bytes, int parts);
// {begin, begin + 1, …, end − 1}
std::vector<int> slot_range(int begin, int end);
// parts[begin] ++ parts[begin + 1] ++ … ++ parts[end − 1]
std::vector<int> join_parts(const std::vector<std::vector<int>>& parts, int begin, int end);
// One part per slot: {{0}, {1}, …, {count − 1}}.
std::vector<std::vector<int>> one_slot_parts(int count);
// a mod p in [0, p), for negative a too.
inline int wrap(int a, int p) { return ((a % p) + p) % p; }
// Smallest k with 2^k ≥ p (0 for p = 1), and the largest power of two ≤ p.
int ceil_log2(int p);
int floor_power_of_two(int p);

// ---- step helpers (schedule.cpp) ---------------------------------------------------------------------------
// validate()'s check of one step: rank r's step number `index` against the header's ranks and slots.
void check_step(const Schedule& header, int r, std::size_t index, const ScheduleStep& step);
// Appends one step to rank's list, the slots copied straight into it. Why pointers and no temporaries: in the
// wasm build (C++ exceptions emulated through JavaScript) every call made while an object with a destructor is
// alive goes through a JS trampoline, and the O(p²) generators append millions of steps.
void add_step(Schedule& s, int rank, ScheduleStep::Kind kind, int peer, const int* slots, std::size_t count);
inline void add_send(Schedule& s, int rank, int to, const std::vector<int>& slots) {
  add_step(s, rank, ScheduleStep::Kind::kSend, to, slots.data(), slots.size());
}
inline void add_send(Schedule& s, int rank, int to, std::initializer_list<int> slots) {
  add_step(s, rank, ScheduleStep::Kind::kSend, to, slots.begin(), slots.size());
}
inline void add_recv_copy(Schedule& s, int rank, int from, const std::vector<int>& slots) {
  add_step(s, rank, ScheduleStep::Kind::kRecvCopy, from, slots.data(), slots.size());
}
inline void add_recv_copy(Schedule& s, int rank, int from, std::initializer_list<int> slots) {
  add_step(s, rank, ScheduleStep::Kind::kRecvCopy, from, slots.begin(), slots.size());
}
inline void add_recv_reduce(Schedule& s, int rank, int from, const std::vector<int>& slots) {
  add_step(s, rank, ScheduleStep::Kind::kRecvReduce, from, slots.data(), slots.size());
}
inline void add_recv_reduce(Schedule& s, int rank, int from, std::initializer_list<int> slots) {
  add_step(s, rank, ScheduleStep::Kind::kRecvReduce, from, slots.begin(), slots.size());
}
// Both halves of one message: `from` sends `slots`, `to` receives them (copy or reduce) — in that order in
// each rank's own list.
void add_transfer(Schedule& s, int from, int to, const std::vector<int>& slots, bool reduce);
inline void add_transfer(Schedule& s, int from, int to, std::initializer_list<int> slots, bool reduce) {
  add_transfer(s, from, to, std::vector<int>(slots), reduce);
}
// Makes room for `more` further steps on each of `ranks`, so a block that knows how many steps it appends
// allocates each rank's list once instead of growing it by doubling (4 M steps at 1024 ranks).
void reserve_steps(Schedule& s, const std::vector<int>& ranks, std::size_t more);

// ---- power_of_two_fold.cpp (Thakur et al. 2005 §4) ---------------------------------------------------------
// p = p' + r with p' the largest power of two ≤ p. The first 2r ranks pair up (2i, 2i + 1); the even one hands
// its data to the odd one and sits out, so p' ranks — `members` — run the power-of-two algorithm:
//   members[i] = 2i + 1 for i < r,   i + r for i ≥ r.
// Member i stands for the ranks represented[i] ({2i, 2i + 1} or {i + r}).
struct PowerOfTwoFold {
  int extra = 0;                               // r
  std::vector<int> members;                    // p' ranks
  std::vector<std::vector<int>> represented;  // per member, the original ranks it stands for
};
PowerOfTwoFold fold_to_power_of_two(int ranks);

// ---- blocks (each in the file of the algorithm it comes from) ---------------------------------------------
// reduce_scatter_ring.cpp: q members in a ring; member i ends holding parts[i] summed over all members.
void append_ring_reduce_scatter(Schedule& s, const std::vector<int>& members,
                                const std::vector<std::vector<int>>& parts);
// allgather_ring.cpp: member i holds parts[i]; every member ends holding every part.
void append_ring_allgather(Schedule& s, const std::vector<int>& members, const std::vector<std::vector<int>>& parts);
// reduce_scatter_recursive_halving.cpp: a power-of-two number of members; member i ends with parts[i] summed.
void append_recursive_halving(Schedule& s, const std::vector<int>& members,
                              const std::vector<std::vector<int>>& parts);
// allgather_recursive_doubling.cpp: a power-of-two number of members; member i holds parts[i], all end with all.
void append_recursive_doubling_allgather(Schedule& s, const std::vector<int>& members,
                                         const std::vector<std::vector<int>>& parts);
// reduce_linear.cpp / broadcast_linear.cpp: the root talks to every other rank in turn.
void append_linear_reduce(Schedule& s, int root, const std::vector<int>& slots);
void append_linear_broadcast(Schedule& s, int root, const std::vector<int>& slots);

// ---- generators, one per file -------------------------------------------------------------------------------
void broadcast_linear(const Request& request, Schedule& s);
void broadcast_binomial(const Request& request, Schedule& s);
void broadcast_scatter_allgather(const Request& request, Schedule& s);
void broadcast_pipelined_chain(const Request& request, Schedule& s);
void broadcast_pipelined_tree(const Request& request, Schedule& s);
void reduce_linear(const Request& request, Schedule& s);
void reduce_binomial(const Request& request, Schedule& s);
void allreduce_naive(const Request& request, Schedule& s);
void allreduce_ring(const Request& request, Schedule& s);
void allreduce_recursive_doubling(const Request& request, Schedule& s);
void allreduce_rabenseifner(const Request& request, Schedule& s);
void allreduce_hierarchical(const Request& request, Schedule& s);
void allgather_ring(const Request& request, Schedule& s);
void allgather_recursive_doubling(const Request& request, Schedule& s);
void allgather_bruck(const Request& request, Schedule& s);
void reduce_scatter_ring(const Request& request, Schedule& s);
void reduce_scatter_recursive_halving(const Request& request, Schedule& s);
void reduce_scatter_pairwise(const Request& request, Schedule& s);
void alltoall_pairwise(const Request& request, Schedule& s);

// ---- lazy generators (lazy_ring.cpp, lazy_pairwise.cpp, lazy_hierarchical.cpp) ---------------------------------
// One step of a ring block as a formula: member i of a q-member ring, its step `within` (0 ≤ within < 2(q − 1)) of
// append_ring_reduce_scatter (`reducing`) or append_ring_allgather, with the parts indexed as those blocks index
// them. In round k = within / 2 member i sends (even `within`) to member i + 1 the part i − k − 1 (reducing) or
// i − k (gathering), then receives from member i − 1 the part one further back (mod q).
struct RingBlockStep {
  bool send;
  int peer;  // the member sent to or received from
  int part;  // index into the block's parts
};
inline RingBlockStep ring_block_step(int i, int q, std::size_t within, bool reducing) {
  const int k = static_cast<int>(within / 2);
  const bool send = within % 2 == 0;
  // With 0 ≤ i, k < q the part lies in (−q − 2, q): conditional adds bring it into [0, q) without a division.
  int part = i - k - (reducing ? 1 : 0) - (send ? 0 : 1);
  if (part < 0) part += q;
  if (part < 0) part += q;
  const int peer = send ? (i + 1 == q ? 0 : i + 1) : (i == 0 ? q - 1 : i - 1);
  return {send, peer, part};
}

std::unique_ptr<LazySchedule> lazy_allreduce_ring(const Request& request, Schedule header);
std::unique_ptr<LazySchedule> lazy_allgather_ring(const Request& request, Schedule header);
std::unique_ptr<LazySchedule> lazy_reduce_scatter_ring(const Request& request, Schedule header);
std::unique_ptr<LazySchedule> lazy_reduce_scatter_pairwise(const Request& request, Schedule header);
std::unique_ptr<LazySchedule> lazy_allreduce_hierarchical(const Request& request, Schedule header);

}  // namespace dsml::collectives
