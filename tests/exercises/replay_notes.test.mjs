// Every code exercise whose checker replays the learner's messages on a simulated cluster ("Replayed on a simulated
// cluster (α = 5 µs, 25 GB/s links), your messages take …") is run with its reference solution, and the replayed
// time must be the algorithm's closed form (a correct ring must not be told it took 145 µs against the formula's
// 80 µs). The runs are the judge's (virtual clock), then their times are coarsened as a Worker's clock is
// (0.1 ms in some browsers) — every send and the receive after it then tie, which is what made the replay add
// dependencies the program does not have. The replay must follow program order (sendOrder / recvOrder), not the clock.
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

import { EXERCISES, sourceOf } from "./course.mjs";
import { REFERENCE_NET, programOrderTrace } from "../../web/exercise/collective_checks.js";
import { runLocal } from "../../web/cluster/local_cluster.js";
import { mulberry32 } from "../../web/exercise/random.js";
import { formatSeconds } from "../../web/units.js";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
const { alpha, beta } = REFERENCE_NET;
const BYTES = 8;

// What the reference's messages must take when replayed, for an exercise that declares `replays: { collective,
// algorithm, numbers(testCase) }`: the closed form of its algorithm (Thakur, Rabenseifner & Gropp 2005) at n numbers.
// The formula assumes p chunks of n/p numbers; with n mod p ≠ 0 every step carries the largest chunk ⌈n/p⌉ on some
// link (each step moves every chunk once), so the replay is the formula at p·⌈n/p⌉ numbers — the formula itself when
// p divides n (for the ring: 2(p − 1)(α + 8⌈n/p⌉β)).
function closedForm({ collective, algorithm, numbers }, testCase) {
  const p = testCase.ranks, n = numbers(testCase);
  const cost = (count) => core.collectiveCost(collective, algorithm, { ranks: p, bytes: count * BYTES, alpha, beta, gamma: 0 });
  return { formula: cost(n), replay: cost(p * Math.ceil(n / p)), exact: n % p === 0 };
}

// A Worker's clock: times floored to 0.1 ms (the judge's virtual clock moves ~1 µs per step, so nearly all tie).
const coarse = (run) => ({ ...run, trace: run.trace.map((m) => ({ ...m, sendTime: Math.floor(m.sendTime / 1e-4) * 1e-4,
  recvTime: m.recvTime === null ? null : Math.floor(m.recvTime / 1e-4) * 1e-4 })) });

const replayed = EXERCISES.filter((e) => e.replays);

// The notes come from replayNote (collective_checks.js); the exercise's `replays` field says what it compares with.
test("every code exercise whose checker writes a replay note declares what it replays", () => {
  for (const e of EXERCISES.filter((x) => x.kind === "code" && /replayNote\(/.test(x.check.toString()))) {
    assert.ok(e.replays, `${e.id}: its checker calls replayNote but the exercise has no \`replays\` field — add ` +
      `{ collective, algorithm, numbers(testCase) } to the exercise in ${sourceOf(e)} and pass it to replayNote ` +
      "(lessons/AUTHORING.md, \"Week 2's code exercises\")");
  }
  assert.ok(replayed.length > 0, "no exercise declares `replays`");
});

for (const e of replayed) {
  test(`${e.id}: the reference's replay equals the closed form, on a coarse clock and under seeded delivery`, async () => {
    for (const seed of [1, 2, 3]) {
      const rng = mulberry32(seed);
      for (const testCase of [...e.cases(rng), ...(e.edgeCases?.(rng) ?? [])]) {
        for (const delivery of [null, { seed }]) {
          const run = coarse(await runLocal(e.solution, { ...testCase, delivery }));
          const want = closedForm(e.replays, testCase);
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

test("w2-ring-allreduce at p = 9, n = 2: 80 µs replayed, as the formula", async () => {
  const e = EXERCISES.find((x) => x.id === "w2-ring-allreduce");
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
