// Building blocks of a chunk schedule (dsml/chunk_schedule.h): an empty schedule, the v = 1 schedules of
// pipeline_schedule.h in this form, a generator by name, the message count, and the text of one op.
#include <string>

#include "dsml/chunk_schedule.h"
#include "dsml/error.h"

namespace dsml {

ChunkSchedule empty_chunk_schedule(const std::string& name, int devices, int chunks_per_device, int micro_batches) {
  if (devices < 1) throw Error("a pipeline needs at least 1 device, got " + std::to_string(devices));
  if (chunks_per_device < 1)
    throw Error("each device needs at least 1 model chunk (v >= 1), got " + std::to_string(chunks_per_device));
  if (micro_batches < 1) throw Error("a pipeline needs at least 1 micro-batch, got " + std::to_string(micro_batches));
  ChunkSchedule schedule;
  schedule.name = name;
  schedule.devices = devices;
  schedule.chunks_per_device = chunks_per_device;
  schedule.micro_batches = micro_batches;
  schedule.ops.resize(static_cast<std::size_t>(devices));
  return schedule;
}

ChunkSchedule as_chunk_schedule(const PipelineSchedule& pipeline) {
  ChunkSchedule schedule = empty_chunk_schedule(pipeline.name, pipeline.stages, 1, pipeline.micro_batches);
  if (static_cast<int>(pipeline.ops.size()) != pipeline.stages)
    throw Error("the schedule has " + std::to_string(pipeline.stages) + " stages but ops for " +
                std::to_string(pipeline.ops.size()));
  for (int s = 0; s < pipeline.stages; ++s) {
    for (const PipelineOp& op : pipeline.ops[static_cast<std::size_t>(s)]) {
      if (op.kind == PipelineOp::Kind::kForward) schedule.ops[s].push_back({ChunkOp::Kind::kForward, op.micro_batch, s});
      if (op.kind == PipelineOp::Kind::kBackward) schedule.ops[s].push_back({ChunkOp::Kind::kBackward, op.micro_batch, s});
    }
  }
  return schedule;
}

ChunkSchedule chunk_schedule_by_name(const std::string& name, int devices, int micro_batches, int chunks_per_device) {
  if (name != "interleaved" && chunks_per_device != 1)
    throw Error("only the interleaved schedule has v > 1 chunks per device; \"" + name + "\" has v = 1");
  if (name == "interleaved") return interleaved_one_f_one_b(devices, micro_batches, chunks_per_device);
  if (name == "zb-h1") return zero_bubble_h1(devices, micro_batches);
  if (name == "gpipe") return as_chunk_schedule(gpipe(devices, micro_batches));
  if (name == "1f1b") return as_chunk_schedule(one_f_one_b(devices, micro_batches));
  throw Error("unknown pipeline schedule \"" + name + "\"; choose gpipe, 1f1b, interleaved or zb-h1");
}

int chunk_schedule_messages(const ChunkSchedule& schedule) {
  int crossings = 0;  // chunk boundaries c | c + 1 whose chunks sit on different devices
  for (int c = 0; c + 1 < schedule.chunks(); ++c)
    if (c % schedule.devices != (c + 1) % schedule.devices) ++crossings;
  return 2 * schedule.micro_batches * crossings;  // an activation forward, a gradient back
}

const char* kind_name(ChunkOp::Kind kind) {
  switch (kind) {
    case ChunkOp::Kind::kForward: return "F";
    case ChunkOp::Kind::kBackward: return "BW";
    case ChunkOp::Kind::kBackwardInput: return "B";
    case ChunkOp::Kind::kBackwardWeight: return "W";
  }
  return "?";
}

std::string describe(const ChunkOp& op) {
  return std::string(kind_name(op.kind)) + "(" + std::to_string(op.micro_batch) + ", chunk " +
         std::to_string(op.chunk) + ")";
}

}  // namespace dsml
