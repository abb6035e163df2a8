// Every code exercise whose checker replays the learner's messages on a simulated cluster ("Replayed on a simulated
// cluster (α = 5 µs, 25 GB/s links), your messages take …") is run with its reference solution, and the replayed
// time must be the algorithm's closed form (issue 25 §4.10: a correct ring was told it took 145 µs against the
// formula's 80 µs). The runs are the judge's (virtual clock), then their times are coarsened as a Worker's clock is
// (0.1 ms in some browsers) — every send and the receive after it then tie, which is what made the replay add
// dependencies the program does not have. The replay must follow program order (sendOrder / recvOrder), not the clock.
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

import week2 from "../../lessons/week2/exercises.js";
import { REFERENCE_NET, programOrderTrace } from "../../lessons/week2/exercises/collective_checks.js";
import { runLocal } from "../../web/cluster/local_cluster.js";
import { mulberry32 } from "../../web/exercise/random.js";
import { formatSeconds } from "../../web/units.js";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
const { alpha, beta } = REFERENCE_NET;
const BYTES = 8;

// What the reference's messages must take when replayed, per exercise: the closed form of its algorithm
// (Thakur, Rabenseifner & Gropp 2005). The ring's formula assumes chunks of n/p numbers; with n mod p ≠ 0 every
// step carries the largest chunk ⌈n/p⌉ on some link (each step moves every chunk once), so each step costs
// α + 8⌈n/p⌉β — the formula again when p divides n.
const CLOSED_FORMS = {
  "w2-ring-allreduce": ({ ranks: p, n }) => ({
    formula: core.collectiveCost("all-reduce", "ring", { ranks: p, bytes: n * BYTES, alpha, beta, gamma: 0 }),
    replay: 2 * (p - 1) * (alpha + BYTES * Math.ceil(n / p) * beta), exact: n % p === 0 }),
  "w2-allgather-rd": ({ ranks: p, b }) => {
    const formula = core.collectiveCost("all-gather", "recursive-doubling", { ranks: p, bytes: p * b * BYTES, alpha, beta, gamma: 0 });
    return { formula, replay: formula, exact: true };
  },
  "w2-reduce-scatter-rh": ({ ranks: p, b }) => {
    const formula = core.collectiveCost("reduce-scatter", "recursive-halving", { ranks: p, bytes: p * b * BYTES, alpha, beta, gamma: 0 });
    return { formula, replay: formula, exact: true };
  },
};

// A Worker's clock: times floored to 0.1 ms (the judge's virtual clock moves ~1 µs per step, so nearly all tie).
const coarse = (run) => ({ ...run, trace: run.trace.map((m) => ({ ...m, sendTime: Math.floor(m.sendTime / 1e-4) * 1e-4,
  recvTime: m.recvTime === null ? null : Math.floor(m.recvTime / 1e-4) * 1e-4 })) });

const replayed = week2.filter((e) => e.id in CLOSED_FORMS);

// The notes come from replayNote (collective_checks.js), which only Week 2's checkers call.
test("every code exercise that replays its messages has a closed form here", () => {
  const withNote = week2.filter((e) => e.kind === "code" && /replayNote\(/.test(e.check.toString())).map((e) => e.id);
  assert.deepEqual(withNote.sort(), Object.keys(CLOSED_FORMS).sort());
});

for (const e of replayed) {
  test(`${e.id}: the reference's replay equals the closed form, on a coarse clock and under seeded delivery`, async () => {
    const closed = CLOSED_FORMS[e.id];
    for (const seed of [1, 2, 3]) {
      const rng = mulberry32(seed);
      for (const testCase of [...e.cases(rng), ...(e.edgeCases?.(rng) ?? [])]) {
        for (const delivery of [null, { seed }]) {
          const run = coarse(await runLocal(e.solution, { ...testCase, delivery }));
          const want = closed(testCase);
          const sim = core.simulateTrace({ ranks: testCase.ranks, topology: { kind: "fully-connected", alpha, beta },
                                           trace: programOrderTrace(run.trace) });
          const where = `p = ${testCase.ranks}, ${JSON.stringify({ n: testCase.n, b: testCase.b })}, delivery ${JSON.stringify(delivery)}`;
          assert.ok(Math.abs(sim.makespan / want.replay - 1) < 1e-9, `${where}: replay ${sim.makespan} s, closed form ${want.replay} s`);
          const v = e.check(run, testCase, core);
          assert.ok(v.pass, `${where}: ${v.message}`);
          const took = v.message.match(/your messages take ([^;]+); the [\w-]+ formula gives ([^ ]+ [µm]?s)/);
          assert.ok(took, `${where}: no replay note in ${v.message}`);
          assert.equal(took[1], formatSeconds(sim.makespan), where);
          if (want.exact) assert.equal(took[1], took[2], `${where}: ${v.message}`);
        }
      }
    }
  });
}

test("w2-ring-allreduce at p = 9, n = 2 (the issue's case): 80 µs replayed, as the formula", async () => {
  const e = week2.find((x) => x.id === "w2-ring-allreduce");
  const testCase = { ranks: 9, n: 2, inputs: Array.from({ length: 9 }, (_, r) => ({ data: [r + 1, -r - 1] })) };
  const v = e.check(coarse(await runLocal(e.solution, testCase)), testCase, core);
  assert.ok(v.pass, v.message);
  assert.match(v.message, /your messages take 80 µs; the ring formula gives 80 µs/);
});

test("programOrderTrace: program order when every record has one, the measured times otherwise", () => {
  const ordered = [{ src: 0, dst: 1, bytes: 8, sendTime: 0.001, recvTime: 0.001, sendOrder: 0, recvOrder: 1 },
                   { src: 1, dst: 0, bytes: 8, sendTime: 0.001, recvTime: null, sendOrder: 0, recvOrder: null }];
  assert.deepEqual(programOrderTrace(ordered), [{ src: 0, dst: 1, bytes: 8, sendTime: 0, recvTime: 1 },
                                                { src: 1, dst: 0, bytes: 8, sendTime: 0, recvTime: null }]);
  const old = ordered.map(({ sendOrder, recvOrder, ...m }) => m);
  assert.deepEqual(programOrderTrace(old), old);
});
