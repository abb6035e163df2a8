// dsml/chunk_schedule.h — pipeline schedules beyond 1F1B: virtual stages (model chunks) and a backward split
// into its input-gradient and weight-gradient halves. Schedules as data, checked, timed, counted.
//
// The model's layers are cut into C = P·v chunks; chunk c lives on device c mod P (Narayanan et al., SC 2021,
// "interleaved schedule": device 0 holds chunks 0, P, 2P, …). v = 1 is the plain pipeline of
// pipeline_schedule.h. Each device runs an ordered list of compute ops on (micro-batch, chunk):
//   forward          F(i, c): needs F(i, c − 1) (the activation of the chunk before)
//   backward         B+W in one kernel (as 1F1B does): needs F(i, c) and the input gradient of (i, c + 1)
//   backward-input   B(i, c): only ∂loss/∂(chunk input) — what chunk c − 1 waits for
//   backward-weight  W(i, c): only ∂loss/∂(chunk weights); needs B(i, c); nobody waits for it
// (Qi et al., "Zero Bubble Pipeline Parallelism", ICLR 2024: B and W split.) Messages are implicit: a
// dependency between chunks on different devices is a point-to-point message that arrives p2p seconds after the
// op that produces it ends (eager, free for the sender); on one device it is a function call.
//
// Generators:
//   interleaved_one_f_one_b(P, m, v)   Megatron's interleaved 1F1B (m a multiple of P). With unit-time chunks
//       the makespan is (v·m + P − 1)·(t_f + t_b): the bubble (P − 1)(t_f + t_b) is 1/v of 1F1B's, and it is
//       (P − 1)/(v·m) of the ideal v·m·(t_f + t_b). Price: 2·m·(P·v − 1) messages instead of 2·m·(P − 1), and
//       device r holds up to min(2(P − r − 1) + (v − 1)·P + 1, v·m) chunk activations (each 1/v of a stage).
//   zero_bubble_h1(P, m)               ZB-H1: 1F1B's order with the W of each micro-batch deferred so that every
//       device holds at most P micro-batches (1F1B's peak, on device 0). With t_f = t_b = t_w = 1 and m ≥ P the
//       makespan is 3m + P − 1: the bubble (P − 1)(t_f + t_b − t_w) = P − 1 is 1/3 of 1F1B's 3(P − 1).
//   as_chunk_schedule(gpipe(P, m)) / (one_f_one_b(P, m)) — the v = 1 schedules in this form, for comparison.
#pragma once

#include <string>
#include <vector>

#include "dsml/pipeline_schedule.h"

namespace dsml {

struct ChunkOp {
  enum class Kind { kForward, kBackward, kBackwardInput, kBackwardWeight };
  Kind kind = Kind::kForward;
  int micro_batch = 0;  // 0 … m − 1
  int chunk = 0;        // 0 … P·v − 1, on device chunk mod P
};

struct ChunkSchedule {
  std::string name;                        // "interleaved", "zb-h1", "gpipe", "1f1b", …
  int devices = 0;                         // P ≥ 1
  int chunks_per_device = 1;               // v ≥ 1
  int micro_batches = 0;                   // m ≥ 1
  std::vector<std::vector<ChunkOp>> ops;   // ops[device], executed in order
  int chunks() const { return devices * chunks_per_device; }
};

// Empty schedule; throws dsml::Error unless P, v, m ≥ 1.
ChunkSchedule empty_chunk_schedule(const std::string& name, int devices, int chunks_per_device, int micro_batches);
// The same compute ops as a pipeline_schedule.h schedule (v = 1, full backward), messages dropped.
ChunkSchedule as_chunk_schedule(const PipelineSchedule& schedule);

// Throws dsml::Error unless P, v ≥ 1 and m is a positive multiple of P (Megatron's requirement: micro-batches
// go round the devices in groups of P).
ChunkSchedule interleaved_one_f_one_b(int devices, int micro_batches, int chunks_per_device);
// P, m ≥ 1 (the makespan formula above needs m ≥ P).
ChunkSchedule zero_bubble_h1(int devices, int micro_batches);

// "interleaved" (needs v), "zb-h1", "gpipe", "1f1b"; throws dsml::Error naming the choices otherwise.
ChunkSchedule chunk_schedule_by_name(const std::string& name, int devices, int micro_batches,
                                     int chunks_per_device = 1);

// Valid: each op on the device that holds its chunk; every (micro-batch, chunk) forwarded once and backwarded
// either by one backward or by one backward-input followed (on its device) by one backward-weight; forwards of a
// chunk in micro-batch order; and the devices together never deadlock. Empty message when valid, else e.g.
// "device 1: backward-weight(2, chunk 5) comes before backward-input(2, chunk 5)".
PipelineCheck check_chunk_schedule(const ChunkSchedule& schedule);

struct ChunkSpan {
  int device = 0;
  ChunkOp::Kind kind = ChunkOp::Kind::kForward;
  int micro_batch = 0;
  int chunk = 0;
  double start = 0;  // seconds from the start of the step
  double end = 0;
};

struct ChunkTiming {
  double makespan = 0;          // seconds until the last device finishes
  double ideal = 0;             // one device's work without idling: v·m·(t_f + t_b + t_w)
  std::vector<double> busy;     // per device, seconds computing (= ideal for a valid schedule)
  std::vector<double> idle;     // per device, makespan − busy
  double bubble_fraction = 0;   // Σ idle / (P · makespan): the share of the step the devices wait
  double bubble_over_ideal = 0; // (makespan − ideal) / ideal: (P − 1)/m for 1F1B, (P − 1)/(v·m) interleaved
  std::vector<ChunkSpan> spans; // by device, in execution order
};

// Times a valid schedule (throws dsml::Error with check_chunk_schedule's message otherwise). Per micro-batch per
// chunk: forward_s, backward-input backward_input_s, backward-weight backward_weight_s (a full backward takes
// their sum); forward_s, backward_input_s > 0, backward_weight_s ≥ 0, p2p_s ≥ 0.
ChunkTiming time_chunk_schedule(const ChunkSchedule& schedule, double forward_s, double backward_input_s,
                                double backward_weight_s, double p2p_s = 0);

// Per device: the most (micro-batch, chunk) activations held at once — forwarded, and not yet through the full
// backward or the backward-weight (W still reads the chunk's inputs). Throws like time_chunk_schedule.
std::vector<int> peak_chunk_activations(const ChunkSchedule& schedule);

// Point-to-point messages per step: an activation and a gradient for every (micro-batch, chunk boundary) whose
// two chunks sit on different devices — 2·m·(P·v − 1) when P > 1.
int chunk_schedule_messages(const ChunkSchedule& schedule);

// "F", "BW" (a full backward), "B", "W" — the letters of the papers' timelines.
const char* kind_name(ChunkOp::Kind kind);
// "F(3, chunk 5)", "B(3, chunk 5)", "W(3, chunk 5)", "BW(3, chunk 5)".
std::string describe(const ChunkOp& op);

}  // namespace dsml

namespace dsml {

// The times of one chunk's ops when a request names none: the unit-time convention of the papers' formulas
// (t_f = t_b = t_w = 1) and free messages.
struct ChunkTimes {
  double forward = 1, backward_input = 1, backward_weight = 1, p2p = 0;  // s, or units of one chunk's forward
};

// One named schedule (chunk_schedule_by_name) built, timed with `times` per chunk op, and counted: what a
// timeline of it shows. Throws as chunk_schedule_by_name and time_chunk_schedule.
struct ScheduleTimeline {
  ChunkSchedule schedule;
  ChunkTiming timing;
  std::vector<int> peak_activations;  // per device, in chunks (peak_chunk_activations)
  int messages = 0;                   // chunk_schedule_messages
};
ScheduleTimeline schedule_timeline(const std::string& name, int devices, int micro_batches, int chunks_per_device,
                                   const ChunkTimes& times);

// The four schedules at the same (P, m), each timed with the same per-stage work: t_f, t_b, t_w per micro-batch
// per stage (interleaving cuts a stage into v chunks of t/v each). The formula column is the bubble over ideal
// the papers give: (P − 1)/m for GPipe and 1F1B, (P − 1)/(v·m) interleaved (m a multiple of P), and
// (P − 1)(t_f + t_b − t_w)/(m·(t_f + t_b + t_w)) for ZB-H1 (its paper's estimate). Measured on the timeline
// (m ≥ P, m a multiple of P): exact whenever t_w ≤ t_f; with t_w > t_f the fixed ZB-H1 order leaves more bubble
// (P = 4, m = 8, t = 1, 0.5, 1: 0.15 against 0.075) — the paper's automatic scheduler is what adapts to the times.
struct ScheduleComparison {
  std::string name;            // "gpipe", "1f1b", "interleaved", "zb-h1"
  int chunks_per_device = 1;   // v
  ChunkTiming timing;
  double formula_over_ideal = 0;
  std::vector<int> peak_activations;  // per device, in chunks (interleaved: each 1/v of a stage)
  double peak_stage_activations = 0;  // max over devices of peak / v: in units of one stage's micro-batch
  int messages = 0;
};
// Throws dsml::Error on bad P, m, v or times (v ≥ 2 and m a multiple of P for the interleaved row). The v ≥ 2 is
// this comparison's own: its interleaved row at v = 1 would be 1F1B again, so it would compare nothing, while
// schedule_timeline times any schedule at v ≥ 1 (the plain ones at v = 1).
std::vector<ScheduleComparison> compare_pipeline_schedules(int devices, int micro_batches, int chunks_per_device,
                                                           double forward_s, double backward_input_s,
                                                           double backward_weight_s, double p2p_s = 0);

}  // namespace dsml
