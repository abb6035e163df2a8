// ps_program.js — Week 4's parameter server as the program every Worker runs, assembled from the source text of
// real module functions (web/programs/param_keys, the course's model kernels web/programs/replica_model, ps_server, ps_worker, ps_train — each
// also a module the page and the tests import), and what the page does with the ranks' results: the staleness
// every update really had, the loss curve, and a replay that recomputes the run's final θ from what it recorded.
// An exercise puts the learner's code first and leaves out the reference function it defines.
import * as keys from "../../../web/programs/param_keys.js";
import { dpKernels, forwardLoss, localGradients, mlpForward, backwardGradients } from "../../../web/programs/replica_model.js";
import * as server from "./ps_server.js";
import * as worker from "./ps_worker.js";
import * as train from "./ps_train.js";

const MODEL = { dpKernels, forwardLoss, localGradients, mlpForward, backwardGradients };
const PARTS = { ...keys, ...MODEL, ...server, ...worker, ...train };

// The functions a learner may write instead of the reference (one per exercise).
export const REPLACEABLE = ["keyRanges", "applyPush", "sspAfterPush", "gatherRound"];

export const PS_DEFAULTS = Object.freeze({
  model: { layers: 2, width: 16, hidden: 32, activation: "gelu", residual: true },
  batch: 16, lr: 0.05, seed: 5, servers: 1, iterations: 12, regime: "asp", staleness: 2, backup: 1,
  stalenessAware: false, delayMs: 10, evalBatch: 64,
});

export function psProgram({ learnerCode = "", replaces = [] } = {}) {
  for (const name of replaces) {
    if (!REPLACEABLE.includes(name)) throw new Error(`psProgram: ${name} is not a replaceable function`);
  }
  const shipped = Object.entries(PARTS).filter(([name]) => !replaces.includes(name)).map(([, f]) => f.toString());
  return [learnerCode, ...shipped].filter(Boolean).join("\n\n") + "\n";
}

export const sourceOf = (name) => PARTS[name].toString() + "\n";

// A run's configuration; `times` (per worker, per clock) from the core's speed model unless given.
export function psConfig(core, fields = {}, workers, speed = { distribution: "fixed" }) {
  const config = { ...PS_DEFAULTS, ...fields };
  const times = config.times ?? core.speedTimes({ seed: config.seed, ...speed }, workers, config.iterations).map((t) => Array.from(t));
  return { ...config, times };
}

export const psInputs = (config, ranks) => Array.from({ length: ranks }, () => config);

export const serversOf = (run) => run.results.filter((r) => r?.role === "server");
export const workersOf = (run) => run.results.filter((r) => r?.role === "worker");

export const inRounds = (config) => config.regime === "bsp" || config.regime === "backup";

// The staleness τ of every gradient the shards applied (asp/ssp: as recorded; 0 for every gradient of a round).
export function stalenessOf(servers, config) {
  return servers.flatMap((s) => s.applied.flatMap((a) => (inRounds(config) ? a.workers.map(() => 0) : [a.tau])));
}

// Counts of τ = 0, 1, …, max.
export function histogram(values) {
  const counts = new Array(values.length ? Math.max(...values) + 1 : 0).fill(0);
  for (const v of values) counts[v] += 1;
  return counts;
}

// The held-out loss at the parameters each clock started from, against the updates those parameters had seen
// (the mean version over the shards), sorted by updates: RunResult.progress of the workers.
export function lossCurve(progress) {
  return progress.flat().filter((p) => p && p.versions)
    .map((p) => ({ updates: p.versions.reduce((a, b) => a + b, 0) / p.versions.length, loss: p.loss }))
    .sort((a, b) => a.updates - b.updates);
}

// Recomputes the run from its record alone: every gradient at the parameters its worker pulled (the versions
// it reported), every shard's updates in the order it applied them. A correct run ends with exactly the
// shards' θ. → { theta: per shard, tau: per shard [τ of each applied gradient, from the versions] }.
// rate(η, τ): the staleness-aware step when config.stalenessAware — the course's η/(τ + 1) unless a checker asks
// what another rule would have given.
export const awareRate = (lr, tau) => lr / (tau + 1);
export function replayRun(core, config, run, rate = awareRate) {
  const servers = serversOf(run).sort((a, b) => a.shard - b.shard), workers = workersOf(run);
  const W = workers.length, K = servers.length;
  const kernels = dpKernels(core, config.model, null);
  const init = core.mlpInit({ ...config.model, seed: config.seed + 1 });
  const sizes = init.map((t) => t.length), flat0 = keys.flattenParams(init);
  const ranges = servers.map((s) => ({ begin: s.begin, end: s.end }));
  const history = servers.map((s) => [flat0.slice(s.begin, s.end)]);   // history[k][v]: shard k's θ at version v
  const clocksOf = (w) => workers.find((x) => x.worker === w).clocks;
  const gradients = new Map();
  const gradientOf = (w, c) => {
    const key = `${w}:${c}`;
    if (!gradients.has(key)) {
      const versions = clocksOf(w)[c].versions;
      const flat = new Float64Array(flat0.length);
      versions.forEach((v, k) => flat.set(thetaAt(k, v), ranges[k].begin));
      const batch = core.teacherBatch({ model: config.model, seed: config.seed, step: c * W + w, batch: config.batch });
      gradients.set(key, keys.flattenParams(localGradients(kernels, keys.splitParams(flat, sizes), batch.inputs, batch.targets).grads));
    }
    return gradients.get(key);
  };
  const taus = servers.map(() => []);
  const thetaAt = (k, v) => {
    const applied = servers[k].applied, h = history[k];
    if (v > applied.length) throw new Error(`shard ${k} never reached version ${v}`);
    while (h.length <= v) {
      const j = h.length - 1, a = applied[j], theta = h[j].slice();
      const slice = (g) => g.subarray(ranges[k].begin, ranges[k].end);
      if (!inRounds(config)) {
        const version = clocksOf(a.worker)[a.clock].versions[k];
        const tau = j - version;
        taus[k][j] = tau;
        const lr = config.stalenessAware ? rate(config.lr, tau) : config.lr;
        const g = slice(gradientOf(a.worker, a.clock));
        for (let i = 0; i < theta.length; i++) theta[i] -= lr * g[i];
      } else {
        const lr = config.lr / a.workers.length;
        for (const w of a.workers) {
          const c = clocksOf(w).findIndex((x) => x.versions[k] === j);
          const g = slice(gradientOf(w, c));
          for (let i = 0; i < theta.length; i++) theta[i] -= lr * g[i];
        }
      }
      h.push(theta);
    }
    return h[v];
  };
  return { theta: servers.map((s, k) => thetaAt(k, s.applied.length)), tau: taus };
}

// The largest relative difference between the shards' θ and the replay's.
export function replayGap(servers, replay) {
  let worst = 0;
  servers.forEach((s, k) => {
    const a = s.theta, b = replay.theta[k];
    let num = 0, den = 0;
    for (let i = 0; i < b.length; i++) { num += (a[i] - b[i]) ** 2; den += b[i] ** 2; }
    worst = Math.max(worst, Math.sqrt(num) / (Math.sqrt(den) || 1));
  });
  return worst;
}

// The held-out loss of the shards' final θ put together (on the workers' and the simulator's held-out batch).
export function finalLoss(core, config, servers) {
  const init = core.mlpInit({ ...config.model, seed: config.seed + 1 });
  const flat = new Float64Array(init.reduce((n, t) => n + t.length, 0));
  for (const s of servers) flat.set(s.theta, s.begin);
  const held = core.teacherBatch({ model: config.model, seed: config.seed, step: 2 ** 40, batch: config.evalBatch });
  return forwardLoss(dpKernels(core, config.model, null), keys.splitParams(flat, init.map((t) => t.length)), held.inputs, held.targets).loss;
}

// The simulator (core.trainParamServer) on a Workers run's settings: one shard, the same speed model with a unit of
// config.delayMs, a fast switch, the same model, batch, rate and held-out batch. → { tau, makespan, training, dropped }
export function simulateRun(core, config, workers, speed) {
  const out = core.trainParamServer({ regime: config.regime, workers, servers: 1, iterations: config.iterations,
    ...(config.regime === "ssp" ? { staleness: config.staleness } : {}),
    ...(config.regime === "backup" ? { backup: config.backup } : {}),
    speed: { ...speed, base: config.delayMs / 1000, seed: config.seed }, network: { alpha: 1e-4, beta: 1e-9 },
    model: config.model, batch: config.batch, lr: config.lr, stalenessAware: config.stalenessAware,
    evalBatch: config.evalBatch, seed: config.seed });
  return { tau: Array.from(out.run.updates.tau), makespan: out.run.makespan, training: out.training, dropped: out.run.dropped };
}

// Section #ps-workers's defaults: ASP, 4 workers of which the last is 4× slower, 16 clocks each, a unit of 20 ms.
export const WORKERS_DEMO = Object.freeze({ workers: 4, slow: 4, fields: { regime: "asp", iterations: 16, delayMs: 20,
  staleness: 2, backup: 1, stalenessAware: false, servers: 1 } });
export const demoSpeed = (workers, slow) => ({ distribution: "fixed",
  multipliers: Array.from({ length: workers }, (_, w) => (w === workers - 1 ? slow : 1)) });
