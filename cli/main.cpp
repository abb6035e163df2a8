// main.cpp — `dsml`, the native command-line face of the core: the α–β cost model, Amdahl and Gustafson,
// the α–β fit, the message-passing simulator, collectives, and training (a step's cost; a strategy trained beside
// one device), each printing one line of JSON on stdout.
//
//   $ dsml cost --alpha 1e-6 --beta 1e-11 --bytes 1000
//   {"message_time_s": 1.0099999999999999e-06, "crossover_bytes": 100000, "effective_bandwidth_Bps": 990099009.9009902}
//   (every number printed with the digits that read back as the exact double)
//
// Bad input of any kind — an unknown subcommand or flag, a missing value, a value that is not a number, or
// an argument the core rejects — prints one line "dsml: error: <message>" on stderr and exits with code 2.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "args.h"
#include "design_command.h"
#include "fault_tolerance_commands.h"
#include "foundations_commands.h"
#include "network_flags.h"  // dsml collective
#include "pipeline_command.h"
#include "plan_command.h"
#include "ps_command.h"
#include "train_command.h"

namespace {

using dsml::cli::UsageError;

constexpr int kUsageExitCode = 2;

// `dsml --help` is kUsageHead, each command's usage in table order, then kUsageTail.
const char kUsageHead[] = R"(dsml — distributed systems for ML, from first principles: the native tool.

Usage:
)";
const char kUsageTail[] = R"(  dsml --help

Units: seconds, bytes, bytes per second. --ranks defaults to 2, --rounds and --laps to 1, --compute to 0.
Errors: one line "dsml: error: ..." on stderr, exit code 2.
)";

// Every subcommand, once: its name, the function that runs it and its lines of `dsml --help`. The help text, the
// dispatch and the unknown-subcommand error are all read from this table; a new command is one more row.
struct Command {
  const char* name;
  int (*run)(int argc, char** argv);
  const char* usage;
};

const Command kCommands[] = {
    {"cost", dsml::cli::cost,
     R"(  dsml cost --alpha S (--beta S_PER_B | --bandwidth B_PER_S) --bytes N [--gamma S_PER_B]
      T(n) = alpha + beta*n, n* = alpha/beta, n/T(n)
      -> {"message_time_s", "crossover_bytes", "effective_bandwidth_Bps"}
)"},
    {"amdahl", dsml::cli::amdahl,
     R"(  dsml amdahl --serial S --procs N         -> {"speedup", "limit"}      1/(s + (1-s)/N), 1/s
  dsml amdahl --speedup X --procs N        -> {"serial_fraction"}       the s that gives speed-up X
)"},
    {"gustafson", dsml::cli::gustafson,
     R"(  dsml gustafson --serial S --procs N      -> {"speedup"}               N - s(N-1)
)"},
    {"fit", dsml::cli::fit,
     R"(  dsml fit --bytes N1,N2,... --seconds T1,T2,...
      least-squares alpha and beta -> {"alpha_s", "beta_s_per_byte", "bandwidth_Bps", "r_squared", "points"}
)"},
    {"simulate", dsml::cli::simulate,
     R"(  dsml simulate --scenario NAME --bytes N --alpha S (--beta S_PER_B | --bandwidth B_PER_S)
                [--ranks P] [--rounds R] [--laps L] [--compute S] [--trace]
      NAME: ping-pong | token-ring | linear-broadcast | gather-to-root | compute-then-exchange
      -> {"makespan_s", "messages", "total_bytes", "events", "finish_time_s": [...]}
      --trace prints the timestamped event log instead (the golden-trace format).
    On a topology (default: Week 1's switch, the same as fully-connected), add
                [--topology fully-connected | ring]                      (--alpha, --beta as above)
                [--topology torus2d --rows R --cols C]                   (ranks = R*C)
                [--topology hierarchical --nodes N --per-node D --intra-alpha S --intra-beta S_PER_B
                                         --inter-alpha S --inter-beta S_PER_B]  (ranks = N*D; no --alpha/--beta)
      -> adds {"topology", "links", "busiest_link": {"name", "busy_s"} (null if no link was busy)}
)"},
    {"collective", dsml::cli::collective,
     R"(  dsml collective --collective C --algorithm A --ranks P --bytes N --alpha S (--beta S_PER_B | --bandwidth B_PER_S)
                  [--gamma S_PER_B] [--root R] [--devices-per-node D] [--topology ... as for simulate]
      C: broadcast | reduce | all-reduce | all-gather | reduce-scatter | all-to-all
      -> {"closed_form_s", "lower_bound_s" (null on a hierarchical topology), "simulated_s", "messages",
          "bytes_moved", "algbw_Bps", "busbw_Bps" (of the simulated time), "busiest_link": {"name", "busy_s"}}
      A = pipelined-chain | pipelined-tree (broadcast) take [--segments K] (default P) and add
          {"segments", "best_segments", "best_segments_s"}: the K that minimises (aK + c)(alpha + beta*N/K)
  dsml collective --list                   -> [{"collective", "algorithm"}, ...]
)"},
    {"train-step", dsml::cli::train_step,
     R"(  dsml train-step --layers L --width D --hidden F --batch B --strategy S [--dp N --tp N --pp N]
                  [--micro-batches M] --flops FLOP_PER_S --alpha S (--beta S_PER_B | --bandwidth B_PER_S)
                  [--gamma S_PER_B] [--algorithm A] [--bucket-bytes N] [--element-bytes E] [--optimizer-states K]
                  [--recompute] [--overlap] [--topology ... as for simulate; its ranks = dp*tp*pp]
      S: single | dp | dp-bucketed | dp-accumulate | zero1 | zero2 | zero3 | tp | fsdp-tp | pp-gpipe | pp-1f1b
      one step; closed-form collectives, or simulated with --topology; --overlap runs the collectives on a
      communication stream beside compute (each issued when its data is ready), otherwise one after the other
      -> {"strategy", "grid", "network", "overlap", "total_s", "compute_s", "bubble_s", "comm_s": {kind: s},
          "memory_per_rank_bytes": [{"params", "grads", "optimizer", "activations", "total"}, ...]}
)"},
    {"train", dsml::cli::train,
     R"(  dsml train --strategy S --steps N --layers L --width D --hidden F --batch B [--dp N --tp N --pp N]
             [--micro-batches M] [--bucket-bytes N] [--algorithm A] [--optimizer sgd|momentum|adam|lars|lamb]
             [--lr LR] [--warmup W] [--weight-decay L] [--trust-coefficient ETA] [--seed SEED]
             [--activation relu|gelu|tanh]
      trains the strategy (fp64, every rank simulated) beside one device from the same start on the same batches
      (defaults: adam, lr 0.01, no warm-up, seed 0, gelu). A run that diverges is a result: it stops at the step
      (diverged_at, -1 if none) and later losses are null
      -> {"strategy", "grid", "steps", "losses": [...], "single_losses": [...], "diverged_at",
          "single_diverged_at", "last_trust_ratios" (LARS/LAMB, per tensor), "max_loss_relative_difference",
          "max_relative_difference" (final parameters, max over tensors of |W - W_single| / |W_single|),
          "comm_bytes": {kind: bytes the busiest rank sent in the last step}, "memory_per_rank_bytes": [...]}
)"},
    {"scaling", dsml::cli::scaling,
     R"(  dsml scaling --mode strong|weak --layers L --width D --hidden F --batch B --ranks 1,2,4,8 --flops F
               --alpha A (--beta B | --bandwidth W) [--strategy dp-bucketed] [--micro-batches K]
               [--bucket-bytes N] [--element-bytes 4] [--overlap | --overlap-fraction o]
      data parallelism's speed-up vs P from the step cost model: strong = fixed global batch B, weak = B rows per
      device; --overlap-fraction also prices T(o) = C + (1 - o)·M per point, o capped at C/M (Week 3's partial
      overlap); -> {"mode", "strategy", "overlap", "points": [{"ranks", "global_batch", "step_s", "compute_s",
      "comm_s", "speedup", "ideal", "efficiency", "overlap_fraction"?, "partial_overlap_step_s"?}],
      "comm_bound_batch_per_device" (at the largest P)}
)"},
    {"ps", dsml::cli::ps,
     R"(  dsml ps --regime bsp|asp|ssp|backup --workers W [--servers K] [--staleness S] [--backup B [--cancel-stragglers]]
          --iterations I
          [--parameters N] [--bytes-per-parameter 4] [--speed fixed|exponential|lognormal|slow-node|per-round]
          [--speeds M1,M2,...] [--round-speeds X1,X2,...] [--base S] [--sigma X] [--slow-probability P]
          [--slowdown X] [--seed SEED]
          --alpha S (--beta S_PER_B | --bandwidth B_PER_S)
          [--train --layers L --width D --hidden F [--batch B] [--lr LR] [--staleness-aware] [--eval-batch E]
                   [--loss-at S]]
      a parameter server (W workers, K shards by key range) on a switch; worker compute times from the speed
      model (base * M_w * X): --speeds gives worker w the fixed M_w (always slow), --round-speeds the list every
      worker draws X from afresh each round (implies --speed per-round: slow now and then); --train trains the
      teacher task with the gradients as the run makes them stale
      -> {"regime", "workers", "servers", "backup", "cancel_stragglers", then simulateParamServer's fields in
          snake_case but its per-event and per-round lists: "makespan", "dropped", "compute_seconds", "wait_seconds",
          "stall_fraction", "messages", "bytes_into_busiest_server", "busiest_link": {"name", "busy"} | null;
          "round_mean_s", "round_max_s", "update_count", "staleness": {"mean", "max", "histogram"},
          "closed_form_round_compute_s", "closed_form_push_round" (psBandwidth's fields),
          "ssp_clock_limits"? (ssp only; sspClockLimits' fields): {"barrier_seconds", "unbounded_seconds",
          "absorbable_seconds", "absorbable_fraction"},
          "training"?: {"initial_loss", "final_loss", ...},
          "loss_at"?: {"time_s", "loss", "updates", "run_over"} (the model at simulated time S)}
      closed_form_round_compute_s is E[the P-th fastest of the W = P + backup workers' compute times] (P: the
      gradients a round waits for) where every round is a fresh race (bsp; backup with --cancel-stragglers), else
      null: without it a straggler's late gradient delays its next round;
      ssp_clock_limits gives the compute seconds per clock at s = 0 (E[max_w t]) and as s -> infinity (max_w E[t]):
      their difference is all SSP can absorb, 0 when the slow worker is always slow
)"},
    {"hogwild", dsml::cli::hogwild,
     R"(  dsml hogwild --threads T --sparsity X [--features N] [--updates U] [--lr LR] [--points P] [--seed SEED]
               [--no-atomic]
      Hogwild! on sparse least squares -> {"support", "updates", "collision_rate", "predicted_collision_rate",
                                           "lost_writes", "initial_loss", "final_loss"}
)"},
    {"pipeline", dsml::cli::pipeline,
     R"(  dsml pipeline (--schedule gpipe|1f1b|interleaved|zb-h1 [--chunks V] [--timeline] | --compare [--chunks 2])
                --devices P --micro-batches M [--forward 1] [--backward-input 1] [--backward-weight 1] [--p2p 0]
      a pipeline schedule generated and timed (a full backward takes backward-input + backward-weight; times per
      chunk); interleaved needs M a multiple of P -> {"name", "devices", "chunks_per_device", "micro_batches",
      "makespan", "ideal", "bubble_fraction", "bubble_over_ideal", "busy", "idle", "peak_activations", "messages",
      "timeline"?: [{"device", "kind", "micro_batch", "chunk", "start", "end"}]}; --compare: all four at the same
      (P, M) with per-stage times, beside each paper's formula -> {"devices", "micro_batches", "schedules": [{"name",
      "chunks_per_device", ..., "formula_over_ideal", "peak_activations", "peak_stage_activations", "messages"}]}
      (the JavaScript pipelineTimeline's and pipelineCompare's fields in snake_case)
)"},
    {"micro-batches", dsml::cli::micro_batches,
     R"(  dsml micro-batches --stages P --compute T --overhead O --max M
      the best number of micro-batches for step (m + P - 1)(T/m + O): closed form sqrt((P - 1)T/O) and the
      searched whole m -> {"closed_form", "best", "best_step_s"}
)"},
    {"layouts", dsml::cli::layouts,
     R"(  dsml layouts --model NAME --nodes N --gpus-per-node G [--gpu a100-80gb] [--global-batch 512]
               [--micro-batch 1] [--recompute none|selective|full (default none)] [--no-sequence-parallel]
               [--fits-only]
      every (t, p, d) factorisation the planner accepts (t | heads, t <= G, p | layers, d*b | batch), each priced
      by the planner's plan_step (the model `dsml plan` prints; v = 1, nothing overlapped) with the optimizer
      state replicated and with ZeRO-1; --fits-only keeps the rows that fit with ZeRO-1; model and GPU names as
      `dsml plan` takes them -> {"model", "gpu", "parameters", "capacity", "layouts": [{"t", "p", "d",
      "micro_batches", "replicated": {"time", "memory", "fits"} (as `dsml plan` prints them), "zero1": {...}}]}
)"},
    {"plan", dsml::cli::plan,
     R"(  dsml plan --model NAME [--layers L --hidden H --heads A --kv-heads K --ffn F --sequence S --vocabulary V
                        --experts E --top-k K --moe-every M]
            --gpu NAME --nodes N [--gpus-per-node 8] (--t T --p P | --search [--keep 5]) [--v 1] [--c 1] [--e 1]
            [--micro-batch 1] --global-batch B [--zero 0|1|2|3] [--sequence-parallel]
            [--recompute none|selective|full] [--overlap-dp] [--stage-layers L0,L1,...]
            [--attention fused|flash-attention-2|flash-attention-1|flash-attention-triton|unfused]
            [--precision bf16|fp8]
  dsml plan --published ROW
  dsml plan --validate
      one transformer training step priced on a GPU cluster (d = N*G/(t*c*p), derived): FLOPs, time per part and
      per stage, MFU, memory per GPU; --search the fastest layouts that fit (or the reason none does);
      --published a row of Narayanan et al. 2021's Table 1 beside its prediction; --validate every published run
      the planner is checked against (Table 1, in sample; llm-foundry's H100 and A100 tables, out of sample)
      -> {"model", "gpu", "plan": {"layout", "gpus", "micro_batches", …, "time", "stages", "memory", "capacity",
          "fits", "tokens_per_s", "tflops_per_gpu", "mfu", "hfu"}} (--search: "layouts": [plans]): the JavaScript
          planStep's fields in snake_case, one table for both (dsml/plan_fields.h)
)"},
    {"compress", dsml::cli::compress,
     R"(  dsml compress --compressor none|top-k|random-k|int8|qsgd|sign|powersgd --workers P --layers L --width D
                --hidden F [--ratio K_OVER_N] [--levels S] [--rank R] [--error-feedback] [--batch B] [--steps N]
                [--lr LR] [--seed SEED] [--eval-batch E] [--alpha S (--beta S_PER_B | --bandwidth B_PER_S)]
                [--topology ... as for simulate; its ranks = P]
      data-parallel SGD on the teacher task, each worker's gradient compressed before averaging
      -> {"compressor", "error_feedback", "workers", "composes_with_all_reduce", "initial_loss", "final_loss", then
          trainCompressed's fields in snake_case: "collectives": [{"collective", "bytes"}], "payload_bytes",
          "bytes_per_step", "uncompressed_bytes_per_step", "final_error_norm", "losses": [...],
          "cumulative_bytes": [...]; "comm_seconds"?, "uncompressed_comm_seconds"? (ring closed forms),
          "simulated_comm_seconds"? (ring schedules on --topology)} (bytes one worker sends, ring algorithms)
)"},
    {"checkpoint", dsml::cli::checkpoint,
     R"(  dsml checkpoint --work S --checkpoint S (--mtbf S | --node-mtbf S [--nodes N]) [--restart S] [--interval S]
                  [--heartbeat-period S] [--heartbeat-timeout S] [--runs R [--seed SEED]]
      Young's and Daly's checkpoint intervals and Daly's expected wall time (at --interval, default Daly's);
      --runs simulates Poisson failures with rollback to the last checkpoint beside it
      -> {"fleet_mtbf_s", "young_interval_s", "daly_interval_s", "optimal_interval_s", "interval_s",
          "first_order_overhead", "expected_wall_s", "expected_wall_young_s", "expected_wall_daly_s",
          "expected_wall_no_checkpoints_s", "expected_failures", "expected_lost_work_per_failure_s",
          "mean_detection_s", "simulated"?: {"runs", "mean_wall_s", "ci95_s", "mean_failures", ...}}
)"},
    {"elastic", dsml::cli::elastic,
     R"(  dsml elastic --workers P [--changes STEP:P,STEP:P[:crash],...] --layers L --width D --hidden F --batch B
               --steps N [--optimizer sgd|momentum|adam] [--lr LR] [--seed SEED] [--algorithm A] [--replicated]
               [--checkpoint-every K]
      data parallelism (ZeRO-1 optimizer state, or --replicated) whose world changes at the given steps, the global
      batch B kept (every P must divide it), beside one device on the same batches; STEP:P:crash = the leaving
      ranks crash during STEP without handing over their state: ZeRO-1 rolls back to the last checkpoint (every K
      steps, and the start) and recomputes the steps since, DP carries on
      -> {"state", "workers": [P per step], "resizes": [{"step", "from", "to", "optimizer_bytes_moved",
          "parameter_bytes_to_joiners", crash only: "crash", "restored_from", "lost_steps", "bytes_restored"}],
          "losses", "single_losses", "max_relative_difference", "step_bytes"}
)"},
    {"capstone", dsml::cli::capstone,
     R"(  dsml capstone [--workers P] [--steps N] [--compressor C [--ratio R] [--levels S] [--rank r]] [--lr LR]
                [--straggler-probability p] [--slowdown F] [--node-mtbf S] [--checkpoint-every STEPS]
                [--checkpoint S] [--restart S] [--detection S] [--no-failures] [--error-feedback | --no-error-feedback]
                [--seed SEED] [--sweep P,P,...] [--target-loss L [--sweep-workers P,P,...] [--staleness s]]
                [--task-layers L] [--task-width D] [--task-hidden F] [--task-rows b] [--task-seed SEED]
      Week 6's capstone: one data-parallel job (a 4.3 B-parameter MLP on 150 TFLOP/s GPUs, InfiniBand) with
      stragglers, Poisson node failures rolled back to checkpoints, and a compressed gradient exchange; error
      feedback defaults per compressor (on for top-k, PowerSGD and SignSGD; off for random-k, int8, QSGD), as
      the page's
      -> {"workers", "steps", "compressor", "error_feedback", then simulateJob's fields in snake_case but the loss
          curve: "step_compute", "step_comm", "work", "wall", "split": {"compute", "communication",
          "straggler_wait", "checkpoints", "lost_work", "restarts"}, "failures", …, "efficiency", "bytes_per_step",
          …, "optimal_steps", "expected_wall_at_optimal"; "loss_first", "loss_last",
          "scaling": [jobScaling's: {"workers", "step_compute", "step_comm", "straggler_wait", "expected_wall",
          "efficiency", "failure_free_efficiency"}],
          with --target-loss: "target_loss", "mode" ("synchronous", or "ssp" with --staleness), "staleness",
          "to_target": jobToTarget's {"workers", "reached", "steps", "updates", "loss", "work", "wall",
          "max_staleness"}, "time_to_target": jobTargetScaling's {"points": [the same for each P of --sweep-workers
          (default 1,2,4,8)], "best"}, "best_workers" (0: none)}
)"},
};

std::string usage() {
  std::string text = kUsageHead;
  for (const Command& command : kCommands) text += command.usage;
  return text + kUsageTail;
}

// "a, b, … or z": the names of every command, for the error on an unknown one.
std::string command_names() {
  std::string names;
  const std::size_t count = sizeof(kCommands) / sizeof(kCommands[0]);
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) names += i + 1 == count ? " or " : ", ";
    names += kCommands[i].name;
  }
  return names;
}

int run(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::fputs(usage().c_str(), stdout);
      return 0;
    }
  }
  if (argc < 2) throw UsageError("missing subcommand; try dsml --help");
  const std::string name = argv[1];
  if (name == "help") {
    std::fputs(usage().c_str(), stdout);
    return 0;
  }
  for (const Command& command : kCommands)
    if (name == command.name) return command.run(argc, argv);
  throw UsageError("unknown subcommand '" + name + "'; expected " + command_names() + " (see dsml --help)");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {  // UsageError, dsml::Error (incl. DeadlockError), std::bad_alloc
    std::fprintf(stderr, "dsml: error: %s\n", e.what());
    return kUsageExitCode;
  }
}
