// dp_program.js — Week 3's data-parallel trainer as the program every Worker runs, assembled from the source
// text of real module functions (web/programs/replica_model and ring, dp_comm, ddp_sync, dp_train — each tested as a
// module too), and
// what the page does with the ranks' results. An exercise puts the learner's code first and leaves out the
// reference function it defines, so the learner's version is the one every replica calls (as the lab does).
import * as model from "../../../web/programs/replica_model.js";
import * as ring from "../../../web/programs/ring.js";
import * as comm from "./dp_comm.js";
import * as sync from "./ddp_sync.js";
import * as train from "./dp_train.js";

const PARTS = { ...model, ...ring, ...comm, ...sync, ...train };

// The functions a learner may write instead of the reference (one per exercise).
export const REPLACEABLE = ["makeBucketReducer", "syncWeighted", "accumulateAndSync"];

export const DP_DEFAULTS = Object.freeze({
  model: { layers: 4, width: 32, hidden: 128, activation: "gelu", residual: true },
  optimizer: { kind: "sgd", lr: 0.1 },
  batch: 64, steps: 30, seed: 3, sync: "bucketed", bucketBytes: 32 * 1024, accumulation: 1, shards: null,
});

export function dpProgram({ learnerCode = "", replaces = [] } = {}) {
  for (const name of replaces) {
    if (!REPLACEABLE.includes(name)) throw new Error(`dpProgram: ${name} is not a replaceable function`);
  }
  const shipped = Object.entries(PARTS).filter(([name]) => !replaces.includes(name)).map(([, f]) => f.toString());
  return [learnerCode, ...shipped].filter(Boolean).join("\n\n") + "\n";
}

// The source of a shipped function (an exercise's reference solution is the trainer's own code).
export const sourceOf = (name) => PARTS[name].toString() + "\n";

export function dpConfig(fields = {}) {
  return { ...DP_DEFAULTS, ...fields };
}

// Every replica gets the whole configuration (it is small).
export const dpInputs = (config, ranks) => Array.from({ length: ranks }, () => config);

// The largest difference between replicas (0 when every replica applied the same gradient). Replica 0 against a
// reference: web/exercise/compare_training.js.
export function replicaGap(results) {
  let gap = 0;
  for (const r of results.slice(1)) {
    r.params.forEach((w, i) => { for (let e = 0; e < w.length; e++) gap = Math.max(gap, Math.abs(w[e] - results[0].params[i][e])); });
  }
  return gap;
}

// DDP's bucket boundaries for Ψ values (the core's gradient_buckets): [begin, end) from the end backwards.
export function bucketRanges(total, bucketBytes) {
  const per = Math.max(1, Math.floor(bucketBytes / 8)), out = [];
  for (let end = total; end > 0; end = Math.max(0, end - per)) out.push({ begin: Math.max(0, end - per), end });
  return out;
}
