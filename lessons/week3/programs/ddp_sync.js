// ddp_sync.js — how Week 3's replicas synchronise their gradients, side by side to diff (STYLE 2):
//   naiveReducer        one all-reduce per tensor, after backward                  2L all-reduces, 2L α terms
//   flatReducer         every tensor in one buffer, one all-reduce after backward  1 all-reduce, none overlapped
//   makeBucketReducer   PyTorch DDP's reducer (Li et al. 2020): fixed-size buckets filled in backward order,
//                       each all-reduce LAUNCHED the moment its bucket is complete — it runs while backward
//                       computes the earlier blocks' gradients
// and two variants of the sync itself:
//   syncWeighted        shards of different sizes: weight each replica by its rows (exact full-batch mean)
//   accumulateAndSync   k micro-batches summed locally, then ONE sync: k× the batch, 1/k of the communication
// A reducer is { ready(i, grad), finish(grads) }: ready is called as backward finishes tensor i (last first);
// finish must leave in every grads[i] the mean over the replicas. These functions are shipped into the Workers
// as source text (dp_program.js); the exercises replace the last three with the learner's.

export function naiveReducer(sizes, dp) {
  return {
    ready() {},
    async finish(grads) {
      for (let i = grads.length - 1; i >= 0; i--) {     // backward's order, as the core's naive sync
        await dp.allReduce(grads[i], `tensor ${i}`);
        for (let e = 0; e < grads[i].length; e++) grads[i][e] /= dp.size;
      }
    },
  };
}

export function flatReducer(sizes, dp) {
  return {
    ready() {},
    async finish(grads) {
      const flat = new Float64Array(sizes.reduce((n, s) => n + s, 0));
      let offset = 0;
      for (const g of grads) { flat.set(g, offset); offset += g.length; }
      await dp.allReduce(flat, "everything");
      offset = 0;
      for (const g of grads) { for (let e = 0; e < g.length; e++) g[e] = flat[offset + e] / dp.size; offset += g.length; }
    },
  };
}

// DDP's buckets, as the core cuts them (gradient_buckets): the flat gradient (mlpInit's order) in buckets of
// ⌊bucketBytes / 8⌋ values counted from the END, so bucket 0 holds the last values — the first backward
// finishes. A bucket is complete once backward has produced every value in it; launch its all-reduce then,
// and await them all only in finish().
export function makeBucketReducer(sizes, dp, bucketBytes) {
  const offsets = [0];
  for (const s of sizes) offsets.push(offsets[offsets.length - 1] + s);
  const total = offsets[sizes.length], per = Math.max(1, Math.floor(bucketBytes / 8));
  const flat = new Float64Array(total);
  const buckets = [];
  for (let end = total; end > 0; end = Math.max(0, end - per)) buckets.push({ begin: Math.max(0, end - per), end });
  let filledFrom = total;       // flat[filledFrom …] holds finished gradients
  let next = 0;                 // the next bucket to launch
  const inFlight = [];
  return {
    ready(i, grad) {
      flat.set(grad, offsets[i]);
      filledFrom = Math.min(filledFrom, offsets[i]);
      while (next < buckets.length && buckets[next].begin >= filledFrom) {
        const { begin, end } = buckets[next];
        inFlight.push(dp.allReduce(flat.subarray(begin, end), `bucket ${next}`));   // launched, not awaited
        next += 1;
      }
    },
    async finish(grads) {
      await Promise.all(inFlight);
      grads.forEach((g, i) => { for (let e = 0; e < g.length; e++) g[e] = flat[offsets[i] + e] / dp.size; });
    },
  };
}

// Replica d computed the MEAN gradient of its own rows (rows_d of them). The full-batch gradient is the mean
// over ALL rows: Σ_d rows_d·g_d / Σ_d rows_d. Nobody knows Σ rows: it travels in the same all-reduce.
export async function syncWeighted(grads, rows, dp) {
  const total = grads.reduce((n, g) => n + g.length, 0);
  const flat = new Float64Array(total + 1);
  let offset = 0;
  for (const g of grads) { for (let e = 0; e < g.length; e++) flat[offset + e] = rows * g[e]; offset += g.length; }
  flat[total] = rows;                                  // the last value sums to the global batch size
  await dp.allReduce(flat);
  offset = 0;
  for (const g of grads) { for (let e = 0; e < g.length; e++) g[e] = flat[offset + e] / flat[total]; offset += g.length; }
}

// microGrads(j) resolves to the gradients of micro-batch j (the mean over its rows). Their mean over the k
// micro-batches is this replica's gradient of its whole shard; one all-reduce then averages the replicas.
export async function accumulateAndSync(k, microGrads, grads, dp) {
  for (let j = 0; j < k; j++) {
    const g = await microGrads(j);
    g.forEach((t, i) => { for (let e = 0; e < t.length; e++) grads[i][e] += t[e]; });
  }
  const total = grads.reduce((n, g) => n + g.length, 0);
  const flat = new Float64Array(total);
  let offset = 0;
  for (const g of grads) { flat.set(g, offset); offset += g.length; }
  await dp.allReduce(flat);                            // the only communication of the step
  offset = 0;
  for (const g of grads) { for (let e = 0; e < g.length; e++) g[e] = flat[offset + e] / (k * dp.size); offset += g.length; }
}

