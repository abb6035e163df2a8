// pipeline_adapters.h — Week 5's pipeline schedules as JavaScript calls them (dsml/chunk_schedule.h). Same rules
// as adapters.h: read the request (fields.h), call the core, convert back (pipeline_convert.cpp). Contract: dsml.d.ts.
#pragma once

#include <emscripten/val.h>

namespace dsml::bindings {

using emscripten::val;

// pipelineTimeline({schedule: "gpipe"|"1f1b"|"interleaved"|"zb-h1", devices, microBatches, chunksPerDevice?,
//   forward?, backwardInput?, backwardWeight?, p2p?}) → {name, devices, chunksPerDevice, microBatches, makespan,
//   ideal, bubbleFraction, bubbleOverIdeal, busy[], idle[], peakActivations[], messages,
//   timeline: [{device, kind: "F"|"B"|"W"|"BW", microBatch, chunk, start, end}]}
//   = time_chunk_schedule(chunk_schedule_by_name(…), per-chunk times)
val pipeline_timeline(const val& request);

// pipelineCompare({devices, microBatches, chunksPerDevice, forward?, backwardInput?, backwardWeight?, p2p?}) →
//   [{name, chunksPerDevice, makespan, ideal, bubbleFraction, bubbleOverIdeal, formulaOverIdeal,
//     peakActivations[], peakStageActivations, messages}]   = compare_pipeline_schedules (per-stage times)
val pipeline_compare(const val& request);

}  // namespace dsml::bindings

namespace dsml::bindings {

// pipelineTrain({schedule, devices, microBatches, chunksPerDevice?, model, optimizer, batch, steps, seed?}) →
//   {losses: Float64Array, singleLosses: Float64Array, maxRelativeDifference, peakInFlight[], messages,
//    bytesPerStep}                                                                    = compare_chunk_pipeline
val pipeline_train(const val& request);

}  // namespace dsml::bindings
