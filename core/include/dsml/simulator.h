// dsml/simulator.h — a discrete-event simulator of message passing.
//
// Each rank runs a Program: an ordered list of Steps (send n bytes to r, receive from r, compute for t s).
// The ranks sit on a Topology (topology.h). Week 1's Network is its fully_connected case: a switch with one
// full-duplex link per rank (a "single-port" model, as in Thakur, Rabenseifner & Gropp 2005): a rank's uplink
// carries one outgoing message at a time and its downlink one incoming message at a time. A message of n bytes
// holds the sender's uplink and the receiver's downlink together for T(n) = α + β·n seconds.
// On any topology a message holds every link of its route at once for T = Σ α_hop + β_max·n (cut-through).
// Each link direction carries one message at a time; a message takes all of its route's links together or
// waits (never holding some while waiting for others, so links cannot deadlock), and waiting messages are
// retried in the order they were posted — the oldest whose whole route is free goes first.
//
// Semantics (eager, blocking send):
//   send    — waits until its route's links are free, transmits for T, then the sender continues; the
//             message lands in the receiver's mailbox. It never waits for the receiver to call recv.
//   recv    — takes the oldest message from `peer` with `tag`; waits if none has arrived yet.
//   compute — the rank is busy for `seconds`.
// Ties are broken by the order events were created, so a run is deterministic.
// If every unfinished rank waits in recv and nothing is in flight, simulate() throws DeadlockError
// naming the wait-for cycle.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "dsml/cost_model.h"
#include "dsml/topology.h"

namespace dsml {

struct Step {
  enum class Kind { kSend, kRecv, kCompute };
  Kind kind = Kind::kCompute;
  int peer = -1;         // destination (send) or source (recv)
  double bytes = 0.0;    // message size (send)
  double seconds = 0.0;  // duration (compute)
  int tag = 0;           // send and recv match on (source, tag)

  static Step send(int to, double bytes, int tag = 0);
  static Step recv(int from, int tag = 0);
  static Step compute(double seconds);
};

using Program = std::vector<Step>;

// Week 1's network: Topology::fully_connected(ranks, model) (uplink α, downlink α = 0, T = α + β·n).
struct Network {
  int ranks = 0;
  CostModel model;  // every link has this β; a message pays α once
};

// What to keep. A large run (a 256-rank ring all-reduce of 1 MiB) can switch both off: memory then grows with the
// messages in flight, not with the total number of messages, and the result keeps the timings and link loads.
struct SimOptions {
  bool record_spans = true;     // SimResult::spans
  bool record_messages = true;  // SimResult::messages (format_trace needs both)
};
// The most messages a recorded run keeps: simulate throws before running a program that sends more while
// recording. A 1024-rank ring all-reduce sends 2 095 104; recorded and handed to JavaScript that took 27 s and
// 1.6 GB in Node, and 2048 ranks 6 GB — more than a browser tab has. Unrecorded, memory follows the messages in
// flight.
constexpr std::size_t kMaxRecordedMessages = 1'000'000;

// What a rank was doing over [start, end).
struct Span {
  enum class Kind { kCompute, kSend, kWait };
  int rank = 0;
  Kind kind = Kind::kCompute;
  double start = 0.0;
  double end = 0.0;
  int peer = -1;       // send: destination; wait: the rank waited for (or the destination of a send waiting for links)
  double bytes = 0.0;  // send: message size
};

struct MessageRecord {
  int src = 0;
  int dst = 0;
  int tag = 0;
  double bytes = 0.0;
  double posted = 0.0;    // sender reached the send step
  double started = 0.0;   // every link of the route free, transmission began
  double arrived = 0.0;   // started + T (α + β·n on fully_connected): in the receiver's mailbox
  double received = 0.0;  // the receiver's recv returned it
};

struct SimResult {
  double makespan = 0.0;                 // time the last rank finished, s
  std::vector<double> finish_time;       // per rank, s
  std::vector<Span> spans;               // sorted by (rank, start)
  std::vector<MessageRecord> messages;   // in order of transmission start
  double total_bytes = 0.0;              // sum of message sizes (exact while below 2^53 B: sizes are whole bytes)
  std::size_t message_count = 0;         // messages sent, recorded or not
  std::size_t events = 0;                // discrete events processed
  // Link load, always recorded: link_busy[i] = seconds link i carried data (the sum of the T of the messages
  // routed over it); busiest_link = the index of the largest, lowest on ties, −1 if no link was ever busy.
  // Names are made on demand, not stored per link: topology.link_name(i) → "ring 2→3", "nic up node 1".
  std::vector<double> link_busy;
  int busiest_link = -1;
  Topology topology;                     // the network the run crossed
};

// Programs handed over one step at a time instead of as vectors: the engine asks for rank r's next step only
// when r reaches it, so a source that makes its steps on demand (a lazy collective schedule, lazy_schedule.h)
// runs in memory that grows with the ranks and the messages in flight, not with the number of steps.
class StepSource {
 public:
  virtual ~StepSource() = default;
  // Rank `rank`'s next step into `out`; false once its program has ended. Each rank's steps are asked for in
  // order, each once.
  virtual bool next(int rank, Step& out) = 0;
  // What the rank's whole program holds: its sends, and an upper bound on the spans it can record (compute → 1,
  // send → 2, recv → 1). Asked once per rank before the run, and only when SimOptions records something.
  struct Counts {
    std::size_t sends = 0;
    std::size_t span_bound = 0;
  };
  virtual Counts count(int rank) const = 0;
};

// Throws dsml::Error on a bad network or program (peer out of range, send to self,
// negative or non-finite sizes/durations), DeadlockError on a deadlock.
SimResult simulate(const Network& network, const std::vector<Program>& programs, const SimOptions& options = {});
SimResult simulate(const Topology& topology, const std::vector<Program>& programs, const SimOptions& options = {});
// The same run with `steps` giving topology.ranks() programs. Each step is checked as it is taken, so a bad one
// throws (naming its rank and step) only once the run reaches it.
SimResult simulate(const Topology& topology, StepSource& steps, const SimOptions& options = {});

// A readable event log, one line per event in time order, for golden-trace tests and the CLI:
//   "0.000002000 rank 0 send-start -> 1 1000 B"
//   "0.000003000 rank 1 recv <- 0 1000 B"
// (Needs a result recorded with spans and messages.)
std::string format_trace(const SimResult& result);

}  // namespace dsml
