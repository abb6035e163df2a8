// simulated_job.cpp — the capstone job (dsml/simulated_job.h): its clock, its loss on the teacher task, its bytes,
// and the checkpoint intervals the closed forms recommend for it.
#include "dsml/simulated_job.h"

#include "dsml/checkpointing.h"
#include "dsml/compressed_training.h"
#include "job_pricing.h"

namespace dsml {

JobRun run_job(const JobConfig& c) {
  JobRun out;
  out.timing = time_job(c);  // validates

  if (c.train) {
    CompressedTrainingConfig train;
    train.model = c.task;
    train.workers = c.workers;
    train.batch_per_worker = c.task_rows_per_worker;
    train.steps = c.steps;
    train.lr = c.lr;
    train.compressor = c.compressor;
    train.error_feedback = c.error_feedback;
    train.seed = c.task_seed;
    train.eval_batch = c.eval_batch;
    out.losses = train_compressed(train).losses;
  }

  const CompressorConfig wire = job_detail::wire_compressor(c);
  out.bytes_per_step = compressed_bytes_sent(wire, c.model, c.workers);
  CompressorConfig plain = wire;
  plain.kind = CompressorKind::none;
  out.uncompressed_bytes_per_step = compressed_bytes_sent(plain, c.model, c.workers);
  out.bytes_per_worker = out.bytes_per_step * c.steps;
  out.composes_with_all_reduce = composes_with_all_reduce(c.compressor.kind);

  // The closed forms at the job's fleet MTBF, in steps of the mean step.
  const JobTiming& t = out.timing;
  const double mean_step = t.work / c.steps, m = t.fleet_mtbf;
  if (c.checkpoint_seconds > 0) {
    out.young_steps = young_interval(c.checkpoint_seconds, m) / mean_step;
    out.daly_steps = daly_interval(c.checkpoint_seconds, m) / mean_step;
  }
  const double best = optimal_interval(t.work, c.checkpoint_seconds, c.restart_seconds, m, c.detection_seconds);
  out.optimal_steps = best / mean_step;
  out.expected_wall_at_optimal =
      expected_wall_time(t.work, best, c.checkpoint_seconds, c.restart_seconds, m, c.detection_seconds);
  return out;
}

bool job_error_feedback_default(CompressorKind kind) {
  return kind == CompressorKind::top_k || kind == CompressorKind::powersgd || kind == CompressorKind::sign;
}

}  // namespace dsml
