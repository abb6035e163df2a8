// dsml/simulator.h — a discrete-event simulator of message passing.
//
// Each rank runs a Program: an ordered list of Steps (send n bytes to r, receive from r, compute for t s).
// The network is a switch with one full-duplex link per rank (a "single-port" model, as in
// Thakur, Rabenseifner & Gropp 2005): a rank's uplink carries one outgoing message at a time and its
// downlink one incoming message at a time. A message of n bytes holds the sender's uplink and the
// receiver's downlink together for T(n) = α + β·n seconds.
//
// Semantics (eager, blocking send):
//   send    — waits until both links are free, transmits for α + β·n, then the sender continues; the
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

struct Network {
  int ranks = 0;
  CostModel model;  // every link has this α, β
};

// What a rank was doing over [start, end).
struct Span {
  enum class Kind { kCompute, kSend, kWait };
  int rank = 0;
  Kind kind = Kind::kCompute;
  double start = 0.0;
  double end = 0.0;
  int peer = -1;       // send: destination; wait: the rank waited for (or waited on a busy link of)
  double bytes = 0.0;  // send: message size
};

struct MessageRecord {
  int src = 0;
  int dst = 0;
  int tag = 0;
  double bytes = 0.0;
  double posted = 0.0;    // sender reached the send step
  double started = 0.0;   // both links free, transmission began
  double arrived = 0.0;   // started + α + β·n: in the receiver's mailbox
  double received = 0.0;  // the receiver's recv returned it
};

struct SimResult {
  double makespan = 0.0;                 // time the last rank finished, s
  std::vector<double> finish_time;       // per rank, s
  std::vector<Span> spans;               // sorted by (rank, start)
  std::vector<MessageRecord> messages;   // in order of transmission start
  double total_bytes = 0.0;              // sum of message sizes
  std::size_t events = 0;                // discrete events processed
};

// Throws dsml::Error on a bad network or program (peer out of range, send to self,
// negative or non-finite sizes/durations), DeadlockError on a deadlock.
SimResult simulate(const Network& network, const std::vector<Program>& programs);

// A readable event log, one line per event in time order, for golden-trace tests and the CLI:
//   "0.000002000 rank 0 send-start -> 1 1000 B"
//   "0.000003000 rank 1 recv <- 0 1000 B"
std::string format_trace(const SimResult& result);

}  // namespace dsml
