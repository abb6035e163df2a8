// ps_worker.js — one worker of Week 4's parameter server on the Workers (ranks K … K+W−1; the shards are
// ranks 0 … K−1, ps_server.js). Each clock: pull (take every shard's fresh parameters, with their versions),
// compute the gradient of its own minibatch with the core's kernels, take as long as the speed model says this
// worker takes (an artificial delay: config.times[w][c] · delayMs, the same times the simulator uses), push
// (each shard its key range of the gradient, tagged with the version it was computed at).
//
// The minibatch of worker w at clock c is the teacher batch (seed, step c·W + w): every worker sees new data.
// Reported to the page as it runs: the held-out loss at the parameters pulled, and the versions.

export async function workLoop(ctx, config) {
  const K = config.servers, W = ctx.size - K, w = ctx.rank - K;
  const kernels = dpKernels(ctx.core, config.model, null);
  const sizes = ctx.core.mlpInit({ ...config.model, seed: config.seed + 1 }).map((t) => t.length);
  const total = sizes.reduce((a, b) => a + b, 0), ranges = keyRanges(total, K);
  const flat = new Float64Array(total), versions = new Array(K).fill(0);
  // The held-out batch is the simulator's (stale_training.h, kEvalBatchStep = 2^40): the two curves are comparable.
  const held = ctx.core.teacherBatch({ model: config.model, seed: config.seed, step: 2 ** 40, batch: config.evalBatch ?? 64 });
  const sleep = (ms) => new Promise((resume) => setTimeout(resume, ms));
  const clocks = [];   // { start, version }: when each clock started, on the parameters of which versions
  for (let c = 0; c < config.iterations; c++) {
    for (let k = 0; k < K; k++) {
      const { version, values } = await ctx.recv(k, { tag: "params" });
      flat.set(values, ranges[k].begin);
      versions[k] = version;
    }
    clocks.push({ start: ctx.now(), versions: versions.slice() });
    const params = splitParams(flat, sizes);
    const batch = ctx.core.teacherBatch({ model: config.model, seed: config.seed, step: c * W + w, batch: config.batch });
    const { grads } = localGradients(kernels, params, batch.inputs, batch.targets);
    const heldLoss = forwardLoss(kernels, params, held.inputs, held.targets).loss;
    await sleep(config.delayMs * config.times[w][c]);
    const g = flattenParams(grads);
    for (let k = 0; k < K; k++) {
      ctx.send(k, { clock: c, version: versions[k], grad: g.slice(ranges[k].begin, ranges[k].end) }, { tag: "push", move: true });
    }
    ctx.progress({ worker: w, clock: c, versions: versions.slice(), loss: heldLoss, time: ctx.now() });
  }
  return { role: "worker", worker: w, clocks };
}
