// pipe_checks.js — what Week 5's pipeline code exercises share. The learner writes ONE device's operation list
// (web/programs/pipe_lists.js); the whole pipeline then runs on the Workers, one device per rank, and is judged by
// what the run recorded, never by the program's own verdict: the parameters the devices end with, put together,
// against core.trainSingle; the activations each device actually held at its peak; and the lists the devices ran,
// replayed with unit times (web/programs/pipe_replay.js) against the core's own schedule (pipelineTimeline). Pure
// functions, no DOM.
import { esc, intBetween } from "../../../web/exercise/params.js";
import { formatNumber, formatPercent, plural } from "../../../web/units.js";
import { fail, pass, unfinished } from "../../../web/exercise/run_checks.js";
import { maxRelativeDifference } from "../../../web/exercise/compare_training.js";
import { assembleParams, pipeConfig, pipeInputs, pipeProgram } from "../programs/pipe_program.js";
import { peakActivations, replaySchedules } from "../../../web/programs/pipe_replay.js";
import { trainerExercise } from "../../../web/exercise/code_exercise.js";

export { fail, pass };

// The same products summed in another order of micro-batches: a correct run stays near 1e-16.
export const EQUALITY = 1e-12;

// One case: P devices, m micro-batches, v chunks per device of one block each (L = P·v), 2 rows per micro-batch,
// two SGD steps of a small MLP.
export function pipeCase(rng, { schedule, devices, microBatches, chunksPerDevice = 1, blocksPerChunk = 1 }) {
  const v = schedule === "interleaved" ? chunksPerDevice : 1;
  const config = pipeConfig({ schedule, devices, microBatches, chunksPerDevice: v, batch: 2 * microBatches, steps: 2,
    model: { layers: devices * v * blocksPerChunk, width: 4, hidden: 6, activation: "tanh", residual: true },
    optimizer: { kind: "sgd", lr: 0.05 }, seed: intBetween(rng, 1, 1000) });
  return { ranks: devices, inputs: pipeInputs(config), config };
}

export const programWith = (name) => (code) => pipeProgram({ learnerCode: code, replaces: [name] });

// A code exercise whose `replaces` function runs inside the pipeline trainer on 4 Workers.
export function pipeExercise(replaces, own, code) {
  return trainerExercise({ ranks: 4, timeoutMs: 20000, program: programWith(replaces),
    trains: "the pipeline's model", summarizeResult, ...own }, code);
}

// The run finished, with a deadlock found before it ran explained; the parameters equal one device's.
export function trainingVerdict(run, testCase, core) {
  if (run?.status === "error" && /the schedules deadlock/.test(run.error?.message ?? "")) {
    return fail(`Your lists cannot run: ${esc(run.error.message.replace(/^Error: /, ""))} An F waits for the chunk ` +
      "before it, a B for the chunk after it; a device that needs a backward before the forward another device " +
      "is waiting for has its operations in an order no pipeline can run.");
  }
  // (every device checks every device's list before the step, so the rank that reports it is not the device)
  const early = (run?.error?.message ?? "").match(/device (\d+), operation \d+ .*B\((\d+), chunk (\d+)\) before its forward/);
  if (run?.status === "error" && early) {
    const [, device, mb, chunk] = early;
    return fail(`${unfinished(run).message} Device ${device} reached B(${mb}, chunk ${chunk}) before ` +
      `running F(${mb}, chunk ${chunk}): too few warm-up forwards. A device's first backward is of ` +
      "micro-batch 0 through its LAST chunk, so micro-batch 0 must first have gone forward through every chunk it holds.");
  }
  const bad = unfinished(run);
  if (bad) return bad;
  const { config } = testCase;
  const ref = core.trainSingle({ model: config.model, optimizer: config.optimizer, batch: config.batch, steps: config.steps,
    seed: config.seed });
  let params;
  try {
    params = assembleParams(run.results, config);
  } catch (err) {
    return fail(`The devices did not return their chunks as the program does (${esc(err.message)}). Keep the rest of ` +
      "the program as it is; write only the function the exercise asks for.");
  }
  const gap = maxRelativeDifference(params, ref.params);
  if (!(gap < EQUALITY)) {
    return fail(`After ${plural(config.steps, "step")} the parameters differ from single-device training by ` +
      `${formatPercent(gap)}: some micro-batch missed a chunk's forward or backward.`);
  }
  return pass(`Parameters equal single-device training to ${formatNumber(gap, 2)} (relative) after ${plural(config.steps, "step")}.`);
}

// The lists the devices ran, { op, mb, chunk } per device.
export const listsOf = (run) => [...run.results].sort((a, b) => a.device - b.device).map((r) => r.ops);

// The core's own schedule at the case's (P, m, v): its unit-time makespan and peaks per device.
export function coreSchedule(core, config) {
  const r = core.pipelineTimeline({ schedule: config.schedule, devices: config.devices, microBatches: config.microBatches,
    chunksPerDevice: config.chunksPerDevice });
  return { makespan: r.makespan, peaks: r.peakActivations };
}

// The first device whose measured peak is above `bound(d)`, or null. The replay's count must agree with what the
// device measured (it does for every list the program accepts).
export function overPeak(run, bound) {
  const measured = [...run.results].sort((a, b) => a.device - b.device).map((r) => r.peakActivations);
  const replayed = peakActivations(listsOf(run));
  const d = measured.findIndex((p, i) => p > bound(i) || p !== replayed[i]);
  return d < 0 ? null : { device: d, held: measured[d], bound: bound(d) };
}

// The devices' lists replayed with t_f = t_b = t_w = 1 (a full backward 2).
export const unitMakespan = (run) => replaySchedules(listsOf(run)).makespan;

// A device's pane: the operations it ran, in order, and the most activations it held.
export function summarizeResult(value) {
  if (!value || !Array.isArray(value.ops)) return undefined;
  return `device ${value.device} ran ${value.ops.map((o) => `${o.op}${o.mb}.${o.chunk}`).join(" ")} (F3.4: micro-batch 3 through chunk 4) and held at ` +
    `most ${value.peakActivations} chunk activations at once`;
}
