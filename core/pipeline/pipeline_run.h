// Private to core/pipeline: runs the stages of a pipeline schedule together, the one engine behind the
// deadlock check (check_pipeline_schedule) and the timing (time_pipeline_schedule).
#pragma once

#include <string>
#include <vector>

#include "dsml/pipeline_schedule.h"

namespace dsml {
namespace pipeline_detail {

struct PipelineRun {
  std::string deadlock;             // empty when every stage ran to its end
  std::vector<double> finish;       // per stage: seconds when its last op ended
  std::vector<double> busy;         // per stage: seconds computing
  std::vector<PipelineSpan> spans;  // by stage, in execution order
};

// Precondition: the per-stage rules of check_pipeline_schedule hold (each message sent and received exactly
// once, every op's micro-batch in range). Times in seconds, ≥ 0.
PipelineRun run_pipeline(const PipelineSchedule& schedule, double forward_s, double backward_s, double p2p_s);

// The per-stage rules alone (everything but deadlock): empty if they hold, else the first broken one.
std::string check_stages(const PipelineSchedule& schedule);

}  // namespace pipeline_detail
}  // namespace dsml
