// pipelined_broadcast_report.cpp — see dsml/pipelined_broadcast.h: one schedule, verified, simulated and priced.
#include "dsml/pipelined_broadcast.h"

#include "dsml/collective_executor.h"
#include "dsml/schedule.h"
#include "dsml/simulator.h"

namespace dsml {

PipelinedBroadcastReport run_pipelined_broadcast(const std::string& algorithm, int ranks, double bytes, int segments,
                                                 int root, const CostModel& model) {
  validate(model);
  const Schedule schedule = make_schedule("broadcast", algorithm, ranks, bytes, root, 0, segments);
  PipelinedBroadcastReport report;
  report.segments = static_cast<int>(schedule.slot_bytes.size());
  report.shape = pipeline_shape(algorithm, ranks);
  report.closed_form = pipelined_broadcast_time(algorithm, ranks, bytes, report.segments, model);
  // The steps do not depend on n (schedule.h: steps name slots), so the buffers check runs the same schedule with
  // one float32 element per segment — a 1 GB broadcast is checked without 1 GB per rank.
  const VerifyResult check =
      verify(make_schedule("broadcast", algorithm, ranks, 4.0 * report.segments, root, 0, report.segments));
  report.verified = check.ok;
  report.verify_message = check.message;
  const SimResult sim = simulate(Network{ranks, model}, to_programs(schedule, 0.0));
  report.simulated_s = sim.makespan;
  report.messages = static_cast<double>(sim.message_count);
  report.best = best_segments(algorithm, ranks, bytes, model);
  return report;
}

}  // namespace dsml
