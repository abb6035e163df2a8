// rank_group.h — the collectives of a training strategy over MPI: one line of the rank grid (the dp ranks that
// share (t, p), or the tp ranks that share (d, p)) as its own communicator, and all-reduce, all-gather and
// reduce-scatter on this rank's doubles, each executed with the core's collective SCHEDULE (schedule_runner.h) —
// the same schedules the in-process strategies (dsml/comm.h) run on buffers, now run by processes.
//
// Sizes and shards follow dsml/comm.h: a collective over n doubles uses the schedule built for 4·n bytes (one
// schedule element = one double), and shard r of n values over p ranks is shard_sizes(n, p)[r] values at
// shard_offset(n, p, r) — the slots a reduce-scatter leaves on rank r, the slots rank r brings to an all-gather.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dsml/comm.h"
#include "rank_clock.h"
#include "schedule_runner.h"

namespace dsml::mpi {

class RankGroup {
 public:
  // Collective over `parent`: ranks with the same `color` form one group, ordered by `key`. `name` ("dp", "tp")
  // labels the time spent in `clock`.
  RankGroup(MPI_Comm parent, int color, int key, std::string name, std::string algorithm, RankClock& clock);
  ~RankGroup();
  RankGroup(const RankGroup&) = delete;
  RankGroup& operator=(const RankGroup&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }

  // Σ over the group, in place, n doubles at `data`.
  void all_reduce(double* data, std::size_t n);
  // `shard` is this rank's shard of n values → the whole n values, shards in rank order.
  Buffer all_gather(const Buffer& shard, std::size_t n);
  // `full` (n values, the same n on every rank) → this rank's shard of Σ over the group.
  Buffer reduce_scatter(const Buffer& full);

 private:
  const RankSchedule& schedule(const std::string& collective, std::size_t n);
  // The element range of the slots this rank owns must be its shard: [shard_offset, + shard size).
  void check_owned_range(const RankSchedule& schedule, std::size_t n) const;

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
  std::string name_;
  std::string algorithm_;
  RankClock& clock_;
  std::map<std::pair<std::string, std::size_t>, std::unique_ptr<RankSchedule>> schedules_;  // built once per shape
};

}  // namespace dsml::mpi
