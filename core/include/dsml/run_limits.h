// dsml/run_limits.h — how large a run the course takes on request: what a browser tab simulates or trains in a few
// seconds and a few hundred MB. Every endpoint (the wasm bindings) refuses a larger request with these numbers, so
// one kind of run has one limit wherever it is asked for. The native core and the CLI take their own sizes.
#pragma once

#include "dsml/mlp.h"

namespace dsml::limits {

// Simulated or priced, not trained: closed forms and the event simulator.
constexpr int kSimulatedWorkers = 4096;  // workers, threads or shards of a parameter server, Hogwild!, a wire price
constexpr int kGridRanks = 4096;         // dp·tp·pp of a grid a strategy is priced or trained on
constexpr double kPsPushes = 2e6;        // workers·servers·iterations of one parameter-server run (each push simulated)
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

// Throws Error naming the limit a training run of `steps` steps on batches of `batch` rows of `model` is over.
void check_run_size(const MlpConfig& model, int batch, int steps);

// Throws Error if a simulated job of `workers` workers over `steps` steps is over kJobWorkerSteps: each step draws
// every worker's straggler delay, so workers·steps is what the job costs to simulate.
void check_job_size(int workers, int steps);

}  // namespace dsml::limits
