// dsml/run_limits.h — how large a run the course takes on request: what a browser tab simulates or trains in a few
// seconds and a few hundred MB. Every endpoint (the wasm bindings) refuses a larger request with these numbers, so
// one kind of run has one limit wherever it is asked for. The native core and the CLI take their own sizes.
#pragma once

#include "dsml/mlp.h"
#include "dsml/rank_grid.h"

namespace dsml::limits {

// Simulated or priced, not trained: closed forms and the event simulator.
constexpr int kSimulatedWorkers = 4096;  // workers, threads or shards of a parameter server, Hogwild!, a wire price
constexpr int kGridRanks = 4096;         // dp·tp·pp of a grid a strategy is priced or trained on
constexpr double kPsPushes = 2e6;        // workers·servers·iterations of one parameter-server run (each push simulated)
constexpr double kSpeedDraws = 4e6;      // workers·iterations of compute times drawn from a speed model at once
constexpr int kTimelineDevices = 1024;   // pipeline devices a schedule is built and timed for
constexpr int kMicroBatches = 4096;      // micro-batches of a pipeline schedule
constexpr int kChunksPerDevice = 64;     // v of an interleaved schedule
constexpr int kClusterNodes = 4096;      // nodes of a designed cluster
constexpr int kGpusPerNode = 64;         // GPUs in one of its nodes

// Trained: every worker's or device's gradients computed for real.
constexpr int kTrainedWorkers = 1024;    // data-parallel workers of a training run
constexpr int kTrainedDevices = 64;      // pipeline or expert-parallel devices a training run executes
constexpr int kSteps = 10000;            // steps of one training run
constexpr int kRows = 1 << 20;           // rows of one batch
constexpr double kModelWeights = 1e8;    // layers·width·hidden of a trained MLP (a lab model, not a real one)
constexpr double kBatchValues = 1e7;     // batch·width of one step's activations
constexpr double kMoeWeights = 1e8;      // experts·layers·width·hidden of a trained MoE MLP
constexpr double kValues = 1e7;          // numbers in one tensor handed over (a gradient to compress)
constexpr double kJobWorkerSteps = 4e6;  // workers·steps of a simulated job (a straggler draw per worker and step)
constexpr double kPsTrainedValues = 2e10;  // workers·iterations·batch·parameters a parameter server trains

// Throws Error naming the limit a training run of `steps` steps on batches of `batch` rows of `model` is over.
void check_run_size(const MlpConfig& model, int batch, int steps);

// Throws Error if a simulated job of `workers` workers over `steps` steps is over kJobWorkerSteps: each step draws
// every worker's straggler delay, so workers·steps is what the job costs to simulate.
void check_job_size(int workers, int steps);

// Throws Error if the grid has more than kGridRanks ranks (dp·tp·pp), the most a strategy is priced or trained on.
void check_grid_size(const RankGrid& grid);

// Throws Error if a parameter-server run of `workers` workers, `servers` shards and `iterations` rounds or clocks
// pushes more than kPsPushes times (each push is simulated), naming the count.
void check_ps_size(int workers, int servers, int iterations);

// Throws Error if that run, trained on batches of `batch` rows of a `parameters`-parameter model, computes more than
// kPsTrainedValues gradient values (workers·iterations·batch·parameters: what a tab trains in seconds).
void check_ps_training_size(int workers, int iterations, int batch, double parameters);

// Throws Error if a mixture-of-experts MLP of `experts` experts per block is over kMoeWeights
// (experts·layers·width·hidden), or one expert-parallel step of `batch` tokens over kModelWeights (batch·width·hidden).
void check_moe_size(int experts, const MlpConfig& mlp);
void check_expert_parallel_size(int batch, int width, int hidden);

// Throws Error if workers·iterations compute times (a speed model's draws) are more than kSpeedDraws.
void check_speed_draws(int workers, int iterations);

}  // namespace dsml::limits
