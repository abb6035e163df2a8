// checkpoint_adapters.h — Week 6's checkpointing for JavaScript (dsml/checkpointing.h). Same rules as adapters.h:
// convert, call the core, convert back. Their contract for JavaScript is core/bindings/dsml.d.ts.
#pragma once

#include <emscripten/val.h>

namespace dsml::bindings {

using emscripten::val;

// checkpointIntervals(checkpoint, mtbf) → {young, daly}                 = young_interval, daly_interval
val checkpoint_intervals(double checkpoint, double mtbf);
double first_order_overhead(double interval, double checkpoint, double mtbf);
// expectedWallTime({work, interval, checkpoint, mtbf, restart?, detection?}) = expected_wall_time
double expected_wall_time(const val& request);
// optimalInterval({work, checkpoint, mtbf, restart?, detection?})          = optimal_interval
double optimal_interval(const val& request);
double fleet_mtbf(double node_mtbf, double nodes);
// simulateCheckpointing({work, interval, checkpoint, restart?, nodes?, nodeMtbf, heartbeatPeriod?,
//   heartbeatTimeout?, runs?, seed?}) → {meanWall, ci95, meanFailures, lostWorkPerFailure, meanTimeBetweenFailures,
//   expectedWall, wall: Float64Array, failures: Float64Array}
val simulate_checkpointing(const val& request);

}  // namespace dsml::bindings
