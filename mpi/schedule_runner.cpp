// schedule_runner.cpp — see schedule_runner.h.
#include "schedule_runner.h"

#include <algorithm>
#include <utility>

#include "dsml/collective_executor.h"
#include "dsml/error.h"

namespace dsml::mpi {

namespace {

constexpr int kTag = 11;
constexpr std::size_t kKeptBytes = std::size_t{64} << 20;  // messages in flight kept before freeing finished ones

template <typename T> MPI_Datatype datatype();
template <> MPI_Datatype datatype<float>() { return MPI_FLOAT; }
template <> MPI_Datatype datatype<double>() { return MPI_DOUBLE; }

// A receive that is posted but not yet applied to the slots.
template <typename T>
struct PendingReceive {
  const ScheduleStep* step = nullptr;
  std::vector<T> message;
};

}  // namespace

SlotLayout slot_layout(const Schedule& schedule) {
  SlotLayout layout;
  layout.offset.reserve(schedule.slot_bytes.size() + 1);
  layout.offset.push_back(0);
  for (double bytes : schedule.slot_bytes)
    layout.offset.push_back(layout.offset.back() + static_cast<std::size_t>(slot_elements(bytes, 4)));
  return layout;
}

RankSchedule::RankSchedule(Schedule schedule, int rank) : rank_(rank) {
  validate(schedule);
  if (rank < 0 || rank >= schedule.ranks)
    throw Error("rank " + std::to_string(rank) + " is not one of the schedule's " + std::to_string(schedule.ranks) +
                " ranks");
  steps_ = std::move(schedule.steps[static_cast<std::size_t>(rank)]);
  schedule.steps.clear();
  header_ = std::move(schedule);
  layout_ = slot_layout(header_);
}

template <typename T>
void RankSchedule::run(T* data, MPI_Comm comm) const {
  int size = 0;
  MPI_Comm_size(comm, &size);
  if (size != header_.ranks)
    throw Error("the " + header_.algorithm + " schedule is for " + std::to_string(header_.ranks) +
                " ranks, the communicator has " + std::to_string(size));

  std::vector<PendingReceive<T>> receives;  // posted, in step order
  std::vector<MPI_Request> receive_requests;
  std::vector<char> written(layout_.slots(), 0);  // a posted receive will write this slot
  std::vector<std::vector<T>> sent;               // messages in flight, kept until their send completes
  std::vector<MPI_Request> send_requests;
  std::size_t kept_bytes = 0;       // held by `sent`
  std::size_t test_at = kKeptBytes;  // test for finished sends when kept_bytes passes this

  // Complete every posted receive and apply it, in step order: copy or add, slot by slot.
  const auto complete_receives = [&] {
    MPI_Waitall(static_cast<int>(receive_requests.size()), receive_requests.data(), MPI_STATUSES_IGNORE);
    for (const PendingReceive<T>& r : receives) {
      const T* from = r.message.data();
      for (int slot : r.step->slots) {
        const auto s = static_cast<std::size_t>(slot);
        T* to = data + layout_.offset[s];
        const std::size_t n = layout_.elements(s);
        if (r.step->kind == ScheduleStep::Kind::kRecvReduce)
          for (std::size_t e = 0; e < n; ++e) to[e] += from[e];
        else
          std::copy(from, from + n, to);
        from += n;
        written[s] = 0;
      }
    }
    receives.clear();
    receive_requests.clear();
    // Free the messages whose sends have completed meanwhile once they hold more than kKeptBytes (a naive root
    // would otherwise keep p − 1 copies). Not every time: a test is not free (SMPI charges 100 µs per call).
    if (kept_bytes <= test_at) return;
    int done = 0;
    std::vector<int> indices(send_requests.size());
    MPI_Testsome(static_cast<int>(send_requests.size()), send_requests.data(), &done, indices.data(),
                 MPI_STATUSES_IGNORE);
    for (int i = 0; i < done; ++i) std::vector<T>().swap(sent[static_cast<std::size_t>(indices[i])]);
    kept_bytes = 0;
    for (const std::vector<T>& message : sent) kept_bytes += message.size() * sizeof(T);
    test_at = kept_bytes + kKeptBytes;
  };

  for (const ScheduleStep& step : steps_) {
    std::size_t n = 0;
    for (int slot : step.slots) n += layout_.elements(static_cast<std::size_t>(slot));
    if (step.kind == ScheduleStep::Kind::kSend) {
      if (std::any_of(step.slots.begin(), step.slots.end(),
                      [&](int slot) { return written[static_cast<std::size_t>(slot)] != 0; }))
        complete_receives();
      std::vector<T> message;
      message.reserve(n);
      for (int slot : step.slots) {
        const auto s = static_cast<std::size_t>(slot);
        message.insert(message.end(), data + layout_.offset[s], data + layout_.offset[s + 1]);
      }
      kept_bytes += n * sizeof(T);
      sent.push_back(std::move(message));
      send_requests.emplace_back();
      MPI_Isend(sent.back().data(), static_cast<int>(n), datatype<T>(), step.peer, kTag, comm, &send_requests.back());
    } else {
      receives.push_back({&step, std::vector<T>(n)});
      receive_requests.emplace_back();
      MPI_Irecv(receives.back().message.data(), static_cast<int>(n), datatype<T>(), step.peer, kTag, comm,
                &receive_requests.back());
      for (int slot : step.slots) written[static_cast<std::size_t>(slot)] = 1;
    }
  }
  complete_receives();
  MPI_Waitall(static_cast<int>(send_requests.size()), send_requests.data(), MPI_STATUSES_IGNORE);
}

template void RankSchedule::run<float>(float*, MPI_Comm) const;
template void RankSchedule::run<double>(double*, MPI_Comm) const;

}  // namespace dsml::mpi
