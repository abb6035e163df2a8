// train_plan.cpp — see train_plan.h.
#include "train_plan.h"

#include "dsml/error.h"
#include "dsml/schedule.h"
#include "dsml/strategy.h"

namespace dsml::mpi {

namespace {

// What the MPI rank program does on the dp axis, and where a strategy puts the ranks by default.
DpSync sync_of(Strategy s) {
  if (s == Strategy::dp || s == Strategy::dp_accumulate) return DpSync::naive;
  if (s == Strategy::fsdp_tp) return DpSync::zero3;
  switch (zero_stage(s)) {
    case 1: return DpSync::zero1;
    case 2: return DpSync::zero2;
    case 3: return DpSync::zero3;
    default: return DpSync::bucketed;
  }
}

char axis_of(Strategy s) {  // 'd', 't', 'p', 'f' (fsdp-tp: dp × 2), '1' (single)
  if (s == Strategy::single) return '1';
  if (s == Strategy::tp) return 't';
  if (s == Strategy::fsdp_tp) return 'f';
  if (is_pipeline(s)) return 'p';
  return 'd';
}

RankGrid grid_of(const cli::Args& args, Strategy strategy, int size) {
  if (args.has("dp") || args.has("tp") || args.has("pp"))
    return RankGrid{args.whole_or("dp", 1), args.whole_or("tp", 1), args.whole_or("pp", 1)};
  switch (axis_of(strategy)) {
    case 'd': return RankGrid{size, 1, 1};
    case 't': return RankGrid{1, size, 1};
    case 'p': return RankGrid{1, 1, size};
    case 'f': return size % 2 == 0 ? RankGrid{size / 2, 2, 1} : RankGrid{size, 1, 1};
    default: return RankGrid{1, 1, 1};
  }
}

void require(bool ok, const std::string& message) {
  if (!ok) throw Error(message);
}

}  // namespace

std::vector<std::string> train_flag_names() {
  return {"strategy", "dp", "tp", "pp", "layers", "width", "hidden", "batch", "steps", "micro-batches",
          "optimizer", "lr", "algorithm", "bucket-bytes", "seed", "activation", "tolerance"};
}
std::vector<std::string> train_switch_names() { return {"no-residual"}; }

const char* sync_name(DpSync sync) {
  switch (sync) {
    case DpSync::naive: return "all-reduce per tensor";
    case DpSync::bucketed: return "all-reduce per bucket";
    case DpSync::zero1: return "zero1";
    case DpSync::zero2: return "zero2";
    case DpSync::zero3: return "zero3";
  }
  return "?";
}

TrainPlan train_plan(const cli::Args& args, int world_size) {
  TrainPlan plan;
  plan.strategy = args.text("strategy");
  const Strategy strategy = parse_strategy(plan.strategy);  // the core's names (dsml/strategy.h)
  plan.sync = sync_of(strategy);
  plan.schedule = strategy == Strategy::pp_gpipe ? "gpipe" : "1f1b";
  plan.grid = grid_of(args, strategy, world_size);
  validate(plan.grid);
  plan.model.layers = args.whole_or("layers", 4);
  plan.model.width = args.whole_or("width", 32);
  plan.model.hidden = args.whole_or("hidden", 128);
  plan.model.activation = parse_activation(args.has("activation") ? args.text("activation") : "gelu");
  plan.model.residual = !args.has("no-residual");
  validate(plan.model);
  plan.optimizer.kind = parse_optimizer(args.has("optimizer") ? args.text("optimizer") : "adam");
  plan.optimizer.lr = args.number_or("lr", plan.optimizer.kind == OptimizerKind::adam ? 0.003 : 0.05);
  validate(plan.optimizer);
  plan.batch = args.whole_or("batch", 32);
  plan.steps = args.whole_or("steps", 5);
  plan.micro_batches = args.whole_or("micro-batches", plan.grid.pp > 1 ? 4 : default_micro_batches(strategy));
  plan.seed = static_cast<std::uint64_t>(args.whole_or("seed", 7));
  if (args.has("algorithm")) plan.algorithm = args.text("algorithm");
  plan.bucket_bytes = args.number_or("bucket-bytes", plan.bucket_bytes);
  plan.tolerance = args.number_or("tolerance", plan.tolerance);

  const RankGrid& g = plan.grid;
  require(g.size() == world_size,
          "the grid dp x tp x pp = " + std::to_string(g.dp) + " x " + std::to_string(g.tp) + " x " +
              std::to_string(g.pp) + " needs " + std::to_string(g.size()) + " ranks, but the job has " +
              std::to_string(world_size) + " (run it with -np " + std::to_string(g.size()) + ")");
  require(plan.strategy != "single" || world_size == 1, "strategy single runs on 1 rank (-np 1)");
  require(plan.batch >= 1 && plan.steps >= 1 && plan.micro_batches >= 1,
          "--batch, --steps and --micro-batches must be >= 1");
  require(plan.model.hidden % g.tp == 0, "tp = " + std::to_string(g.tp) + " must divide the hidden width F = " +
                                             std::to_string(plan.model.hidden));
  require(plan.model.layers % g.pp == 0, "pp = " + std::to_string(g.pp) + " must divide the number of blocks L = " +
                                             std::to_string(plan.model.layers));
  require(plan.batch % (g.dp * plan.micro_batches) == 0,
          "dp x micro-batches = " + std::to_string(g.dp) + " x " + std::to_string(plan.micro_batches) +
              " must divide the batch B = " + std::to_string(plan.batch) +
              " (every rank's mean loss must weigh the same number of rows)");
  require_positive("bucket-bytes", plan.bucket_bytes);
  require_positive("tolerance", plan.tolerance);
  const bool norms = plan.optimizer.kind == OptimizerKind::lars || plan.optimizer.kind == OptimizerKind::lamb;
  require(!norms || (g.tp == 1 && (plan.sync == DpSync::naive || plan.sync == DpSync::bucketed || g.dp == 1)),
          std::string(optimizer_name(plan.optimizer.kind)) +
              " needs the norm of whole tensors: it runs with replicated dp and tp = 1 only (use sgd, momentum or "
              "adam with ZeRO, FSDP or tensor parallelism)");
  // The algorithm must exist for every collective the strategy calls (make_schedule throws naming the choices).
  make_schedule("all-reduce", plan.algorithm, 2, 8);
  if (plan.sync == DpSync::zero1 || plan.sync == DpSync::zero2 || plan.sync == DpSync::zero3) {
    make_schedule("all-gather", plan.algorithm, 2, 8);
    if (plan.sync != DpSync::zero1) make_schedule("reduce-scatter", plan.algorithm, 2, 8);
  }
  return plan;
}

}  // namespace dsml::mpi
