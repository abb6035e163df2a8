// dsml/plan_fields.h — the planner's results as field tables (dsml/result_fields.h): what planStep returns in
// JavaScript and `dsml plan` prints, field for field, and what types/planner.d.ts declares.
#pragma once

#include "dsml/planner.h"
#include "dsml/result_fields.h"

namespace dsml {

const FieldTable& step_plan_fields();      // StepPlan, with its layout, time split, stages and memory
const FieldTable& plan_memory_fields();    // PlanMemory: bytes per GPU
const FieldTable& attention_cost_fields();  // AttentionCost: one layer's attention core
// What Week 5's layouts show of a plan: its time, memory and fits (dsml.d.ts: Pick<StepPlan, "time" | "memory" |
// "fits">, LayoutPlan).
const FieldTable& layout_plan_fields();

inline const FieldTable& fields_of(const StepPlan&) { return step_plan_fields(); }
inline const FieldTable& fields_of(const PlanMemory&) { return plan_memory_fields(); }
inline const FieldTable& fields_of(const AttentionCost&) { return attention_cost_fields(); }

}  // namespace dsml
