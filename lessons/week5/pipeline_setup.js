// pipeline_setup.js — Week 5's pipeline examples, shared by calcs.js, the widgets and the exercises (one place, so
// the prose, the widgets' starting positions and the exercises price the same thing).
//   EXAMPLE_PIPE  P = 4 devices, m = 8 micro-batches, v = 2 chunks per device; per stage and micro-batch
//                 t_f = t_b = t_w = 1 (a full backward 2: Qi et al.'s assumption)
//   TRAIN         the MLP (D = 16, F = 32, tanh; one block per chunk, L = P·v: 8 in the example) trained with Adam
//                 on the teacher task beside one device
export const EXAMPLE_PIPE = Object.freeze({ devices: 4, microBatches: 8, chunksPerDevice: 2 });
export const UNIT_TIMES = Object.freeze({ forward: 1, backwardInput: 1, backwardWeight: 1 });
export const SCHEDULES = ["gpipe", "1f1b", "interleaved", "zb-h1"];
export const SCHEDULE_NAMES = { "gpipe": "GPipe", "1f1b": "1F1B", "interleaved": "interleaved 1F1B", "zb-h1": "ZB-H1" };

export const TRAIN = Object.freeze({
  model: { width: 16, hidden: 32, activation: "tanh" }, optimizer: { kind: "adam", lr: 0.01 },
  batch: 32, steps: 5, seed: 1,
});

/** pipelineCompare at (P, m, v) with the given per-stage times, as a map name → row. */
export function compareSchedules(core, { devices, microBatches, chunksPerDevice } = EXAMPLE_PIPE, times = UNIT_TIMES) {
  const rows = core.pipelineCompare({ devices, microBatches, chunksPerDevice, ...times });
  return Object.fromEntries(rows.map((r) => [r.name, r]));
}

/** One schedule trained beside one device (pipelineTrain): v only for interleaved; P·v blocks (8 at P 4, v 2), a
 *  batch of at least m rows. */
export function trainSchedule(core, schedule, { devices, microBatches, chunksPerDevice } = EXAMPLE_PIPE) {
  const v = schedule === "interleaved" ? chunksPerDevice : 1;
  return core.pipelineTrain({ ...TRAIN, model: { ...TRAIN.model, layers: devices * chunksPerDevice },
    batch: Math.max(TRAIN.batch, microBatches), schedule, devices, microBatches, chunksPerDevice: v });
}

// Micro-batches with overhead (section #micro-batches): a stage computes STAGE_COMPUTE seconds per step (forward + backward of
// the whole mini-batch), each micro-batch costs OVERHEAD more (launches, p2p latency): T(m) = (m + P − 1)(t/m + o).
export const OVERHEAD_EXAMPLE = Object.freeze({ stages: 8, compute: 0.5, overhead: 1e-3, max: 512 });
export const optimalM = (core, ex = OVERHEAD_EXAMPLE) => core.optimalMicroBatches(ex);
