// job_fields.cpp — the capstone job's results as field tables (dsml/job_fields.h): each field's one name, its unit
// and its meaning, written once for the wasm objects, `dsml capstone`'s JSON and fault_tolerance.d.ts.
#include "dsml/job_fields.h"

namespace dsml {
namespace {

const FieldTable& wall_split_fields() {
  static const FieldTable table{
      "WallSplit", "Where the wall time went: compute + communication + stragglerWait + checkpoints + lostWork + "
                   "restarts = wall.",
      {field::number<&WallSplit::compute>("compute", "s", "computing, no straggler"),
       field::number<&WallSplit::communication>("communication", "s", "the gradients' collectives"),
       field::number<&WallSplit::straggler_wait>("stragglerWait", "s", "waiting for the slowest worker"),
       field::number<&WallSplit::checkpoints>("checkpoints", "s", "writing the checkpoints kept"),
       field::number<&WallSplit::lost_work>("lostWork", "s", "work redone after failures"),
       field::number<&WallSplit::restarts>("restarts", "s", "detecting failures and restarting")}};
  return table;
}

// The timing's fields, read through JobRun's `timing`.
double timing_step_compute(const JobRun& r) { return r.timing.step_compute; }
double timing_step_comm(const JobRun& r) { return r.timing.step_comm; }
double timing_work(const JobRun& r) { return r.timing.work; }
double timing_wall(const JobRun& r) { return r.timing.wall; }
const WallSplit& timing_split(const JobRun& r) { return r.timing.split; }
double timing_failures(const JobRun& r) { return r.timing.failures; }
double timing_checkpoints(const JobRun& r) { return r.timing.checkpoints; }
double timing_slow_steps(const JobRun& r) { return r.timing.slow_steps; }
double timing_interval(const JobRun& r) { return r.timing.interval; }
double timing_fleet_mtbf(const JobRun& r) { return r.timing.fleet_mtbf; }
double timing_expected_wall(const JobRun& r) { return r.timing.expected_wall; }
double timing_efficiency(const JobRun& r) { return r.timing.efficiency; }

}  // namespace

const FieldTable& job_run_fields() {
  static const FieldTable table{
      "JobRunResult",
      "The capstone job simulated end to end (run_job): its clock with stragglers, failures and checkpoints, the "
      "bytes one worker sends, and the teacher task's loss.",
      {field::number<&timing_step_compute>("stepCompute", "s", "a step's compute, no straggler"),
       field::number<&timing_step_comm>("stepComm", "s", "a step's communication"),
       field::number<&timing_work>("work", "s", "Σ step: the job without failures or checkpoints"),
       field::number<&timing_wall>("wall", "s", "the wall time: split's sum"),
       field::object<&timing_split>("split", "", "where the wall time went", wall_split_fields()),
       field::number<&timing_failures>("failures", "", "every failure"),
       field::number<&timing_checkpoints>("checkpoints", "", "checkpoints written and kept"),
       field::number<&timing_slow_steps>("slowSteps", "", "steps with at least one straggler"),
       field::number<&timing_interval>("interval", "s", "τ = Δ·work/steps, the checkpoint interval"),
       field::number<&timing_fleet_mtbf>("fleetMtbf", "s", "the node MTBF over the workers"),
       field::number<&timing_expected_wall>("expectedWall", "s", "Daly's expected wall time at (work, τ)"),
       field::number<&timing_efficiency>("efficiency", "", "steps·stepCompute / wall"),
       field::number<&JobRun::bytes_per_step>("bytesPerStep", "bytes",
                                              "what one worker sends a step (ring algorithms)"),
       field::number<&JobRun::uncompressed_bytes_per_step>("uncompressedBytesPerStep", "bytes",
                                                           "the same for the fp32 gradient's ring all-reduce"),
       field::number<&JobRun::bytes_per_worker>("bytesPerWorker", "bytes", "bytesPerStep · steps"),
       field::flag<&JobRun::composes_with_all_reduce>("composesWithAllReduce",
                                                      "whether the compressed messages sum (an all-reduce carries "
                                                      "them)"),
       field::number<&JobRun::young_steps>("youngSteps", "", "Young's checkpoint interval, in steps of the mean step"),
       field::number<&JobRun::daly_steps>("dalySteps", "", "Daly's, in steps"),
       field::number<&JobRun::optimal_steps>("optimalSteps", "",
                                             "the interval minimising Daly's expected wall, in steps"),
       field::number<&JobRun::expected_wall_at_optimal>("expectedWallAtOptimal", "s",
                                                        "Daly's expected wall time at that interval"),
       field::column<&JobRun::losses>("losses", "",
                                      "the teacher task's held-out loss before step 1, then after every step (empty "
                                      "unless train)")}};
  return table;
}

const FieldTable& job_scaling_point_fields() {
  static const FieldTable table{
      "JobScalingPoint", "One P of the sweep over workers, in expectation (job_scaling).",
      {field::number<&JobScalingPoint::workers>("workers", "", "P"),
       field::number<&JobScalingPoint::step_compute>("stepCompute", "s", "a step's compute, no straggler"),
       field::number<&JobScalingPoint::step_comm>("stepComm", "s", "a step's communication"),
       field::number<&JobScalingPoint::straggler_wait>("stragglerWait", "s",
                                                       "E[slowest worker's compute] − stepCompute, per step"),
       field::number<&JobScalingPoint::expected_wall>("expectedWall", "s",
                                                      "Daly's model with failures on; work + checkpoints otherwise"),
       field::number<&JobScalingPoint::efficiency>("efficiency", "", "steps·stepCompute / expectedWall"),
       field::number<&JobScalingPoint::failure_free_efficiency>("failureFreeEfficiency", "",
                                                                "the same without failures")}};
  return table;
}

const FieldTable& target_run_fields() {
  static const FieldTable table{
      "TargetRun", "One job trained to the loss target (time_to_target).",
      {field::number<&TargetRun::workers>("workers", "", "P"),
       field::flag<&TargetRun::reached>("reached",
                                        "false: the step cap came first; steps, work and wall are the cap's"),
       field::number<&TargetRun::steps>("steps", "", "steps to the target (asynchronous: updates / P)"),
       field::number<&TargetRun::updates>("updates", "", "gradients of taskRows rows applied by then"),
       field::number<&TargetRun::loss>("loss", "", "the first held-out loss <= target, or the last at the cap"),
       field::number<&TargetRun::work>("work", "s", "failure-free time to the target"),
       field::number<&TargetRun::wall>("wall", "s", "expected wall time with checkpoints and failures (Daly)"),
       field::number<&TargetRun::max_staleness>("maxStaleness", "",
                                                "the stalest update applied by then (asynchronous; 0 synchronous)"),
       field::optional(field::column<&TargetRun::curve_steps>("curveSteps", "",
                                                              "jobToTarget only: the loss curve's steps")),
       field::optional(field::column<&TargetRun::curve_loss>("curveLoss", "",
                                                             "jobToTarget only: the held-out loss at curveSteps"))}};
  return table;
}

const FieldTable& target_sweep_fields() {
  static const FieldTable points = omit(target_run_fields(), {"curveSteps", "curveLoss"}, "TargetRun");
  static const FieldTable table{
      "TargetSweep", "time_to_target for each P (target_scaling).",
      {field::objects<&TargetSweep::points>("points", "", "one per P, without the curves", points),
       field::number<&TargetSweep::best>("best", "",
                                         "the index of the smallest wall among those that reached the target (−1: "
                                         "none did)")}};
  return table;
}

}  // namespace dsml
