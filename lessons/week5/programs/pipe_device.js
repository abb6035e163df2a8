// pipe_device.js — one device of Week 5's pipeline on the Workers. Rank d holds chunks d, d + P, … of the MLP
// (C = P·v chunks of L/C blocks each) and nothing else; each step it runs its operation list (web/programs/pipe_lists.js):
//   F(mb, c)  receive the activation (rows × D) from the device of chunk c − 1 (chunk 0: the batch's rows),
//             run the chunk's blocks forward keeping x, H and A per block, send the output to chunk c + 1's device
//             (the last chunk: the loss, and dY = ∂loss/∂output / m)
//   B(mb, c)  receive dY from chunk c + 1's device, run the blocks backward, send dx to chunk c − 1's device; with a
//             W(mb, c) in the list only the input gradient (blockBackwardInput), keeping dY and dH per block
//   W(mb, c)  the weight gradients from what B kept (blockBackwardWeight); then the chunk's activations go
// then one optimizer step on its own tensors. The batch of step s is the core's teacher batch, the start
// mlpInit(seed + 1): the run must end where core.trainSingle does. With config.delayMs set, each operation of the
// last step also sleeps delayMs.F / .B / .W (a full backward B + W) so that compute dominates the timeline, as a
// bigger model's would; a barrier opens and closes every step, so the timeline of the last step is one window.
// Shipped into the Workers as source text (pipe_program.js): self-contained functions only.

export async function main(ctx) {
  const config = ctx.input, P = config.devices, d = ctx.rank;
  if (!ctx.core) throw new Error("the pipeline needs the wasm core in every Worker (ctx.core is null)");
  if (ctx.size !== P) throw new Error(`the pipeline has ${P} devices, the run ${ctx.size} ranks`);
  const { lists, learner } = scheduleLists(ctx.core, config);   // every device's: a learner's may deadlock
  const stuck = learner ? replaySchedules(lists).stuck : null;
  if (stuck) throw new Error(stuck);
  const device = { ctx, config, ops: lists[d], chunks: deviceChunks(ctx.core, config, d), peak: 0, times: [] };
  for (let step = 0; step < config.steps; step++) {
    const loss = await pipeStep(device, step, step === config.steps - 1 ? config.delayMs : null);
    if (Number.isFinite(loss)) ctx.progress({ step, loss });
  }
  return { device: d, peakActivations: device.peak, ops: device.ops.map(({ op, mb, chunk }) => ({ op, mb, chunk })),
    opTimes: device.times, window: device.window ?? null, shards: device.chunks.flatMap((c) => c.tensors.map(({ index, w }) => ({ index, data: w }))) };
}

// This device's chunks: chunk c holds blocks c·L/C … (c + 1)·L/C − 1, their weights, gradients and optimizer state.
export function deviceChunks(core, config, d) {
  const P = config.devices, v = config.schedule === "interleaved" ? config.chunksPerDevice : 1, C = P * v;
  const L = config.model.layers;
  if (L % C !== 0) throw new Error(`${L} blocks cannot be cut into ${C} equal chunks`);
  const full = core.mlpInit({ ...config.model, seed: config.seed + 1 }), per = L / C, chunks = [];
  for (let c = d; c < C; c += P) {
    const tensors = [];
    for (let i = 2 * c * per; i < 2 * (c + 1) * per; i++) {
      const w = full[i], kind = config.optimizer.kind, state = (used) => new Float64Array(used ? w.length : 0);
      tensors.push({ index: i, w, g: new Float64Array(w.length), m: state(kind !== "sgd"), v: state(kind === "adam") });
    }
    chunks.push({ chunk: c, tensors });
  }
  return chunks;
}

// One step; returns the mean loss on the last chunk's device, NaN elsewhere.
export async function pipeStep(device, step, delay) {
  const { ctx, config, ops, chunks } = device, core = ctx.core;
  const P = config.devices, m = config.microBatches, D = config.model.width, fn = config.model.activation ?? "gelu";
  const C = P * (config.schedule === "interleaved" ? config.chunksPerDevice : 1), B = config.batch;
  const residual = config.model.residual !== false;
  // Micro-batch mb's rows, cut as the core cuts them (core/parallel/micro_batches.cpp, shard_sizes): the first B mod m
  // micro-batches one row longer, so any m ≤ B works. Its loss counts rows/B of the batch's mean.
  if (!(Number.isInteger(m) && m >= 1 && m <= B)) throw new Error(`a batch of B = ${B} rows cannot be cut into m = ${m} micro-batches; use 1 ≤ m ≤ B`);
  const sizeOf = (mb) => Math.floor(B / m) + (mb < B % m ? 1 : 0);
  const offsetOf = (mb) => mb * Math.floor(B / m) + Math.min(mb, B % m);
  const sleep = (ms) => (ms > 0 ? new Promise((resume) => setTimeout(resume, ms)) : null);
  const holds = (c) => chunks.find((k) => k.chunk === c);
  const splitW = new Set(ops.filter((o) => o.op === "W").map((o) => `${o.mb}:${o.chunk}`));
  const batch = holds(0) || holds(C - 1) ? core.teacherBatch({ model: config.model, seed: config.seed, step, batch: config.batch }) : null;
  const rowsOf = (buf, mb) => buf.slice(offsetOf(mb) * D, (offsetOf(mb) + sizeOf(mb)) * D);
  const tag = (kind, mb, c) => `${kind}|${step}|${mb}|${c}`;
  for (const k of chunks) for (const t of k.tensors) t.g.fill(0);
  const kept = new Map(), dys = new Map();   // "mb:c" → per block { x, pre, act, dy?, dh? }; the last chunk's dY
  let lossSum = 0, live = 0;
  await ctx.barrier();
  const t0 = ctx.now();
  if (delay) device.times = [];
  for (const o of ops) {
    const key = `${o.mb}:${o.chunk}`, { tensors } = holds(o.chunk), per = tensors.length / 2, rows = sizeOf(o.mb);
    let start = ctx.now(), out = null;   // start: after the message it waits for; out: what it sends, after its time
    if (o.op === "F") {
      let x = o.chunk === 0 ? rowsOf(batch.inputs, o.mb) : await ctx.recv((o.chunk - 1) % P, { tag: tag("F", o.mb, o.chunk) });
      start = ctx.now();
      const blocks = [];
      for (let j = 0; j < per; j++) {
        const [wIn, wOut] = [tensors[2 * j].w, tensors[2 * j + 1].w];
        const { pre, act } = core.blockInForward(x, wIn, rows, D, fn);
        const y = core.blockOutForward(act, wOut, rows, D);
        blocks.push({ x, pre, act });
        if (residual) for (let i = 0; i < y.length; i++) y[i] += x[i];
        x = y;
      }
      kept.set(key, blocks);
      device.peak = Math.max(device.peak, ++live);
      if (o.chunk === C - 1) {
        const { loss, grad } = core.mseLoss(x, rowsOf(batch.targets, o.mb));
        for (let i = 0; i < grad.length; i++) grad[i] *= rows / B;   // the batch's mean: rows/B of it is this micro-batch's
        dys.set(o.mb, grad);
        lossSum += loss * rows / B;
      } else {
        out = [(o.chunk + 1) % P, x, tag("F", o.mb, o.chunk + 1)];
      }
    } else if (o.op === "B") {
      let dy = o.chunk === C - 1 ? dys.get(o.mb) : await ctx.recv((o.chunk + 1) % P, { tag: tag("B", o.mb, o.chunk) });
      start = ctx.now();
      const blocks = kept.get(key), split = splitW.has(key);
      for (let j = per - 1; j >= 0; j--) {
        const [tIn, tOut] = [tensors[2 * j], tensors[2 * j + 1]], b = blocks[j];
        let dx;
        if (split) {   // B alone: the input gradient; dY and dH wait for W
          const g = core.blockBackwardInput(dy, b.pre, tIn.w, tOut.w, rows, D, fn);
          Object.assign(b, { dy, dh: g.dH });
          dx = g.dX;
        } else {       // the full backward: input and weight gradients at once
          const out = core.blockOutBackward(dy, b.act, tOut.w, rows, D);
          const inn = core.blockInBackward(out.dA, b.pre, b.x, tIn.w, rows, D, fn);
          addInto(tOut.g, out.dWOut);
          addInto(tIn.g, inn.dWIn);
          dx = inn.dX;
        }
        if (residual) for (let i = 0; i < dx.length; i++) dx[i] += dy[i];
        dy = dx;
      }
      if (!split) { kept.delete(key); live--; }
      if (o.chunk > 0) out = [(o.chunk - 1) % P, dy, tag("B", o.mb, o.chunk - 1)];
    } else {
      const blocks = kept.get(key);
      for (let j = 0; j < per; j++) {
        const b = blocks[j], g = core.blockBackwardWeight(b.dy, b.act, b.dh, b.x, rows, D);
        addInto(tensors[2 * j + 1].g, g.dWOut);
        addInto(tensors[2 * j].g, g.dWIn);
      }
      kept.delete(key);
      live--;
    }
    if (delay) {   // the op's time, before its result leaves (as a real kernel's would)
      await sleep(o.op === "B" && !splitW.has(key) ? delay.B + delay.W : delay[o.op]);
      // The core's span (PipelineSpan: a B without its own W is the full backward BW), ms from the run's start.
      device.times.push({ kind: o.op === "B" && !splitW.has(key) ? "BW" : o.op, microBatch: o.mb, chunk: o.chunk, start, end: ctx.now() });
    }
    if (out) ctx.send(out[0], out[1], { tag: out[2] });
  }
  await ctx.barrier();
  if (delay) device.window = { start: t0, end: ctx.now() };
  for (const k of chunks) for (const t of k.tensors) core.optimizerStepInPlace(config.optimizer, step + 1, t.w, t.g, t.m, t.v);
  return holds(C - 1) ? lossSum : NaN;
}

export function addInto(sum, part) {
  for (let i = 0; i < part.length; i++) sum[i] += part[i];
}
