// dsml/pipeline_fields.h — the timed pipeline schedules as field tables (dsml/result_fields.h): what
// pipelineTimeline and pipelineCompare return in JavaScript and `dsml pipeline` prints, field for field, and what
// types/model_parallel.d.ts declares.
#pragma once

#include "dsml/chunk_schedule.h"
#include "dsml/result_fields.h"

namespace dsml {

const FieldTable& schedule_timeline_fields();    // ScheduleTimeline: one schedule, its timing and its spans
const FieldTable& schedule_comparison_fields();  // ScheduleComparison: one row of the four schedules side by side

inline const FieldTable& fields_of(const ScheduleTimeline&) { return schedule_timeline_fields(); }
inline const FieldTable& fields_of(const ScheduleComparison&) { return schedule_comparison_fields(); }

}  // namespace dsml
