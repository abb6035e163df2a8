// dsml/lazy_schedule.h — a collective schedule read one step at a time, never built as a whole.
//
// A Schedule (schedule.h) lists every step of every rank: the ring all-reduce on p ranks has 4p(p − 1) of them,
// 4.2 M at 1024 ranks (265 MB with its simulator programs) and 67 M at 4096. But the simulator only ever needs
// each rank's next step. A LazySchedule answers "what is rank r's step i?" on demand — for the ring family, the
// hierarchical all-reduce and the pairwise reduce-scatter from the algorithm's formula (lazy_ring.cpp,
// lazy_hierarchical.cpp, lazy_pairwise.cpp; O(1) per step, O(p/d) for a hierarchical step inside a node), with
// no per-step storage — so simulating it takes memory that grows with p (the header, one cursor per rank) and the
// messages in flight, not with p².
//
//   auto ring = dsml::make_lazy_schedule("all-reduce", "ring", 4096, 1 << 20);
//   dsml::SimResult r = dsml::simulate_schedule(dsml::Topology::fully_connected(4096, model), *ring, 0.0);
//
// The steps are exactly make_schedule's, in the same order (tests/core/test_lazy_schedule.cpp checks every step
// and the simulated result for each algorithm), so a run gives bit-identical times and traces. Algorithms without
// a formula of their own are built with make_schedule and read back step by step (same limits as make_schedule).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "dsml/schedule.h"
#include "dsml/simulator.h"

namespace dsml {

class LazySchedule {
 public:
  explicit LazySchedule(Schedule header);  // collective, algorithm, ranks, root, slot_bytes, owner; steps empty
  virtual ~LazySchedule() = default;

  const Schedule& header() const { return header_; }
  // Rank `rank`'s step number `index` (from 0, in the order the rank executes them) into `out`; false when the
  // rank has no such step. Any index may be asked, in any order.
  virtual bool step(int rank, std::size_t index, ScheduleStep& out) const = 0;

 private:
  Schedule header_;
};

// The largest p make_lazy_schedule accepts for an algorithm with a lazy generator. The simulation itself still
// moves O(p²) messages — the ring all-reduce on 16,384 ranks 537 M of them, the hierarchical one (8 devices per
// node) 67 M — so the cap is what a run can afford in time, no longer in memory: natively, a 16,384-rank ring takes
// well under a minute in a few MB (bench/collective_16k.sh). Above it make_lazy_schedule throws, naming the cap.
constexpr int kMaxRanksLazy = 16384;

// make_schedule's arguments and checks (schedule.h); the ring all-reduce, all-gather and reduce-scatter, the
// hierarchical all-reduce and the pairwise reduce-scatter are generated step by step and accept up to kMaxRanksLazy ranks, every other algorithm
// is built whole (make_schedule's limits).
std::unique_ptr<LazySchedule> make_lazy_schedule(const std::string& collective, const std::string& algorithm, int ranks,
                                                 double bytes, int root = 0, int devices_per_node = 0,
                                                 int segments = 0);

// A built schedule, read step by step (validated first).
std::unique_ptr<LazySchedule> read_lazily(Schedule schedule);

// Every step written out: make_schedule's result again. For tests and small p.
Schedule materialise(const LazySchedule& schedule);

// to_programs() + simulate() without the programs: each rank's steps are made as the simulator reaches them
// (send → send, recv-copy → recv, recv-reduce → recv then compute γ·bytes, exactly as to_programs). Throws
// dsml::Error on a negative γ or a malformed step (naming its rank and step, as validate()).
SimResult simulate_schedule(const Topology& topology, const LazySchedule& schedule, double gamma,
                            const SimOptions& options = {});

}  // namespace dsml
