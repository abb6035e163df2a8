// dsml/trace_replay.h — turning a recorded run back into simulator input.
//
// A learner's SPMD program runs on real Workers; the runtime records every message (source, destination,
// bytes, when it was sent and when it was received). Ordering each rank's sends (by send time) and receives
// (by receive time) gives one Program per rank, which the simulator can then time on any topology and cost
// model — so a hand-written collective is compared with the library's algorithms under the same α–β model.
// Local computation is not replayed: only the communication pattern is.
#pragma once

#include <vector>

#include "dsml/simulator.h"

namespace dsml {

struct TraceRecord {
  int src = 0;
  int dst = 0;
  double bytes = 0.0;
  double send_time = 0.0;  // s, any common clock
  double recv_time = 0.0;  // s; NaN if the message was never received (it is then sent but not received)
};

// One Program per rank: a send step at each send, a recv step at each receive, in time order on that rank
// (a receive and a send at the same instant: the receive first). Throws dsml::Error on ranks out of range.
std::vector<Program> programs_from_trace(int ranks, const std::vector<TraceRecord>& records);

}  // namespace dsml
