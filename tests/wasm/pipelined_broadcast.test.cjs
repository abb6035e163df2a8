// Week 2's pipelined broadcasts from JavaScript: pipelinedBroadcast verifies, simulates and prices one
// schedule; the simulator equals T(k) = (a·k + c)(α + nβ/k); bestSegments is the argmin; the schedules take their
// place in the generic picker (listAlgorithms, schedule, collectiveCost, simulateCollective) with k = p.
const test = require("node:test");
const assert = require("node:assert/strict");
const loadCore = require("./load_core.cjs");

const close = (got, want, rel = 1e-12) =>
  assert.ok(Math.abs(got - want) <= rel * Math.abs(want), `got ${got}, want ${want}`);

test("pipelinedBroadcast: verified, and the simulator equals the closed form", async () => {
  const core = await loadCore();
  for (const algorithm of ["pipelined-chain", "pipelined-tree"])
    for (const ranks of [2, 3, 7, 8, 12])
      for (const segments of [1, 4, 25]) {
        const r = core.pipelinedBroadcast({ algorithm, ranks, bytes: 4000 * segments, segments, root: 1 % ranks,
          alpha: 5e-6, beta: 1 / 25e9 });
        assert.ok(r.verified, `${algorithm} p=${ranks} k=${segments}: ${r.verifyMessage}`);
        assert.equal(r.segments, segments);
        assert.equal(r.messages, segments * (ranks - 1));
        close(r.simulated, r.closedForm.total);
        close(r.closedForm.total, (r.perSegment * segments + r.startup) * (5e-6 + (4000 / 25e9)));
      }
});

test("the Week 2 example: p = 8, 100 MB, 5 µs, 25 GB/s — k = 100 gives 4.77 ms, the best k is 69", async () => {
  const core = await loadCore();
  const r = core.pipelinedBroadcast({ algorithm: "pipelined-chain", ranks: 8, bytes: 1e8, segments: 100,
    alpha: 5e-6, beta: 1 / 25e9 });
  close(r.closedForm.total, 106 * 45e-6);
  close(r.simulated, 106 * 45e-6);
  assert.equal(r.best.segments, 69);
  close(r.best.optimum, Math.sqrt(4800));
  const best = core.bestSegments("pipelined-chain", { ranks: 8, bytes: 1e8, alpha: 5e-6, beta: 1 / 25e9 });
  assert.deepEqual(best, r.best);
  // The same number from the message-time formula the page used before: (p + k − 2) messages of n/k bytes.
  close(best.seconds, core.messagesTime(5e-6, 1 / 25e9, 8 + 69 - 2, 1e8 / 69));
  assert.equal(core.bestSegments("pipelined-tree", { ranks: 8, bytes: 0, alpha: 5e-6, beta: 1e-9 }).segments, 1);
  assert.equal(core.bestSegments("pipelined-chain", { ranks: 8, bytes: 1e6, alpha: 0, beta: 1e-9 }).optimum, Infinity);
});

test("the pipelined broadcasts are in the picker, with k = p segments by default", async () => {
  const core = await loadCore();
  const names = core.listAlgorithms().filter((a) => a.collective === "broadcast").map((a) => a.algorithm);
  assert.deepEqual(names.slice(-2), ["pipelined-chain", "pipelined-tree"]);
  for (const algorithm of ["pipelined-chain", "pipelined-tree"]) {
    const s = core.schedule("broadcast", algorithm, { ranks: 6, bytes: 4 * 6 * 10 });
    assert.equal(s.slotBytes.length, 6);
    assert.ok(core.verifySchedule(s).ok);
    const model = { ranks: 6, bytes: 4 * 6 * 10, alpha: 2e-6, beta: 1e-9 };
    const sim = core.simulateCollective({ collective: "broadcast", algorithm, ranks: 6, bytes: model.bytes,
      topology: { kind: "fully-connected", alpha: 2e-6, beta: 1e-9 } });
    close(sim.makespan, core.collectiveCost("broadcast", algorithm, model));
    close(core.collectiveCost("broadcast", algorithm, model),
      core.pipelinedBroadcast({ algorithm, ...model }).closedForm.total);
  }
});

test("bad input is an Error that names the field", async () => {
  const core = await loadCore();
  assert.throws(() => core.pipelinedBroadcast({ algorithm: "pipelined-ring", ranks: 4, bytes: 64, alpha: 1e-6, beta: 1e-9 }),
    /broadcast has no algorithm "pipelined-ring"/);
  assert.throws(() => core.pipelinedBroadcast({ algorithm: "pipelined-chain", ranks: 4, bytes: 64, segments: 2.5,
    alpha: 1e-6, beta: 1e-9 }), /pipelinedBroadcast: segments must be a whole number/);
  assert.throws(() => core.pipelinedBroadcast({ algorithm: "pipelined-chain", ranks: 1024, bytes: 64, segments: 5000,
    alpha: 1e-6, beta: 1e-9 }), /segments between 1 and 4096/);
  assert.throws(() => core.bestSegments("pipelined-chain", { ranks: 4, bytes: 64, alpha: -1, beta: 1e-9 }), /alpha/);
  // The one cost-model reader: a γ given is read and checked, as everywhere (a broadcast reduces nothing).
  assert.throws(() => core.pipelinedBroadcast({ algorithm: "pipelined-chain", ranks: 4, bytes: 64, alpha: 1e-6,
    beta: 1e-9, gamma: -1 }), /gamma/);
  assert.throws(() => core.simulateCollective({ collective: "all-reduce", algorithm: "ring", ranks: 4, bytes: 64,
    gamma: "fast", topology: { kind: "fully-connected", alpha: 1e-6, beta: 1e-9 } }), /simulateCollective: gamma/);
});
