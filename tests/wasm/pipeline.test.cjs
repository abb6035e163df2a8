// Week 5's pipeline schedules through the wasm core: the timeline a page draws, and the bubbles of GPipe, 1F1B,
// interleaved 1F1B and ZB-H1 at the same (P, m) against their papers' formulas (unit times, by hand).
const test = require("node:test");
const assert = require("node:assert/strict");
const loadCore = require("./load_core.cjs");

test("ZB-H1 timeline: 3m + P − 1, a third of 1F1B's bubble, B and W as separate spans", async () => {
  const core = await loadCore();
  const zb = core.pipelineTimeline({ schedule: "zb-h1", devices: 4, microBatches: 8 });
  assert.equal(zb.makespan, 27);                 // 3·8 + 4 − 1
  assert.equal(zb.bubbleOverIdeal, 3 / 24);      // (P − 1)/(3m)
  assert.deepEqual(zb.peakActivations, [4, 4, 4, 4]);
  assert.equal(zb.messages, 48);
  assert.equal(zb.timeline.length, 4 * 8 * 3);  // F, B, W per micro-batch per device
  const kinds = new Set(zb.timeline.map((s) => s.kind));
  assert.deepEqual([...kinds].sort(), ["B", "F", "W"]);
  const ofob = core.pipelineTimeline({ schedule: "1f1b", devices: 4, microBatches: 8 });
  assert.equal(ofob.makespan, 33);               // 3(m + P − 1): a full backward is B + W
  assert.equal((ofob.makespan - ofob.ideal) / (zb.makespan - zb.ideal), 3);
  // The last device never idles after its first forward at P − 1 = 3.
  const last = zb.timeline.filter((s) => s.device === 3);
  assert.equal(last[0].start, 3);
  for (let k = 1; k < last.length; ++k) assert.equal(last[k].start, last[k - 1].end);
});

test("interleaved: (v·m + P − 1)(t_f + t_b), chunks on device c mod P", async () => {
  const core = await loadCore();
  const r = core.pipelineTimeline({ schedule: "interleaved", devices: 4, microBatches: 8, chunksPerDevice: 2,
                                    forward: 1, backwardInput: 1, backwardWeight: 0 });
  assert.equal(r.makespan, (2 * 8 + 3) * 2);
  assert.equal(r.bubbleOverIdeal, 3 / 16);
  assert.ok(r.timeline.every((s) => s.chunk % 4 === s.device && s.kind !== "B"));
  assert.deepEqual(r.peakActivations, [11, 9, 7, 5]);
  assert.equal(r.messages, 2 * 8 * 7);
});

test("pipelineCompare: measured bubble equals each formula at P = 4, m = 8, v = 2", async () => {
  const core = await loadCore();
  const rows = core.pipelineCompare({ devices: 4, microBatches: 8, chunksPerDevice: 2 });
  assert.deepEqual(rows.map((r) => r.name), ["gpipe", "1f1b", "interleaved", "zb-h1"]);
  for (const r of rows) assert.ok(Math.abs(r.bubbleOverIdeal - r.formulaOverIdeal) < 1e-12, r.name);
  assert.deepEqual(rows.map((r) => r.formulaOverIdeal), [3 / 8, 3 / 8, 3 / 16, 3 / 24]);
  assert.deepEqual(rows.map((r) => r.peakStageActivations), [8, 4, 5.5, 4]);
});

test("bad requests become readable errors", async () => {
  const core = await loadCore();
  assert.throws(() => core.pipelineTimeline({ schedule: "interleaved", devices: 4, microBatches: 6, chunksPerDevice: 2 }),
                /multiple of the devices \(m = 6, P = 4\)/);
  assert.throws(() => core.pipelineTimeline({ schedule: "zb-h2", devices: 4, microBatches: 8 }),
                /choose gpipe, 1f1b, interleaved or zb-h1/);
  assert.throws(() => core.pipelineTimeline({ schedule: "1f1b", devices: 0, microBatches: 8 }),
                /pipelineTimeline: devices must be a whole number >= 1/);
  assert.throws(() => core.pipelineCompare({ devices: 4, microBatches: 8, chunksPerDevice: 1 }),
                /pipelineCompare: the interleaved row needs v >= 2 chunks per device, got 1/);
  assert.equal(core.pipelineTimeline({ schedule: "gpipe", devices: 2, microBatches: 2 }).makespan, 9);
});

test("pipelineTrain: interleaved and ZB-H1 train equal to one device", async () => {
  const core = await loadCore();
  const model = { layers: 8, width: 8, hidden: 16, activation: "tanh" };
  const optimizer = { kind: "adam", lr: 0.01 };
  for (const [schedule, devices, chunksPerDevice] of [["interleaved", 2, 2], ["zb-h1", 4, 1]]) {
    const r = core.pipelineTrain({ schedule, devices, chunksPerDevice, microBatches: 4, model, optimizer,
                                   batch: 8, steps: 3 });
    assert.ok(r.maxRelativeDifference < 1e-12, `${schedule}: ${r.maxRelativeDifference}`);
    for (let k = 0; k < 3; ++k) assert.ok(Math.abs(r.losses[k] - r.singleLosses[k]) <= 1e-12 * r.singleLosses[k]);
    assert.equal(r.messages, 2 * 4 * (devices * chunksPerDevice - 1));
  }
  assert.throws(() => core.pipelineTrain({ schedule: "interleaved", devices: 4, chunksPerDevice: 3, microBatches: 4,
                                           model, optimizer, batch: 8, steps: 1 }), /P·v = 12/);
});
