// pipeline_command.cpp — `dsml pipeline`: one schedule of dsml/chunk_schedule.h timed, or the four side by side.
//
//   $ dsml pipeline --schedule zb-h1 --devices 4 --micro-batches 8
//   {"name": "zb-h1", ..., "makespan": 27, "bubble_over_ideal": 0.125, ...}
// The fields of the JavaScript pipelineTimeline's and pipelineCompare's objects in snake_case, one table for both
// (dsml/pipeline_fields.h).
//   $ dsml pipeline --compare --devices 4 --micro-batches 8 --chunks 2
#include <string>
#include <vector>

#include "args.h"
#include "dsml/chunk_schedule.h"
#include "dsml/pipeline_fields.h"
#include "json_fields.h"
#include "json_output.h"
#include "network_flags.h"
#include "pipeline_command.h"

namespace dsml::cli {
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
      rows.push_back(fields_json(row));
    print(JsonObject().add("devices", P).add("micro_batches", m).add_objects("schedules", rows));
    return 0;
  }
  const ScheduleTimeline run =
      schedule_timeline(args.text("schedule"), P, m, args.whole_or("chunks", 1), ChunkTimes{t_f, t_b, t_w, p2p});
  // Every field of pipelineTimeline's object; its spans with --timeline only.
  static const FieldTable without_spans = omit(schedule_timeline_fields(), {"timeline"}, "PipelineTimeline");
  print(args.has("timeline") ? fields_json(run) : write_fields<JsonFields>(without_spans, &run).value);
  return 0;
}

}  // namespace dsml::cli
