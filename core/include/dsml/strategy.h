// dsml/strategy.h — the parallel training strategies by name, and the one interface every strategy implements.
//
//   name           class (header)                           grid it runs on     what it communicates per step
//   single         SingleDevice (single_device.h)           1 × 1 × 1           nothing: the reference
//   dp             DataParallel (data_parallel.h)           dp × 1 × 1          one all-reduce per gradient tensor
//   dp-bucketed    DataParallel                             dp × 1 × 1          one all-reduce per bucket (DDP)
//   dp-accumulate  DataParallel                             dp × 1 × 1          as dp, after k micro-batches
//   zero1, zero2   Zero (zero.h)                            dp × 1 × 1          per bucket: reduce-scatter grads,
//                                                                               then all-gather params
//   zero3          Zero                                     dp × 1 × 1          per block: all-gather ×2, r-scatter
//   tp             TensorParallelTrainer (tensor_parallel.h) 1 × tp × 1          two all-reduces of (B, D) per block
//   fsdp-tp        FsdpTensorParallelTrainer                dp × tp × 1         zero3 over dp around tp blocks
//   pp-gpipe       PipelineParallelTrainer                  1 × 1 × pp          sends of (B/m, D), GPipe schedule
//   pp-1f1b        PipelineParallelTrainer                  1 × 1 × pp          the same sends, 1F1B schedule
// The trainers (make_trainer), the step cost model (step_cost.h) and the memory model (step_memory) all take a
// Strategy; the names above are its only spelling (strategy_name / parse_strategy), for the CLI and JavaScript.
//
// One interface (ParallelTrainer): every trainer is built from (grid, model, optimizer, initial parameters,
// options), takes one optimizer step on a global batch and returns a ParallelStep (loss, the collectives it ran,
// the bytes each rank held), and hands back the full parameters for comparison with the single device.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "dsml/comm.h"
#include "dsml/memory_accountant.h"
#include "dsml/mlp.h"
#include "dsml/optimizer.h"
#include "dsml/rank_grid.h"
#include "dsml/teacher_task.h"

namespace dsml {

enum class Strategy { single, dp, dp_bucketed, dp_accumulate, zero1, zero2, zero3, tp, fsdp_tp, pp_gpipe, pp_1f1b };

// Every strategy, in the order of the table above.
const std::vector<Strategy>& all_strategies();
// "single", "dp", "dp-bucketed", "dp-accumulate", "zero1", "zero2", "zero3", "tp", "fsdp-tp", "pp-gpipe", "pp-1f1b".
const char* strategy_name(Strategy strategy);
// The inverse; throws dsml::Error naming every choice ("unknown strategy \"warp\"; choose single, dp, …").
Strategy parse_strategy(const std::string& name);

bool is_pipeline(Strategy strategy);       // pp-gpipe, pp-1f1b
bool is_data_parallel(Strategy strategy);  // dp, dp-bucketed, dp-accumulate: full replicas, all-reduced gradients
int zero_stage(Strategy strategy);         // 1, 2, 3 for zero1 … zero3; 0 otherwise
// Strategies whose gradients travel in buckets of StrategyOptions::bucket_bytes: dp-bucketed, zero1, zero2.
bool is_bucketed(Strategy strategy);
// Strategies that split a step into micro-batches: the dp family (gradient accumulation) and the pipelines.
bool takes_micro_batches(Strategy strategy);
// 2 for dp-accumulate (accumulation needs at least two micro-batches to mean anything), 1 otherwise.
int default_micro_batches(Strategy strategy);

// Throws dsml::Error unless the grid has the shape the table above gives the strategy, e.g. "tp runs on a
// grid with dp = pp = 1 (it uses only tp), got dp = 2, tp = 2, pp = 1".
void check_grid(Strategy strategy, const RankGrid& grid);

// The knobs a strategy may use; each ignores those that do not apply to it.
struct StrategyOptions {
  int micro_batches = 1;                     // dp family: accumulation steps; pipelines: m. Others need 1.
  double bucket_bytes = 25.0 * 1024 * 1024;  // dp-bucketed, zero1, zero2: bytes per bucket, > 0 (DDP's 25 MiB)
  std::string algorithm = "ring";            // make_schedule's algorithm for every collective
};

// What one optimizer step of any strategy reports.
struct ParallelStep {
  double loss = 0;                      // mean loss over the global batch, before the update
  CommLog comm;                         // every collective or send of this step, in the order issued
  std::vector<MemoryBreakdown> memory;  // per rank (rank_of order), bytes of fp64 held: parameters, gradients
                                        // and optimizer state kept between steps, and the peak of activations
                                        // kept for backward during the step
};

class ParallelTrainer {
 public:
  virtual ~ParallelTrainer() = default;
  // One optimizer step on the global batch (B rows of inputs and targets, B as the strategy needs it).
  virtual ParallelStep step(const Batch& global_batch) = 0;
  // The whole model as one device would hold it: read back from the replicas, slices, stages or shards (a copy;
  // nothing is logged).
  virtual MlpParams full_params() const = 0;
  virtual const RankGrid& grid() const = 0;
};

// The trainer of `strategy`, every rank starting from `initial`. Throws dsml::Error if the grid, the model,
// the optimizer or the options do not fit the strategy (the message names the first problem).
std::unique_ptr<ParallelTrainer> make_trainer(Strategy strategy, const RankGrid& grid, const MlpConfig& model,
                                              const OptimizerConfig& optimizer, const MlpParams& initial,
                                              const StrategyOptions& options = {});

}  // namespace dsml
