// pipeline_fields.cpp — the timed pipeline schedules as field tables (dsml/pipeline_fields.h): each field's one
// name, its unit and its meaning, written once for the wasm objects, `dsml pipeline`'s JSON and model_parallel.d.ts.
#include <string>
#include <vector>

#include "dsml/pipeline_fields.h"

namespace dsml {
namespace {

// The timing every timed schedule shows, read through its `timing` (ScheduleTimeline's and ScheduleComparison's).
template <class Row>
struct TimingOf {
  static double makespan(const Row& r) { return r.timing.makespan; }
  static double ideal(const Row& r) { return r.timing.ideal; }
  static double bubble_fraction(const Row& r) { return r.timing.bubble_fraction; }
  static double bubble_over_ideal(const Row& r) { return r.timing.bubble_over_ideal; }
  static const std::vector<double>& busy(const Row& r) { return r.timing.busy; }
  static const std::vector<double>& idle(const Row& r) { return r.timing.idle; }
};

template <class Row>
std::vector<Field> timing_fields() {
  using Read = TimingOf<Row>;
  return {field::number<&Read::makespan>("makespan", "s", "until the last device finishes"),
          field::number<&Read::ideal>("ideal", "s",
                                      "one device's work without idling: v·m·(forward + backwardInput + "
                                      "backwardWeight)"),
          field::number<&Read::bubble_fraction>("bubbleFraction", "",
                                                "Σ idle / (P·makespan): the share of the step the devices wait"),
          field::number<&Read::bubble_over_ideal>("bubbleOverIdeal", "",
                                                  "(makespan − ideal)/ideal: (P−1)/m for 1F1B, (P−1)/(v·m) "
                                                  "interleaved, (P−1)/(3m) ZB-H1 with unit times"),
          field::numbers<&Read::busy>("busy", "s", "per device, computing"),
          field::numbers<&Read::idle>("idle", "s", "per device, makespan − busy")};
}

const char* span_kind(const ChunkSpan& s) { return kind_name(s.kind); }

const FieldTable& span_fields() {
  static const FieldTable table{
      "PipelineSpan",
      "One compute op on the simulated timeline: F forward, BW a full backward, B its input-gradient half, W its "
      "weight-gradient half; chunk c is on device c mod P.",
      {field::number<&ChunkSpan::device>("device", "", "the device that runs it"),
       field::text<&span_kind>("kind", "F|BW|B|W", "the op"),
       field::number<&ChunkSpan::micro_batch>("microBatch", "", "its micro-batch"),
       field::number<&ChunkSpan::chunk>("chunk", "", "its model chunk"),
       field::number<&ChunkSpan::start>("start", "s", "from the start of the step"),
       field::number<&ChunkSpan::end>("end", "s", "from the start of the step")}};
  return table;
}

const std::string& timeline_name(const ScheduleTimeline& r) { return r.schedule.name; }
int timeline_devices(const ScheduleTimeline& r) { return r.schedule.devices; }
int timeline_chunks(const ScheduleTimeline& r) { return r.schedule.chunks_per_device; }
int timeline_micro_batches(const ScheduleTimeline& r) { return r.schedule.micro_batches; }
const std::vector<ChunkSpan>& timeline_spans(const ScheduleTimeline& r) { return r.timing.spans; }

}  // namespace

const FieldTable& schedule_timeline_fields() {
  static const FieldTable table = [] {
    FieldTable t{"PipelineTimeline",
                 "One pipeline schedule generated, checked and timed (schedule_timeline). Times in the request's unit "
                 "(seconds by default).",
                 {field::text<&timeline_name>("name", "gpipe|1f1b|interleaved|zb-h1", "the schedule"),
                  field::number<&timeline_devices>("devices", "", "P"),
                  field::number<&timeline_chunks>("chunksPerDevice", "", "v"),
                  field::number<&timeline_micro_batches>("microBatches", "", "m")}};
    for (const Field& f : timing_fields<ScheduleTimeline>()) t.fields.push_back(f);
    t.fields.push_back(field::numbers<&ScheduleTimeline::peak_activations>(
        "peakActivations", "", "per device, the most (micro-batch, chunk) activations held at once"));
    t.fields.push_back(field::number<&ScheduleTimeline::messages>("messages", "", "point-to-point messages per step"));
    t.fields.push_back(field::objects<&timeline_spans>("timeline", "", "every op, by device in execution order",
                                                       span_fields()));
    return t;
  }();
  return table;
}

const FieldTable& schedule_comparison_fields() {
  static const FieldTable table = [] {
    FieldTable t{"PipelineComparison",
                 "One of GPipe, 1F1B, interleaved and ZB-H1 at the same (P, m) with the same per-stage times, beside "
                 "its paper's bubble formula (compare_pipeline_schedules).",
                 {field::text<&ScheduleComparison::name>("name", "gpipe|1f1b|interleaved|zb-h1", "the schedule"),
                  field::number<&ScheduleComparison::chunks_per_device>("chunksPerDevice", "", "v")}};
    for (const Field& f : timing_fields<ScheduleComparison>()) t.fields.push_back(f);
    t.fields.push_back(field::number<&ScheduleComparison::formula_over_ideal>(
        "formulaOverIdeal", "", "the bubble over ideal its paper gives"));
    t.fields.push_back(field::numbers<&ScheduleComparison::peak_activations>(
        "peakActivations", "", "per device, in chunks (interleaved: each 1/v of a stage)"));
    t.fields.push_back(field::number<&ScheduleComparison::peak_stage_activations>(
        "peakStageActivations", "", "max over devices of peak / v: in micro-batches of a whole stage"));
    t.fields.push_back(field::number<&ScheduleComparison::messages>("messages", "", "point-to-point messages per step"));
    return t;
  }();
  return table;
}

}  // namespace dsml
