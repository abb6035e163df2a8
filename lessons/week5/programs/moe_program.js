// moe_program.js — Week 5's expert-parallel MoE layer forward as the program every Worker runs (dsml/moe.h,
// dsml/expert_parallel.h): R ranks, rank r holding tokens [r·T, (r+1)·T) of the batch (its group) and experts
// [r·E/R, (r+1)·E/R). The harness routes with the core's router (core.moeRoute: the router is given), runs the experts on
// what arrived, and calls the learner's `dispatch` and `combine` around them; messages are tagged "dispatch" or
// "combine", so the trace shows what each all-to-all sent. The functions are real module functions; their text,
// joined after the learner's, is the program. Weights and data are the core's: init_moe(seed + 1) is
// mlpInit's W_in with F = E for the router (seed + 1) and mlpInit(seed + 2 + e) for expert e; x is the teacher
// task's batch 0 — the same layer core.expertParallel runs.

// What rank r holds: its tokens x (T × D), the router's choices for them (core.moeRoute: softmax of x·W_rᵀ, top-k,
// gates renormalised for top-2; its token group is the rank's T tokens), and its experts' weights. route is what the
// learner is handed ({ expert, gate }, token-major); slots and capacity C = ⌈c·k·T/E⌉ are the core's answer to the
// exercise (first choices before second choices, −1 dropped), for the reference only.
export function moeRankData(core, config, rank) {
  const { moe, tokens: T, ranks: R, seed } = config, D = moe.width, E = moe.experts, k = moe.topK;
  const shape = { layers: 1, width: D, hidden: moe.hidden, activation: moe.activation, residual: false };
  const all = core.teacherBatch({ model: shape, seed, batch: R * T }).inputs;
  const x = all.slice(rank * T * D, (rank + 1) * T * D);
  const router = core.mlpInit({ ...shape, hidden: E, seed: seed + 1 })[0];           // (E × D)
  const routed = core.moeRoute(x, router, T, D, k, moe.capacityFactor);
  const route = { expert: Int32Array.from(routed.expert), gate: routed.gate };
  const perRank = E / R;
  const experts = Array.from({ length: perRank }, (_, l) => {
    const [wIn, wOut] = core.mlpInit({ ...shape, seed: seed + 2 + rank * perRank + l });
    return { wIn, wOut };
  });
  return { x, route, slots: Int32Array.from(routed.slot), capacity: routed.capacity, experts };
}

// Each local expert on the R·C rows that arrived (rank q's C slots at rows q·C …): act(0) = 0, so an empty slot's
// output is zero. → outputs[q]: (E/R)·C·D values for rank q, laid out as its dispatch buffer was.
export function runExperts(core, received, experts, layer, activation) {
  const { ranks: R, capacity: C, width: D, perRank } = layer, rows = R * C;
  const outputs = Array.from({ length: R }, () => new Float64Array(perRank * C * D));
  experts.forEach(({ wIn, wOut }, l) => {
    const xe = new Float64Array(rows * D);
    for (let q = 0; q < R; q++) xe.set(received[q].subarray(l * C * D, (l + 1) * C * D), q * C * D);
    const { act } = core.blockInForward(xe, wIn, rows, D, activation);
    const ye = core.blockOutForward(act, wOut, rows, D);
    for (let q = 0; q < R; q++) outputs[q].set(ye.subarray(q * C * D, (q + 1) * C * D), l * C * D);
  });
  return outputs;
}

export async function main(ctx) {
  const config = ctx.input, { moe, tokens } = config;
  if (!ctx.core) throw new Error("this exercise needs the wasm core in every Worker (ctx.core is null)");
  const { x, route, capacity, experts } = moeRankData(ctx.core, config, ctx.rank);
  const layer = { tokens, width: moe.width, experts: moe.experts, ranks: ctx.size, topK: moe.topK,
                  capacity, perRank: moe.experts / ctx.size };
  const { ranks: R, capacity: C, width: D, perRank } = layer;
  let phase = "dispatch";
  const ep = { rank: ctx.rank, size: R, send: (q, data) => ctx.send(q, data, { tag: phase }),
               recv: (q) => ctx.recv(q, { tag: phase }) };
  const sent = await dispatch(x, route, layer, ep);
  const { slots, received } = sent ?? {};
  if (!slots || slots.length !== tokens * layer.topK) {
    throw new Error(`dispatch must return { slots, received } with slots[t·k + j] for each of the ${tokens * layer.topK} choices`);
  }
  for (let q = 0; q < R; q++) {
    if (received?.[q]?.length !== perRank * C * D) {
      const holds = received?.[q]?.length === undefined ? "no buffer" : `${received[q].length} values`;
      throw new Error(`dispatch's received[${q}] holds ${holds}; every all-to-all buffer ` +
        `is (E/R)·C·D = ${perRank}·${C}·${D} = ${perRank * C * D}: C slots per expert, empty ones zero`);
    }
  }
  const outputs = runExperts(ctx.core, received, experts, layer, moe.activation);
  phase = "combine";
  const y = await combine(x, route, slots, outputs, layer, ep);
  if (!(y instanceof Float64Array) || y.length !== tokens * D) {
    throw new Error(`combine must return this rank's output, a Float64Array of T × D = ${tokens * D} values`);
  }
  return { y, slots: Array.from(slots), expert: Array.from(route.expert) };   // expert: for the page's load per expert
}

export function moeProgram(learnerCode) {
  return [learnerCode, moeRankData, runExperts, main].map(String).join("\n\n") + "\n";
}

export const moeInputs = (config) => Array.from({ length: config.ranks }, () => config);

// The single-device layer with one token group per rank: per rank the slots (the core's router), the output y, and
// yUngated (the same without the gate — a diagnosis, not a reference), each expert applied one assignment at a time.
// tests/exercises/week5_code.test.mjs proves it equal to core.expertParallel (load, wanted, dropped, loss).
export function moeReference(core, config) {
  const { moe, tokens: T, ranks: R } = config, D = moe.width, E = moe.experts, k = moe.topK;
  const shape = { layers: 1, width: D, hidden: moe.hidden, activation: moe.activation, residual: false };
  const weights = Array.from({ length: E }, (_, e) => core.mlpInit({ ...shape, seed: config.seed + 2 + e }));
  const expertOf = (e, row) => {
    const { act } = core.blockInForward(row, weights[e][0], 1, D, moe.activation);
    return core.blockOutForward(act, weights[e][1], 1, D);
  };
  const load = new Array(E).fill(0), wanted = new Array(E).fill(0);
  let capacity = 0;
  const ranks = Array.from({ length: R }, (_, r) => {
    const { x, route, slots, capacity: C } = moeRankData(core, config, r);
    capacity = C;
    const y = Float64Array.from(x), yUngated = Float64Array.from(x);
    for (let t = 0; t < T; t++) {
      for (let j = 0; j < k; j++) {
        const e = route.expert[t * k + j];
        wanted[e] += 1;
        if (slots[t * k + j] < 0) continue;
        load[e] += 1;
        const out = expertOf(e, x.subarray(t * D, (t + 1) * D)), g = route.gate[t * k + j];
        for (let i = 0; i < D; i++) { y[t * D + i] += g * out[i]; yUngated[t * D + i] += out[i]; }
      }
    }
    return { x, route, slots: Array.from(slots), y, yUngated };
  });
  const dropped = R * T * k - load.reduce((a, b) => a + b, 0);
  return { capacity, ranks, load, wanted, dropped, bytesPerRank: (R - 1) * (E / R) * capacity * D * 8 };
}
