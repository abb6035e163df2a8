// ps_setup.js — the scenarios Week 4 runs, in one place so the prose (calcs.js), the widgets (widgets/) and the
// exercises (exercises/) agree. Every function takes the core first and returns plain values (typed arrays
// copied), so a widget can run it on the page or in a Worker (web/lesson/core_tasks.js runs any export by name).
// The core's calls: core/bindings/dsml.d.ts, "Week 4" (param_server.h, stale_training.h, hogwild.h, ps_closed_forms.h).

// A 10 Gb/s Ethernet cluster, the kind parameter servers were built for: α = 50 µs, 1.25 GB/s per link.
export const ETHERNET = Object.freeze({ alpha: 50e-6, beta: 1 / 1.25e9 });
// Section #stragglers: six workers, two of them slow (mean compute 3× and 5× the others'), 2000 rounds.
export const STRAGGLER_SPEEDS = Object.freeze([1, 1, 1, 1, 3, 5]);
export const ROUNDS = 2000;
export const SPEED_CHOICES = [
  ["exponential", "exponential (memoryless)"], ["lognormal", "log-normal, σ = 0.5"],
  ["slow-node", "slow node: 4×, p = 0.1"], ["fixed", "fixed (no noise)"],
];
// The teacher task every training run here uses: a 2-block MLP (D = 8, F = 16: 2·L·D·F = 512 weights), 8 rows
// per worker and update, SGD at η = 0.2 — large enough that staleness can break it.
export const MODEL = Object.freeze({ layers: 2, width: 8, hidden: 16 });
export const LR = 0.2;
export const BATCH = 8;
export const UPDATES = 420;   // applied updates per run in section #staleness
export const TAUS = [0, 2, 8, 20];
export const SSP_BOUNDS = [0, 1, 2, 4, 8, 16];
export const HOGWILD_THREADS = [1, 4, 16];

const speedOf = (distribution, multipliers, seed = 1) =>
  ({ distribution, multipliers: multipliers ? [...multipliers] : undefined, seed });

// ── 1. the straggler barrier ───────────────────────────────────────────────────────────────────────────────
// ROUNDS synchronous rounds of W workers with a small model (4 kB: the network adds ≈ 0.3 ms to a round of ≈ 1 s),
// and E[max_w t_w] in closed form.
export function stragglerRounds(core, { distribution = "exponential", multipliers = STRAGGLER_SPEEDS, rounds = ROUNDS,
  seed = 1 } = {}) {
  const speed = speedOf(distribution, multipliers, seed);
  const run = core.simulateParamServer({ regime: "bsp", workers: multipliers.length, iterations: rounds, parameters: 1000,
    speed, network: ETHERNET });
  const times = Float64Array.from(run.roundSeconds);
  return {
    times, mean: times.reduce((a, b) => a + b, 0) / times.length,
    expected: core.expectedRoundCompute(speed, multipliers.length, multipliers.length),
    alone: core.expectedRoundCompute({ ...speed, multipliers: [1] }, 1, 1),   // one worker of multiplier 1
    stall: run.stallFraction,
  };
}

// ── 2. the parameter server's links ────────────────────────────────────────────────────────────────────────
// W workers push N·4 bytes of gradients and pull N·4 bytes of parameters a round, through K shards.
export function psRound(core, { workers, servers, parameters, compute = 0.01, rounds = 3 }) {
  const run = core.simulateParamServer({ regime: "bsp", workers, servers, iterations: rounds, parameters, speed:
    { distribution: "fixed", base: compute }, network: ETHERNET });
  const links = run.linkNames.map((name, i) => ({ name, busy: run.linkBusy[i] / rounds }));
  return { round: run.makespan / rounds, busiest: { name: run.busiestLink.name, busy: run.busiestLink.busy / rounds },
    serverBytes: run.bytesIntoBusiestServer / rounds, links,
    closed: core.psBandwidth(ETHERNET, workers, servers, parameters * 4) };
}
export const serversToBalance = (core, workers, parameters) => core.psServersToBalance(ETHERNET, workers, parameters * 4);
// Every K from 1 to W (W = 32: 32 simulations, about half a second on a slow machine) and the balance point.
export const psSweep = (core, { workers, parameters }) => ({
  runs: Array.from({ length: workers }, (_, i) => psRound(core, { workers, servers: i + 1, parameters })),
  balance: serversToBalance(core, workers, parameters),
});

// ── 3. staleness ────────────────────────────────────────────────────────────────────────────────────────────
// Asynchronous SGD on τ + 1 equally fast workers: each push finds exactly τ others' updates applied since its
// pull, so every update (after the first τ) has staleness τ. The same UPDATES updates of BATCH rows for every τ.
export function staleRun(core, { tau, lr = LR, aware = false, seed = 1 }) {
  const workers = tau + 1;
  const { run, training } = core.trainParamServer({ regime: "asp", workers, iterations: Math.ceil(UPDATES / workers),
    speed: { distribution: "fixed", base: 0.01 }, network: ETHERNET, model: MODEL, batch: BATCH, lr,
    stalenessAware: aware, seed });
  return { updates: Float64Array.from(training.updates), loss: Float64Array.from(training.loss), finalLoss: training.finalLoss,
    staleness: Float64Array.from(run.updates.tau) };
}
export const staleCurves = (core, { lr = LR, aware = false } = {}) => TAUS.map((tau) => ({ tau, ...staleRun(core, { tau, lr, aware }) }));

// ── 4. consistency regimes ─────────────────────────────────────────────────────────────────────────────────
// The six workers of section #stragglers with fixed speeds (so SSP's waiting has a closed form), `clocks` clocks each,
// with every worker's spans (the timelines drawn from them).
export function regimeRun(core, { regime, staleness = 0, clocks = 8, base = 0.1, multipliers = STRAGGLER_SPEEDS }) {
  return { run: core.simulateParamServer({ regime, staleness, workers: multipliers.length, iterations: clocks,
    network: ETHERNET, parameters: 512, speed: { distribution: "fixed", base, multipliers: [...multipliers] }, spans: true }) };
}
// The two readings of SSP's closed form for fixed speeds (#regimes's convention). The page's and the core's
// (core.sspStallFixedSpeeds): a worker is finished when the server answers its last push, which the gate holds until
// the slowest has finished I − s clocks, so finish_w = max(I·t_w, (I − s)·t_max). The other reading stops the count
// when the last clock's compute ends: clock I (from 1) starts once the slowest has finished I − s − 1 clocks, so
// finish_w = max(I·t_w, (I − s − 1)·t_max + t_w). → stall = Σ (finish_w − I·t_w) / Σ finish_w, for each reading.
export function sspStallReadings(core, { multipliers = STRAGGLER_SPEEDS, base = 0.1, clocks: I = 20, bound: s = 8 } = {}) {
  const t = multipliers.map((m) => m * base), tmax = Math.max(...t);
  const stall = (finish) => finish.reduce((a, f, w) => a + f - I * t[w], 0) / finish.reduce((a, f) => a + f, 0);
  return {
    served: core.sspStallFixedSpeeds({ distribution: "fixed", base, multipliers: [...multipliers] }, t.length, I, s).stallFraction,
    computed: stall(t.map((tw) => Math.max(I * tw, Math.max(0, I - s - 1) * tmax + tw))),
  };
}
// SSP(s) for every s of SSP_BOUNDS: simulated stall fraction and final loss, and for fixed speeds the closed form.
// "exponential": six workers of equal mean speed whose compute times are exponential (transient stragglers).
export function sspTradeoff(core, { distribution = "fixed", clocks = 60, bounds = SSP_BOUNDS } = {}) {
  const fixed = distribution === "fixed";
  const multipliers = fixed ? STRAGGLER_SPEEDS : [1, 1, 1, 1, 1, 1];
  const speed = { distribution, base: 0.1, multipliers: [...multipliers], seed: 1 };
  return bounds.map((s) => {
    const { run, training } = core.trainParamServer({ regime: "ssp", staleness: s, workers: multipliers.length,
      iterations: clocks, network: ETHERNET, speed, model: MODEL, batch: BATCH, lr: LR, seed: 1 });
    return { s, stall: run.stallFraction, makespan: run.makespan, finalLoss: training.finalLoss,
      maxTau: Math.max(...run.updates.tau),
      closed: fixed ? core.sspStallFixedSpeeds(speed, multipliers.length, clocks, s).stallFraction : null };
  });
}

// What a bound can absorb: the list STRAGGLER_SPEEDS as fixed speeds (worker w always list[w], a
// permanently slow machine) or drawn afresh by every worker every clock (per-round: slow now and then, the seed
// notebook's stragglers), six workers, `clocks` clocks under SSP(s) for each s of ABSORB_BOUNDS, and the two limits
// of the seconds per clock (core.sspClockLimits, compute only): E[max] at s = 0, the slowest mean as s → ∞.
export const ABSORB_BOUNDS = [0, 1, 2, 4, 8, 16, 32, 64];
export const ABSORB_MODES = [["per-round", "drawn afresh each clock"], ["fixed", "fixed: worker w always list[w]"]];
export const absorbSpeed = (mode, list = STRAGGLER_SPEEDS, base = 0.1) => (mode === "fixed"
  ? { distribution: "fixed", base, multipliers: [...list] }
  : { distribution: "per-round", base, roundSpeeds: [...list], seed: 1 });
export function sspAbsorb(core, { mode = "per-round", clocks = 1000, bounds = ABSORB_BOUNDS } = {}) {
  const speed = absorbSpeed(mode), workers = STRAGGLER_SPEEDS.length;
  const rows = bounds.map((s) => {
    const run = core.simulateParamServer({ regime: "ssp", staleness: s, workers, iterations: clocks, parameters: 1000,
      speed, network: ETHERNET });
    return { s, perClock: run.makespan / clocks, stall: run.stallFraction };
  });
  return { mode, clocks, rows, limits: core.sspClockLimits(speed, workers) };
}

// ── 5. backup workers ──────────────────────────────────────────────────────────────────────────────────────
// P = `quota` gradients a round from P + b workers of exponential compute (mean 1 s); stragglers cancelled, so
// each round is a fresh race and the closed form E[P-th of P + b] = H_{P+b} − H_b holds.
export function backupRound(core, { quota, backup, rounds = 400, cancel = true, seed = 1 }) {
  const workers = quota + backup;
  const speed = { distribution: "exponential", seed };
  const run = core.simulateParamServer({ regime: "backup", workers, backup, cancelStragglers: cancel, iterations: rounds,
    parameters: 1000, speed, network: ETHERNET });
  const mean = run.roundSeconds.reduce((a, b) => a + b, 0) / rounds;
  return { backup, mean, closed: core.expectedOrderStatisticExponential(quota, workers, 1), dropped: run.dropped };
}
export const backupSweep = (core, { quota = 8, max = 8, cancel = true } = {}) =>
  Array.from({ length: max + 1 }, (_, b) => backupRound(core, { quota, backup: b, cancel }));

// ── 6. Hogwild! ─────────────────────────────────────────────────────────────────────────────────────────────
export function hogwildGrid(core, { sparsity = 0.01, atomic = true, features = 1000, updates = 10000 } = {}) {
  return HOGWILD_THREADS.map((threads) => {
    const r = core.hogwild({ threads, sparsity, atomic, features, updates, seed: 1 });
    return { threads, support: r.support, collisionRate: r.collisionRate, predicted: r.predictedCollisionRate,
      lostWrites: r.lostWrites, finalLoss: r.finalLoss, lossUpdates: Float64Array.from(r.lossUpdates),
      loss: Float64Array.from(r.loss) };
  });
}

// ── 7. consistency models ──────────────────────────────────────────────────────────────────────────────────
// Three workers (mean speeds 1, 1, 2.5) run 5 clocks with no waiting (ASP): the unconstrained interleaving. Each
// read is the pull before worker `reader`'s clock c; it "saw" clock j of worker w if that update was applied before.
export const CONSISTENCY = Object.freeze({ multipliers: [1, 1, 2.5], clocks: 5, reader: 0, bound: 1 });
// The bounds count clocks (Ho et al. 2013, Cui et al. 2014): BSP is the bound s = 0, SSP(s) any s, ASP none.
// Sequential consistency (Lamport 1979) is not on this ladder: it asks only for SOME order of all reads and writes
// that keeps each worker's program order, says nothing of clocks, and this ASP run already has one — every pull
// and write in the order the one server handled them (tests/exercises/week4_exercises.test.mjs checks it).
export const MODELS = {
  // What a read before clock c must include, per worker w (clocks 0 … need − 1), and who must satisfy it.
  bsp: { name: "BSP (clock-bounded, s = 0)", need: (c) => c, others: true, own: true },
  bounded: { name: `SSP (clock-bounded, s = ${CONSISTENCY.bound})`, need: (c) => c - CONSISTENCY.bound, others: true, own: true },
  eventual: { name: "ASP (eventual consistency)", need: () => 0, others: true, own: true },
  ryw: { name: "read-your-writes", need: (c) => c, others: false, own: true },
};

// Every read of `reader` in the ASP run: when, what it saw of each worker, and for each model whether it is allowed
// and, if not, how long the reader would have had to wait for the missing updates. Read-your-writes is judged on a
// read made right after the push (before the reply): the moment a worker with a local cache would read.
export function consistencyReads(core) {
  const { multipliers, clocks, reader } = CONSISTENCY;
  const { run } = regimeRun(core, { regime: "asp", clocks, multipliers });
  const W = multipliers.length, u = run.updates;
  const appliedAt = Array.from({ length: W }, () => []);   // appliedAt[w][j]: when clock j of w reached every shard
  for (let i = 0; i < u.worker.length; i++) {
    const w = u.worker[i], j = u.iteration[i];
    appliedAt[w][j] = Math.max(appliedAt[w][j] ?? 0, u.time[i]);
  }
  const seenAt = (t) => appliedAt.map((times) => times.filter((x) => x <= t + 1e-12).length);
  const reads = [];
  for (const sp of run.spans.filter((s) => s.worker === reader && s.kind === "compute" && s.iteration > 0)) {
    const c = sp.iteration;
    const push = run.spans.find((s) => s.worker === reader && s.kind === "push" && s.iteration === c);
    const verdicts = {};
    for (const [key, m] of Object.entries(MODELS)) {
      const at = key === "ryw" ? push.start : sp.start;   // ryw: reading before the reply, at the push
      const seen = seenAt(at);
      const need = Math.max(0, m.need(c));
      const late = seen.map((n, w) => ((w === reader ? m.own : m.others) && n < need ? appliedAt[w][need - 1] - at : 0));
      const blocker = late.indexOf(Math.max(...late));   // whose missing write it would wait for longest
      verdicts[key] = { allowed: late.every((x) => x <= 0), wait: Math.max(0, ...late), seen, at,
        missing: late[blocker] > 0 ? { worker: blocker, clock: need - 1, time: appliedAt[blocker][need - 1] } : null };
    }
    reads.push({ clock: c, time: sp.start, seen: seenAt(sp.start), verdicts });
  }
  const cost = (regime, staleness = 0) => regimeRun(core, { regime, staleness, clocks, multipliers }).run;
  return { run, reads, writes: appliedAt, costs: { bsp: cost("bsp"), bounded: cost("ssp", CONSISTENCY.bound), eventual: run, ryw: run } };
}
