// train_report.js — what the training panel shows after a run, all read from the run itself: the memory each
// Worker actually held (stacked bars per rank, beside the accountant's closed form where one exists), the
// bytes a step moved by kind (from the cluster's trace, beside the C++ strategy's own log where one exists) and,
// with MoE blocks, the tokens each expert wanted and kept (the ranks' routers, beside core.trainSingleMoe's).
import { formatBytes } from "../../../web/units.js";
import { make } from "../../../web/ui/element.js";
import { bytesByKind } from "../programs/lab_program.js";

const PARTS = [["params", "parameters"], ["grads", "gradients"], ["optimizer", "optimizer state"],
  ["activations", "activations (peak)"], ["gathered", "gathered weights (FSDP, transient)"]];

// The C++ strategy that runs the same configuration, if there is one: its memory accountant (stepCost) and its
// communication log (trainCompare) can then be set beside what the Workers measured.
export function matchingStrategy(config) {
  const { dp, tp, pp } = config.grid, m = config.microBatches;
  if (config.moe?.experts > 0) return null;   // the C++ strategies train the dense model
  if (pp > 1) return dp === 1 && tp === 1 && !config.fsdp ? ({ "1f1b": "pp-1f1b", "gpipe": "pp-gpipe" }[config.schedule] ?? null) : null;
  if (m !== 1) return null;
  if (dp > 1 && tp > 1) return config.fsdp ? "fsdp-tp" : null;
  if (tp > 1) return "tp";
  if (dp > 1) return config.fsdp ? "zero3" : "dp-bucketed";
  return "single";
}

const OPTIMIZER_STATES = { sgd: 0, momentum: 1, adam: 2 };

// What the C++ strategy matching `config` says about it: its memory accountant (stepCost's memoryPerRank) and its
// communication log (trainCompare's commBytes, one step). Null where no strategy matches; a core call that fails
// for a configuration the strategy covers is reported as { error }, shown on the page — never silently dropped
// (tests/exercises/lab_program.test.mjs runs this for every matching grid).
export function coreComparison(core, config) {
  const strategy = matchingStrategy(config);
  if (!strategy) return null;
  const attempt = (f) => { try { return { value: f() }; } catch (err) { return { error: err.message ?? String(err) }; } };
  return {
    strategy,
    memory: attempt(() => core.stepCost({ strategy: strategy === "dp-bucketed" ? "dp" : strategy, grid: config.grid,
      microBatches: config.microBatches, model: config.model, batch: config.batch, flops: 1e12, alpha: 1e-6,
      beta: 1e-9, elementBytes: 8, optimizerStates: OPTIMIZER_STATES[config.optimizer.kind] }).memoryPerRank),
    bytes: strategy === "single" ? { value: null } : attempt(() => core.trainCompare({ strategy, grid: config.grid,
      microBatches: config.microBatches, bucketBytes: 2 ** 40, model: config.model, optimizer: config.optimizer,
      batch: config.batch, steps: 1, seed: config.seed }).commBytes),
  };
}

// Stacked bars of the bytes each rank held, and a sentence comparing them with the accountant.
export function renderMemory(box, results, config, core, rankName, comparison = coreComparison(core, config)) {
  const strategy = comparison?.strategy, model = comparison?.memory.value;
  const total = (m) => PARTS.reduce((n, [k]) => n + (m[k] ?? 0), 0);
  const most = Math.max(...results.map((r) => total(r.memory)), 1);
  const bars = make("div", { class: "bars", role: "list", "aria-label": "Memory held by each Worker" });
  results.forEach((r, rank) => {
    const row = make("div", { class: "bar-row", role: "listitem" });
    const track = make("div", { class: "bar-track", "aria-hidden": "true" });
    let left = 0;
    for (const [key, label] of PARTS) {
      const w = (100 * (r.memory[key] ?? 0)) / most;
      if (w <= 0) continue;
      const seg = make("div", { class: `bar-seg mem-${key}`, title: `${label}: ${formatBytes(r.memory[key])}` });
      seg.style.left = `${left}%`;
      seg.style.width = `${w}%`;
      track.append(seg);
      left += w;
    }
    const name = make("span", {}, `${rankName(rank)}: ${formatBytes(total(r.memory))}`);
    name.append(make("span", { class: "visually-hidden" }, ` (${PARTS.filter(([k]) => r.memory[k] > 0)
      .map(([k, label]) => `${label} ${formatBytes(r.memory[k])}`).join(", ")})`));
    row.append(name, track);
    bars.append(row);
  });
  const legend = make("p", { class: "mem-legend" });
  for (const [key, label] of PARTS) {
    const item = make("span", { class: "mem-key" });
    item.append(make("span", { class: `mem-swatch mem-${key}`, "aria-hidden": "true" }), label);
    legend.append(item);
  }
  const note = make("p", { class: "widget-readout" });
  if (model) {
    const keys = ["params", "grads", "optimizer", "activations"];
    const agree = results.every((r, rank) => keys.every((k) => r.memory[k] === model[rank][k]));
    note.textContent = agree
      ? `The memory accountant (core.stepCost, ${strategy}, 8-byte values) predicts exactly these bytes of ` +
        "parameters, gradients, optimizer state and activations for every rank."
      : `The memory accountant (core.stepCost, ${strategy}) predicts ${model.map((m, r) => `${rankName(r)} ${formatBytes(m.total)}`)
        .join(", ")} — it differs from the measurement here.`;
  } else if (comparison?.memory.error) {
    note.textContent = `The memory accountant (core.stepCost, ${strategy}) failed on this configuration: ${comparison.memory.error}`;
  } else {
    note.textContent = "No closed-form accountant covers this combination of dimensions; the bars are the Workers' own buffers.";
  }
  box.replaceChildren(legend, bars, note);
}

// A table of the bytes of the last step by kind, from the trace.
export function renderBytes(box, run, config, core, comparison = coreComparison(core, config)) {
  const step = config.steps - 1;
  const measured = Object.entries(bytesByKind(run.trace, step, { byGroup: true }));
  const logged = comparison?.bytes.value ?? null;
  const table = make("table", { class: "bytes-table" });
  table.append(make("caption", {}, `Bytes sent in step ${step} (the last), read from the cluster's trace`));
  const head = table.createTHead().insertRow();
  const cols = ["What", "Messages", "All ranks", "Busiest rank", ...(logged ? ["C++ strategy's log (busiest rank)"] : [])];
  for (const c of cols) head.append(make("th", { scope: "col" }, c));
  const body = table.createTBody();
  for (const [label, e] of measured) {
    const tr = body.insertRow();
    const [what, group] = label.split(":");
    const cells = [`${what} over ${group}`, String(e.count), formatBytes(e.total), formatBytes(e.busiest)];
    if (logged) cells.push(logged[what] === undefined ? "—" : `${formatBytes(logged[what])}${logged[what] === e.busiest ? " ✓" : ""}`);
    cells.forEach((text, i) => { const td = tr.insertCell(); td.textContent = text; if (i) td.className = "num"; });
  }
  if (!measured.length) {
    const td = body.insertRow().insertCell();
    td.colSpan = cols.length;
    td.textContent = "No messages: a single rank trains alone.";
  }
  const scroll = make("div", { class: "table-scroll" });
  scroll.append(table);
  box.replaceChildren(scroll);
  if (comparison?.bytes.error) {
    box.append(make("p", { class: "widget-readout" },
      `The C++ strategy (core.trainCompare, ${comparison.strategy}) failed on this configuration: ${comparison.bytes.error}`));
  }
}

// Per MoE block, a row per expert: assignments routed to it (wanted) and placed within its capacity (kept), from
// the ranks' own routers in the last step, and whether the single-device run routed exactly the same.
export function renderLoad(box, load, reference) {
  const equal = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
  const same = load.length === reference.length && load.every((l, i) => l.block === reference[i].block &&
    equal(l.wanted, reference[i].wanted) && equal(l.kept, reference[i].kept));
  // The trace tables' smaller type (style.css .trace-table), so the four columns fit a 360 px phone.
  const table = make("table", { class: "bytes-table load-table", style: "font-size: 0.85rem" });
  table.append(make("caption", {}, "Assignments per expert in the last step (b1 e0: expert 0 of MoE block 1)"));
  const head = table.createTHead().insertRow();
  for (const c of ["Expert", "Wanted", "Kept", "Dropped"]) head.append(make("th", { scope: "col" }, c));
  const body = table.createTBody();
  for (const { block, wanted, kept } of load) {
    wanted.forEach((w, e) => {
      const tr = body.insertRow();
      [`b${block} e${e}`, String(w), String(kept[e]), String(w - kept[e])].forEach((text, i) => {
        const td = tr.insertCell();
        td.textContent = text;
        if (i) td.className = "num";
      });
    });
  }
  const scroll = make("div", { class: "table-scroll" });
  scroll.append(table);
  const dropped = load.reduce((n, l) => n + l.dropped, 0), wanted = load.reduce((n, l) => n + l.wanted.reduce((a, b) => a + b, 0), 0);
  const note = make("p", { class: "widget-readout" }, `${dropped} of ${wanted} assignments dropped, summed over the ranks' ` +
    "micro-batches (an expert's capacity is per micro-batch; a dropped token passes through its block's residual). " +
    (same ? "The single-device run (core.trainSingleMoe) routed exactly the same tokens." : "The single-device run routed DIFFERENT tokens."));
  box.replaceChildren(scroll, note);
}
