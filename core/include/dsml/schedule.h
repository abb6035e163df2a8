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

#include <string>
#include <vector>

#include "dsml/simulator.h"

namespace dsml {

struct ScheduleStep {
  enum class Kind { kSend, kRecvCopy, kRecvReduce };
  Kind kind = Kind::kSend;
  int peer = -1;           // destination (send) or source (recv)
  std::vector<int> slots;  // in message order
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
// d·k … d·k + d − 1 share node k. Any p ≥ 1 works: p = 1 gives an empty schedule; algorithms built for
// powers of two fold the extra ranks in first (Thakur et al. 2005 §4). Throws dsml::Error on unknown names or
// bad arguments, naming what is wrong.
Schedule make_schedule(const std::string& collective, const std::string& algorithm, int ranks, double bytes,
                       int root = 0, int devices_per_node = 0);

// Throws dsml::Error naming the rank and step of the first malformed step (peer out of range or itself, slot out
// of range, no slots) or an inconsistent header (steps.size() != ranks, owner of the wrong size, …).
void validate(const Schedule& schedule);

// Bytes a step moves: Σ slot_bytes over its slots.
double step_bytes(const Schedule& schedule, const ScheduleStep& step);

// "send slots {1, 2} to rank 3", "recv-reduce slot 0 from rank 1" — for error messages and traces.
std::string describe(const ScheduleStep& step);

// Programs for dsml::simulate: send → Step::send(peer, bytes); recv-copy → Step::recv(peer);
// recv-reduce → Step::recv(peer) then Step::compute(γ · bytes). γ in seconds per byte reduced, ≥ 0.
std::vector<Program> to_programs(const Schedule& schedule, double gamma);

}  // namespace dsml
