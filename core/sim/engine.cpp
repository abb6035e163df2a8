// engine.cpp — the discrete-event loop of dsml::simulate; see engine.h for the data layout, simulator.h for the
// semantics (eager blocking send) and link_table.h for how transfers share the topology's links.
#include "sim/engine.h"

#include <limits>
#include <string>
#include <utility>

#include "dsml/error.h"
#include "sim/wait_for_graph.h"

namespace dsml::sim {

namespace {

// Moves items[i] to items[destination[i]] for every i, in place (follows each cycle of the permutation;
// O(n) swaps). `destination` must be a permutation of 0 … n−1; it is consumed.
template <typename T>
void permute(std::vector<T>& items, std::vector<std::size_t>& destination) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    while (destination[i] != i) {
      const std::size_t j = destination[i];
      std::swap(items[i], items[j]);
      std::swap(destination[i], destination[j]);
    }
  }
}

}  // namespace

Engine::Engine(const Topology& topology, StepSource& steps, const SimOptions& options)
    : topology_(topology),
      steps_(steps),
      options_(options),
      ranks_(static_cast<std::size_t>(topology.ranks())),
      finish_time_(static_cast<std::size_t>(topology.ranks()), 0.0),
      links_(topology.links()),
      mailboxes_(static_cast<std::size_t>(topology.ranks())) {
  if (!options_.record_messages && !options_.record_spans) return;
  std::size_t sends = 0, span_bound = 0;
  if (options_.record_spans) {
    span_begin_.resize(ranks_.size());
    span_end_.resize(ranks_.size());
  }
  for (std::size_t r = 0; r < ranks_.size(); ++r) {
    const StepSource::Counts counts = steps_.count(static_cast<int>(r));
    sends += counts.sends;
    if (!options_.record_spans) continue;
    span_begin_[r] = span_end_[r] = span_bound;
    span_bound += counts.span_bound;
  }
  if (options_.record_messages && sends > kMaxRecordedMessages)
    throw Error("this run sends " + std::to_string(sends) + " messages, more than the " +
                std::to_string(kMaxRecordedMessages) + " a recorded run keeps; simulate it without recording " +
                "(record: false) for its makespan, finish times and link loads");
  if (options_.record_messages) {
    records_.reserve(sends);
    next_.reserve(sends);
    start_order_.reserve(sends);
    links_.reserve(sends);
  }
  if (options_.record_spans) spans_.resize(span_bound);
}

void Engine::schedule(double time, EventKind kind, int id) { queue_.push(time, Event{id, kind}); }

void Engine::add_span(Span::Kind kind, int rank, double start, double end, int peer, double bytes) {
  if (!options_.record_spans) return;
  spans_[span_end_[static_cast<std::size_t>(rank)]++] = Span{rank, kind, start, end, peer, bytes};
}

void Engine::push(Fifo& fifo, int id) {
  next_[id] = -1;
  if (fifo.empty()) fifo.head = id;
  else next_[fifo.tail] = id;
  fifo.tail = id;
}

int Engine::pop(Fifo& fifo) {
  const int id = fifo.head;
  fifo.head = next_[id];
  if (fifo.head < 0) fifo.tail = -1;
  return id;
}

SimResult Engine::run() {
  for (int r = 0; r < topology_.ranks(); ++r) schedule(0.0, EventKind::kResume, r);
  while (!queue_.empty()) {
    const auto event = queue_.pop();
    ++events_;
    if (event.payload.kind == EventKind::kResume) run_rank(event.payload.id, event.time);
    else on_arrive(event.payload.id, event.time);
  }
  for (const Rank& rank : ranks_)
    if (!rank.finished) report_deadlock();
  return collect();
}

void Engine::run_rank(int r, double now) {
  Rank& rank = ranks_[r];
  Step step;
  while (steps_.next(r, step)) {
    switch (step.kind) {
      case Step::Kind::kCompute:
        if (step.seconds > 0.0) {
          add_span(Span::Kind::kCompute, r, now, now + step.seconds, -1, 0.0);
          schedule(now + step.seconds, EventKind::kResume, r);
          return;
        }
        break;  // a zero-length compute takes no time and leaves no span
      case Step::Kind::kSend:
        post_send(r, step, now);  // blocked until on_arrive()
        return;
      case Step::Kind::kRecv:
        if (take_from_mailbox(r, step.peer, step.tag, now)) break;
        rank.waiting = true;  // deliver() wakes it up
        rank.wait_source = step.peer;
        rank.wait_tag = step.tag;
        rank.wait_since = now;
        return;
    }
  }
  rank.finished = true;
  finish_time_[r] = now;
}

int Engine::new_slot() {
  if (!free_slots_.empty()) {
    const int id = free_slots_.back();
    free_slots_.pop_back();
    return id;
  }
  records_.emplace_back();
  next_.push_back(-1);
  return static_cast<int>(records_.size() - 1);
}

void Engine::free_slot(int id) {
  if (!options_.record_messages) free_slots_.push_back(id);
}

void Engine::post_send(int r, const Step& step, double now) {
  const int id = new_slot();
  MessageRecord& m = records_[id];
  m.src = r;
  m.dst = step.peer;
  m.tag = step.tag;
  m.bytes = step.bytes;
  m.posted = now;
  m.started = m.arrived = 0.0;
  m.received = std::numeric_limits<double>::quiet_NaN();  // stays NaN if nobody receives it
  next_[id] = -1;
  total_bytes_ += step.bytes;
  links_.track(id, posted_++);
  // All of the route's links, or wait (FIFO) on one that is busy. On fully_connected the sender's uplink is
  // always free — its rank is blocked for the whole of its previous send — so only the downlink can be busy.
  topology_.route(r, step.peer, route_);
  try_start(id, now);
}

void Engine::try_start(int id, double now) {
  if (!links_.acquire_or_wait(id, route_)) return;  // queued: a release of the links retries it
  MessageRecord& m = records_[id];
  m.started = now;
  if (options_.record_messages) start_order_.push_back(id);
  if (now > m.posted) add_span(Span::Kind::kWait, m.src, m.posted, now, m.dst, 0.0);
  // Cut-through: every link of the route is held for the whole of T = Σ α + β_max·n (topology.h). On
  // fully_connected that is Hockney's α + β·n over uplink and downlink, with no pipelining.
  schedule(now + route_.alpha + route_.beta * m.bytes, EventKind::kArrive, id);
}

void Engine::on_arrive(int id, double now) {
  MessageRecord& m = records_[id];
  m.arrived = now;
  const int sender = m.src;
  add_span(Span::Kind::kSend, sender, m.started, now, m.dst, m.bytes);
  topology_.route(sender, m.dst, route_);
  // Busy time is the transfer's T itself, not `now − started`: summed over many messages, the rounding of
  // absolute times would otherwise make equally loaded links differ in the last digit.
  links_.release(route_, route_.alpha + route_.beta * m.bytes);
  // Retry the transfers that waited for these links, oldest first; each starts if its whole route is free.
  for (int waiting; (waiting = links_.next_candidate()) >= 0;) {
    topology_.route(records_[waiting].src, records_[waiting].dst, route_);
    try_start(waiting, now);
  }
  run_rank(sender, now);  // the blocking send returns (may post new messages: `m` is not used after this)
  deliver(id, now);
}

void Engine::deliver(int id, double now) {
  MessageRecord& m = records_[id];
  Rank& receiver = ranks_[m.dst];
  if (receiver.waiting && receiver.wait_source == m.src && receiver.wait_tag == m.tag) {
    // Nothing older can match: the receiver would not be waiting if its channel held a message.
    receiver.waiting = false;
    m.received = now;
    const int dst = m.dst;
    if (now > receiver.wait_since) add_span(Span::Kind::kWait, dst, receiver.wait_since, now, m.src, 0.0);
    free_slot(id);      // last use of `m`: the receiver may post sends that grow records_ or reuse the slot
    run_rank(dst, now);
    return;
  }
  push(mailboxes_.open(Channel{m.dst, m.src, m.tag}), id);
}

bool Engine::take_from_mailbox(int r, int source, int tag, double now) {
  Fifo* fifo = mailboxes_.find(Channel{r, source, tag});
  if (fifo == nullptr || fifo->empty()) return false;
  const int id = pop(*fifo);
  records_[id].received = now;
  free_slot(id);
  // Lean mode drops emptied channels too, so that (say) an all-to-all does not keep p² of them.
  if (!options_.record_messages && fifo->empty()) mailboxes_.close(fifo);
  return true;
}

void Engine::report_deadlock() const {
  std::vector<int> waits_for(ranks_.size(), -1);
  for (std::size_t r = 0; r < ranks_.size(); ++r)
    if (ranks_[r].waiting) waits_for[r] = ranks_[r].wait_source;
  const WaitChain chain = find_wait_chain(waits_for);
  std::string message = "deadlock: " + describe(chain);

  // A common cause is a tag mismatch: the message is there, under another tag. Say so.
  const std::size_t edges = chain.cycle ? chain.ranks.size() : 1;
  for (std::size_t i = 0; i < edges; ++i) {
    const int r = chain.ranks[i];
    const int source = chain.ranks[(i + 1) % chain.ranks.size()];
    bool found = false;
    int other_tag = 0;
    mailboxes_.for_each([&](const Channel& channel, const Fifo& fifo) {
      if (channel.dst != r || channel.src != source || fifo.empty()) return;
      if (!found || channel.tag < other_tag) other_tag = channel.tag;  // lowest tag: deterministic text
      found = true;
    });
    if (found)
      message += "; rank " + std::to_string(r) + " waits for tag " + std::to_string(ranks_[r].wait_tag) +
                 " but holds an unreceived message from rank " + std::to_string(source) + " with tag " +
                 std::to_string(other_tag);
  }
  throw DeadlockError(message);
}

SimResult Engine::collect() {
  SimResult result;
  result.events = events_;
  result.finish_time = finish_time_;
  for (double t : finish_time_) result.makespan = t > result.makespan ? t : result.makespan;
  result.total_bytes = total_bytes_;
  result.message_count = static_cast<std::size_t>(posted_);
  result.topology = topology_;
  result.link_busy = std::move(links_.busy_seconds());
  double most = 0.0;  // the busiest link: lowest index on ties, none (−1) if no link was ever busy
  for (std::size_t l = 0; l < result.link_busy.size(); ++l) {
    if (result.link_busy[l] <= most) continue;
    most = result.link_busy[l];
    result.busiest_link = static_cast<int>(l);
  }

  if (options_.record_messages) {
    // Reorder in place rather than copy: a large run holds millions of records, and a second buffer of
    // them would cost as much as the simulation itself (fresh pages to fault in, then to fill).
    std::vector<std::size_t> destination(records_.size());
    for (std::size_t k = 0; k < start_order_.size(); ++k) destination[static_cast<std::size_t>(start_order_[k])] = k;
    permute(records_, destination);  // posting order → transmission-start order
    result.messages = std::move(records_);
  }
  if (options_.record_spans) {
    // Slide the per-rank regions together (each moves down, never up), giving (rank, start) order.
    std::size_t used = 0;
    for (std::size_t r = 0; r < ranks_.size(); ++r)
      for (std::size_t i = span_begin_[r]; i < span_end_[r]; ++i) spans_[used++] = spans_[i];
    spans_.resize(used);
    result.spans = std::move(spans_);
  }
  return result;
}

}  // namespace dsml::sim
