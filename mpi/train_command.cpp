// train_command.cpp — `dsml-mpi train`: the course's training strategies with every rank a process holding only
// its shard (rank_trainer.h), compared with the core's single-device training on the same data from the same
// initial model (single_device_run, dsml/single_device.h) — the largest parameter difference is printed, and a run
// that differs by more than --tolerance exits 1.
//
//   $ mpirun -np 8 dsml-mpi train --strategy pp-1f1b --dp 2 --tp 2 --pp 2
//   {"strategy": "pp-1f1b", "grid": {"dp": 2, "tp": 2, "pp": 2, "micro_batches": 4}, …, "max_param_diff": 1.7e-16,
//    "equal_to_single_device": true, "loss": […], "reference_loss": […], "per_rank": [{"rank": 0, …}, …]}
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "args.h"
#include "commands.h"
#include "dsml/single_device.h"
#include "json_line.h"
#include "rank_trainer.h"

namespace dsml::mpi {

namespace {

using cli::JsonObject;

// This rank's line of "per_rank": where it sits, its seconds per step by kind, the bytes it holds.
std::string rank_json(const RankTrainer& trainer, const World& world, int steps, double step_s) {
  const RankCoord c = trainer.coord();
  JsonObject comm;
  double compute = 0;
  for (const auto& kv : trainer.clock().seconds()) {
    if (kv.first == "compute" || kv.first == "data") compute += kv.second / steps;
    else comm.add(kv.first, kv.second / steps);
  }
  const HeldBytes held = trainer.held();
  return JsonObject()
      .add("rank", world.rank).add("d", c.d).add("t", c.t).add("p", c.p)
      .add("step_s", step_s)
      .add("compute_s", compute)
      .add_object("comm_s", comm)
      .add_object("held_bytes", JsonObject().add("params", held.params).add("grads", held.grads)
                                    .add("optimizer", held.optimizer))
      .str();
}

struct Comparison {
  double max_abs = 0;       // max |a − b| over every parameter
  double max_relative = 0;  // max over tensors of ‖a − b‖ / ‖b‖ (the strategy tests' measure)
};

Comparison compare(const MlpParams& a, const MlpParams& reference) {
  Comparison c;
  const auto pa = parameter_tensors(a);
  const auto pr = parameter_tensors(reference);
  for (std::size_t k = 0; k < pa.size(); ++k) {
    c.max_abs = std::max(c.max_abs, (*pa[k] - *pr[k]).cwiseAbs().maxCoeff());
    c.max_relative = std::max(c.max_relative, (*pa[k] - *pr[k]).norm() / pr[k]->norm());
  }
  return c;
}

int run_training(const TrainPlan& plan, const World& world) {
  RankTrainer trainer(plan, world);
  std::vector<double> losses;
  std::vector<double> step_times;
  double my_seconds = 0;
  for (int s = 0; s < plan.steps; ++s) {
    MPI_Barrier(world.comm);
    const double t0 = MPI_Wtime();
    const double loss = trainer.step(s);
    const double seconds = MPI_Wtime() - t0;
    my_seconds += seconds;
    step_times.push_back(slowest(world, seconds));
    // The global mean loss: the last stage's tp-0 ranks hold their rows' mean; average over the dp replicas.
    const RankCoord c = trainer.coord();
    const double mine = (c.p == plan.grid.pp - 1 && c.t == 0) ? loss / plan.grid.dp : 0.0;
    double global = 0;
    MPI_Allreduce(&mine, &global, 1, MPI_DOUBLE, MPI_SUM, world.comm);
    losses.push_back(global);
  }
  const std::vector<std::string> ranks = gather_to_root(world, rank_json(trainer, world, plan.steps, my_seconds / plan.steps));
  const std::vector<Buffer> flats = gather_to_root(world, trainer.model().flat());

  int equal = 1;
  if (world.rank == 0) {
    double replica_gap = 0;
    const MlpParams trained = assemble_model(plan, flats, replica_gap);
    // The core's single-device training: same initial model, same batches, same optimizer.
    const SingleDeviceRun reference =
        single_device_run(plan.model, plan.optimizer, init_student(plan.model, plan.seed),
                          teacher_batches(plan.model, plan.seed, plan.steps, plan.batch));
    const std::vector<double>& reference_losses = reference.losses;
    const Comparison diff = compare(trained, reference.params);
    equal = diff.max_abs <= plan.tolerance && replica_gap <= plan.tolerance ? 1 : 0;
    const RankGrid& g = plan.grid;
    const JsonObject json =
        JsonObject()
            .add_text("strategy", plan.strategy)
            .add_object("grid", JsonObject().add("dp", g.dp).add("tp", g.tp).add("pp", g.pp)
                                    .add("micro_batches", plan.micro_batches))
            .add_text("schedule", g.pp > 1 || plan.micro_batches > 1 ? plan.schedule : "none")
            .add_text("dp_sync", g.dp > 1 ? sync_name(plan.sync) : "none")
            .add_text("algorithm", plan.algorithm)
            .add_text("mpi", library_version())
            .add_object("model", JsonObject().add("layers", plan.model.layers).add("width", plan.model.width)
                                     .add("hidden", plan.model.hidden).add("batch", plan.batch)
                                     .add("steps", plan.steps).add_text("optimizer", optimizer_name(plan.optimizer.kind))
                                     .add("lr", plan.optimizer.lr))
            .add("loss", losses)
            .add("reference_loss", reference_losses)
            .add("max_param_diff", diff.max_abs)
            .add("max_relative_diff", diff.max_relative)
            .add("replica_gap", replica_gap)
            .add("tolerance", plan.tolerance)
            .add("step_s", median(step_times));
    print_line(with_raw(with_raw(json, "equal_to_single_device", json_bool(equal == 1)), "per_rank", json_array(ranks)));
    if (!equal)
      std::fprintf(stderr, "dsml-mpi: training over MPI differs from single-device training: max |param difference| "
                           "%.3g, replica gap %.3g, tolerance %.3g\n", diff.max_abs, replica_gap, plan.tolerance);
  }
  MPI_Bcast(&equal, 1, MPI_INT, 0, world.comm);
  return equal == 1 ? 0 : 1;
}

}  // namespace

Run prepare_train(int argc, char** argv, const World& world) {
  const cli::Args args("train", argc, argv, 2, train_flag_names(), train_switch_names(), "dsml-mpi");
  const TrainPlan plan = train_plan(args, world.size);
  return [plan, world] { return run_training(plan, world); };
}

}  // namespace dsml::mpi
