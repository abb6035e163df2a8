// ps_server.js — one server shard of Week 4's parameter server on the Workers. Ranks 0 … K−1 are the shards,
// ranks K … K+W−1 the workers (ps_worker.js). A shard holds its key range of θ (web/programs/param_keys.js) and a version (how
// many updates it has applied); it answers every push (a gradient, tagged with the version it was computed at)
// by applying it and, when the consistency regime lets the worker go on, sending it fresh parameters.
//
//   asp      apply every push as it comes (recvAny: whichever worker is first) and reply at once: no waiting,
//            staleness τ = version now − version the gradient was computed at.
//   ssp      the same, but a worker may start clock c only when the slowest has finished c − s clocks
//            (Ho et al. 2013); a worker too far ahead is held until the slowest catches up.
//   bsp      rounds: wait for all W gradients of the round, apply their mean, reply to everyone (τ = 0).
//   backup   rounds with b backup workers: the first W − b gradients of the round win; a straggler's gradient of
//            an earlier round is dropped when it comes (Chen et al. 2016).
// Every message is real: the staleness a shard records is what this run's timing produced.

export async function serveShard(ctx, config) {
  const K = config.servers, W = ctx.size - K;
  const init = flattenParams(ctx.core.mlpInit({ ...config.model, seed: config.seed + 1 }));
  const ranges = keyRanges(init.length, K);
  if (!Array.isArray(ranges) || ranges.length !== K || !ranges.every((r) => Number.isInteger(r?.begin) && Number.isInteger(r?.end))) {
    throw new Error(`keyRanges(${init.length}, ${K}) must return ${K} ranges { begin, end } of whole numbers; it returned ${JSON.stringify(ranges)?.slice(0, 80)}`);
  }
  const { begin, end } = ranges[ctx.rank];
  const shard = { theta: init.slice(begin, end), version: 0 };
  const reply = (w) => ctx.send(K + w, { version: shard.version, values: shard.theta.slice() }, { tag: "params", move: true });
  for (let w = 0; w < W; w++) reply(w);
  const applied = [];   // asp/ssp: { worker, clock, version, tau, time } · bsp/backup: { round, workers, late, time }
  let dropped = 0;
  if (config.regime === "bsp" || config.regime === "backup") {
    const quota = W - (config.regime === "backup" ? config.backup : 0);
    let received = 0;
    for (let round = 0; round < config.iterations; round++) {
      const gathered = await gatherRound(ctx, round, quota);
      if (!Array.isArray(gathered?.grads) || !Array.isArray(gathered?.workers) || !Number.isInteger(gathered?.late)) {
        throw new Error("gatherRound must return { grads: [...], workers: [...], late: a count }");
      }
      const { grads, workers, late } = gathered;
      received += grads.length + late;
      dropped += late;
      const lr = config.lr / grads.length;
      for (const g of grads) for (let i = 0; i < shard.theta.length; i++) shard.theta[i] -= lr * g[i];
      shard.version += 1;
      applied.push({ round, workers: workers.map((r) => r - K), late, time: ctx.now() });
      if (round + 1 < config.iterations) for (let w = 0; w < W; w++) reply(w);
    }
    for (; received < W * config.iterations; received++) {   // the last rounds' stragglers: dropped
      await ctx.recvAny({ tag: "push" });
      dropped += 1;
    }
  } else {
    const ssp = { clocks: new Array(W).fill(0), held: new Set() };
    const next = (w) => { if (ssp.clocks[w] < config.iterations) reply(w); };
    for (let n = 0; n < W * config.iterations; n++) {
      const { from, data } = await ctx.recvAny({ tag: "push" });
      const w = from - K;
      const tau = applyPush(shard, data, config);
      applied.push({ worker: w, clock: data.clock, version: data.version, tau, time: ctx.now() });
      if (config.regime === "ssp") sspAfterPush(ssp, w, data.clock, config.staleness, next);
      else { ssp.clocks[w] = data.clock + 1; next(w); }
    }
  }
  return { role: "server", shard: ctx.rank, begin, end, theta: shard.theta, version: shard.version, applied, dropped };
}

// Applies one worker's gradient to the shard: θ ← θ − η·g, or with the staleness-aware rate η/(τ + 1)
// (Zhang et al. 2016) when config.stalenessAware; the shard's version goes up by one. Returns τ.
export function applyPush(shard, push, config) {
  const tau = shard.version - push.version;
  const lr = config.stalenessAware ? config.lr / (tau + 1) : config.lr;
  for (let i = 0; i < shard.theta.length; i++) shard.theta[i] -= lr * push.grad[i];
  shard.version += 1;
  return tau;
}

// SSP's gate, after the shard applied `worker`'s gradient of clock `clock`. ssp.clocks[w]: clocks worker w has
// finished; ssp.held: workers waiting for the go-ahead. A worker may start clock c = clocks[w] only when the
// slowest worker has finished at least c − s clocks; reply(w) sends it fresh parameters, which lets it start.
export function sspAfterPush(ssp, worker, clock, s, reply) {
  ssp.clocks[worker] = clock + 1;
  ssp.held.add(worker);
  const slowest = Math.min(...ssp.clocks);
  for (const w of [...ssp.held]) {
    if (ssp.clocks[w] - slowest <= s) {
      ssp.held.delete(w);
      reply(w);
    }
  }
}

// One synchronous round: take pushes, whichever worker is first, until `quota` gradients of THIS round (their
// version is the round) have come; a gradient of an earlier round is a straggler's, late: dropped.
// → { grads: the round's gradients in arrival order, workers: their ranks, late: how many were dropped }.
export async function gatherRound(ctx, round, quota) {
  const grads = [], workers = [];
  let late = 0;
  while (grads.length < quota) {
    const { from, data } = await ctx.recvAny({ tag: "push" });
    if (data.version !== round) { late += 1; continue; }
    grads.push(data.grad);
    workers.push(from);
  }
  return { grads, workers, late };
}
