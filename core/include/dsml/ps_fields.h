// dsml/ps_fields.h — Week 4's parameter-server results as field tables (dsml/result_fields.h): what
// simulateParamServer, trainParamServer, hogwild and the closed forms return in JavaScript and `dsml ps` /
// `dsml hogwild` print, field for field, and what types/param_server.d.ts declares.
#pragma once

#include "dsml/hogwild.h"
#include "dsml/param_server.h"
#include "dsml/ps_closed_forms.h"
#include "dsml/result_fields.h"
#include "dsml/stale_training.h"

namespace dsml {

// ParamServerResult: the run, its per-worker spans (an optional field: a front end writes them only when asked —
// three objects per worker and round — with omit(param_server_run_fields(), {"spans"}, …)) and its applied updates
// as columns.
const FieldTable& param_server_run_fields();
const FieldTable& stale_training_curve_fields();  // StaleTrainingResult: the servers' model's loss as it trained
const FieldTable& hogwild_fields();               // HogwildResult
const FieldTable& ssp_stall_fields();             // SspStall: SSP's waiting in closed form (fixed speeds)
const FieldTable& ssp_clock_limits_fields();      // SspClockLimits: what a bound s can absorb per clock
const FieldTable& ps_bandwidth_fields();          // PsBandwidth: one round of pushes on a switch

inline const FieldTable& fields_of(const ParamServerResult&) { return param_server_run_fields(); }
inline const FieldTable& fields_of(const StaleTrainingResult&) { return stale_training_curve_fields(); }
inline const FieldTable& fields_of(const HogwildResult&) { return hogwild_fields(); }
inline const FieldTable& fields_of(const SspStall&) { return ssp_stall_fields(); }
inline const FieldTable& fields_of(const SspClockLimits&) { return ssp_clock_limits_fields(); }
inline const FieldTable& fields_of(const PsBandwidth&) { return ps_bandwidth_fields(); }

}  // namespace dsml
