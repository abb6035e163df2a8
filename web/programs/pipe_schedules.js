// pipe_schedules.js — the course's four pipeline schedules as per-device operation lists, the form every Worker of
// Week 5's pipeline (lessons/week5/programs/pipe_device.js) and every stage of the lab (lessons/lab/programs/
// lab_train.js) executes: { op: "F" | "B" | "W", mb, chunk }. The model is cut into C = P·v chunks and
// chunk c lives on device c mod P (v chunks per device; v = 1 but for interleaved). F(mb, c) runs micro-batch mb
// forward through chunk c; B(mb, c) its backward — the input gradient AND the weight gradient, unless the list also
// has a W(mb, c): then B is only the input gradient (what chunk c − 1 waits for) and W the weight gradient that
// nobody waits for (Qi et al., ICLR 2024). Shipped into the Workers as source text: self-contained functions only.
// The same generators as the core's (core/pipeline/*.cpp), so a Workers run and pipelineTimeline draw one schedule.

// GPipe (Huang et al. 2019): every forward, then every backward.
export function gpipeOps(device, devices, microBatches) {
  const ops = [];
  for (let mb = 0; mb < microBatches; mb++) ops.push({ op: "F", mb, chunk: device });
  for (let mb = 0; mb < microBatches; mb++) ops.push({ op: "B", mb, chunk: device });
  return ops;
}

// 1F1B (PipeDream-Flush, Narayanan et al. 2021): P − d − 1 warm-up forwards, then one forward and the oldest
// pending backward, then the drain — at most P − d micro-batches alive on device d. (The lab's exercise lab-1f1b has
// the learner write this function, by this name, returning {op, mb}: one chunk per stage, its own.)
export function oneFOneB(device, devices, microBatches) {
  const warmup = Math.min(devices - device - 1, microBatches), ops = [];
  for (let mb = 0; mb < warmup; mb++) ops.push({ op: "F", mb, chunk: device });
  for (let i = 0; i < microBatches - warmup; i++) {
    ops.push({ op: "F", mb: warmup + i, chunk: device });
    ops.push({ op: "B", mb: i, chunk: device });
  }
  for (let mb = microBatches - warmup; mb < microBatches; mb++) ops.push({ op: "B", mb, chunk: device });
  return ops;
}

// Interleaved 1F1B (Megatron-LM, Narayanan et al., SC 2021): 1F1B over the device's v·m "virtual micro-batches".
// The k-th forward is micro-batch ⌊k / Pv⌋·P + k mod P through local chunk ⌊k / P⌋ mod v (groups of P micro-batches,
// chunk by chunk); the k-th backward the same micro-batch through local chunk v − 1 − ⌊k / P⌋ mod v. Warm-up:
// 2(P − d − 1) + (v − 1)·P forwards, enough for micro-batch 0 to reach the last chunk and come back.
export function interleavedOps(device, devices, microBatches, chunksPerDevice) {
  const P = devices, v = chunksPerDevice, total = v * microBatches, ops = [];
  const mbOf = (k) => Math.floor(k / (P * v)) * P + (k % P);
  const forward = (k) => ops.push({ op: "F", mb: mbOf(k), chunk: (Math.floor(k / P) % v) * P + device });
  const backward = (k) => ops.push({ op: "B", mb: mbOf(k), chunk: (v - 1 - (Math.floor(k / P) % v)) * P + device });
  const warmup = Math.min(2 * (P - device - 1) + (v - 1) * P, total);
  for (let k = 0; k < warmup; k++) forward(k);
  for (let k = 0; k < total - warmup; k++) { forward(warmup + k); backward(k); }
  for (let k = total - warmup; k < total; k++) backward(k);
  return ops;
}

// ZB-H1 (Qi et al. 2024): 1F1B with the backward split. min(P − d, m) warm-up forwards; then for each micro-batch
// B, and while forwards remain the next forward, preceded by the oldest W when the device already holds P
// micro-batches (1F1B's peak, so memory does not grow); in the drain a W after each B, then the Ws still owed.
// With t_f = t_b = t_w the step takes 3m + P − 1 against 1F1B's 3(m + P − 1): a third of the bubble.
export function zeroBubbleOps(device, devices, microBatches) {
  const P = devices, m = microBatches, ops = [];
  let forwards = 0, weights = 0;
  const forward = () => ops.push({ op: "F", mb: forwards++, chunk: device });
  const weight = () => ops.push({ op: "W", mb: weights++, chunk: device });
  while (forwards < Math.min(P - device, m)) forward();
  for (let k = 0; k < m; k++) {
    ops.push({ op: "B", mb: k, chunk: device });
    if (forwards < m) {
      if (forwards - weights === P) weight();
      forward();
    } else {
      weight();
    }
  }
  while (weights < m) weight();
  return ops;
}

// The operations of `device` for config.schedule ("gpipe", "1f1b", "interleaved", "zb-h1"), as the generator returns
// them (a learner's, in an exercise).
export function scheduleOps(config, device) {
  const P = config.devices, m = config.microBatches;
  const make = { "gpipe": () => gpipeOps(device, P, m), "1f1b": () => oneFOneB(device, P, m),
    "interleaved": () => interleavedOps(device, P, m, config.chunksPerDevice), "zb-h1": () => zeroBubbleOps(device, P, m) }[config.schedule];
  if (!make) throw new Error(`unknown schedule ${JSON.stringify(config.schedule)} (gpipe, 1f1b, interleaved, zb-h1)`);
  return make();
}

// A device's operations, checked: each of the device's (micro-batch, chunk) pairs forwarded once, then backwarded
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

// The checked operations of `device` for config.schedule.
export function deviceOps(config, device) {
  return checkOps(scheduleOps(config, device), config, device);
}
