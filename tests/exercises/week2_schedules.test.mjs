// week2_schedules.test.mjs — every collective algorithm the core lists, as Week 2's "animate" widget shows it (p = 5,
// p = 8 for hierarchical; 64 floats a rank): the symbolic replay of its schedule (widgets/schedule_replay.js) ends
// with what the collective promises and never counts a contribution twice, and the same schedule run on the judge
// cluster with real data (programs/run_schedule.js, the program the page's Workers run) leaves every promised slot
// holding the sum of its contributors' values. The page runs one algorithm on real Workers (tests/e2e/week2_widgets).
//   node --test tests/exercises/week2_schedules.test.mjs
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

import { initialHoldings, replaySchedule } from "../../lessons/week2/widgets/schedule_replay.js";
import { RUN_SCHEDULE, initialValue, scheduleInputs } from "../../lessons/week2/programs/run_schedule.js";
import { runLocal } from "../../web/cluster/local_cluster.js";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
const devicesPerNode = (p) => (p % 4 === 0 ? 4 : p % 2 === 0 ? 2 : 1);   // as the widget chooses
const all = (p) => Array.from({ length: p }, (_, r) => r);

// What each collective promises, by its definition: [rank, slot, contributors] for every slot it makes a promise
// about. (All-to-all: slot src·p + dst starts on src and ends on dst. Reduce-scatter: slot s ends reduced on its owner.)
function promised({ collective, ranks: p, root, owner, slotBytes }) {
  const slots = slotBytes.length, out = [];
  for (let r = 0; r < p; r++) {
    for (let s = 0; s < slots; s++) {
      if (collective === "all-reduce") out.push([r, s, all(p)]);
      if (collective === "broadcast") out.push([r, s, [root]]);
      if (collective === "all-gather") out.push([r, s, [owner[s]]]);
      if (collective === "reduce" && r === root) out.push([r, s, all(p)]);
      if (collective === "reduce-scatter" && owner[s] === r) out.push([r, s, all(p)]);
      if (collective === "all-to-all" && s % p === r) out.push([r, s, [Math.floor(s / p)]]);
    }
  }
  return out;
}

for (const { collective, algorithm } of core.listAlgorithms()) {
  const p = algorithm === "hierarchical" ? 8 : 5;
  test(`${collective}, ${algorithm} on ${p} ranks: the replay ends as the collective promises, and so do the ranks' buffers`, async () => {
    const request = { ranks: p, bytes: 4 * 64 * p, devicesPerNode: devicesPerNode(p) };
    const schedule = core.schedule(collective, algorithm, request);
    const sim = core.simulateCollective({ collective, algorithm, ...request, topology: { kind: "fully-connected", alpha: 1e-6, beta: 1e-9 } });
    const frames = replaySchedule(schedule, sim.messages);
    const promises = promised(schedule);
    assert.ok(promises.length >= 1, "the collective promises something");
    for (const f of frames) assert.deepEqual(f.doubleCounted, [], `a double count at t = ${f.time}`);
    const final = frames.at(-1).holdings;
    for (const [r, s, owners] of promises) assert.deepEqual(final[r][s], owners, `rank ${r} slot ${s}`);

    const { inputs, slotElements } = scheduleInputs(schedule, initialHoldings(schedule));
    const run = await runLocal(RUN_SCHEDULE, { ranks: p, inputs, core, timeoutMs: 60000 });
    assert.equal(run.status, "ok", run.error?.message);
    for (const [r, s, owners] of promises) {
      const want = Float32Array.from({ length: slotElements[s] }, (_, i) => owners.reduce((sum, o) => sum + initialValue(o, s, i), 0));
      assert.deepEqual(Array.from(run.results[r][s]), Array.from(want), `rank ${r} slot ${s}`);
    }
  });
}
