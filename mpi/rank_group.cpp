// rank_group.cpp — see rank_group.h.
#include "rank_group.h"

#include <algorithm>

#include "dsml/error.h"
#include "dsml/schedule.h"

namespace dsml::mpi {

RankGroup::RankGroup(MPI_Comm parent, int color, int key, std::string name, std::string algorithm, RankClock& clock)
    : name_(std::move(name)), algorithm_(std::move(algorithm)), clock_(clock) {
  MPI_Comm_split(parent, color, key, &comm_);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

RankGroup::~RankGroup() {
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

const RankSchedule& RankGroup::schedule(const std::string& collective, std::size_t n) {
  std::unique_ptr<RankSchedule>& slot = schedules_[{collective, n}];
  if (!slot) {
    slot = std::make_unique<RankSchedule>(make_schedule(collective, algorithm_, size_, 4.0 * static_cast<double>(n)),
                                          rank_);
    if (collective != "all-reduce") check_owned_range(*slot, n);
  }
  return *slot;
}

void RankGroup::check_owned_range(const RankSchedule& schedule, std::size_t n) const {
  const Schedule& h = schedule.header();
  const SlotLayout& layout = schedule.layout();
  std::size_t first = layout.total();
  std::size_t count = 0;
  for (std::size_t s = 0; s < layout.slots(); ++s)
    if (h.owner[s] == rank_) {
      first = std::min(first, layout.offset[s]);
      count += layout.elements(s);
    }
  const std::size_t want = shard_sizes(n, size_)[static_cast<std::size_t>(rank_)];
  if (count != want || (want > 0 && first != shard_offset(n, size_, rank_)))
    throw Error("the " + h.algorithm + " " + h.collective + " schedule's slots on rank " + std::to_string(rank_) +
                " are not its shard of " + std::to_string(n) + " values (shard_sizes in dsml/comm.h)");
}

void RankGroup::all_reduce(double* data, std::size_t n) {
  if (size_ == 1) return;  // a group of one: nothing to add, nothing to time
  const RankSchedule& s = schedule("all-reduce", n);
  clock_.time("all-reduce:" + name_, [&] { s.run(data, comm_); });
}

Buffer RankGroup::all_gather(const Buffer& shard, std::size_t n) {
  if (size_ == 1 && shard.size() == n) return shard;
  const RankSchedule& s = schedule("all-gather", n);
  const std::size_t at = shard_offset(n, size_, rank_);
  if (shard.size() != shard_sizes(n, size_)[static_cast<std::size_t>(rank_)])
    throw Error("all_gather: rank " + std::to_string(rank_) + " of " + name_ + " brings " +
                std::to_string(shard.size()) + " values, its shard of " + std::to_string(n) + " has " +
                std::to_string(shard_sizes(n, size_)[static_cast<std::size_t>(rank_)]));
  Buffer full(n, 0.0);
  std::copy(shard.begin(), shard.end(), full.begin() + static_cast<std::ptrdiff_t>(at));
  clock_.time("all-gather:" + name_, [&] { s.run(full.data(), comm_); });
  return full;
}

Buffer RankGroup::reduce_scatter(const Buffer& full) {
  if (size_ == 1) return full;
  const std::size_t n = full.size();
  const RankSchedule& s = schedule("reduce-scatter", n);
  Buffer work = full;
  clock_.time("reduce-scatter:" + name_, [&] { s.run(work.data(), comm_); });
  const auto at = static_cast<std::ptrdiff_t>(shard_offset(n, size_, rank_));
  const auto size = static_cast<std::ptrdiff_t>(shard_sizes(n, size_)[static_cast<std::size_t>(rank_)]);
  return Buffer(work.begin() + at, work.begin() + at + size);
}

}  // namespace dsml::mpi
