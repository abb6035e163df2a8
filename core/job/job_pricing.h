// job_pricing.h — the pieces of the capstone job's clock that the run and the sweep over P share
// (simulated_job_timing.cpp; dsml/simulated_job.h says what each one models).
#pragma once

#include "dsml/compression.h"
#include "dsml/simulated_job.h"
#include "dsml/speed_model.h"

namespace dsml::job_detail {

double step_compute_seconds(const JobConfig& config);  // step_cost's compute_s of the dp step, s
CompressorConfig wire_compressor(const JobConfig& config);  // the compressor with the job's element_bytes
double step_comm_seconds(const JobConfig& config);     // compressed_step_seconds, s
SpeedModel stragglers(const JobConfig& config, double compute_seconds);  // slow-node, base = one step's compute
int checkpoints_without_failures(const JobConfig& config);  // ⌈steps/Δ⌉

}  // namespace dsml::job_detail
