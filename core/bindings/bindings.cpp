// bindings.cpp — Embind registrations only. JS names are camelCase; every function is wrapped by
// Guarded<> so a dsml::Error arrives in JavaScript as an Error with the same message.
#include <emscripten/bind.h>

#include "adapters.h"
#include "checkpoint_adapters.h"
#include "compression_adapters.h"
#include "elastic_adapters.h"
#include "collective_adapters.h"
#include "design_adapters.h"
#include "guard.h"
#include "job_adapters.h"
#include "lab_adapters.h"
#include "lab_moe_adapters.h"
#include "moe_adapters.h"
#include "moe_balance_adapters.h"
#include "pipeline_adapters.h"
#include "pipelined_broadcast_adapters.h"
#include "split_backward_adapters.h"
#include "scaling_adapters.h"
#include "ps_adapters.h"
#include "training_adapters.h"

using dsml::bindings::Guarded;
namespace b = dsml::bindings;

EMSCRIPTEN_BINDINGS(dsml) {
  using emscripten::function;
  function("version", &b::version);

  function("messageTime", &Guarded<&b::message_time>::call);
  function("crossoverSize", &Guarded<&b::crossover_size>::call);
  function("effectiveBandwidth", &Guarded<&b::effective_bandwidth>::call);
  function("messagesTime", &Guarded<&b::messages_time>::call);

  function("amdahlSpeedup", &Guarded<&b::amdahl_speedup>::call);
  function("gustafsonSpeedup", &Guarded<&b::gustafson_speedup>::call);
  function("amdahlLimit", &Guarded<&b::amdahl_limit>::call);
  function("amdahlSerialFraction", &Guarded<&b::amdahl_serial_fraction>::call);

  function("stepTime", &Guarded<&b::step_time>::call);
  function("partialOverlapStep", &Guarded<&b::partial_overlap_step>::call);
  function("probabilityAnySlow", &Guarded<&b::probability_any_slow>::call);

  function("fitAlphaBeta", &Guarded<&b::fit_alpha_beta>::call);
  function("simulate", &Guarded<&b::simulate>::call);
  function("traceText", &Guarded<&b::trace_text>::call);
  function("scenario", &Guarded<&b::scenario>::call);
  function("simulateScenario", &Guarded<&b::simulate_scenario>::call);

  // Week 2: collectives as schedules
  function("listAlgorithms", &Guarded<&b::list_algorithms>::call);
  function("schedule", &Guarded<&b::schedule>::call);
  function("verifySchedule", &Guarded<&b::verify_schedule>::call);
  function("collectiveCost", &Guarded<&b::collective_cost>::call);
  function("lowerBound", &Guarded<&b::lower_bound>::call);
  function("busBandwidth", &Guarded<&b::bus_bandwidth>::call);
  function("simulateCollective", &Guarded<&b::simulate_collective>::call);
  function("simulateTrace", &Guarded<&b::simulate_trace>::call);
  // Week 2: pipelined broadcasts (segments along a chain or a tree)
  function("pipelinedBroadcast", &Guarded<&b::pipelined_broadcast>::call);
  function("bestSegments", &Guarded<&b::best_segments>::call);

  // Lab: training
  function("trainCompare", &Guarded<&b::train_compare>::call);
  function("stepCost", &Guarded<&b::training_step_cost>::call);

  // Lab: one block's kernels on a rank's slice, and the reference they reproduce
  function("blockInForward", &Guarded<&b::block_in_forward>::call);
  function("blockOutForward", &Guarded<&b::block_out_forward>::call);
  function("blockOutBackward", &Guarded<&b::block_out_backward>::call);
  function("blockInBackward", &Guarded<&b::block_in_backward>::call);
  function("blockOutBackwardInto", &Guarded<&b::block_out_backward_into>::call);
  function("blockInBackwardInto", &Guarded<&b::block_in_backward_into>::call);
  function("activate", &Guarded<&b::lab_activate>::call);
  function("mseLoss", &Guarded<&b::lab_mse_loss>::call);
  function("mlpInit", &Guarded<&b::mlp_init>::call);
  function("teacherBatch", &Guarded<&b::teacher_batch>::call);
  function("optimizerStep", &Guarded<&b::optimizer_step>::call);
  function("optimizerStepInPlace", &Guarded<&b::optimizer_step_in_place>::call);
  function("trainSingle", &Guarded<&b::train_single>::call);
  // Lab: the expert-parallel axis — the MoE stack's start and single-device run, a micro-batch's router kernels
  function("moeMlpInit", &Guarded<&b::moe_mlp_init>::call);
  function("trainSingleMoe", &Guarded<&b::train_single_moe>::call);
  function("moeRoute", &Guarded<&b::moe_route>::call);
  function("moeRouterBackward", &Guarded<&b::moe_router_backward>::call);

  // Week 3: data-parallel scaling (strong vs weak, the comm-bound batch, the three DDPs)
  function("dpScaling", &Guarded<&b::dp_scaling>::call);
  function("commBoundBatch", &Guarded<&b::comm_bound_batch>::call);
  function("ddpVariants", &Guarded<&b::ddp_variants>::call);
  // Week 4: parameter servers, stragglers, staleness, Hogwild!
  function("speedTimes", &Guarded<&b::speed_times>::call);
  function("simulateParamServer", &Guarded<&b::simulate_param_server>::call);
  function("trainParamServer", &Guarded<&b::train_param_server>::call);
  function("hogwild", &Guarded<&b::hogwild>::call);
  function("harmonicNumber", &Guarded<&b::harmonic_number>::call);
  function("expectedMaxExponential", &Guarded<&b::expected_max_exponential>::call);
  function("expectedOrderStatisticExponential", &Guarded<&b::expected_order_statistic_exponential>::call);
  function("expectedRoundCompute", &Guarded<&b::expected_round_compute>::call);
  function("sspStallFixedSpeeds", &Guarded<&b::ssp_stall_fixed_speeds>::call);
  function("sspClockLimits", &Guarded<&b::ssp_clock_limits>::call);
  function("psBandwidth", &Guarded<&b::ps_bandwidth>::call);
  function("psServersToBalance", &Guarded<&b::ps_servers_to_balance>::call);
  function("hogwildCollisionProbability", &Guarded<&b::hogwild_collision_probability>::call);
  // Week 5: pipelines beyond 1F1B (interleaved, zero-bubble), their timelines and bubbles
  function("pipelineTimeline", &Guarded<&b::pipeline_timeline>::call);
  function("pipelineCompare", &Guarded<&b::pipeline_compare>::call);
  function("pipelineTrain", &Guarded<&b::pipeline_train>::call);
  function("blockBackwardInput", &Guarded<&b::block_backward_input>::call);
  function("blockBackwardWeight", &Guarded<&b::block_backward_weight>::call);
  // Week 5: mixture of experts across expert-parallel ranks
  function("expertParallel", &Guarded<&b::expert_parallel>::call);
  function("priceExpertAllToAll", &Guarded<&b::price_expert_all_to_all>::call);
  // Week 5: the load-balancing loss
  function("trainMoeBalanced", &Guarded<&b::train_moe_balanced>::call);
  function("moeBalanceLoss", &Guarded<&b::moe_balance_loss>::call);
  // Week 5: design helpers (micro-batches, recomputation, (t, p, d) layouts)
  function("optimalMicroBatches", &Guarded<&b::optimal_micro_batches>::call);
  function("recomputationTradeoff", &Guarded<&b::recomputation_tradeoff>::call);
  function("price3dLayouts", &Guarded<&b::price_3d_layouts>::call);
  // Week 6: gradient compression, checkpointing
  function("compressGradient", &Guarded<&b::compress_gradient>::call);
  function("compressionWire", &Guarded<&b::compression_wire>::call);
  function("trainCompressed", &Guarded<&b::train_compressed>::call);
  function("qsgdVarianceBound", &Guarded<&b::qsgd_variance_bound>::call);
  function("checkpointIntervals", &Guarded<&b::checkpoint_intervals>::call);
  function("firstOrderOverhead", &Guarded<&b::first_order_overhead>::call);
  function("expectedWallTime", &Guarded<&b::expected_wall_time>::call);
  function("optimalInterval", &Guarded<&b::optimal_interval>::call);
  function("fleetMtbf", &Guarded<&b::fleet_mtbf>::call);
  function("simulateCheckpointing", &Guarded<&b::simulate_checkpointing>::call);
  function("trainElastic", &Guarded<&b::train_elastic>::call);
  // Week 6: the capstone, one simulated job and its efficiency against P
  function("simulateJob", &Guarded<&b::simulate_job>::call);
  function("jobScaling", &Guarded<&b::job_scaling>::call);
  function("jobToTarget", &Guarded<&b::job_to_target>::call);
  function("jobTargetScaling", &Guarded<&b::job_target_scaling>::call);
  function("jobErrorFeedbackDefault", &Guarded<&b::job_error_feedback_default>::call);
}
