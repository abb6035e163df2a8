// ps_checks.js — what Week 4's code exercises share. Each has the learner write ONE piece of the parameter
// server (programs/ps_server.js, web/programs/param_keys.js); the whole server then runs on the Workers, and is judged by what
// the run recorded — never by the program's own verdict: the key ranges the shards held, the versions each
// worker computed on, the order the shards applied gradients in, the trace — and by a replay that recomputes
// every gradient at the parameters it was computed at and every update in the order applied (ps_program.js),
// which must end exactly at the shards' θ. Pure functions, no DOM.
import { fail, pass, unfinished } from "../../../web/exercise/run_checks.js";
import { intBetween } from "../../../web/exercise/params.js";
import { formatNumber, plural } from "../../../web/units.js";
import { PS_DEFAULTS, psInputs, psProgram, replayGap, replayRun, serversOf, workersOf } from "../programs/ps_program.js";
import { trainerExercise } from "../../../web/exercise/code_exercise.js";

export { fail, pass };

// The same gradients summed in the same order: a correct run replays to the bit; allow for nothing more than
// a different order of a sum.
export const EQUALITY = 1e-12;
export const SMALL_MODEL = Object.freeze({ layers: 2, width: 6, hidden: 10, activation: "gelu", residual: true });

// One case: W workers, K shards; `multipliers` (per worker) times a seeded jitter in [0.75, 1.25) are the
// compute times, so who is slow is known and the exact timing differs between cases.
export function psCase(rng, { workers, servers = 1, multipliers, model = SMALL_MODEL, ...fields }) {
  const iterations = fields.iterations ?? PS_DEFAULTS.iterations;
  const times = Array.from({ length: workers }, (_, w) =>
    Array.from({ length: iterations }, () => (multipliers?.[w] ?? 1) * (0.75 + 0.5 * rng())));
  const config = { ...PS_DEFAULTS, model, batch: 8, delayMs: 2, evalBatch: 16, seed: intBetween(rng, 1, 1000),
                   servers, iterations, times, ...fields };
  return { ranks: servers + workers, inputs: psInputs(config, servers + workers), config };
}

export const programWith = (name) => (code) => psProgram({ learnerCode: code, replaces: [name] });

// A code exercise whose `replaces` function runs inside the parameter server on 5 Workers (shards and workers).
export function psExercise(replaces, own, code) {
  return trainerExercise({ ranks: 5, timeoutMs: 30000, program: programWith(replaces),
    trains: "a model through the parameter server", summarizeResult, ...own }, code);
}

// The run finished and every rank returned what the program returns: → { servers, workers } or a failing verdict.
export function ranksOf(run, testCase) {
  const bad = unfinished(run);
  if (bad) return { verdict: bad };
  const servers = serversOf(run).sort((a, b) => a.shard - b.shard), workers = workersOf(run);
  const K = testCase.config.servers;
  if (servers.length !== K || workers.length !== testCase.ranks - K) {
    return { verdict: fail("The ranks did not return what the parameter server returns. Keep <code>main</code> and the " +
      "rest of the program as they are; write only the function the exercise asks for.") };
  }
  return { servers, workers };
}

// The replay against the shards' θ: → null when equal, else { gap, message }.
export function replayVerdict(run, testCase, core, servers) {
  let replay;
  try {
    replay = replayRun(core, testCase.config, run);
  } catch (err) {
    return { gap: Infinity, replay: null, message: `The run's record cannot be replayed (${err.message}).` };
  }
  const gap = replayGap(servers, replay);
  if (gap < EQUALITY) return null;
  return { gap, replay, message: `The shards' final parameters differ from a replay of the run's own record by ` +
    `${Number.isFinite(gap) ? formatNumber(gap, 2) : "a non-finite amount"} (relative): the replay recomputes every ` +
    "gradient at the parameters its worker pulled and applies them in the order the shard did." };
}

// Summaries for a rank's pane instead of its raw result.
export function summarizeResult(value) {
  if (value?.role === "server") {
    return `shard ${value.shard}: keys [${value.begin}, ${value.end}), ${plural(value.version, "update")}` +
      (value.dropped ? `, ${value.dropped} late gradients dropped` : "");
  }
  if (value?.role === "worker") return `worker ${value.worker}: ${plural(value.clocks.length, "clock")}`;
  return undefined;
}
