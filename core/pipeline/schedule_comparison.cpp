// GPipe, 1F1B, interleaved 1F1B and ZB-H1 side by side at the same (P, m) — measured from the simulated timeline
// and set against the formulas of their papers (dsml/chunk_schedule.h).
#include <algorithm>
#include <string>

#include "dsml/chunk_schedule.h"
#include "dsml/error.h"

namespace dsml {

std::vector<ScheduleComparison> compare_pipeline_schedules(int devices, int micro_batches, int chunks_per_device,
                                                           double forward_s, double backward_input_s,
                                                           double backward_weight_s, double p2p_s) {
  if (chunks_per_device < 2)
    throw Error("the interleaved row needs v >= 2 chunks per device, got " + std::to_string(chunks_per_device));
  const double P = devices, m = micro_batches, v = chunks_per_device;
  const double work = forward_s + backward_input_s + backward_weight_s;
  std::vector<ScheduleComparison> rows;
  for (const char* name : {"gpipe", "1f1b", "interleaved", "zb-h1"}) {
    ScheduleComparison row;
    row.name = name;
    row.chunks_per_device = row.name == "interleaved" ? chunks_per_device : 1;
    const ChunkSchedule schedule = chunk_schedule_by_name(name, devices, micro_batches, row.chunks_per_device);
    const double scale = 1.0 / row.chunks_per_device;  // a chunk is 1/v of a stage
    row.timing = time_chunk_schedule(schedule, forward_s * scale, backward_input_s * scale,
                                     backward_weight_s * scale, p2p_s);
    row.formula_over_ideal = row.name == "interleaved" ? (P - 1) / (v * m)
                             : row.name == "zb-h1"     ? (P - 1) * (forward_s + backward_input_s - backward_weight_s) /
                                                         (m * work)
                                                       : (P - 1) / m;
    row.peak_activations = peak_chunk_activations(schedule);
    row.peak_stage_activations =
        *std::max_element(row.peak_activations.begin(), row.peak_activations.end()) * scale;
    row.messages = chunk_schedule_messages(schedule);
    rows.push_back(row);
  }
  return rows;
}

}  // namespace dsml
