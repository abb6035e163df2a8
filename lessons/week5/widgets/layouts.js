// layouts.js — widget "layouts" (section #design): core.price3dLayouts — every (t, p, d) of 8 nodes × 8 GPUs for a
// transformer preset, each row the planner's plan_step — as a table: memory per GPU, and the step split into the
// terms the axes add (compute, bubble, tensor, pipeline, data; the optimizer's update is the rest of the step, said
// in the readout). Rows that do not fit in the GPU's memory are struck through and marked in words for screen
// readers, the fastest that fits marked. Nine columns fit the page's column at 1280 px (at 0.85rem, as the trace
// tables); on a phone the table scrolls inside its box (with a shadow at the cut edge).
import { controlRow, readout, select } from "../../../web/ui/controls.js";
import { formatBytes, formatSeconds } from "../../../web/units.js";
import { LAYOUT_EXAMPLE, fastestFitting, planOf } from "../scale_setup.js";

const MODELS = [["gpt3-6.7b", "GPT-3 6.7B"], ["opt-30b", "OPT-30B"], ["gpt3-175b", "GPT-3 175B"]];
const RECOMPUTATION = [["none", "none"], ["selective", "selective"], ["full", "full"]];
const COLUMNS = ["compute", "bubble", "tensor", "pipeline", "data"];
const s = (x) => formatSeconds(x, { digits: 3 });
const GB = (x) => formatBytes(x, { digits: 3 });

function layoutTable(caption, rows, zero1, best) {
  const table = document.createElement("table");
  table.style.cssText = "white-space:nowrap;font-size:0.85rem";  // nine columns fit the page's column at 1280 px
  table.innerHTML = `<caption>${caption}</caption><thead><tr><th scope="col">(t, p, d)</th><th scope="col">m</th>` +
    `<th scope="col">memory</th><th scope="col">step</th>${COLUMNS.map((c) => `<th scope="col">${c}</th>`).join("")}</tr></thead>`;
  const body = document.createElement("tbody");
  for (const row of [...rows].sort((a, b) => planOf(a, zero1).time.total - planOf(b, zero1).time.total)) {
    const plan = planOf(row, zero1), tr = document.createElement("tr");
    if (!plan.fits) tr.style.textDecoration = "line-through";
    if (row === best) tr.style.fontWeight = "bold";
    tr.innerHTML = `<td>(${row.t}, ${row.p}, ${row.d})${row === best ? " ★" : ""}</td><td>${row.microBatches}</td>` +
      `<td>${GB(plan.memory.total)}${plan.fits ? "" : '<span class="visually-hidden"> (does not fit)</span>'}</td>` +
      `<td>${s(plan.time.total)}</td>${COLUMNS.map((c) => `<td>${s(plan.time[c])}</td>`).join("")}`;
    body.append(tr);
  }
  table.append(body);
  return table;
}

export function mountLayouts(figure, core) {
  const model = select({ label: "Model", value: LAYOUT_EXAMPLE.model, options: MODELS, onChange: draw });
  const zero = select({ label: "Optimizer state", value: "replicated", options: [["replicated", "replicated"], ["zero1", "ZeRO-1"]], onChange: draw });
  const recompute = select({ label: "Recomputation", value: "none", options: RECOMPUTATION, onChange: draw });
  controlRow(figure, model, zero, recompute);
  const out = readout(figure);
  const box = document.createElement("div");
  box.className = "table-scroll";
  box.style.cssText = "overflow-x:auto;max-width:100%";
  box.tabIndex = 0;
  box.setAttribute("role", "region");
  box.setAttribute("aria-label", "Every layout priced");
  out.after(box);

  function draw() {
    const z1 = zero.value === "zero1";
    const r = core.price3dLayouts({ ...LAYOUT_EXAMPLE, model: model.value, recomputation: recompute.value });
    const fitting = r.rows.filter((row) => planOf(row, z1).fits), best = fastestFitting(r.rows, z1);
    const updates = r.rows.map((row) => planOf(row, z1).time.optimizer);
    const name = MODELS.find(([k]) => k === model.value)[1];
    box.replaceChildren(layoutTable(`${name} on ${LAYOUT_EXAMPLE.nodes} × ${LAYOUT_EXAMPLE.gpusPerNode} GPUs`, r.rows, z1, best));
    const plan = best && planOf(best, z1);
    out.innerHTML = `${r.rows.length} layouts, <strong>${fitting.length}</strong> fit in ${GB(r.capacity)}. ` + (best
      ? `Fastest that fits: <strong>(${best.t}, ${best.p}, ${best.d})</strong>, ${s(plan.time.total)} a step at ` +
        `${GB(plan.memory.total)} per GPU (★), of which ${s(plan.time.compute)} is compute. `
      : "None fits: add ZeRO-1 or recomputation. ") +
      `Every row is the planner's step: compute + bubble + tensor + pipeline + data + Adam's update ` +
      `(${s(Math.min(...updates))} to ${s(Math.max(...updates))}, not shown). Struck through: does not fit. Sorted by step time.`;
  }
  draw();
}
