// engine.h — the discrete-event engine behind dsml::simulate (internal; the public facade is simulator.h).
//
// State is kept in flat vectors indexed by rank, link or message slot. Two kinds of event drive everything:
//   resume(rank)  — a compute step ended (or the run began): the rank executes steps until it blocks;
//   arrive(msg)   — a transfer ended: its route's links free up (waiting transfers may start), the sender
//                   continues, the message is delivered.
// A rank that posts a send, or finds its message already waiting in recv, goes on at once without an event.
// Link contention lives in LinkTable (link_table.h); routes come from the Topology, recomputed when needed
// into one reusable Route rather than stored per message. A channel's unreceived messages form a FIFO singly
// linked through next_ (one int per message slot), so pushing and popping never allocates; the channels
// sit in a flat hash table (channel_table.h).
// Pending events wait in an EventQueue (event_queue.h): grouped by time, popped by (time, creation order).
// Message slots: with record_messages, slot = posting order and every record is kept for the result; without,
// a slot is recycled once its message is received, so memory follows the messages in flight.
#pragma once

#include <cstdint>
#include <vector>

#include "dsml/simulator.h"
#include "dsml/topology.h"
#include "sim/channel_table.h"
#include "sim/event_queue.h"
#include "sim/link_table.h"

namespace dsml::sim {

class Engine {
 public:
  // Expects a topology and steps already checked against each other (see simulator.cpp). Each rank's steps
  // are taken from `steps` as the rank reaches them.
  Engine(const Topology& topology, StepSource& steps, const SimOptions& options);

  // Runs to completion. Throws DeadlockError if ranks remain blocked when nothing is left to happen.
  SimResult run();

 private:
  enum class EventKind : std::uint8_t { kResume, kArrive };
  struct Event {
    int id;  // rank (resume) or message id (arrive)
    EventKind kind;
  };

  struct Rank {
    bool waiting = false;    // blocked in recv
    bool finished = false;
    int wait_source = -1;    // while waiting: the (source, tag) it needs
    int wait_tag = 0;
    double wait_since = 0;   // s
  };

  void schedule(double time, EventKind kind, int id);
  void add_span(Span::Kind kind, int rank, double start, double end, int peer, double bytes);
  void push(Fifo& fifo, int id);
  int pop(Fifo& fifo);

  void run_rank(int rank, double now);               // executes steps until the rank blocks or finishes
  int new_slot();
  void free_slot(int id);                            // the message was received: recycle it (lean mode)
  void post_send(int rank, const Step& step, double now);
  void try_start(int id, double now);                // takes route_'s links and transmits, or waits for them
  void on_arrive(int id, double now);
  void deliver(int id, double now);
  bool take_from_mailbox(int rank, int source, int tag, double now);
  [[noreturn]] void report_deadlock() const;
  SimResult collect();  // moves the records out: call once, at the end

  const Topology& topology_;
  StepSource& steps_;
  const SimOptions options_;
  EventQueue<Event> queue_;  // popped by time, then creation order
  std::size_t events_ = 0;

  std::vector<Rank> ranks_;
  std::vector<double> finish_time_;
  LinkTable links_;
  Route route_;                                          // scratch: the route being taken or released
  std::vector<MessageRecord> records_;                   // indexed by message slot
  std::vector<int> next_;                                // per slot: the next slot in its Fifo, or -1
  std::vector<int> free_slots_;                          // lean mode: slots of received messages
  std::uint64_t posted_ = 0;                             // messages posted so far
  double total_bytes_ = 0.0;                             // summed in posting order
  std::vector<int> start_order_;                         // slots in order of transmission start (records kept)
  ChannelTable mailboxes_;                               // arrived, not yet received
  // Spans (record_spans), one region per rank: rank r writes its spans, in time order, to spans_[span_begin_[r] …
  // span_end_[r]). Regions are sized from an upper bound (compute → 1, send → 2, recv → 1) so a run never
  // reallocates, and collect() slides them together — already sorted by (rank, start), no sort needed.
  std::vector<Span> spans_;
  std::vector<std::size_t> span_begin_;
  std::vector<std::size_t> span_end_;
};

}  // namespace dsml::sim
