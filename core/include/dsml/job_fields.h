// dsml/job_fields.h — Week 6's capstone job results as field tables (dsml/result_fields.h): what simulateJob,
// jobScaling, jobToTarget and jobTargetScaling return in JavaScript and `dsml capstone` prints, field for field, and
// what types/fault_tolerance.d.ts declares.
#pragma once

#include "dsml/result_fields.h"
#include "dsml/simulated_job.h"

namespace dsml {

const FieldTable& job_run_fields();            // JobRun: the job's clock, its wall split, bytes and loss curve
const FieldTable& job_scaling_point_fields();  // JobScalingPoint: one P of the sweep, in expectation
const FieldTable& target_run_fields();         // TargetRun: one job trained to the loss target
const FieldTable& target_sweep_fields();       // TargetSweep: time_to_target for each P (without the curves)

inline const FieldTable& fields_of(const JobRun&) { return job_run_fields(); }
inline const FieldTable& fields_of(const JobScalingPoint&) { return job_scaling_point_fields(); }
inline const FieldTable& fields_of(const TargetRun&) { return target_run_fields(); }
inline const FieldTable& fields_of(const TargetSweep&) { return target_sweep_fields(); }

}  // namespace dsml
