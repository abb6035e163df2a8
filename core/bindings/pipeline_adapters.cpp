// pipeline_adapters.cpp — see pipeline_adapters.h. Convert, call the core, convert back.
#include "pipeline_adapters.h"

#include <string>
#include <vector>

#include "dsml/chunk_pipeline_parallel.h"
#include "dsml/chunk_schedule.h"
#include "dsml/pipeline_fields.h"
#include "dsml/run_limits.h"
#include "fields.h"
#include "js_arrays.h"
#include "js_object.h"
#include "training_convert.h"

namespace dsml::bindings {
namespace {

ChunkTimes read_times(const val& r, const std::string& ctx) {
  const ChunkTimes unit;  // the core's defaults for a time not given
  return {number_field_or(r, "forward", unit.forward, ctx),
          number_field_or(r, "backwardInput", unit.backward_input, ctx),
          number_field_or(r, "backwardWeight", unit.backward_weight, ctx), number_field_or(r, "p2p", unit.p2p, ctx)};
}

}  // namespace

val pipeline_timeline(const val& r) {
  const std::string ctx = "pipelineTimeline";
  require_object(r, ctx, "{schedule, devices, microBatches, chunksPerDevice?, forward?, backwardInput?, …}");
  const std::string name = text_field(r, "schedule", ctx);
  const int P = static_cast<int>(whole_field(r, "devices", ctx, 1, limits::kTimelineDevices));
  const int m = static_cast<int>(whole_field(r, "microBatches", ctx, 1, limits::kMicroBatches));
  const int v = static_cast<int>(whole_field_or(r, "chunksPerDevice", 1, ctx, 1, limits::kChunksPerDevice));
  return fields_to_val(schedule_timeline(name, P, m, v, read_times(r, ctx)));
}

val pipeline_compare(const val& r) {
  const std::string ctx = "pipelineCompare";
  require_object(r, ctx, "{devices, microBatches, chunksPerDevice, forward?, backwardInput?, backwardWeight?, p2p?}");
  const int P = static_cast<int>(whole_field(r, "devices", ctx, 1, limits::kTimelineDevices));
  const int m = static_cast<int>(whole_field(r, "microBatches", ctx, 1, limits::kMicroBatches));
  const int v = static_cast<int>(whole_field(r, "chunksPerDevice", ctx, 1, limits::kChunksPerDevice));
  const ChunkTimes t = read_times(r, ctx);
  const std::vector<ScheduleComparison> rows = in_context(
      ctx, [&] { return compare_pipeline_schedules(P, m, v, t.forward, t.backward_input, t.backward_weight, t.p2p); });
  val out = val::array();
  for (const ScheduleComparison& row : rows) out.call<void>("push", fields_to_val(row));
  return out;
}

}  // namespace dsml::bindings

namespace dsml::bindings {

val pipeline_train(const val& r) {
  const std::string ctx = "pipelineTrain";
  require_object(r, ctx, "{schedule, devices, microBatches, chunksPerDevice?, model, optimizer, batch, steps, seed?}");
  const TrainingRequest t = to_training_request(r, ctx);
  const ChunkSchedule schedule = chunk_schedule_by_name(
      text_field(r, "schedule", ctx), static_cast<int>(whole_field(r, "devices", ctx, 1, limits::kTrainedDevices)),
      static_cast<int>(whole_field(r, "microBatches", ctx, 1, limits::kMicroBatches)),
      static_cast<int>(whole_field_or(r, "chunksPerDevice", 1, ctx, 1, limits::kChunksPerDevice)));
  const ChunkPipelineComparison c = compare_chunk_pipeline(t.model, t.optimizer, schedule, t.batch, t.steps, t.seed);
  return object_of({{"losses", to_float64_array(c.losses)}, {"singleLosses", to_float64_array(c.single_losses)},
                    {"maxRelativeDifference", c.max_relative_difference},
                    {"peakInFlight", to_js_array(c.peak_in_flight)}, {"messages", c.messages},
                    {"bytesPerStep", c.bytes_per_step}});
}

}  // namespace dsml::bindings
