// dp_train.js — one replica of Week 3's data-parallel trainer. Every Worker holds the whole model and its own
// optimizer, computes the gradient of its rows with the core's kernels (web/programs/replica_model.js), and the replicas
// synchronise over real messages (dp_comm.js, ddp_sync.js). Shipped into the Workers as source text.
//
// ctx.input: { model, optimizer, batch B, steps, seed, sync: "naive" | "flat" | "bucketed", bucketBytes,
//              accumulation k (default 1), shards: rows per replica (default B/P each) }
// The batch of step s is the core's teacher batch (seed, s, B) — what core.trainSingle trains on — and the
// student starts from mlpInit(seed + 1), so a correct run ends with single-device training's parameters.
// Replica d takes rows [Σ_{e<d} shards_e, + shards_d) of it.

export async function main(ctx) {
  const config = ctx.input, P = ctx.size, D = config.model.width;
  if (!ctx.core) throw new Error("the trainer needs the wasm core in every Worker (ctx.core is null)");
  const k = config.accumulation ?? 1;
  const shards = config.shards ?? Array.from({ length: P }, () => config.batch / P);
  if (shards.length !== P || shards.some((r) => !Number.isInteger(r) || r < 1 || r % k)
      || shards.reduce((a, b) => a + b, 0) !== config.batch) {
    throw new Error(`the shards [${shards}] must be ${P} whole numbers ≥ 1, each divisible by k = ${k}, summing to B = ${config.batch}`);
  }
  const timeline = makeTimeline(ctx);
  const dp = makeDpGroup(ctx, timeline);
  const kernels = dpKernels(ctx.core, config.model, timeline);
  const params = ctx.core.mlpInit({ ...config.model, seed: config.seed + 1 });
  const sizes = params.map((w) => w.length);
  const state = params.map(() => ({ m: new Float64Array(0), v: new Float64Array(0) }));
  const first = shards.slice(0, ctx.rank).reduce((a, b) => a + b, 0), rows = shards[ctx.rank];
  const equal = shards.every((r) => r === shards[0]);
  const stepSeconds = [];
  let backwardEnd = 0;
  const launches = [];   // last step: after tensor i's ready(), how many all-reduces had been launched
  for (let step = 0; step < config.steps; step++) {
    timeline.recording = step === config.steps - 1;   // the timeline shows the last step
    dp.step = step;
    const start = ctx.now();
    const batch = ctx.core.teacherBatch({ model: config.model, seed: config.seed, step, batch: config.batch });
    const part = (buf, from, n) => buf.slice((first + from) * D, (first + from + n) * D);
    let grads, loss;
    if (k > 1) {
      // Gradient accumulation: k micro-batches of rows/k, summed, then one sync.
      const losses = [], n = rows / k;
      grads = sizes.map((s) => new Float64Array(s));
      const microGrads = async (j) => {
        const out = localGradients(kernels, params, part(batch.inputs, j * n, n), part(batch.targets, j * n, n));
        losses.push(out.loss);
        await pause();
        return out.grads;
      };
      await accumulateAndSync(k, microGrads, grads, dp);
      loss = losses.reduce((a, b) => a + b, 0) / losses.length;
    } else if (!equal) {
      ({ grads, loss } = localGradients(kernels, params, part(batch.inputs, 0, rows), part(batch.targets, 0, rows)));
      await syncWeighted(grads, rows, dp);
    } else {
      const reducer = config.sync === "naive" ? naiveReducer(sizes, dp)
        : config.sync === "flat" ? flatReducer(sizes, dp) : makeBucketReducer(sizes, dp, config.bucketBytes);
      // DDP's autograd hook: as each gradient is finished the reducer sees it, then backward goes on.
      const base = dp.calls;
      const forward = forwardLoss(kernels, params, part(batch.inputs, 0, rows), part(batch.targets, 0, rows));
      loss = forward.loss;
      grads = new Array(params.length);
      for (const { i, grad } of backwardGradients(kernels, params, forward.saved, forward.dy)) {
        grads[i] = grad;
        reducer.ready(i, grad);
        if (timeline.recording) launches.push({ tensor: i, launched: dp.calls - base });
        await pause();   // DDP's autograd hook has run: let the launched all-reduces move, then go on
      }
      if (timeline.recording) backwardEnd = ctx.now() / 1000;
      await reducer.finish(grads);
    }
    for (const [i, g] of grads.entries()) {
      const out = kernels.optimizerStep(config.optimizer, step + 1, params[i], g, state[i].m, state[i].v);
      params[i] = out.w;
      state[i] = { m: out.m, v: out.v };
    }
    stepSeconds.push((ctx.now() - start) / 1000);
    ctx.progress({ step, loss, rows });   // the page's live curve, not output
  }
  return { params, timeline: timeline.segments, backwardEnd, launches, stepSeconds };
}
