// ps_convert.h — JS ⇄ core conversions for Week 4 (Embind layer only): speed models, parameter-server and Hogwild!
// requests in; runs, loss curves and closed forms out (numbers per event as copied Float64Arrays). The field
// readers are fields.h's; nothing here decides anything about parameter servers.
#pragma once

#include <emscripten/val.h>

#include <string>

#include "dsml/hogwild.h"
#include "dsml/param_server.h"
#include "dsml/ps_closed_forms.h"
#include "dsml/speed_model.h"
#include "dsml/stale_training.h"

namespace dsml::bindings {

using emscripten::val;

// {distribution?: "fixed"|"exponential"|"lognormal"|"slow-node"|"per-round" (fixed; per-round when only
//  roundSpeeds is given), base? (1), multipliers?: number[], roundSpeeds?: number[], sigma?, slowProbability?,
//  slowdown?, seed?}
SpeedModel to_speed_model(const val& speed, const std::string& context);
// {regime, workers, servers? (1), staleness? (0), backup? (0), cancelStragglers? (false), iterations, parameters? (1e6), bytesPerParameter? (4),
//  speed?: SpeedModel}; at most 2e6 pushes (workers·servers·iterations) per call
ParamServerConfig to_param_server_config(const val& request, const std::string& context);
// request.network = {alpha, beta}: the switch of workers + servers ranks.
Topology to_ps_topology(const val& request, const ParamServerConfig& config, const std::string& context);
// {model: {layers, width, hidden, …}, batch? (8), lr? (0.05), stalenessAware? (false), evalBatch? (64), seed? (0)}
StaleTrainingConfig to_stale_training_config(const val& request, const std::string& context);
// {threads, features?, sparsity, updates?, lr?, atomic?, points?, seed?}
HogwildConfig to_hogwild_config(const val& request);

// {makespan, spans: [{worker, kind: "compute"|"push"|"wait", start, end, iteration}],
//  updates: {shard, worker, iteration, time, tau} (Float64Arrays, one entry per applied gradient), dropped,
//  roundEnd, roundSeconds, computeSeconds, waitSeconds (Float64Arrays), stallFraction, messages,
//  bytesIntoBusiestServer, linkBusy: Float64Array, linkNames: string[], busiestLink: {name, busy} | null}
val to_val(const ParamServerResult& run);
// {time, updates, loss} (Float64Arrays), finalLoss
val to_val(const StaleTrainingResult& training);
// {support, updates, collisionRate, predictedCollisionRate, lostWrites, lossUpdates, loss, finalLoss}
val to_val(const HogwildResult& result);
// {waitSeconds, finishSeconds, stallFraction}
val to_val(const SspStall& stall);
// {barrierSeconds, unboundedSeconds, absorbableSeconds, absorbableFraction}
val to_val(const SspClockLimits& limits);
// {serverBytes, serverSeconds, workerSeconds, serversBottleneck}
val to_val(const PsBandwidth& bandwidth);

}  // namespace dsml::bindings
