// lab_train.js — one rank of the lab: it holds only its part of the model (a pipeline stage's blocks, a
// tensor-parallel slice of each, and with FSDP only its dp shard of that slice) and trains it with explicit
// forward and backward kernels from the wasm core and the collectives of web/programs/comm_group.js over real messages.
// Shipped into the Workers as source text (see lab_grid.js): self-contained functions only.
//
// ctx.input is the lab configuration (lab_program.js). The global batch of step s is the core's teacher batch
// (seed, s, B), exactly what core.trainSingle trains on, and the student starts from mlpInit(seed + 1), so the
// run must reproduce single-device training: the page and the checkers compare the two. With MoE blocks
// (config.moe, lab_moe.js) the model is moeMlpInit's and the reference core.trainSingleMoe with dp·m token groups.

export async function main(ctx) {
  const config = ctx.input;
  const layout = labLayout(config);
  const { grid } = config;
  if (!ctx.core) throw new Error("the lab needs the wasm core in every Worker (ctx.core is null)");
  if (ctx.size !== layout.ranks) throw new Error(`the grid ${grid.dp}×${grid.tp}×${grid.pp} needs ${layout.ranks} ranks, not ${ctx.size}`);
  const me = coordOf(ctx.rank, grid);
  const activity = makeActivity(ctx);
  const line = (axis, n) => Array.from({ length: n }, (_, i) => rankOf({ ...me, [axis]: i }, grid));
  // ep: the ep neighbours of this rank's dp group (d = g·ep + i, i = 0 … ep − 1); expert-dp: the dp/ep ranks that
  // hold the same experts (same i), over which expert gradients are summed.
  const ep = layout.ep, i = me.d % ep, g = (me.d - i) / ep;
  const tensors = initShards(ctx.core, config, layout, me);
  const rank = {
    ctx, config, layout, me, activity, tensors,
    dp: makeGroup(ctx, "dp", line("d", grid.dp), activity),
    tp: makeGroup(ctx, "tp", line("t", grid.tp), activity),
    ep: makeGroup(ctx, "ep", Array.from({ length: ep }, (_, q) => rankOf({ ...me, d: g * ep + q }, grid)), activity),
    edp: makeGroup(ctx, "expert-dp", Array.from({ length: grid.dp / ep }, (_, h) => rankOf({ ...me, d: h * ep + i }, grid)), activity),
    k: labKernels(ctx.core, config, layout, activity),
    blocks: stageBlocks(tensors, layout),
    load: new Map(),   // MoE block → {wanted, kept} per expert, this rank's tokens in the last step
    memory: { params: 0, grads: 0, optimizer: 0, activations: 0, gathered: 0 },
    peakInFlight: 0,
    ops: stageOps(ctx.core, config, me.p),   // the pipeline operations this stage runs every step, {op, mb, chunk}: built and checked once
    schedule: [],   // the same as "F0", "B0", "W0" (interleaved: "F0.2", chunk 2)
  };
  for (let step = 0; step < config.steps; step++) {
    activity.recording = step === config.steps - 1;   // the timeline shows the last step
    const loss = await runStep(rank, step);
    if (me.t === 0 && me.p === grid.pp - 1) ctx.progress({ step, loss });   // the page's live curve, not output
  }
  const bytes = (key) => rank.tensors.reduce((n, t) => n + t[key].byteLength, 0);
  Object.assign(rank.memory, { params: bytes("w"), grads: bytes("g"), optimizer: bytes("m") + bytes("v") });
  return {
    coord: me, memory: rank.memory, peakInFlight: rank.peakInFlight, schedule: rank.schedule, ops: rank.ops, phases: activity.segments,
    shards: rank.tensors.map(({ index, w }) => ({ index, data: w })),
    load: [...rank.load].map(([block, l]) => ({ block, ...l })),
  };
}

// The core's kernels with this rank's shapes bound in, each timed as compute. The two weight gradients come in
// arrays the trainer hands back (release) once it has added them into the tensor's gradient, so the same few
// buffers serve every micro-batch and step, and the optimizer updates w, m and v in place: allocating a 16 KiB
// ArrayBuffer costs a Worker more than the kernel that fills it (bench/lab_steps.mjs).
export function labKernels(core, config, layout, activity) {
  const D = config.model.width, fn = config.model.activation ?? "gelu", rows = layout.rows;
  const timed = (label, f) => (...args) => {
    activity.enter("compute", label);
    try { return f(...args); } finally { activity.leave(); }
  };
  const spare = new Map();       // length → released gradient buffers
  const issued = new WeakSet();  // only buffers handed out here are taken back
  const gradient = (n) => {
    const buf = spare.get(n)?.pop() ?? new Float64Array(n);
    issued.add(buf);
    return buf;
  };
  return {
    rows, width: D, residual: config.model.residual !== false,
    blockInForward: timed("x·W_inᵀ, act", (x, wIn) => core.blockInForward(x, wIn, rows, D, fn)),
    blockOutForward: timed("A·W_outᵀ", (a, wOut) => core.blockOutForward(a, wOut, rows, D)),
    blockOutBackward: timed("dW_out, dA", (dy, a, wOut) => {
      const out = { dWOut: gradient(wOut.length), dA: new Float64Array(a.length) };
      core.blockOutBackwardInto(dy, a, wOut, rows, D, out.dWOut, out.dA);
      return out;
    }),
    blockInBackward: timed("dW_in, dX", (dA, pre, x, wIn) => {
      const out = { dWIn: gradient(wIn.length), dX: new Float64Array(x.length) };
      core.blockInBackwardInto(dA, pre, x, wIn, rows, D, fn, out.dWIn, out.dX);
      return out;
    }),
    // Week 5's split backward (zero-bubble schedules): B = the input gradient, W = the weight gradients.
    blockBackwardInput: timed("B: dH, dX", (dy, pre, wIn, wOut) => core.blockBackwardInput(dy, pre, wIn, wOut, rows, D, fn)),
    blockBackwardWeight: timed("W: dW_out, dW_in", (dy, act, dH, x) => core.blockBackwardWeight(dy, act, dH, x, rows, D)),
    activate: timed("act (recompute)", (pre) => core.activate(pre, fn)),
    // An MoE block (lab_moe.js): the router on this rank's micro-batch, and an expert on the n = R·C rows sent to it.
    topK: layout.topK,
    moeRoute: timed("router", (x, router) => core.moeRoute(x, router, rows, D, layout.topK, layout.capacityFactor)),
    moeRouterBackward: timed("router backward", (probs, expert, dGate) => core.moeRouterBackward(probs, expert, dGate, rows, layout.topK)),
    routerBackward: timed("dW_r, dX", (dLogits, x, router) => core.blockOutBackward(dLogits, x, router, rows, layout.experts)),
    expertForward: timed("expert forward", (x, wIn, wOut, n) => {
      const { pre, act } = core.blockInForward(x, wIn, n, D, fn);
      return { pre, y: core.blockOutForward(act, wOut, n, D) };
    }),
    expertBackward: timed("expert backward", (dy, pre, x, wIn, wOut, n) => {
      const { dWOut, dA } = core.blockOutBackward(dy, core.activate(pre, fn), wOut, n, D);
      const { dWIn, dX } = core.blockInBackward(dA, pre, x, wIn, n, D, fn);
      return { dWIn, dWOut, dX };
    }),
    mseLoss: timed("loss", (y, t) => core.mseLoss(y, t)),
    optimizerStep: timed("optimizer", (opt, t, w, g, m, v) => core.optimizerStepInPlace(opt, t, w, g, m, v)),
    // A weight gradient the trainer has consumed: its buffer serves the next backward.
    release(buf) {
      if (!issued.has(buf)) return;
      issued.delete(buf);
      (spare.get(buf.length) ?? spare.set(buf.length, []).get(buf.length)).push(buf);
    },
  };
}

// A stage's operations {op, mb, chunk} (web/programs/pipe_lists.js), the stage as the device (chunk c on stage c mod
// pp; interleaved: 2 chunks per stage): the core's schedule, or in the exercise lab-1f1b the learner's oneFOneB,
// checked as a Week 5 list is.
export function stageOps(core, config, stage) {
  const pipe = { devices: config.grid.pp, microBatches: config.microBatches, schedule: config.schedule, chunksPerDevice: 2 };
  return scheduleLists(core, pipe, "stage").lists[stage];
}

// One training step of this rank; returns the mean loss over its rows (last stage) or NaN.
export async function runStep(rank, step) {
  const { ctx, config, layout, me, activity, dp, tp, k, tensors, memory, blocks } = rank;
  const { model, grid } = config, m = config.microBatches, D = model.width;
  const last = me.p === grid.pp - 1;
  dp.step = tp.step = rank.ep.step = rank.edp.step = step;
  for (const t of tensors) t.g.fill(0);
  rank.load.clear();
  const batch = me.p === 0 || last ? ctx.core.teacherBatch({ model, seed: config.seed, step, batch: config.batch }) : null;
  const rowsOf = (buf, mb) => {
    const start = (me.d * m + mb) * layout.rows;
    return buf.slice(start * D, (start + layout.rows) * D);
  };
  const stageRank = (p) => rankOf({ ...me, p }, grid);
  // Chunk c lives on stage c mod pp; C = pp·v chunks, the last one computes the loss.
  const P = grid.pp, C = P * layout.chunks, per = layout.chunkBlocks;
  const named = (mb, c) => `${mb}${layout.chunks > 1 ? `.${c}` : ""}`;
  const tag = (dir, mb, c) => `send:pp|${step}|${dir}${named(mb, c)}`;

  // With FSDP a block's weights are gathered for every use — each micro-batch's forward and backward — and its
  // gradient reduce-scattered after every backward, as PyTorch FSDP does without no_sync(): memory stays at one
  // gathered block, and the bytes grow with m (the bytes table shows it).
  const weights = async (j) => {
    const { wIn, wOut } = blocks[j];
    if (!config.fsdp) return { wIn: wIn.w, wOut: wOut.w };
    const gather = async (t) => {
      dp.begin("all-gather");
      const full = await activity.during("all-gather", "FSDP gather", () => gatherWeights(t.w, dp, t.n));
      if (!(full instanceof Float64Array) || full.length !== t.n) {
        throw new Error(`gatherWeights must return a Float64Array of ${t.n} values (got ${full?.length ?? typeof full})`);
      }
      return full;
    };
    memory.gathered = Math.max(memory.gathered, 8 * (wIn.n + wOut.n));   // one block's weights alive at a time
    return { wIn: await gather(wIn), wOut: await gather(wOut) };
  };
  const accumulate = async (t, grad) => {
    const part = config.fsdp ? await dp.reduceScatter(grad) : grad;   // FSDP keeps only its shard of the sum
    for (let i = 0; i < part.length; i++) t.g[i] += part[i];
    k.release(grad);
  };

  const stashes = new Map(), dys = new Map();   // "mb:c" → per block { x, pre, dy?, dH? }; the last chunk's dY
  const kept = (b) => (b.moe ? b.bytes : b.x.byteLength + b.pre.byteLength + (b.dH ? b.dy.byteLength + b.dH.byteLength : 0));
  // An MoE block forward: route, dispatch, experts, combine (lab_moe.js); its load counted for the page.
  const moeForward = async (x, blk) => {
    const out = await moeBlockForward(x, blk, rank.ep, k);
    if (!rank.load.has(blk.block)) rank.load.set(blk.block, { wanted: new Array(layout.experts).fill(0), kept: new Array(layout.experts).fill(0) });
    countLoad(rank.load.get(blk.block), out.saved.route, layout.rows, layout.topK);
    return out;
  };
  let live = 0, lossSum = 0;
  const { ops } = rank;
  const splitW = new Set(ops.filter((o) => o.op === "W").map((o) => `${o.mb}:${o.chunk}`));
  rank.schedule = ops.map((o) => o.op + named(o.mb, o.chunk));
  for (const { op, mb, chunk } of ops) {
    const key = `${mb}:${chunk}`, base = Math.floor(chunk / P) * per;   // the chunk's first block among mine
    if (layout.chunks > 1) activity.chunk = chunk;
    if (op === "F") {
      const from = stageRank((chunk - 1 + P) % P);
      let x = chunk === 0 ? rowsOf(batch.inputs, mb)
        : await activity.during("bubble", `wait for stage ${(chunk - 1 + P) % P}`, () => ctx.recv(from, { tag: tag("F", mb, chunk) }));
      const stash = [];
      for (let j = 0; j < per; j++) {
        const blk = blocks[base + j];
        const { y, saved } = blk.moe ? await moeForward(x, blk)
          : returnedFields("tpBlockForward", await tpBlockForward(x, await weights(base + j), tp, k), { y: x.length, saved: null });
        stash.push(saved);
        live += kept(saved);
        x = y;
      }
      stashes.set(key, stash);
      memory.activations = Math.max(memory.activations, live);
      rank.peakInFlight = Math.max(rank.peakInFlight, stashes.size);
      if (chunk === C - 1) {
        const { loss, grad } = k.mseLoss(x, rowsOf(batch.targets, mb));
        for (let i = 0; i < grad.length; i++) grad[i] /= m;       // mean over micro-batches = mean over rows
        dys.set(mb, grad);
        lossSum += loss;
      } else {
        ctx.send(stageRank((chunk + 1) % P), x, { tag: tag("F", mb, chunk + 1) });
      }
    } else if (op === "B") {
      const from = stageRank((chunk + 1) % P);
      let dy = chunk === C - 1 ? dys.get(mb)
        : await activity.during("bubble", `wait for stage ${(chunk + 1) % P}`, () => ctx.recv(from, { tag: tag("B", mb, chunk) }));
      const stash = stashes.get(key), split = splitW.has(key);
      for (let j = per - 1; j >= 0; j--) {
        if (blocks[base + j].moe) {   // whole backward here, also under ZB-H1: its W would need the all-to-alls again
          dy = await moeBlockBackward(dy, stash[j], blocks[base + j], rank.ep, k);
          live -= kept(stash[j]);
          stash[j] = null;
          continue;
        }
        const w = await weights(base + j);
        if (split) {   // B alone: the input gradient now, dY and dH kept for this chunk's W
          live -= kept(stash[j]);
          dy = await tpBlockBackwardInput(dy, stash[j], w, tp, k);
          live += kept(stash[j]);
          memory.activations = Math.max(memory.activations, live);
          continue;
        }
        const { dx, dWIn, dWOut } = returnedFields("tpBlockBackward", await tpBlockBackward(dy, stash[j], w, tp, k),
          { dx: dy.length, dWIn: w.wIn.length, dWOut: w.wOut.length });
        await accumulate(blocks[base + j].wIn, dWIn);
        await accumulate(blocks[base + j].wOut, dWOut);
        live -= kept(stash[j]);
        dy = dx;
      }
      if (!split) stashes.delete(key);
      if (chunk === C - 1) dys.delete(mb);
      if (chunk > 0) ctx.send(stageRank((chunk - 1 + P) % P), dy, { tag: tag("B", mb, chunk - 1) });
    } else {         // W: the weight gradients nobody waits for, from what B kept
      const stash = stashes.get(key);
      for (let j = per - 1; j >= 0; j--) {
        if (!stash[j]) continue;   // an MoE block: done in B
        const { dWIn, dWOut } = tpBlockBackwardWeight(stash[j], k);
        await accumulate(blocks[base + j].wIn, dWIn);
        await accumulate(blocks[base + j].wOut, dWOut);
        live -= kept(stash[j]);
      }
      stashes.delete(key);
    }
  }
  activity.chunk = undefined;

  // The mean over dp replicas: FSDP's reduce-scatters already summed each shard; DP replicas sync here.
  if (config.fsdp) {
    for (const t of tensors) for (let i = 0; i < t.g.length; i++) t.g[i] /= dp.size;
  } else {
    // Dense weights and routers over dp; an expert's gradient over the dp/ep ranks that hold it.
    const shared = tensors.filter((t) => t.expert < 0), experts = tensors.filter((t) => t.expert >= 0);
    dp.begin("all-reduce");
    await activity.during("all-reduce", "gradient sync over dp", () => syncGradients(shared.map((t) => t.g), dp));
    if (experts.length) {
      rank.edp.begin("all-reduce");
      await activity.during("all-reduce", "expert gradients over their dp/ep replicas", () => syncExpertGradients(experts.map((t) => t.g), rank.edp, rank.ep));
    }
  }
  for (const t of tensors) k.optimizerStep(config.optimizer, step + 1, t.w, t.g, t.m, t.v);   // in place
  return last ? lossSum / m : NaN;
}

// What a replaceable block function returned, checked before the trainer uses it, so that a missing return or field
// is named — as Week 5's blockForward is — instead of surfacing as a TypeError inside the trainer.
// fields: { name: the length of its array (a Float64Array in the reference), or null for any value but undefined }.
export function returnedFields(fn, value, fields) {
  const shape = `{ ${Object.keys(fields).join(", ")} }`;
  if (value === null || typeof value !== "object") {
    throw new Error(`${fn} must return ${shape} (it returned ${value === undefined ? "nothing: is its return missing?" : String(value)})`);
  }
  for (const [field, n] of Object.entries(fields)) {
    const v = value[field];
    if (n === null ? v === undefined : v?.length !== n) {
      throw new Error(`${fn} must return ${shape}` + (n === null ? `; ${field} is missing`
        : `; ${field} must be a Float64Array of ${n} values (got ${v === undefined ? "none" : v?.length ?? typeof v})`));
    }
  }
  return value;
}
