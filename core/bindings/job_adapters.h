// job_adapters.h — the capstone job for JavaScript (dsml/simulated_job.h). Same rules as adapters.h: convert, call
// the core, convert back. Their contract for JavaScript is core/bindings/types/fault_tolerance.d.ts.
#pragma once

#include <emscripten/val.h>

namespace dsml::bindings {

using emscripten::val;

// simulateJob(JobRequest) → JobRunResult                                  = run_job
val simulate_job(const val& request);
// jobScaling(JobRequest, workers[]) → JobScalingPoint[]                    = job_scaling
val job_scaling(const val& request, const val& workers);
// jobToTarget(JobRequest) → TargetRun                                      = time_to_target
val job_to_target(const val& request);
// jobTargetScaling(JobRequest, workers[]) → TargetSweep                    = target_scaling
val job_target_scaling(const val& request, const val& workers);
// jobErrorFeedbackDefault({compressor}) → bool: error feedback's default for it on the capstone's job
val job_error_feedback_default(const val& request);

}  // namespace dsml::bindings
