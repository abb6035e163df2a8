// layouts.js — widget "layouts" (section 8): core.price3dLayouts — every (t, p, d) of 8 nodes × 8 GPUs for a
// transformer preset — as a table: memory per GPU, step time split into bubble, tensor, pipeline and data
// communication (compute, 6ΨT/(N·F), is the same in every layout and said once, above the table); rows that do not
// fit in 80 GB struck through and marked in words for screen readers, the fastest that fits marked. Eight columns
// fit the page's column at 1280 px; on a phone the table scrolls inside its box (with a shadow at the cut edge).
import { controlRow, readout, select } from "../../../web/ui/controls.js";
import { formatBytes, formatSeconds } from "../../../web/units.js";
import { LAYOUT_EXAMPLE } from "../scale_setup.js";

const MODELS = [["gpt3-6.7b", "GPT-3 6.7B"], ["opt-30b", "OPT-30B"], ["gpt3-175b", "GPT-3 175B"]];
const s = (x) => formatSeconds(x, { digits: 3 });
const step = (x) => formatSeconds(x, { digits: 4 });   // layouts differ by milliseconds in 20 s
const GB = (x) => formatBytes(x, { digits: 3 });

export function mountLayouts(figure, core) {
  const model = select({ label: "Model", value: LAYOUT_EXAMPLE.model, options: MODELS, onChange: draw });
  const zero = select({ label: "Optimizer state", value: "replicated", options: [["replicated", "replicated"], ["zero1", "ZeRO-1"]], onChange: draw });
  const recompute = select({ label: "Recomputation", value: "none", options: [["none", "none"], ["full", "full"]], onChange: draw });
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
    const r = core.price3dLayouts({ ...LAYOUT_EXAMPLE, model: model.value, fullRecomputation: recompute.value === "full" });
    const fits = (row) => (z1 ? row.fitsZero1 : row.fits), mem = (row) => (z1 ? row.memoryZero1Bytes : row.memoryBytes);
    const ok = r.rows.filter(fits), best = ok.reduce((a, b) => (!a || b.step < a.step ? b : a), null);
    const table = document.createElement("table");
    table.style.whiteSpace = "nowrap";
    table.innerHTML = `<caption>${MODELS.find(([k]) => k === model.value)[1]} on ${LAYOUT_EXAMPLE.nodes} × ${LAYOUT_EXAMPLE.gpusPerNode} GPUs</caption>
      <thead><tr><th scope="col">(t, p, d)</th><th scope="col">m</th><th scope="col">memory</th><th scope="col">step</th>
      <th scope="col">bubble</th><th scope="col">tensor</th><th scope="col">pipeline</th><th scope="col">data</th></tr></thead>`;
    const body = document.createElement("tbody");
    for (const row of [...r.rows].sort((a, b) => a.step - b.step)) {
      const tr = document.createElement("tr");
      if (!fits(row)) tr.style.textDecoration = "line-through";
      if (row === best) tr.style.fontWeight = "bold";
      tr.innerHTML = `<td>(${row.t}, ${row.p}, ${row.d})${row === best ? " ★" : ""}</td><td>${row.microBatches}</td><td>${GB(mem(row))}${fits(row) ? "" : '<span class="visually-hidden"> (does not fit)</span>'}</td>` +
        `<td>${step(row.step)}</td><td>${s(row.bubble)}</td><td>${s(row.tensor)}</td><td>${s(row.pipeline)}</td><td>${s(row.data)}</td>`;
      body.append(tr);
    }
    table.append(body);
    box.replaceChildren(table);
    out.innerHTML = `${r.rows.length} layouts, <strong>${ok.length}</strong> fit in 80 GB. ` + (best
      ? `Fastest that fits: <strong>(${best.t}, ${best.p}, ${best.d})</strong>, ${step(best.step)} a step at ${GB(mem(best))} per GPU (★). `
      : "None fits: add ZeRO-1 or recomputation. ") + `Compute is ${s(r.rows[0].compute)} in every layout: step = compute + bubble + tensor + pipeline + data. ` +
      "Struck through: does not fit. Sorted by step time.";
  }
  draw();
}
