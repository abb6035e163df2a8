// pipeline_command.cpp — `dsml pipeline`: one schedule of dsml/chunk_schedule.h timed, or the four side by side.
//
//   $ dsml pipeline --schedule zb-h1 --devices 4 --micro-batches 8
//   {"schedule": "zb-h1", ..., "makespan": 27, "bubble_over_ideal": 0.125, ...}
//   $ dsml pipeline --compare --devices 4 --micro-batches 8 --chunks 2
#include <string>
#include <vector>

#include "args.h"
#include "dsml/chunk_schedule.h"
#include "json_output.h"
#include "network_flags.h"
#include "pipeline_command.h"

namespace dsml::cli {
namespace {

std::vector<double> as_doubles(const std::vector<int>& values) { return {values.begin(), values.end()}; }

JsonObject timing_json(const ChunkTiming& t, JsonObject out = {}) {
  return out.add("makespan", t.makespan)
      .add("ideal", t.ideal)
      .add("bubble_fraction", t.bubble_fraction)
      .add("bubble_over_ideal", t.bubble_over_ideal)
      .add("idle", t.idle);
}

}  // namespace

int pipeline(int argc, char** argv) {
  const Args args("pipeline", argc, argv, 2,
                  {"schedule", "devices", "micro-batches", "chunks", "forward", "backward-input", "backward-weight",
                   "p2p"},
                  {"compare", "timeline"});
  const int P = args.whole("devices");
  const int m = args.whole("micro-batches");
  const ChunkTimes unit;  // the core's defaults for a time not given
  const double t_f = args.number_or("forward", unit.forward);
  const double t_b = args.number_or("backward-input", unit.backward_input);
  const double t_w = args.number_or("backward-weight", unit.backward_weight);
  const double p2p = args.number_or("p2p", unit.p2p);
  if (args.has("compare")) {
    if (args.has("schedule") || args.has("timeline"))
      throw UsageError("--compare runs all four schedules; drop --schedule and --timeline");
    std::vector<JsonObject> rows;
    for (const ScheduleComparison& row : compare_pipeline_schedules(P, m, args.whole_or("chunks", 2), t_f, t_b, t_w, p2p))
      rows.push_back(timing_json(row.timing, JsonObject().add_text("schedule", row.name))
                         .add("chunks_per_device", row.chunks_per_device)
                         .add("formula_over_ideal", row.formula_over_ideal)
                         .add("peak_stage_activations", row.peak_stage_activations)
                         .add("messages", row.messages));
    print(JsonObject().add("devices", P).add("micro_batches", m).add_objects("schedules", rows));
    return 0;
  }
  const ScheduleTimeline run =
      schedule_timeline(args.text("schedule"), P, m, args.whole_or("chunks", 1), ChunkTimes{t_f, t_b, t_w, p2p});
  const ChunkTiming& timing = run.timing;
  JsonObject out = JsonObject()
                       .add_text("schedule", run.schedule.name)
                       .add("devices", P)
                       .add("chunks_per_device", run.schedule.chunks_per_device)
                       .add("micro_batches", m)
                       .add_object("timing", timing_json(timing))
                       .add("peak_activations", as_doubles(run.peak_activations))
                       .add("messages", run.messages);
  if (args.has("timeline")) {
    std::vector<JsonObject> spans;
    for (const ChunkSpan& s : timing.spans)
      spans.push_back(JsonObject()
                          .add("device", s.device)
                          .add_text("kind", kind_name(s.kind))
                          .add("micro_batch", s.micro_batch)
                          .add("chunk", s.chunk)
                          .add("start", s.start)
                          .add("end", s.end));
    out.add_objects("timeline", spans);
  }
  print(out);
  return 0;
}

}  // namespace dsml::cli
