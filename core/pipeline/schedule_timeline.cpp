// One named chunk schedule built, timed and counted (dsml/chunk_schedule.h): what Week 5's timeline draws.
#include "dsml/chunk_schedule.h"

namespace dsml {

ScheduleTimeline schedule_timeline(const std::string& name, int devices, int micro_batches, int chunks_per_device,
                                   const ChunkTimes& times) {
  ScheduleTimeline out;
  out.schedule = chunk_schedule_by_name(name, devices, micro_batches, chunks_per_device);
  out.timing = time_chunk_schedule(out.schedule, times.forward, times.backward_input, times.backward_weight, times.p2p);
  out.peak_activations = peak_chunk_activations(out.schedule);
  out.messages = chunk_schedule_messages(out.schedule);
  return out;
}

}  // namespace dsml
