// planner.js — widget "planner": pick a model, a cluster and a layout; the core's planStep (dsml/planner.h, the
// function `dsml plan` calls) prices one step. The step split as a bar, memory per GPU as a stacked bar against the
// GPU's capacity, MFU/HFU and tokens/s, and the fastest layouts that fit (searchLayouts). A Table 1 row loaded from
// the "table1" widget arrives as a "planner:load" event.
import { formatBytes, formatNumber, formatSeconds } from "../../../web/units.js";
import { plan, presets } from "../planner_setup.js";

const STEP_PARTS = [["compute", "compute"], ["bubble", "pipeline bubble"], ["tensor", "tensor-parallel collectives"],
  ["pipeline", "pipeline sends"], ["data", "data-parallel collectives"], ["optimizer", "optimizer"]];
const MEMORY_PARTS = [["params", "weights"], ["grads", "gradients"], ["optimizer", "optimizer state"],
  ["activations", "activations"]];
const COLOURS = ["--chart-1", "--chart-2", "--chart-3", "--chart-4", "--chart-5", "--chart-6"];
let uid = 0;

function field(label, input) {
  const wrap = document.createElement("div");
  wrap.className = "control";
  const id = `planner-${uid++}`;
  input.id = id;
  const lab = document.createElement("label");
  lab.htmlFor = id;
  lab.textContent = label;
  wrap.append(lab, input);
  return wrap;
}
function numberInput(value, min, max) {
  const i = document.createElement("input");
  Object.assign(i, { type: "number", value, min, max, step: 1 });
  i.inputMode = "numeric";
  return i;
}
function selectInput(options, value) {
  const s = document.createElement("select");
  for (const [v, text] of options) s.append(new Option(text, v, false, v === value));
  return s;
}
function checkbox(checked) {
  const c = document.createElement("input");
  c.type = "checkbox";
  c.checked = checked;
  return c;
}

// A horizontal stacked bar: parts [label, value], scaled to `whole`; a text line says the same for screen readers.
function stackedBar(parts, whole, format) {
  const bar = document.createElement("div");
  bar.className = "planner-bar";
  bar.setAttribute("role", "img");
  bar.setAttribute("aria-label", parts.map(([l, v]) => `${l} ${format(v)}`).join(", "));
  parts.forEach(([label, v], i) => {
    const seg = document.createElement("span");
    seg.style.width = `${Math.max(0, (100 * v) / whole)}%`;
    seg.style.background = `var(${COLOURS[i % COLOURS.length]})`;
    seg.title = `${label}: ${format(v)}`;
    bar.append(seg);
  });
  const legend = document.createElement("p");
  legend.className = "planner-legend";
  legend.textContent = parts.map(([l, v]) => `${l} ${format(v)}`).join(" · ");
  return [bar, legend];
}

export function mountPlanner(figure, core) {
  const all = presets(core);
  const s = { model: "gpt3-175b", gpu: "a100-80gb", nodes: 64, t: 8, p: 8, v: 1, b: 1, B: 1536, zero: 0, sp: true,
    recompute: "selective", overlap: true };
  const inputs = {
    model: selectInput(all.models.map((m) => [m.name, m.name]), s.model),
    gpu: selectInput(all.gpus.map((g) => [g.name, g.name]), s.gpu),
    nodes: numberInput(s.nodes, 1, 4096), t: numberInput(s.t, 1, 8), p: numberInput(s.p, 1, 256),
    v: numberInput(s.v, 1, 16), b: numberInput(s.b, 1, 64), B: numberInput(s.B, 1, 65536),
    zero: selectInput([["0", "0"], ["1", "1"], ["2", "2"], ["3", "3"]], String(s.zero)),
    recompute: selectInput([["none", "none"], ["selective", "selective"], ["full", "full"]], s.recompute),
    sp: checkbox(s.sp), overlap: checkbox(s.overlap),
  };
  const labels = { model: "Model", gpu: "GPU", nodes: "Nodes (8 GPUs each)", t: "Tensor t", p: "Pipeline p",
    v: "Chunks v", b: "Micro-batch b", B: "Global batch B", zero: "ZeRO stage", recompute: "Recomputation",
    sp: "Sequence parallel", overlap: "Overlap DP" };
  const row = document.createElement("div");
  row.className = "widget-controls";
  for (const [k, el] of Object.entries(inputs)) {
    row.append(field(labels[k], el));
    el.addEventListener(el.tagName === "SELECT" || el.type === "checkbox" ? "change" : "input", () => { read(); draw(); });
  }
  const out = document.createElement("div");
  out.className = "planner-out";
  out.setAttribute("aria-live", "polite");
  const searchButton = document.createElement("button");
  searchButton.type = "button";
  searchButton.textContent = "Find the fastest layouts that fit";
  const best = document.createElement("div");
  best.className = "scroll-x";
  figure.prepend(row, out, searchButton, best);

  function read() {
    s.model = inputs.model.value;
    s.gpu = inputs.gpu.value;
    for (const k of ["nodes", "t", "p", "v", "b", "B"]) s[k] = Number(inputs[k].value);
    s.zero = Number(inputs.zero.value);
    s.recompute = inputs.recompute.value;
    s.sp = inputs.sp.checked;
    s.overlap = inputs.overlap.checked;
  }
  function write() {
    for (const k of ["model", "gpu", "nodes", "t", "p", "v", "b", "B", "recompute"]) inputs[k].value = String(s[k]);
    inputs.zero.value = String(s.zero);
    inputs.sp.checked = s.sp;
    inputs.overlap.checked = s.overlap;
  }
  function draw() {
    out.replaceChildren();
    const gpus = s.nodes * 8;
    let r;
    try {
      if (gpus % (s.t * s.p)) throw new Error(`t·p = ${s.t}·${s.p} must divide the ${gpus} GPUs (d is what is left)`);
      r = plan(core, s);
    } catch (e) {
      const p = document.createElement("p");
      p.className = "planner-error";
      p.textContent = `Not a layout: ${e.message}.`;
      out.append(p);
      return;
    }
    const head = document.createElement("p");
    head.innerHTML = `d = <strong>${r.layout.d}</strong>, ${r.microBatches} micro-batches per pipeline.
      Step <strong data-out="step">${formatSeconds(r.time.total)}</strong>, MFU <strong data-out="mfu">${formatNumber(100 * r.mfu)} %</strong>
      (HFU ${formatNumber(100 * r.hfu)} %), ${formatNumber(r.tflopsPerGpu)} TFLOP/s per GPU,
      ${formatNumber(r.tokensPerS)} tokens/s. Memory per GPU ${formatBytes(r.memory.total)} of
      ${formatBytes(r.capacity)}: <strong>${r.fits ? "fits" : "does not fit"}</strong>.`;
    const stepTitle = document.createElement("p");
    stepTitle.textContent = "Where the step goes:";
    const memTitle = document.createElement("p");
    memTitle.textContent = "Memory per GPU (first stage) against the GPU's capacity:";
    const mem = MEMORY_PARTS.map(([k, l]) => [l, r.memory[k]]);
    out.append(head, stepTitle, ...stackedBar(STEP_PARTS.map(([k, l]) => [l, r.time[k]]), r.time.total, formatSeconds),
      memTitle, ...stackedBar(mem, Math.max(r.capacity, r.memory.total), formatBytes));
  }
  searchButton.addEventListener("click", () => {
    const models = presets(core).models, gpusList = presets(core).gpus;
    const found = core.searchLayouts({ model: models.find((m) => m.name === s.model),
      cluster: { gpu: gpusList.find((g) => g.name === s.gpu), nodes: s.nodes, gpusPerNode: 8 }, globalBatch: s.B });
    best.replaceChildren();
    if (!found.length) {
      best.textContent = "No layout fits this model on this cluster.";
      return;
    }
    const table = document.createElement("table");
    table.innerHTML = `<caption>The fastest layouts that fit (selective recomputation, sequence parallelism,
      overlapped data parallelism)</caption><thead><tr><th>t</th><th>p</th><th>v</th><th>d</th><th>b</th><th>ZeRO</th>
      <th>step</th><th>MFU</th><th>memory</th><th></th></tr></thead>`;
    const body = document.createElement("tbody");
    for (const r of found) {
      const tr = document.createElement("tr");
      const L = r.layout;
      tr.innerHTML = `<td>${L.t}</td><td>${L.p}</td><td>${L.v}</td><td>${L.d}</td><td>${L.microBatch}</td>
        <td>${L.zeroStage}</td><td>${formatSeconds(r.time.total)}</td><td>${formatNumber(100 * r.mfu)} %</td>
        <td>${formatBytes(r.memory.total)}</td>`;
      const use = document.createElement("button");
      use.type = "button";
      use.textContent = "Use";
      use.setAttribute("aria-label", `Use t ${L.t}, p ${L.p}, v ${L.v}`);
      use.addEventListener("click", () => {
        Object.assign(s, { t: L.t, p: L.p, v: L.v, b: L.microBatch, zero: L.zeroStage, sp: L.sequenceParallel,
          recompute: L.recomputation, overlap: L.overlapDp });
        write();
        draw();
      });
      const td = document.createElement("td");
      td.append(use);
      tr.append(td);
      body.append(tr);
    }
    table.append(body);
    best.append(table);
  });
  document.addEventListener("planner:load", (e) => {
    Object.assign(s, e.detail);
    write();
    draw();
    figure.scrollIntoView({ block: "start" });
  });
  draw();
}
