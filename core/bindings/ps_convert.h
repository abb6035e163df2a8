// ps_convert.h — JS ⇄ core conversions for Week 4 (Embind layer only): speed models, parameter-server and Hogwild!
// requests in; the runs out as their field tables give them (dsml/ps_fields.h). The field readers are fields.h's;
// nothing here decides anything about parameter servers.
#pragma once

#include <emscripten/val.h>

#include <string>

#include "dsml/hogwild.h"
#include "dsml/param_server.h"
#include "dsml/speed_model.h"
#include "dsml/stale_training.h"

namespace dsml::bindings {

using emscripten::val;

// {distribution?: "fixed"|"exponential"|"lognormal"|"slow-node"|"per-round" (fixed; per-round when only
//  roundSpeeds is given), base? (1), multipliers?: number[], roundSpeeds?: number[], sigma?, slowProbability?,
//  slowdown?, seed?}
SpeedModel to_speed_model(const val& speed, const std::string& context);
// {regime, workers, servers? (1), staleness? (0), backup? (0), cancelStragglers? (false), iterations,
//  parameters? (1e6), bytesPerParameter? (4), speed?: SpeedModel, spans? (false)}; at most 2e6 pushes (workers·servers·iterations) per call
ParamServerConfig to_param_server_config(const val& request, const std::string& context);
// request.network = {alpha, beta}: the switch of workers + servers ranks.
Topology to_ps_topology(const val& request, const ParamServerConfig& config, const std::string& context);
// {model: {layers, width, hidden, …}, batch? (8), lr? (0.05), stalenessAware? (false), evalBatch? (64), seed? (0)}
StaleTrainingConfig to_stale_training_config(const val& request, const std::string& context);
// {threads, features?, sparsity, updates?, lr?, atomic?, points?, seed?}
HogwildConfig to_hogwild_config(const val& request);

// The run as its field table gives it (dsml/ps_fields.h), its per-worker spans only when `spans`.
val run_to_val(const ParamServerResult& run, bool spans);

}  // namespace dsml::bindings
