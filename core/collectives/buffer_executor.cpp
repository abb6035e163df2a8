// buffer_executor.cpp — execute_on_buffers(): a schedule run on real data, with no notion of time.
//
// Sends are eager (the message, a copy of the slots, goes into the (source, destination) channel at once), so a
// rank runs until it reaches a receive whose channel is empty. A work list holds the ranks that can move; a send
// to a rank blocked on exactly this source puts that rank back on the list. When the list runs dry, either every
// rank has finished or the blocked ones wait for each other: each waits for one rank, the "waits for" relation
// is a functional graph, and the simulator's wait_for_graph names its cycle. Work is O(steps + bytes moved).
// It runs whatever buffers it is given: the data verify() seeds (and the overload on them) are verify.cpp's.
#include <cmath>
#include <deque>
#include <string>
#include <unordered_map>
#include <utility>

#include "dsml/collective_executor.h"
#include "dsml/error.h"
#include "sim/wait_for_graph.h"

namespace dsml {

namespace {

struct Message {
  std::size_t step = 0;  // the sender's step index, for error messages
  SlotList slots;
  std::vector<std::vector<double>> chunks;  // chunks[i]: the contents of slots[i] when sent
};

std::string where(const Schedule& s, int rank, std::size_t step) {
  return "rank " + std::to_string(rank) + " step " + std::to_string(step) + " (" +
         describe(s.steps[static_cast<std::size_t>(rank)][step]) + ")";
}

class BufferRun {
 public:
  BufferRun(const Schedule& s, Buffers& buffers)
      : s_(s), buffers_(buffers), pc_(static_cast<std::size_t>(s.ranks), 0),
        blocked_(static_cast<std::size_t>(s.ranks), false) {}

  void run() {
    std::vector<int> ready;
    for (int r = s_.ranks - 1; r >= 0; --r) ready.push_back(r);  // rank 0 first, for readable first errors
    while (!ready.empty()) {
      const int r = ready.back();
      ready.pop_back();
      advance(r, ready);
    }
    for (int r = 0; r < s_.ranks; ++r)
      if (blocked_[static_cast<std::size_t>(r)]) report_deadlock();
    report_unreceived();
  }

 private:
  std::deque<Message>& channel(int src, int dst) {
    return channels_[static_cast<long long>(src) * s_.ranks + dst];
  }

  // Runs rank r's steps until it finishes or needs a message that has not been sent yet.
  void advance(int r, std::vector<int>& ready) {
    const auto& steps = s_.steps[static_cast<std::size_t>(r)];
    std::size_t& pc = pc_[static_cast<std::size_t>(r)];
    blocked_[static_cast<std::size_t>(r)] = false;
    for (; pc < steps.size(); ++pc) {
      const ScheduleStep& step = steps[pc];
      if (step.kind == ScheduleStep::Kind::kSend) {
        send(r, pc, ready);
        continue;
      }
      std::deque<Message>& inbox = channel(step.peer, r);
      if (inbox.empty()) {
        blocked_[static_cast<std::size_t>(r)] = true;  // send() to r from step.peer wakes it
        return;
      }
      receive(r, pc, inbox.front());
      inbox.pop_front();
    }
  }

  void send(int r, std::size_t pc, std::vector<int>& ready) {
    const ScheduleStep& step = s_.steps[static_cast<std::size_t>(r)][pc];
    Message message;
    message.step = pc;
    message.slots = step.slots;
    for (int slot : step.slots) {
      const SlotBuffer& buffer = buffers_[static_cast<std::size_t>(r)][static_cast<std::size_t>(slot)];
      if (!buffer.held)
        throw Error(where(s_, r, pc) + ": slot " + std::to_string(slot) + " is not held by rank " + std::to_string(r) +
                    " yet (nothing has been received into it)");
      message.chunks.push_back(buffer.values);
    }
    channel(r, step.peer).push_back(std::move(message));
    const auto peer = static_cast<std::size_t>(step.peer);
    if (blocked_[peer] && s_.steps[peer][pc_[peer]].peer == r) {
      blocked_[peer] = false;
      ready.push_back(step.peer);
    }
  }

  void receive(int r, std::size_t pc, Message& message) {
    const ScheduleStep& step = s_.steps[static_cast<std::size_t>(r)][pc];
    const std::string what = where(s_, r, pc) + " got the message of " + where(s_, step.peer, message.step);
    if (message.slots.size() != step.slots.size())
      throw Error(what + ": " + std::to_string(message.slots.size()) + " chunk(s) for " +
                  std::to_string(step.slots.size()) + " slot(s)");
    const bool reduce = step.kind == ScheduleStep::Kind::kRecvReduce;
    for (std::size_t i = 0; i < step.slots.size(); ++i) {
      SlotBuffer& buffer = buffers_[static_cast<std::size_t>(r)][static_cast<std::size_t>(step.slots[i])];
      std::vector<double>& chunk = message.chunks[i];
      if (chunk.size() != buffer.values.size())
        throw Error(what + ": slot " + std::to_string(message.slots[i]) + " has " + std::to_string(chunk.size()) +
                    " elements but slot " + std::to_string(step.slots[i]) + " has " +
                    std::to_string(buffer.values.size()));
      if (!reduce) {
        buffer.values = std::move(chunk);  // the message is dropped right after
        buffer.held = true;
        continue;
      }
      if (!buffer.held)
        throw Error(where(s_, r, pc) + ": adds into slot " + std::to_string(step.slots[i]) + ", which rank " +
                    std::to_string(r) + " does not hold");
      for (std::size_t e = 0; e < chunk.size(); ++e) buffer.values[e] += chunk[e];
    }
  }

  [[noreturn]] void report_deadlock() const {
    std::vector<int> waits_for(static_cast<std::size_t>(s_.ranks), -1);
    for (std::size_t r = 0; r < waits_for.size(); ++r)
      if (blocked_[r]) waits_for[r] = s_.steps[r][pc_[r]].peer;
    const sim::WaitChain chain = sim::find_wait_chain(waits_for);
    std::string message = "deadlock: " + sim::describe(chain);
    const std::size_t stuck = chain.cycle ? chain.ranks.size() : 1;
    for (std::size_t i = 0; i < stuck; ++i) {
      const int r = chain.ranks[i];
      message += "; " + where(s_, r, pc_[static_cast<std::size_t>(r)]) + " never gets its message";
    }
    throw DeadlockError(message);
  }

  // Every rank finished, but a message is still in a channel: a send without its receive.
  void report_unreceived() const {
    long long first = -1;  // lowest (source, destination) with a message left, for a deterministic report
    for (const auto& [key, inbox] : channels_)
      if (!inbox.empty() && (first < 0 || key < first)) first = key;
    if (first < 0) return;
    const int src = static_cast<int>(first / s_.ranks);
    const int dst = static_cast<int>(first % s_.ranks);
    throw Error(where(s_, src, channels_.at(first).front().step) + " is never received: rank " +
                std::to_string(dst) + " finished without a matching recv from rank " + std::to_string(src));
  }

  const Schedule& s_;
  Buffers& buffers_;
  std::vector<std::size_t> pc_;  // per rank: the next step
  std::vector<bool> blocked_;    // per rank: waiting in the receive at pc_
  std::unordered_map<long long, std::deque<Message>> channels_;  // key src·p + dst
};

}  // namespace

long long slot_elements(double bytes, int element_bytes) {
  return static_cast<long long>(std::ceil(bytes / element_bytes));
}

Buffers execute_on_buffers(const Schedule& schedule, Buffers buffers) {
  validate(schedule);
  if (buffers.size() != static_cast<std::size_t>(schedule.ranks))
    throw Error("buffers has " + std::to_string(buffers.size()) + " ranks but the schedule has " +
                std::to_string(schedule.ranks));
  for (std::size_t r = 0; r < buffers.size(); ++r)
    if (buffers[r].size() != schedule.slot_bytes.size())
      throw Error("rank " + std::to_string(r) + " has " + std::to_string(buffers[r].size()) +
                  " slot buffers but the schedule has " + std::to_string(schedule.slot_bytes.size()) + " slots");
  BufferRun(schedule, buffers).run();
  return buffers;
}

}  // namespace dsml
