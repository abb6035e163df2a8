// Week 2's core from JavaScript: schedules are plain data that round-trip and verify, closed forms match the
// simulator on a contention-free switch, topologies and recorded traces simulate, and bad input is an Error.
const test = require("node:test");
const assert = require("node:assert/strict");
const loadCore = require("./load_core.cjs");

const close = (got, want, rel = 1e-12) =>
  assert.ok(Math.abs(got - want) <= rel * Math.abs(want), `got ${got}, want ${want}`);
const switchOf = (alpha, beta) => ({ kind: "fully-connected", alpha, beta });

test("every listed algorithm yields a schedule that verifies, for several p", async () => {
  const core = await loadCore();
  const list = core.listAlgorithms();
  assert.ok(list.length >= 17, `${list.length} algorithms`);
  for (const { collective, algorithm } of list) {
    for (const ranks of [1, 2, 3, 4, 6, 8]) {
      if (algorithm === "hierarchical" && ranks % 2) continue;
      const s = core.schedule(collective, algorithm, { ranks, bytes: 4 * 3 * ranks + 8, devicesPerNode: 2 });
      const v = core.verifySchedule(s);
      assert.ok(v.ok, `${collective}/${algorithm} p=${ranks}: ${v.message}`);
    }
  }
});

test("a broken schedule fails verification with a message naming the rank", async () => {
  const core = await loadCore();
  const s = core.schedule("all-reduce", "ring", { ranks: 4, bytes: 64 });
  const reduce = s.steps[2].findIndex((st) => st.op === "recv-reduce");
  s.steps[2][reduce].op = "recv-copy";  // overwrite instead of sum: a contribution is lost
  const v = core.verifySchedule(s);
  assert.equal(v.ok, false);
  assert.match(v.message, /rank \d/);
});

test("closed form = simulated time on a switch (ring all-reduce, p = 8)", async () => {
  const core = await loadCore();
  const [alpha, beta, gamma, ranks, bytes] = [5e-6, 1 / 25e9, 1e-11, 8, 8 * 4 * 1000];
  const closed = core.collectiveCost("all-reduce", "ring", { ranks, bytes, alpha, beta, gamma });
  close(closed, 2 * (ranks - 1) * alpha + 2 * ((ranks - 1) / ranks) * bytes * beta + ((ranks - 1) / ranks) * bytes * gamma);
  const sim = core.simulateCollective({ collective: "all-reduce", algorithm: "ring", ranks, bytes, gamma, topology: switchOf(alpha, beta) });
  close(sim.makespan, closed);
  assert.equal(sim.messages.length, 2 * ranks * (ranks - 1));
  assert.ok(core.lowerBound("all-reduce", { ranks, bytes, alpha, beta, gamma }) <= closed);
  const { algbw, busbw } = core.busBandwidth("all-reduce", 8, 1e9, 0.1);
  close(algbw, 1e10);
  close(busbw, 1e10 * 2 * 7 / 8);
});

test("topologies: contention makes a ring network slower than a switch; link loads are named", async () => {
  const core = await loadCore();
  const request = { collective: "all-to-all", algorithm: "pairwise", ranks: 8, bytes: 8 * 4 * 1024 };
  const onSwitch = core.simulateCollective({ ...request, topology: switchOf(1e-6, 1e-9) });
  const onRing = core.simulateCollective({ ...request, topology: { kind: "ring", alpha: 1e-6, beta: 1e-9 } });
  assert.ok(onRing.makespan > onSwitch.makespan);
  assert.match(onRing.busiestLink.name, /ring/);
  assert.ok(onRing.linkBusy.length > 0 && onRing.linkBusy.every((l) => typeof l.name === "string" && l.busy >= 0));
  const hier = core.simulateCollective({ collective: "all-reduce", algorithm: "hierarchical", ranks: 8, bytes: 8 * 4 * 256,
    devicesPerNode: 4, topology: { kind: "hierarchical", nodes: 2, perNode: 4, intra: { alpha: 1e-6, beta: 1e-11 }, inter: { alpha: 5e-6, beta: 4e-11 } } });
  assert.ok(hier.makespan > 0);
  // No link used (one rank): no busiest link is null, recorded or not — as in simulateParamServer and the CLI.
  const alone = { collective: "all-reduce", algorithm: "ring", ranks: 1, bytes: 1024, topology: switchOf(1e-6, 1e-9) };
  alone.topology.ranks = 1;
  assert.equal(core.simulateCollective(alone).busiestLink, null);
  assert.equal(core.simulateCollective({ ...alone, record: false }).busiestLink, null);
});

test("a recorded trace replays through the simulator", async () => {
  const core = await loadCore();
  const trace = [0, 1, 2].map((r) => ({ src: r, dst: (r + 1) % 3, bytes: 8, sendTime: r, recvTime: r + 0.5 }));
  const result = core.simulateTrace({ ranks: 3, topology: switchOf(1e-6, 1e-9), trace });
  close(result.makespan, 3 * (1e-6 + 8e-9));
});

test("bad input is a readable Error", async () => {
  const core = await loadCore();
  const cases = [
    [() => core.schedule("all-reduce", "telepathy", { ranks: 4, bytes: 64 }), /telepathy/],
    [() => core.schedule("all-reduce", "ring", { ranks: 4, bytes: 6 }), /4|multiple/],
    [() => core.schedule("all-reduce", "hierarchical", { ranks: 6, bytes: 64, devicesPerNode: 4 }), /devices/],
    [() => core.simulateCollective({ collective: "all-reduce", algorithm: "ring", ranks: 8, bytes: 64,
      topology: { kind: "torus2d", rows: 3, cols: 3, alpha: 1e-6, beta: 1e-9 } }), /9 ranks but the run needs 8/],
    [() => core.simulateCollective({ collective: "all-reduce", algorithm: "ring", ranks: 4, bytes: 64, topology: { kind: "mesh" } }), /topology.kind/],
    [() => core.simulateTrace({ ranks: 2, topology: switchOf(1e-6, 1e-9), trace: [{ src: 0, dst: 5, bytes: 1, sendTime: 0 }] }), /rank 5/],
    [() => core.verifySchedule({ collective: "all-reduce", ranks: 2, slotBytes: [4], steps: [[{ op: "fly", peer: 1, slots: [0] }], []] }), /op must be/],
    [() => core.busBandwidth("all-reduce", 0, 1, 1), /ranks/],
  ];
  for (const [call, pattern] of cases) {
    assert.throws(call, (err) => { assert.ok(err instanceof Error); assert.match(err.message, pattern); return true; });
  }
});
