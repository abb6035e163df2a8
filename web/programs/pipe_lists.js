// pipe_lists.js — the operation lists every Worker of a pipeline runs (Week 5's devices, lessons/week5/programs/
// pipe_device.js, and the lab's stages, lessons/lab/programs/lab_train.js): per device, in order,
// { op: "F" | "B" | "W", mb, chunk }. The model is cut into C = P·v chunks and chunk c lives on device c mod P (v
// chunks per device; v = 1 but for interleaved). F(mb, c) runs micro-batch mb forward through chunk c; B(mb, c) its
// backward — the input gradient AND the weight gradient, unless the list also has a W(mb, c): then B is only the
// input gradient (what chunk c − 1 waits for) and W the weight gradient that nobody waits for (Qi et al., ICLR 2024).
// The lists are the core's schedules (core/pipeline/*.cpp through core.pipelineTimeline), so a Workers run and the
// drawn timeline are one schedule; in an exercise they are the learner's, checked. Shipped into the Workers as
// source text: self-contained functions only.

// The core's schedule (config.schedule: "gpipe", "1f1b", "interleaved", "zb-h1") as one list per device: its timeline
// holds every op by device in execution order; a full backward (BW) is the list's B without a W.
export function coreLists(core, config) {
  const interleaved = config.schedule === "interleaved";
  const { timeline } = core.pipelineTimeline({ schedule: config.schedule, devices: config.devices,
    microBatches: config.microBatches, chunksPerDevice: interleaved ? config.chunksPerDevice : 1 });
  const lists = Array.from({ length: config.devices }, () => []);
  for (const s of timeline) lists[s.device].push({ op: s.kind === "BW" ? "B" : s.kind, mb: s.microBatch, chunk: s.chunk });
  return lists;
}

// The generator a learner wrote for config.schedule, if the program has one: an exercise's code, put before the
// shipped functions, defines it by the name the exercise gives (lab-1f1b: oneFOneB, w5-interleaved-schedule:
// interleavedOps, w5-zero-bubble: zeroBubbleOps). `typeof` of a name nobody declared is "undefined", so without
// one this is null and the Workers run the core's schedule.
export function learnerGenerator(schedule) {
  /* global oneFOneB, interleavedOps, zeroBubbleOps */
  if (schedule === "1f1b" && typeof oneFOneB === "function") return oneFOneB;
  if (schedule === "interleaved" && typeof interleavedOps === "function") return interleavedOps;
  if (schedule === "zb-h1" && typeof zeroBubbleOps === "function") return zeroBubbleOps;
  return null;
}

// Every device's list: the learner's generator's, checked (`unit`: the lab says "stage"), or the core's.
// → { lists, learner: whether they are the learner's (then a replay must find a deadlock before anyone waits) }
export function scheduleLists(core, config, unit = "device") {
  const generate = learnerGenerator(config.schedule);
  if (!generate) return { lists: coreLists(core, config), learner: false };
  const P = config.devices, m = config.microBatches, v = config.chunksPerDevice;
  return { lists: Array.from({ length: P }, (_, d) => checkOps(generate(d, P, m, v), config, d, unit)), learner: true };
}

// A learner's list, checked: each of the device's (micro-batch, chunk) pairs forwarded once, then backwarded
// once, a W at most once and after its B. A bad list is an error that names the device (`unit`: the lab says
// "stage") and the operation, never a silent wrong gradient. With one chunk per device (v = 1) an operation may
// leave out its chunk: it is the device's own.
export function checkOps(ops, config, device, unit = "device") {
  const P = config.devices, m = config.microBatches, v = config.schedule === "interleaved" ? config.chunksPerDevice : 1;
  if (!Array.isArray(ops)) throw new Error(`the operations of ${unit} ${device} must be an array of {op, mb, chunk}, got ${typeof ops}`);
  if (v === 1) ops = ops.map((o) => (o && typeof o === "object" && o.chunk === undefined ? { ...o, chunk: device } : o));
  const done = { F: new Set(), B: new Set(), W: new Set() }, name = (o) => `${o.op}(${o.mb}, chunk ${o.chunk})`;
  for (const [i, o] of ops.entries()) {
    const what = `${unit} ${device}, operation ${i} (${JSON.stringify(o)})`;
    if (!o || !["F", "B", "W"].includes(o.op) || !Number.isInteger(o.mb) || o.mb < 0 || o.mb >= m || !Number.isInteger(o.chunk)) {
      throw new Error(`${what}: expected {op: "F", "B" or "W", mb: 0 … ${m - 1}, chunk}`);
    }
    if (o.chunk < 0 || o.chunk >= P * v || o.chunk % P !== device) {
      throw new Error(`${what}: ${unit} ${device} holds chunks ${Array.from({ length: v }, (_, j) => j * P + device).join(", ")} (chunk c lives on ${unit} c mod P)`);
    }
    const key = `${o.mb}:${o.chunk}`;
    if (done[o.op].has(key)) throw new Error(`${what}: ${name(o)} runs twice`);
    if (o.op === "B" && !done.F.has(key)) throw new Error(`${what}: B(${o.mb}, chunk ${o.chunk}) before its forward`);
    if (o.op === "W" && !done.B.has(key)) throw new Error(`${what}: W(${o.mb}, chunk ${o.chunk}) before its B — the weight gradient needs B's dY and dH`);
    done[o.op].add(key);
  }
  if (done.F.size !== v * m || done.B.size !== v * m) {
    throw new Error(`${unit} ${device}: the schedule runs ${done.F.size} forwards and ${done.B.size} backwards, expected ${v * m} of each (m = ${m} micro-batches × ${v} chunk${v > 1 ? "s" : ""})`);
  }
  return ops;
}
