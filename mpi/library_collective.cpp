// library_collective.cpp — see library_collective.h.
#include "library_collective.h"

#include <algorithm>

#include "dsml/error.h"

namespace dsml::mpi {

namespace {

// Copies the listed slots of `data`, in order, into one block.
std::vector<float> pack(const SlotLayout& layout, const std::vector<float>& data, const std::vector<int>& slots) {
  std::vector<float> block;
  for (int s : slots)
    block.insert(block.end(), data.begin() + static_cast<std::ptrdiff_t>(layout.offset[static_cast<std::size_t>(s)]),
                 data.begin() + static_cast<std::ptrdiff_t>(layout.offset[static_cast<std::size_t>(s) + 1]));
  return block;
}

// The inverse: consecutive pieces of `block` (from `at`) into the listed slots; returns where it stopped.
std::size_t unpack(const SlotLayout& layout, const std::vector<float>& block, std::size_t at,
                   const std::vector<int>& slots, std::vector<float>& data) {
  for (int s : slots) {
    const auto slot = static_cast<std::size_t>(s);
    std::copy(block.begin() + static_cast<std::ptrdiff_t>(at),
              block.begin() + static_cast<std::ptrdiff_t>(at + layout.elements(slot)),
              data.begin() + static_cast<std::ptrdiff_t>(layout.offset[slot]));
    at += layout.elements(slot);
  }
  return at;
}

}  // namespace

LibraryCollective::LibraryCollective(const RankSchedule& schedule) : schedule_(schedule) {
  const Schedule& h = schedule.header();
  const SlotLayout& layout = schedule.layout();
  const std::string& c = h.collective;
  call_ = c == "broadcast"        ? "MPI_Bcast"
          : c == "reduce"         ? "MPI_Reduce"
          : c == "all-reduce"     ? "MPI_Allreduce"
          : c == "all-gather"     ? "MPI_Allgatherv"
          : c == "reduce-scatter" ? "MPI_Reduce_scatter"
          : c == "all-to-all"     ? "MPI_Alltoallv"
                                  : "";
  if (call_.empty()) throw Error("no MPI collective for '" + c + "'");
  if (c == "all-gather" || c == "reduce-scatter") {
    slots_of_.resize(static_cast<std::size_t>(h.ranks));
    for (std::size_t s = 0; s < layout.slots(); ++s) slots_of_[static_cast<std::size_t>(h.owner[s])].push_back(static_cast<int>(s));
    int at = 0;
    for (const std::vector<int>& slots : slots_of_) {
      int n = 0;
      for (int s : slots) n += static_cast<int>(layout.elements(static_cast<std::size_t>(s)));
      counts_.push_back(n);
      displs_.push_back(at);
      at += n;
    }
  }
}

double LibraryCollective::run(const std::vector<float>& input, std::vector<float>& output, MPI_Comm comm) const {
  const Schedule& h = schedule_.header();
  const SlotLayout& layout = schedule_.layout();
  const int p = h.ranks;
  const int me = schedule_.rank();
  const int n = static_cast<int>(layout.total());
  const std::string& c = h.collective;
  output = input;
  double start = 0;
  double seconds = 0;
  if (c == "broadcast") {
    start = MPI_Wtime();
    MPI_Bcast(output.data(), n, MPI_FLOAT, h.root, comm);
    seconds = MPI_Wtime() - start;
  } else if (c == "reduce") {
    start = MPI_Wtime();
    MPI_Reduce(input.data(), output.data(), n, MPI_FLOAT, MPI_SUM, h.root, comm);
    seconds = MPI_Wtime() - start;
  } else if (c == "all-reduce") {
    start = MPI_Wtime();
    MPI_Allreduce(input.data(), output.data(), n, MPI_FLOAT, MPI_SUM, comm);
    seconds = MPI_Wtime() - start;
  } else if (c == "all-gather") {
    const std::vector<float> mine = pack(layout, input, slots_of_[static_cast<std::size_t>(me)]);
    std::vector<float> all(layout.total());
    start = MPI_Wtime();
    MPI_Allgatherv(mine.data(), static_cast<int>(mine.size()), MPI_FLOAT, all.data(), counts_.data(),
                   displs_.data(), MPI_FLOAT, comm);
    seconds = MPI_Wtime() - start;
    std::size_t at = 0;
    for (const std::vector<int>& slots : slots_of_) at = unpack(layout, all, at, slots, output);
  } else if (c == "reduce-scatter") {
    std::vector<float> by_owner;  // the input regrouped so that each rank's owned slots are contiguous
    for (const std::vector<int>& slots : slots_of_) {
      const std::vector<float> block = pack(layout, input, slots);
      by_owner.insert(by_owner.end(), block.begin(), block.end());
    }
    std::vector<float> mine(static_cast<std::size_t>(counts_[static_cast<std::size_t>(me)]));
    start = MPI_Wtime();
    MPI_Reduce_scatter(by_owner.data(), mine.data(), counts_.data(), MPI_FLOAT, MPI_SUM, comm);
    seconds = MPI_Wtime() - start;
    unpack(layout, mine, 0, slots_of_[static_cast<std::size_t>(me)], output);
  } else {  // all-to-all: rank me sends slot me·p + j to rank j and receives slot i·p + me from rank i
    std::vector<int> send_counts(static_cast<std::size_t>(p)), send_displs(static_cast<std::size_t>(p));
    std::vector<int> recv_counts(static_cast<std::size_t>(p)), recv_displs(static_cast<std::size_t>(p));
    std::vector<int> incoming;
    int at = 0;
    for (int j = 0; j < p; ++j) {
      const auto out_slot = static_cast<std::size_t>(me * p + j);
      send_counts[static_cast<std::size_t>(j)] = static_cast<int>(layout.elements(out_slot));
      send_displs[static_cast<std::size_t>(j)] = static_cast<int>(layout.offset[out_slot]);
      const int in_slot = j * p + me;
      recv_counts[static_cast<std::size_t>(j)] = static_cast<int>(layout.elements(static_cast<std::size_t>(in_slot)));
      recv_displs[static_cast<std::size_t>(j)] = at;
      at += recv_counts[static_cast<std::size_t>(j)];
      incoming.push_back(in_slot);
    }
    std::vector<float> received(static_cast<std::size_t>(at));
    start = MPI_Wtime();
    MPI_Alltoallv(input.data(), send_counts.data(), send_displs.data(), MPI_FLOAT, received.data(),
                  recv_counts.data(), recv_displs.data(), MPI_FLOAT, comm);
    seconds = MPI_Wtime() - start;
    unpack(layout, received, 0, incoming, output);
  }
  return seconds;
}

}  // namespace dsml::mpi
